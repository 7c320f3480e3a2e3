"""Abbreviations and the names they shorten, in question matching and in the long answer."""

from __future__ import annotations

import pytest

from linking import ask, entity_of, props

from logicscore.pipeline.extract import Extraction, Mention
from logicscore.pipeline.normalize.abbreviations import abbreviates, abbreviation
from logicscore.pipeline.normalize.entities import link
from logicscore.pipeline.text.mentions import analyze


@pytest.mark.parametrize("word, parts", [
    ("US", ("u", "s")), ("U.S.", ("u", "s")), ("U.S", ("u", "s")), ("U.N.", ("u", "n")),
    ("MLB", ("m", "l", "b")), ("BAe", ("b", "ae")), ("US's", ("u", "s")),
    # Ordinary words, however written, and anything too short or too long.
    ("us", None), ("IT", None), ("It", None), ("AND", None), ("A", None), ("ABCDEF", None),
    ("McCoy", None), ("Paris", None), ("WW2", None),
])
def test_abbreviation_words(word, parts):
    assert abbreviation(word) == parts


@pytest.mark.parametrize("short, name, expected", [
    ("US", "United States", True),
    ("U.S.", "the United States", True),
    ("UN", "United Nations", True),
    ("NY", "New York", True),
    ("MLB", "Major League Baseball", True),
    ("BAe", "British Aerospace", True),
    ("USSR", "Union of Soviet Socialist Republics", True),   # a joining word left out
    ("DOD", "Department of Defense", True),                   # or spelled
    ("UN troops", "United Nations troops", True),
    ("MLB MVP", "Major League Baseball Most Valuable Player Award", True),
    ("BAe 146", "British Aerospace 146", True),
    # Every word of the name is spelled: no more, no fewer.
    ("US", "USA Today", False),
    ("US", "United States of America", False),
    ("NY", "New York City", False),
    ("MLB", "Major League Baseball Most Valuable Player Award", False),
    ("US", "United states", False),          # lowercase words are no name
    ("IT", "Information Technology", False),
    ("us", "United States", False),
    ("MLB MVP", "Major League Baseball All-Star Game", False),
])
def test_abbreviates(short, name, expected):
    assert abbreviates(short, analyze(name)) is expected


@pytest.mark.parametrize("name", ["Bank " + "of " * 3000 + "Clay", "Bank " + "of " * 30 + "Clay"])
def test_abbreviates_joiner_runs_stay_cheap(name):
    assert not abbreviates("BOOOO", analyze(name))


@pytest.mark.parametrize("question", ["US", "U.S.", "the US"])
def test_question_abbreviation_reaches_name(question):
    linked, got = ask(question, ("Treaty of Paris", "ceded lands to", "the United States"))
    assert got == entity_of(linked, "the United States")


def test_question_name_reaches_abbreviation():
    linked, got = ask("Major League Baseball", ("Yankees", "compete in", "MLB"))
    assert got == entity_of(linked, "MLB")


def test_question_abbreviation_prefers_most_mentioned_name():
    linked, got = ask("US", ("Universal Studios", "is in", "United States"),
                      ("United States", "borders", "Canada"),
                      mentions=[Mention("United States", 10, 23, "place"), Mention("United States", 40, 53, "place")])
    assert got == entity_of(linked, "United States")


def test_question_abbreviation_tie_matches_nothing():
    assert ask("US", ("Universal Studios", "sued", "United States"))[1] is None


def test_question_abbreviation_is_no_persons_initials():
    _, got = ask("NY", ("Nancy Young", "born in", "Leeds"),
                 mentions=[Mention("Nancy Young", 0, 11, "person")])
    assert got is None


def test_question_exact_abbreviation_wins():
    linked, got = ask("UN", ("UN", "sent", "troops"), ("Ukraine", "joined", "United Nations"))
    assert got == entity_of(linked, "UN")


def test_lowercase_us_is_not_the_country():
    linked, got = ask("us", ("United States", "helped", "us"))
    assert got != entity_of(linked, "United States")


def test_answer_abbreviation_joins_name_in_text():
    linked = link(Extraction(props(("Yankees", "compete in", "Major League Baseball"),
                                   ("MLB", "founded in", "1903"))), [], "")
    assert entity_of(linked, "MLB") == entity_of(linked, "Major League Baseball")
    reason = next(m.reason for e in linked.entities for m in e.mentions if m.text == "MLB")
    assert reason == "abbreviation of Major League Baseball"


def test_abbreviation_joins_name_written_later():
    linked = link(Extraction(props(("U.S.", "bought", "Alaska"),
                                   ("United States", "borders", "Canada"))), [], "")
    assert entity_of(linked, "U.S.") == entity_of(linked, "United States")


def test_abbreviation_keeps_apart_from_other_kind():
    ex = Extraction(props(("US", "r", "x"), ("Universal Studios", "r", "y")),
                    mentions=[Mention("US", 0, 2, "place"), Mention("Universal Studios", 10, 27, "org")])
    linked = link(ex, [], "")
    assert entity_of(linked, "US") != entity_of(linked, "Universal Studios")


def test_abbreviation_ambiguous_in_text_stays_apart():
    linked = link(Extraction(props(("US", "r", "United States"), ("Universal Studios", "r", "y"))),
                  [], "")
    assert len({entity_of(linked, t) for t in ("US", "United States", "Universal Studios")}) == 3


def test_abbreviated_question_entity_with_award():
    linked, got = ask("MLB MVP", ("Major League Baseball Most Valuable Player Award", "r", "x"),
                      ("Major League Baseball", "r", "y"))
    assert got == entity_of(linked, "Major League Baseball Most Valuable Player Award")
