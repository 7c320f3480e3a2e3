"""The one text key for names, and the stemmers of relation words.

`key` is how every stage compares two names written differently ("Thelma & Louise",
"thelma and louise"); mention analysis (`normalize.mentions`) builds on `fold`. The stems
are light and deterministic: enough to equate "directed", "directs" and "director".
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_NON_ALNUM = re.compile(r"[^0-9a-z]")
# `_NON_ALNUM` as a byte table: each ASCII byte but a digit or a lowercase letter is a space.
_KEY_BYTES = bytes(c if 48 <= c <= 57 or 97 <= c <= 122 else 32 for c in range(256))


def fold(text: str) -> str:
    """Accents and case folded away: "Jülich" → "julich", "STRASSE" → "strasse"."""
    if not text.isascii():
        decomposed = unicodedata.normalize("NFKD", text)
        text = "".join(c for c in decomposed if not unicodedata.combining(c))
    return text.casefold()


@lru_cache(maxsize=4096)
def fold_char(ch: str) -> str:
    """What one character becomes in a `key` (before spaces collapse): "&" is " and "."""
    if ch == "&":
        return " and "
    return _NON_ALNUM.sub(" ", fold(ch))


def uncached_key(text: str) -> str:
    """The text key of a name: folded, "&" read as "and", every other mark a space, words
    joined by single spaces ("Avengers: Age of Ultron" → "avengers age of ultron")."""
    if "&" in text:
        text = text.replace("&", " and ")
    if text.isascii():
        # ASCII text folds to its lowercase (no accents to strip, `casefold` is `lower`
        # there): keyed bytewise, every byte but a digit or a lowercase letter a space.
        return b" ".join(text.lower().encode().translate(_KEY_BYTES).split()).decode()
    return " ".join(_NON_ALNUM.sub(" ", fold(text)).split())


# Names are keyed over and over (each question-matching pass folds the same words); the key
# depends on the text alone, so a bounded cache keeps memory flat over long streams.
key = lru_cache(maxsize=16384)(uncached_key)


# Irregular forms of the relation words, for `stem`.
_IRREGULAR = {
    "born": "born", "bore": "born", "borne": "born", "birth": "birth",
    "wrote": "writ", "written": "writ", "writes": "writ", "writing": "writ",
    "lay": "lie", "lain": "lie", "lies": "lie", "lying": "lie",
    "employee": "employee", "wed": "wed", "wedded": "wed", "founder": "founder",
    "found": "found", "founded": "found", "headquarters": "headquarter",
}


@lru_cache(maxsize=8192)
def stem(word: str) -> str:
    """A deterministic light stem: "directed"/"directs" → "direct", "married" → "marry"."""
    word = word.casefold().replace("-", " ").strip()
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    for suffix, repl in (("ied", "y"), ("ies", "y")):
        if word.endswith(suffix) and len(word) > 4:
            return word[: -len(suffix)] + repl
    for suffix in ("ation", "ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        word = word[:-1]                       # "starr" (starred) → "star"
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]                       # "include"/"includes" → "includ"
    return word


# Irregular forms for `crude_stem`: agent nouns and deaths meet their verbs.
_CRUDE_IRREGULAR = {
    "write": "writ", "wrote": "writ", "written": "writ", "writer": "writ", "writes": "writ",
    "birth": "born", "birthplace": "born", "died": "die", "death": "die",
}


@lru_cache(maxsize=8192)
def crude_stem(word: str) -> str:
    """A five-letter stem, coarser than `stem`: "directed", "director", "directs" → "direc";
    for comparing relation phrases no table knows."""
    word = word.casefold()
    if word in _CRUDE_IRREGULAR:
        return _CRUDE_IRREGULAR[word]
    for suffix in ("ing", "ed", "er", "or", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            word = word[: -len(suffix)]
            break
    return word[:5]


def word_stem(word: str) -> str:
    """A stem for content words of any kind: "voices"/"voice", "plays"/"played",
    "translated"/"translation" meet."""
    if word.endswith("s") and not word.endswith("ss") and len(word) > 4:
        word = word[:-1]
    for suffix in ("ing", "ed", "ion"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[:-len(suffix)]
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word

# Endings a word may add to a dictionary word ("directed", "singers").
DERIVATION_SUFFIXES = ("s", "es", "ed", "d", "ing", "er", "ers", "ly")
