"""Determinateness, rules path (docs/metrics.md): does LA alone, closed-world, yield SA?"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import ClassVar

from pydantic import BaseModel, ConfigDict

from .flow import Chain, Completed, Linked, Reading
from ..models import LITERAL_KINDS, Proposition, QARecord, Verdict
from ..lexicon.conclusions import ANSWER_NOUNS
from ..lexicon.function_words import NEGATIONS
from ..lexicon.relations import FAMILIES
from ..lexicon.stop_words import PHRASE_STOP_WORDS
from ..lexicon.text import crude_stem as _stem
from .normalize.phrases import content as _content
from .normalize.phrases import restates_question, words as _words
from .normalize.relations import functional_slots, role, symmetric

__all__ = ["RulesJudge", "judge", "functional", "reading", "same_relation", "role_key", "relation_key",
           "restates_question", "competitors"]

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


def _other(p: Proposition, entity: str) -> tuple[str | None, str]:
    return (p.object_entity, p.object) if p.subject_entity == entity else (p.subject_entity, p.subject)


def competitors(props: list[Proposition], final: list[Proposition], answer: str,
                kinds: Mapping[str, str]) -> tuple[list[Proposition], list[Proposition]]:
    """Propositions giving another value for a final relation: (all, functional conflicts)."""
    linked: set[frozenset] | None = None  # the pairs the text links, built on first need
    # Propositions by entity, in order: each final one is compared with its bridge's only,
    # not with every proposition (quadratic when many touch the answer).
    touching: dict[str, list[Proposition]] = {}
    for q in props:
        for end in dict.fromkeys((q.subject_entity, q.object_entity)):
            if end is not None:
                touching.setdefault(end, []).append(q)
    every, conflict = [], []
    for p in final:
        bridge, _ = _other(p, answer)
        if bridge is None:
            continue
        for q in touching.get(bridge, ()):
            if q is p or q.negated or q.conclusion:
                continue
            value, _ = _other(q, bridge)
            if value in (None, answer, bridge) or not same_relation(p, q, bridge):
                continue
            # "born in Springfield" and "born in Illinois" agree when LA links the two: a
            # place and the larger place containing it are one value, not a competitor.
            if linked is None:
                linked = {frozenset((x.subject_entity, x.object_entity)) for x in props
                          if not x.negated}
            if frozenset((value, answer)) in linked:
                continue
            every.append(q)
            same_class = (kinds.get(value) in LITERAL_KINDS) == (kinds.get(answer) in LITERAL_KINDS)
            if same_class and functional(p, bridge):
                conflict.append(q)
    return every, conflict


def judge(question: str, linked: Linked, result: Chain) -> Verdict:
    """Closed-world verdict on whether LA alone yields SA.

    Args:
        question: the question text Q.
        linked: linked propositions, entities and the answer entity.
        result: the chain analysis.
    Returns:
        "entailed", "contradicted" or "underdetermined".
    """
    props = linked.propositions
    answer = linked.answer_entity
    kinds = {e.id: e.kind for e in linked.entities}
    on_chain = set(result.entity_path) | {q.entity for q in linked.question if q.entity}
    states = negates = other_answer = False
    for p in props:
        ends = (p.subject_entity, p.object_entity)
        if p.conclusion:
            if answer is not None and answer in ends:
                negates |= p.negated
                states |= not p.negated
            elif not p.negated and (_content(p.subject) in ANSWER_NOUNS
                                    or restates_question(p.subject, question, loose=True)):
                other_answer = True  # "So the answer is Tim Burton"
            continue
        if answer is None or answer not in ends:
            continue
        other, other_text = _other(p, answer)
        if p.negated and (other in on_chain or restates_question(other_text, question)):
            negates = True
        elif not p.negated and restates_question(other_text, question):
            states = True
    if answer is None:
        return "contradicted" if other_answer else "underdetermined"
    by_id = {p.id: p for p in props}
    if result.complete and result.chain:
        final = [by_id[result.chain[-1]]]
    else:
        final = [p for p in props if answer in (p.subject_entity, p.object_entity)
                 and not p.negated and not p.conclusion]
    every, conflict = competitors(props, final, answer, kinds)
    if other_answer or negates or conflict or (
            states and not result.complete and _derives_another(question, props, answer, kinds)):
        return "contradicted"
    if states or (result.complete and not every):
        return "entailed"
    return "underdetermined"


def _derives_another(question: str, props: list[Proposition], answer: str,
                     kinds: Mapping[str, str]) -> bool:
    """The body derives a value for what the question asks, then concludes another: "X was
    born in Honolulu. So the answer is Chicago." Only the conclusion names the answer; a body
    claim through a relation the question names reaches a thing of the answer's kind."""
    if any(answer in (p.subject_entity, p.object_entity) for p in props if not p.conclusion):
        return False
    asked = {_stem(w) for w in _words(question)} - {_stem(w) for w in PHRASE_STOP_WORDS}
    kind = kinds.get(answer)
    if kind in (None, "other"):
        return False
    for p in props:
        if p.conclusion or p.negated or not {_stem(w) for w in _words(p.relation)} & asked:
            continue
        if kind in (kinds.get(p.object_entity or ""), kinds.get(p.subject_entity or "")):
            return True
    return False


class RulesJudge:
    """The `judge` stage on the rules path: the verdict the compared sides select, else
    `judge` over the linked propositions and the chain."""

    name: ClassVar[str] = "rules"

    class Config(BaseModel):
        model_config = ConfigDict(extra="forbid")

    def __init__(self, config: RulesJudge.Config | None = None):
        self.config = config or self.Config()

    def judge(self, record: QARecord, linked: Linked, completed: Completed,
              reading: Reading) -> Verdict:
        """Whether LA alone yields SA: "entailed", "contradicted" or "underdetermined"."""
        sides = completed.sides
        if sides is not None and sides.verdict is not None:
            return sides.verdict
        return judge(record.question, linked, completed.chain)

    def signature(self) -> list[tuple[str, object]]:
        return [("det", "rules")]
