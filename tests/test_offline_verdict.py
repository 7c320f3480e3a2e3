"""The offline verdict (logicscore/pipeline/offline.py, docs/metrics.md "Three verdicts"):
complete where the rules build the chain, incomplete only for a named reason the text shows,
unverified otherwise. Each rule of `SHOWN` has rows in three phrasings with invented names,
and a leave-one-out check: without the rule, its rows read otherwise.
"""

from __future__ import annotations

import json

import pytest

from logicscore import Auditor
from logicscore.pipeline import offline

pytestmark = pytest.mark.slow

# rule → (question, short answer, long answer) rows the rule shows incomplete.
ROWS = {
    "refusal": [
        ("Who directed the film that stars Ona Pell?", "Unknown",
         "Ona Pell stars in Grey Fen. The long answer does not say who directed it. So the answer is: Unknown."),
        ("Where was the founder of Kestrel Mills born?", "I don't know",
         "Kestrel Mills was founded by Ivo Brann. I don't know where he was born."),
        ("Which river flows through the town where Mira Oss was born?", "cannot be determined",
         "Mira Oss was born in Tarnby. Which river flows through it cannot be determined from the text."),
    ],
    "answer_not_written": [
        ("Who directed the film that stars Ona Pell?", "Rik Dal",
         "Ona Pell stars in Grey Fen. Grey Fen was made in Osk."),
        ("Where was the founder of Kestrel Mills born?", "Tarnby",
         "Kestrel Mills was founded by Ivo Brann. Ivo Brann studied law."),
        ("Which label signed the band that recorded Salt Meridian?", "Halden Records",
         "Salt Meridian was recorded by Ember Coast. Ember Coast toured widely."),
    ],
    "anchor_not_written": [
        ("Who directed the film that stars Ona Pell?", "Rik Dal",
         "Grey Fen was directed by Rik Dal. Grey Fen was made in Osk."),
        ("Where was the founder of Kestrel Mills born?", "Tarnby",
         "Ivo Brann was born in Tarnby. Ivo Brann studied law."),
        ("Which label signed the band that recorded Salt Meridian?", "Halden Records",
         "Ember Coast signed with Halden Records. Ember Coast toured widely."),
    ],
    "contradiction": [
        ("Where was the founder of Kestrel Mills born?", "Tarnby",
         "Kestrel Mills was founded by Ivo Brann. Ivo Brann was born in Osk. Ivo Brann was born in Olmsk. "
         "So the answer is Tarnby."),
        ("Where was the director of Grey Fen born?", "Osk",
         "Grey Fen was directed by Rik Dal. Rik Dal was born in Tarnby. Rik Dal was born in Olmsk. "
         "So the answer is Osk."),
        ("In which city was the author of Salt Meridian born?", "Vell",
         "Salt Meridian was written by Ada Venn. Ada Venn was born in Osk. Ada Venn was born in Tarnby. "
         "So the answer is Vell."),
    ],
    "circular": [
        ("Where is Dunrim Ensemble based?", "Cyrdia",
         "Dunrim Ensemble is an orchestra. Cyrdia is the capital of Eskmark because Eskmark's capital is Cyrdia."),
        ("Where is the orchestra that Pia Lund conducts based?", "Osk",
         "Pia Lund is a conductor. Osk is the capital of Vell because Vell's capital is Osk."),
        ("Where was Ivo Brann's band formed?", "Tarnby",
         "Ivo Brann plays the drums. Tarnby is the seat of Vell County because Vell County's seat is Tarnby."),
    ],
    "deviated": [
        ("Where is the club that the founder of Vesk Works plays for based?", "Dunmora",
         "Vesk Works makes boats. The city of Dunmora is the birthplace of Mara Dunn. "
         "Mara Dunn is the author of Zydor."),
        ("Which company employs the author of Glass Tide?", "Halden Records",
         "Glass Tide is a novel. Halden Records is based in Tarnby. Tarnby is the birthplace of Oren Pike."),
        ("Who founded the school that Ada Venn attended?", "Tem Kell",
         "Ada Venn liked music. Tem Kell was born in Osk. Osk lies on the Vell."),
    ],
    "values_select_another": [
        ("Which film was released earlier, Grey Fen or Cold Harbor?", "Cold Harbor",
         "Grey Fen was released in 1971. Cold Harbor was released in 1988. So Cold Harbor was released earlier."),
        ("Who was born first, Ada Venn or Oren Pike?", "Oren Pike",
         "Ada Venn was born in 1902. Oren Pike was born in 1931. So Oren Pike was born first."),
        ("Was Salt Meridian released before Glass Tide?", "yes",
         "Salt Meridian was released in 2003. Glass Tide was released in 1934. So yes."),
    ],
    "side_unstated": [
        ("Are Roden Holt and Cana Dorr both from Cyrmark?", "No",
         "Roden Holt is from Cyrmark. So Roden Holt and Cana Dorr are not both from Cyrmark."),
        ("Are Pia Lund and Ivo Brann both painters?", "yes",
         "Pia Lund is a painter. So Pia Lund and Ivo Brann are both painters."),
        ("Which came out first, Grey Fen or Cold Harbor?", "Grey Fen",
         "Grey Fen came out in 1971. Thus Grey Fen came out before Cold Harbor."),
    ],
    "restated": [
        ("Who is the son of Ada Venn?", "Tom Venn", "Tom Venn is the nephew of Ada Venn."),
        ("Who is the daughter of Ola Marsh?", "Ada Venn", "Ada Venn is the niece of Ola Marsh."),
        ("Who is the father of Rik Dal?", "Tem Kell", "Tem Kell is the grandfather of Rik Dal."),
    ],
    "restated_kin": [
        ("Who is Ada Venn's paternal grandmother?", "Ola Marsh",
         "Ada Venn's paternal grandmother is Ola Marsh. So the answer is: Ola Marsh."),
        ("Who is the maternal grandfather of Ivo Brann?", "Tem Kell",
         "The maternal grandfather of Ivo Brann is Tem Kell."),
        ("Who is Pia Lund's paternal grandfather?", "Oren Pike",
         "Pia Lund's paternal grandfather is Oren Pike. So the answer is: Oren Pike."),
    ],
    "restated_answer": [
        ("Where did Thep Kasso's father die?", "Olmsk",
         "Thep Kasso's father died in Olmsk. So the answer is: Olmsk."),
        ("In which city was the mother of Ada Venn born?", "Tarnby",
         "The mother of Ada Venn was born in Tarnby."),
        ("When was the choir that Ivo Brann sang in founded?", "1931",
         "The choir that Ivo Brann sang in was founded in 1931. So the answer is 1931."),
    ],
    "unjoined": [
        ("Who directed the film that stars Ona Pell?", "Rik Dal",
         "Ona Pell was born in Osk and studied in Tarnby. Rik Dal directed Cold Harbor and Glass Tide."),
        ("Where was the founder of Kestrel Mills born?", "Tarnby",
         "Kestrel Mills was built in Osk by Mara Quill. Ivo Brann, of Vell County, was born in Tarnby."),
        ("Which label signed the band that recorded Salt Meridian?", "Halden Records",
         "Salt Meridian was recorded in Osk with Pia Lund. Halden Records is based in Tarnby and Vell."),
    ],
}

