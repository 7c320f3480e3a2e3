"""gate: thresholds from flags and pyproject, baseline regression, signature refusal, JUnit, JSON."""

import json
from xml.etree import ElementTree as ET

import pytest
from typer.testing import CliRunner

from logicscore.cli import app
from logicscore.report.synthetic import UNVERIFIED_WHY, make_result

runner = CliRunner()


def _write(path, kinds, signature=None):
    extra = {"signature": signature} if signature else {}
    path.write_text("".join(make_result(f"q{i}", k, line=i + 1, **extra).to_json() + "\n"
                            for i, k in enumerate(kinds)), encoding="utf-8")
    return path


@pytest.fixture
def runs(tmp_path, monkeypatch):
    # No pyproject above tmp_path's cwd may leak thresholds into a test.
    monkeypatch.chdir(tmp_path)
    good = _write(tmp_path / "good.jsonl", ["complete"] * 8 + ["broken"] * 2)
    worse = _write(tmp_path / "worse.jsonl", ["complete"] * 7 + ["broken"] * 3)
    return tmp_path, good, worse


def _gate(*args):
    result = runner.invoke(app, ["gate", *map(str, args)])
    return result.exit_code, result


def _junit(path, suite="logicscore.report.gate"):
    """The test cases of one suite of a gate's JUnit file and the failed ones, after checking
    the counts of every suite and of the whole."""
    root = ET.parse(path).getroot()
    assert root.tag == "testsuites"
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert set(suites) == {"logicscore.report.gate", "logicscore.records"}
    total = failed = 0
    for node in suites.values():
        cases = node.findall("testcase")
        failures = [c for c in cases if c.find("failure") is not None]
        assert int(node.get("tests")) == len(cases) and int(node.get("failures")) == len(failures)
        assert all(c.get("name") and c.get("classname") for c in cases)
        total, failed = total + len(cases), failed + len(failures)
    assert (int(root.get("tests")), int(root.get("failures"))) == (total, failed)
    cases = suites[suite].findall("testcase")
    return cases, [c for c in cases if c.find("failure") is not None]


@pytest.mark.parametrize("args, code, failed", [
    (["--min-completeness", "0.8"], 0, []),
    (["--min-completeness", "0.9"], 1, ["mean completeness >= 0.9"]),
    (["--max-failure", "broken=0.1", "--min-records", "5"], 1, ["share broken <= 0.1"]),
    (["--max-errors", "0", "--min-records", "11"], 1, ["records >= 11"]),
])
def test_gate_thresholds_pass_and_fail(runs, args, code, failed):
    tmp, good, _ = runs
    exit_code, res = _gate(good, *args, "--junit", tmp / "g.xml")
    assert exit_code == code, res.output
    cases, failures = _junit(tmp / "g.xml")
    assert [c.get("name") for c in failures] == failed
    # Every gate checks errored records, at 0 unless a threshold says otherwise.
    assert len(cases) == len(args) // 2 + ("--max-errors" not in args)


def test_gate_regression_only_fails_against_baseline(runs):
    tmp, good, worse = runs
    # 0.7 clears the absolute bar; the 0.1 drop from the baseline is what fails.
    code, res = _gate(worse, "--min-completeness", "0.6", "--baseline", good,
                      "--max-regression", "completeness=0.05", "--junit", tmp / "r.xml", "--json")
    assert code == 1
    verdict = json.loads(res.stdout)
    assert verdict["passed"] is False and verdict["exit_code"] == 1
    assert [(c["name"], c["passed"]) for c in verdict["checks"]] == [
        ("mean completeness", True), ("share errored", True), ("drop in mean completeness", False),
        ("records regressed", False)]
    assert verdict["checks"][2]["value"] == pytest.approx(0.1)
    _, failures = _junit(tmp / "r.xml")
    assert [f.get("name") for f in failures] == ["drop in mean completeness <= 0.05", "records regressed <= 0"]
    # q7 was complete in the baseline: loosening the mean alone does not pass it.
    code, _ = _gate(worse, "--baseline", good, "--max-regression", "completeness=0.15")
    assert code == 1
    code, _ = _gate(worse, "--baseline", good, "--max-regression", "completeness=0.15", "--max-regressed", "1")
    assert code == 0


