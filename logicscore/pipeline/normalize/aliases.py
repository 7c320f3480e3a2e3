"""Names the text itself declares equal: "Hubert August Piel, known as Harry Piel",
"Léonor (also known as Mistress of the Devil)". Spelling cannot join these (the names share
one word or none), yet every hop through one of them needs both to be one entity."""

from __future__ import annotations

from collections.abc import Sequence

from ...lexicon.relations import ALIAS_RELATIONS
from ...models import LITERAL_KINDS, Proposition
from .clusters import Rec



def is_alias(p: Proposition) -> bool:
    """A positive, asserted "known as" between two capitalised names."""
    if p.negated or p.hedged or p.relation.lower() not in ALIAS_RELATIONS:
        return False
    return p.subject[:1].isupper() and p.object[:1].isupper()


def alias_pairs(propositions: Sequence[Proposition],
                pairs: Sequence[tuple[Rec | None, Rec | None]]) -> list[tuple[Rec, Rec]]:
    """(subject record, object record) of every alias proposition between names NER took
    for neither a date nor a number."""
    return [(s, o) for p, (s, o) in zip(propositions, pairs)
            if s is not None and o is not None and is_alias(p)
            and s.kind not in LITERAL_KINDS and o.kind not in LITERAL_KINDS]