# Rows the rules cannot chain, though the sentences join every name: left unverified.
UNVERIFIED = [
    ("What are both Ada Venn and Oren Pike?", "Painters",
     "Ada Venn is the lead illustrator of the studio Grey Fen. Oren Pike is a painter known for his "
     "seascapes. So both Ada Venn and Oren Pike are painters."),
    ("Which Ola Tucker sister had her first hit, \"Grey Dawn\", at the age of 13?", "Tana Tucker",
     "Ola Tucker had three sisters: Tana Tucker, Ola Tucker and Mela Tucker. \"Grey Dawn\" was a hit "
     "for Tana Tucker, so the answer is Tana Tucker."),
    ("What are both Mira Oss and Ivo Brann?", "Poets",
     "Mira Oss is the chief lyricist of the band Salt Meridian. Ivo Brann is a poet known for his "
     "sonnets. So both Mira Oss and Ivo Brann are poets."),
]


@pytest.fixture(scope="module")
def auditor():
    return Auditor(timing=False, hops="rules")


def _audit(auditor, question, answer, long_answer):
    return auditor.audit(question=question, answer=answer, long_answer=long_answer)


@pytest.mark.parametrize(("rule", "row"), [(r, row) for r, rows in ROWS.items() for row in rows])
def test_each_rule_shows_its_rows_incomplete(auditor, rule, row):
    result = _audit(auditor, *row)
    assert (result.completeness, result.scores.completeness) == ("incomplete", 0), result.diagnosis
    assert result.hops.decided_by == rule


