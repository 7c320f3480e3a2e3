"""Names the text declares equal ("X, known as Y") become one entity."""

from __future__ import annotations

import pytest

from logicscore.pipeline.extract import Extraction, Mention
from logicscore.models import Proposition
from logicscore.pipeline.normalize.aliases import is_alias
from logicscore.pipeline.normalize.entities import link


def _prop(i, s, r, o, **kw):
    return Proposition(id=f"P{i}", subject=s, relation=r, object=o, text=f"{s} {r} {o}.", **kw)


def _entity(linked, text):
    for e in linked.entities:
        if any(m.text == text for m in e.mentions):
            return e.id
    raise AssertionError(text)


def test_alias_joins_names_spelling_cannot():
    ex = Extraction([_prop(1, "Diplomats", "direct by", "Harry Piel"),
                     _prop(2, "Hubert August Piel", "know as", "Harry Piel"),
                     _prop(3, "Hubert August Piel", "born in", "Düsseldorf")], [])
    linked = link(ex, [], "Düsseldorf")
    assert _entity(linked, "Harry Piel") == _entity(linked, "Hubert August Piel")
    merged = next(m for e in linked.entities for m in e.mentions if m.text == "Harry Piel")
    assert merged.reason.startswith(("alias of", "first mention"))
    assert _entity(linked, "Diplomats") != _entity(linked, "Harry Piel")


@pytest.mark.parametrize("kw, relation, obj, alias", [
    ({}, "know as", "Mistress of the Devil", True),
    ({}, "also know as", "Mistress of the Devil", True),
    ({"negated": True}, "know as", "Mistress of the Devil", False),
    ({"hedged": True}, "know as", "Mistress of the Devil", False),
    ({}, "know as", "the devil's mistress", False),   # a description, not a name
    ({}, "know as", "1975", False),
    ({}, "know for", "Mistress of the Devil", False),
])
def test_alias_only_asserted_names(kw, relation, obj, alias):
    assert is_alias(_prop(1, "Léonor", relation, obj, **kw)) is alias


def test_alias_never_merges_dates():
    ex = Extraction([_prop(1, "Aemilia Tertia", "know as", "Aemilia Paulla"),
                     _prop(2, "Aemilia Tertia", "know as", "Spring 230 BC")],
                    [Mention("Spring 230 BC", 0, 13, "date")])
    linked = link(ex, [], "")
    assert _entity(linked, "Aemilia Tertia") == _entity(linked, "Aemilia Paulla")
    assert _entity(linked, "Aemilia Tertia") != _entity(linked, "Spring 230 BC")
