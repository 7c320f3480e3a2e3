"""The named rules of mention reading, one table of (input, expected) rows per rule.

Every rule must be needed by one of its rows: with the rule taken out of its tuple, that
row reads differently (`test_*_rule_is_needed`).
"""

from __future__ import annotations

import pytest

from logicscore.pipeline.text import forms

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
    # analyze() caches its Forms: a text read with the whole table must be read again.
    forms.analyze.cache_clear()


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


@pytest.mark.parametrize("tok", [
    "Oswin", "oswin", "Tarn", "of", "Ii", "ii", "Jnr", "Jr", "jr", "Sr", "Third", "third",
    "Tenth", "Eleventh", "3rd", "1,200", "Voyager", "Mc", "Élodie", "Straße", "x", "Vii", "Iv",
])
def test_mention_rules_only_a_word_may_mark_is_given_to_markers(tok):
    """`_join` gives a word to MARKERS only when `may_mark` says a rule may tag it: a word
    it passes over is tagged by no rule, in any place of a name."""
    norm = forms.fold(tok)
    if forms.may_mark(tok, norm):
        return
    for pos in (0, 1):
        for last in (False, True):
            for nxt in ("", "of", "von"):
                for flags in ((False, False, False), (True, True, True)):
                    word = forms.Word(tok, norm, pos, tok[:1].isupper(), flags[0], flags[1],
                                      last, nxt, flags[2])
                    assert all(rule(word) is None for rule in forms.MARKERS), tok


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
    from logicscore.pipeline.extract.mentions import Arg
    from logicscore.pipeline.extract.nested import nested

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
    from logicscore.pipeline.extract import nested as module

    names = [r.__name__ for r in module.RULES]
    assert sorted(names) == sorted({row[0] for row in NESTED_ROWS})
    for name in names:
        with monkeypatch.context() as m:
            m.setattr(module, "RULES", tuple(r for r in module.RULES if r.__name__ != name))
            changed = [row for row in NESTED_ROWS
                       if row[0] == name and _nested_inner(*row[1:4]) != row[4]]
        assert changed, f"no row of {name} needs it"


def _doc(text, propn=(), ents=(), pos=None):
    """A hand-built Doc: blank tokenizer, the listed tokens tagged PROPN, given entities."""
    from spacy.tokens import Doc, Span

    nlp = _blank()
    toks = nlp.make_doc(text)
    tags = pos or {}
    doc = Doc(nlp.vocab, words=[t.text for t in toks], spaces=[bool(t.whitespace_) for t in toks],
              pos=[tags.get(i, "PROPN" if i in propn else "X") for i in range(len(toks))],
              tags=["POS" if t.text == "'s" else "" for t in toks],
              sent_starts=[i == 0 for i in range(len(toks))])
    doc.ents = [Span(doc, s, e, label=label) for s, e, label in ents]
    return doc


_NLP = []


def _blank():
    import spacy

    if not _NLP:
        _NLP.append(spacy.blank("en"))
    return _NLP[0]


# (rule, text, entities, priority, kept text)
SPAN_TRIM_ROWS = [
    ("opening_article", "The Velmar Sisters", (), 2, "Velmar Sisters"),
    ("opening_article", "“ Velmar Sisters", (), 3, "Velmar Sisters"),
    ("opening_article", "The Velmar Sisters", (), 0, "The Velmar Sisters"),  # asked for whole
    ("dangling_end", "4 March 1911 –", (), 2, "4 March 1911"),
    ("dangling_end", "Orlin 's", (), 2, "Orlin"),
    ("dangling_end", "Orlin 's", (), 0, "Orlin 's"),
    ("dangling_end", "Velmar Sisters )", (), 2, "Velmar Sisters )"),
    ("leading_modifiers", "geographer Dale Ferris", (), 2, "Dale Ferris"),
    ("leading_modifiers", "geographer Dale Ferris", (), 0, "geographer Dale Ferris"),
]

