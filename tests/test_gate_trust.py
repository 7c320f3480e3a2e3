"""A gate a team can trust on its first day: a RAG run with and without documents is one run,
errored records fail it, and a record that regressed against the baseline is named."""

import json
import re
from xml.etree import ElementTree as ET

import pytest
from typer.testing import CliRunner

from logicscore.cli import app
from logicscore.report.synthetic import make_result

runner = CliRunner()
SIGNATURE = "logicscore:0.1.0|extractor:rules|det:rules"


def _record(id_, kind, line, grounder=None, signature=SIGNATURE):
    result = make_result(id_, kind, line=line, signature=signature)
    if grounder is not None:
        result = result.model_copy(update={"meta": result.meta.model_copy(update={"grounder": grounder})})
    return result.to_json() + "\n"


def _write(path, kinds, **kw):
    path.write_text("".join(_record(f"q{i}", k, i + 1, **kw) for i, k in enumerate(kinds)), encoding="utf-8")
    return path


def _gate(*args):
    result = runner.invoke(app, ["gate", *map(str, args)])
    return result.exit_code, result.output


@pytest.fixture(autouse=True)
def _cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no pyproject above may lend its thresholds


def test_a_run_where_only_some_records_carry_documents_is_one_run(tmp_path):
    lines = [_record("q0", "complete", 1, grounder="ground:rules"), _record("q1", "complete", 2),
             _record("q2", "complete", 3, grounder="ground:rules")]
    run = tmp_path / "rag.jsonl"
    run.write_text("".join(lines), encoding="utf-8")
    assert '"grounder"' not in lines[1] and '"grounder":"ground:rules"' in lines[0].replace(" ", "")
    code, out = _gate(run, "--min-completeness", "0.8", "--json")
    assert code == 0, out
    verdict = json.loads(out[out.index("{"):])
    assert verdict["signatures"] == [SIGNATURE] and verdict["grounders"] == {"ground:rules": 2}
    # Against a baseline scored without documents: nothing grounded to compare, still one setting.
    base = _write(tmp_path / "base.jsonl", ["complete"] * 3)
    assert _gate(run, "--baseline", base)[0] == 0


def test_grounded_records_are_compared_with_grounded_ones(tmp_path):
    run = _write(tmp_path / "run.jsonl", ["complete"] * 2, grounder="ground:rules")
    base = _write(tmp_path / "base.jsonl", ["complete"] * 2, grounder="ground:llm|model:m")
    code, out = _gate(run, "--baseline", base)
    assert code == 2 and "ground: llm → rules" in out and "--grounding" in out
    assert _gate(run, "--baseline", base, "--allow-signature-change")[0] == 0


def test_a_run_that_truly_mixes_signatures_names_the_key_and_the_likely_cause(tmp_path):
    # As a logicscore before meta.grounder wrote a RAG run: the grounder in some signatures.
    run = tmp_path / "old.jsonl"
    run.write_text(_record("q0", "complete", 1) + _record("q1", "complete", 2, signature=SIGNATURE + "|ground:rules"),
                   encoding="utf-8")
    code, out = _gate(run, "--min-completeness", "0.5")
    text = " ".join(out.split())
    assert code == 2 and "ground: (none) → rules" in text and "some records carry documents" in text
    other = tmp_path / "other.jsonl"
    other.write_text(_record("q0", "complete", 1) + _record("q1", "complete", 2, signature=SIGNATURE + "|fuzzy:90"),
                     encoding="utf-8")
    code, out = _gate(other, "--min-completeness", "0.5")
    text = " ".join(out.split())
    assert code == 2 and "fuzzy: (none) → 90" in text and "joins runs scored with different settings" in text


def test_errored_records_fail_the_gate_by_default_and_count_as_incomplete(tmp_path):
    run = _write(tmp_path / "run.jsonl", ["complete", "error", "error", "error"])
    code, out = _gate(run, "--min-completeness", "0.8", "--json")
    verdict = json.loads(out[out.index("{"):])
    checks = {c["name"]: c for c in verdict["checks"]}
    assert code == 1
    assert checks["mean completeness"]["value"] == pytest.approx(0.25) and not checks["mean completeness"]["passed"]
    assert "3 errored counted as incomplete" in checks["mean completeness"]["detail"]
    assert checks["share errored"]["threshold"] == 0 and not checks["share errored"]["passed"]
    assert "default" in checks["share errored"]["detail"]
    # Loosened on purpose, each on its own: the errors, then the mean over every record.
    assert _gate(run, "--min-completeness", "0.25", "--max-errors", "0.75")[0] == 0
    assert _gate(run, "--min-completeness", "0.3", "--max-errors", "0.75")[0] == 1


