"""prose: refusals and unread languages, from the record's text alone (docs/metrics.md)."""

from __future__ import annotations

import pytest

from logicscore.pipeline import prose


@pytest.mark.parametrize(("answer", "long_answer", "refused"), [
    ("I don't know", "I don't know who directed Moonfall.", True),
    ("Unknown", "Moonfall is a film by someone.", True),
    ("Ilo Vask", "The context does not say who directed Moonfall.", True),
    ("Ilo Vask", "There is no information about it, so I cannot answer.", True),
    # A refusal phrase beside the written answer is an answer with a caveat.
    ("Ilo Vask", "The passage does not say much, but Moonfall was directed by Ilo Vask.", False),
    ("Ilo Vask", "Moonfall was directed by Ilo Vask.", False),
    ("Known Unknowns", "Known Unknowns is a film.", False),
])
def test_prose_refusal(answer, long_answer, refused):
    assert (prose.refusal(answer, long_answer) is not None) is refused


@pytest.mark.parametrize(("answer", "asks_a_thing", "refused"), [
    ("None", False, True),
    ("None.", True, True),
    ("Cannot be determined", False, True),
    ("It cannot be determined.", False, True),
    ("Not stated", False, True),
    # The speaker's own inability, in several phrasings, refuses as "cannot be determined" does.
    ("I cannot determine", False, True),
    ("We can't tell.", False, True),
    ("I am unable to say", True, True),
    ("Cannot Tell Records", True, False),
    # "Yes" or "No" refuses only a question that asks for a thing.
    ("Yes", True, True),
    ("No.", True, True),
    ("Yes", False, False),
    ("Nonesuch Records", True, False),
])
def test_prose_refusing_short_answers(answer, asks_a_thing, refused):
    assert (prose.refusal(answer, "Moonfall was directed by Ilo Vask.", asks_a_thing) is not None) is refused


@pytest.mark.parametrize(("long_answer", "language"), [
    ("Moonfall wurde von Ilo Vask gedreht. Der Film ist ein Drama und war auch ein Erfolg.", "de"),
    ("Le film Moonfall est un drame. Il a été réalisé par Ilo Vask dans la ville de Tarvel.", "fr"),
    ("La película Moonfall es un drama. Fue dirigida por Ilo Vask en la ciudad de Tarvel.", "es"),
    ("Moonfall is a film. It was directed by Ilo Vask in the city of Tarvel for a company.", None),
    # English naming foreign things stays English; too few words say nothing.
    ("Die Hard was directed by John McTiernan, and Le Mans is a race in France.", None),
    ("Der Film ist gut.", None),
])
def test_prose_language(long_answer, language):
    assert prose.language(long_answer) == language


def test_prose_signals_are_hard_and_named():
    kinds = [(s.kind, s.severity) for s in prose.signals(
        "I don't know", "Ich weiß es nicht. Der Film ist ein Drama und war auch ein Erfolg in der Stadt.")]
    assert kinds == [("refusal", "hard"), ("unsupported_language", "hard")]


@pytest.mark.parametrize("long_answer", [
    "I DON'T KNOW who directed Moonfall.",
    "Sadly The Context Does Not Mention who directed it.",
    "so it CANNOT be determined from this.",
    "Moonfall was directed by Ilo Vask.",
    "Ilo Vask — I can’t tell who else; the text doesn’t say.",  # not ASCII: the case-blind search
])
def test_prose_refusal_words_are_the_case_blind_match(long_answer):
    from logicscore.lexicon.prose import REFUSAL

    m = REFUSAL.search(long_answer)
    assert prose._REFUSAL_LOWER is not None  # REFUSAL's words are lowercase
    assert prose._refusing_words(long_answer) == (m.group(0) if m else None)
