"""Names the text itself declares equal: "Hubert August Piel, known as Harry Piel",
"Léonor (also known as Mistress of the Devil)". Spelling cannot join these (the names share
one word or none), yet every hop through one of them needs both to be one entity."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..models import Proposition

# Relations (lemmatized, as the rules extractor writes them) that assert another name.
ALIAS_RELATIONS = frozenset({
    "know as", "also know as", "better know as", "well know as", "commonly know as",
    "professionally know as", "nickname", "also call",
})
_LITERAL = frozenset({"date", "number"})


def is_alias(p: Proposition) -> bool:
    """A positive, asserted "known as" between two capitalised names."""
    if p.negated or p.hedged or p.relation.lower() not in ALIAS_RELATIONS:
        return False
    return all(arg[:1].isupper() and not arg[:1].isdigit() for arg in (p.subject, p.object))


def alias_pairs(propositions: Sequence[Proposition], pairs: Sequence[tuple[Any, Any]],
                kind_of: Callable[[Any], str]) -> list[tuple[Any, Any]]:
    """(subject record, object record) of every alias proposition between names that are
    neither dates nor numbers (NER's kinds, through `kind_of`)."""
    out = []
    for p, (s, o) in zip(propositions, pairs):
        if s is None or o is None or not is_alias(p):
            continue
        if kind_of(s) in _LITERAL or kind_of(o) in _LITERAL:
            continue
        out.append((s, o))
    return out
