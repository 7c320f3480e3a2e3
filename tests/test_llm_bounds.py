"""The LLM path against hostile servers: bounded in time and memory, never keeping the key.

Each test runs a real server on 127.0.0.1 that misbehaves one way: a body dripped a byte a
second, `Retry-After: 100000`, a 200 MB reply, a gzip bomb, the key echoed back, a body that
is no completion, a corrupt cache file.
"""

from __future__ import annotations

import base64
import json
import os
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from llm_server import FakeLLM, Fault
from test_llm import DECOMPOSITION, KEY, api_key, auditor, entailed_judge, records  # noqa: F401

ROOT = Path(__file__).resolve().parents[1]
# Peak RSS of one child (the command), read in a parent of its own so no other child counts.
MEASURE = ("import resource, subprocess, sys; code = subprocess.run(sys.argv[1:]).returncode; "
           "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(code)")


def cli(server: FakeLLM, tmp_path: Path, n: int, *extra: str, measure: bool = False):
    """`score --extractor llm` as a process of its own on `n` records; (result, seconds)."""
    source = tmp_path / "in.jsonl"
    source.write_text("".join(r.model_dump_json(exclude_none=True) + "\n" for r in records(n)))
    command = [sys.executable, "-m", "logicscore", "score", str(source), "-o", str(tmp_path / "out.jsonl"),
               "--extractor", "llm", "--base-url", server.base_url, "--model", "test-model",
               "--cache-dir", str(tmp_path / "cache"), "--no-timing", "-q", *extra]
    if measure:
        command = [sys.executable, "-c", MEASURE, *command]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OPENAI_API_KEY": KEY}
    start = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    return done, time.monotonic() - start


def outputs(tmp_path: Path) -> list[dict]:
    return [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]


def record_seconds(server: FakeLLM, finished: float) -> float:
    """From the first call the server saw to `finished` (a monotonic time in this process)."""
    return finished - server.calls[0].at


def test_a_dripping_body_ends_at_the_records_deadline(tmp_path):
    with FakeLLM(lambda parts: DECOMPOSITION, entailed_judge) as server:
        server.faults = [Fault(drip=1.0, delay=0.0)] * 4
        done, _ = cli(server, tmp_path, 1, "--timeout", "10", "--llm-timeout", "3",
                      "--determinateness", "llm")
        took = record_seconds(server, time.monotonic())
    (result,) = outputs(tmp_path)
    assert done.returncode == 1 and "every record errored" in done.stderr, done.stderr
    assert result["error"]["type"] == "Timeout" and "10 s" in result["error"]["message"]
    assert took < 12, took  # the judge call found the record's time spent and was never made


def test_retry_after_past_the_deadline_is_not_waited_for(tmp_path):
    with FakeLLM(lambda parts: DECOMPOSITION) as server:
        server.faults = [Fault(status=429, headers={"Retry-After": "100000"})] * 10
        done, _ = cli(server, tmp_path, 2, "--timeout", "10", "--llm-timeout", "3")
        took = record_seconds(server, time.monotonic())
    results = outputs(tmp_path)
    assert done.returncode == 1 and "every record errored" in done.stderr, done.stderr
    assert [r["error"]["type"] for r in results] == ["LLMError", "LLMError"]
    assert "after 1 attempt:" in results[0]["error"]["message"]
    assert "asked to wait 100000 s" in results[0]["error"]["message"]
    assert took < 12  # both records, one call each


def test_retry_after_within_the_deadline_is_waited_for(tmp_path):
    with FakeLLM(lambda parts: DECOMPOSITION) as server:
        server.faults = [Fault(status=429, headers={"Retry-After": "1"})]
        out = list(auditor(server, tmp_path, judge="rules", deadline=60).audit_many(records(1)))
        gap = server.calls[1].at - server.calls[0].at
    assert out[0].status == "ok" and server.count() == 2 and gap >= 0.9


@pytest.mark.parametrize("gzip", [False, True], ids=["200MB", "gzip-bomb"])
def test_a_huge_reply_is_refused_in_bounded_memory(tmp_path, gzip):
    with FakeLLM(lambda parts: DECOMPOSITION) as server:
        server.faults = [Fault(pad_to=200 * 1024 * 1024, gzip=gzip)] * 4
        done, _ = cli(server, tmp_path, 2, "--determinateness", "rules", measure=True)
        calls = [c.kind for c in server.calls]
    results = outputs(tmp_path)
    peak_mb = int(done.stdout.split()[-1]) / 1024
    assert done.returncode == 1 and "every record errored" in done.stderr, done.stderr
    assert peak_mb < 400, peak_mb
    assert [r["error"]["type"] for r in results] == ["LLMError", "LLMError"]
    assert "over the cap of 4,194,304 bytes" in results[0]["error"]["message"]
    assert calls == ["extract", "extract"]  # not retried, never sent back in a repair call


