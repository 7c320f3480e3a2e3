"""The question's hops, checked (logicscore/pipeline/hops/, docs/metrics.md "Hops"): the model
proposes, the tool verifies what the text can show; completeness from hops and anchors.

The LLM stage is driven through a real HTTP server on 127.0.0.1 (tests/llm_server.py) that
answers with scripted hop replies; the names are invented.
"""

from __future__ import annotations

import json

import pytest

from logicscore import Auditor
from logicscore.pipeline.hops.check import fold, judgment, locate

from llm_server import FakeLLM

pytestmark = pytest.mark.slow

RIVER = dict(question="Which river flows through the town where Mira Oss was born?", answer="the Vell",
             long_answer="Mira Oss was born in Tarnby. Tarnby lies on the banks of the Vell.")


def _hop(asks, input_, result, evidence, stated=True, why=""):
    return {"asks": asks, "input": input_, "result": result, "stated": stated, "evidence": evidence, "why": why}


RIVER_HOPS = [_hop("Where was Mira Oss born?", "Mira Oss", "Tarnby", "Mira Oss was born in Tarnby."),
              _hop("Which river flows through that town?", "Tarnby", "the Vell",
                   "Tarnby lies on the banks of the Vell.")]


def _audit(reply, **record):
    """One record audited with `--hops llm` against a server that gives `reply`."""
    with FakeLLM(extract=lambda parts: {}, hops=lambda parts: reply) as server:
        auditor = Auditor(timing=False, hops="llm",
                          llm={"base_url": server.base_url, "model": "m", "cache": False, "retries": 0})
        return auditor.audit(**record)


# ---- the checks, as pure functions ----

@pytest.mark.parametrize("evidence", [
    "Tarnby lies on the banks of the Vell.",          # verbatim
    "Tarnby  lies on the banks\nof the Vell",         # whitespace, no full stop
    "tarnby lies on the banks of the “Vell”.",        # case and quotes
])
def test_evidence_is_located_whitespace_case_and_quotes_aside(evidence):
    span = locate(RIVER["long_answer"], evidence)
    assert span is not None and RIVER["long_answer"][span[0]:span[1]].startswith("Tarnby lies")


@pytest.mark.parametrize("long_answer", [
    "Mira Oss was born in **Tarnby** [Doc1]. Tarnby lies on the banks of the Vell [Doc2].",
    "- Mira Oss was born in Tarnby.\n- Tarnby lies on the banks of the Vell.",
    "Mira Oss was born in 'Tarnby'. Tarnby lies on the banks of the Vell.",
])
def test_evidence_is_located_across_markdown_and_citation_marks(long_answer):
    assert locate(long_answer, "Mira Oss was born in Tarnby.") is not None


@pytest.mark.parametrize("evidence", [
    "Tarnby is crossed by the river Vell.",             # invented
    "Mira Oss was born in Tarnby, on the Vell.",         # misquoted
    "Vell",                                              # a word, not a passage of a sentence... present
])
def test_an_invented_or_misquoted_sentence_is_not_located(evidence):
    span = locate(RIVER["long_answer"], evidence)
    if evidence == "Vell":  # a real substring is found: the result check is what stops it
        assert span is not None
    else:
        assert span is None


def test_fold_keeps_the_index_of_each_character():
    text, where = fold("A  “B” [1] *c*")
    assert text == "a b c"
    assert where == [0, 1, 4, 6, 12]


@pytest.mark.parametrize(("result", "expected"), [
    ("Yes", True), ("no.", True), ("Yes, a film director", False), ("Norway", False)])
def test_a_bare_yes_or_no_is_a_judgment(result, expected):
    assert judgment(result) is expected


# ---- a hop is stated only when the text shows it ----

def test_every_hop_stated_with_the_answer_written_is_complete():
    r = _audit({"hops": RIVER_HOPS, "answer_follows": True}, **RIVER)
    assert r.scores.completeness == 1 and r.hops.complete
    assert [h.check for h in r.hops.hops] == ["stated", "stated"]
    assert [h.sentence for h in r.hops.hops] == [0, 1]
    # The chain is the propositions of the cited sentences; nothing is redundant.
    assert r.chain and r.diagnosis.failure is None and r.scores.conciseness == 1.0


@pytest.mark.parametrize("evidence", [
    "Tarnby is crossed by the river Vell.",
    "The Vell flows through Tarnby, where Mira Oss was born.",
    "According to records, Tarnby lies on the Vell.",
])
def test_an_invented_sentence_never_completes(evidence):
    hops = [RIVER_HOPS[0], {**RIVER_HOPS[1], "evidence": evidence}]
    r = _audit({"hops": hops, "answer_follows": True}, **RIVER)
    assert r.scores.completeness == 0
    assert r.hops.hops[1].check == "evidence_not_in_answer" and not r.hops.hops[1].stated
    signal = next(s for s in r.diagnosis.signals if s.kind == "unstated_hop")
    assert signal.severity == "hard" and "hop 2" in signal.message