@pytest.mark.parametrize("rule", list(ROWS))
def test_without_the_rule_its_rows_read_otherwise(auditor, rule, monkeypatch):
    monkeypatch.setattr(offline, "SHOWN", tuple(r for r in offline.SHOWN if r.name != rule))
    for row in ROWS[rule]:
        assert _audit(auditor, *row).hops.decided_by != rule


@pytest.mark.parametrize("row", UNVERIFIED)
def test_a_chain_the_rules_cannot_build_between_written_names_is_unverified(auditor, row):
    result = _audit(auditor, *row)
    assert result.completeness == "unverified" and result.scores.completeness is None
    assert result.hops.decided_by is None
    signal = next(s for s in result.diagnosis.signals if s.kind == "unverified")
    assert signal.severity == "info" and "could not read the chain" in signal.message
    line = json.loads(result.to_json())
    assert line["scores"]["completeness"] is None and line["completeness"] == "unverified"


def test_a_chain_the_rules_build_is_complete(auditor):
    result = _audit(auditor, "Who directed the film that stars Ona Pell?", "Rik Dal",
                    "Ona Pell stars in Grey Fen. Grey Fen was directed by Rik Dal.")
    assert result.completeness == "complete" and result.hops.decided_by == "chain"
    assert all(h.stated for h in result.hops.hops) and result.hops.hops[0].input == "Ona Pell"


def test_the_offline_hops_name_the_gap_where_no_sentence_joins(auditor):
    result = _audit(auditor, *ROWS["unjoined"][0])
    unstated = [h for h in result.hops.hops if not h.stated]
    assert unstated and unstated[0].why == "no sentence joins Ona Pell to the answer's side"


@pytest.mark.parametrize("phrasing", [
    "Thep Kasso's father died in Olmsk.",
    "Let's think step by step. Thep Kasso's father died in Olmsk.",
    "**Answer.** Thep Kasso's father died in Olmsk.",
])
def test_the_verdict_does_not_depend_on_a_lead_in_or_markdown(auditor, phrasing):
    result = _audit(auditor, "Where did Thep Kasso's father die?", "Olmsk", phrasing)
    assert result.completeness == "incomplete" and result.hops.decided_by == "restated_answer"


def test_without_a_hop_stage_the_record_keeps_two_verdicts():
    result = Auditor(timing=False, hops="off").audit(question="Where did Thep Kasso's father die?",
                                                     answer="Olmsk", long_answer="Thep Kasso's father died in Olmsk.")
    line = json.loads(result.to_json())
    assert "completeness" not in line and line["scores"]["completeness"] == 0 and "hops" not in line


# ---- --escalate: the model's hop check for the unverified records only ----

