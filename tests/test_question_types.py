"""Question types (logicscore.question.types): each rule's rows, with invented names, get
their type with every rule and lose it with that rule left out."""

from __future__ import annotations

import pytest

from logicscore.models import QuestionEntity
from logicscore.question.types import TYPE_RULES, classify, question_type, split_sides

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