# (rule, text, entities, kept text), all at NER's priority
MODIFIER_ROWS = [
    ("relation_of", "Widow of Dale Ferris", (), "Dale Ferris"),
    ("relation_of", "Chairman of Bank of Brevik", (), "Bank of Brevik"),
    ("relation_of", "Widow of them", (), "Widow of them"),
    ("nationality", "Norwegian Dale Ferris", ((0, 1, "NORP"),), "Dale Ferris"),
    ("nationality", "Norwegian Airways", ((0, 2, "ORG"),), "Norwegian Airways"),  # one name
    ("nationality", "Norwegian 12", ((0, 1, "NORP"),), "12"),
    ("role_noun", "geographer Dale Ferris", (), "Dale Ferris"),
    ("role_noun", "the geographer Dale Ferris", (), "Dale Ferris"),
    ("role_noun", "de Orlin Tarn", (), "de Orlin Tarn"),  # a name particle stays
    ("role_noun", "geographer and Dale", (), "geographer and Dale"),  # only right before a name
]


def _trimmed(text, ents, priority):
    from logicscore.pipeline.extract.trims import trim

    doc = _doc(text, ents=ents)
    s, e = trim(doc, 0, len(doc), priority)
    return doc[s:e].text


@pytest.mark.parametrize("rule, text, ents, priority, kept", SPAN_TRIM_ROWS)
def test_mention_rules_span_trim(rule, text, ents, priority, kept):
    assert _trimmed(text, ents, priority) == kept


@pytest.mark.parametrize("rule, text, ents, kept", MODIFIER_ROWS)
def test_mention_rules_modifier(rule, text, ents, kept):
    assert _trimmed(text, ents, 2) == kept


@pytest.mark.parametrize("table, rows", [
    ("TRIMS", SPAN_TRIM_ROWS),
    ("MODIFIERS", [(r, t, e, 2, k) for r, t, e, k in MODIFIER_ROWS]),
])
def test_mention_rules_span_rule_is_needed(monkeypatch, table, rows):
    from logicscore.pipeline.extract import trims as module

    names = [r.__name__ for r in getattr(module, table)]
    assert sorted(names) == sorted({row[0] for row in rows})
    for name in names:
        with monkeypatch.context() as m:
            m.setattr(module, table, tuple(r for r in getattr(module, table) if r.__name__ != name))
            changed = [row for row in rows if row[0] == name and _trimmed(*row[1:4]) != row[4]]
        assert changed, f"no row of {name} needs it"


# (source, text, PROPN tokens, entities, hints, answers, spans it proposes)
SOURCE_ROWS = [
    ("question_hints", "Orlin Tarn met Dale", (0, 1, 3), (), ["Orlin Tarn"], (), ["Orlin Tarn"]),
    ("question_hints", "Ernst Tarn met Dale", (0, 1, 3), (), ["Tarn"], (), []),  # inside a name
    ("question_hints", "they met us", (), (), ["US"], (), []),  # capitals match exactly
    ("short_answers", "the Brevik College", (1, 2), (), [], ("Brevik",), ["Brevik"]),
    ("short_answers", "it rained", (), (), [], ("it",), []),  # a stop word matches nothing
    ("short_answers", "Norwegian Airways flew", (), ((0, 2, "ORG"),), [], ("Norwegian",), []),
    ("short_answers", "a Norwegian duchess", (), (), [], ("Norwegian",), ["Norwegian"]),
    ("quoted", 'He wrote "Glass Orchard" then', (), (), [], (), ["Glass Orchard"]),
    ("quoted", 'Oswald "Ozzie" Tarn Marl met', (0, 2, 4, 5), (), [], (),
     ["Ozzie", 'Ozzie" Tarn Marl']),  # the name a nickname goes by
    ("whole_dates", "born 4 March 1911 in Brevik", (), (), [], (), ["4 March 1911"]),
    ("whole_dates", "Orlin Tarn (1505–1572)", (), (), [], (), ["1505–1572"]),
    ("named_entities", "Tarnwell Holdings hired two Norwegian men in 12 days", (),
     ((0, 2, "ORG"), (3, 4, "CARDINAL"), (4, 5, "NORP"), (7, 9, "DATE")), [], (),
     ["Tarnwell Holdings", "12 days"]),
    ("named_entities", "Orlin featured Dale", (), ((0, 3, "PERSON"),), [], (), ["Orlin", "Dale"]),
    ("proper_noun_runs", "they met Velmar Sisters", (2, 3), (), [], (), ["Velmar Sisters"]),
]


