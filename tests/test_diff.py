"""diff: records matched by id (and line for repeated ids); exactly the category moves listed."""

import json

from typer.testing import CliRunner

from logicscore.cli import app
from logicscore.report.diff import diff
from logicscore.report.synthetic import make_result

OLD = [("a", "complete"), ("b", "complete"), ("c", "broken"), ("d", "circular"), ("e", "deviated"),
       ("f", "complete"), ("dup", "complete"), ("dup", "broken"), ("gone", "complete")]
NEW = [("a", "complete"), ("b", "broken"), ("c", "complete"), ("d", "circular"), ("e", "error"),
       ("f", "complete"), ("dup", "complete"), ("dup", "complete"), ("new", "broken")]
MOVES = [("b", 2, "complete", "broken"), ("c", 3, "broken", "complete"), ("e", 5, "deviated", "error"),
         ("dup", 8, "broken", "complete")]


def _run(rows):
    return [make_result(i, k, line=n) for n, (i, k) in enumerate(rows, 1)]


def test_diff_lists_exactly_the_records_that_moved():
    result = diff(_run(OLD), _run(NEW))
    assert [(m.id, m.line, m.old, m.new) for m in result.moves] == MOVES
    assert result.matched == 8
    assert [e.id for e in result.only_old] == ["gone"] and [e.id for e in result.only_new] == ["new"]
    deltas = {m: d for m, _, _, d in result.deltas()}
    # Old: 5 of 9 complete; new: 5 of the 8 scored (e errored).
    assert abs(deltas["completeness"] - (5 / 8 - 5 / 9)) < 1e-12


def test_diff_repeated_ids_are_matched_by_line_not_order():
    old = [make_result("x", "broken", line=1), make_result("x", "complete", line=2)]
    new = [make_result("x", "complete", line=2), make_result("x", "broken", line=1)]
    assert diff(old, new).moves == []


def test_diff_cli_json_and_exit_0(tmp_path):
    paths = []
    for name, rows in (("old", OLD), ("new", NEW)):
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(r.to_json() + "\n" for r in _run(rows)))
        paths.append(str(path))
    res = CliRunner().invoke(app, ["diff", *paths, "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert [(m["id"], m["old"], m["new"]) for m in out["moves"]] == [(i, a, b) for i, _, a, b in MOVES]
    res = CliRunner().invoke(app, ["diff", *paths])
    assert res.exit_code == 0 and "4 records changed category" in res.output
    assert CliRunner().invoke(app, ["diff", paths[0], str(tmp_path / "nope.jsonl")]).exit_code == 2


def test_diff_of_runs_with_different_signatures_names_the_keys(tmp_path):
    from typer.testing import CliRunner

    from logicscore.cli import app
    from logicscore.report.synthetic import make_result

    old, new = tmp_path / "old.jsonl", tmp_path / "new.jsonl"
    old.write_text(make_result("a", signature="logicscore:0.1.0|fuzzy:85").to_json() + "\n")
    new.write_text(make_result("a", signature="logicscore:0.1.0|fuzzy:90").to_json() + "\n")
    result = CliRunner().invoke(app, ["diff", str(old), str(new)])
    assert result.exit_code == 0 and "signatures differ (fuzzy: 85 → 90)" in result.output
