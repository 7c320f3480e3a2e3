"""perturb.styles: restyled copies that state what the original states, each transform
on invented answers in several phrasings, and the fixed-text check every copy passes."""

from __future__ import annotations

import random

import pytest

from logicscore.models import QARecord
from logicscore.measure.perturb import styles


def _rec(long_answer: str, question: str = "Who directed the film shot in Velmora?",
         answer: str = "Corin Valdez", rid: str = "src:1") -> QARecord:
    return QARecord(id=rid, question=question, answer=answer, long_answer=long_answer)


def _apply(name: str, rec: QARecord, seed: int = 0) -> str:
    return styles.TRANSFORMS[name](rec, styles.rng_for(seed, str(rec.id), name))


# -- restate_question ------------------------------------------------------------------------

@pytest.mark.parametrize("question, clause", [
    ("Who directed the film shot in Velmora?", "who directed the film shot in Velmora"),
    ("In which city was Tarn Osk born?", "in which city was Tarn Osk born"),
    ("What is the name of the band Lira Moss drummed for?",
     "what is the name of the band Lira Moss drummed for"),
    # a yes/no question or one that opens with a name is quoted whole
    ("Are Tarn Osk and Mira Belk both painters?",
     'the answer to "Are Tarn Osk and Mira Belk both painters?"'),
    ("Selvarine was shot in which city?", 'the answer to "Selvarine was shot in which city?"'),
])
def test_question_clause(question, clause):
    assert styles.question_clause(question) == clause


def test_restate_question_phrasings_open_the_answer():
    rec = _rec("Selvarine was shot in Velmora. Corin Valdez directed Selvarine.")
    seen = {_apply("restate_question", rec, seed) for seed in range(40)}
    openers = {s.split(" who directed")[0] for s in seen}
    assert {"The question asks", "We need to find", "To answer this, we need to determine"} <= openers
    for text in seen:
        assert text.endswith(" " + rec.long_answer)
        assert "who directed the film shot in Velmora." in text


# -- lead_in -----------------------------------------------------------------------------------

@pytest.mark.parametrize("long_answer, expected", [
    ("The film was shot in Velmora.", "From the context, I know that the film was shot in Velmora."),
    ("He directed Selvarine.", "From the context, I know that he directed Selvarine."),
    # a name keeps its capital
    ("Corin Valdez directed Selvarine.", "From the context, I know that Corin Valdez directed Selvarine."),
])
def test_lead_in_prefix_lowers_only_a_positional_capital(long_answer, expected):
    rec = _rec(long_answer)
    outs = {_apply("lead_in", rec, seed) for seed in range(60)}
    assert expected in outs
    assert f"Let's think step by step. {long_answer}" in outs


# -- bullets, numbered, bold -------------------------------------------------------------------

def test_bullets_and_numbered_one_sentence_per_item():
    rec = _rec("Selvarine was shot in Velmora. Corin Valdez directed Selvarine. So the answer is: Corin Valdez.")
    assert _apply("bullets", rec) == ("- Selvarine was shot in Velmora.\n- Corin Valdez directed Selvarine.\n"
                                      "- So the answer is: Corin Valdez.")
    assert _apply("numbered", rec).splitlines() == [
        "1. Selvarine was shot in Velmora.", "2. Corin Valdez directed Selvarine.",
        "3. So the answer is: Corin Valdez."]
    with pytest.raises(styles.Skip):
        _apply("bullets", _rec("Corin Valdez directed Selvarine, shot in Velmora."))


@pytest.mark.parametrize("question, answer, long_answer, bolded", [
    ("Who directed the film shot in Velmora?", "Corin Valdez",
     "Selvarine was shot in Velmora. Corin Valdez directed it.",
     "Selvarine was shot in **Velmora**. **Corin Valdez** directed it."),
    ("Are Tarn Osk and Mira Belk both painters?", "yes",
     "Tarn Osk is a painter. Mira Belk is a painter too. So yes.",
     "**Tarn Osk** is a painter. **Mira Belk** is a painter too. So **yes**."),
    # each side of "A and B" on its own; a name glued to a hyphen is left alone
    ("Are both Dela Moss and Jean-Luc Tarn painters?", "Yes",
     "Dela Moss is a painter. So both Dela Moss and Jean-Luc Tarn are painters, like the QF 6-pounder.",
     "**Dela Moss** is a painter. So both **Dela Moss** and **Jean-Luc Tarn** are painters, like the QF 6-pounder."),
    ("Which QF 6-pounder did Brask carry in the 20th century?", "Velk",
     "The QF 6-pounder of Brask was the Velk (20th century).",
     "The QF 6-pounder of **Brask** was the **Velk** (20th century)."),
    # a name inside a longer capitalised run is not bolded on its own
    ("Where was Osk born?", "Brel", "Tarn Osk was born in Brel. Osk left at ten.",
     "Tarn Osk was born in **Brel**. **Osk** left at ten."),
])
def test_bold_names(question, answer, long_answer, bolded):
    assert _apply("bold_names", _rec(long_answer, question, answer)) == bolded


