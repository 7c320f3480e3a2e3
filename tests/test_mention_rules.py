"""The named rules of mention reading, one table of (input, expected) rows per rule.

Every rule must be needed by one of its rows: with the rule taken out of its tuple, that
row reads differently (`test_*_rule_is_needed`).
"""

from __future__ import annotations

import pytest

from logicscore.normalize import forms

# (rule, mention, key)
TRIM_ROWS = [
    ("leading_article", "The Velmar Sisters", "velmar sisters"),
    ("leading_article", "A Quiet Harbour", "quiet harbour"),
    ("leading_article", "A. B. Orlin", "ab orlin"),  # an initial, not the article
    ("leading_article", "A B Orlin", "ab orlin"),
    ("descriptor_before_name", "the novel Glass Orchard", "glass orchard"),
    ("descriptor_before_name", "the town of Brevik", "brevik"),
    ("descriptor_before_name", "the 1931 novel Glass Orchard", "glass orchard"),
    ("descriptor_before_name", "Sir Aldous Penn", "aldous penn"),
    ("descriptor_before_name", "the novel glass orchard", "glass orchard"),  # all lowercase
    ("descriptor_before_name", "Town of Brevik", "town of brevik"),  # a capital: the name's
    ("descriptor_before_name", "The Duke's Regiment", "duke regiment"),  # owns, not titles
    ("descriptor_before_name", "the novel", "novel"),  # no name follows
    ("trailing_kind_word", "the Glass Orchard novel", "glass orchard"),
    ("trailing_kind_word", "Brevik Town", "brevik town"),
    ("trailing_kind_word", "Orlin's band", "orlin band"),  # a possessive owns the band
]

# (rule, mention, markers)
MARKER_ROWS = [
    ("ordinal", "the 3rd Earl of Tessley", {"o:3"}),
    ("ordinal", "the Third Earl of Tessley", {"o:3"}),
    ("number", "Voyager 9", {"n:9"}),
    ("number", "1,200 people", {"n:1200"}),
    ("regnal", "Oswin IV", {"r:iv"}),
    ("regnal", "Oswin VII, Duke of Marl", {"r:vii"}),
    ("regnal", "Oswin II of Marl", {"r:ii"}),
    ("regnal", "Oswin C Tarn", set()),  # inside a name: an initial
    ("regnal", "Oswin V. Tarn", set()),
    ("generation", "Dale Ferris Jr.", {"g:jr"}),
    ("generation", "Dale Ferris Sr", {"g:sr"}),
]

# (rule, mention, key)
FINISH_ROWS = [
    ("legal_form_suffix", "Tarnwell Holdings Inc.", "tarnwell holdings"),
    ("legal_form_suffix", "Brevik Rovers F.C.", "brevik rovers"),
    ("legal_form_suffix", "Inc", "inc"),  # never the whole name
    ("day_first_date", "March 4, 1911", "4 march 1911"),
    ("day_first_date", "4 March 1911", "4 march 1911"),
    ("day_first_date", "March 1911", "march 1911"),  # no day to move
]


def _without(monkeypatch, table: str, rule: str) -> None:
    kept = tuple(r for r in getattr(forms, table) if r.__name__ != rule)
    assert len(kept) == len(getattr(forms, table)) - 1, rule
    monkeypatch.setattr(forms, table, kept)


@pytest.mark.parametrize("rule, text, key", TRIM_ROWS)
def test_mention_rules_trim(rule, text, key):
    assert forms.analyze(text).key == key


@pytest.mark.parametrize("rule, text, markers", MARKER_ROWS)
def test_mention_rules_marker(rule, text, markers):
    assert forms.analyze(text).markers == markers


@pytest.mark.parametrize("rule, text, key", FINISH_ROWS)
def test_mention_rules_finish(rule, text, key):
    assert forms.analyze(text).key == key


