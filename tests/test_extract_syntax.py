"""The rules extractor's syntax helpers: `cues` finds what the cue patterns find, trying a
pattern only where one of its words occurs; `parse_tree` reads the parse spaCy's tokens
give; `lemma_by_token` asks each token's lemma once."""

from __future__ import annotations

import re
import string

import pytest

from logicscore.pipeline.extract.syntax import (
    ANSWER_IS,
    CASE_ODD,
    CONCLUSION,
    HEDGE,
    cues,
    lemma_by_token,
    parse_tree,
)


def test_case_odd_holds_every_character_re_folds_otherwise_than_lower():
    odd = {chr(cp) for cp in range(128, 0x10000) for letter in string.ascii_lowercase
           if re.fullmatch(letter, chr(cp), re.I) and chr(cp).lower() != letter}
    assert odd == CASE_ODD


def _span(m: re.Match[str] | None) -> tuple | None:
    return None if m is None else (m.span(), m.groups())


@pytest.mark.parametrize("text", [
    "Nolan directed Inception.",
    "He reportedly moved to Paris.", "It is REPORTEDLY true.", "The rumoured sequel.",
    "She may have been born in 1920.", "It might be Lyon.", "He could have won.",
    "It is unclear whether he won.", "It is believed that he won.", "It is possible.",
    "He was said to be tall.", "They were thought to be lost.", "I'm not entirely sure.",
    "I am not 100% certain.", "The date is uncertain.", "I think it is Rome.",
    "If I recall correctly, it was Rome.", "Possibly Rome.", "Probably not.",
    "So the answer is Rome.", "Thus, Nolan is the answer.", "Therefore, Nolan, who was born "
    "in London, directed it.", "Answer: Rome", "The final answer would be Rome.",
    "So Much Love: In 1967 it was covered.", "In conclusion, Rome.", "Hence:",
    "The answers were wrong.", "soft", "Sofia is a city.",
    # re.I matches these to ASCII letters, str.lower does not: searched in full.
    "It ıs possıbly Rome.", "The anſwer is Rome.", "PERHAPS İT İS.", "Poſſibly Rome.",
    "", " ", "“So,” he said.",
])
def test_cues_agree_with_the_patterns(text):
    found = cues(text)
    assert found.hedged == bool(HEDGE.search(text))
    assert _span(found.conclusion) == _span(CONCLUSION.search(text))
    assert _span(found.answer_is) == _span(ANSWER_IS.search(text))


def test_parse_tree_reads_the_tokens_heads_and_labels():
    from logicscore.parsing.loader import load, parse

    doc = parse(load(), "Nolan did not direct Heat. The film, which Mann made, is not his.")
    tree = parse_tree(doc)
    assert tree.heads == [t.head.i for t in doc]
    assert tree.deps == [t.dep_ for t in doc]
    assert tree.negated == {t.i for t in doc if any(c.dep_ == "neg" for c in t.children)}
    assert tree.negated


def test_lemma_by_token_asks_each_token_once():
    asked: list[int] = []

    class Tok:
        def __init__(self, i: int):
            self.i = i

    def lemma(tok: Tok) -> str:
        asked.append(tok.i)
        return f"w{tok.i}"

    cached = lemma_by_token(lemma)
    assert [cached(Tok(i)) for i in (0, 1, 0, 1, 2)] == ["w0", "w1", "w0", "w1", "w2"]
    assert asked == [0, 1, 2]