@pytest.mark.parametrize("result", ["Olmsk", "Kessel Bay", "the Ardent river"])
def test_a_result_absent_from_its_sentence_never_completes(result):
    hops = [{**RIVER_HOPS[0], "result": result}, RIVER_HOPS[1]]
    r = _audit({"hops": hops, "answer_follows": True}, **RIVER)
    assert r.scores.completeness == 0 and r.hops.hops[0].check == "result_not_in_evidence"
    assert r.diagnosis.gap.from_ == "Mira Oss"


@pytest.mark.parametrize("input_", ["Kessel Bay", "Olmsk Harbour", "the Grey Fen estate"])
def test_a_hop_from_a_thing_neither_the_question_nor_a_hop_names_is_not_stated(input_):
    hops = [RIVER_HOPS[0], {**RIVER_HOPS[1], "input": input_}]
    r = _audit({"hops": hops, "answer_follows": True}, **RIVER)
    assert r.hops.hops[1].check == "input_not_linked" and r.scores.completeness == 0


def test_a_result_written_through_a_resolved_pronoun_counts():
    record = dict(question="Who founded the label that signed Kea Droste?", answer="Ivo Brann",
                  long_answer="Kea Droste signed with Halden Records. Ivo Brann founded it in 1990.")
    hops = [_hop("Which label signed Kea Droste?", "Kea Droste", "Halden Records",
                 "Kea Droste signed with Halden Records."),
            _hop("Who founded that label?", "Halden Records", "Ivo Brann", "Ivo Brann founded it in 1990.")]
    r = _audit({"hops": hops, "answer_follows": True}, **record)
    assert r.hops.complete and r.scores.completeness == 1


def test_a_reply_with_only_the_required_fields_works():
    hops = [{"asks": h["asks"], "stated": True, "evidence": h["evidence"], "result": h["result"]}
            for h in RIVER_HOPS]
    r = _audit({"hops": hops}, **RIVER)  # no input, no why, no answer_follows
    assert r.status == "ok" and r.hops.answer_follows is None and r.scores.completeness == 1


# ---- the verdict: anchors, the failure types, the gap in words ----

def test_an_anchor_never_written_keeps_the_answer_incomplete():
    record = dict(question="Which river flows through the town where Mira Oss and Pia Lund were born?",
                  answer="the Vell", long_answer=RIVER["long_answer"])
    r = _audit({"hops": RIVER_HOPS, "answer_follows": True}, **record)
    assert not r.hops.anchors_written and r.scores.completeness == 0
    assert any(s.kind == "unstated_hop" and "Pia Lund" in s.message for s in r.diagnosis.signals)


def test_a_chain_that_yields_another_answer_is_deviated():
    r = _audit({"hops": RIVER_HOPS, "answer_follows": False}, **RIVER)
    assert r.scores.completeness == 0 and r.diagnosis.failure == "deviated"


@pytest.mark.parametrize(("question", "anchor", "answer", "long_answer"), [
    ("When was the choir that Ada Venn sang in founded?", "Ada Venn", "1931",
     "The choir that Ada Venn sang in was founded in 1931."),
    ("Where was the director of Salt Meridian born?", "Salt Meridian", "Olmsk",
     "The director of Salt Meridian was born in Olmsk."),
    ("What year did the school that Oren Pike attended open?", "Oren Pike", "1902",
     "So the school Oren Pike attended opened in 1902."),
])
def test_a_restated_question_naming_no_bridge_is_circular(question, anchor, answer, long_answer):
    hops = [_hop("Which bridge?", anchor, None, long_answer, stated=False,
                 why="the bridge is never named; the sentence restates the question"),
            _hop("And then?", "the bridge", answer, long_answer)]
    r = _audit({"hops": hops, "answer_follows": True}, question=question, answer=answer, long_answer=long_answer)
    assert r.scores.completeness == 0 and r.diagnosis.failure == "circular"
    assert "never states which bridge" in next(s.message for s in r.diagnosis.signals if s.kind == "unstated_hop")


def test_the_gap_says_the_unstated_hop_in_words():
    hops = [RIVER_HOPS[0], _hop("Which river flows through that town?", "Tarnby", None, None, stated=False,
                                why="it gives the town's mayor, not its river")]
    r = _audit({"hops": hops, "answer_follows": True}, **RIVER)
    message = next(s.message for s in r.diagnosis.signals if s.kind == "unstated_hop")
    assert message == ("hop 2 (from Tarnby): the long answer never states which river flows through "
                       "that town: it gives the town's mayor, not its river")
    assert r.scores.partial_completeness == 0.5 and r.diagnosis.failure == "broken"


def test_a_refusal_is_never_complete():
    record = dict(question=RIVER["question"], answer="Unknown",
                  long_answer="Unknown. " + RIVER["long_answer"] + " So the answer is: Unknown.")
    r = _audit({"hops": RIVER_HOPS, "answer_follows": True}, **record)
    assert r.scores.completeness == 0


# ---- a comparison over a bridge: the compared value stated of a described bridge ----

