"""The comparison and yes/no cases of the fictional corpus (logicscore.measure.corpus.compared)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from logicscore.measure import bench
from logicscore.measure.corpus import dumps, generate, generate_compared
from logicscore.measure.corpus.compared import KINDS

ROOT = Path(__file__).resolve().parents[1]


def test_same_seed_same_cases_and_every_kind_drawn():
    a, b = generate_compared(3, 60), generate_compared(3, 60)
    assert [dumps(r) for r in a] == [dumps(r) for r in b]
    assert {r["meta"]["gold"]["perturbation"] for r in a} == set(KINDS)
    assert {r["meta"]["gold"]["question_type"] for r in a} == {"comparison", "yesno"}


def test_gold_labels_agree_with_kind():
    for r in generate_compared(5, 80):
        gold = r["meta"]["gold"]
        dropped = gold["perturbation"] == "side_dropped"
        assert gold["completeness"] == int(gold["perturbation"] in ("both_sides", "distractor"))
        assert (gold["gap"] is not None) == dropped
        if dropped:  # the dropped side is never stated, only named in the conclusion
            first = r["long_answer"].split(". ")[0]
            assert gold["dropped_side"] not in first
        assert ("conclusion_mismatch" in gold["signals"]) == (gold["perturbation"] == "contradicted")


def test_v2_is_v1_then_compared_cases():
    v1 = (ROOT / "corpora/fictional-v1.jsonl").read_bytes()
    v2 = (ROOT / "corpora/fictional-v2.jsonl").read_bytes()
    assert v2.startswith(v1)
    expected = "".join(dumps(r) + "\n" for r in [*generate(1, 600), *generate_compared(1, 200)])
    assert hashlib.sha256(v2).hexdigest() == hashlib.sha256(expected.encode()).hexdigest()


def test_bench_slices_compared_cases(auditor):
    records = generate_compared(11, 40)
    report = bench.run(records, auditor).to_json_dict()
    by_type = report["by_question_type"]
    assert set(by_type) == {"comparison", "yesno"}
    for row in by_type.values():
        assert row["completeness_accuracy"] >= 0.95
