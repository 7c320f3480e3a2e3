"""The short answer matched to what the long answer writes (normalize.external.match_answer,
prose.refusal): invented text, each rule in three phrasings."""

from __future__ import annotations

import pytest

# (question, short answer, long answer, the entity the answer names)
ROWS = {
    "part_of_a_name": [
        ("Who directed Red Lake?", "Ted", "Red Lake was directed by Ted Roe.", "Ted Roe"),
        ("Who founded Velmora Foods?", "Brask", "Velmora Foods was founded by Ilsa Brask.", "Ilsa Brask"),
        ("Who wrote Low Tide?", "Ada Brennick", "Low Tide was written by Ada Brennick.", "Ada Brennick"),
    ],
    "place_with_region": [
        ("Where is Tarn College?", "Lyon, France", "Tarn College is in Lyon, in France.", "Lyon"),
        ("Where was Ilo Vask born?", "Osk, Velmora", "Ilo Vask was born in Osk.", "Osk"),
        ("Where is the Pell Group based?", "Brask City, Tarnland",
         "The Pell Group is based in Brask City.", "Brask City"),
    ],
    "list": [
        ("Which two groups fought at Tarn Field?", "Royalists and Roundheads",
         "The Battle of Tarn Field was fought between the Royalists and the Roundheads.", "Royalists"),
        ("Which cities host the Tarn Games?", "Osk and Pell",
         "The Tarn Games are held in Osk. Pell also hosts the Tarn Games.", "Osk"),
        ("Which towns does Route 9 join?", "Osk; Pell",
         "Route 9 joins Osk to the town of Pell.", "Osk"),
    ],
    "inside_a_description": [
        ("Why are Route 9 and Route 12 alike?", "Both were built by the Velmora Road Board in 1950",
         "Route 9 and Route 12 were both built by the Velmora Road Board.", "Velmora Road Board"),
        ("The Tarn Helmet and the Osk Helmet are linked because of which feature?", "Norse-Velmoran origin",
         "The Tarn Helmet and the Osk Helmet are both Norse-Velmoran helmets, used by the Norse-Velmorans.",
         "Norse-Velmoran"),
        ("What do Ilo Vask and Ada Brennick share?", "their Tarn Valley roots",
         "Ilo Vask and Ada Brennick were both born in the Tarn Valley.", "Tarn Valley"),
    ],
}


@pytest.mark.slow
@pytest.mark.parametrize(("question", "answer", "long_answer", "entity"),
                         [row for rows in ROWS.values() for row in rows])
def test_answer_names_a_written_mention(auditor, question, answer, long_answer, entity):
    result = auditor.audit(question, answer, long_answer)
    assert not result.diagnosis.answer_absent
    named = next(e.id for e in result.entities if e.name == result.answer_entity)
    # The claims about the answer's entity are about the mention the long answer writes.
    about = [p for p in result.propositions if named in (p.subject_entity, p.object_entity)]
    assert about and all(entity.lower() in p.text.lower() for p in about)


@pytest.mark.slow
@pytest.mark.parametrize("rows", ["place_with_region", "list", "inside_a_description"])
def test_answer_rules_are_needed(auditor, monkeypatch, rows):
    """Without `match_answer`, these short answers name no entity."""
    from logicscore.pipeline.normalize import entities

    monkeypatch.setattr(entities, "match_answer", lambda *a, **k: None)
    assert any(auditor.audit(q, a, la).answer_entity is None for q, a, la, _ in ROWS[rows])


# An abstention: `answer_absent`, with a `refusal` signal, however the chain looks.
ABSTAINING = [
    ("Who directed Red Lake?", "Unknown", "Red Lake is a film by a director from Osk."),
    ("Which film did Ilo Vask direct?", "None", "Ilo Vask directed Red Lake in 1990."),
    ("Which city hosts Tarn College?", "Yes", "Tarn College is in Osk."),
    ("Who founded Velmora Foods?", "It cannot be determined.", "Velmora Foods was founded in Osk."),
]


@pytest.mark.slow
@pytest.mark.parametrize(("question", "answer", "long_answer"), ABSTAINING)
def test_abstention_is_an_absent_answer(auditor, question, answer, long_answer):
    result = auditor.audit(question, answer, long_answer)
    assert result.scores.completeness == 0
    assert result.diagnosis.answer_absent
    assert "refusal" in [s.kind for s in result.diagnosis.signals]


@pytest.mark.slow
def test_yes_answers_a_yes_no_question(auditor):
    result = auditor.audit("Is Tarn College in Osk?", "Yes", "Tarn College is in Osk.")
    assert "refusal" not in [s.kind for s in result.diagnosis.signals]