@pytest.mark.parametrize(("long_answer", "side_a"), [
    ("The director of Grey Fen died in 1981. The director of Cold Harbor died in 1998. So Grey Fen.",
     "The director of Grey Fen died in 1981."),
    ("Grey Fen's director died in 1981, while Cold Harbor's director died in 1998. So Grey Fen.",
     "Grey Fen's director died in 1981, while Cold Harbor's director died in 1998."),
    ("The man who directed Grey Fen died in 1981. The man who directed Cold Harbor died in 1998. So Grey Fen.",
     "The man who directed Grey Fen died in 1981."),
])
def test_a_described_bridge_states_a_sides_value(long_answer, side_a):
    sentences = {s.strip() + ("" if s.strip().endswith(".") else ".") for s in long_answer.split(". ")}
    side_b = next(s for s in sentences if "1998" in s)
    hops = [_hop("Who directed Grey Fen?", "Grey Fen", None, None, stated=False, why="director never named"),
            _hop("When did that director die?", "director of Grey Fen", "1981", side_a, stated=False,
                 why="director never named"),
            _hop("Who directed Cold Harbor?", "Cold Harbor", None, None, stated=False, why="never named"),
            _hop("When did that director die?", "director of Cold Harbor", "1998", side_b, stated=False,
                 why="director never named"),
            _hop("Whose director died first?", "1981; 1998", "Grey Fen", "So Grey Fen.")]
    r = _audit({"hops": hops, "answer_follows": True},
               question="Which film has the director who died first, Grey Fen or Cold Harbor?",
               answer="Grey Fen", long_answer=long_answer)
    assert [h.check for h in r.hops.hops] == ["described_bridge"] * 4 + ["stated"]
    assert r.scores.completeness == 1


def test_another_relation_than_the_one_asked_stays_unstated_in_a_comparison():
    long_answer = "Ari Voss died in 1975 and Tem Kell died in 1946. Thus Ari Voss lived longer."
    hops = [_hop("How long did Ari Voss live?", "Ari Voss", "died 1975", long_answer.split(" and ")[0],
                 stated=False, why="only a death date"),
            _hop("How long did Tem Kell live?", "Tem Kell", "died 1946", None, stated=False,
                 why="only a death date"),
            _hop("Who lived longer?", "Ari Voss; Tem Kell", "Ari Voss", "Thus Ari Voss lived longer.")]
    r = _audit({"hops": hops, "answer_follows": True}, question="Who lived longer, Ari Voss or Tem Kell?",
               answer="Ari Voss", long_answer=long_answer)
    assert r.scores.completeness == 0 and r.hops.hops[0].check == "unstated"


# ---- what a run without --hops keeps, and what one with it signs ----

def test_without_a_hop_stage_the_record_has_no_hops_and_the_signature_no_hop_key():
    r = Auditor(timing=False, hops="off").audit(**RIVER)
    keys = dict(part.split(":", 1) for part in r.meta.signature.split("|"))
    assert "hops" not in json.loads(r.to_json()) and "hops" not in keys and "hops_prompt" not in keys


def test_the_signature_names_the_hop_stage_and_its_prompt():
    r = _audit({"hops": RIVER_HOPS, "answer_follows": True}, **RIVER)
    keys = dict(part.split(":", 1) for part in r.meta.signature.split("|"))
    assert keys["hops"] == "llm" and len(keys["hops_prompt"]) == 12
    assert json.loads(r.to_json())["hops"]["stage"] == "llm"


def test_the_request_carries_the_question_and_the_long_answer_verbatim():
    with FakeLLM(extract=lambda parts: {}, hops=lambda parts: {"hops": RIVER_HOPS}) as server:
        Auditor(timing=False, hops="llm", llm={"base_url": server.base_url, "model": "m",
                                               "cache": False}).audit(**RIVER)
        user = next(m["content"] for m in server.calls[0].body["messages"] if m["role"] == "user")
        schema = json.dumps(server.calls[0].body.get("response_format", {}))
    assert RIVER["question"] in user and RIVER["long_answer"] in user
    assert server.calls[0].kind == "hops" and ('"hops"' in schema or "hops" in user)


def test_a_server_that_fails_gives_a_typed_error_record_not_a_crash():
    with FakeLLM(extract=lambda parts: {}, hops=lambda parts: {"no": "hops"}) as server:
        auditor = Auditor(timing=False, hops="llm", llm={"base_url": server.base_url, "model": "m",
                                                         "cache": False, "retries": 0})
        [r] = list(auditor.audit_many([auditor_record()]))
    assert r.status == "error" and r.error.type == "ParseError"


def auditor_record():
    from logicscore.models import QARecord

    return QARecord(id="q1", **RIVER)


@pytest.mark.parametrize("name", ["bogus", "rules2"])
def test_an_unknown_hop_stage_is_a_config_error_naming_the_known_ones(name):
    from logicscore import ConfigError

    with pytest.raises(ConfigError, match=r"unknown hop stage .*available: given, llm"):
        Auditor(hops=name)
