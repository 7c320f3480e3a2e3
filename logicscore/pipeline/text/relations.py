"""Relation phrases → relation families with argument roles (docs/metrics.md).

Contradiction and determinateness need to know that "X was directed by A", "A directed X",
"A is the director of X" and "X's director is A" are one claim, and that "born in A" and
"is a native of B" give two values of one functional relation. Voice and wording are
surface: a phrase maps to a family and says which argument its grammatical subject fills.

The table is small and written as English phrases; it covers common relations of
encyclopaedic multi-hop questions. A phrase it does not know gets `None`, and callers
fall back to comparing stems, so unknown relations still compare with themselves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ...lexicon.function_words import RELATION_PREPOSITIONS
from ...lexicon.kinds import RELATION_TYPE_NOUNS
from ...lexicon.relations import FAMILIES, PERSON_SLOTS
from ...lexicon.stop_words import RELATION_STOP_WORDS
from ...lexicon.text import stem

__all__ = ["Role", "FAMILIES", "PERSON_SLOTS", "role", "stem", "phrase_key", "person_args",
           "functional_slots", "symmetric"]


@dataclass(frozen=True)
class Role:
    """A relation phrase read canonically: its family and the subject's argument slot."""

    family: str
    subject_arg: int        # 0: the subject fills the family's first argument; 1: second


_WORD = re.compile(r"[^\W_]+(?:'t)?")


def _tokens(text: str) -> list[str]:
    return [t for t in _WORD.findall(text.casefold().replace("-", " ")) if t not in RELATION_STOP_WORDS]


# Relation phrases repeat across an answer's propositions (and every contradiction and
# determinateness test asks again); a bounded cache keeps memory flat over long streams.
@lru_cache(maxsize=8192)
def phrase_key(text: str) -> tuple[str, ...]:
    """Comparable key of a relation phrase: stems, auxiliaries and adverbs dropped."""
    toks = _tokens(text)
    # "headquartered in the city (of) X" → "headquartered in"; "club of" keeps its noun.
    if (len(toks) >= 3 and toks[-1] in RELATION_PREPOSITIONS and toks[-2] in RELATION_TYPE_NOUNS
            and toks[-3] in RELATION_PREPOSITIONS):
        toks = toks[:-1]
    if len(toks) >= 2 and toks[-1] in RELATION_TYPE_NOUNS and toks[-2] in RELATION_PREPOSITIONS:
        toks = toks[:-1]
    return tuple(stem(t) for t in toks)


def _build() -> dict[tuple[str, ...], Role]:
    table: dict[tuple[str, ...], Role] = {}
    for family, row in FAMILIES.items():
        for phrase in row.phrases:
            inverse = phrase.startswith("~")
            table.setdefault(phrase_key(phrase.lstrip("~")), Role(family, int(inverse)))
    return table


_TABLE = _build()


@lru_cache(maxsize=8192)
def role(relation: str) -> Role | None:
    """The family a relation phrase belongs to, or None when the table does not know it.

    Tries the whole phrase, then its head word with its last preposition ("reportedly
    directed" → "direct"; "is the director of" → "director of").
    """
    key = phrase_key(relation)
    if not key:
        return None
    if key in _TABLE:
        return _TABLE[key]
    content = [t for t in key if t not in RELATION_PREPOSITIONS]
    preps = [t for t in key if t in RELATION_PREPOSITIONS]
    for cand in ((content[-1], preps[-1]) if content and preps else (),
                 (content[-1],) if content else ()):
        if cand and cand in _TABLE:
            return _TABLE[cand]
    return None


def person_args(relation: str) -> tuple[bool, bool]:
    """Whether the (subject, object) of a relation phrase must be a person."""
    r = role(relation)
    if r is None:
        return False, False
    slots = PERSON_SLOTS.get(r.family, ())
    subj = r.subject_arg in slots
    obj = (1 - r.subject_arg) in slots
    return subj, obj


def functional_slots(family: str) -> tuple[int, ...]:
    return FAMILIES[family].functional


def symmetric(family: str) -> bool:
    return FAMILIES[family].symmetric