# The answer written whole only in the closing sentence, its first part in the body: the chain
# reaches the body's mention, so the answer is that one (normalize.entities.link).
CONCLUDED_WHOLE = [
    ("Where is Ilo Vask's employer based?", "Osk, Velmora",
     "Ilo Vask works for the Tarn Board. The Tarn Board is based in the Hall of Records in Osk "
     "in the province of Pell. So the answer is: Osk, Velmora.", "Osk"),
    ("Where was the director of Red Lake born?", "Lyre, Tarnland",
     "Red Lake was directed by Ted Roe. Ted Roe was born in Lyre. Thus, the answer is Lyre, Tarnland.",
     "Lyre"),
    ("Which city hosts the college Ada Brennick attended?", "Brask City, Velmora",
     "Ada Brennick attended Tarn College. Tarn College is located in Brask City. "
     "Therefore, the final answer is Brask City, Velmora.", "Brask City"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("question", "answer", "long_answer", "entity"), CONCLUDED_WHOLE)
def test_answer_concluded_whole_names_the_body_part(auditor, question, answer, long_answer, entity):
    result = auditor.audit(question, answer, long_answer)
    assert result.answer_entity == entity
    assert result.scores.completeness == 1


@pytest.mark.slow
def test_answer_concluded_whole_rule_is_needed(auditor, monkeypatch):
    """Leave-one-out: with the body's part never preferred, the rows lose their chain."""
    from logicscore.pipeline.normalize import entities

    monkeypatch.setattr(entities, "_in_body", lambda *a, **k: True)
    assert all(auditor.audit(q, a, la).scores.completeness == 0 for q, a, la, _ in CONCLUDED_WHOLE)


@pytest.mark.slow
def test_answer_inside_a_longer_name_is_not_its_part(auditor):
    # "Beijing" inside "Beijing Ducks" is another thing: a team named only where it is
    # concluded is still not derived.
    result = auditor.audit("Which team plays in the city where Ilo Vask was born?", "Osk Ducks",
                           "Ilo Vask was born in Osk. So the answer is: Osk Ducks.")
    assert result.scores.completeness == 0


# A class answered in one grammatical number and written in the other (lexicon.numbers.number_forms).
IN_OTHER_NUMBER = [
    ("What are both Ilo Vask and Ada Brennick?", "Painters",
     "Ilo Vask is a Velmoran painter. Ada Brennick is also a painter. So both are painters."),
    ("What was the profession shared by Ted Roe and Ilsa Brask?", "sculptor",
     "Ted Roe and Ilsa Brask were sculptors. So they shared the profession of sculptor."),
    ("What kind of animals were Tarn Osk and Ilo Pell?", "ponies",
     "Tarn Osk was a pony. Ilo Pell was also a pony. So Tarn Osk and Ilo Pell were ponies."),
]


@pytest.mark.parametrize(("text", "forms"), [
    ("Football players", ("Football player",)), ("painter", ("painters",)), ("countries", ("country",)),
    ("actress", ("actresses",)), ("women", ("woman",)), ("boxes", ("box",)),
    # Names, figures and short words have no other number.
    ("Tarn Games", ()), ("Lyon, France", ()), ("1980", ()), ("Yes", ()),
])
def test_number_forms(text, forms):
    from logicscore.lexicon.numbers import number_forms

    assert number_forms(text) == forms


@pytest.mark.slow
@pytest.mark.parametrize(("question", "answer", "long_answer"), IN_OTHER_NUMBER)
def test_answer_in_the_other_number_is_matched(auditor, question, answer, long_answer):
    result = auditor.audit(question, answer, long_answer)
    assert result.scores.completeness == 1


@pytest.mark.slow
def test_answer_in_the_other_number_rule_is_needed(auditor, monkeypatch):
    """Leave-one-out: without the other number, the class is met only where it is concluded."""
    from logicscore.pipeline.extract import rules

    monkeypatch.setattr(rules, "number_forms", lambda text: ())
    assert any(auditor.audit(q, a, la).scores.completeness == 0 for q, a, la in IN_OTHER_NUMBER)


# A short answer written as a sentence names its predicate, when what comes before its copula
# restates the question (docs/metrics.md). Invented.
@pytest.mark.parametrize("question, answer, head", [
    ("What is Orn Hall in Vask, Dorrel?", "Orn Hall in Vask, Dorrel is a large concert venue.",
     "a large concert venue"),
    ("Who directed Grey Orchard?", "The director of Grey Orchard was Ana Ruiz.", "Ana Ruiz"),
    ("What kind of journal are Zeta Letters and Orbit?", "Zeta Letters and Orbit are physics journals",
     "physics journals"),
])
def test_answer_head_of_a_sentence(question, answer, head):
    from logicscore.pipeline.text.phrases import answer_head

    assert answer_head(answer, question) == head


@pytest.mark.parametrize("question, answer", [
    ("Who directed Grey Orchard?", "Ana Ruiz"),                       # no sentence
    ("Who directed Grey Orchard?", "Ana Ruiz is the director"),       # nothing of the question first
    ("Who directed Grey Orchard?", "Ana Ruiz, the Vask filmmaker"),   # no copula
])
def test_answer_head_of_no_sentence(question, answer):
    from logicscore.pipeline.text.phrases import answer_head

    assert answer_head(answer, question) is None


@pytest.mark.slow
@pytest.mark.parametrize("question, answer, long_answer", [
    ("What is Orn Hall in Vask?", "Orn Hall in Vask is a large concert venue.",
     "Orn Hall in Vask is a large concert venue."),
    ("What is Orn Hall?", "Orn Hall is a large concert venue.",
     "Orn Hall, which opened in 1990, is a large concert venue."),
    ("What was Lamm Yard?", "Lamm Yard was a shipyard.",
     "Lamm Yard was a shipyard. It closed in 1950."),
])
def test_a_sentence_answer_is_matched_by_what_it_names(auditor, question, answer, long_answer):
    r = auditor.audit(question, answer, long_answer)
    assert not r.diagnosis.answer_absent
    assert r.scores.completeness == 1
