"""Relation phrases → relation families with argument roles (SPEC §4.6, §5).

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

__all__ = ["Role", "FAMILIES", "PERSON_SLOTS", "role", "stem", "phrase_key", "person_args",
           "functional_slots", "symmetric"]


@dataclass(frozen=True)
class Role:
    """A relation phrase read canonically: its family and the subject's argument slot."""

    family: str
    subject_arg: int        # 0: the subject fills the family's first argument; 1: second


# family → (which arguments take one value given the other, symmetric, phrases).
# A phrase prefixed with "~" has its grammatical subject in the *second* slot.
# Functional slots: 0 means "arg0 has one arg1" (a person has one birthplace); 1 means
# "arg1 has one arg0" (a film has one director). Multi-valued relations (starring,
# founding, membership, employment) list none: two values are no contradiction.
FAMILIES: dict[str, tuple[tuple[int, ...], bool, tuple[str, ...]]] = {
    # born(person, place)
    "born": ((0,), False, ("born in", "bear in", "born", "native of", "a native of",
                           "~birthplace of", "~birth place of", "~hometown of")),
    # location(thing, place): cities in countries, organisations based in cities
    "location": ((0,), False, ("locate in", "lie in", "situate in", "city in", "town in",
                               "base in", "headquarter in", "headquarters in", "~contain",
                               "~home of", "~home to")),
    # capital(city, country)
    "capital": ((0, 1), False, ("capital of", "~capital", "~have capital")),
    # direct(person, film)
    "direct": ((1,), False, ("direct", "director of", "~direct by", "~director")),
    # write(person, work)
    "write": ((1,), False, ("write", "author of", "writer of", "pen", "~write by", "~author",
                            "~writer", "~pen by")),
    # married(person, person), symmetric
    "married": ((0, 1), True, ("marry", "married to", "marry to", "wed", "spouse of",
                               "wife of", "husband of", "~spouse", "~wife", "~husband")),
    # found(person, organisation): co-founders are common, so not functional
    "found": ((), False, ("found", "co found", "establish", "founder of", "co founder of",
                          "~found by", "~establish by", "~founder")),
    # star(person, film)
    "star": ((), False, ("star in", "appear in", "act in", "star of", "~star", "~feature",
                         "~starring", "~star by")),
    # member(person, group)
    "member": ((), False, ("member of", "join", "belong to", "~include", "~member")),
    # play(person, club)
    "play": ((0,), False, ("play for", "striker for", "player for", "~club of", "~club")),
    # employ(person, organisation)
    "employ": ((), False, ("work for", "work at", "employ by", "employee of", "~employ",
                           "~employer of", "~employer")),
    # adapt(film, source)
    "adapt": ((0,), False, ("adapt from", "adaptation of", "base on", "~adapt into")),
}

# Slots only a person fills (selectional preference): "X was born in", "A directed",
# "the spouse of". Entity linking takes this as person evidence when NER mislabels an
# unfamiliar name (a lone surname may then join that person's full name).
PERSON_SLOTS: dict[str, tuple[int, ...]] = {
    "born": (0,), "direct": (0,), "write": (0,), "married": (0, 1), "found": (0,),
    "star": (0,), "member": (0,), "play": (0,), "employ": (0,),
}

_SKIP = frozenset("""
a an the be is was were are been being am has have had do does did also then later
not never no n't reportedly allegedly reputedly may might could possibly probably once
""".split())
# Type nouns that leak into a relation from a descriptor ("headquartered in the city of X").
_TYPE_NOUNS = frozenset("""
city town village country state nation film movie novel book company firm club team band
group orchestra ensemble
""".split())
_PREPS = frozenset({"in", "of", "by", "for", "from", "to", "into", "on", "at", "with"})
_IRREGULAR = {
    "born": "born", "bore": "born", "borne": "born", "birth": "birth",
    "wrote": "writ", "written": "writ", "writes": "writ", "writing": "writ",
    "lay": "lie", "lain": "lie", "lies": "lie", "lying": "lie",
    "employee": "employee", "wed": "wed", "wedded": "wed", "founder": "founder",
    "found": "found", "founded": "found", "headquarters": "headquarter",
}


def stem(word: str) -> str:
    """A deterministic light stem: "directed"/"directs" → "direct", "married" → "marry"."""
    word = word.casefold().replace("-", " ").strip()
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    for suffix, repl in (("ied", "y"), ("ies", "y")):
        if word.endswith(suffix) and len(word) > 4:
            return word[: -len(suffix)] + repl
    for suffix in ("ation", "ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        word = word[:-1]                       # "starr" (starred) → "star"
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]                       # "include"/"includes" → "includ"
    return word


def _tokens(text: str) -> list[str]:
    return [t for t in re.findall(r"[^\W_]+(?:'t)?", text.casefold().replace("-", " "))
            if t not in _SKIP]


def phrase_key(text: str) -> tuple[str, ...]:
    """Comparable key of a relation phrase: stems, auxiliaries and adverbs dropped."""
    toks = _tokens(text)
    # "headquartered in the city (of) X" → "headquartered in"; "club of" keeps its noun.
    if len(toks) >= 3 and toks[-1] in _PREPS and toks[-2] in _TYPE_NOUNS and toks[-3] in _PREPS:
        toks = toks[:-1]
    if len(toks) >= 2 and toks[-1] in _TYPE_NOUNS and toks[-2] in _PREPS:
        toks = toks[:-1]
    return tuple(stem(t) for t in toks)


def _build() -> dict[tuple[str, ...], Role]:
    table: dict[tuple[str, ...], Role] = {}
    for family, (_, _, phrases) in FAMILIES.items():
        for phrase in phrases:
            inverse = phrase.startswith("~")
            table.setdefault(phrase_key(phrase.lstrip("~")), Role(family, int(inverse)))
    return table


_TABLE = _build()


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
    content = [t for t in key if t not in _PREPS]
    preps = [t for t in key if t in _PREPS]
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
    return FAMILIES[family][0]


def symmetric(family: str) -> bool:
    return FAMILIES[family][1]
