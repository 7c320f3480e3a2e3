"""Question types (logicscore.pipeline.question.types): each rule's rows, with invented names, get
their type with every rule and lose it with that rule left out."""

from __future__ import annotations

import pytest

from logicscore.models import Entity, Mention, QuestionEntity
from logicscore.pipeline.normalize.options import linked_options, option_entity
from logicscore.pipeline.question.types import TYPE_RULES, classify, option_sides, question_type, split_sides

# rule → [(question, short answer, anchors, expected type)]
ROWS: dict[str, list[tuple[str, str, int, str]]] = {
    "named_options": [
        ("Which came out first, Pellow Ridge or The Amber Coast?", "Pellow Ridge", 2, "comparison"),
        ("Did Torvane or Maskelyne Hall open first?", "Torvane", 2, "comparison"),
        ("Was Ila Marsh born before or after the Treaty of Oska?", "After", 2, "comparison"),
    ],
    "auxiliary_first": [
        ("Are Dorin Vell and Ansa Kote both painters?", "Yes", 2, "yesno"),
        ("Is Quill Barrow the director of Stone Harbour?", "No", 2, "yesno"),
    ],
    "shared_value": [
        ("What country are both Vetrany and Olmsk found in?", "Norland", 2, "comparison"),
        ("What genre do Tessaly and Brume Kettle have in common?", "folk", 2, "comparison"),
        ("Vetrany and Olmsk are both in which country?", "Norland", 2, "comparison"),
        ("What do a ginger cordial and a Vell fizz have in common?", "mixers", 2, "comparison"),
    ],
    "compared_pair": [
        ("Which band formed earlier, Halcyon Drift and Mire?", "Mire", 2, "comparison"),
        ("Who was born first out of Oren Lask and Pim Daro?", "Pim Daro", 2, "comparison"),
    ],
    "between_options": [
        ("Between Oren Lask and Pim Daro, whose teacher was more famous?", "Oren Lask", 2,
         "comparison"),
    ],
    "subjects_first": [
        ("Rell Morrow and Ivo Stane, are both poets?", "Yes", 2, "yesno"),
        ("Rell Morrow and Ivo Stane, have which nationality?", "Norlandic", 2, "comparison"),
    ],
    "every_anchor": [
        ("Which film stars Oda Renn and was shot in Kettleby?", "Grey Fen", 2, "intersection"),
    ],
    "asking_word": [
        ("Who directed the film Grey Fen?", "Oda Renn", 1, "bridge"),
    ],
    "yes_no_answer": [
        ("Tarn Esk and Vol Rima, work in the theatre?", "Yes", 2, "yesno"),
    ],
}


def _without(name: str):
    return tuple(r for r in TYPE_RULES if r.name != name)


@pytest.mark.parametrize("rule,question,answer,anchors,expected",
                         [(rule, *row) for rule, rows in ROWS.items() for row in rows])
def test_question_type_rule(rule, question, answer, anchors, expected):
    assert classify(question, answer, anchors) == (expected, rule)
    assert classify(question, answer, anchors, _without(rule)) != (expected, rule)


def test_every_rule_has_rows():
    assert set(ROWS) == {r.name for r in TYPE_RULES}


def test_unclassified_question_is_bridge_without_rule():
    assert classify("Torvane and the river Esk, in the north", "Esk", 2) == ("bridge", None)


@pytest.mark.parametrize("question", [
    "The rifle made in Norland was also shared by which other nation?",
    "Which river flows between the towns of Esk and Olmsk?",
    "Who wrote the first novel published by Grey Fen Press?",
    "Which writer wrote both Grey Fen and The Amber Coast?",
    "What other district is in the same county as Olmsk and Vetrany?",
    "Common Ground, written by the author of Grey Fen, was praised for what?",
])
def test_bridge_questions_stay_bridge(question):
    assert classify(question, "Vell", 1)[0] in ("bridge", "intersection")


def test_given_type_wins():
    assert question_type("Who wrote Grey Fen?", "Oda Renn", "comparison", []) == (
        "comparison", "given")


@pytest.mark.parametrize("names,expected", [
    (["Dorin Vell and Ansa Kote"], ["Dorin Vell", "Ansa Kote"]),
    (["Are Pellow Ridge", "Mire"], ["Pellow Ridge", "Mire"]),
    (["salt and pepper"], ["salt and pepper"]),
])
def test_split_sides(names, expected):
    assert [q.name for q in split_sides([QuestionEntity(name=n) for n in names])] == expected


