"""Each sentence of the long answer and the part it plays in the audit (docs/records.md).

A sentence is on the `chain` when one of its propositions is on the minimal chain (or, for
a comparison or yes/no question, on a side); `redundant` when it gave propositions and none
of them is; `no_proposition` when it gave none. A record can then be read from its own line:
which sentences carried the answer, which ones the audit could not use.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable

from ..formats.conclusion import sentence_spans
from ..models import Proposition, SentenceRole


def sentence_roles(long_answer: str, propositions: list[Proposition], used: Iterable[str],
                   spans: list[tuple[int, int]] | None = None, with_text: bool = True) -> list[SentenceRole]:
    """One `SentenceRole` per sentence of `long_answer`, in text order.

    Args:
        long_answer: the text the spans index.
        propositions: every proposition of the record; each belongs to the sentence its span
            starts in (an unlocated one, span (0, 0), to none).
        used: ids of the propositions on the chain or on a side.
        spans: the extractor's own sentence spans, else a light split of the text.
        with_text: False leaves `text` null (`score --no-text`).
    """
    spans = sorted(spans) if spans else sentence_spans(long_answer)
    starts = [a for a, _ in spans]
    given: list[list[str]] = [[] for _ in spans]
    for p in propositions:
        if p.span == (0, 0) or not spans:
            continue
        n = max(0, bisect_right(starts, p.span[0]) - 1)
        if p.id not in given[n]:
            given[n].append(p.id)
    on = set(used)
    out = []
    for n, ((a, b), ids) in enumerate(zip(spans, given, strict=True)):
        role = "no_proposition" if not ids else "chain" if on.intersection(ids) else "redundant"
        out.append(SentenceRole(index=n, span=(a, b), role=role, propositions=ids,
                                text=long_answer[a:b] if with_text else None))
    return out
