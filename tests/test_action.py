"""The GitHub Action (action.yml) and the pre-commit hook, run locally: the action's step
script with the files GitHub sets for it, and the hook's entry as pre-commit would run it."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from logicscore.report.synthetic import make_result

ROOT = Path(__file__).parents[1]


def _github_env(tmp_path: Path, **inputs: str) -> dict[str, str]:
    """The variables a GitHub runner sets for a step, each file an empty temp file."""
    files = {name: tmp_path / name.lower() for name in ("GITHUB_STEP_SUMMARY", "GITHUB_OUTPUT", "GITHUB_ENV")}
    for path in files.values():
        path.write_text("")
    runner_temp = tmp_path / "runner_temp"
    runner_temp.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "LOGICSCORE_"))}
    env.update({name: str(path) for name, path in files.items()})
    env.update(GITHUB_ACTIONS="true", GITHUB_WORKSPACE=str(tmp_path), GITHUB_ACTION_PATH=str(ROOT),
               RUNNER_TEMP=str(runner_temp), PYTHONPATH=str(ROOT), LOGICSCORE_PYTHON=sys.executable)
    env.update(inputs)
    return env


def _step(tmp_path: Path, **inputs: str) -> tuple[subprocess.CompletedProcess, str, dict[str, str]]:
    """Run the action's "Score, report and gate" step as its `run:` line says, in tmp_path."""
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    step = next(s for s in action["runs"]["steps"] if s.get("id") == "run")
    env = _github_env(tmp_path, **inputs)
    done = subprocess.run(["bash", "-c", step["run"]], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=600)
    summary = Path(env["GITHUB_STEP_SUMMARY"]).read_text(encoding="utf-8")
    outputs = dict(line.split("=", 1) for line in Path(env["GITHUB_OUTPUT"]).read_text().splitlines())
    return done, summary, outputs


def _scored(path: Path, kinds: list[str]) -> Path:
    path.write_text("".join(make_result(f"rec-{i}", k, line=i + 1).to_json() + "\n" for i, k in enumerate(kinds)))
    return path


def test_action_declares_its_inputs_and_runs_the_step_script():
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    assert action["runs"]["using"] == "composite"
    step = next(s for s in action["runs"]["steps"] if s.get("id") == "run")
    assert step["run"] == 'bash "$GITHUB_ACTION_PATH/action/run.sh"'
    assert {"LOGICSCORE_INPUT", "LOGICSCORE_GATE_ARGS"} <= set(step["env"])
    for var in step["env"].values():
        name = var.removeprefix("${{ inputs.").removesuffix(" }}")
        assert name in action["inputs"], name


def test_a_failing_gate_fails_the_step_and_names_the_failing_records(tmp_path):
    results = _scored(tmp_path / "scored.jsonl", ["complete"] * 6 + ["broken", "circular", "complete", "error"])
    done, summary, outputs = _step(tmp_path, LOGICSCORE_INPUT=str(results), LOGICSCORE_SCORED="true",
                                   LOGICSCORE_GATE_ARGS="--min-completeness 0.9 --max-errors 0")
    assert done.returncode == 1, done.stderr
    assert "::error title=logicscore gate failed::mean completeness; share errored failed; failing records: " \
           "rec-6, rec-7, rec-9" in done.stdout
    assert "## logicscore gate: FAIL (10 records)" in summary
    for rid, line in (("rec-6", 7), ("rec-7", 8), ("rec-9", 10)):
        assert f"| `{rid}` | {line} |" in summary
    assert "# logicscore report" in summary  # the markdown report follows the verdict
    assert outputs["passed"] == "false" and outputs["failing"] == "rec-6,rec-7,rec-9"
    junit = Path(outputs["junit"]).read_text(encoding="utf-8")
    assert 'name="rec-6"' in junit and "<failure" in junit


