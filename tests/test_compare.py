"""Completeness by type for comparison and yes/no questions (logicscore.pipeline.compare), on
invented text: both sides stated, a side dropped, a conclusion against the stated values,
elliptical and negated sides, a third entity's value beside the compared ones."""

from __future__ import annotations

import pytest

from logicscore.pipeline.text.values import number

# (question, short answer, long answer, complete, verdict, gap side or None)
CASES = [
    ("Who was born first, Ila Varo or Tesk Molin?", "Ila Varo",
     "Ila Varo was born in 1931. Tesk Molin was born in 1958. So Ila Varo was born first.",
     1, "entailed", None),
    ("Who was born first, Ila Varo or Tesk Molin?", "Ila Varo",
     "Ila Varo was born in 1931. So Ila Varo was born first.", 0, "underdetermined", "Tesk Molin"),
    ("Who was born first, Ila Varo or Tesk Molin?", "Tesk Molin",
     "Ila Varo was born in 1931. Tesk Molin was born in 1958. So Tesk Molin was born first.",
     0, "contradicted", None),
    ("Which album came out later, Cold Orchard or Brass Meadow?", "Brass Meadow",
     ("Cold Orchard was released in 1994. Brass Meadow was released in 2003. Grey Lantern was "
      "released in 2011. So Brass Meadow came out later."), 1, "entailed", None),
    ("Who was born first, Ila Varo or Tesk Molin?", "Ila Varo",
     "Ila Varo was born in 1931, Tesk Molin in 1958. So Ila Varo was born first.",
     1, "entailed", None),
    ("Which painter is from Norland, Ila Varo or Tesk Molin?", "Ila Varo",
     "Ila Varo is from Norland. Tesk Molin is not. So the answer is Ila Varo.",
     1, "entailed", None),
    ("Which painter is from Norland, Ila Varo or Tesk Molin?", "Tesk Molin",
     "Ila Varo is from Norland. Tesk Molin is not. So the answer is Tesk Molin.",
     0, "contradicted", None),
    ("Which band is from Norland, Cold Orchard or Brass Meadow?", "Brass Meadow",
     "Cold Orchard is a band from Sudmark, so Brass Meadow must be the band from Norland.",
     0, "underdetermined", "Brass Meadow"),
    ("Are Ila Varo and Tesk Molin both sculptors?", "Yes",
     "Ila Varo is a sculptor. Tesk Molin is also a sculptor. So both are sculptors.",
     1, "entailed", None),
    ("Which town is larger, Orvik or Tesmora?", "Tesmora",
     ("Orvik is a village in Norland, while Tesmora is the capital of Sudmark. Since Tesmora "
      "is a capital, it is likely that Tesmora is larger."), 0, "underdetermined", "Orvik"),
    ("Which town is larger, Orvik or Tesmora?", "Tesmora",
     ("Orvik has 4,000 inhabitants. Tesmora has 90,000 inhabitants. So Tesmora is probably "
      "larger."), 1, "entailed", None),
    ("Are Ila Varo and Tesk Molin both sculptors?", "Yes",
     "Ila Varo is a sculptor. So Ila Varo and Tesk Molin are both sculptors.",
     0, "underdetermined", "Tesk Molin"),
    ("Are Ila Varo and Tesk Molin both sculptors?", "Yes",
     "Ila Varo is a sculptor. Tesk Molin is not a sculptor. So they are both sculptors.",
     0, "contradicted", None),
    ("Was Cold Orchard released before Brass Meadow?", "Yes",
     "Cold Orchard was released in 1994. Brass Meadow was released in 2003. So yes.",
     1, "entailed", None),
    ("Was Cold Orchard released before Brass Meadow?", "No",
     "Cold Orchard was released in 1994. Brass Meadow was released in 2003. So no.",
     0, "contradicted", None),
    # An option the text writes out in full.
    ("Who was born first, Ilse Varo or Tesk Molin?", "Ilse Varo",
     "Ilse Marguerite Varo III was born in 1931. Tesk Molin was born in 1958. So Ilse Varo was born first.",
     1, "entailed", None),
    ("Who was born first, Ilse Varo or Tesk Molin?", "Ilse Varo",
     "Tesk Molin was born in 1958. So Ilse Varo was born first.", 0, "underdetermined", "Ilse Varo"),
    # A side labelled like a list item: "A: …".
    ("Which genus has more species, Orvella or Tamsin?", "Tamsin",
     "Orvella: three species are known. Tamsin is a genus of 40 species. So Tamsin has more.",
     1, "entailed", None),
    ("Which genus has more species, Orvella or Tamsin?", "Tamsin",
     "Tamsin is a genus of 40 species. So Tamsin has more.", 0, "underdetermined", "Orvella"),
    # The compared value is the director's, not the film's own year.
    ("Which film has the director who died later, Grey Fen or Salt Meadow?", "Grey Fen",
     ("Grey Fen is a 1961 film directed by Oda Renn. Salt Meadow is a 1988 film directed by "
      "Ansa Kote. Oda Renn died in 2013. Ansa Kote died in 2010."), 1, "entailed", None),
    ("Which film has the director who died later, Grey Fen or Salt Meadow?", "Salt Meadow",
     ("Grey Fen is a 1961 film directed by Oda Renn. Salt Meadow is a 1988 film directed by "
      "Ansa Kote. Oda Renn died in 2013. Ansa Kote died in 2010."), 0, "contradicted", None),
    # An option holding a comma, and options after a quoted pair.
    ("Which film came out first, Home, Gerda or Salt Meadow?", "Salt Meadow",
     "Home, Gerda is a film released in 1971. Salt Meadow is a film released in 1958.",
     1, "entailed", None),
    ('Which breed has the types "Tall" and "Short," the Norland Hound or the Esk Terrier?',
     "Esk Terrier", ("The Norland Hound is a small breed of dog. There are two types of Esk "
                     "Terrier, Tall and Short."), 1, "entailed", None),
]


