"""Name variants between question and long answer: "&", possessive titles, plural
abbreviations, landform words, rulers and families named by one name."""

from __future__ import annotations

import pytest

from linking import ask, entity_of, props

from logicscore.pipeline.extract import Extraction, Mention
from logicscore.pipeline.normalize.entities import link, normalize


@pytest.mark.parametrize("text, key", [
    ("Thelma & Louise", "thelma and louise"),
    ("Thelma and Louise", "thelma and louise"),
    # A possessive owns the name after it: the title is no honorific.
    ("The King's Speech", "king speech"),
    ("King's Speech", "king speech"),
    ("John H. Johnson President's Award", "john h johnson president award"),
    ("King Henry", "henry"),
    ("The V.I.P.s", "vips"),
    ("The V.I.P.S", "vips"),
])
def test_variant_keys(text, key):
    assert normalize(text) == key


def test_kings_speech_is_no_speech():
    linked = link(Extraction(props(("Colin Firth", "starred in", "The King's Speech"),
                                   ("Logue", "treated", "speech"))), [], "")
    assert entity_of(linked, "The King's Speech") != entity_of(linked, "speech")
    assert next(e.name for e in linked.entities if e.id == entity_of(linked, "The King's Speech")) \
        == "King's Speech"


@pytest.mark.parametrize("question, text, matched", [
    ("Bansaan Island", "Bansaan", True),
    ("Bansaan", "Bansaan Island", True),
    ("Hudson River", "Hudson", True),
    ("Mexico City", "Mexico", False),         # a city is not its country
    ("Thelma and Louise", "Thelma & Louise", True),
])
def test_question_name_variants(question, text, matched):
    linked, got = ask(question, (text, "r", "Somewhere Else"))
    assert (got == entity_of(linked, text)) is matched


@pytest.mark.parametrize("question, matched", [
    ("Setthathirath", True),     # one letter off the ruler's name
    ("Sai", False),              # not the name the ruler goes by
    ("Setthathir", False),
])
def test_question_lone_name_of_titled_ruler(question, matched):
    linked, got = ask(question, ("Vat Yotkeo", "built under", "King Sai Setthathirat"))
    assert (got == entity_of(linked, "King Sai Setthathirat")) is matched


def test_lone_name_needs_a_title():
    # "Eavis" alone is never "Michael Eavis" (a surname); only a titled ruler goes by one name.
    _, got = ask("Setthathirath", ("Vat Yotkeo", "built by", "Sai Setthathirat"))
    assert got is None


FAMILY = [("Symington", "comes from", "a political family"),
          ("J. Fife Symington Jr.", "was father of", "Symington"),
          ("Stuart Symington", "was cousin of", "Symington")]


def test_question_person_named_by_family_surname():
    linked, got = ask("Fife Symington", *FAMILY,
                      mentions=[Mention("J. Fife Symington Jr.", 60, 81, "person"),
                                Mention("Stuart Symington", 100, 116, "person")])
    assert got == entity_of(linked, "Symington")
    # The son is still not the father.
    assert got != entity_of(linked, "J. Fife Symington Jr.")


def test_family_surname_after_relatives_is_theirs():
    # "Godfrey Baring: … the Baring family": the surname follows a relative's full name.
    _, got = ask("Edward Baring", ("Godfrey Baring", "member of", "Baring"),
                      mentions=[Mention("Godfrey Baring", 0, 14, "person")])
    assert got is None


def test_family_surname_needs_kin():
    assert ask("Paris Hilton", ("Hilton", "owns", "hotels"))[1] is None
    assert ask("Mexico City", ("Mexico", "borders", "Texas"))[1] is None


@pytest.mark.parametrize("a, b, same", [
    ("Munjong of Goryeo", "Sunjong of Goryeo", False),  # rhyming names: two kings
    ("Roderick Cabrido", "Derick Cabrido", True),       # a short form stays one person
    ("Archaemenid Empire", "Achaemenid Empire", True),  # a misspelling stays one empire
    ("Chiang Hsiao-wen", "Chiang Hsiao-wu", False),      # two brothers
    ("Jon Smith", "John Smith", True),
])
def test_names_differing_only_by_a_first_letter_are_two(a, b, same):
    linked = link(Extraction(props((a, "ruled", "Korea"), (b, "ruled", "Goryeo"))), [], "")
    assert (entity_of(linked, a) == entity_of(linked, b)) is same
