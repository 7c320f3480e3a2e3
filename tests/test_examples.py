"""The worked examples of corpora/examples.jsonl, end to end on the real spaCy pipeline."""

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
EXAMPLES = {r["id"]: r for r in map(json.loads, (Path(__file__).parents[1] / "corpora/examples.jsonl").open())}


def audit(auditor, key):
    r = EXAMPLES[key]
    return auditor.audit(question=r["question"], answer=r["answer"], long_answer=r["long_answer"],
                         id=r["id"], hops=r.get("hops"))


def test_examples_springfield_is_complete_with_one_redundant(auditor):
    res = audit(auditor, "springfield")
    assert (res.scores.completeness, res.scores.conciseness, res.scores.determinateness) == (1, 0.75, 1)
    assert res.determinateness == "entailed"
    props = {p.id: p for p in res.propositions}
    assert len(props) == 4
    assert res.chain == ["P1", "P2", "P3"]
    assert res.diagnosis.redundant == ["P4"]
    assert "Illinois" in props["P4"].text
    assert res.answer_entity == "Christopher Nolan"
    assert [(q.name, q.anchor, q.reached) for q in res.question_entities] == [("Springfield", True, True)]
    assert props["P1"].citations == ["Doc1"]


def test_examples_rowling_is_broken_with_gap(auditor):
    res = audit(auditor, "rowling")
    assert res.scores.completeness == 0
    assert res.diagnosis.failure == "broken"
    gap = res.diagnosis.gap
    assert {gap.from_, gap.to} == {"J.K. Rowling", "United Kingdom"}
    assert res.determinateness == "underdetermined"
    assert res.scores.conciseness == 0


def test_examples_pronouns_resolve_into_a_complete_chain(auditor):
    res = audit(auditor, "pronouns")
    assert res.scores.completeness == 1
    assert res.determinateness == "entailed"


def test_examples_circular(auditor):
    res = audit(auditor, "circular")
    assert res.scores.completeness == 0
    assert res.diagnosis.failure == "circular"


def test_examples_deviated(auditor):
    res = audit(auditor, "deviated")
    assert res.scores.completeness == 0
    assert res.diagnosis.failure == "deviated"


def test_examples_fork_takes_the_shortest_chain(auditor):
    res = audit(auditor, "fork")
    assert res.scores.completeness == 1
    assert len(res.chain) == 2
    texts = [p.text for p in res.propositions if p.id in res.chain]
    assert any("Ivo Marsh" in t for t in texts)
    assert res.scores.conciseness == pytest.approx(2 / 5)
