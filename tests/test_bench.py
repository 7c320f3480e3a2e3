"""bench: metric arithmetic on hand-built results, the baselines, the report's shape."""

from __future__ import annotations

import io

import pytest

from logicscore.measure import bench
from logicscore.lexicon.signals import SIGNALS
from logicscore.models import AuditResult, Diagnosis, Gap, ResultMeta, Scores, Signal

from fakes import RecordingAuditor


def _record(rid, label="complete", conc=0.5, gap=None, verdict="entailed", signals=(),
            hops=2, variants=("complete",), answer="Corin Valdez",
            long_answer="Corin Valdez directed Selvarine.", qe="Velmora"):
    gold = {"question_entity": qe, "answer_entity": answer,
            "completeness": int(label == "complete"), "conciseness": conc,
            "failure": None if label == "complete" else label, "gap": gap,
            "determinateness": verdict, "signals": list(signals)}
    return {"id": rid, "question": f"Who directed the film shot in {qe}?", "answer": answer,
            "long_answer": long_answer, "hops": hops,
            "meta": {"gold": gold, "variants": list(variants), "seed": 0}}


def _result(rid, label="complete", conc=0.5, gap=None, verdict="entailed", signals=()):
    complete = int(label == "complete")
    diag = Diagnosis(failure=None if complete else label,
                     gap=Gap(**{"from": gap[0], "to": gap[1]}) if gap else None,
                     signals=[Signal(kind=k, severity=SIGNALS[k].severities[0], message=k)
                              for k in signals])
    return AuditResult(id=rid, scores=Scores(completeness=complete, conciseness=conc,
                                             determinateness=int(verdict == "entailed"),
                                             partial_completeness=1.0, conciseness_partial=conc),
                       determinateness=verdict, diagnosis=diag, meta=ResultMeta(signature="t"))


def _error(rid):
    return AuditResult(id=rid, status="error", error={"type": "RuntimeError", "message": "x"},
                       meta=ResultMeta(signature="t"))


def test_bench_failure_precision_recall_f1():
    golds = ["complete", "complete", "broken", "broken", "circular", "deviated"]
    preds = ["complete", "broken", "broken", "circular", "circular", "broken"]
    records = [_record(str(i), label=g) for i, g in enumerate(golds)]
    results = [_result(str(i), label=p) for i, p in enumerate(preds)]
    out = bench.run(records, results=results).to_json_dict()
    f = out["failure"]
    assert f["complete"] == {"precision": 1.0, "recall": 0.5, "f1": 0.6667, "support": 2}
    assert f["broken"] == {"precision": 0.3333, "recall": 0.5, "f1": 0.4, "support": 2}
    assert f["circular"] == {"precision": 0.5, "recall": 1.0, "f1": 0.6667, "support": 1}
    assert f["deviated"] == {"precision": None, "recall": 0.0, "f1": 0.0, "support": 1}
    assert out["failure_macro_f1"] == round((0.6667 + 0.4 + 0.6667 + 0.0) / 4, 4)
    assert out["completeness_accuracy"] == round(5 / 6, 4)      # only "b" is wrong


def test_bench_conciseness_gap_determinateness_signals():
    records = [
        _record("a", conc=0.5, signals=["hedged_on_chain"]),
        _record("b", label="broken", conc=0.0, gap={"from": "Velmora", "to": "Selvarine"},
                verdict="underdetermined"),
        _record("c", label="broken", conc=0.0, gap={"from": "Velmora", "to": "Selvarine"},
                verdict="entailed", signals=["asserted_without_derivation"]),
    ]
    results = [
        _result("a", conc=0.25, signals=["hedged_on_chain", "contradiction", "redundant"]),
        _result("b", label="broken", conc=0.0, gap=("the city of Velmora", "Selvarine's"),
                verdict="underdetermined"),
        _result("c", label="broken", conc=0.0, gap=("Velmora", "Corin Valdez"),
                verdict="underdetermined"),
    ]
    out = bench.run(records, results=results).to_json_dict()
    assert out["conciseness_mae"] == round(0.25 / 3, 4)
    assert (out["gap_accuracy"], out["gap_n"]) == (0.5, 2)      # normalization matches "b"
    assert out["determinateness_accuracy"] == round(2 / 3, 4)
    # `redundant` is informational and not scored; contradiction is a false positive.
    assert (out["signal_precision"], out["signal_recall"]) == (0.5, 0.5)


