"""The lexicon owns every word table of the rules path; its text key and stemmers."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from logicscore.lexicon import names, numbers, pronouns
from logicscore.lexicon._sets import subset, words
from logicscore.lexicon.relations import FAMILIES
from logicscore.lexicon.text import crude_stem, fold, fold_char, key, stem, uncached_key, word_stem

PACKAGE = Path(__file__).resolve().parents[1] / "logicscore"
# Outside the rules path: the fictional-corpus generator invents its own names.
EXEMPT = ("lexicon", "corpus")

# A marker word of each table, as it would appear inside a table literal: quoted, or
# in a whitespace-separated word string.
MARKERS = [
    ("month names", "january"),
    ("weekdays", "wednesday"),
    ("reflexive pronouns", "himself"),
    ("name particles", "von"),
    ("honorifics", "mrs"),
    ("nobility titles", "viscount"),
    ("kinship nouns", "granddaughter"),
    ("demonyms", "zimbabwean"),
]


def _sources() -> list[Path]:
    return [p for p in PACKAGE.rglob("*.py")
            if p.relative_to(PACKAGE).parts[0] not in EXEMPT]


def _table_word(word: str) -> re.Pattern[str]:
    # Quoted ("von"), or one word among others in a string literal ("van von der"), but not
    # a comment or docstring example ("Ludwig van Beethoven" is capitalised prose).
    return re.compile(rf"[\"']{word}[\"']|^[a-z' ]*\b{word}\b[a-z' ]*$|[\"']\s*(?:[a-z]+\s+)+"
                      rf"{word}\b|\b{word}(?:\s+[a-z]+)+\s*[\"']", re.M)


@pytest.mark.parametrize("table,word", MARKERS)
def test_lexicon_tables_defined_once(table, word):
    pattern = _table_word(word)
    hits = [f"{p.relative_to(PACKAGE)}:{text.count(chr(10), 0, m.start()) + 1}"
            for p in _sources() for text in [p.read_text(encoding="utf-8")]
            for m in pattern.finditer(text)]
    assert hits == [], f"{table} ({word!r}) listed outside logicscore/lexicon: {hits}"


@pytest.mark.parametrize("word", ["january", "himself", "von", "mrs", "viscount"])
def test_lexicon_marker_found_in_lexicon(word):
    # The scan above must be able to see a table: it finds the one in the lexicon.
    pattern = _table_word(word)
    assert any(pattern.search(p.read_text(encoding="utf-8"))
               for p in (PACKAGE / "lexicon").glob("*.py"))


@pytest.mark.parametrize("text,expected", [
    ("Avengers: Age of Ultron", "avengers age of ultron"),
    ("Thelma & Louise", "thelma and louise"),
    ("  Jülich-Berg ", "julich berg"),
    ("STRASSE", "strasse"),
    ("Beyoncé's", "beyonce s"),
    ("J.K. Rowling", "j k rowling"),
    ("ﬁlm", "film"),
    ("", ""),
    ("—", ""),
])
def test_lexicon_text_key(text, expected):
    assert key(text) == expected


@pytest.mark.parametrize("text,expected", [
    ("Jülich", "julich"), ("İstanbul", "istanbul"), ("MAß", "mass"), ("Straße's", "strasse's"),
])
def test_lexicon_fold(text, expected):
    assert fold(text) == expected


@pytest.mark.parametrize("text", ["Ça va & co.", "Søren  Kierkegaard", "L'Oréal (company)", "ǅemal"])
def test_lexicon_key_is_folded_characters_joined(text):
    # The offset map of a long answer folds one character at a time; it must agree with key.
    assert " ".join("".join(fold_char(c) for c in text).split()) == key(text)


def test_lexicon_key_of_ascii_text_is_the_general_key():
    # ASCII text is keyed bytewise; it must key exactly as the accent-folding path keys it,
    # control characters, "&" and the separators `str.split` knows included.
    def general(text: str) -> str:
        return " ".join(re.sub(r"[^0-9a-z]", " ", fold(text.replace("&", " and "))).split())

    rnd = random.Random(7)
    alphabet = "aZ09 &.-'\t\n\x0b\x0c\x1c\x1d\x1e\x1f\x00\x7f"
    texts = ["".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 12))) for _ in range(3000)]
    texts += ["".join(chr(rnd.randint(0, 127)) for _ in range(rnd.randint(0, 20))) for _ in range(3000)]
    texts += ["Thelma & Louise", "AT&T", "R&B", "  Avengers:  Age of Ultron!  "]
    assert all(uncached_key(t) == general(t) for t in texts)


@pytest.mark.parametrize("word,expected", [
    ("directed", "direct"), ("directs", "direct"), ("married", "marry"), ("studies", "study"),
    ("starred", "star"), ("includes", "includ"), ("wrote", "writ"), ("Co-Founded", "co found"),
    ("headquarters", "headquarter"), ("location", "loc"),
])
def test_lexicon_stem(word, expected):
    assert stem(word) == expected


@pytest.mark.parametrize("word,expected", [
    ("directed", "direc"), ("director", "direc"), ("writer", "writ"), ("death", "die"),
    ("birthplace", "born"), ("nationality", "natio"), ("authored", "autho"), ("is", "is"),
])
def test_lexicon_crude_stem(word, expected):
    assert crude_stem(word) == expected


@pytest.mark.parametrize("word,expected", [
    ("voices", "voic"), ("voice", "voic"), ("played", "play"), ("plays", "play"),
    ("translated", "translat"), ("translation", "translat"), ("class", "class"),
])
def test_lexicon_word_stem(word, expected):
    assert word_stem(word) == expected


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_lexicon_family_words_stem_apart_from_other_families(family):
    # A family's words mark it alone: no two families share a crude stem.
    mine = {crude_stem(w) for w in FAMILIES[family].words}
    others = {crude_stem(w) for f, row in FAMILIES.items() if f != family for w in row.words}
    assert not mine & others


@pytest.mark.parametrize("derived,table", [
    (names.PERSON_PARTICLES, names.PARTICLES),
    (names.RUN_PARTICLES, names.PARTICLES),
    (names.TITLE_PARTICLES, names.PARTICLES),
    (names.MENTION_HONORIFICS, names.HONORIFICS),
    (names.QUESTION_HONORIFICS, names.HONORIFICS),
    (names.ROYAL_TITLES, names.MENTION_HONORIFICS),
    (names.PERSON_TITLES, names.MENTION_HONORIFICS),
    (pronouns.STANDING_PRONOUNS, pronouns.THIRD_PERSON_PRONOUNS),
    (numbers.MENTION_NUMBER_WORDS, numbers.NUMBER_WORDS),
    (numbers.COUNT_WORDS, numbers.NUMBER_WORDS),
])
def test_lexicon_derived_tables_are_subsets(derived, table):
    assert derived and derived < table


@pytest.mark.parametrize("table,text,expected", [
    (words("a b c"), "a c", frozenset({"a", "c"})),
    (words("a b c"), "d", None),
])
def test_lexicon_subset(table, text, expected):
    if expected is None:
        with pytest.raises(ValueError, match="'d'"):
            subset(table, text)
    else:
        assert subset(table, text) == expected