def _proposed(source, text, propn, ents, hints, answers):
    from logicscore.pipeline.extract import mentions as module

    doc = _doc(text, propn, ents, {i: "VERB" for i, t in enumerate(text.split())
                                   if t in ("featured", "met", "wrote", "hired")} | {
        i: "PROPN" for i in propn})
    wanted = module.Wanted(hints, answers, _blank().make_doc)
    return [doc[f.start:f.end].text for f in getattr(module, source)(module.Parse.of(doc), wanted)]


@pytest.mark.parametrize("source, text, propn, ents, hints, answers, spans", SOURCE_ROWS)
def test_mention_rules_source(source, text, propn, ents, hints, answers, spans):
    assert _proposed(source, text, propn, ents, hints, answers) == spans


def test_mention_rules_every_source_has_rows():
    from logicscore.pipeline.extract.mentions import SOURCES

    assert [s.__name__ for s in SOURCES] == list(dict.fromkeys(row[0] for row in SOURCE_ROWS))


def test_mention_rules_overlap_prefers_priority_then_length():
    from logicscore.pipeline.extract.mentions import find_mentions

    doc = _doc("Governor of Port Delmar met Dale", (0, 2, 3, 5),
               ((0, 4, "PERSON"), (5, 6, "PERSON")), {4: "VERB"})
    got = find_mentions(doc, ["Port Delmar"], _blank().make_doc)
    assert [(m.arg.text, m.priority) for m in got] == [("Port Delmar", 0), ("Dale", 2)]


# (helper of normalize.mentions, shorter, longer, matches)
MATCH_ROWS = [
    ("contains", "Glass Orchard", "Glass Orchard sequel", True),  # a lowercase extra word
    ("contains", "Glass Orchard", "Glass Orchard 1931", True),  # a year
    ("contains", "Brevik", "Brevik Rovers", False),  # a capitalized extra word is a name
    ("contains", "Voyager", "Voyager 9", False),  # another number, another thing
    ("tail", "Dale Ferris", "Oswin Dale Ferris", True),
    ("tail", "Ferris", "Oswin Dale Ferris", False),  # a lone surname never
    ("tail", "Dale Ferris", "old Dale Ferris", False),  # the extra words must be names
    ("inner", "Ana Luz Tarn", "Ana Luz Tarn Velmar", True),
    ("inner", "Luz de Tarn", "Ana Luz de Tarn Velmar", True),
    ("inner", "Ana Tarn", "Ana Tarn Velmar", False),  # three words at least
    ("inner", "Ana Luz Tarn", "Ana Luz Tarn sequel", False),
    ("same_regnal", "Oswin III", "Oswin III of Marl", True),
    ("same_regnal", "Oswin III", "Oswin III de Marl", True),
    ("same_regnal", "Oswin III", "Oswin IV of Marl", False),
    ("same_regnal", "Oswin", "Oswin of Marl", False),  # no regnal number
    ("_other_name", "Munval of Tesk", "Sunval of Tesk", True),  # first letter changed
    ("_other_name", "Tam Sei-wen", "Tam Sei-wu", True),  # a short word two letters apart
    ("_other_name", "Dale Tarn", "Dale Tan", False),  # one letter apart: a spelling
    ("_other_name", "Dale Tarn", "Dora Tan", False),  # two words differ
]


@pytest.mark.parametrize("helper, short, long, matches", MATCH_ROWS)
def test_mention_rules_match_helper(helper, short, long, matches):
    from logicscore.pipeline.text import mentions

    assert getattr(mentions, helper)(forms.analyze(short), forms.analyze(long)) is matches


# A question entity written just after a sentence that ends in an abbreviation ("D.C.",
# "U.K.", "Inc.") is that entity: a name never runs on across a sentence's end. Invented.
@pytest.mark.slow
@pytest.mark.parametrize("text, hint", [
    ("Orn Clinic is located in Vask, D.C. Lamm Hospital is also located in Vask, D.C.",
     "Lamm Hospital"),
    ("The band signed with Grey Records Inc. Glass Tide later left the label.", "Glass Tide"),
    ("Ana Ruiz studied in Dorrel, U.K. Piet Arlo studied there too.", "Piet Arlo"),
])
def test_a_question_entity_after_an_abbreviation_ending_a_sentence(text, hint):
    from logicscore.models import QARecord
    from logicscore.pipeline.extract.rules import RulesExtractor

    record = QARecord(id="m", question="q?", answer="a", long_answer=text)
    mentions = RulesExtractor().extract(record, [hint]).mentions
    assert hint in {m.text for m in mentions}
