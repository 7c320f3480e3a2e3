"""`--hops llm` from the command line, through a real OpenAI-protocol server on 127.0.0.1 that
answers with a strong model's recorded replies (../shared/tools/llm_replay.py, matched by the
question and long answer a request carries): score, explain, --estimate, bench beside the
rules path, and the failures (no server, a record the server has no reply for)."""

import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from typer.testing import CliRunner

from logicscore.cli import app
from logicscore.measure.labelled import strip_labels
from logicscore.models import AuditResult

runner = CliRunner()
_SHARED = Path("shared")
# The checkout's parent holds shared/ (a worktree sits one folder deeper): the nearest one up.
SHARED = next((p / _SHARED for p in Path(__file__).resolve().parents if (p / _SHARED).is_dir()),
              Path(__file__).resolve().parents[1].parent / _SHARED)
REPLAY = SHARED / "tools/llm_replay.py"
REPLIES = SHARED / "data/llm-answers/hops-strong.jsonl"
ANSWERS = SHARED / "data/llm-answers/fireact_hotpotqa.jsonl"
pytestmark = pytest.mark.skipif(not (REPLAY.is_file() and REPLIES.is_file() and ANSWERS.is_file()),
                                reason=f"the replay server and its replies are not under {SHARED}")
N = 6


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def replay(tmp_path_factory):
    """The replay server: (base URL, a file holding the number of calls it answered)."""
    count = tmp_path_factory.mktemp("replay") / "calls"
    port = _free_port()
    proc = subprocess.Popen([sys.executable, str(REPLAY), "--replies", str(REPLIES), "--port", str(port),
                             "--count-file", str(count)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"{url}/models", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail("the replay server did not start: " + proc.stderr.read1().decode())  # type: ignore[union-attr]
        yield url, count
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def calls(count: Path) -> int:
    return int(count.read_text()) if count.exists() else 0


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """(labelled answers, the same records with their labels stripped), the first N of FireAct."""
    folder = tmp_path_factory.mktemp("answers")
    lines = ANSWERS.read_text(encoding="utf-8").splitlines()[:N]
    labelled = folder / "labelled.jsonl"
    labelled.write_text("\n".join(lines) + "\n", encoding="utf-8")
    bare = folder / "in.jsonl"
    bare.write_text("".join(strip_labels(json.loads(line)).model_dump_json(exclude_none=True) + "\n"
                            for line in lines), encoding="utf-8")
    return labelled, bare


@pytest.fixture
def llm(replay, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "x")
    url, _ = replay
    return ["--hops", "llm", "--model", "replay", "--base-url", url, "--cache-dir", tmp_path / "cache"]


def _read(path: Path) -> list[AuditResult]:
    return [AuditResult.model_validate_json(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_score_hops_llm_one_call_per_record_then_the_cache(replay, files, llm, tmp_path):
    _, bare = files
    _, count = replay
    before = calls(count)
    estimate = json.loads(run("score", bare, "-o", "-", "--estimate", *llm).output)
    assert (estimate["records"], estimate["calls"], estimate["cached"]) == (N, N, 0)
    assert calls(count) == before  # --estimate calls nothing
    out = tmp_path / "out.jsonl"
    res = run("score", bare, "-o", out, "--no-timing", "-q", *llm)
    assert res.exit_code == 0, res.output
    assert calls(count) - before == N
    results = _read(out)
    assert [r.status for r in results] == ["ok"] * N
    for r in results:
        assert r.hops is not None and r.hops.stage == "llm" and r.hops.hops
        assert "hops:llm" in r.meta.signature and "hops_prompt:" in r.meta.signature
        assert r.scores.completeness == int(r.hops.complete)
        for hop in r.hops.hops:
            if hop.stated:  # a stated hop's evidence is where its span says, in the sentence it names
                start, end = hop.span
                sentence = r.sentences[hop.sentence]
                assert sentence.span[0] <= start and end <= sentence.span[1] + 1
    assert any(not r.hops.complete for r in results) and any(r.hops.complete for r in results)
    # Rerun from the cache: no call, the same bytes.
    again = tmp_path / "again.jsonl"
    assert run("score", bare, "-o", again, "--no-timing", "-q", *llm).exit_code == 0
    assert calls(count) - before == N and again.read_bytes() == out.read_bytes()
    warm = json.loads(run("score", bare, "-o", "-", "--estimate", *llm).output)
    assert (warm["calls"], warm["cached"]) == (0, N)


def test_explain_hops_llm(replay, files, llm):
    _, bare = files
    res = run("explain", bare, "--line", 2, *llm)
    assert res.exit_code == 0, res.output
    assert "hops (llm):" in res.output and "anchors written:" in res.output
    assert "✓ 1 " in res.output


def test_bench_hops_llm_beside_the_rules_path_and_the_baselines(replay, files, llm):
    labelled, _ = files
    res = run("bench", labelled, "--md", *llm)
    assert res.exit_code == 0, res.output
    out = res.output
    for row in ("**logicscore (rules)**", "**logicscore (llm)**", "answer_mentioned", "names_mentioned"):
        assert f"| all | {row} |" in out or f"|  | {row} |" in out, row
    rules_sig = next(line for line in out.splitlines() if line.startswith("rules: "))
    llm_sig = next(line for line in out.splitlines() if line.startswith("llm: "))
    assert "hops:rules" in rules_sig and "hops:llm" in llm_sig and "det:rules" in llm_sig
    assert "errored: rules 0, llm 0" in out


def test_hops_llm_without_a_server_gives_llm_error_records(files, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "x")
    _, bare = files
    out = tmp_path / "out.jsonl"
    res = run("score", bare, "-o", out, "--hops", "llm", "--model", "replay", "--base-url",
              f"http://127.0.0.1:{_free_port()}/v1", "--no-cache", "--llm-timeout", "2", "-q")
    assert res.exit_code == 1
    assert f"every record errored ({N} LLMError)" in res.output
    results = _read(out)
    assert len(results) == N and {r.error.type for r in results} == {"LLMError"}


def test_a_record_the_server_has_no_reply_for_is_an_llm_error_record(replay, files, llm, tmp_path):
    _, bare = files
    lines = bare.read_text(encoding="utf-8").splitlines()[:2]
    unknown = {**json.loads(lines[0]), "id": "unknown", "long_answer": "Nobody recorded a reply for this."}
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join([lines[0], json.dumps(unknown), lines[1]]) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    res = run("score", path, "-o", out, "--no-timing", "-q", *llm)
    assert res.exit_code == 0, res.output
    results = _read(out)
    assert [r.status for r in results] == ["ok", "error", "ok"]
    assert results[1].error.type == "LLMError" and results[1].hops is None
