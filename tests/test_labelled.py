"""labelled: bench on records a person labelled complete / incomplete / ambiguous."""

from __future__ import annotations

import io
import json

import pytest

from logicscore.measure import bench, labelled
from logicscore.models import AuditResult, ResultMeta, Scores

from fakes import RecordingAuditor


def _rec(rid, label="complete", kind="bridge", question="Who directed the film shot in Velmora?",
         answer="Corin Valdez", long_answer="Selvarine was shot in Velmora. Corin Valdez directed it.",
         **extra):
    rec = {"id": rid, "question": question, "answer": answer, "long_answer": long_answer,
           "label_completeness": label, "label_reason": "invented", **extra}
    if kind is not None:
        rec["label_question_type"] = kind
    return rec


def _res(rid, complete=1, status="ok"):
    if status != "ok":
        return AuditResult(id=rid, status="error", error={"type": "RuntimeError", "message": "x"},
                           meta=ResultMeta(signature="t"))
    return AuditResult(id=rid, scores=Scores(completeness=complete, conciseness=0.5,
                                             determinateness=1, partial_completeness=1.0,
                                             conciseness_partial=0.5),
                       determinateness="entailed", meta=ResultMeta(signature="t"))


def _jsonl(*objs) -> io.BytesIO:
    return io.BytesIO("".join(json.dumps(o) + "\n" for o in objs).encode())


@pytest.mark.parametrize("pairs, recall, specificity, ba", [
    ([(True, True), (True, False), (False, False), (False, False)], 0.5, 1.0, 0.75),
    ([(True, True), (False, True)], 1.0, 0.0, 0.5),
    ([(True, None), (False, None)], None, None, None),  # nothing decided: no accuracy at all
    ([(True, True)], 1.0, None, None),                  # no incomplete: no balanced accuracy
])
def test_labelled_measure(pairs, recall, specificity, ba):
    out = labelled.measure(pairs)
    assert (out["recall"], out["specificity"], out["balanced_accuracy"]) == (recall, specificity, ba)


def test_labelled_measure_is_over_decided_records_with_the_decided_share_beside():
    decided = [(True, True), (True, False), (False, False), (False, False)]
    out = labelled.measure([*decided, (True, None), (False, None)])
    # Undecided (unverified) predictions move the share decided, never the accuracy.
    assert out["decided_share"] == round(4 / 6, 4)
    for key in ("recall", "recall_hits", "specificity", "specificity_hits", "balanced_accuracy"):
        assert out[key] == labelled.measure(decided)[key], key
    assert (out["n"], out["complete"], out["incomplete"]) == (6, 3, 3)
    assert labelled.measure(decided)["decided_share"] == 1.0


def test_labelled_run_reports_unverified_apart_from_errors():
    from logicscore.report.synthetic import make_result

    records = [_rec("a", "complete"), _rec("b", "incomplete"), _rec("c", "incomplete")]
    results = [_res("a", 1), _res("b", 0), make_result("c", "unverified")]
    report = labelled.run(records, results=results)
    row = report.auditor["all"]
    assert row["decided_share"] == round(2 / 3, 4) and row["balanced_accuracy"] == 1.0
    assert report.errors == 0
    table = labelled.render_markdown(report)
    assert "decided share" in table and "| all | **logicscore** | 1.000 | 1.000 | 1.000 | 0.667 |" in table
    assert "| answer_mentioned | 1.000 (1/1) | 0.000 (0/2) | 0.500 | all |" in table
    everything = labelled.run(records[:2], results=results[:2])
    assert "decided share" not in labelled.render_markdown(everything)


@pytest.mark.parametrize("question, answer, long_answer, mentioned, names", [
    ("Who directed the film shot in Velmora?", "Corin Valdez",
     "Corin Valdez directed it in Velmora.", True, True),
    ("Who directed the film shot in Velmora?", "Corin Valdez", "Corin Valdez directed it.", True, False),
    # the first capitalised word is the wh-word or capitalised by position only
    ("Tarn Osk was the father of which singer?", "Mira Osk.", "Mira Osk is a singer.", True, True),
    ("Who founded Brask?", "Ilo", "Brask was founded by someone.", False, False),
])
def test_labelled_baselines(question, answer, long_answer, mentioned, names):
    rec = _rec("a", question=question, answer=answer, long_answer=long_answer)
    assert labelled.answer_mentioned(rec) is mentioned
    assert labelled.names_mentioned(rec) is names


