"""Names containing another name the text uses alone ("Battle of New Orleans")."""

from __future__ import annotations

import pytest

from logicscore.pipeline.extract.mentions import Arg
from logicscore.pipeline.extract.nested import nested


def _arg(text, start=0, kind="other"):
    return Arg(text, 0, start, kind, end=start + len(text))


@pytest.mark.parametrize("text, known, inner", [
    ("Battle of New Orleans", {"new orleans"}, "New Orleans"),
    ("Governor of Vatican City", {"vatican city"}, "Vatican City"),
    ("Papal Basilica of the Vatican", {"vatican"}, "Vatican"),
    ("Battle of New Orleans", {"orleans"}, None),         # only the whole tail counts
    ("War of 1812", {"1812"}, None),                       # never through a year
    ("Paris Hilton", {"paris"}, None),                     # no "of": no relation stated
    ("Battle of New Orleans", set(), None),                # the tail is named nowhere else
    # A known "X of Y" name starting a longer one: the longer belongs to it.
    ("University of Mississippi Rebels", {"university of mississippi"}, "University of Mississippi"),
    ("Bank of America National Trust", {"bank of america"}, "Bank of America"),
    # A known name of two words heading a longer name of a thing: the thing is its.
    ("South Carolina Senate", {"south carolina"}, "South Carolina"),
    ("Warner Bros. Records Parent", {"warner bros records"}, "Warner Bros. Records"),
    ("Toyota Motorsport GmbH", {"toyota"}, None),          # one word never
    ("Stade de ASC HLM", {"asc hlm"}, "ASC HLM"),
    ("Medieval Latin", {"latin"}, "Latin"),
    ("Medieval Latin Poetry", {"latin"}, None),
    ("Sony PlayStation Portable", {"playstation portable"}, "PlayStation Portable"),
    ("Sony Portable", {"portable"}, None),                 # a one-word tail never
    ("John Paul Jones", {"paul jones"}, None),             # nor a person's
    ("Martin Luther King", {"martin luther"}, None),       # a person is nobody's
    ("Hector Macpherson Sr.", {"hector macpherson"}, "Hector Macpherson"),  # but a generation
])
def test_nested_tail_must_be_a_known_name(text, known, inner):
    kind = "person" if text in ("Martin Luther King", "Hector Macpherson Sr.",
                                "John Paul Jones") else "other"
    got = nested([_arg(text, 10, kind)], known)
    assert [i.text for _, i in got] == ([inner] if inner else [])
    for outer, i in got:
        assert outer.text == text and i.start == 10 + text.index(inner) and i.end == i.start + len(inner)
        assert (i.start, i.end) != (outer.start, outer.end)