def test_bench_errored_result_counts_as_wrong_not_dropped():
    records = [_record("a"), _record("b", label="broken", conc=0.0)]
    out = bench.run(records, results=[_result("a"), _error("b")]).to_json_dict()
    assert (out["n"], out["errors"], out["completeness_accuracy"]) == (2, 1, 0.5)


def test_bench_unverified_predictions_are_left_out_with_the_decided_share_beside():
    from logicscore.report.synthetic import make_result

    records = [_record("a"), _record("b", label="broken", conc=0.0), _record("c", label="broken", conc=0.0),
               _record("d", label="broken", conc=0.0)]
    unverified = make_result("c", "unverified")
    report = bench.run(records, results=[_result("a"), _result("b", label="broken"), unverified, _error("d")])
    out = report.to_json_dict()
    # c predicts nothing (not a 0), d errored and stays wrong: 2 of the 3 decided are right.
    assert (out["n"], out["errors"], out["decided_share"]) == (4, 1, 0.75)
    assert out["completeness_accuracy"] == round(2 / 3, 4)
    assert out["failure"]["broken"]["support"] == 2 and out["failure"]["broken"]["recall"] == 0.5
    assert bench.from_result(unverified).completeness is None and bench.from_result(unverified).label == "unverified"
    assert "| decided_share | **0.750** |" in bench.render_markdown(report)
    decided = bench.run(records[:2], results=[_result("a"), _result("b", label="broken")])
    assert "decided_share" not in decided.to_json_dict() and "decided_share" not in bench.render_markdown(decided)


def test_bench_slices_and_report_keys():
    records = [_record("a", hops=1, variants=["complete", "fork_first"]),
               _record("b", hops=3, label="broken", conc=0.0, variants=["broken"])]
    out = bench.run(records, results=[_result("a"), _result("b")]).to_json_dict()
    keys = ("completeness_accuracy", "failure_macro_f1", "conciseness_mae", "gap_accuracy",
            "determinateness_accuracy")
    assert all(k in out for k in keys + ("by_hops", "by_variant", "baselines"))
    assert list(out["by_hops"]) == ["1", "3"] and all(k in out["by_hops"]["3"] for k in keys)
    assert list(out["by_variant"]) == ["complete", "fork_first", "broken"]
    assert out["by_variant"]["broken"]["completeness_accuracy"] == 0.0
    assert set(out["baselines"]) == {"majority", "answer_mentioned", "greedy"}
    for base in out["baselines"].values():
        assert all(k in base for k in keys + ("by_hops", "by_variant"))
    assert "greedy_fork_conciseness_mae" in out


def test_bench_majority_and_answer_mentioned_baselines():
    records = [_record("a", conc=0.4), _record("b", conc=0.6),
               _record("c", label="broken", conc=0.0, verdict="underdetermined",
                       long_answer="Selvarine was shot in Velmora.")]
    major = bench.majority_baseline(records)
    assert {(p.label, p.conciseness, p.determinateness) for p in major} == {("complete", 0.4, "entailed")}
    mentioned = bench.answer_mentioned_baseline(records)
    assert [p.completeness for p in mentioned] == [1, 1, 0]
    assert all(p.conciseness is None for p in mentioned)


LA_FORK = ("Corin Valdez directed Selvarine. Corin Valdez founded Tarsk Dynamics [Doc1]. "
           "Selvarine was shot in Velmora [Doc2].")
LA_TRAP = ("Corin Valdez founded Tarsk Dynamics. Corin Valdez directed Selvarine. "
           "Selvarine was shot in Velmora.")
LA_DETOUR = ("Corin Valdez directed Selvarine. Selvarine starred Mira Tolsen. "
             "Mira Tolsen was born in Velmora. Selvarine was shot in Velmora.")


