"""`score` and `explain` on the LLM path: flags → AuditorConfig → the scripted server."""

from __future__ import annotations

import json

from llm_server import FakeLLM
from test_llm import DECOMPOSITION, KEY, RECORD, api_key, entailed_judge, records  # noqa: F401
from typer.testing import CliRunner

from logicscore.cli import app

runner = CliRunner()


def write_input(path, n):
    path.write_text("".join(r.model_dump_json(exclude_none=True) + "\n" for r in records(n)))
    return path


def score(server, tmp_path, *extra):
    args = ["score", tmp_path / "in.jsonl", "-o", tmp_path / "out.jsonl", "--extractor", "llm",
            "--determinateness", "llm", "--base-url", server.base_url, "--model", "test-model",
            "--cache-dir", tmp_path / "cache", "--no-timing", "-q", *extra]
    return runner.invoke(app, [str(a) for a in args])


def lines(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_score_makes_two_calls_per_answer_and_a_rerun_none(tmp_path):
    write_input(tmp_path / "in.jsonl", 4)
    with FakeLLM(lambda parts: DECOMPOSITION, entailed_judge) as server:
        first = score(server, tmp_path, "--concurrency", "2")
        out = (tmp_path / "out.jsonl").read_text()
        calls = len(server.calls)
        again = score(server, tmp_path)
        assert len(server.calls) == calls == 8
    assert first.exit_code == 0 and again.exit_code == 0, first.output
    assert (tmp_path / "out.jsonl").read_text() == out
    assert [r["determinateness"] for r in lines(tmp_path / "out.jsonl")] == ["entailed"] * 4
    for text in (out, first.output, again.output):
        assert KEY not in text


def test_resume_scores_only_the_missing_lines(tmp_path):
    write_input(tmp_path / "in.jsonl", 4)
    with FakeLLM(lambda parts: DECOMPOSITION, entailed_judge) as server:
        assert score(server, tmp_path, "--no-cache").exit_code == 0
        full = (tmp_path / "out.jsonl").read_text()
        kept = "".join(full.splitlines(keepends=True)[:3])
        (tmp_path / "out.jsonl").write_text(kept + full.splitlines()[3][:40])  # killed mid-write
        result = score(server, tmp_path, "--no-cache", "--resume")
        assert len(server.calls) == 8 + 2  # one record left: its two calls
    assert result.exit_code == 0 and (tmp_path / "out.jsonl").read_text() == full


def test_estimate_counts_without_calling(tmp_path):
    write_input(tmp_path / "in.jsonl", 3)
    with FakeLLM(lambda parts: DECOMPOSITION, entailed_judge) as server:
        before = score(server, tmp_path, "--estimate")
        assert len(server.calls) == 0 and not (tmp_path / "out.jsonl").exists()
        score(server, tmp_path)
        after = score(server, tmp_path, "--estimate")
    plan = json.loads(before.stdout)
    assert plan["records"] == 3 and plan["requests"] == 6 and plan["calls"] == 6
    assert plan["input_tokens"] > 3 * len(RECORD.long_answer) // 4
    assert json.loads(after.stdout)["calls"] == 0 and json.loads(after.stdout)["cached"] == 6


def test_estimate_bounds_the_grounders_calls_by_the_records_with_documents(tmp_path):
    docs = {"d1": "Alma Reyes was born in Tovar."}
    rows = [r.model_copy(update={"documents": docs if i % 2 == 0 else None}) for i, r in enumerate(records(3))]
    (tmp_path / "in.jsonl").write_text("".join(r.model_dump_json(exclude_none=True) + "\n" for r in rows))
    with FakeLLM(lambda parts: DECOMPOSITION, entailed_judge) as server:
        grounded = score(server, tmp_path, "--grounding", "llm", "--estimate")
        plain = score(server, tmp_path, "--estimate")
        assert len(server.calls) == 0
    assert grounded.exit_code == 0, grounded.output
    assert json.loads(grounded.stdout)["grounding_calls_at_most"] == 2
    assert "grounding_calls_at_most" not in json.loads(plain.stdout)
    assert json.loads(grounded.stdout)["calls"] == json.loads(plain.stdout)["calls"] == 6


def test_no_model_is_a_usage_message_not_a_traceback(tmp_path):
    write_input(tmp_path / "in.jsonl", 1)
    result = runner.invoke(app, ["score", str(tmp_path / "in.jsonl"), "-o", str(tmp_path / "o.jsonl"),
                                 "--extractor", "llm", "--base-url", "http://127.0.0.1:9/v1"])
    assert result.exit_code == 2 and "--model" in result.output
    assert "Traceback" not in result.output


def test_explain_with_the_llm_extractor(tmp_path):
    with FakeLLM(lambda parts: DECOMPOSITION, entailed_judge) as server:
        result = runner.invoke(app, [
            "explain", "-Q", RECORD.question, "-a", RECORD.answer, "-l", RECORD.long_answer,
            "--extractor", "llm", "--determinateness", "llm", "--base-url", server.base_url,
            "--model", "test-model", "--cache-dir", str(tmp_path), "--json"])
        assert len(server.calls) == 2
    data = json.loads(result.stdout)
    assert result.exit_code == 0 and data["scores"]["completeness"] == 1
    assert data["determinateness"] == "entailed"
