"""Phrases matched on token ids find what spaCy's PhraseMatcher finds, and a span placed
by token offsets is the one `char_span(..., alignment_mode="contract")` gives."""

from __future__ import annotations

import spacy
from spacy.matcher import PhraseMatcher

from logicscore.pipeline.extract.mentions import Parse
from logicscore.pipeline.extract.phrases import may_occur, occurrences, phrase_ids, word_ids

TEXT = ("New York, new york and NEW YORK: the New York New York hotel. York is new. "
        "Thelma & Louise  (film) met the U.S. team in Washington, D.C. on 1 March 1943.")
PHRASES = ["New York", "York", "New York New York", "new", "Thelma & Louise", "(film)",
           "U.S.", "D.C.", "1 March 1943", "absent phrase", "york is"]


def _matcher_spans(nlp, doc, attr: str) -> set[tuple[int, int]]:
    matcher = PhraseMatcher(nlp.vocab, attr=attr)
    matcher.add("HINT", [nlp.make_doc(p) for p in PHRASES])
    return {(s, e) for _, s, e in matcher(doc)}


def test_occurrences_are_the_phrase_matcher_matches_overlapping_ones_too():
    nlp = spacy.blank("en")
    doc = nlp(TEXT)
    for column, attr in ((0, "ORTH"), (1, "LOWER")):
        found = occurrences(word_ids(doc, column),
                            [phrase_ids(nlp.make_doc, p)[column] for p in PHRASES])
        assert set(found) == _matcher_spans(nlp, doc, attr)
        assert len(found) == len(set(found))  # each span once per pattern
    assert (10, 12) in occurrences(word_ids(doc, 0), [phrase_ids(nlp.make_doc, "New York")[0]])


def test_may_occur_keeps_every_phrase_that_occurs():
    nlp = spacy.blank("en")
    text = TEXT + " ΟΔΟΣ and the Straße."
    doc = nlp(text)
    # Spacing and case aside; "ΟΔΟΣ" lowers to "οδος", with a final sigma a letter-by-letter
    # lowering would not give.
    phrases = [*PHRASES, "new  YORK", "Οδοσ", "οδος", "STRASSE", "strasse", "Straße"]
    for phrase in phrases:
        found = occurrences(word_ids(doc, 1), [phrase_ids(nlp.make_doc, phrase)[1]])
        assert may_occur(doc, phrase) or not found, phrase
    assert occurrences(word_ids(doc, 1), [phrase_ids(nlp.make_doc, "οδος")[1]])
    assert may_occur(doc, "οδος") and may_occur(doc, "ΟΔΟς")
    assert not may_occur(doc, "absent phrase")
    assert not may_occur(doc, "strasse")  # "ß" is not "ss" to spaCy's LOWER either


def test_occurrences_at_the_ends_and_of_nothing():
    assert occurrences([1, 2, 1], [(1,), (2, 1), ()]) == [(0, 1), (2, 3), (1, 3)]
    assert occurrences([], [(1,)]) == []


def test_span_is_char_span_contract():
    nlp = spacy.blank("en")
    doc = nlp(TEXT)
    p = Parse.of(doc)
    assert p.starts == [t.idx for t in doc] and p.ends == [t.idx + len(t) for t in doc]
    for start in range(len(TEXT) + 1):
        for end in range(start, min(len(TEXT), start + 30) + 1):
            span = doc.char_span(start, end, alignment_mode="contract")
            want = (span.start, span.end) if span is not None and len(span) else None
            assert p.span(start, end) == want, (start, end)
