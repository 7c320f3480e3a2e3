"""Every asked hop (logicscore.pipeline.kin_hops): the kin hops a question asks against those the chain
states. Invented names and text throughout, each pass in three phrasings."""

from __future__ import annotations

import pytest

from logicscore.pipeline.kin_hops import asked_kin, kin_terms


@pytest.mark.parametrize(("text", "steps"), [
    ("Who is the paternal grandmother of Ilo Vask?", ["PP"]),
    ("Who is Ilo Vask's maternal grandfather?", ["PP"]),
    ("Who was the great-grandson of Tarn Osk?", ["CCC"]),
    ("Who is the child of the creator of Red Lake?", ["C"]),
    ("Which aunt of Ada Brennick wrote Low Tide?", ["PS"]),
    ("Who is the father-in-law of Ilo Vask?", ["MP"]),
    # Not kin: an organisation, a name, no kin word at all.
    ("What is the parent company of Velmora Foods?", []),
    ("Where did Mother Ilsa Moor teach?", []),
    ("Who directed Red Lake?", []),
])
def test_kin_terms_read_as_steps(text, steps):
    assert [t.steps for t in asked_kin(text)] == steps


def test_kin_terms_of_a_sentence():
    terms = kin_terms("The mother of Ilo Vask is Rona Vask, whose father was Tarn Osk.")
    assert [t.steps for t in terms] == ["P", "P"]


# (question, answer, long answer) the chain of which states the asked multi-step kin term as
# one hop: no bridge is named, so the answer is asserted, not derived.
RESTATED = [
    ("Who is the paternal grandmother of Ilo Vask?", "Rona Pell",
     "Ilo Vask's paternal grandmother is Rona Pell. So the answer is: Rona Pell."),
    ("Who is Ada Brennick's maternal grandfather?", "Tarn Osk",
     "The maternal grandfather of Ada Brennick was Tarn Osk."),
    ("Who was the grandson of Piet Maro?", "Lars Maro",
     "Piet Maro had a grandson named Lars Maro, who became a sailor. So the answer is Lars Maro."),
]

# The same questions with the bridge named: complete.
DERIVED = [
    ("Who is the paternal grandmother of Ilo Vask?", "Rona Pell",
     "The father of Ilo Vask is Dan Vask. The mother of Dan Vask is Rona Pell. "
     "Thus, the paternal grandmother of Ilo Vask is Rona Pell. So the answer is: Rona Pell."),
    ("Who is Ada Brennick's maternal grandfather?", "Tarn Osk",
     "Ada Brennick's mother was Mira Osk. Mira Osk was the daughter of Tarn Osk."),
    ("Who was the grandson of Piet Maro?", "Lars Maro",
     "Piet Maro's son was Jon Maro. Jon Maro's son was Lars Maro."),
]

# Kin hops that add up to another relation than the one asked.
MISMATCHED = [
    ("Who is the child of the creator of Red Lake?", "Dan Moss",
     "Red Lake was created by Paul Moss. Paul Moss had a nephew named Dan Moss. So the answer is: Dan Moss."),
    ("Who is Ada Brennick's maternal grandfather?", "Tarn Osk",
     "The mother of Ada Brennick is Mira Osk. The father of Mira Osk is Leif Osk. "
     "The father of Leif Osk is Tarn Osk. So the answer is: Tarn Osk."),
    ("Who is the son of the founder of Velmora Foods?", "Jon Brask",
     "Velmora Foods was founded by Ilsa Brask. Ilsa Brask's grandson is Jon Brask."),
]


def _audit(auditor, question, answer, long_answer):
    return auditor.audit(question, answer, long_answer)


@pytest.mark.slow
@pytest.mark.parametrize(("question", "answer", "long_answer"), RESTATED)
def test_restated_kin_bridges_nothing(auditor, question, answer, long_answer):
    result = _audit(auditor, question, answer, long_answer)
    assert result.scores.completeness == 0


@pytest.mark.slow
@pytest.mark.parametrize(("question", "answer", "long_answer"), DERIVED)
def test_named_kin_bridges_complete(auditor, question, answer, long_answer):
    result = _audit(auditor, question, answer, long_answer)
    assert result.scores.completeness == 1
    assert "relation_mismatch" not in [s.kind for s in result.diagnosis.signals]


@pytest.mark.slow
@pytest.mark.parametrize(("question", "answer", "long_answer"), MISMATCHED)
def test_kin_mismatch_is_incomplete(auditor, question, answer, long_answer):
    result = _audit(auditor, question, answer, long_answer)
    assert result.scores.completeness == 0
    kinds = [s.kind for s in result.diagnosis.signals]
    assert "relation_mismatch" in kinds
    assert result.diagnosis.failure == "broken" and result.diagnosis.gap is not None


@pytest.mark.slow
def test_kin_pass_leaves_other_questions_alone(auditor):
    result = _audit(auditor, "Who directed Red Lake?", "Paul Moss", "Red Lake was directed by Paul Moss, "
                    "whose father was Dan Moss.")
    assert result.scores.completeness == 1


