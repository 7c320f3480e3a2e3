"""report: figures from hand-built runs, bounded memory, determinism, mixed signatures, the CLI."""

import pytest
from typer.testing import CliRunner

from logicscore.cli import app
from logicscore.report.build import ReportBuilder, build_report
from logicscore.report.chaingraph import ANSWER, CHAIN, COL_GAP, NODE_W, QUESTION, REDUNDANT, layout, wrap
from logicscore.report.render import render_markdown
from logicscore.report.synthetic import make_result, synthetic_run


def _kinds(*kinds, **kw):
    return [make_result(f"q{i}", k, line=i + 1, **kw) for i, k in enumerate(kinds)]


def test_report_counts_coverage_and_failures():
    rep = build_report(_kinds("complete", "complete", "broken", "circular", "error"))
    assert (rep.total, rep.scored, rep.errors) == (5, 4, [("InputError", 1)])
    assert [(k, n) for k, n, _ in rep.categories] == [("complete", 2), ("broken", 1), ("circular", 1),
                                                      ("deviated", 0)]
    comp = rep.metrics[0]
    assert comp.name == "completeness" and comp.mean == 0.5 and comp.n == 4
    assert comp.ci[0] <= comp.mean <= comp.ci[1]
    assert [e.id for e in rep.error_examples] == ["q4"]


def test_report_gold_accuracy_right_for_wrong_reason_and_baselines():
    results = [make_result("a", "complete", correct=True), make_result("b", "broken", correct=True),
               make_result("c", "broken", correct=False), make_result("d", "complete", correct=True),
               make_result("e", "complete")]
    gold = build_report(results).gold
    assert (gold.n, gold.correct, gold.right_wrong_reason) == (4, 3, 1)
    assert gold.accuracy == 0.75 and gold.rwr_rate == pytest.approx(1 / 3) and gold.majority == 0.75
    # Completeness agrees with correctness on a, c, d; "answer mentioned" (never absent here)
    # agrees wherever the answer was correct.
    assert (gold.chain_agrees, gold.mentioned_agrees) == (3, 3)
    assert build_report([make_result("e", "complete")]).gold is None


def test_report_slices_by_hops_and_meta_field():
    results = [make_result("a", "complete", hops=1, meta={"m": {"name": "x"}}),
               make_result("b", "broken", hops=2, meta={"m": {"name": "y"}}),
               make_result("c", "complete", hops=2)]
    slices = {s.field: s for s in build_report(results, by=["m.name"]).slices}
    assert set(slices) == {"hops", "m.name"}
    assert [(r.value, r.n, r.mean("completeness")) for r in slices["hops"].rows] == [("1", 1, 1.0),
                                                                                    ("2", 2, 0.5)]
    assert [r.value for r in slices["m.name"].rows] == ["x", "y", "(missing)"]


def test_report_mixed_signatures_are_shown_and_sliced():
    results = [make_result("a", "complete", signature="s:1"), make_result("b", "broken", signature="s:2")]
    rep = build_report(results)
    assert rep.mixed and rep.signatures == [("s:1", 1), ("s:2", 1)]
    assert "signature" in {s.field for s in rep.slices}
    assert "MIXED SIGNATURES" in render_markdown(rep)


def test_report_memory_is_bounded_and_figures_stay_exact():
    builder = ReportBuilder(reservoir=200, examples=2)
    for result in synthetic_run(3000, seed=4):
        builder.add(result)
    rep = builder.build()
    assert len(builder.sample.items) == 200 and builder.sample.seen == rep.scored
    assert all(len(s.examples) <= 2 for s in rep.sections) and rep.sampled
    # Means are exact whatever the sample; the interval comes from it, scaled to the run.
    exact = [r for r in synthetic_run(3000, seed=4) if r.scores]
    comp = rep.metrics[0]
    assert comp.mean == sum(r.scores.completeness for r in exact) / len(exact)
    assert comp.ci[0] < comp.mean < comp.ci[1] and comp.ci[1] - comp.ci[0] < 0.06


def test_report_same_input_same_bytes():
    a = render_markdown(build_report(synthetic_run(400, seed=2)))
    b = render_markdown(build_report(synthetic_run(400, seed=2)))
    assert a == b and "95% CI" in a


def test_report_findings_recommend_from_the_data():
    rep = build_report(_kinds("broken", "broken", "complete"))
    broken = next(s for s in rep.sections if s.kind == "broken")
    # The synthetic broken record names a question entity no proposition mentions.
    assert broken.findings[0].reason == "no_anchor" and broken.findings[0].count == 2
    assert broken.recommendation.startswith("100% of broken answers (2 of 2)")


def _boxes_overlap(a, b) -> bool:
    return a[0] < b[0] + NODE_W and b[0] < a[0] + NODE_W and a[1] < b[1] + b[2] and b[1] < a[1] + a[2]


@pytest.mark.parametrize("kind", ["complete", "broken"])
def test_report_chain_layout_marks_chain_redundancy_and_gap(kind):
    result = make_result("a", kind)
    graph = layout(result)
    assert graph == layout(make_result("a", kind))
    flags = {result.propositions[e[0]].id: e[1] for e in graph["e"]}
    kinds = {n[4]: n[3] for n in graph["n"]}
    assert flags["P3"] & REDUNDANT
    assert bool(flags["P1"] & CHAIN) == (kind == "complete")
    assert kinds["Ana"] == ANSWER and QUESTION in kinds.values()
    assert len(graph["g"]) == (kind == "broken")
    nodes = graph["n"]
    assert not any(_boxes_overlap(a, b) for i, a in enumerate(nodes) for b in nodes[i + 1:])
    assert all(n[0] >= 0 and n[0] + NODE_W <= graph["w"] and n[1] + n[2] <= graph["h"] for n in nodes)


