"""Every scripted fault becomes a successful retry or that record's typed error; no record is lost."""

from __future__ import annotations

import json
import socket
import time

import pytest
from llm_server import FakeLLM, Fault
from test_llm import DECOMPOSITION, api_key, auditor, entailed_judge, records  # noqa: F401

BAD_SCHEMA = '{"propositions": [{"subject": 1, "object": "x"}], "extra": true}'


def run(server, tmp_path, n=3, **llm):
    return list(auditor(server, tmp_path, judge="rules", **llm).audit_many(records(n)))


def test_429_waits_for_retry_after_then_succeeds(tmp_path):
    with FakeLLM(lambda parts: DECOMPOSITION) as server:
        server.faults = [Fault(status=429, headers={"Retry-After": "1"})]
        out = run(server, tmp_path, n=1)
        gap = server.calls[1].at - server.calls[0].at
    assert [r.status for r in out] == ["ok"] and len(server.calls) == 2
    assert 0.9 <= gap < 2.0


def test_429_forever_stops_after_the_retries(tmp_path):
    with FakeLLM(lambda parts: DECOMPOSITION) as server:
        server.faults = [Fault(status=429, headers={"Retry-After": "0.05"})] * 10
        out = run(server, tmp_path, n=1, retries=2)
    assert out[0].error.type == "LLMError" and "HTTP 429 after 3 attempts" in out[0].error.message
    assert len(server.calls) == 3


def test_500_is_retried(tmp_path):
    with FakeLLM(lambda parts: DECOMPOSITION) as server:
        server.faults = [Fault(status=500)]
        out = run(server, tmp_path, n=2, max_retry_wait=0.05)
    assert [r.status for r in out] == ["ok", "ok"] and len(server.calls) == 3


def test_persistent_500_is_that_records_llm_error(tmp_path):
    with FakeLLM(lambda parts: DECOMPOSITION) as server:
        server.faults = [Fault(status=503)] * 3
        out = run(server, tmp_path, n=3, retries=2, max_retry_wait=0.05)
    assert [r.status for r in out] == ["error", "ok", "ok"]
    assert out[0].error.type == "LLMError" and "HTTP 503" in out[0].error.message
    assert [r.id for r in out] == ["r0", "r1", "r2"]


def test_a_hang_past_the_timeout_is_a_timeout_record(tmp_path):
    with FakeLLM(lambda parts: DECOMPOSITION) as server:
        server.faults = [Fault(body=None, delay=1.5)]
        start = time.perf_counter()
        out = run(server, tmp_path, n=2, timeout=0.4, retries=0)
        took = time.perf_counter() - start
    assert [r.status for r in out] == ["error", "ok"]
    assert out[0].error.type == "Timeout" and "0.4 s" in out[0].error.message
    assert took < 1.4  # the client gave up at the timeout, not when the server answered


@pytest.mark.parametrize("body", ["this is not JSON {", BAD_SCHEMA, "```json\n[1, 2]\n```"])
def test_an_invalid_reply_gets_one_repair(tmp_path, body):
    with FakeLLM(lambda parts: DECOMPOSITION) as server:
        server.faults = [Fault(body=body)]
        out = run(server, tmp_path, n=1)
        repair = server.calls[1].body["messages"]
    assert out[0].status == "ok" and len(server.calls) == 2
    assert repair[2] == {"role": "assistant", "content": body}
    assert "could not be used" in repair[3]["content"]


def test_a_line_break_written_inside_a_string_is_read_without_a_repair(tmp_path):
    # As SmolLM2 under llama.cpp's grammar writes it: a line break, not "\\n", in a value.
    body = json.dumps(DECOMPOSITION).replace('"Dunmore"', '"Dunmore\n"')
    with FakeLLM(lambda parts: DECOMPOSITION) as server:
        server.faults = [Fault(kind="extract", body=body)]
        out = run(server, tmp_path, n=1)
        assert server.count("extract") == 1
    assert out[0].status == "ok" and out[0].propositions[0].object == "Dunmore\n"


@pytest.mark.parametrize("body, why", [("not JSON", "not JSON"), (BAD_SCHEMA, "schema error")])
def test_invalid_twice_is_a_parse_error(tmp_path, body, why):
    with FakeLLM(lambda parts: DECOMPOSITION) as server:
        server.faults = [Fault(body=body), Fault(body=body)]
        out = run(server, tmp_path, n=2)
    assert out[0].error.type == "ParseError" and why in out[0].error.message
    assert "after one repair attempt" in out[0].error.message and out[1].status == "ok"
    assert len(server.calls) == 3


def test_a_server_rejecting_json_schema_is_asked_in_json_mode(tmp_path):
    with FakeLLM(lambda parts: DECOMPOSITION, reject_json_schema=True) as server:
        out = run(server, tmp_path, n=4, concurrency=4)
        formats = [c.body["response_format"]["type"] for c in server.calls]
    assert [r.status for r in out] == ["ok"] * 4
    # One probe learns it; the rest of the batch goes straight to JSON mode.
    assert formats == ["json_schema"] + ["json_object"] * 4


def test_connection_refused_is_an_llm_error_per_record(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed when the block ends: nothing listens there
    from logicscore import Auditor

    options = {"base_url": f"http://127.0.0.1:{port}/v1", "model": "m", "retries": 0,
               "cache_dir": str(tmp_path)}
    out = list(Auditor("llm", llm=options, timing=False).audit_many(records(2)))
    assert [r.error.type for r in out] == ["LLMError", "LLMError"]
    assert f"127.0.0.1:{port}" in out[0].error.message and "--base-url" in out[0].error.message


def test_max_calls_is_a_hard_budget(tmp_path):
    with FakeLLM(lambda parts: DECOMPOSITION) as server:
        out = run(server, tmp_path, n=5, max_calls=3, concurrency=1)
    assert [r.status for r in out] == ["ok"] * 3 + ["error"] * 2
    assert "budget of 3 LLM calls" in out[3].error.message and len(server.calls) == 3


def test_offline_replays_the_cache_and_a_miss_is_an_error(tmp_path):
    with FakeLLM(lambda parts: DECOMPOSITION, entailed_judge) as server:
        online = [r.to_json() for r in auditor(server, tmp_path).audit_many(records(2))]
        offline = [r.to_json() for r in auditor(server, tmp_path, offline=True).audit_many(records(3))]
        assert len(server.calls) == 4
    assert offline[:2] == online
    assert '"LLMError"' in offline[2] and "--offline" in offline[2]


def test_no_cache_calls_again(tmp_path):
    with FakeLLM(lambda parts: DECOMPOSITION) as server:
        run(server, tmp_path, n=2, cache=False)
        run(server, tmp_path, n=2, cache=False)
    assert len(server.calls) == 4 and not (tmp_path / "cache").exists()
