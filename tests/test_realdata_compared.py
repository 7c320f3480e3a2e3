"""The real-data harness's comparison family (benchmarks/realdata/compared.py), on an
invented item: the side-removed case drops that side's hops, and the summary counts it."""

from __future__ import annotations

from benchmarks.realdata.cases import Hop, Item, Line
from benchmarks.realdata.compared import in_family, side_cases, sides, summarize


def _item() -> Item:
    def hop(title: str, text: str, i: int) -> Hop:
        return Hop(title=title, lines=(Line(text=text, title=title, hop=i),))
    return Item(dataset="hotpotqa", id="x1", qtype="comparison", scored=False,
                question="Who was born first, Ila Varo or Tesk Molin?", answer="Ila Varo",
                hops=(hop("Ila Varo", "Ila Varo was born in 1931.", 0),
                      hop("Tesk Molin", "Tesk Molin was born in 1958.", 1)))


def test_side_removed_case_drops_the_first_side():
    item = _item()
    assert in_family(item) and sides(item) == ["Ila Varo", "Tesk Molin"]
    (gold, none), (removed, side) = side_cases(item)
    assert none is None and gold.long_answer.count("born") == 2
    assert side == "Ila Varo" and removed.long_answer == "Tesk Molin was born in 1958."
    assert removed.label == "incomplete"


def test_summary_counts_type_completeness_and_gap(auditor):
    rows = [(c, s, auditor.audit_record(c.record())) for c, s in side_cases(_item())]
    got = summarize(rows)["all"]
    assert got["type_match"] == 1.0 and got["gold_complete"] == 1.0
    assert got["side_removed_incomplete"] == 1.0 and got["gap_names_side"] == 1.0
