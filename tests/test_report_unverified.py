"""Unverified records (issue 40) in the run summary, `report` (markdown, JSON, terminal),
`explain` and `diff`: their own category with the reason, out of the completeness and
conciseness means, counted beside them; a run without them renders as it always did."""

import io
import json

import pytest
from rich.console import Console
from typer.testing import CliRunner

from logicscore.cli import app
from logicscore.models import AuditResult
from logicscore.report import render_explain, render_summary, summarize
from logicscore.report.as_json import report_json
from logicscore.report.build import build_report
from logicscore.report.diff import diff, render
from logicscore.report.render import render_markdown, render_terminal
from logicscore.report.synthetic import UNVERIFIED_WHY, make_result

KINDS = ["complete"] * 3 + ["broken", "unverified", "unverified", "error"]


def _run(kinds=KINDS, **kw):
    return [make_result(f"q{i}", k, line=i + 1, **kw) for i, k in enumerate(kinds)]


def _text(renderable) -> str:
    console = Console(file=io.StringIO(), width=200, color_system=None)
    console.print(renderable)
    return console.file.getvalue()


def test_report_means_over_decided_records_with_unverified_beside():
    rep = build_report(_run())
    means = {m.name: (m.n, m.mean) for m in rep.metrics}
    # 3 complete of the 4 decided; the unverified conciseness (0) is left out too.
    assert means["completeness"] == (4, 0.75) and means["conciseness"] == (4, 0.375)
    assert means["determinateness"][0] == 6 and means["partial_completeness"][0] == 6
    ci = rep.metrics[0].ci
    assert ci is not None and 0 <= ci[0] <= 0.75 <= ci[1] <= 1
    assert [(k, n) for k, n, _ in rep.categories][-1] == ("unverified", 2) and rep.unverified == 2
    data = report_json(rep)
    assert data["unverified"] == 2 and data["metrics"][0]["mean"] == 0.75
    section = {s["kind"]: s for s in data["sections"]}["unverified"]
    assert section["count"] == 2 and section["recommendation"] is None
    assert section["examples"][0]["why"].startswith(f"unverified; {UNVERIFIED_WHY}")


def test_report_markdown_lists_unverified_as_a_category_with_the_reason():
    md = render_markdown(build_report(_run()))
    assert "| unverified | 2 | 33.3% |" in md
    assert "2 unverified records (the text neither shows the chain nor shows it broken) are left out" in md
    assert ("## unverified (2)\n\n- 100% of unverified answers (2 of 2) leave completeness undecided: "
            f"{UNVERIFIED_WHY}") in md
    assert f"signal unverified [info]: {UNVERIFIED_WHY}" in md
    assert "| hops | records | errors | completeness | conciseness | determinateness | broken | circular | deviated " \
           "| unverified |" in md
    assert "unverified" in _text(render_terminal(build_report(_run())))


def test_a_run_without_unverified_records_says_nothing_of_them():
    decided = _run(["complete", "broken", "error"])
    assert "unverified" not in render_markdown(build_report(decided))
    assert "unverified" not in json.dumps(report_json(build_report(decided)))
    assert "unverified" not in _text(render_summary(summarize(decided)))


def test_run_summary_counts_unverified_beside_the_means():
    summary = summarize(_run())
    assert summary.unverified == 2 and summary.means()["completeness"] == 0.75
    assert summary.means()["determinateness"] == 0.5  # over all 6 scored: it is decided for every one
    shown = _text(render_summary(summary))
    assert "unverified (out of the completeness and conciseness means)" in shown and "2 (33.3%)" in shown
    every = summarize(_run(["unverified"]))
    assert every.means()["completeness"] is None
    assert "bridge questions" in _text(render_summary(every))


def test_explain_says_completeness_unverified_and_why():
    shown = _text(render_explain(make_result("u", "unverified")))
    assert "completeness unverified  conciseness" in shown and "completeness 0" not in shown
    assert f"completeness unverified: {UNVERIFIED_WHY}" in shown
    assert "completeness unverified" not in _text(render_explain(make_result("b", "broken")))


def test_report_failures_leave_unverified_records_out(tmp_path):
    path = tmp_path / "run.jsonl"
    path.write_text("".join(r.to_json() + "\n" for r in _run()), encoding="utf-8")
    res = CliRunner().invoke(app, ["report", str(path), "--failures", "-"])
    assert res.exit_code == 0
    assert [json.loads(line)["id"] for line in res.stdout.splitlines()] == ["q3", "q6"]


def test_diff_counts_unverified_and_names_records_between_decided_and_unverified():
    old = _run(["complete", "broken", "unverified", "complete", "error"])
    new = _run(["unverified", "broken", "complete", "complete", "unverified"])
    result = diff(old, new)
    moved = [(m.id, m.old, m.new) for m in result.unverified_moves()]
    # q4 came from an error, not from a decided verdict: it moved, but not between the two.
    assert moved == [("q0", "complete", "unverified"), ("q2", "unverified", "complete")]
    data = result.to_json_dict()
    assert data["unverified"] == {"old": 1, "new": 2}
    assert [m["id"] for m in data["unverified_moves"]] == ["q0", "q2"]
    assert dict((m, (a, b)) for m, a, b, _ in result.deltas())["completeness"] == (
        pytest.approx(2 / 3), pytest.approx(2 / 3))
    shown = _text(render(result))
    assert "old 1, new 2; 2 changed between decided and unverified" in shown and "q0: complete → unverified" in shown
    plain = diff(_run(["complete", "broken"]), _run(["broken", "broken"]))
    assert "unverified" not in json.dumps(plain.to_json_dict()) and "unverified" not in _text(render(plain))


def test_report_pools_unverified_reasons_past_the_ones_it_keeps():
    from logicscore.report.build import OTHER_REASONS, REASONS_KEPT

    def unverified(i):
        data = json.loads(make_result(f"u{i}", "unverified").to_json())
        data["diagnosis"]["signals"][0]["message"] = f"could not join Ana to place {i}"
        return data

    n = REASONS_KEPT + 5
    rep = build_report([AuditResult.model_validate(unverified(i)) for i in range(n)])
    (section,) = [s for s in rep.sections if s.kind == "unverified"]
    reasons = {f.reason: f.count for f in section.findings}
    assert len(reasons) == REASONS_KEPT + 1 and reasons[OTHER_REASONS] == 5
    assert sum(reasons.values()) == n and reasons["could not join Ana to place 0"] == 1
