"""Names containing another name the text uses alone ("Battle of New Orleans")."""

from __future__ import annotations

import pytest

from logicscore.extract.mentions import Arg
from logicscore.extract.nested import nested


def _arg(text, start=0):
    return Arg(text, 0, start, end=start + len(text))


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
    ("New York Times", {"new york"}, None),                # no "of": two names side by side
])
def test_nested_tail_must_be_a_known_name(text, known, inner):
    got = nested([_arg(text, 10)], known)
    assert [i.text for _, i in got] == ([inner] if inner else [])
    for outer, i in got:
        assert outer.text == text and i.start == 10 + text.index(inner) and i.end == i.start + len(inner)
        assert (i.start, i.end) != (outer.start, outer.end)