def test_escalate_sends_only_the_unverified_records_to_the_model():
    from llm_server import FakeLLM

    question, answer, long_answer = UNVERIFIED[0]
    complete = ("Who directed the film that stars Ona Pell?", "Rik Dal",
                "Ona Pell stars in Grey Fen. Grey Fen was directed by Rik Dal.")
    reply = {"hops": [{"asks": "What are Ada Venn and Oren Pike?", "input": "Ada Venn and Oren Pike",
                       "result": "painters", "stated": True,
                       "evidence": "So both Ada Venn and Oren Pike are painters."}], "answer_follows": True}
    with FakeLLM(extract=lambda parts: {}, hops=lambda parts: reply) as server:
        auditor = Auditor(timing=False, hops="rules", escalate=True,
                          llm={"base_url": server.base_url, "model": "m", "cache": False, "retries": 0})
        decided = auditor.audit(question=complete[0], answer=complete[1], long_answer=complete[2])
        escalated = auditor.audit(question=question, answer=answer, long_answer=long_answer)
        calls = server.count("hops")
    assert calls == 1  # the record the rules decided made no call
    assert decided.hops.stage == "rules" and decided.completeness == "complete"
    assert escalated.hops.stage == "llm" and escalated.hops.decided_by == "hops"
    assert escalated.completeness in ("complete", "incomplete")
    assert "escalate:llm" in escalated.meta.signature


def test_escalate_goes_with_the_offline_hop_stage_only():
    from logicscore import ConfigError

    with pytest.raises(ConfigError, match="escalate goes with an offline hop stage"):
        Auditor(hops="given", escalate=True)


def test_no_text_leaves_the_hops_words_out(auditor):
    result = _audit(auditor, "Who directed the film that stars Ona Pell?", "Rik Dal",
                    "Ona Pell stars in Grey Fen. Grey Fen was directed by Rik Dal.")
    line = result.without_text().to_json()
    assert "Ona Pell" not in line.split('"hops"')[1].split('"correct"')[0]
    assert [h["span"] for h in json.loads(line)["hops"]["hops"]] == [[0, 27], [28, 61]]


# ---- readings that keep a rule from showing what the text does not show ----

# The claims read these as deviated, yet sentences join the question's names to the answer.
JOINED = [
    ("What is the name of the major basketball team from the city where the Vell emperor greeted the "
     "envoy to whom the edict was addressed?", "Osk Ducks",
     "The Vell emperor greeted the envoy to whom the edict was addressed in Osk. The major basketball "
     "team from Osk is the Osk Ducks. So the answer is: Osk Ducks."),
    ("What is the name of the main hockey team from the city where the Vell emperor greeted the envoy "
     "to whom the edict was addressed?", "Osk Hawks",
     "The Vell emperor greeted the envoy to whom the edict was addressed in Osk. The main hockey team "
     "from Osk is the Osk Hawks. So the answer is: Osk Hawks."),
    ("Who controlled the land where the sect practiced in the country where Vasilo is eaten was spread?",
     "the Kushan Empire",
     "The sect practiced in the country where Vasilo is eaten, Greece, was Nestorian Christianity. This "
     "sect spread in the land controlled by the Kushan Empire. So the answer is: the Kushan Empire."),
]
# A sentence that opens on a pointing reference speaks of the bridge named before it.
POINTING_BACK = [
    ("Who ruled the valley where the order founded by Ada Venn settled?", "the Osk Dynasty",
     "The order founded by Ada Venn was the Grey Friars. This order settled in the valley ruled by the Osk Dynasty."),
    ("Who owned the harbour where the fleet that Tem Kell built anchored?", "Rik Dal",
     "The fleet that Tem Kell built was the Grey Armada. That fleet anchored in the harbour owned by Rik Dal."),
    ("Who ruled the plain where the tribe that Ola Marsh led camped?", "the Vell Khan",
     "The tribe that Ola Marsh led was the Kessel clan. That tribe camped on the plain ruled by the Vell Khan."),
]


@pytest.mark.parametrize("row", JOINED)
def test_a_chain_read_as_deviated_whose_sentences_join_is_not_shown_deviated(auditor, row, monkeypatch):
    assert _audit(auditor, *row).hops.decided_by != "deviated"
    monkeypatch.setattr(offline, "_joined", lambda e: False)
    assert _audit(auditor, *row).hops.decided_by == "deviated"


@pytest.mark.parametrize("row", POINTING_BACK)
def test_a_sentence_that_points_back_names_its_bridge(auditor, row, monkeypatch):
    assert _audit(auditor, *row).hops.decided_by != "restated_answer"
    monkeypatch.setattr(offline, "_points_back", lambda sentence: False)
    assert _audit(auditor, *row).hops.decided_by == "restated_answer"