# -- description ---------------------------------------------------------------------------------

@pytest.mark.parametrize("long_answer, expected", [
    ("Lira Moss drummed for the band Grey Harbor. Grey Harbor was formed in Osk in 1980.",
     "Lira Moss drummed for the band Grey Harbor. The band was formed in Osk in 1980."),
    ("Selvarine is a 2004 drama film shot in Velmora. Corin Valdez directed Selvarine.",
     "Selvarine is a 2004 drama film shot in Velmora. Corin Valdez directed the film."),
    ("Mira Belk, an American novelist, wrote Dust Roads. Dust Roads was praised by Mira Belk's son.",
     "Mira Belk, an American novelist, wrote Dust Roads. Dust Roads was praised by the novelist's son."),
])
def test_description_replaces_a_later_mention(long_answer, expected):
    rec = _rec(long_answer, question="Who founded the band Grey Harbor?", answer="Ilo Brask")
    assert _apply("description", rec) == expected


@pytest.mark.parametrize("long_answer", [
    # two films: "the film" could be either
    "Selvarine is a film shot in Velmora. Dust Roads is a film too. Corin Valdez directed Selvarine.",
    # the kind is never stated
    "Selvarine was shot in Velmora. Corin Valdez directed Selvarine.",
    # "a member of the band" binds Lira Moss to no band
    "Lira Moss is a member of the band Grey Harbor and of Tin Owls. Lira Moss left in 1990.",
])
def test_description_skips_when_the_kind_is_not_safe(long_answer):
    with pytest.raises(styles.Skip):
        _apply("description", _rec(long_answer, answer="Ilo Brask"))


# -- pronoun ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("long_answer, expected", [
    ("Mira Belk is an American actress. Mira Belk starred in Selvarine.",
     "Mira Belk is an American actress. She starred in Selvarine."),
    ("Tarn Osk was a French monk who wrote Dust Roads. Tarn Osk's abbey stood in Brel.",
     "Tarn Osk was a French monk who wrote Dust Roads. His abbey stood in Brel."),
    ("Selvarine is a 2004 film. Selvarine was shot in Velmora.",
     "Selvarine is a 2004 film. It was shot in Velmora."),
])
def test_pronoun_where_gender_or_number_is_fixed(long_answer, expected):
    assert _apply("pronoun", _rec(long_answer, answer="Ilo Brask")) == expected


@pytest.mark.parametrize("long_answer, reason", [
    # "actor" is said of women too: gender not safe
    ("Mira Belk is an American actor. Mira Belk starred in Selvarine.", "gender or number not safely known"),
    # the sentence before writes another name: "She" could be either
    ("Tarn Osk met Mira Belk, an actress. Mira Belk starred in Selvarine.",
     "no sentence opens with a name the sentence before writes alone"),
    ("Mira Belk is an actress. Corin Valdez met Mira Belk.",
     "no sentence opens with a name the sentence before writes alone"),
])
def test_pronoun_skips_what_is_not_safe(long_answer, reason):
    with pytest.raises(styles.Skip, match=reason):
        _apply("pronoun", _rec(long_answer, answer="Ilo Brask"))


# -- the conclusion ------------------------------------------------------------------------------

def test_answer_appended_in_several_phrasings_and_not_twice():
    rec = _rec("Selvarine was shot in Velmora. Corin Valdez directed Selvarine.")
    endings = {_apply("answer_appended", rec, seed)[len(rec.long_answer) + 1:] for seed in range(40)}
    assert endings == {"So the answer is: Corin Valdez.", "So the answer is Corin Valdez.",
                       "Therefore, the answer is Corin Valdez."}
    with pytest.raises(styles.Skip):
        _apply("answer_appended", _rec("Corin Valdez directed it. So the answer is: Corin Valdez."))