@pytest.mark.parametrize("question,answer,long_answer,complete,verdict,gap", CASES)
def test_compare_case(auditor, question, answer, long_answer, complete, verdict, gap):
    r = auditor.audit(question, answer, long_answer)
    assert r.question_type in ("comparison", "yesno")
    assert r.scores.completeness == complete
    assert r.determinateness == verdict
    assert (r.diagnosis.gap.anchor if r.diagnosis.gap else None) == gap
    mismatch = any(s.kind == "conclusion_mismatch" for s in r.diagnosis.signals)
    assert mismatch == (verdict == "contradicted")
    assert r.scores.partial_completeness == (1.0 if not gap else 0.0 if "likely" in long_answer
                                             else 0.5)
    assert len(r.sides) == 2


def test_sides_carry_values(auditor):
    r = auditor.audit("Who was born first, Ila Varo or Tesk Molin?", "Ila Varo",
                      "Ila Varo was born in 1931. Tesk Molin was born in 1958. So Ila Varo "
                      "was born first.")
    assert [(s.name, s.values) for s in r.sides] == [("Ila Varo", ["1931"]),
                                                     ("Tesk Molin", ["1958"])]
    assert r.scores.conciseness == 1.0


@pytest.mark.parametrize("long_answer,gap", [
    ("The Orvik Hound is a hunting dog from Norland. The Tesk Cur is a herding dog bred in Sudmark.",
     None),
    ("The Orvik Hound is a hunting dog from Norland. The Tesk Cur was bred in Sudmark.", "Tesk Cur"),
])
def test_shared_value_sides(auditor, long_answer, gap):
    """"dogs" is said by "dog"; the gap is the side never said to be one."""
    r = auditor.audit("What kind of animal are both the Orvik Hound and the Tesk Cur?", "Dogs",
                      long_answer)
    assert r.scores.completeness == (gap is None)
    assert (r.diagnosis.gap.anchor if r.diagnosis.gap else None) == gap
    assert r.scores.partial_completeness == (1.0 if gap is None else 0.5)