def test_a_record_that_regressed_fails_the_gate_though_the_mean_did_not_move(tmp_path):
    base = _write(tmp_path / "base.jsonl", ["complete", "broken", "complete"])
    run = _write(tmp_path / "run.jsonl", ["broken", "complete", "complete"])
    code, out = _gate(run, "--baseline", base, "--max-regression", "completeness=0.02",
                      "--junit", tmp_path / "g.xml", "--json")
    verdict = json.loads(out[out.index("{"):])
    checks = {c["name"]: c for c in verdict["checks"]}
    assert code == 1 and checks["drop in mean completeness"]["value"] == pytest.approx(0)
    assert checks["records regressed"]["value"] == 1 and "was complete: q0" in checks["records regressed"]["detail"]
    assert [m["id"] for m in verdict["regressed_records"]] == ["q0"]
    assert "regressed records (complete in the baseline) (1): q0" in " ".join(out.split())
    records = ET.parse(tmp_path / "g.xml").getroot().find("testsuite[@name='logicscore.records']")
    failed = {c.get("name"): c.find("failure").get("message") for c in records if c.find("failure") is not None}
    assert list(failed) == ["q0"] and failed["q0"].startswith("regressed (complete in the baseline): broken")
    assert _gate(run, "--baseline", base, "--max-regressed", "1")[0] == 0


def test_many_regressed_records_are_named_up_to_a_screenful_then_counted(tmp_path):
    base = _write(tmp_path / "base.jsonl", ["complete"] * 25)
    run = _write(tmp_path / "run.jsonl", ["broken"] * 25)
    code, out = _gate(run, "--baseline", base, "--json")
    verdict = json.loads(out[out.index("{"):])
    detail = {c["name"]: c for c in verdict["checks"]}["records regressed"]["detail"]
    assert code == 1 and "q19 and 5 more" in detail and "q20" not in detail


def test_max_regressed_needs_a_baseline(tmp_path):
    run = _write(tmp_path / "run.jsonl", ["complete"])
    code, out = _gate(run, "--max-regressed", "0")
    assert code == 2 and "--max-regressed needs --baseline" in out


def test_the_planted_failure_ci_runs_fails_the_gate_naming_both_records():
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).parents[1]
    env = {**os.environ, "PYTHON": sys.executable, "PYTHONPATH": str(root)}
    done = subprocess.run(["bash", str(root / ".ci" / "gate-can-fail")], env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "regressed records (complete in the baseline) (1): planted-regressed" in done.stdout
    assert re.search(r"records regressed +│ +1 │", done.stdout)  # a count, not 1.0000
    assert "bash .ci/gate-can-fail" in (root / ".ci" / "run").read_text(encoding="utf-8")


def test_a_complete_record_gone_from_the_run_counts_as_regressed(tmp_path):
    base = _write(tmp_path / "base.jsonl", ["complete", "complete", "broken"])
    run = tmp_path / "run.jsonl"
    run.write_text(_record("q0", "complete", 1), encoding="utf-8")  # q1 (complete) and q2 (broken) gone
    code, out = _gate(run, "--baseline", base, "--json")
    verdict = json.loads(out[out.index("{"):])
    assert code == 1 and [(m["id"], m["new"]) for m in verdict["regressed_records"]] == [("q1", "missing")]


def test_max_regressed_from_pyproject_is_skipped_without_a_baseline_and_checked_with_one(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.logicscore.gate]\nmax_regressed = 1\n")
    base = _write(tmp_path / "base.jsonl", ["complete"] * 3)
    run = _write(tmp_path / "run.jsonl", ["broken", "broken", "complete"])
    code, out = _gate(run, "--json")
    assert code == 0 and json.loads(out[out.index("{"):])["skipped"] == ["max_regressed 1 (no --baseline)"]
    code, out = _gate(run, "--baseline", base, "--json")
    checks = {c["name"]: c for c in json.loads(out[out.index("{"):])["checks"]}
    assert code == 1 and checks["records regressed"]["threshold"] == 1 and checks["records regressed"]["value"] == 2
