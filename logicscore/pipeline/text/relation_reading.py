"""How a proposition's relation reads for one of its entities (docs/metrics.md): the same
relation whatever the voice or wording, and whether it allows one value per entity. The judge
and the signals both ask it, so it sits below every stage."""

from __future__ import annotations

from functools import lru_cache

from ...lexicon.relations import FAMILIES
from ...lexicon.stop_words import PHRASE_STOP_WORDS
from ...lexicon.function_words import NEGATIONS
from ...lexicon.text import crude_stem as _stem
from ...models import Proposition
from .phrases import words as _words
from .relations import functional_slots, role, symmetric

_PASSIVE = "by"
# Relations with one value per entity, for phrases the family table does not list: the
# crude stems of each family's words, and its functional slots. A state holds of its subject
# ("X born in A"); for an action the *patient* has one agent ("A directed X", "X directed by
# A", "X director A").
_FUNCTIONAL_WORDS = tuple(
    (frozenset(_stem(w) for w in row.words),
     row.functional if row.words_functional is None else row.words_functional)
    for row in FAMILIES.values() if row.words)


# Bounded cache: `_fallback_slots` and `_reading` ask it per phrase, and so do callers
# comparing propositions.
@lru_cache(maxsize=8192)
def relation_key(relation: str) -> tuple[tuple[str, ...], bool]:
    """Comparable form of a relation: (content stems, passive voice), negation words dropped."""
    words = _words(relation)
    stems = tuple(_stem(w) for w in words if w not in PHRASE_STOP_WORDS and w not in NEGATIONS)
    return stems, _PASSIVE in words


def _object_acts(relation: str) -> bool:
    """Whether the phrase's object is its doer: a passive, or an agent noun as relation
    ("X director A" reads as "A directs X", like a passive)."""
    words = _words(relation)
    return _PASSIVE in words or any(w.endswith(("or", "er")) and len(w) > 4 for w in words)


def _fallback_slots(relation: str) -> frozenset[int]:
    """The functional slots of the families sharing a stem with a phrase the table lacks."""
    stems = set(relation_key(relation)[0])
    return frozenset(s for words, functional in _FUNCTIONAL_WORDS if stems & words
                     for s in functional)


def _slot(relation: str, subject: bool, present: bool) -> tuple[str, int] | None:
    """(family, argument slot of the entity) when the relation table knows the phrase; the
    entity is the subject (`subject`), or else the object when `present` (it is one of the
    two), or else neither."""
    r = role(relation)
    if r is None or not present:
        return None
    if symmetric(r.family):
        return r.family, 0
    slot = r.subject_arg if subject else 1 - r.subject_arg
    return r.family, slot


# What a proposition's relation says of one entity depends on the phrase and on where the
# entity stands in it alone; contradiction and competitor tests ask it for every pair and
# end (bounded cache).
@lru_cache(maxsize=8192)
def _reading(relation: str, subject: bool, present: bool) -> tuple[tuple | None, bool]:
    """(`role_key`, `functional`) for an entity that is the subject (`subject`), or else
    the object when `present`, or else neither, of a proposition with this relation."""
    known = _slot(relation, subject, present)
    if known is not None:
        return ("family", *known), known[1] in functional_slots(known[0])
    # The entity is the doer ("Nolan directed X", "X directed by Nolan").
    agent = subject != _object_acts(relation)
    stems = relation_key(relation)[0]
    key = ("stems", stems, agent) if stems else None
    # Phrases outside the family table: stems and voice, as a fallback.
    slots = _fallback_slots(relation)
    return key, (subject if 0 in slots else (1 in slots and not agent))


def reading(p: Proposition, entity: str) -> tuple[tuple | None, bool]:
    """(`role_key`, `functional`) of `p` for `entity`, read together."""
    return _reading(p.relation, p.subject_entity == entity,
                    entity in (p.subject_entity, p.object_entity))


def functional(p: Proposition, entity: str) -> bool:
    """Whether `p`'s relation allows one value per `entity` (born in, directed by…)."""
    return reading(p, entity)[1]


def role_key(p: Proposition, entity: str) -> tuple | None:
    """A hashable key equal for two propositions iff `same_relation` holds (None: never same)."""
    return reading(p, entity)[0]


def same_relation(p: Proposition, q: Proposition, entity: str) -> bool:
    """Same relation with `entity` in the same role, whatever the voice or wording."""
    a = role_key(p, entity)
    return a is not None and a == role_key(q, entity)