@pytest.mark.parametrize("question,answer,long_answer,complete,gap", [
    # magnitude_needs_a_literal: "formed first" is told by a date; "a rock band" is none.
    ("Which band formed first, Orla Vane or Tesk Harbour?", "Orla Vane",
     "Orla Vane formed in 1971. Tesk Harbour is a rock band from Norland. So Orla Vane formed first.",
     0, "Tesk Harbour"),
    ("Which band formed first, Orla Vane or Tesk Harbour?", "Orla Vane",
     "Orla Vane formed in 1971. Tesk Harbour formed in 1980. So Orla Vane formed first.", 1, None),
    # "more" grades a quality here: a description is the value, no number needed.
    ("Which novelist has more literary fame, Ila Varo or Tesk Molin?", "Ila Varo",
     ("Ila Varo is a celebrated novelist with worldwide renown. Tesk Molin is a little-known "
      "local writer. So Ila Varo has more literary fame."), 1, None),
    # PARALLEL_WORDS: in a "both" or "same" yes/no question, a statement tying the sides to
    # each other is the conclusion, not a value of either.
    ("Are Ila Varo and Tesk Molin from the same country?", "No",
     "No, Ila Varo and Tesk Molin are not from the same country.", 0, "Ila Varo"),
    ("Are Ila Varo and Tesk Molin from the same country?", "No",
     "Ila Varo is from Norland. Tesk Molin is from Sudmark. So they are not from the same country.",
     1, None),
    # A comparative yes/no question is a magnitude: "older than" states no number.
    ("Is Orvik older than Tesmora?", "Yes", "I believe Orvik is older than Tesmora.", 0, "Orvik"),
    ("Was Cold Orchard released before Brass Meadow?", "Yes",
     "Cold Orchard was released in 1994, Brass Meadow in 2003. So yes.", 1, None),
    # A yes/no question about a relation between its sides: that relation is what is verified.
    ("Is Ila Varo the director of Grey Fen?", "Yes", "Grey Fen is a film directed by Ila Varo. So yes.",
     1, None),
])
def test_side_values_by_the_kind_of_comparison(auditor, question, answer, long_answer, complete, gap):
    r = auditor.audit(question, answer, long_answer)
    assert r.question_type in ("comparison", "yesno")
    assert r.scores.completeness == complete
    assert (r.diagnosis.gap.anchor if r.diagnosis.gap else None) == gap


def test_given_question_type_is_used(auditor):
    question = "Ila Varo and Tesk Molin: who came into the world sooner?"
    long_answer = "Ila Varo was born in 1931. So Ila Varo was born first."
    assert auditor.audit(question, "Ila Varo", long_answer).question_type != "comparison"
    r = auditor.audit(question, "Ila Varo", long_answer, question_type="comparison")
    assert r.question_type == "comparison" and r.scores.completeness == 0
    assert r.diagnosis.gap.anchor == "Tesk Molin"


def test_unclassified_question_signal(auditor):
    r = auditor.audit("Ila Varo, the painter from Norland", "Norland",
                      "Ila Varo is a painter from Norland.")
    assert r.question_type == "bridge"
    assert any(s.kind == "unclassified_question" for s in r.diagnosis.signals)


@pytest.mark.parametrize("text,value", [
    ("1931", 1931.0),
    ("May 22, 1859", 1859.0522),
    ("20 June 1941", 1941.062),
    ("1.2 million", 1_200_000.0),
    ("600,000", 600_000.0),
    ("four acts", 4.0),
    ("a painter", None),
])
def test_number(text, value):
    assert number(text) == pytest.approx(value) if value is not None else number(text) is None


