"""Replies cut at the token limit: the propositions the model finished are kept, and said so.

The stand-in server (tests/llm_server.py) honours `max_tokens` as a real one does: a reply
longer than the limit is cut there, mid-JSON, with `finish_reason: "length"`. A repeating
server answers as a small model looping at temperature 0: the same propositions over and over.
"""

from __future__ import annotations

import json

import pytest
from llm_server import FakeLLM, Fault
from test_llm import DECOMPOSITION, api_key, auditor, entailed_judge, records  # noqa: F401
from test_llm_cli import lines, score, write_input

from logicscore.pipeline.extract.llm import Decomposition
from logicscore.llm import salvage
from logicscore.pipeline.llm_judge import PassageAnswer

PROPS = DECOMPOSITION["propositions"]


def repeating(parts: dict) -> dict:
    """A model that loops: its three propositions again and again, then the entities."""
    return {"propositions": PROPS * 40, "question_entities": ["Marta Ellison"]}


def test_a_repeating_reply_cut_at_the_limit_is_scored_from_what_it_finished(tmp_path):
    with FakeLLM(repeating, entailed_judge, chars_per_token=4) as server:
        out = list(auditor(server, tmp_path, max_tokens=200).audit_many(records(2)))
        extract = [c for c in server.calls if c.kind == "extract"]
        again = [r.to_json() for r in auditor(server, tmp_path, max_tokens=200).audit_many(records(2))]
        calls = server.count()
    assert [r.status for r in out] == ["ok", "ok"]
    assert len(extract) == 2  # no repair call: the cut reply was used as it was
    assert calls == 4  # and the rerun read both answers, notes included, from the cache
    assert again == [r.to_json() for r in out]
    r = out[0]
    assert [(p.subject, p.object) for p in r.propositions] == [(p["subject"], p["object"]) for p in PROPS]
    assert r.scores.completeness == 1 and r.determinateness == "entailed"
    cut = [s for s in r.diagnosis.signals if s.kind == "cut_reply"]
    assert len(cut) == 1 and cut[0].severity == "soft"
    # 800 characters (200 tokens of 4) hold five propositions whole and the start of a sixth.
    assert "--llm-max-tokens 200" in cut[0].message and "kept the 3 proposition(s)" in cut[0].message
    assert "2 verbatim repeat(s) dropped" in cut[0].message
    assert r.question_entities is not None  # entities were past the cut: the question reader's
    assert "|max_tokens:200|cut:finished-items|" in r.meta.signature


def test_a_proposition_cut_in_the_middle_is_left_out(tmp_path):
    whole = json.dumps({"propositions": PROPS})
    inside_third = whole.index('"It was directed') + 10  # inside the third one's text
    with FakeLLM(lambda parts: DECOMPOSITION, entailed_judge) as server:
        server.faults = [Fault(kind="extract", body=whole[:inside_third], finish="length")]
        r = next(iter(auditor(server, tmp_path).audit_many(records(1))))
        assert server.count("extract") == 1
    assert r.status == "ok"
    assert [p.object for p in r.propositions] == ["Dunmore", "Glass Harbor"]
    cut = next(s for s in r.diagnosis.signals if s.kind == "cut_reply")
    assert "kept the 2 proposition(s)" in cut.message and "the server's" in cut.message
    assert "dropped" not in cut.message


def test_a_reply_cut_before_any_proposition_gets_the_repair_call(tmp_path):
    with FakeLLM(lambda parts: DECOMPOSITION, entailed_judge) as server:
        server.faults = [Fault(kind="extract", body='{"propositions": [{"subject": "Marta', finish="length")]
        r = next(iter(auditor(server, tmp_path).audit_many(records(1))))
        assert server.count("extract") == 2
    assert r.status == "ok" and len(r.propositions) == 3
    assert not [s for s in r.diagnosis.signals if s.kind == "cut_reply"]


def test_a_cut_repair_is_kept_too(tmp_path):
    cut = json.dumps({"propositions": PROPS})[:-30]
    with FakeLLM(lambda parts: DECOMPOSITION, entailed_judge) as server:
        server.faults = [Fault(kind="extract", body='{"propositions": [', finish="length"),
                         Fault(kind="extract", body=cut, finish="length")]
        r = next(iter(auditor(server, tmp_path).audit_many(records(1))))
        assert server.count("extract") == 2
    assert r.status == "ok" and len(r.propositions) == 2
    assert [s.kind for s in r.diagnosis.signals].count("cut_reply") == 1