def test_labelled_strip_labels_keeps_input_and_moves_the_rest_to_meta():
    rec = _rec("a", gold_answer="Corin Valdez", model="m1", meta={"seed": 3})
    qa = labelled.strip_labels(rec)
    assert qa.long_answer == rec["long_answer"] and qa.gold_answer is None
    assert qa.meta == {"seed": 3, "model": "m1"}
    assert "invented" not in json.dumps(qa.model_dump())     # the label's reason is gone too


def test_labelled_load_accepts_labels_and_rejects_mixed_or_bad_lines():
    gold = {"id": "g", "question": "q", "answer": "a", "long_answer": "la",
            "meta": {"gold": {"completeness": 1}}}
    kept, rejected = bench.load(_jsonl(_rec("a"), _rec("b", label="maybe"), gold,
                                       {"id": "c", "question": "q", "answer": "a", "long_answer": "x"},
                                       _rec("d", kind=None, label="incomplete")))
    assert [r["id"] for r in kept] == ["a", "d"]
    messages = [r.error.message for r in rejected]
    assert "label_completeness must be one of" in messages[0]
    assert "no label_completeness" in messages[1] and "no label_completeness" in messages[2]


def test_labelled_load_rejects_a_labelled_line_in_a_gold_corpus():
    gold = {"id": "g", "question": "q", "answer": "a", "long_answer": "la",
            "meta": {"gold": {"completeness": 1}}}
    kept, rejected = bench.load(_jsonl(gold, _rec("a")))
    assert [r["id"] for r in kept] == ["g"]
    assert "in a gold corpus" in rejected[0].error.message


def _fake():
    return RecordingAuditor(lambda rec: _res(rec.id, complete=int("Velmora" in rec.long_answer)))


def test_labelled_run_per_type_ambiguous_apart_and_labels_hidden():
    records = [_rec("a"), _rec("b", label="incomplete", long_answer="Corin Valdez directed it."),
               _rec("c", label="incomplete"), _rec("d", label="ambiguous"),
               _rec("e", kind="comparison", long_answer="Corin Valdez, from Velmora.")]
    fake = _fake()
    report = bench.run(records, fake)
    assert isinstance(report, labelled.LabelledReport)
    assert all(not any(k.startswith("label_") for k in r.meta) for r in fake.seen)
    data = report.to_json_dict()
    assert data["ambiguous"] == 1 and data["n"] == 5 and data["signature"] == "fake|1"
    bridge = data["by_question_type"]["bridge"]
    assert (bridge["recall"], bridge["specificity"], bridge["balanced_accuracy"]) == (1.0, 0.5, 0.75)
    assert data["by_question_type"]["all"]["n"] == 4
    assert data["by_question_type"]["comparison"]["specificity"] is None
    names = data["baselines"]["names_mentioned"]["bridge"]
    assert (names["recall"], names["specificity"]) == (1.0, 0.5)


def test_labelled_errors_count_and_markdown_and_rich():
    from rich.console import Console

    records = [_rec("a"), _rec("b", label="incomplete")]
    report = bench.run(records, results=[_res("a", status="error"), _res("b", complete=0)])
    assert report.errors == 1
    assert report.auditor["all"]["recall"] == 0.0 and report.auditor["all"]["specificity"] == 1.0
    md = bench.render_markdown(report)
    assert "| bridge | **logicscore** | 0.000 (0/1) | 1.000 (1/1) | 0.500 |" in md
    assert "names_mentioned" in md and "1 errored" in md
    buf = io.StringIO()
    Console(file=buf, width=160).print(bench.render(report))
    assert "labelled answers" in buf.getvalue()
    with pytest.raises(ValueError, match="1 results for 2 records"):
        bench.run(records, results=[_res("a")])