@pytest.mark.parametrize("question,expected", [
    ("Who was born first, Ila Varo or Tesk Molin?", ["Ila Varo", "Tesk Molin"]),
    # An option holding a comma: each comma is tried from the first.
    ("Which film came out first, Home, Gerda (Film) or Salt Meadow?", ["Home, Gerda (Film)", "Salt Meadow"]),
    # A clause's comma before the options is passed over.
    ("In Olmsk, which hall opened first, the Vell Hall or Esk House?", ["Vell Hall", "Esk House"]),
    # A closing quote after the comma.
    ('Which breed has the types "Tall" and "Short," the Norland Hound or the Esk Terrier?',
     ["Norland Hound", "Esk Terrier"]),
    # A title's capitalised "Can" is no clause.
    ("Which film is older, Grey Fen or We Can Wait?", ["Grey Fen", "We Can Wait"]),
    ("Did Torvane or Maskelyne Hall open first?", ["Torvane", "Maskelyne Hall"]),
    # Options after a dash; the comma before it opens a clause, not an option.
    ("In which race did Oda Renn, the Norland driver, win more - Esk Cup or the Vell Trophy?",
     ["Esk Cup", "Vell Trophy"]),
])
def test_option_sides(question, expected):
    assert [q.name for q in option_sides(question, []) if q.anchor] == expected


def test_option_sides_pass_a_clause():
    question = "Which came first, the Vell Hall or Esk House is older?"
    named = [QuestionEntity(name="Vell Hall", anchor=True), QuestionEntity(name="Esk House", anchor=True)]
    assert option_sides(question, named) == named


ENTITIES = [Entity(id="E1", name="Ilse Marguerite Varo III", kind="person"),
            Entity(id="E2", name="Grey Fen", kind="work"),
            Entity(id="E3", name="We're Going Home", kind="work"),
            Entity(id="E4", name="1931", kind="date"),
            Entity(id="E5", name="Tesk Molin", kind="person"),
            Entity(id="E6", name="Tesk Orvane", kind="person"),
            Entity(id="E7", name="Oda Renn, 2nd Earl", kind="person")]


@pytest.mark.parametrize("option,expected", [
    ("We'Re Going Home", "E3"),        # a title-cased question
    ("Ilse Varo", "E1"),               # the text writes the name out
    ("Lord Oda Renn, 2Nd Earl", "E7"),  # the text's name ends the option's
    ("Grey Fen by Oda Renn", "E2"),    # the option's qualifier
    ("Grey Fen (novel)", "E2"),
    ("Grey Fen in Norland", "E2"),
    ("Tesk", None),                    # one word is no written-out name, and two hold it
    ("Oda Renn", "E7"),
    ("Ansa Kote", None),
    ("1931 Varo", None),
])
def test_option_entity(option, expected):
    assert option_entity(option, ENTITIES, set()) == expected


def test_option_entity_inside_the_written_option():
    """"Everyone Else" is written whole; the reading kept only "Else" of it."""
    text = "Everyone Else is a 2009 film by Oda Renn."
    cut = Entity(id="E9", name="Else", kind="work", mentions=[Mention(text="Else", span=(9, 13))])
    assert option_entity("Everyone Else", ENTITIES + [cut], set(), text) == "E9"
    assert option_entity("Everyone Else", ENTITIES + [cut], set()) is None
    assert option_entity("Someone Else", ENTITIES + [cut], set(), text) is None


def test_option_entity_skips_a_taken_entity():
    assert option_entity("Ilse Varo", ENTITIES, {"E1"}) is None
    sides = linked_options([QuestionEntity(name="Tesk Molin", entity="E5"),
                            QuestionEntity(name="Ilse Varo")], ENTITIES, {"E5"})
    assert [q.entity for q in sides] == ["E5", "E1"]


def test_linked_options_move_a_side_stated_only_in_the_conclusion():
    """"Ilse Varo" (E8) is named only by "So Ilse Varo was born first.": the side is the
    written-out name the statements are about; a stated side keeps its entity."""
    entities = ENTITIES + [Entity(id="E8", name="Ilse Varo", kind="person")]
    sides = [QuestionEntity(name="Ilse Varo", entity="E8"), QuestionEntity(name="Tesk Molin", entity="E5")]
    assert [q.entity for q in linked_options(sides, entities, {"E1", "E5"})] == ["E1", "E5"]
    assert [q.entity for q in linked_options(sides, entities, {"E8", "E5"})] == ["E8", "E5"]
