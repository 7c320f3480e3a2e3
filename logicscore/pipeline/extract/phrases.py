"""Phrases found in a Doc by token ids, as spaCy's PhraseMatcher finds them: the
mentions match a record's few question and answer strings, and a PhraseMatcher built for
them per record costs more than the match."""

from __future__ import annotations

import functools
import weakref
from typing import Any

from ...parsing.loader import doc_text

# Per Doc: each column asked for (0: ORTH, 1: LOWER), read at its first use.
_WORD_IDS: weakref.WeakKeyDictionary[Any, dict[int, list[int]]] = weakref.WeakKeyDictionary()
# Per Doc: its text as `letters` folds it, for `may_occur`.
_LETTERS: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()


def word_ids(doc: Any, column: int) -> list[int]:
    """Each token's ORTH (column 0) or LOWER (column 1) id, read once per Doc: the phrase
    hints and the short answers are both matched on them, and most only on LOWER."""
    columns = _WORD_IDS.get(doc)
    if columns is None:
        columns = _WORD_IDS[doc] = {}
    ids = columns.get(column)
    if ids is None:
        from spacy.attrs import LOWER, ORTH

        ids = columns[column] = doc.to_array((ORTH, LOWER)[column]).tolist() if len(doc) else []
    return ids


def letters(text: str) -> str:
    """`text` lowercased, final sigma as any sigma, without whitespace: the same for two
    strings whose tokens have equal LOWER ids (spaCy's LOWER is `str.lower`, which differs
    from a letter-by-letter lowering only in the final sigma), and a text's is the
    concatenation of its parts' (the tokenizer keeps every character)."""
    return "".join(text.lower().replace("\u03c2", "\u03c3").split())


def may_occur(doc: Any, phrase: str) -> bool:
    """False when `phrase` cannot be a token span of `doc`, case aside: its letters are not
    in the Doc's. Tokenizing a phrase costs more than this test, and most question strings
    are missing from a given answer."""
    folded = _LETTERS.get(doc)
    if folded is None:
        folded = _LETTERS[doc] = letters(doc_text(doc))
    return letters(phrase) in folded


@functools.lru_cache(maxsize=4096)
def phrase_ids(make_doc: Any, phrase: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The ORTH and LOWER ids of `phrase` as `make_doc` (a pipeline's tokenizer) splits it:
    the same question entities and answers come back across records, and tokenizing is
    most of the cost. The tokenizer and the text fix the ids, so they are remembered."""
    tokens = list(make_doc(phrase))
    return tuple(t.orth for t in tokens), tuple(t.lower for t in tokens)


def occurrences(words: list[int], patterns: list[tuple[int, ...]]) -> list[tuple[int, int]]:
    """Every token span [s, e) of `words` equal to one of `patterns`, overlapping ones too,
    as spaCy's PhraseMatcher finds them (one match per span and pattern; empty patterns
    match nothing)."""
    out: list[tuple[int, int]] = []
    for ids in patterns:
        if not ids:
            continue
        pattern, first, n = list(ids), ids[0], len(ids)
        at = -1
        while True:
            try:
                at = words.index(first, at + 1)
            except ValueError:
                break
            if words[at:at + n] == pattern:
                out.append((at, at + n))
    return out
