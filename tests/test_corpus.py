"""The fictional corpus: determinism, label consistency, the taxonomy on hand-built graphs."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from logicscore.measure.corpus import PERTURBATIONS, generate, parse_hops, sha256_of, write_corpus
from logicscore.measure.corpus.labels import AmbiguousLabel, Link, label
from logicscore.models import QARecord

CORPUS = Path(__file__).resolve().parent.parent / "corpora" / "fictional-v1.jsonl"
CORPUS_ARGS = dict(seed=1, n=600, hops=(1, 5))   # how corpora/fictional-v1.jsonl was made


@pytest.fixture(scope="module")
def records() -> list[dict]:
    return [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]


def test_corpus_committed_file_is_a_fresh_generation():
    committed = hashlib.sha256(CORPUS.read_bytes()).hexdigest()
    assert committed == sha256_of(**CORPUS_ARGS), (
        "corpora/fictional-v1.jsonl differs from a fresh generation; regenerate it with "
        "`logicscore corpus generate --seed 1 --n 600 -o corpora/fictional-v1.jsonl`")


def test_corpus_same_seed_same_bytes_and_prefix_stable(tmp_path):
    first = write_corpus(tmp_path / "a.jsonl", seed=7, n=40)
    assert first == write_corpus(tmp_path / "b.jsonl", seed=7, n=40)
    assert first != write_corpus(tmp_path / "c.jsonl", seed=8, n=40)
    assert list(generate(7, 10)) == list(generate(7, 40))[:10]


@pytest.mark.parametrize("hops", [(1, 1), (2, 3), (5, 5)])
def test_corpus_hops_range_respected(hops):
    got = [r["hops"] for r in generate(3, 60, hops)]
    assert set(got) == set(range(hops[0], hops[1] + 1))
    assert all(len(r["meta"]["gold"]["chain"]) in (0, r["hops"]) for r in generate(3, 60, hops))


@pytest.mark.parametrize("bad", [(0, 2), (3, 2)])
def test_corpus_rejects_bad_hops(bad):
    with pytest.raises(ValueError):
        next(generate(1, 1, bad))


@pytest.mark.parametrize("text, expected", [("1-5", (1, 5)), ("3", (3, 3)), ("2-4", (2, 4))])
def test_corpus_parse_hops(text, expected):
    assert parse_hops(text) == expected


def test_corpus_every_perturbation_and_class_present(records):
    kinds = [r["meta"]["gold"]["perturbation"] for r in records]
    assert all(k in kinds for k in PERTURBATIONS)
    failures = {r["meta"]["gold"]["failure"] for r in records}
    assert failures == {None, "broken", "circular", "deviated"}
    verdicts = {r["meta"]["gold"]["determinateness"] for r in records}
    assert verdicts == {"entailed", "contradicted", "underdetermined"}
    variants = [t for r in records for t in r["meta"]["variants"]]
    for tag in ("fork_first", "fork_detour", "pronoun", "alias", "definite_description",
                "citation", "passive", "copula", "copula_rev", "possessive", "appos",
                "participial", "relative_clause", "conjunction", "mutual_support",
                "loop_through_answer", "contradiction_final", "contradiction_inner"):
        assert tag in variants, tag


def test_corpus_records_are_valid_inputs_without_question_entities(records):
    for r in records:
        assert "question_entities" not in r
        QARecord(**r)
        assert r["meta"]["gold"]["question_entity"] in r["question"]
        assert r["answer"] not in r["question"]
        assert r["question"].endswith("?")


def _sentences(text: str) -> int:
    return len(re.findall(r"\.(?:\s|$)", text))


def test_corpus_labels_consistent(records):
    for r in records:
        g, la, kind = r["meta"]["gold"], r["long_answer"], r["meta"]["gold"]["perturbation"]
        qe, sa = g["question_entity"], g["answer_entity"]
        assert g["n_propositions"] >= _sentences(la) - ("conclusion" in r["meta"]["variants"])
        if g["completeness"]:
            assert g["failure"] is None and g["gap"] is None
            assert len(g["chain"]) == r["hops"]
            assert g["conciseness"] == round(r["hops"] / g["n_propositions"], 6)
            assert qe in la and sa in la
            assert len(g["redundant"]) == g["n_propositions"] - r["hops"]
        else:
            assert g["conciseness"] == 0.0 and g["chain"] == [] and g["failure"]
        if g["failure"] in ("circular", "deviated"):
            assert qe not in la and g["gap"] is None
        if g["failure"] == "broken":
            assert g["gap"]["from"] != g["gap"]["to"]
        assert g["answer_absent"] == (kind == "answer_absent")
        if g["answer_absent"]:
            assert sa not in la and g["gap"]["to"] == sa
        concluded = "the answer is" in la
        assert ("asserted_without_derivation" in g["signals"]) == concluded
        if concluded:
            assert g["determinateness"] == "entailed" and not g["completeness"]
        if kind == "hedged":
            assert g["signals"] == ["hedged_on_chain"] and re.search(r"reportedly|may have", la)
        if kind in ("negation", "contradiction"):
            assert "contradiction" in g["signals"]
        if kind == "negation" or "contradiction_final" in r["meta"]["variants"]:
            assert g["determinateness"] == "contradicted"
        if not g["completeness"] and not concluded:
            assert g["determinateness"] == "underdetermined"


def _lk(i, s, o, rel="r", negated=False):
    return Link(i, rel, s, o, "chain", negated=negated)


@pytest.mark.parametrize("links, question, answer, expected", [
    # 0 = question entity, 9 = answer
    ([_lk(0, 0, 1), _lk(1, 1, 9)], 0, 9, ("complete", [0, 1], None)),
    ([_lk(0, 0, 1), _lk(1, 1, 9), _lk(2, 1, 5), _lk(3, 5, 0)], 0, 9, ("complete", [0, 1], None)),
    ([_lk(0, 9, 1), _lk(1, 1, 9)], 0, 9, ("circular", [], None)),           # restated link
    ([_lk(0, 9, 1), _lk(1, 1, 2), _lk(2, 2, 9)], 0, 9, ("circular", [], None)),
    ([_lk(0, 9, 1), _lk(1, 1, 2)], 0, 9, ("deviated", [], None)),
    ([_lk(0, 9, 1)], 0, 9, ("broken", [], (0, 1))),                        # too shallow
    ([_lk(0, 0, 1), _lk(1, 2, 9)], 0, 9, ("broken", [], (1, 2))),
    ([_lk(0, 0, 1), _lk(1, 1, 9, negated=True)], 0, 9, ("broken", [], (1, 9))),
])
def test_corpus_taxonomy_on_hand_built_graphs(links, question, answer, expected):
    got = label(links, question, answer)
    assert ("complete" if got.complete else got.failure, got.chain, got.gap) == expected


def test_corpus_ambiguous_structures_are_refused():
    two_ways = [_lk(0, 0, 1), _lk(1, 1, 9), _lk(2, 0, 2), _lk(3, 2, 9)]
    with pytest.raises(AmbiguousLabel):
        label(two_ways, 0, 9)
    tied_frontier = [_lk(0, 0, 1), _lk(1, 0, 2), _lk(2, 9, 3)]
    with pytest.raises(AmbiguousLabel):
        label(tied_frontier, 0, 9)