def test_gate_refuses_runs_with_different_signatures(runs):
    tmp, good, _ = runs
    other = _write(tmp / "other.jsonl", ["complete"] * 10, signature="logicscore:0.1.0|extractor:given")
    args = [other, "--baseline", good, "--max-regression", "completeness=0.05"]
    code, res = _gate(*args)
    assert code == 2 and "--allow-signature-change" in res.output
    code, _ = _gate(*args, "--allow-signature-change")
    assert code == 0


@pytest.mark.parametrize("setup, args, needle", [
    (lambda t: None, ["missing.jsonl", "--min-completeness", "0.5"], "no such file"),
    (lambda t: (t / "bad.jsonl").write_text('{"id": 1}\n'), ["bad.jsonl", "--min-completeness", "0.5"],
     "not a logicscore result"),
    (lambda t: (t / "empty.jsonl").write_text(""), ["empty.jsonl", "--min-completeness", "0.5"], "no records"),
    (lambda t: None, ["good.jsonl"], "no thresholds set"),
    (lambda t: None, ["good.jsonl", "--max-failure", "broke=0.1"], "one of broken"),
    (lambda t: None, ["good.jsonl", "--max-regression", "completeness=0.1"], "needs --baseline"),
])
def test_gate_bad_input_is_exit_2_with_one_line(runs, setup, args, needle):
    tmp, _, _ = runs
    setup(tmp)
    code, res = _gate(*args)
    assert code == 2
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert len(lines) == 1 and needle in lines[0], res.output


def test_gate_reads_pyproject_and_flags_override(runs):
    tmp, good, _ = runs
    (tmp / "pyproject.toml").write_text(
        "[tool.logicscore.gate]\nmin_completeness = 0.9\nmax_failure = { broken = 0.5 }\n")
    code, res = _gate(good, "--json")
    assert code == 1
    names = {c["name"]: c["threshold"] for c in json.loads(res.stdout)["checks"]}
    assert names == {"mean completeness": 0.9, "share broken": 0.5, "share errored": 0}
    code, res = _gate(good, "--min-completeness", "0.7", "--json")
    assert code == 0 and json.loads(res.stdout)["checks"][0]["threshold"] == 0.7


def test_gate_pyproject_with_unknown_key_is_exit_2(runs):
    tmp, good, _ = runs
    (tmp / "pyproject.toml").write_text("[tool.logicscore.gate]\nmin_completenes = 0.9\n")
    code, res = _gate(good)
    assert code == 2 and "min_completenes" in res.output


def test_gate_junit_has_one_case_per_record_naming_why_it_fails(runs):
    tmp, good, _ = runs
    code, res = _gate(good, "--min-completeness", "0.9", "--junit", tmp / "g.xml")
    assert code == 1
    cases, failures = _junit(tmp / "g.xml", "logicscore.records")
    assert [c.get("name") for c in cases] == [f"q{i}" for i in range(10)]
    assert [c.get("name") for c in failures] == ["q8", "q9"]
    message = failures[0].find("failure").get("message")
    assert message.startswith("broken") and "missing proposition linking" in message
    assert "failing records (2): q8, q9" in res.output.replace("\n", " ")
    # ... and the command that shows the first of them.
    assert f"next: logicscore explain {good} --id q8" in res.output


def test_gate_fails_a_run_in_which_every_record_errored(runs):
    tmp, _, _ = runs
    errored = _write(tmp / "errored.jsonl", ["error"] * 3)
    for args in (["--max-errors", "1"], ["--min-records", "1"]):
        code, res = _gate(errored, *args, "--json")
        verdict = json.loads(res.stdout)
        assert code == 1 and verdict["checks"][0] == {
            "name": "records scored", "value": 0.0, "op": ">=", "threshold": 1, "passed": False,
            "detail": "every one of the 3 records errored"}


