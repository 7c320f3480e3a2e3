"""`bench --extractor llm --determinateness llm`: the rules path and the LLM path side by side."""

from __future__ import annotations

import json
from pathlib import Path

from llm_server import FakeLLM
from test_llm import DECOMPOSITION, api_key, entailed_judge  # noqa: F401
from typer.testing import CliRunner

from logicscore.cli import app

HOLDOUT = Path(__file__).resolve().parents[1] / "corpora" / "prose-holdout-v1.jsonl"


def bench(server, tmp_path, *extra):
    labelled = tmp_path / "labelled.jsonl"
    labelled.write_text("".join(HOLDOUT.read_text().splitlines(keepends=True)[:4]))
    args = ["bench", labelled, "--extractor", "llm", "--determinateness", "llm", "--base-url", server.base_url,
            "--model", "test-model", "--cache-dir", tmp_path / "cache", *extra]
    return CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "200"})


def test_bench_reports_both_paths_with_what_the_llm_path_spent(tmp_path):
    with FakeLLM(lambda parts: DECOMPOSITION, entailed_judge, family="llama-cpp-python") as server:
        result = bench(server, tmp_path, "--json")
        calls = server.count()
        table = bench(server, tmp_path)  # the cache answers every call now
        assert server.count() == calls
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    rules, llm, spent = data["rules"], data["llm"], data["llm_spent"]
    assert rules["kind"] == llm["kind"] == "labelled" and rules["n"] == llm["n"] == 4
    assert "extractor:rules" in rules["signature"] and "extractor:llm" in llm["signature"]
    assert "|structured:object-schema|" in llm["signature"]
    assert spent["calls"] == calls > 8  # two calls per answer, its perturbed copies, one refusal
    assert spent["prompt_tokens"] == spent["completion_tokens"] == calls - 1  # the server counts 1 each
    assert spent["structured"] == "object-schema"
    assert table.exit_code == 0, table.output
    assert "logicscore (rules)" in table.stdout and "logicscore (llm)" in table.stdout
    assert "llm path: 0 calls" in table.stdout  # all from the cache


def test_bench_markdown_has_one_row_per_path(tmp_path):
    with FakeLLM(lambda parts: DECOMPOSITION, entailed_judge) as server:
        result = bench(server, tmp_path, "--md")
    assert result.exit_code == 0, result.output
    rows = [line for line in result.stdout.splitlines() if line.startswith("| bridge")
            or line.startswith("|  | **logicscore")]
    assert any("**logicscore (rules)**" in r for r in rows) and any("**logicscore (llm)**" in r for r in rows)
    assert "llm path:" in result.stdout and "prompt +" in result.stdout