@pytest.mark.slow
@pytest.mark.parametrize(("name", "rows"), [("restated_kin", RESTATED), ("kin_mismatch", MISMATCHED)])
def test_each_pass_is_needed(auditor, monkeypatch, name, rows):
    """Left out, the pass's rows turn complete: no other rule makes them incomplete."""
    from logicscore.pipeline import kin_hops as hops

    monkeypatch.setattr(hops, name, lambda *a, **k: frozenset() if name == "restated_kin" else None)
    assert any(_audit(auditor, *row).scores.completeness == 1 for row in rows)


@pytest.mark.parametrize(("question", "families"), [
    ("Where was the founder of Velmora Foods born?", {"found", "birth"}),
    ("What company is the employer of Ada Brennick part of?", {"employ", "part"}),
    ("Where did the director of Red Lake die?", {"direct", "death"}),
    # A number after the relation is a value, not a hop; a role noun alone describes.
    ("Which author born in 1950 wrote Low Tide?", {"write"}),
    ("Which bass singer married Rona Pell?", {"spouse"}),
    ("Who was Tarn Hall's founder?", {"found"}),
])
def test_asked_families(question, families):
    from logicscore.pipeline.kin_hops import asked_families

    assert asked_families(question) == families


# A hop the question asks that the chain states with another relation, or only links.
FAMILY_MISMATCHED = [
    ("What company is the employer of Ada Brennick part of?", "Tarn College",
     "Ada Brennick is employed by Tarn College. So the answer is: Tarn College."),
    ("Where did the founder of Velmora Foods study?", "Osk",
     "Velmora Foods was founded in Osk. So the answer is: Osk."),
    ("Where was the director of Red Lake born?", "Osk",
     "Red Lake was directed in Osk. So the answer is: Osk."),
    # A merger asked, the anchor's own facts stated instead.
    ("What city is the company that Tarn Mills merged with headquartered in?", "Osk",
     "Tarn Mills is a mill founded in 1890. It is headquartered in Osk."),
    ("In which city is the headquarters of the firm that merged with Pell Group?", "Velmora",
     "Pell Group was founded in 1920. Pell Group has its headquarters in Velmora."),
    ("Where is the company that merged with Osk Rail located?", "Tarvel",
     "Osk Rail is a railway company. It is located in Tarvel."),
]
# The same questions, each asked hop stated.
FAMILY_STATED = [
    ("What company is the employer of Ada Brennick part of?", "Brask Group",
     "Ada Brennick is employed by Tarn College. Tarn College is part of Brask Group."),
    ("Where did the founder of Velmora Foods die?", "Osk",
     "Velmora Foods was founded by Ilsa Brask. Ilsa Brask died in Osk."),
    ("Which state is home to the company that acquired Tarn Mills?", "Velmora",
     "Tarn Mills was acquired by Pell Group, which is based in Velmora."),
    ("What city is the company that Tarn Mills merged with headquartered in?", "Osk",
     "Tarn Mills merged with Brask Foods in 1990. Brask Foods is headquartered in Osk."),
]


@pytest.mark.slow
@pytest.mark.parametrize(("question", "answer", "long_answer"), FAMILY_MISMATCHED)
def test_family_mismatch_is_incomplete(auditor, question, answer, long_answer):
    result = _audit(auditor, question, answer, long_answer)
    assert result.scores.completeness == 0
    assert "relation_mismatch" in [s.kind for s in result.diagnosis.signals]


@pytest.mark.slow
@pytest.mark.parametrize(("question", "answer", "long_answer"), FAMILY_STATED)
def test_family_stated_is_complete(auditor, question, answer, long_answer):
    result = _audit(auditor, question, answer, long_answer)
    assert result.scores.completeness == 1
    assert "relation_mismatch" not in [s.kind for s in result.diagnosis.signals]


@pytest.mark.slow
def test_family_pass_is_needed(auditor, monkeypatch):
    from logicscore.pipeline import kin_hops as hops

    monkeypatch.setattr(hops, "family_mismatch", lambda *a, **k: None)
    assert any(_audit(auditor, *row).scores.completeness == 1 for row in FAMILY_MISMATCHED)


@pytest.mark.slow
def test_vague_link_asked_by_the_question_is_no_mismatch(auditor):
    result = _audit(auditor, "Ilo Vask is associated with which member of the Tarn Guild?", "Ada Brennick",
                    "Ilo Vask is associated with Ada Brennick, who is a member of the Tarn Guild.")
    assert "relation_mismatch" not in [s.kind for s in result.diagnosis.signals]


# The answer is the question's own anchor (a possessive read as "of" joins the two): no hop.
OWN_ANCHOR = [
    ("Who is Ilo Vask Ii's paternal grandfather?", "Ilo Vask", "Ilo Vask Ii's paternal grandfather is Ilo Vask."),
    ("Who was Tarn Osk Jr.'s maternal grandmother?", "Tarn Osk", "Tarn Osk Jr.'s maternal grandmother was Tarn Osk."),
    ("Who is Dan Moe III's grandfather?", "Dan Moe",
     "Dan Moe III's grandfather is Dan Moe. So the answer is: Dan Moe."),
]


@pytest.mark.slow
@pytest.mark.parametrize(("question", "answer", "long_answer"), OWN_ANCHOR)
def test_answer_that_is_the_anchor_states_no_hop(auditor, question, answer, long_answer):
    assert _audit(auditor, question, answer, long_answer).scores.completeness == 0
