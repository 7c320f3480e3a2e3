"""Words that open a sentence by saying where its claim comes from ("From the context, I know
that …") are read past: the sentence states the same, and the verdict must not move
(docs/records.md). Invented text throughout."""

from __future__ import annotations

import pytest

from logicscore import Auditor
from logicscore.pipeline.text.clean import strip_citations, strip_frames
from logicscore.lexicon.prose import FRAME

FRAMES = [
    "From the context, I know that",
    "According to the passage,",
    "Based on the information given,",
    "Going by the documents provided, we can see that",
    "We know that",
    "It is stated in the text that",
    "As mentioned in the context,",
]


@pytest.mark.parametrize("frame", FRAMES)
def test_frame_matches_a_sentence_opening(frame):
    m = FRAME.match(f"{frame} the Velmar Group was founded in Dorrel.")
    assert m and m.group(0).strip() == frame


@pytest.mark.parametrize("text", [
    "In 1990, Tomas Ebb joined the band.",            # a time, not a source
    "Given the film's budget, Ana Ruiz left.",       # a premise about the world
    "From Dorrel, the river flows north.",
    "According to Paul Moss, the film was shot in Lyre.",   # a person's claim is a claim
    "They know that Red Lake was filmed in Lyre.",
])
def test_not_frames(text):
    assert not FRAME.match(text)


@pytest.mark.parametrize(("text", "clean"), [
    ("From the context, I know that the film was shot in Lyre.", "The film was shot in Lyre."),
    ("Red Lake is a film. According to the passage, it was shot in Lyre.",
     "Red Lake is a film. It was shot in Lyre."),
    ("Based on the information given, Red Lake [1] was shot in Lyre.", "Red Lake was shot in Lyre."),
    ("- We know that Ana Ruiz starred.\n- It is stated in the text that Red Lake won.",
     "Ana Ruiz starred.\nRed Lake won."),
    # A frame with nothing after it frames nothing.
    ("The film won. According to the passage,", "The film won. According to the passage,"),
])
def test_strip_frames_keeps_offsets(text, clean):
    got, offsets, markers = strip_frames(strip_citations(text))
    assert got.strip() == clean
    assert len(offsets) == len(got) + 1
    # Every kept character maps onto the same character of the original, case aside.
    for i, ch in enumerate(got):
        if not ch.isspace() and ch != ".":
            assert text[offsets[i]].lower() == ch.lower()
    for at, _ in markers:
        assert got[:at].rstrip().endswith("Red Lake")


ANSWERS = [
    # (question, answer, long answer, complete?)
    ("Who directed the film in which Ana Ruiz played Kim?", "Paul Moss",
     "the film in which Ana Ruiz played Kim is Red Lake. Red Lake was directed by Paul Moss.", True),
    ("Who is the mother of the founder of the Velmar Group?", "Ilse Brandt",
     "the founder of the Velmar Group was Otto Velmar. The mother of Otto Velmar was Ilse Brandt.", True),
    ("Who directed the film in which Ana Ruiz played Kim?", "Paul Moss",
     "the film Red Lake was directed by Paul Moss. Ana Ruiz is an actress.", False),
]


@pytest.fixture(scope="module")
def auditor():
    return Auditor(timing=False)


@pytest.mark.parametrize("frame", FRAMES[:4])
@pytest.mark.parametrize(("question", "answer", "body", "complete"), ANSWERS)
def test_frame_does_not_move_the_verdict(auditor, frame, question, answer, body, complete):
    plain = auditor.audit(question, answer, body[0].upper() + body[1:])
    framed = auditor.audit(question, answer, f"{frame} {body}")
    assert bool(plain.scores.completeness) is complete
    assert framed.scores.completeness == plain.scores.completeness
    def triples(result):
        return [(p.subject, p.relation, p.object) for p in result.propositions]

    assert triples(framed) == triples(plain)
