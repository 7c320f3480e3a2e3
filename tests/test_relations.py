"""Relation phrases → families and argument roles (the table behind contradiction checks)."""

from __future__ import annotations

import pytest

from logicscore.pipeline.text.relations import Role, person_args, phrase_key, role, stem


@pytest.mark.parametrize("word, expected", [
    ("directed", "direct"), ("directs", "direct"), ("married", "marry"), ("marries", "marry"),
    ("starred", "star"), ("starring", "star"), ("includes", "includ"), ("include", "includ"),
    ("wrote", "writ"), ("written", "writ"), ("lies", "lie"), ("adaptation", "adapt"),
    ("headquartered", "headquarter"), ("headquarters", "headquarter"),
])
def test_relations_stem(word, expected):
    assert stem(word) == expected


@pytest.mark.parametrize("phrase, key", [
    ("was reportedly born in", ("born", "in")),
    ("is headquartered in the city of", ("headquarter", "in")),
    ("capital of country", ("capital", "of")),
    ("club of", ("club", "of")),           # a relational noun keeps its noun
    ("did not direct", ("direct",)),
])
def test_relations_phrase_key(phrase, key):
    assert phrase_key(phrase) == key


@pytest.mark.parametrize("phrase, expected", [
    # One claim, four wordings: voice and relational nouns decide the subject's slot.
    ("directed", Role("direct", 0)),
    ("was directed by", Role("direct", 1)),
    ("is the director of", Role("direct", 0)),
    ("director", Role("direct", 1)),         # "Inception director Nolan"
    ("may have directed", Role("direct", 0)),
    ("married to", Role("married", 0)),
    ("spouse of", Role("married", 0)),
    ("born in", Role("born", 0)),
    ("is a native of", Role("born", 0)),
    ("birthplace of", Role("born", 1)),
    ("is based in", Role("location", 0)),
    ("is headquartered in", Role("location", 0)),
    ("is the home of", Role("location", 1)),
    ("lies in", Role("location", 0)),
    ("contains", Role("location", 1)),
    ("wrote", Role("write", 0)),
    ("written by", Role("write", 1)),
    ("author of", Role("write", 0)),
    ("featured", Role("star", 1)),
    ("appeared in", Role("star", 0)),
    ("was adapted into", Role("adapt", 1)),
    ("is an adaptation of", Role("adapt", 0)),
    ("employs", Role("employ", 1)),
    ("is employed by", Role("employ", 0)),
    ("related to", None),
    ("be", None),
    ("", None),
])
def test_relations_role(phrase, expected):
    assert role(phrase) == expected


@pytest.mark.parametrize("phrase, expected", [
    ("directed", (True, False)), ("was directed by", (False, True)),
    ("married to", (True, True)), ("birthplace of", (False, True)),
    ("is based in", (False, False)), ("related to", (False, False)),
])
def test_relations_person_args(phrase, expected):
    assert person_args(phrase) == expected
