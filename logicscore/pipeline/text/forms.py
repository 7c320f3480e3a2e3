"""A mention's comparable form (docs/architecture.md), read by ordered, named rules.

A mention is split into words, masked (parentheticals, possessive 's), then read in three
passes, each a tuple of small rules applied in order by a short driver:

- `TRIMS` drop words around the name, first rule that fires, then from the top again;
- `MARKERS` tag a kept word whose number or title must agree for two names to match;
- `FINISHES` tidy the joined key, each once, in order.

Case is remembered while reading so that lowercase descriptor words ("the film X") are
told apart from capitalized parts of a name ("City of X").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from ...lexicon.dates import MONTH_WORDS
from ...lexicon.kinds import DESCRIPTORS, ORG_SUFFIXES, TRAILING
from ...lexicon.names import ARTICLES, MENTION_HONORIFICS, PERSON_PARTICLES, PERSON_TITLES, ROYAL_TITLES
from ...lexicon.numbers import ORDINAL_WORDS, SMALL_NUMBERS
from ...lexicon.text import fold

_ORDINAL_WORDS = {w: str(i) for i, w in enumerate(ORDINAL_WORDS[:11])}
_ROMAN = re.compile(r"^(?=[ivxlc]+$)c{0,3}(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")
# "&" is a word: "X & Y" is "X and Y".
_TOKEN = re.compile(r"\d+(?:st|nd|rd|th)\b|\d+(?:[.,]\d+)*|[^\W_]+|&", re.UNICODE)
_ORDINAL = re.compile(r"^(\d+)(?:st|nd|rd|th)$")
_MONTH_NAMES = frozenset(MONTH_WORDS)
# Words of all-lowercase text that are no part of a name (`Reading.is_name`).
_NOT_NAME = DESCRIPTORS | MENTION_HONORIFICS | ARTICLES | {"of"}
# Words after which a roman numeral is still a regnal number ("Name VII of Place").
_AFTER_REGNAL = PERSON_PARTICLES | {"of"}
_BRACKETED = (re.compile(r"\([^()]*\)"), re.compile(r"\[[^\[\]]*\]"))
_POSSESSIVE = re.compile(r"(?<=[^\W_])['’]s\b|(?<=s)['’](?=\s|$)")


class Form(NamedTuple):
    """A mention analysed once: normalized tokens, which were capitalized, display text.
    (Immutable, and a tuple: one is built for each new text read.)"""

    key: str
    tokens: tuple[str, ...]
    caps: tuple[bool, ...]
    markers: frozenset[str]
    display: str
    person_hint: bool
    # A royal or noble title was stripped ("Prince X" → "X").
    titled: bool = False


@dataclass
class Reading:
    """A mention while its rules run: every word with its folded form, case and possessive
    mark; `keep` the words still counted, then the joined `tokens` the key is made of."""

    text: str
    raw: list[tuple[str, int, int]]
    toks: list[str]
    caps: list[bool]
    poss: list[bool]
    all_lower: bool
    keep: list[int]
    person_hint: bool
    titled: bool = False
    markers: set[str] = field(default_factory=set)
    tokens: list[str] = field(default_factory=list)
    tcaps: list[bool] = field(default_factory=list)

    def initial(self, i: int) -> bool:
        """A lone capital letter read as an initial ("A. B. Name", "A B Name"), not "a"."""
        tok, _, end = self.raw[i]
        if len(tok) != 1 or not tok.isupper():
            return False
        nxt = self.raw[i + 1][0] if i + 1 < len(self.raw) else ""
        return self.text[end:end + 1] == "." or (len(nxt) == 1 and nxt.isupper())

    def is_name(self, i: int) -> bool:
        """Whether word i belongs to a name: capitalized or a number, or in all-lowercase
        text (given propositions) any word that is no descriptor, title or article."""
        if self.all_lower:
            return self.toks[i] not in _NOT_NAME
        return self.caps[i] or self.toks[i][0].isdigit()


# --- TRIMS: each drops words around the name and says whether it did -------------------

def leading_article(r: Reading) -> bool:
    """An article opens the phrase, not the name; a capital "A" that is an initial stays."""
    if r.toks[r.keep[0]] in ARTICLES and not r.initial(r.keep[0]):
        r.keep.pop(0)
        return True
    return False


def descriptor_before_name(r: Reading) -> bool:
    """The last lowercase descriptor ("the film X", "the city of X") or honorific ("Sir X")
    followed by a name wraps that name: everything up to the name goes. A possessive owns
    what follows rather than titling it, and a capitalized descriptor is part of a name."""
    keep, toks = r.keep, r.toks
    for pos in range(len(keep) - 2, -1, -1):
        i = keep[pos]
        descriptor = toks[i] in DESCRIPTORS and (not r.caps[i] or r.all_lower)
        honorific = toks[i] in MENTION_HONORIFICS
        if not (descriptor or honorific) or r.poss[i]:
            continue
        nxt = pos + 1
        while descriptor and nxt < len(keep) - 1 and toks[keep[nxt]] in ("of", "the"):
            nxt += 1
        if toks[keep[nxt]] not in ("of", "the") and r.is_name(keep[nxt]):
            r.titled = r.titled or toks[i] in ROYAL_TITLES
            del keep[:nxt]
            return True
    return False


def trailing_kind_word(r: Reading) -> bool:
    """A lowercase kind word after a name is the phrase's, not the name's ("the X film")."""
    last, before = r.keep[-1], r.keep[-2]
    if (r.toks[last] in TRAILING and not r.caps[last] and r.is_name(before)
            and not r.poss[before]):
        r.keep.pop()
        return True
    return False


TRIMS: tuple[Callable[[Reading], bool], ...] = (
    leading_article, descriptor_before_name, trailing_kind_word)


# --- MARKERS: the first rule that tags a kept word wins --------------------------------

class Word(NamedTuple):
    """One kept word as the marker rules see it (a tuple: one is made per word read)."""

    tok: str  # as written
    norm: str  # folded
    pos: int  # place among the kept words
    cap: bool
    dotted: bool  # a period follows it
    comma: bool  # a comma follows it
    last: bool  # the last kept word
    next_norm: str  # the next kept word, folded ("" at the end)
    in_initials: bool  # it continues a run of initials


def ordinal(w: Word) -> str | None:
    """"3rd" and "third" are one ordinal, which must agree ("1st Earl" is not "3rd Earl")."""
    m = _ORDINAL.match(w.norm)
    if m:
        return "o:" + m.group(1)
    return "o:" + _ORDINAL_WORDS[w.norm] if w.norm in _ORDINAL_WORDS else None


def number(w: Word) -> str | None:
    """A number must agree: "Apollo 11" is not "Apollo 13"."""
    return "n:" + w.norm if w.norm[0].isdigit() else None


def regnal(w: Word) -> str | None:
    """A capital roman numeral after a name, ending it or before "of", a particle or a
    comma, is a regnal number ("Name VII, Duke of Place"); inside a name it is an initial."""
    if (w.pos > 0 and w.tok.isupper() and _ROMAN.match(w.norm) and not w.dotted
            and not w.in_initials
            and (w.last or w.next_norm in _AFTER_REGNAL or w.comma)):
        return "r:" + w.norm
    return None


_GENERATION_WORDS = frozenset({"jr", "sr"})


def generation(w: Word) -> str | None:
    """"Jr." and "Sr." after a name tell a father from his son."""
    return "g:" + w.norm if w.pos > 0 and w.norm in _GENERATION_WORDS and w.cap else None


MARKERS: tuple[Callable[[Word], str | None], ...] = (ordinal, number, regnal, generation)
# A word some rule of MARKERS may tag starts with a digit (ordinal, number), is written in
# capitals (regnal) or is one of these words (ordinal, generation); no other word is given
# to the rules, which most words of a name are not.
_MARKED_WORDS = frozenset(_ORDINAL_WORDS) | _GENERATION_WORDS


def may_mark(tok: str, norm: str) -> bool:
    """Whether some rule of MARKERS may tag the word `tok` (folded: `norm`)."""
    return norm[0].isdigit() or tok.isupper() or norm in _MARKED_WORDS


# --- FINISHES: each runs once over the joined tokens -----------------------------------

def legal_form_suffix(r: Reading) -> None:
    """A company's legal form is no part of its name ("X Inc.", "X F.C."); its dots do not
    make it a person's initials."""
    while len(r.tokens) > 1 and r.tokens[-1] in ORG_SUFFIXES and r.tcaps[-1]:
        r.tokens.pop()
        r.tcaps.pop()
        r.person_hint = False