def test_gate_max_errors_is_a_share(runs):
    tmp, _, _ = runs
    mixed = _write(tmp / "mixed.jsonl", ["complete"] * 9 + ["error"])
    assert _gate(mixed, "--max-errors", "0.1")[0] == 0
    code, res = _gate(mixed, "--max-errors", "0.05", "--json")
    assert code == 1 and json.loads(res.stdout)["checks"][0]["value"] == pytest.approx(0.1)


def test_gate_signature_mismatch_names_the_keys_that_differ(runs):
    tmp, _, _ = runs
    base = _write(tmp / "base.jsonl", ["complete"] * 3, signature="logicscore:0.1.0|extractor:rules|fuzzy:85|alts:16")
    new = _write(tmp / "new.jsonl", ["complete"] * 3, signature="logicscore:0.1.0|extractor:rules|fuzzy:90|det:rules")
    code, res = _gate(new, "--min-completeness", "0.5", "--baseline", base)
    assert code == 2
    assert "fuzzy: 85 → 90; alts: 16 → (none); det: (none) → rules" in res.output.replace("\n", "")


def test_gate_on_the_documented_pyproject_example_checks_what_it_can_without_a_baseline(runs):
    tmp, good, _ = runs
    (tmp / "pyproject.toml").write_text(
        "[tool.logicscore.gate]\nmin_completeness = 0.8\nmax_failure = { broken = 0.15, deviated = 0.05 }\n"
        "max_errors = 0.01\nmax_regression = { completeness = 0.02 }\n")
    code, res = _gate(good, "--json")
    verdict = json.loads(res.stdout)
    assert code == 1  # 2 broken of 10 is over 0.15
    assert [c["name"] for c in verdict["checks"]] == ["mean completeness", "share broken", "share deviated",
                                                      "share errored"]
    assert verdict["skipped"] == ["max_regression completeness=0.02 (no --baseline)"]
    assert "skipped: max_regression completeness=0.02 (no --baseline)" in res.output
    code, res = _gate(good, "--baseline", good, "--json")
    assert [c["name"] for c in json.loads(res.stdout)["checks"]][-2:] == ["drop in mean completeness",
                                                                         "records regressed"]


@pytest.fixture
def unverified_run(runs):
    """8 decided records (6 complete, 2 broken) and 2 unverified; the baseline decided all 10."""
    tmp, _, _ = runs
    run = _write(tmp / "unverified.jsonl", ["complete"] * 6 + ["broken"] * 2 + ["unverified"] * 2)
    base = _write(tmp / "decided.jsonl", ["complete"] * 6 + ["broken"] * 2 + ["complete"] * 2)
    return tmp, run, base


def test_gate_unverified_records_neither_pass_nor_fail_completeness(unverified_run):
    tmp, run, _ = unverified_run
    # 6 complete of the 8 decided is 0.75: the 2 unverified are neither a 1 nor a 0.
    code, res = _gate(run, "--min-completeness", "0.75", "--max-failure", "broken=0.25", "--json",
                      "--junit", tmp / "u.xml")
    assert code == 0, res.output
    verdict = json.loads(res.stdout)
    assert [(c["name"], c["value"]) for c in verdict["checks"]] == [("mean completeness", 0.75),
                                                                    ("share broken", 0.25),
                                                                    ("share errored", 0.0)]
    assert verdict["checks"][0]["detail"] == "over 8 decided records; 2 unverified left out"
    assert [(c["id"], c["skipped"]) for c in verdict["unverified_records"]] == [
        ("q8", UNVERIFIED_WHY), ("q9", UNVERIFIED_WHY)]
    assert [c["id"] for c in verdict["failing_records"]] == ["q6", "q7"]
    said = res.output.replace("\n", " ")
    assert "unverified records (2): q8, q9" in said and "limit them with --max-unverified" in said
    assert _gate(run, "--min-completeness", "0.76")[0] == 1
    # JUnit: an unverified record is a skipped case with the reason, neither passed nor failed.
    cases, failures = _junit(tmp / "u.xml", "logicscore.records")
    skipped = [c for c in cases if c.find("skipped") is not None]
    assert [c.get("name") for c in skipped] == ["q8", "q9"] and [c.get("name") for c in failures] == ["q6", "q7"]
    assert skipped[0].find("skipped").get("message") == f"completeness unverified: {UNVERIFIED_WHY}"
    root = ET.parse(tmp / "u.xml").getroot()
    assert root.get("skipped") == "2" and root.find("testsuite[@name='logicscore.records']").get("skipped") == "2"


