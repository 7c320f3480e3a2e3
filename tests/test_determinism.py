"""Results never depend on which texts the process read before (same input, same bytes)."""

from __future__ import annotations

import spacy

from logicscore.pipeline.extract.mentions import _phrase_hits


def test_stop_word_hints_do_not_depend_on_vocab_history():
    # A fresh vocab has not met "up"; a long run has. The answer must be the same.
    nlp = spacy.blank("en")
    assert "up" not in nlp.vocab
    doc = nlp("Up, Down, Fragile is a 1995 French film.")
    first = _phrase_hits(doc, ["Up", "Fragile"], nlp.make_doc, carve=False)
    nlp("He gave up.")
    assert "up" in nlp.vocab
    again = _phrase_hits(nlp("Up, Down, Fragile is a 1995 French film."), ["Up", "Fragile"],
                         nlp.make_doc, carve=False)
    assert first == again
    assert (4, 5) in first  # "Fragile" itself is found either way
