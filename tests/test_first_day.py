"""The small frictions a new user meets on the first day: an empty input, a RAGAS row given to
`calibrate`, a piped `explain`, `score --help` as one long list."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from logicscore.cli import app

ROOT = Path(__file__).parents[1]
EXAMPLES = ROOT / "corpora" / "examples.jsonl"
RAGAS = {"user_input": "Where was the director of Timber Falls born?",
         "response": "Timber Falls was directed by Tony Giglio [1]. Tony Giglio was born in Medford [2].\n"
                     "Answer: Medford",
         "retrieved_contexts": ["Timber Falls is a 2007 film directed by Tony Giglio.",
                                "Tony Giglio was born in Medford."]}
runner = CliRunner()


def test_score_of_an_input_with_no_records_exits_1_in_one_line(tmp_path):
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_text("")
    result = runner.invoke(app, ["score", str(src), "-o", str(out)])
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 1 and len(lines) == 1, result.output
    assert "holds no records" in lines[0] and "gate" not in lines[0] and not out.exists()


def test_calibrate_reads_each_rows_format_and_says_why_a_line_is_not_a_record(tmp_path):
    mine = tmp_path / "mine.jsonl"
    mine.write_text(EXAMPLES.read_text(encoding="utf-8") + json.dumps(RAGAS) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["calibrate", str(mine), "--json", "-q"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["lines"], data["input_errors"], data["not_records"]) == (7, 0, [])
    # Told the file is logicscore records only, the RAGAS row is not one, and the report says why.
    result = runner.invoke(app, ["calibrate", str(mine), "--format", "logicscore", "--md", "-q"])
    assert result.exit_code == 0, result.output
    assert re.search(r"1 not records \(line 7: missing answer", result.stdout), result.stdout
    bad = runner.invoke(app, ["calibrate", str(mine), "--format", "nope"])
    assert bad.exit_code == 2 and "nope" in bad.output


def test_explain_piped_never_cuts_a_line(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    result = runner.invoke(app, ["explain", str(EXAMPLES), "--id", "springfield"])
    assert result.exit_code == 0, result.output
    signature = next(line for line in result.output.splitlines() if line.startswith("signature: "))
    assert signature.endswith("|det:rules|hops:rules") and len(signature) > 80
    assert "  P4  (Springfield) —locate in→ (Illinois)  [prep]  cites Doc4  redundant" in result.output


PANELS = ["Input", "Output", "Rules path", "LLM path", "Running"]


def test_score_help_groups_its_options_in_panels_common_first(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    result = runner.invoke(app, ["score", "--help"])
    assert result.exit_code == 0, result.output
    titles = re.findall(r"╭─ (.+?) ─", result.output)
    # click's --help and the input argument keep their own panels, before the groups.
    assert titles == ["Arguments", "Options", *PANELS], titles

    def panel(title):
        return result.output.split(f"╭─ {title} ─")[1].split("╰")[0]

    assert "--format" in panel("Input") and "--map" in panel("Input")
    assert "--output" in panel("Output") and "--resume" in panel("Output")
    assert "--extractor" in panel("Rules path") and "--fuzzy-threshold" in panel("Rules path")
    assert "--base-url" in panel("LLM path") and "--model " in panel("LLM path")
    assert "--workers" in panel("Running") and "--engine" in panel("Running")
    assert "│ --base-url" not in panel("Input") + panel("Rules path")


def test_score_takes_its_options_as_typed_groups():
    from typing import get_type_hints

    from logicscore.cli import options
    from logicscore.cli.score import score

    groups = list(get_type_hints(score.__wrapped__).values())
    assert {options.InputOptions, options.OutputOptions, options.RulesOptions, options.LLMOptions,
            options.RunningOptions} <= set(groups)
    assert len(groups) <= 8


def test_explain_and_calibrate_show_the_same_input_panel_and_explain_the_same_stage_panels(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    explain = runner.invoke(app, ["explain", "--help"]).output
    assert re.findall(r"╭─ (.+?) ─", explain) == ["Arguments", "Options", "Input", "Rules path", "LLM path"]
    calibrate = runner.invoke(app, ["calibrate", "--help"]).output
    part = calibrate.split("╭─ Input ─")[1].split("╰")[0]
    assert "--format" in part and "--map" in part