def day_first_date(r: Reading) -> None:
    """"Month D, YYYY" and "D Month YYYY" are one date: day first."""
    t = r.tokens
    if (2 <= len(t) <= 3 and t[0] in _MONTH_NAMES and t[1].isdigit() and len(t[1]) <= 2
            and all(x.isdigit() for x in t[2:])):
        t[0], t[1] = t[1], t[0]
        r.tcaps[0], r.tcaps[1] = r.tcaps[1], r.tcaps[0]


FINISHES: tuple[Callable[[Reading], None], ...] = (legal_form_suffix, day_first_date)


def _mask(text: str) -> tuple[str, set[int]]:
    """Blank parentheticals, citation brackets and possessive 's, keeping offsets."""
    if not ("(" in text or "[" in text or "'" in text or "’" in text):
        return text, set()  # most names: nothing any pattern below could match
    chars = list(text)
    for pattern in _BRACKETED:
        for m in pattern.finditer(text):
            chars[m.start():m.end()] = " " * (m.end() - m.start())
    # A parenthesis cut off by the sentence or the extractor runs to the end: "X (1935 – 2015".
    rest = "".join(chars)
    if "(" in rest and rest.index("(") > 0:
        at = rest.index("(")
        chars[at:] = " " * (len(chars) - at)
    possessive_ends: set[int] = set()
    for m in _POSSESSIVE.finditer(text):
        chars[m.start():m.end()] = " " * (m.end() - m.start())
        possessive_ends.add(m.start())
    return "".join(chars), possessive_ends


