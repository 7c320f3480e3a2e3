"""Structured-output negotiation against stand-ins for each server family.

Each family's server (tests/llm_server.py FAMILIES) takes and refuses the ways of asking for
JSON as that server does, with its own error. `score --extractor llm --determinateness llm`
must end in schema-valid records after the fewest calls: every refused mode is paid once,
on the first request, and never again in the run or in a later run with the same cache.
"""

from __future__ import annotations

import json

import pytest
from llm_server import FakeLLM, mode_of
from test_llm import DECOMPOSITION, api_key, auditor, entailed_judge, records  # noqa: F401
from test_llm_cli import lines, score, write_input

from logicscore.pipeline.extract.llm import Decomposition
from logicscore.pipeline.llm_judge import PassageAnswer
from logicscore.llm.structured import MODES

# The family, and the mode its server takes first in the order of negotiation.
FIRST_TAKEN = {"openai": "schema", "lmstudio": "schema", "llama-cpp-python": "object-schema",
               "vllm": "vllm", "ollama": "ollama", "json-mode": "object"}


@pytest.mark.parametrize("family", list(FIRST_TAKEN))
def test_each_family_ends_in_schema_valid_records_after_the_fewest_calls(tmp_path, family):
    n = 3
    write_input(tmp_path / "in.jsonl", n)
    taken = FIRST_TAKEN[family]
    refused = MODES.index(taken)  # modes before the one taken, each refused once
    with FakeLLM(lambda parts: DECOMPOSITION, entailed_judge, family=family) as server:
        result = score(server, tmp_path, "--concurrency", "2")
        modes = server.modes()
        replies = [c for c in server.calls if mode_of(c.body) == taken]
    assert result.exit_code == 0, result.output
    assert len(modes) == 2 * n + refused  # 2 calls per record, plus each refusal once
    assert modes[:refused + 1] == list(MODES[:refused + 1])
    assert set(modes[refused + 1:]) == {taken}
    out = lines(tmp_path / "out.jsonl")
    assert [r["status"] for r in out] == ["ok"] * n
    assert [r["determinateness"] for r in out] == ["entailed"] * n
    assert all(len(r["propositions"]) == 3 for r in out)
    assert all(f"|structured:{taken}|" in r["meta"]["signature"] for r in out)
    # What the server was asked to follow is the reply models' own schema.
    if taken != "object":
        sent = [_schema_sent(c.body, taken) for c in replies]
        assert Decomposition.model_json_schema() in sent and PassageAnswer.model_json_schema() in sent


def _schema_sent(body: dict, mode: str) -> dict:
    if mode == "schema":
        return body["response_format"]["json_schema"]["schema"]
    if mode == "object-schema":
        return body["response_format"]["schema"]
    return body["guided_json" if mode == "vllm" else "format"]


def test_the_mode_found_is_kept_in_the_cache_for_the_next_run(tmp_path):
    with FakeLLM(lambda parts: DECOMPOSITION, entailed_judge, family="vllm") as server:
        a = auditor(server, tmp_path)
        assert a.llm.structured_mode() == "auto"
        list(a.audit_many(records(2)))
        assert server.count() == 2 * 2 + 2
        later = auditor(server, tmp_path)  # same cache folder, new inputs
        assert later.llm.structured_mode() == "vllm"
        out = list(later.audit_many(records(4)[2:]))
        assert [r.status for r in out] == ["ok", "ok"]
        assert server.modes()[6:] == ["vllm"] * 4  # no refusal paid again
        assert "|structured:vllm|" in out[0].meta.signature


@pytest.mark.parametrize("mode", MODES)
def test_a_fixed_mode_is_the_only_one_asked(tmp_path, mode):
    with FakeLLM(lambda parts: DECOMPOSITION, entailed_judge) as server:
        out = list(auditor(server, tmp_path, structured=mode).audit_many(records(2)))
        assert server.modes() == [mode] * 4
    assert [r.status for r in out] == ["ok", "ok"]
    assert f"|structured:{mode}|" in out[0].meta.signature


def test_a_fixed_mode_the_server_refuses_is_each_records_llm_error(tmp_path):
    with FakeLLM(lambda parts: DECOMPOSITION, family="lmstudio") as server:
        out = list(auditor(server, tmp_path, judge="rules", structured="object").audit_many(records(2)))
        assert server.modes() == ["object", "object"]  # a 400 is not retried, nor negotiated
    assert [r.error.type for r in out] == ["LLMError", "LLMError"]
    assert "HTTP 400 after 1 attempt" in out[0].error.message
    assert "must be 'json_schema'" in out[0].error.message


def test_a_server_refusing_every_mode_says_so_once_per_record(tmp_path):
    with FakeLLM(lambda parts: DECOMPOSITION) as server:
        server.family = {m: (400, json.dumps({"error": {"message": f"no {m}"}})) for m in MODES}
        out = list(auditor(server, tmp_path, judge="rules").audit_many(records(2)))
    assert [r.error.type for r in out] == ["LLMError", "LLMError"]
    assert "refused every way of asking for JSON" in out[0].error.message
    # Every refusal is paid once; the second record asks once, in the last mode.
    assert server.modes() == [*MODES, "object"]


def test_cli_structured_flag_is_checked(tmp_path):
    write_input(tmp_path / "in.jsonl", 1)
    with FakeLLM(lambda parts: DECOMPOSITION) as server:
        result = score(server, tmp_path, "--structured", "grammar")
        assert server.count() == 0
    assert result.exit_code == 2
    assert "--structured must be one of auto, schema, object-schema, vllm, ollama, object" in result.output