@pytest.mark.parametrize("la, chain, total", [
    (LA_FORK, [0, 2], 3),             # answer → Selvarine → Velmora
    (LA_TRAP, [], 3),                 # a dead-end fork holds the first answer sentence
    (LA_DETOUR, [0, 1, 2], 4),        # the detour comes first: longer than the gold 2
    ("He directed Selvarine. Selvarine was shot in Velmora.", [], 2),   # no answer string
    ("Corin Valdez directed Selvarine. He was born in Orsk.", [], 2),   # dead end
])
def test_bench_greedy_chain(la, chain, total):
    assert bench.greedy_chain(["Velmora"], "Corin Valdez", la) == (chain, total)


def test_bench_greedy_substring_match_is_naive_on_purpose():
    # "Velmora" inside "Velmora Kest" counts: the reference implementation's weakness.
    la = "Corin Valdez married Velmora Kest. Selvarine was shot in Velmora."
    assert bench.greedy_chain(["Velmora"], "Corin Valdez", la) == ([0], 2)


def test_bench_greedy_baseline_conciseness():
    records = [_record("a", conc=0.5, long_answer=LA_DETOUR),
               _record("b", conc=round(2 / 3, 6), long_answer=LA_TRAP)]
    preds = bench.greedy_baseline(records)
    assert [(p.completeness, p.conciseness) for p in preds] == [(1, 0.75), (0, 0.0)]


def _fake_auditor():
    return RecordingAuditor(lambda rec: _result(rec.id))


def test_bench_run_strips_gold_before_auditing():
    fake = _fake_auditor()
    report = bench.run([_record("a")], fake)
    assert "gold" not in fake.seen[0].meta and fake.seen[0].meta["variants"] == ["complete"]
    assert report.to_json_dict()["signature"] == "fake|1"


def test_bench_run_argument_errors():
    with pytest.raises(ValueError, match="auditor or precomputed"):
        bench.run([_record("a")])
    with pytest.raises(ValueError, match="1 results for 2 records"):
        bench.run([_record("a"), _record("b")], results=[_result("a")])


def test_bench_render_is_a_rich_renderable():
    from rich.console import Console

    records = [_record("a"), _record("b", label="circular", conc=0.0)]
    report = bench.run(records, results=[_result("a"), _result("b", label="circular")])
    buf = io.StringIO()
    Console(file=buf, width=160).print(bench.render(report))
    text = buf.getvalue()
    assert "completeness_accuracy" in text and "greedy" in text and "by hop count" in text


def test_bench_accepts_result_dicts():
    rec = _record("a")
    as_dict = _result("a").model_dump(mode="json", by_alias=True)
    assert bench.run([rec], results=[as_dict]).to_json_dict()["completeness_accuracy"] == 1.0


@pytest.mark.slow
def test_bench_auditor_reaches_targets_on_fictional_corpus(auditor):
    """The issue-3 targets, on the committed corpus, with the real rules-path auditor."""
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "corpora" / "fictional-v1.jsonl"
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    report = bench.run(records, auditor)
    out = report.to_json_dict()
    for scope in (out, out["by_hops"]["5"]):
        floor = 0.85 if scope is not out else None
        assert scope["completeness_accuracy"] >= (floor or 0.97)
        assert scope["failure_macro_f1"] >= (floor or 0.90)
        assert scope["conciseness_mae"] <= 0.05
        assert scope["gap_accuracy"] >= (floor or 0.85)
        assert scope["determinateness_accuracy"] >= (floor or 0.90)
    for name, base in out["baselines"].items():
        assert out["failure_macro_f1"] - base["failure_macro_f1"] >= 0.20, name
    md = bench.render_markdown(report)
    assert "| completeness_accuracy |" in md and "greedy" in md


@pytest.mark.slow
def test_bench_auditor_reaches_targets_on_an_unseen_seed(auditor):
    """The same targets on a corpus nobody tuned against (a seed the committed file does not use)."""
    from logicscore.measure.corpus import generate

    records = list(generate(seed=20261130, n=300))
    out = bench.run(records, auditor).to_json_dict()
    assert out["completeness_accuracy"] >= 0.97
    assert out["failure_macro_f1"] >= 0.90
    assert out["conciseness_mae"] <= 0.05
    assert out["gap_accuracy"] >= 0.85
    assert out["determinateness_accuracy"] >= 0.90
