"""The `llm` grounder end to end: the real openai client against the scripted server on 127.0.0.1."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from llm_server import FakeLLM, Fault

from logicscore import Auditor
from logicscore.models import QARecord

KEY = "sk-test-4f1c9e2b7a0d6e8f3b5c1a9d"
TEXT = ("Glass Harbor was directed by Tobias Renner [1]. Tobias Renner was born in Osk [2]. "
        "Osk lies on the coast.")
DOCS = ["Glass Harbor is a 1998 drama directed by Tobias Renner.", "Tobias Renner died in Osk.",
        "An unrelated document nobody cites."]


def record(i: int = 0, **update) -> QARecord:
    # Each record's first document differs, so each makes its own call.
    docs = [DOCS[0] + f" It ran {i + 1} weeks.", *DOCS[1:]]
    base = QARecord(id=f"r{i}", question="Where was the director of Glass Harbor born?", answer="Osk",
                    long_answer=TEXT, documents=docs)
    return base.model_copy(update=update)


@pytest.fixture(autouse=True)
def api_key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)


def auditor(server: FakeLLM, tmp_path: Path, **llm) -> Auditor:
    options = {"base_url": server.base_url, "model": "test-model", "cache_dir": str(tmp_path / "cache"),
               "timeout": 2.0, "retries": 0, "max_retry_wait": 0.1, **llm}
    return Auditor(grounder="llm", llm=options, timing=False)


def claims(parts: dict) -> list[tuple[int, list[str]]]:
    """(hop number, cited ids) of each claim the call lists."""
    return [(int(n), ids.split(", ")) for n, ids in re.findall(r"^(\d+)\. .*— cites: (.*)$", parts["hops"], re.M)]


def first_hop_only(parts: dict) -> dict:
    # Grounds hop 1 in its document, and tries to ground hop 2 in one it never cited.
    return {"hops": [{"hop": 1, "supported_by": ["1"]}, {"hop": 2, "supported_by": ["3"]}]}


@pytest.mark.slow
def test_one_call_per_answer_with_every_cited_hop_and_only_cited_documents(tmp_path):
    with FakeLLM(lambda parts: {}, ground=first_hop_only) as server:
        out = list(auditor(server, tmp_path).audit_many([record(0), record(1)]))
        assert [r.status for r in out] == ["ok", "ok"]
        assert server.count("ground") == 2 and server.count() == 2  # rules extractor and judge
        call = server.calls[0]
        user = next(m["content"] for m in call.body["messages"] if m["role"] == "user")
        assert "<hops>" in user and "[1] Glass Harbor is a 1998 drama" in user
        assert "unrelated document" not in user  # never cited, never sent
        assert call.body["temperature"] == 0
    r = out[0]
    assert [(g.status, g.supported_by) for g in r.grounding] == [("grounded", ["1"]), ("ungrounded", [])]
    assert r.scores.grounded_chain == 0.5
    assert [s.message for s in r.diagnosis.signals if s.kind == "ungrounded_hop"] == [
        "hop 2 (Tobias Renner born in Osk) is asserted but not supported by document 2"]
    grounder = r.meta.grounder
    assert grounder.startswith("ground:llm|model:test-model|ground_prompt:") and grounder.endswith("|temp:0")
    assert "ground" not in r.meta.signature


@pytest.mark.slow
def test_the_claims_carry_their_triples_and_citations(tmp_path):
    seen: list = []

    def ground(parts):
        seen.append(claims(parts))
        return {"hops": []}

    with FakeLLM(lambda parts: {}, ground=ground) as server:
        auditor(server, tmp_path).audit_record(record())
    assert seen == [[(1, ["1"]), (2, ["2"])]]


@pytest.mark.slow
def test_a_rerun_reads_the_cache_and_gives_the_same_bytes(tmp_path):
    with FakeLLM(lambda parts: {}, ground=first_hop_only) as server:
        first = auditor(server, tmp_path).audit_record(record()).to_json()
        again = auditor(server, tmp_path).audit_record(record()).to_json()
        assert server.count("ground") == 1
    assert again == first


@pytest.mark.slow
def test_hops_without_a_known_citation_make_no_call(tmp_path):
    uncited = record(long_answer="Glass Harbor was directed by Tobias Renner. Tobias Renner was born in Osk [9].")
    bare = record(documents=None)
    with FakeLLM(lambda parts: {}, ground=first_hop_only) as server:
        a = auditor(server, tmp_path)
        out = [a.audit_record(uncited), a.audit_record(bare)]
        assert server.count("ground") == 0
    assert [g.status for g in out[0].grounding] == ["uncited", "unknown_citation"]
    assert out[1].grounding is None and "ground" not in out[1].meta.signature


@pytest.mark.slow
def test_a_bad_reply_is_repaired_once_then_becomes_that_records_parse_error(tmp_path):
    bad = Fault(body=json.dumps({"hops": "not a list"}), kind="ground")
    with FakeLLM(lambda parts: {}, ground=first_hop_only) as server:
        server.faults = [bad, bad]
        out = list(auditor(server, tmp_path).audit_many([record(0), record(1)]))
        server.faults = [bad]
        repaired = auditor(server, tmp_path).audit_record(record(2))
    assert out[0].status == "error" and out[0].error.type == "ParseError"
    assert out[1].status == "ok" and out[1].scores.grounded_chain == 0.5
    assert repaired.status == "ok" and repaired.scores.grounded_chain == 0.5


def test_score_with_the_llm_grounder_and_no_model_stops_before_reading(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from logicscore.cli import app

    monkeypatch.chdir(tmp_path)
    src = tmp_path / "in.jsonl"
    src.write_text(record().model_dump_json() + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(app, ["score", str(src), "-o", str(out), "--grounding", "llm"])
    assert result.exit_code == 2 and "model" in result.output and not out.exists()


@pytest.mark.slow
def test_score_with_the_llm_grounder_from_the_command_line(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from logicscore.cli import app

    monkeypatch.chdir(tmp_path)
    src = tmp_path / "in.jsonl"
    src.write_text(record().model_dump_json() + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    with FakeLLM(lambda parts: {}, ground=first_hop_only) as server:
        result = CliRunner().invoke(app, [
            "score", str(src), "-o", str(out), "--grounding", "llm", "--model", "test-model",
            "--base-url", server.base_url, "--cache-dir", str(tmp_path / "cache"), "--no-timing", "-q"])
        assert result.exit_code == 0, result.output
        assert server.count("ground") == 1
    line = json.loads(out.read_text())
    assert [g["status"] for g in line["grounding"]] == ["grounded", "ungrounded"]


@pytest.mark.slow
def test_a_windows_grounding_calls_go_out_together_and_change_nothing(tmp_path):
    # Like the other LLM stages' calls, a window's grounding calls are made at once, before
    # its first result: the records are audited up to grounding, then grounded together.
    records = [record(i) for i in range(3)] + [record(3, documents=None)]
    with FakeLLM(lambda parts: {}, ground=first_hop_only) as server:
        batched = auditor(server, tmp_path, concurrency=3).audit_many(records)
        first = next(batched)
        assert server.count("ground") == 3
        rest = list(batched)
    with FakeLLM(lambda parts: {}, ground=first_hop_only) as server:
        alone = [auditor(server, tmp_path / "alone").audit_record(r) for r in records]
        assert server.count("ground") == 3
    assert [r.model_dump_json() for r in [first, *rest]] == [r.model_dump_json() for r in alone]
    assert [r.grounding is not None for r in alone] == [True, True, True, False]


@pytest.mark.slow
def test_a_failed_grounding_call_in_a_window_errors_its_record_alone(tmp_path):
    with FakeLLM(lambda parts: {}, ground=first_hop_only) as server:
        server.faults = [Fault(status=500, body="boom", kind="ground")]
        out = list(auditor(server, tmp_path, concurrency=1).audit_many([record(i) for i in range(3)]))
    assert [(r.id, r.status) for r in out] == [("r0", "error"), ("r1", "ok"), ("r2", "ok")]
    assert out[0].error.type == "LLMError" and out[1].scores.grounded_chain == 0.5
