"""The compiled attribute table sets what spaCy's attribute_ruler sets, token for token."""

import pytest
import spacy
from spacy.pipeline import AttributeRuler

from logicscore.parsing import loader as pipeline
from logicscore.parsing.attributes import FACTORY, AttributeTable, install

# Invented sentences that reach every kind of pattern the English ruler has: tag-only and
# word-and-tag patterns, the two-token "gonna" / "ain't" ones, dependency tests and spaces.
TEXTS = [
    "Marisol Vantrell ain't the founder; she's gonna say the Korvath Institute was founded in 1931.",
    "The  Elbrin river\n\nflows past Dunmere, doesn't it?  Who'd have thought so -- 12 km long!",
    "What's the name of the ferry that Ota Bramwell's cousin wanna sail, and whom did he marry?",
    "I'm not sure whether it isn't  \t the case: y'all gotta read 'em all (Vol. 3, pp. 41-47).",
]


def _annotations(doc):
    return [(t.text, t.tag_, t.pos_, str(t.morph), t.lemma_, t.dep_) for t in doc]


def test_the_loaded_pipeline_runs_the_table_in_the_rulers_place():
    nlp = pipeline.load()
    assert FACTORY in nlp.pipe_names and "attribute_ruler" not in nlp.pipe_names
    names = nlp.pipe_names
    assert names.index("parser") < names.index(FACTORY) < names.index("ner")
    # The table is the ruler, faster: the signature does not call it a disabled component.
    assert pipeline.disabled(nlp) == ["senter", "lemmatizer"]


def test_the_table_equals_the_english_ruler_on_invented_text():
    fast = pipeline.load()
    slow = spacy.load(fast.meta["lang"] + "_" + fast.meta["name"])
    assert "attribute_ruler" in slow.pipe_names
    for text in TEXTS:
        assert _annotations(fast(text)) == _annotations(slow(text)), text


def _blank_ruler(patterns):
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("attribute_ruler")
    assert isinstance(ruler, AttributeRuler)
    ruler.add_patterns(patterns)
    return nlp, ruler


# Rows of the ruler's semantics, each on a blank pipeline (no tags or parse: LOWER and
# IS_SPACE tests, the operators, two-token patterns with positive and negative indices).
SEMANTICS = [
    ("a later pattern overrides an earlier one, field by field",
     [{"patterns": [[{"LOWER": "ferry"}]], "attrs": {"POS": "NOUN", "LEMMA": "boat"}},
      {"patterns": [[{"LOWER": {"IN": ["ferry", "raft"]}}]], "attrs": {"POS": "PROPN"}}],
     "The Ferry and the raft"),
    ("an earlier pattern's field survives when the later one does not set it",
     [{"patterns": [[{"LOWER": {"REGEX": "^fer"}}]], "attrs": {"LEMMA": "fer", "MORPH": "Number=Sing"}},
      {"patterns": [[{"LOWER": "ferry"}]], "attrs": {"MORPH": "Number=Plur"}}],
     "ferry fern ferries"),
    ("two-token patterns set the token their index names, from either end",
     [{"patterns": [[{"LOWER": "gon"}, {"LOWER": "na"}]], "attrs": {"LEMMA": "go"}, "index": 0},
      {"patterns": [[{"LOWER": "gon"}, {"LOWER": "na"}]], "attrs": {"LEMMA": "to"}, "index": -1},
      {"patterns": [[{"IS_SPACE": False, "LOWER": {"NOT_IN": ["gon"]}}]], "attrs": {"POS": "X"}}],
     "we gonna sail, gon na"),
    ("a pattern listing words is tried on each of them, alone or first of two",
     [{"patterns": [[{"LOWER": {"IN": ["ferry", "raft", "ferry"]}}]], "attrs": {"LEMMA": "boat"}},
      {"patterns": [[{"LOWER": {"IN": ["the", "a"]}}, {"LOWER": {"IN": ["raft"]}}]],
       "attrs": {"POS": "DET"}},
      {"patterns": [[{"IS_SPACE": False, "LOWER": {"IN": []}}]], "attrs": {"POS": "X"}}],
     "The ferry and a raft, the raft"),
    ("space tokens", [{"patterns": [[{"IS_SPACE": True}]], "attrs": {"TAG": "_SP", "POS": "SPACE"}}],
     "one  two\n\nthree"),
]


@pytest.mark.parametrize("why,patterns,text", SEMANTICS, ids=[row[0] for row in SEMANTICS])
def test_the_table_follows_the_rulers_semantics(why, patterns, text):
    nlp, ruler = _blank_ruler(patterns)
    table = AttributeTable.compile(ruler)
    assert table is not None
    by_ruler, by_table = ruler(nlp.make_doc(text)), table(nlp.make_doc(text))
    assert _annotations(by_table) == _annotations(by_ruler)
    assert _annotations(by_ruler) != _annotations(nlp.make_doc(text))  # the row sets something


@pytest.mark.parametrize("pattern", [
    [{"POS": "NOUN"}],                        # an attribute the table does not read
    [{"LOWER": "x", "OP": "?"}],              # a quantifier
    [{"LOWER": {"FUZZY": "ferry"}}],          # an operator it does not evaluate
    [{"LENGTH": {">=": 3}}],
])
def test_a_pattern_beyond_the_table_keeps_spacys_ruler(pattern):
    nlp, ruler = _blank_ruler([{"patterns": [pattern], "attrs": {"LEMMA": "y"}}])
    assert AttributeTable.compile(ruler) is None
    assert install(nlp) is False
    assert "attribute_ruler" in nlp.pipe_names and FACTORY not in nlp.pipe_names


def test_install_on_a_compilable_ruler_replaces_it_once():
    nlp, _ = _blank_ruler([{"patterns": [[{"LOWER": "ferry"}]], "attrs": {"LEMMA": "boat"}}])
    assert install(nlp) is True and install(nlp) is True
    assert nlp.pipe_names.count(FACTORY) == 1 and "attribute_ruler" not in nlp.pipe_names
    assert [t.lemma_ for t in nlp("the ferry")] == ["", "boat"]