@pytest.mark.parametrize("long_answer, expected", [
    ("Corin Valdez directed Selvarine. So the answer is: Corin Valdez.", "Corin Valdez directed Selvarine."),
    ("Corin Valdez directed Selvarine. Therefore, the answer is Corin Valdez.",
     "Corin Valdez directed Selvarine."),
    ("Corin Valdez directed Selvarine. Thus the final answer is Corin Valdez.",
     "Corin Valdez directed Selvarine."),
])
def test_answer_removed(long_answer, expected):
    assert _apply("answer_removed", _rec(long_answer)) == expected


def test_answer_removed_keeps_the_only_statement_of_the_answer():
    with pytest.raises(styles.Skip, match="only one that writes the answer"):
        _apply("answer_removed", _rec("Selvarine was directed by a local man. So the answer is: Corin Valdez."))


# -- reorder -----------------------------------------------------------------------------------------

def test_reorder_moves_only_a_sentence_off_the_names_and_the_answer():
    rec = _rec("Selvarine was shot in Velmora. Dust Roads opened in Brel in 1990. "
               "Corin Valdez directed Selvarine. So the answer is: Corin Valdez.")
    outs = {_apply("reorder", rec, seed) for seed in range(30)}
    assert outs == {"Dust Roads opened in Brel in 1990. Selvarine was shot in Velmora. "
                    "Corin Valdez directed Selvarine. So the answer is: Corin Valdez.",
                    "Selvarine was shot in Velmora. Corin Valdez directed Selvarine. "
                    "Dust Roads opened in Brel in 1990. So the answer is: Corin Valdez."}


@pytest.mark.parametrize("long_answer", [
    # the sentence after leans on it ("It")
    "Selvarine was shot in Velmora. Dust Roads opened in Brel. It won a prize. Corin Valdez directed it.",
    # every sentence names the question or the answer
    "Selvarine was shot in Velmora. Corin Valdez directed the film shot in Velmora.",
    # the only other sentence refers back ("the film")
    "Dust Roads opened in Brel. The film won a prize in Velmora. Corin Valdez directed Dust Roads.",
])
def test_reorder_skips(long_answer):
    with pytest.raises(styles.Skip):
        _apply("reorder", _rec(long_answer))


# -- the check, the build, determinism -----------------------------------------------------------

@pytest.mark.parametrize("transform, new, problem", [
    ("lead_in", "Selvarine was shot in Velmora. Someone directed it.", "no longer written"),
    ("bullets", "- Selvarine was shot somewhere.\n- Corin Valdez directed it.",
     "the question's name 'Velmora' is no longer written"),
    ("reorder", "Velmora is far. Corin Valdez directed it.", ""),
    ("lead_in", "Selvarine was shot in Velmora. Corin Valdez directed it.", "unchanged"),
])
def test_check(transform, new, problem):
    rec = _rec("Selvarine was shot in Velmora. Corin Valdez directed it.")
    got = styles.check(transform, rec, new)
    assert (problem in got) if problem else got == ""


def test_restyle_same_seed_same_bytes_and_every_transform_reported():
    rec = _rec("Selvarine is a 2004 film shot in Velmora. Selvarine was made by Corin Valdez. "
               "Dust Roads opened in Brel. So the answer is: Corin Valdez.")
    first = styles.restyle(rec, seed=3)
    again = styles.restyle(rec, seed=3)
    assert [w.transform for w in first] == list(styles.TRANSFORMS)
    assert [(w.record.model_dump_json() if w.record else w.skip) for w in first] == \
        [(w.record.model_dump_json() if w.record else w.skip) for w in again]
    for w in first:
        assert (w.record is None) == bool(w.skip)
        if w.record is not None:
            assert w.record.id == f"src:1#style:{w.transform}"
            assert w.record.meta["style"] == w.transform


def test_rng_is_per_record_and_transform():
    a = styles.rng_for(0, "x", "lead_in").random()
    assert a == styles.rng_for(0, "x", "lead_in").random()
    assert a != styles.rng_for(0, "y", "lead_in").random()
    assert isinstance(styles.rng_for(1, "x", "lead_in"), random.Random)