def test_a_stacked_encoding_is_refused_unread(tmp_path):
    with FakeLLM(lambda parts: DECOMPOSITION) as server:
        server.faults = [Fault(headers={"content-encoding": "gzip, gzip"})]
        out = list(auditor(server, tmp_path, judge="rules").audit_many(records(1)))
    assert out[0].error.type == "LLMError" and "content-encoding" in out[0].error.message


@pytest.mark.parametrize("body,status", [("<html>not json</html>", 200), ("", 200), ("", 204),
                                         ('{"object": "list"}', 200)],
                         ids=["html", "empty", "204", "no-choices"])
def test_a_reply_that_is_no_completion_is_an_llm_error(tmp_path, body, status):
    with FakeLLM(lambda parts: DECOMPOSITION) as server:
        server.faults = [Fault(status=status, body=body, raw=True)] if status == 200 else [
            Fault(status=204, body="")]
        out = list(auditor(server, tmp_path, judge="rules", retries=0).audit_many(records(2)))
    assert out[0].error.type == "LLMError"
    assert "is --base-url an OpenAI-compatible server?" in out[0].error.message
    assert out[1].status == "ok"


def test_a_401_says_one_attempt(tmp_path):
    with FakeLLM(lambda parts: DECOMPOSITION) as server:
        server.faults = [Fault(status=401, body='{"error": {"message": "bad key"}}')]
        out = list(auditor(server, tmp_path, judge="rules").audit_many(records(1)))
    assert out[0].error.type == "LLMError" and server.count() == 1
    assert "HTTP 401 after 1 attempt:" in out[0].error.message


def test_the_key_echoed_everywhere_is_written_nowhere(tmp_path):
    """An error body with the key past its first 300 characters, and 200 replies whose
    content carries it (in entity names, in the judge's answer): no piece of it longer than
    6 characters in the output, the cache (and its WAL), or stderr."""
    def echoing(parts):
        return {"question_entities": ["Marta Ellison {auth}"], "propositions": DECOMPOSITION["propositions"]}

    with FakeLLM(lambda parts: DECOMPOSITION, lambda parts: {"answer": "{auth}"}) as server:
        pad = "x" * 285
        server.faults = [Fault(status=500, body=f'{{"error": "{pad} {{auth}} {{auth}}"}}', kind="extract"),
                         Fault(status=400, body='{"error": "bad {auth}"}', kind="extract"),
                         Fault(body=json.dumps(echoing({})), kind="extract"),
                         Fault(body=json.dumps(echoing({})), kind="extract"),
                         Fault(body='{"answer": "{auth}"}', kind="judge"),
                         Fault(body='{"answer": "{auth}"}', kind="judge")]
        done, _ = cli(server, tmp_path, 3, "--determinateness", "llm", "--concurrency", "1",
                      "--structured", "schema")
        echoed = [c.headers.get("Authorization", "") for c in server.calls]
    assert done.returncode == 0, done.stderr
    assert any(KEY in h for h in echoed)  # the server did get the key to echo
    pieces = {KEY[i:i + 7] for i in range(len(KEY) - 6)}
    texts = {"stderr": done.stderr, "stdout": done.stdout}
    for path in tmp_path.rglob("*"):
        if path.is_file():
            texts[str(path)] = path.read_bytes().decode("utf-8", "replace")
    assert any("cache" in name for name in texts)
    leaks = {name: p for name, text in texts.items() for p in pieces if p in text}
    assert not leaks
    results = outputs(tmp_path)
    assert [r["status"] for r in results] == ["error", "ok", "ok"]
    assert "***" in results[0]["error"]["message"]