# Linking, the pronoun test and question matching analyse each mention text several times;
# a Form is immutable, so each text is analysed once (bounded, for long streams).
@functools.lru_cache(maxsize=1 << 16)
def analyze(text: str) -> Form:
    """Normalize `text`, remembering case so descriptors are told apart from names."""
    masked, possessive_ends = _mask(text)
    raw = [(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(masked)]
    if not raw:
        folded = fold(text).strip()
        return Form(folded, (folded,) if folded else (), (False,), frozenset(), text.strip(), False)
    toks = ["and" if t == "&" else fold(t).replace(",", "")
            for t, _, _ in raw]
    if len(toks) == 1 and toks[0] in SMALL_NUMBERS[2:]:
        toks = [str(SMALL_NUMBERS.index(toks[0]))]  # a count alone: "five" is "5"
    r = Reading(text, raw, toks, [t[0].isupper() for t, _, _ in raw],
                [end in possessive_ends for _, _, end in raw],
                not any(map(str.isupper, text)), list(range(len(raw))),
                any(t in PERSON_TITLES for t in toks[:-1]))
    _trim(r)
    _join(r)
    for finish in FINISHES:
        finish(r)
    display = text[raw[r.keep[0]][1]:raw[r.keep[-1]][2]].strip()
    return Form(" ".join(r.tokens), tuple(r.tokens), tuple(r.tcaps), frozenset(r.markers),
                display, r.person_hint, r.titled)


def _trim(r: Reading) -> None:
    """Apply the first trim that fires, then all of them from the top again, while more
    than one word is kept."""
    while len(r.keep) > 1:
        for rule in TRIMS:
            if rule(r):
                break
        else:
            return


def _join(r: Reading) -> None:
    """Mark the kept words and join them into tokens; initials ("J. K.", "J.K.", "JK")
    collapse into one token so all spellings agree."""
    run: list[str] = []
    keep, text = r.keep, r.text
    for pos, i in enumerate(keep):
        tok, start, end = r.raw[i]
        norm = r.toks[i]
        if may_mark(tok, norm):
            last = pos == len(keep) - 1
            after = text[end:end + 1]
            word = Word(tok, norm, pos, r.caps[i], after == ".", after == ",",
                        last, "" if last else r.toks[keep[pos + 1]], bool(run))
            for rule in MARKERS:
                marker = rule(word)
                if marker:
                    r.markers.add(marker)
                    break
        if len(norm) == 1 and tok.isupper() and ("r:" + norm) not in r.markers:
            run.append(norm)
            r.person_hint = r.person_hint or text[end:end + 1] == "."
            continue
        if run and tok == "s" and text[start - 1:start] == ".":
            run.append(norm)  # a plural abbreviation: "The V.I.P.s" is "The V.I.P.S"
            continue
        if run:
            r.tokens.append("".join(run))
            r.tcaps.append(True)
            run = []
        r.tokens.append(norm)
        r.tcaps.append(r.caps[i] or (r.all_lower and r.is_name(i)))
    if run:
        r.tokens.append("".join(run))
        r.tcaps.append(True)


def forget() -> None:
    """Empty the cache of analysed forms (the Auditor does so between records)."""
    analyze.cache_clear()