@pytest.mark.slow
@pytest.mark.parametrize(("question", "answer", "long_answer"), [
    ("Who was born first, Ada Voss or Ben Orr?", "I cannot determine",
     "The passage gives no birth dates for Ada Voss or Ben Orr, so I cannot determine who was born first."),
    ("Which river is longer, the Tarn or the Oske?", "Cannot be determined",
     "Neither the Tarn nor the Oske has a length stated here. Cannot be determined."),
    ("Are Mira Holt and Kai Lund both painters?", "I am unable to say",
     "The context does not mention what Mira Holt or Kai Lund did. I am unable to say."),
])
def test_compare_an_abstention_answers_no_side(auditor, question, answer, long_answer):
    """A refusing short answer is answer_absent for a comparison or yes/no question too: the
    sides never take the refusal's words as a stated value."""
    result = auditor.audit(question=question, answer=answer, long_answer=long_answer)
    assert result.scores.completeness == 0
    assert result.diagnosis.answer_absent
    assert any(s.kind == "refusal" for s in result.diagnosis.signals)


@pytest.mark.slow
@pytest.mark.parametrize("long_answer", [
    "**Ada Voss** was born in Tarvel. **Ben Orr** was not. So the answer is **Ada Voss**.",
    "Ada Voss was born in Tarvel [1]. Ben Orr [2] was not. So the answer is Ada Voss.",
    "*Ada Voss* was born in Tarvel. *Ben Orr* was not. So the answer is Ada Voss.",
])
def test_compare_an_elided_side_reads_through_markup(auditor, long_answer):
    """"B is not." states B's side however the name is marked up or cited."""
    result = auditor.audit(question="Who was born in Tarvel, Ada Voss or Ben Orr?", answer="Ada Voss",
                           long_answer=long_answer)
    assert result.scores.completeness == 1
    assert all(side.established for side in result.sides)


# Rule `one_side_one_number`: a count stated in a sentence that names one side alone is that
# side's value when no proposition ties one to it, or when every side reaches the same one
# through a shared bridge ("he"); the values then select the option. (question, the option
# the values select, the other option, long answer concluding with {answer}.) Invented.
ONE_SIDE_ONE_NUMBER = [
    ("In which league did Piet Arlo score more goals, the Vask Cup or the Dorrel Shield?",
     "Vask Cup", "Dorrel Shield",
     "Piet Arlo is known for his goals in both the Vask Cup and the Dorrel Shield. He scored "
     "many in the Dorrel Shield, where he netted a total of 6. In the Vask Cup, he scored a "
     "total of 8 goals. So the league in which he scored more goals is the {answer}."),
    ("In which league did Piet Arlo score more goals, the Vask Cup or the Dorrel Shield?",
     "Vask Cup", "Dorrel Shield",
     "Piet Arlo played in the Vask Cup and the Dorrel Shield. The Dorrel Shield saw him net 6 "
     "goals. The Vask Cup saw him net 8 goals. So he scored more goals in the {answer}."),
    ("Which band released more albums, Grey Orchard or Glass Tide?", "Grey Orchard", "Glass Tide",
     "Grey Orchard has put out nine albums since its start. Glass Tide is a trio that has put "
     "out four albums. So {answer} released more albums."),
]


@pytest.mark.slow
@pytest.mark.parametrize("question,selected,other,long_answer", ONE_SIDE_ONE_NUMBER)
def test_one_side_one_number(auditor, question, selected, other, long_answer):
    wrong = auditor.audit(question, other, long_answer.format(answer=other))
    assert wrong.question_type == "comparison"
    assert (wrong.determinateness, wrong.scores.completeness) == ("contradicted", 0)
    assert "conclusion_mismatch" in {s.kind for s in wrong.diagnosis.signals}
    right = auditor.audit(question, selected, long_answer.format(answer=selected))
    assert (right.determinateness, right.scores.completeness) == ("entailed", 1)


def test_one_side_one_number_reads_one_value_per_sentence():
    from logicscore.pipeline.compare import _COUNT

    # Two numbers in one sentence say nothing of which is compared.
    assert len(_COUNT.findall("formed in 1990, it has put out 3 albums")) == 2
    assert _COUNT.findall("it has put out four albums") == ["four"]