def test_a_passing_gate_passes_the_step(tmp_path):
    results = _scored(tmp_path / "scored.jsonl", ["complete"] * 9 + ["broken"])
    (tmp_path / "pyproject.toml").write_text("[tool.logicscore.gate]\nmin_completeness = 0.8\n"
                                              "max_regression = { completeness = 0.02 }\n")
    done, summary, outputs = _step(tmp_path, LOGICSCORE_INPUT=str(results), LOGICSCORE_SCORED="true")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "::error" not in done.stdout
    assert "## logicscore gate: PASS (10 records)" in summary and "skipped: max_regression" in summary
    assert outputs["passed"] == "true" and outputs["failing"] == "rec-9"


def test_a_gate_usage_error_fails_the_step_with_exit_2(tmp_path):
    results = _scored(tmp_path / "scored.jsonl", ["complete"])
    done, summary, _ = _step(tmp_path, LOGICSCORE_INPUT=str(results), LOGICSCORE_SCORED="true")
    assert done.returncode == 2 and "no thresholds set" in done.stderr
    assert "could not run (exit 2)" in summary


@pytest.mark.slow
def test_the_step_scores_the_answers_first(tmp_path):
    rows = [{"id": "ok", "question": "Who directed Glass Harbor?", "answer": "Tobias Renner",
             "long_answer": "Glass Harbor was directed by Tobias Renner."},
            {"id": "gap", "question": "Who directed the film that Marta Ellison starred in?",
             "answer": "Tobias Renner", "long_answer": "Marta Ellison was born in Osk. Tobias Renner directs films."}]
    answers = tmp_path / "answers.jsonl"
    answers.write_text("".join(json.dumps(r) + "\n" for r in rows))
    done, summary, outputs = _step(tmp_path, LOGICSCORE_INPUT=str(answers), LOGICSCORE_OUTPUT="out/scored.jsonl",
                                   LOGICSCORE_GATE_ARGS="--min-completeness 1")
    assert done.returncode == 1
    assert outputs["results"] == "out/scored.jsonl" and (tmp_path / "out/scored.jsonl").is_file()
    assert "failing records: gap" in done.stdout and "| `gap` | 2 |" in summary


def test_pre_commit_hook_gates_the_file_its_args_name(tmp_path):
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert hook["id"] == "logicscore-gate" and hook["pass_filenames"] is False
    assert hook["entry"].split()[0] == "logicscore"  # the console script pre-commit installs
    # As pre-commit runs it: the entry's words, then the hook's args (here the results file).
    command = [sys.executable, "-m", *shlex.split(hook["entry"])]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    good = _scored(tmp_path / "good.jsonl", ["complete"] * 10)
    bad = _scored(tmp_path / "bad.jsonl", ["complete", "broken"])
    (tmp_path / "pyproject.toml").write_text("[tool.logicscore.gate]\nmin_completeness = 0.9\n")
    passed = subprocess.run([*command, str(good)], cwd=tmp_path, env=env, capture_output=True, text=True)
    failed = subprocess.run([*command, str(bad)], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert (passed.returncode, failed.returncode) == (0, 1)
    assert "failing records (1): rec-1" in failed.stderr.replace("\n", " ")


def test_the_step_names_the_records_that_regressed_against_the_baseline(tmp_path):
    baseline = _scored(tmp_path / "baseline.jsonl", ["complete"] * 4)
    results = _scored(tmp_path / "scored.jsonl", ["complete", "broken", "complete", "complete"])
    done, summary, outputs = _step(tmp_path, LOGICSCORE_INPUT=str(results), LOGICSCORE_SCORED="true",
                                   LOGICSCORE_GATE_ARGS=f"--baseline {baseline}")
    assert done.returncode == 1, done.stderr
    assert outputs["passed"] == "false" and outputs["failing"] == "rec-1"
    assert "### Regressed records (1): complete in the baseline, not any more" in summary
    assert "| `rec-1` | 2 | broken |" in summary
    assert "records regressed failed; failing records: rec-1" in done.stdout