def test_a_corrupt_cache_is_moved_aside_with_one_warning(tmp_path):
    with FakeLLM(lambda parts: DECOMPOSITION, entailed_judge) as server:
        cli(server, tmp_path, 2, "--determinateness", "llm")
        cache = tmp_path / "cache" / "answers.sqlite3"
        assert cache.is_file()
        for damage in ("garbage", "cut", "schema"):
            _checkpoint(cache)  # the whole cache in the one file, as when it is copied or shared
            if damage == "garbage":
                cache.write_bytes(b"not a database at all " * 100)
            elif damage == "cut":
                data = cache.read_bytes()
                cache.write_bytes(data[: len(data) // 2 + 17])
            else:
                cache.unlink()
                db = sqlite3.connect(cache)
                db.execute("CREATE TABLE answers (k INTEGER, v BLOB, extra TEXT)")
                db.commit()
                db.close()
            before = server.count()
            done, _ = cli(server, tmp_path, 2, "--determinateness", "llm")
            assert done.returncode == 0, done.stderr
            assert [r["status"] for r in outputs(tmp_path)] == ["ok", "ok"], damage
            assert done.stderr.count("is not a readable cache") == 1, (damage, done.stderr)
            assert server.count() - before == 4  # rebuilt: asked again, and kept
            again, _ = cli(server, tmp_path, 2, "--determinateness", "llm")
            assert again.stderr == "" and server.count() - before == 4
    assert len(list((tmp_path / "cache").glob("answers.sqlite3.broken-*"))) >= 1


def _checkpoint(cache: Path) -> None:
    db = sqlite3.connect(cache)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("PRAGMA journal_mode=DELETE")
    db.close()
    for suffix in ("-wal", "-shm"):
        Path(f"{cache}{suffix}").unlink(missing_ok=True)


@pytest.mark.parametrize("text", [
    f"x {KEY} y", f"Bearer {KEY}", f"{KEY[:12]}…", f"…{KEY[-9:]}", f"{KEY[3:10]}", f"{KEY}{KEY}",
    f"a {KEY[:8]} b {KEY[10:20]} c"])
def test_redact_leaves_no_piece_of_the_key_of_seven_characters(text):
    from logicscore.llm.redact import redact

    out = redact(text)
    assert "***" in out
    assert not any(KEY[i:i + 7] in out for i in range(len(KEY) - 6))


def test_redact_keeps_text_without_the_key():
    from logicscore.llm.redact import redact

    text = "Marta Ellison starred in Glass Harbor; sk-tes and 4f1c9e are shorter than a piece."
    assert redact(text) == text


def test_max_tokens_is_sent_and_signed(tmp_path):
    with FakeLLM(lambda parts: DECOMPOSITION, entailed_judge) as server:
        out = list(auditor(server, tmp_path, max_tokens=77).audit_many(records(1)))
        sent = [c.body.get("max_tokens") for c in server.calls]
    assert out[0].status == "ok" and sent == [77, 77]
    assert "|temp:0|max_tokens:77" in out[0].meta.signature


# --- issue 38: every form of a secret, a reply too deep, a cache folder that cannot be used ----

def _echoes() -> dict[str, str]:
    """The key as a careless server may echo it: base64-encoded (alone and inside a Basic-style
    token), reversed, and cut in groups of five."""
    return {"base64": base64.b64encode(KEY.encode()).decode(),
            "base64-inside": base64.b64encode(f"Bearer {KEY}".encode()).decode(),
            "reversed": KEY[::-1],
            "groups": " ".join(KEY[i:i + 5] for i in range(0, len(KEY), 5))}


@pytest.mark.parametrize("form", list(_echoes()))
def test_the_key_echoed_in_another_form_is_written_nowhere(tmp_path, form):
    echoed = _echoes()[form]
    with FakeLLM(lambda parts: DECOMPOSITION) as server:
        server.faults = [Fault(status=400, body=json.dumps({"error": f"bad key {echoed} for you"}))] * 2
        done, _ = cli(server, tmp_path, 2, "--determinateness", "rules", "--structured", "schema")
    assert done.returncode == 1, done.stderr
    results = outputs(tmp_path)
    assert [r["error"]["type"] for r in results] == ["LLMError", "LLMError"]
    text = (tmp_path / "out.jsonl").read_text() + done.stderr
    assert not _recoverable(text), (form, results[0]["error"])
    assert "***" in results[0]["error"]["message"]


def _recoverable(text: str) -> bool:
    """Whether 7 characters of the key can be read back from `text`: as written, across
    separators, reversed, or base64-decoded at any alignment."""
    flat = "".join(ch for ch in text if ch.isalnum())
    readings = [flat, flat[::-1]]
    for run in re.findall(r"[A-Za-z0-9+/]{8,}", text):
        for shift in range(4):
            part = run[shift:]
            readings.append(base64.b64decode(part[:len(part) // 4 * 4]).decode("latin-1"))
    key = "".join(ch for ch in KEY if ch.isalnum())
    pieces = {key[i:i + 7] for i in range(len(key) - 6)}
    return any(p in "".join(ch for ch in r if ch.isalnum()) for r in readings for p in pieces)


def test_credentials_in_the_base_url_are_written_nowhere(tmp_path):
    """`--base-url http://user:password@host/v1?api-key=TOKEN` on an endpoint that does not
    answer: neither the password nor the token reaches a record, a report or `explain`."""
    import socket

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://someone:hunter2pass@127.0.0.1:{port}/v1?api-key=TOKEN9secret"
    source = tmp_path / "in.jsonl"
    source.write_text("".join(r.model_dump_json(exclude_none=True) + "\n" for r in records(2)))
    out = tmp_path / "out.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OPENAI_API_KEY": KEY}
    run = [sys.executable, "-m", "logicscore"]
    llm = ["--extractor", "llm", "--base-url", url, "--model", "test-model", "--cache-dir",
           str(tmp_path / "cache"), "--no-timing", "--llm-timeout", "2"]
    texts = []
    for command in ([*run, "score", str(source), "-o", str(out), *llm, "-q"],
                    [*run, "report", str(out), "--md", str(tmp_path / "r.md"), "--html", str(tmp_path / "r.html")],
                    [*run, "explain", str(source), "--line", "1", *llm]):
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
        texts += [done.stdout, done.stderr]
    texts += [p.read_text() for p in (out, tmp_path / "r.md", tmp_path / "r.html")]
    assert "could not connect" in texts[-3] and f"127.0.0.1:{port}/v1" in texts[-3]
    for secret in ("hunter2pass", "TOKEN9secret"):
        assert not any(secret in t for t in texts), secret


def test_a_reply_nested_100000_deep_is_an_llm_error(tmp_path):
    deep = "[" * 100_000 + "]" * 100_000
    with FakeLLM(lambda parts: DECOMPOSITION) as server:
        server.faults = [Fault(body=deep), Fault(body=deep, raw=True)]
        out = list(auditor(server, tmp_path, judge="rules", retries=0, concurrency=1).audit_many(records(3)))
    assert [r.error.type if r.error else r.status for r in out] == ["LLMError", "LLMError", "ok"]
    assert all("nested" in r.error.message for r in out[:2]), [r.error.message for r in out[:2]]


@pytest.fixture
def readonly(tmp_path):
    """A folder nobody may write in: mode 555, and immutable for root (chattr +i), undone
    whatever the test does so the folder can be cleaned away."""
    folder = tmp_path / "readonly"
    folder.mkdir()
    folder.chmod(0o555)
    subprocess.run(["chattr", "+i", str(folder)], capture_output=True)
    try:
        yield folder
    finally:
        subprocess.run(["chattr", "-i", str(folder)], capture_output=True)
        folder.chmod(0o755)


def _cache_cases(tmp_path: Path, readonly: Path) -> dict[str, tuple[list[str], dict[str, str]]]:
    a_file = tmp_path / "a-file"
    a_file.write_text("not a folder")
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "nowhere" / "at-all")
    return {"file": (["--cache-dir", str(a_file)], {}),
            "dangling": (["--cache-dir", str(dangling)], {}),
            "readonly": (["--cache-dir", str(readonly / "sub")], {}),
            "xdg-file": ([], {"XDG_CACHE_HOME": str(a_file)})}


@pytest.mark.parametrize("case", ["file", "dangling", "readonly", "xdg-file"])
def test_a_cache_folder_that_cannot_be_used_is_one_line_before_any_record(tmp_path, readonly, case):
    flags, env_extra = _cache_cases(tmp_path, readonly)[case]
    if case == "readonly":  # chattr +i for root, the mode bits for anyone else
        with pytest.raises(OSError):
            (readonly / "probe").mkdir()
    source = tmp_path / "in.jsonl"
    source.write_text("".join(r.model_dump_json(exclude_none=True) + "\n" for r in records(2)))
    out = tmp_path / "out.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OPENAI_API_KEY": KEY, **env_extra}
    with FakeLLM(lambda parts: DECOMPOSITION) as server:
        done = subprocess.run([sys.executable, "-m", "logicscore", "score", str(source), "-o", str(out),
                               "--extractor", "llm", "--base-url", server.base_url, "--model", "test-model",
                               "--no-timing", "-q", *flags], capture_output=True, text=True, env=env,
                              timeout=300)
        calls = server.count()
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1 and lines[0].startswith("Error: the LLM answer cache folder"), lines
    assert "--no-cache" in lines[0] and calls == 0 and not out.exists()


def test_a_url_is_shown_without_its_credentials_and_only_they_are_masked(monkeypatch):
    from logicscore.llm import redact as r

    monkeypatch.setattr(r, "_EXTRA", set())
    url = "https://me:pa55word9@llm.example:8443/v1?api-version=2024-02-01&api-key=TOKEN9secret"
    assert r.shown_url(url) == "https://llm.example:8443/v1?api-version=***&api-key=***"
    r.remember_url(url)
    said = r.redact("refused TOKEN9secret (TOKEN-9-secret) for pa55word9 on 2024-02-01")
    assert said == "refused *** (***) for *** on 2024-02-01"
