"""A sentence restating the question gives no claim of its own; its descriptions are mentions a
later identity statement names (docs/coreference.md). Invented text throughout."""

from __future__ import annotations

import pytest

from logicscore.lexicon.prose import RESTATEMENT


@pytest.mark.parametrize("text", [
    "The question asks for the director of the 2004 film in which Ana Ruiz played Kim.",
    "The question is asking which band Tomas Ebb drummed for.",
    "This question wants the birthplace of the author of Grey Orchard.",
    "We need to find the city where the Velmar Group was founded.",
    "I need to determine who wrote the novel adapted as Glass Tide.",
    "To answer this, first identify the league Piet Arlo played in.",
    "First, let's find the film in which Ana Ruiz played Kim.",
    "So the question is about the river that flows through Dorrel.",
])
def test_restatement_sentences(text):
    assert RESTATEMENT.match(text)


@pytest.mark.parametrize("text", [
    "The film in which Ana Ruiz played Kim is Red Lake.",
    "Ana Ruiz asked the director for a role.",
    "We know that Paul Moss directed Red Lake.",
    "The answer to the question is Paul Moss.",
])
def test_not_restatements(text):
    assert not RESTATEMENT.match(text)


def _props(text: str) -> set[tuple[str, str]]:
    from logicscore.pipeline.extract.rules import RulesExtractor
    from logicscore.models import QARecord

    record = QARecord(id="r", question="q?", answer="a", long_answer=text)
    return {(p.subject, p.object) for p in RulesExtractor().extract(record, []).propositions}


@pytest.mark.slow
@pytest.mark.parametrize("text", [
    "The question asks for the director of the film in which Ana Ruiz played Kim.",
    "We need to find the club that Piet Arlo joined after leaving Dorrel Rovers.",
    "I need to determine the river that flows through Dorrel and Vask.",
])
def test_restatement_alone_states_nothing(text):
    assert _props(text) == set()


# (text, a pair of names the answer must link through the identified description)
IDENTIFIED = [
    ("The question asks for the director of the film in which Ana Ruiz played Kim. "
     "From the context, the film is Red Lake, directed by Paul Moss.", ("Ana Ruiz", "Red Lake")),
    ("We need to find the club that Piet Arlo joined after leaving Dorrel Rovers. "
     "The club is Vask United, which plays in Hollin.", ("Piet Arlo", "Vask United")),
    ("I need to determine the novel that Tomas Ebb adapted into a play. "
     "This novel is Grey Orchard, written by Lina Sorel.", ("Tomas Ebb", "Grey Orchard")),
]


@pytest.mark.slow
@pytest.mark.parametrize(("text", "pair"), IDENTIFIED)
def test_restated_description_named_later_carries_its_relations(text, pair):
    props = _props(text)
    assert pair in props or pair[::-1] in props


@pytest.mark.slow
@pytest.mark.parametrize(("prefix", "body", "question"), [
    ("The question asks which city Ana Ruiz, who played Kim in Red Lake, was born in. ",
     "Paul Moss directed Red Lake.", "In which city was the actress who played Kim in Red Lake born?"),
    ("We need to find the league of the club that Piet Arlo joined. ",
     "Piet Arlo was a footballer.", "Which league does the club Piet Arlo joined play in?"),
    ("To answer this, first find the author of Grey Orchard and then the author's birthplace. ",
     "Grey Orchard is a novel.", "Where was the author of Grey Orchard born?"),
])
def test_restating_the_question_never_makes_a_chain(prefix, body, question):
    from logicscore import Auditor

    auditor = Auditor(timing=False)
    alone = auditor.audit(question, "Dorrel", body)
    prefixed = auditor.audit(question, "Dorrel", prefix + body)
    assert alone.scores.completeness == prefixed.scores.completeness == 0


@pytest.mark.slow
@pytest.mark.parametrize(("prefix", "body", "question", "answer"), [
    ("The question asks which city the club that Piet Arlo joined is based in. ",
     "Piet Arlo joined Vask United. Vask United is based in Hollin.",
     "Which city is the club that Piet Arlo joined based in?", "Hollin"),
    ('I need to determine the answer to "Who directed the film in which Ana Ruiz played Kim?". ',
     "Ana Ruiz played Kim in Red Lake. Red Lake was directed by Paul Moss.",
     "Who directed the film in which Ana Ruiz played Kim?", "Paul Moss"),
    ("To answer this, we need to determine where the author of Grey Orchard was born. ",
     "Grey Orchard was written by Lina Sorel. Lina Sorel was born in Dorrel.",
     "Where was the author of Grey Orchard born?", "Dorrel"),
])
def test_restating_the_question_keeps_a_complete_answer_complete(prefix, body, question, answer):
    from logicscore import Auditor

    auditor = Auditor(timing=False)
    alone = auditor.audit(question, answer, body)
    prefixed = auditor.audit(question, answer, prefix + body)
    assert alone.scores.completeness == prefixed.scores.completeness == 1


@pytest.mark.parametrize(("text", "kept"), [
    ('The question asks the answer to "Where was Lina Sorel born?". Lina Sorel was born in Dorrel.',
     "Lina Sorel was born in Dorrel."),
    ("We need to find the club Piet Arlo joined. Piet Arlo joined Vask United.",
     "Piet Arlo joined Vask United."),
    ("Ana Ruiz played Kim. I need to determine who directed Red Lake. Paul Moss directed it.",
     "Ana Ruiz played Kim. Paul Moss directed it."),
])
def test_question_names_are_read_without_restating_sentences(text, kept):
    from logicscore.pipeline.question.reader import unrestated

    assert unrestated(text) == kept


# The whole question restated again with the answer filled in, its description never named:
# a restating first sentence does not say which thing "the colony" is, so the description
# stays unnamed and joins nothing through itself, with or without that first sentence.
FILLED_IN = [
    ("Where was the colony in which the Osk Society meets located?", "Tarvel",
     "The question asks where the colony in which the Osk Society meets was located. ",
     "The colony in which the Osk Society meets is located in Tarvel."),
    ("Which league did the guild that Ilo Vask founded join?", "Tarn League",
     "The question asks which league the guild that Ilo Vask founded joined. ",
     "The guild that Ilo Vask founded joined the Tarn League."),
    ("Where was the treaty that Ada Osk signed kept?", "Pell",
     "We need to find where the treaty that Ada Osk signed was kept. ",
     "The treaty that Ada Osk signed was kept in Pell."),
]


@pytest.fixture(scope="module")
def auditor():
    from logicscore import Auditor

    return Auditor(timing=False)


@pytest.mark.slow
@pytest.mark.parametrize(("question", "answer", "restating", "body"), FILLED_IN)
def test_restating_sentence_does_not_name_a_description(auditor, question, answer, restating, body):
    assert auditor.audit(question, answer, body).scores.completeness == 0
    assert auditor.audit(question, answer, restating + body).scores.completeness == 0


@pytest.mark.slow
def test_restating_sentence_does_not_name_a_description_rule_is_needed(auditor, monkeypatch):
    """Leave-one-out: with any earlier sentence taken to say which thing the description is,
    the restating one included, the restated rows read as complete."""
    from logicscore.pipeline.extract.paths import Paths

    monkeypatch.setattr(Paths, "_written_before", lambda self, t: any(
        self.lemma(u) == self.lemma(t) for u in self.doc[:t.sent.start]))
    assert all(auditor.audit(q, a, b).scores.completeness == 0 for q, a, _, b in FILLED_IN)
    assert all(auditor.audit(q, a, r + b).scores.completeness == 1 for q, a, r, b in FILLED_IN)