def test_a_cut_without_the_length_reason_is_not_salvaged(tmp_path):
    # The same text, ended by the model ("stop"): invalid JSON, so the repair call, then an error.
    cut = json.dumps({"propositions": PROPS})[:-30]
    with FakeLLM(lambda parts: DECOMPOSITION, entailed_judge) as server:
        server.faults = [Fault(kind="extract", body=cut), Fault(kind="extract", body=cut)]
        r = next(iter(auditor(server, tmp_path).audit_many(records(1))))
        assert server.count("extract") == 2
    assert r.status == "error" and r.error.type == "ParseError"


def test_the_judges_reply_is_never_salvaged(tmp_path):
    # A passage answer has no items to keep: a cut one gets the repair call as before.
    with FakeLLM(lambda parts: DECOMPOSITION, entailed_judge) as server:
        server.faults = [Fault(kind="judge", body='{"answer": "Tobias Ren', finish="length")]
        r = next(iter(auditor(server, tmp_path).audit_many(records(1))))
        assert server.count("judge") == 2
    assert r.status == "ok" and r.determinateness == "entailed"


def test_score_on_a_looping_server_exits_0_with_the_signal(tmp_path):
    write_input(tmp_path / "in.jsonl", 2)
    with FakeLLM(repeating, entailed_judge, chars_per_token=4, family="llama-cpp-python") as server:
        result = score(server, tmp_path, "--llm-max-tokens", "200", "--concurrency", "1")
        assert server.count("extract") == 3  # the refused JSON-schema request, then one per record
    assert result.exit_code == 0, result.output
    out = lines(tmp_path / "out.jsonl")
    assert [r["status"] for r in out] == ["ok", "ok"]
    assert all(len(r["propositions"]) == 3 for r in out)
    assert all(any(s["kind"] == "cut_reply" for s in r["diagnosis"]["signals"]) for r in out)


@pytest.mark.parametrize(("text", "kept"), [
    ('{"propositions": [{"subject": "a", "object": "b"}, {"subject": "c", "ob', ["a"]),
    ('{"propositions": [{"subject": "a", "object": "b"},', ["a"]),
    ('{"propositions": [{"subject": "a", "object": "b"}', ["a"]),
    # Braces, brackets and escaped quotes inside strings are text, not structure.
    ('{"propositions": [{"subject": "a}]\\"", "object": "b"}, {"subject": "x\\"}', ['a}]"']),
    ('{"question_entities": ["Q"], "propositions": [{"subject": "a", "object": "b"}, {"s', ["a"]),
    ('  {"propositions" : [ {"subject": "a", "object": "b"} , {"subject": "a", "object": "b"} , {', ["a"]),
])
def test_salvage_keeps_the_items_read_whole(text, kept):
    reply = salvage.salvage(text, Decomposition, 64)
    assert reply is not None and [p.subject for p in reply.propositions] == kept
    assert reply.cut is not None and reply.cut.kept == 1 and reply.cut.limit == 64


@pytest.mark.parametrize("text", [
    '{"propositions": [{"subject": "a", "ob',   # nothing finished
    '{"propositions": [',
    '{"question_entities": ["Q", "R',          # the cut is not in the propositions
    '[{"subject": "a", "object": "b"}, {',       # not an object
    '{"propositions": [{"subject": "a"}, {"s',  # finished but invalid (no object)
    '',
])
def test_salvage_gives_nothing_when_nothing_usable_was_finished(text):
    assert salvage.salvage(text, Decomposition, None) is None


def test_a_number_at_the_cut_is_not_read_whole():
    assert salvage._items('1, 2, 34', 0) == [1, 2]
    assert salvage._items('1, 2, 34,', 0) == [1, 2, 34]
    assert salvage._items('"a", tru', 0) == ["a"]


def test_models_that_do_not_opt_in_are_never_salvaged():
    assert salvage.salvage('{"answer": "x", "more": [1, 2,', PassageAnswer, None) is None


def test_the_note_goes_through_the_cache_entry_and_a_damaged_one_is_a_miss():
    reply = salvage.salvage('{"propositions": [{"subject": "a", "object": "b"}, {"subject": "a", '
                            '"object": "b"}, {"su', Decomposition, 9)
    assert reply is not None
    entry = salvage.stored(reply)
    assert entry["_cut"] == {"array": "propositions", "kept": 1, "repeats": 1, "limit": 9}
    back = salvage.restored(entry, Decomposition)
    assert isinstance(back, Decomposition) and back.cut == reply.cut and back == reply
    whole = salvage.restored(Decomposition(propositions=[]).model_dump(mode="json"), Decomposition)
    assert isinstance(whole, Decomposition) and whole.cut is None
    for damaged in ({**entry, "_cut": {"array": "propositions"}}, {**entry, "_cut": "x"}):
        with pytest.raises(ValueError):
            salvage.restored(damaged, Decomposition)
    with pytest.raises(ValueError):
        salvage.restored({"answer": "x", "_cut": entry["_cut"]}, PassageAnswer)