@pytest.mark.parametrize("table, rows, read", [
    ("TRIMS", TRIM_ROWS, lambda f: f.key),
    ("MARKERS", MARKER_ROWS, lambda f: f.markers),
    ("FINISHES", FINISH_ROWS, lambda f: f.key),
])
def test_mention_rules_form_rule_is_needed(monkeypatch, table, rows, read):
    names = [r.__name__ for r in getattr(forms, table)]
    assert sorted(names) == sorted({row[0] for row in rows})
    for name in names:
        with monkeypatch.context() as m:
            _without(m, table, name)
            changed = [text for rule, text, want in rows
                       if rule == name and read(forms.analyze(text)) != want]
        assert changed, f"no row of {name} needs it"


def test_mention_rules_legal_form_is_no_person_hint():
    assert not forms.analyze("Brevik Rovers F.C.").person_hint
    assert forms.analyze("B. R. Orlin").person_hint


# (rule, mention, kind, known names, inner name or None)
NESTED_ROWS = [
    ("of_tail", "Siege of Port Delmar", "other", {"port delmar"}, "Port Delmar"),
    ("of_tail", "Abbey of the Vane", "other", {"vane"}, "Vane"),
    ("of_tail", "Stade de Orlin Park", "other", {"orlin park"}, "Orlin Park"),
    ("of_tail", "Siege of Port Delmar", "other", {"delmar"}, None),  # the whole tail only
    ("of_tail", "Treaty of 1844", "other", {"1844"}, None),  # never through a year
    ("of_tail", "Siege of Port Delmar", "other", set(), None),  # named nowhere else
    ("period_tail", "Middle Veltic", "other", {"veltic"}, "Veltic"),
    ("period_tail", "Middle Veltic Verse", "other", {"veltic"}, None),
    ("maker_tail", "Tarnwell Skyphone Mini", "other", {"skyphone mini"}, "Skyphone Mini"),
    ("maker_tail", "Tarnwell Mini", "other", {"mini"}, None),  # a one-word tail never
    ("maker_tail", "Dale Ferris Orlin", "person", {"ferris orlin"}, None),  # nor a person's
    ("head_name", "Port Delmar Council", "other", {"port delmar"}, "Port Delmar"),
    ("head_name", "College of Brevik Owls", "other", {"college of brevik"}, "College of Brevik"),
    ("head_name", "Delmar Council", "other", {"delmar"}, None),  # one word never
    ("head_name", "Dale Ferris Orlin", "person", {"dale ferris"}, None),  # a person is nobody's
    ("head_name", "Dale Ferris Sr.", "person", {"dale ferris"}, "Dale Ferris"),  # but a son
    ("head_name", "College of Brevik Owls", "person", {"college of brevik"}, "College of Brevik"),
]


def _nested_inner(text, kind, known):
    from logicscore.extract.mentions import Arg
    from logicscore.extract.nested import nested

    arg = Arg(text, 0, 7, kind, end=7 + len(text))
    got = nested([arg], known)
    for outer, inner in got:
        assert outer is arg and inner.start == 7 + text.index(inner.text)
        assert inner.end == inner.start + len(inner.text)
    return got[0][1].text if got else None


@pytest.mark.parametrize("rule, text, kind, known, inner", NESTED_ROWS)
def test_mention_rules_nested(rule, text, kind, known, inner):
    assert _nested_inner(text, kind, known) == inner


def test_mention_rules_nested_rule_is_needed(monkeypatch):
    from logicscore.extract import nested as module

    names = [r.__name__ for r in module.RULES]
    assert sorted(names) == sorted({row[0] for row in NESTED_ROWS})
    for name in names:
        with monkeypatch.context() as m:
            m.setattr(module, "RULES", tuple(r for r in module.RULES if r.__name__ != name))
            changed = [row for row in NESTED_ROWS
                       if row[0] == name and _nested_inner(*row[1:4]) != row[4]]
        assert changed, f"no row of {name} needs it"