@pytest.mark.parametrize("limit, code, threshold", [
    ("2", 0, 2.0), ("1", 1, 1.0), ("0.2", 0, 2.0), ("0.1", 1, 1.0), ("20%", 0, 2.0), ("15%", 1, 1.5),
])
def test_gate_max_unverified_is_a_count_a_share_or_a_percentage(unverified_run, limit, code, threshold):
    _, run, _ = unverified_run
    exit_code, res = _gate(run, "--max-unverified", limit, "--json")
    assert exit_code == code, res.output
    (check,) = [c for c in json.loads(res.stdout)["checks"] if c["name"] == "unverified records"]
    assert (check["name"], check["value"], check["threshold"], check["passed"]) == (
        "unverified records", 2.0, threshold, code == 0)
    assert "limit them with --max-unverified" not in res.output


@pytest.mark.parametrize("value, needle", [
    ("abc", "give a count (5), a share (0.1) or a percentage (10%)"),
    ("1.5", "--max-unverified: give a count (5), a share between 0 and 1"),
    ("-1", "--max-unverified: give a count"),
    ("150%", "a percentage is at most 100%"),
])
def test_gate_bad_max_unverified_is_exit_2(unverified_run, value, needle):
    _, run, _ = unverified_run
    code, res = _gate(run, f"--max-unverified={value}")
    assert code == 2 and needle in res.output, res.output


def test_gate_max_unverified_from_pyproject(unverified_run):
    tmp, run, _ = unverified_run
    (tmp / "pyproject.toml").write_text('[tool.logicscore.gate]\nmax_unverified = "10%"\n')
    code, res = _gate(run, "--json")
    assert code == 1 and [c["detail"] for c in json.loads(res.stdout)["checks"]
                          if c["name"] == "unverified records"] == ["limit 10% (10% of 10 scored)"]
    assert _gate(run, "--max-unverified", "3")[0] == 0  # the flag overrides the file
    (tmp / "pyproject.toml").write_text("[tool.logicscore.gate]\nmax_unverified = true\n")
    code, res = _gate(run)
    assert code == 2 and "max_unverified" in res.output


def test_gate_names_records_that_went_unverified_against_the_baseline(unverified_run):
    _, run, base = unverified_run
    code, res = _gate(run, "--baseline", base, "--max-regression", "completeness=0.5", "--json")
    assert code == 0, res.output
    verdict = json.loads(res.stdout)
    assert [c["id"] for c in verdict["went_unverified"]] == ["q8", "q9"]
    assert "decided in the baseline, unverified now (2): q8, q9" in res.output.replace("\n", " ")
    # Against itself nothing went unverified, and a run with none says nothing of them.
    assert json.loads(_gate(run, "--baseline", run, "--max-regression", "completeness=0", "--json")[1].stdout)[
        "went_unverified"] == []
    plain = json.loads(_gate(base, "--baseline", base, "--max-regression", "completeness=0", "--json")[1].stdout)
    assert "went_unverified" not in plain and "unverified_records" not in plain