def test_report_chain_layout_puts_the_gap_between_adjacent_columns():
    # Cor is reached from the answer's side; the question asks about Dov: the missing link
    # Cor–Dov is drawn from Dov's column to the next one, not across the graph.
    graph = layout(make_result("a", "broken"))
    x = {n[4]: n[0] for n in graph["n"]}
    assert abs(x["Cor"] - x["Dov"]) == NODE_W + COL_GAP
    _, x1, _, _, _, x2, _ = graph["g"][0]
    assert {x1, x2} == {min(x["Cor"], x["Dov"]) + NODE_W, max(x["Cor"], x["Dov"])}


@pytest.mark.parametrize("text, cuts", [
    ("Cor", [3]),
    ("major division of Christendom that they had an objection with", [17, 39, 61]),
    # Past three lines the label is cut (the page adds "…" and shows the full name on hover).
    ("the major division of Christendom that they had an objection with in England", [21, 43, 65]),
    ("Supercalifragilisticexpialidocious", [22, 34]),
    ("", [0]),
])
def test_report_chain_labels_wrap_at_words(text, cuts):
    assert wrap(text) == cuts


def test_report_cli_terminal_markdown_and_bad_input(tmp_path):
    run = tmp_path / "run.jsonl"
    run.write_text("".join(r.to_json() + "\n" for r in synthetic_run(50)))
    runner = CliRunner()
    res = runner.invoke(app, ["report", str(run), "--by", "model"])
    assert res.exit_code == 0 and "By model" in res.output and "Coverage" in res.output
    md = tmp_path / "r.md"
    assert runner.invoke(app, ["report", str(run), "--md", str(md)]).exit_code == 0
    assert md.read_text().startswith("# logicscore report")
    res = runner.invoke(app, ["report", str(tmp_path / "none.jsonl")])
    assert res.exit_code == 2 and "no such file" in res.output


def _run_file(tmp_path, kinds):
    path = tmp_path / "run.jsonl"
    path.write_text("".join(r.to_json() + "\n" for r in _kinds(*kinds)), encoding="utf-8")
    return path


def test_report_json_holds_the_tables_figures(tmp_path):
    import json

    path = _run_file(tmp_path, ["complete", "complete", "broken", "error"])
    res = CliRunner().invoke(app, ["report", str(path), "--json"])
    assert res.exit_code == 0
    data = json.loads(res.stdout)
    assert (data["total"], data["scored"], data["errors"]) == (4, 3, [["InputError", 1]])
    assert data["metrics"][0]["name"] == "completeness" and data["metrics"][0]["mean"] == pytest.approx(2 / 3)
    sections = {s["kind"]: s for s in data["sections"]}
    assert sections["broken"]["examples"] == [{"id": "q2", "line": 3, "why": (
        "broken; missing proposition linking Cor to Dov; determinateness underdetermined; signals: redundant")}]
    assert data["error_examples"][0]["why"] == "error: InputError: missing field long_answer"
    again = CliRunner().invoke(app, ["report", str(path), "--json"])
    assert again.stdout == res.stdout


def test_report_failures_writes_every_failing_record(tmp_path):
    import json

    kinds = ["complete", "broken", "complete", "circular", "error"] * 30  # more than the examples kept
    path = _run_file(tmp_path, kinds)
    out = tmp_path / "failing.jsonl"
    res = CliRunner().invoke(app, ["report", str(path), "--failures", str(out), "--json"])
    assert res.exit_code == 0
    failing = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in failing] == [f"q{i}" for i, k in enumerate(kinds) if k != "complete"]
    originals = path.read_text(encoding="utf-8").splitlines()
    assert set(out.read_text(encoding="utf-8").splitlines()) <= set(originals)  # the run's own lines
    res = CliRunner().invoke(app, ["report", str(path), "--failures", "-"])
    assert res.stdout.splitlines() == out.read_text(encoding="utf-8").splitlines()


def test_report_names_every_file_it_wrote(tmp_path):
    path = _run_file(tmp_path, ["complete", "broken"])
    md, html, failing = tmp_path / "a.md", tmp_path / "b.html", tmp_path / "f.jsonl"
    res = CliRunner().invoke(app, ["report", str(path), "--md", str(md), "--html", str(html),
                                   "--failures", str(failing)])
    assert res.exit_code == 0, res.output
    said = [line for line in res.output.splitlines() if line.startswith("wrote ")]
    assert said == [f"wrote 1 failing records to {failing}", f"wrote {html}", f"wrote {md}"]
    assert md.is_file() and html.is_file() and failing.is_file()


def test_report_mixed_signatures_say_which_key_differs_and_why():
    rep = build_report([make_result("a", signature="logicscore:0.1.0|det:rules"),
                        make_result("b", signature="logicscore:0.1.0|det:rules|ground:rules")])
    text = " ".join(render_markdown(rep).split())
    assert "MIXED SIGNATURES" in text and "ground: (none) → rules" in text
    assert "some records carry documents" in text
