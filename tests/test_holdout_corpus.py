"""corpora/prose-holdout-v1.jsonl: invented answers in the styles models write, labelled by
docs/metrics.md. These tests keep the file readable by bench and its labels well-formed; they
do not look at scores (the file is a measure, not a target)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from logicscore.measure import bench, labelled

CORPUS = Path(__file__).resolve().parents[1] / "corpora" / "prose-holdout-v1.jsonl"
TYPES = {"bridge", "comparison", "yesno", "intersection"}


def _records() -> list[dict]:
    return [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]


def test_holdout_is_read_by_bench_as_labelled_answers_without_a_rejected_line():
    with CORPUS.open("rb") as fh:
        kept, rejected = bench.load(fh)
    assert rejected == []
    assert len(kept) == len(_records()) and all(labelled.is_labelled(r) for r in kept)
    for rec in kept:
        qa = labelled.strip_labels(rec)
        assert qa.long_answer == rec["long_answer"]
        assert not any(key.startswith("label_") for key in qa.meta)


def test_holdout_labels_are_well_formed():
    records = _records()
    assert 80 <= len(records) <= 120
    ids = [r["id"] for r in records]
    assert len(set(ids)) == len(ids) and all(i.startswith("holdout:") for i in ids)
    for rec in records:
        assert labelled.label_problem(rec) is None, rec["id"]
        assert rec["label_completeness"] in ("complete", "incomplete"), rec["id"]
        assert rec["label_question_type"] in TYPES, rec["id"]
        reason = rec["label_reason"]
        assert isinstance(reason, str) and reason.strip() and "\n" not in reason, rec["id"]
        assert "gold_answer" not in rec       # no gold field that bench would take for a second kind


def test_holdout_is_balanced_and_covers_every_type_and_the_styles_it_claims():
    records = _records()
    share = sum(r["label_completeness"] == "complete" for r in records) / len(records)
    assert 0.4 <= share <= 0.6
    cells = Counter((r["label_question_type"], r["label_completeness"]) for r in records)
    assert all(cells[(kind, label)] >= 5 for kind in TYPES for label in ("complete", "incomplete"))
    styles = Counter(s for r in records for s in r["style"].split(","))
    for style in ("step-by-step", "first-second", "step-n", "markdown-bullets-bold", "markdown-headers",
                  "based-on-context", "hedge", "refusal", "german", "french", "hyphen-name",
                  "period-name", "and-in-name", "lowercase-question-entity", "relative-clause"):
        assert styles[style] >= 1, style
