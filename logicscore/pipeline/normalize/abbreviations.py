"""Abbreviations and the names they shorten (docs/architecture.md): "US" and "U.S." are "United States",
"MLB MVP" is "Major League Baseball Most Valuable Player Award", "BAe" is "British Aerospace".

Only written abbreviations count: two to five capitals, dotted or not, the last capital
optionally continued by one lowercase letter of its word ("BAe"). Each capital starts one
capitalised word of the name; lowercase joining words ("of", "and", "de") may be skipped or
spelled ("USSR", "DOD"). Lowercase "us" and capitalised common words ("IT") never abbreviate.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ...lexicon.function_words import ABBREVIATION_JOINERS
from ...lexicon.kinds import AWARD_NOUNS, WORK_TYPES
from ...lexicon.names import ABBREVIATION_PARTICLES, ARTICLES
from ...lexicon.stop_words import CAPITALISED_WORDS
from ..text.mentions import Form, analyze

__all__ = ["abbreviates", "abbreviation"]

# Lowercase words inside a name that an abbreviation may leave out or spell ("BA", "BOA").
_JOINERS = ARTICLES | ABBREVIATION_PARTICLES | ABBREVIATION_JOINERS
# What may trail the named thing in a longer name ("MLB MVP": "… Most Valuable Player Award").
_KIND_WORDS = WORK_TYPES | AWARD_NOUNS
_MAX_WORDS = 8
_DOTTED = re.compile(r"(?:[A-Z]\.){1,4}[A-Z]\.?")
_PLAIN = re.compile(r"[A-Z]{2,5}|[A-Z]{2,4}[a-z]")
_POSSESSIVE = re.compile(r"['’]s$")


# Asked of every word of every one-word cluster and of each name tried against it; the
# answer depends on the word alone.
@lru_cache(maxsize=8192)
def abbreviation(word: str) -> tuple[str, ...] | None:
    """The word beginnings a written abbreviation stands for ("U.S." → ("u", "s"), "BAe" →
    ("b", "ae")), or None for any other word."""
    word = word.strip(",;:")
    # Both patterns open with a capital and then a capital or a dot: most words fail here,
    # before any pattern runs (a possessive "'s" comes off the end only).
    if not ("A" <= word[:1] <= "Z" and ("A" <= word[1:2] <= "Z" or word[1:2] == ".")):
        return None
    word = _POSSESSIVE.sub("", word)
    if _DOTTED.fullmatch(word):
        parts = [c.lower() for c in word if c.isalpha()]
    elif _PLAIN.fullmatch(word) and word.lower() not in CAPITALISED_WORDS:
        parts = [p.lower() for p in re.findall(r"[A-Z][a-z]?", word)]
    else:
        return None
    return tuple(parts) if 2 <= len(parts) <= 5 else None


def _spell(parts: tuple[str, ...], form: Form, start: int) -> set[int]:
    """Token positions where spelling `parts` from token `start` of `form` can end."""
    ends: set[int] = set()
    todo, seen = [(0, start)], set()
    while todo:
        k, i = todo.pop()
        if (k, i) in seen:
            continue
        seen.add((k, i))
        if k == len(parts):
            ends.add(i)
            continue
        if i >= len(form.tokens):
            continue
        tok, cap = form.tokens[i], form.caps[i]
        joiner = not cap and tok in _JOINERS and i > start
        if tok.startswith(parts[k]) and not tok[0].isdigit() and (cap or joiner):
            todo.append((k + 1, i + 1))
        if joiner:
            todo.append((k, i + 1))
    return ends


# Asked of one text against every name of a text: what the text's words are, and whether
# they can abbreviate at all, depends on the text alone.
@lru_cache(maxsize=8192)
def _leading_words(text: str) -> tuple[str, ...] | None:
    """The words of `text`, articles before the first dropped, when they open with an
    abbreviation; None when `text` abbreviates nothing."""
    words = text.split()
    while words and words[0].lower() in ARTICLES:
        words = words[1:]
    # No abbreviated name runs long; the bound keeps hostile inputs cheap.
    if not words or len(words) > _MAX_WORDS or abbreviation(words[0]) is None:
        return None
    return tuple(words)


def abbreviates(text: str, form: Form) -> bool:
    """Whether `text`, starting with an abbreviation, names what `form` names: "UN" and
    "United Nations", "UN troops" and "United Nations troops", "MLB MVP" and "Major League
    Baseball Most Valuable Player Award" (a trailing award or work-type word of the longer
    name is allowed only after a name of two or more words)."""
    words = _leading_words(text)
    if words is None or len(form.tokens) > 5 * _MAX_WORDS:
        return False
    ends = {0}
    for word in words:
        parts = abbreviation(word)
        nxt: set[int] = set()
        for at in ends:
            if parts:
                nxt |= _spell(parts, form, at)
            else:
                toks = analyze(word).tokens
                if toks and form.tokens[at:at + len(toks)] == toks:
                    nxt.add(at + len(toks))
        ends = nxt
    size = len(form.tokens)
    return any(end == size or (len(words) > 1 and all(t in _KIND_WORDS for t in form.tokens[end:]))
               for end in ends)
