"""Rule `described_bridge`: a question that names no anchor is answered completely when the
long answer names a bridge, ties it to the question's description and chains it to the
answer (docs/metrics.md). Invented text throughout."""

from __future__ import annotations

import pytest

from logicscore.models import Entity, Mention, Proposition, QARecord, QuestionEntity
from logicscore.pipeline.described import described_bridge
from logicscore.pipeline.flow import Linked

QUESTION = "By how many votes did the person the rebels wanted to arrest survive the recall?"


def _linked(text: str, names: list[str], answer: str, question: list[QuestionEntity] | None = None,
            hop: str | None = None) -> Linked:
    """Entities at their first place in `text`; `hop`, the relation of the first name's
    proposition into the answer."""
    entities = []
    for k, name in enumerate(names):
        at = text.find(name)
        entities.append(Entity(id=f"E{k}", name=name,
                               mentions=[Mention(text=name, span=(at, at + len(name)) if at >= 0 else None)]))
    answer_id = next(e.id for e in entities if e.name == answer)
    props = [] if hop is None else [Proposition(id="P1", subject=names[0], relation=hop, object=answer,
                                                subject_entity="E0", object_entity=answer_id, text=text)]
    return Linked(props, entities, question or [], answer_id)


# (long answer, the bridge tied: "E0" is Ivo Lamm, None is no tie)
TIES = [
    ("The person the rebels wanted to arrest is Ivo Lamm. Ivo Lamm survived the recall by 41-9.", "E0"),
    ("The rebels wanted to arrest Ivo Lamm. He survived the recall by 41-9.", "E0"),
    ("Ivo Lamm was the person the rebels sought to arrest. In the recall he held on by 41-9.", "E0"),
    # Only the conclusion restates the description: it ties nothing.
    ("Ivo Lamm survived the recall by 41-9, so the person the rebels wanted to arrest survived by 41-9.",
     None),
    # The bridge is named, but nothing says it is the person the question describes.
    ("Ivo Lamm won by 41-9.", None),
    # The hop into the answer repeats the asked relation: no word left for the person.
    ("Ivo Lamm survived the recall by 41-9.", None),
    # A sentence naming the answer is the hop into it, not the tie ("the rebels" named there).
    ("Ivo Lamm, whom the rebels wanted, won by 41-9 and was not arrested.", None),
]


@pytest.mark.parametrize(("text", "bridge"), TIES)
def test_a_named_bridge_tied_to_the_description(text, bridge):
    record = QARecord(id="r", question=QUESTION, answer="41-9", long_answer=text)
    linked = _linked(text, ["Ivo Lamm", "41-9"], "41-9", hop="survive recall by")
    assert described_bridge(record, linked) == bridge


def test_a_name_that_repeats_the_question_is_no_tie():
    # "Central Vaskish" shares "Vaskish" with the question by its name only.
    question = "To what branch does the language spoken in the standard speech of Vaskish belong?"
    text = "The Eastern branch comprises Central Vaskish and Orn."
    record = QARecord(id="r", question=question, answer="Eastern branch", long_answer=text)
    linked = _linked(text, ["Eastern branch", "Central Vaskish", "Orn"], "Eastern branch")
    assert described_bridge(record, linked) is None


def test_a_question_with_an_anchor_is_not_this_rules():
    text = "The person the rebels wanted to arrest is Ivo Lamm. Ivo Lamm survived the recall by 41-9."
    record = QARecord(id="r", question=QUESTION, answer="41-9", long_answer=text)
    anchored = [QuestionEntity(name="Ivo Lamm", anchor=True, entity="E0")]
    assert described_bridge(record, _linked(text, ["Ivo Lamm", "41-9"], "41-9", anchored)) is None


@pytest.mark.slow
def test_through_the_pipeline(auditor):
    named = ("The person the rebels wanted to arrest is Ivo Lamm. Ivo Lamm survived the recall "
             "by 41-9. So the answer is: 41-9.")
    done = auditor.audit(QUESTION, "41-9", named)
    assert done.scores.completeness == 1.0
    assert "no_anchor" in {s.kind for s in done.diagnosis.signals}
    # The whole question restated with the answer filled in names no bridge.
    restated = "The person the rebels wanted to arrest survived the recall by 41-9. So the answer is: 41-9."
    assert auditor.audit(QUESTION, "41-9", restated).scores.completeness == 0.0


@pytest.mark.slow
@pytest.mark.parametrize("text", [
    "The term sea dog is used in the board game of skat. Skat is played with tiles.",
    "Sea dog is a term from the board game called Skat. Skat is played with tiles.",
    "In the board game Skat, the term sea dog is used. Skat is played with tiles.",
])
def test_a_term_of_the_question_ties_its_game(auditor, text):
    question = "The term sea dog is used in a particular board game that uses what pieces?"
    assert auditor.audit(question, "tiles", text).scores.completeness == 1.0
