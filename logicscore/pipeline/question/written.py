"""The long answer as a lookup of written names (docs/metrics.md): a name is found the way the
answer writes it, whatever the question's case and punctuation ("avengers age of ultron" is
"Avengers: Age of Ultron")."""

from __future__ import annotations

import re

from ...lexicon.function_words import TITLE_SMALL_WORDS
from ...lexicon.names import CAPITALISED_ARTICLES
from ...lexicon.text import fold_char, uncached_key
from ..text.question_forms import CAPITAL_OR_DIGIT, JOINING_WORDS, NAME_START, role_name

_ASCII_WORD = re.compile(r"[A-Za-z0-9]+")
_BRACKET_OR_QUOTE = re.compile(r"[\"“”()\[\]\n]")
_NEXT_WORD = re.compile(r"\s*(\S+)")
_RUNS_ON = re.compile(r"[-–]?\w|['’]s [A-Z]")
_WORD_END = re.compile(r"(?:\w|[a-z]['’])$")
NEAR = 80  # characters looked at around a match: words glued to it are close


def fold(text: str) -> str:
    """The text key of `text` between single spaces. Uncached: the windows folded here are
    mostly new strings, which would only push names out of `key`'s cache."""
    return f" {uncached_key(text)} "


def _folded(text: str) -> tuple[str, list[int]]:
    """`text` folded as `key` folds it, with no run of spaces, between single spaces; and
    for each folded character the offset of the raw character it came from.

    Runs of ASCII letters and digits fold to themselves lowercased, one to one, and the
    single space after one comes from the character that ends it; only what lies between
    the runs is folded character by character (an "&", an accent, a curly quote)."""
    if text.isascii() and "&" not in text:
        return _folded_ascii(text)
    chars, where = [" "], [0]
    done = 0
    for m in _ASCII_WORD.finditer(text):
        start, end = m.span()
        if start > done:
            _fold_between(text, done, start, chars, where)
        chars.append(m.group().lower())
        where.extend(range(start, end))
        done = end
    _fold_between(text, done, len(text), chars, where)
    if chars[-1][-1] != " ":
        chars.append(" ")
        where.append(len(text))
    return "".join(chars), where


def _folded_ascii(text: str) -> tuple[str, list[int]]:
    """`_folded` for ASCII text without "&": its words, lowercased, one space after each
    coming from the character that ends the word."""
    words, where = [], [0]
    for m in _ASCII_WORD.finditer(text.lower()):
        words.append(m.group())
        where.extend(range(m.start(), m.end() + 1))
    return (f" {' '.join(words)} " if words else " "), where


def _fold_between(text: str, start: int, end: int, chars: list[str], where: list[int]) -> None:
    """Fold `text[start:end]` (no ASCII letter or digit run inside) onto `chars`, a space
    only where the last folded character is none."""
    gap = text[start:end]
    if gap.isascii() and "&" not in gap:
        if gap and chars[-1][-1] != " ":
            chars.append(" ")  # punctuation and spaces fold to one space
            where.append(start)
        return
    for i in range(start, end):
        for c in fold_char(text[i]):
            if not (c == " " and chars[-1][-1] == " "):
                chars.append(c)
                where.append(i)


class Written:
    """The long answer folded for lookup (case, accents, punctuation, "&"), each folded
    character mapped back to the character it came from."""

    def __init__(self, text: str):
        self.raw, self.text, self.where = text, *_folded(text)
        # The question's windows are asked of the answer several times over (widening,
        # naming, resolving overlaps): each phrase is folded and looked up once.
        self._folds: dict[str, str] = {}
        self._contains: dict[str, bool] = {}
        # Spans and names depend on the phrase's fold alone: kept by fold, a phrase written
        # in another case or with other marks is looked up once.
        self._spans: dict[str, list[tuple[int, int]]] = {}
        self._names: dict[str, list[tuple[int, int]]] = {}
        # Whether a name may end (open) at an offset, by offset: the question's windows
        # from one word share the answer's offsets that word opens on.
        self._free_after: dict[int, bool] = {}
        self._free_before: dict[int, bool] = {}
        self._title_words: dict[str, bool] = {}

    def folded(self, phrase: str) -> str:
        """`fold(phrase)`, folded once per phrase."""
        key = self._folds.get(phrase)
        if key is None:
            key = self._folds[phrase] = fold(phrase)
        return key

    def __contains__(self, phrase: str) -> bool:
        found = self._contains.get(phrase)
        if found is None:
            # (`folded`, inline: most phrases asked here are new, and asked here first.)
            key = self._folds.get(phrase)
            if key is None:
                key = self._folds[phrase] = fold(phrase)
            found = self._contains[phrase] = key in self.text
        return found

    def spans(self, phrase: str) -> list[tuple[int, int]]:
        """Where the answer writes `phrase`, as character spans of the raw text."""
        return self._spans_of(self.folded(phrase))

    def _spans_of(self, key: str) -> list[tuple[int, int]]:
        """`spans` of a phrase folded to `key`."""
        found = self._spans.get(key)
        if found is None:
            found = self._spans[key] = self._find(key)
        return found

    def _find(self, key: str) -> list[tuple[int, int]]:
        if key.strip() == "":
            return []
        out, pos = [], self.text.find(key)
        while pos >= 0:
            out.append((self.where[pos + 1], self.where[pos + len(key) - 2] + 1))
            pos = self.text.find(key, pos + 1)
        return out

    def names(self, phrase: str) -> list[tuple[int, int]]:
        """The spans that write `phrase` as a whole name: capitalised at both ends, title
        words only, no capitalised word glued on either side (a first name inside a full name)."""
        key = self.folded(phrase)
        found = self._names.get(key)
        if found is None:
            # A span opens on the raw character its first folded letter came from, so a
            # name's span opens on a capital or a digit: the rest are no name, untested.
            raw = self.raw
            found = self._names[key] = [s for s in self._spans_of(key)
                                        if CAPITAL_OR_DIGIT.match(raw, s[0]) and self._is_name(*s)]
        return found

    def lowercase(self, phrase: str) -> bool:
        """The answer also writes `phrase` in lowercase: a common phrase there."""
        return any(not any(c.isupper() for c in self.raw[s:e]) for s, e in self.spans(phrase))

    def _is_name(self, start: int, end: int) -> bool:
        if _BRACKET_OR_QUOTE.search(self.raw, start, end):
            return False  # a quoted nickname inside a name does not write the nickname's name
        # The ends' tests are read once per offset, and the answer's spans share offsets:
        # asked before the words are split.
        if not (self._ends_free(end) and self._opens_free(start)):
            return False
        words = [w.strip(".,:;!?'‘’") for w in self.raw[start:end].split()]
        words = [w for w in words if w]
        if not words or not (NAME_START.match(words[0]) and NAME_START.match(words[-1])):
            return False
        # (Both ends are capitalised: the words between are left to test.)
        return len(words) <= 2 or all(map(self._title_word, words[1:-1]))

    def _title_word(self, word: str) -> bool:
        """`word` may stand inside a title: capitalised, or a small word of titles. The
        answer's words recur in span after span: each is read once."""
        titled = self._title_words.get(word)
        if titled is None:
            titled = self._title_words[word] = bool(
                NAME_START.match(word) or word.lower() in TITLE_SMALL_WORDS)
        return titled

    def _ends_free(self, end: int) -> bool:
        """No capitalised word runs on after `end`."""
        free = self._free_after.get(end)
        if free is None:
            tail = self.raw[end:end + NEAR]
            after = _NEXT_WORD.match(tail)
            # A capitalised word on either side makes it part of a longer name; a bracket
            # or quote between them is a boundary.
            glued = (after and CAPITAL_OR_DIGIT.match(after.group(1)) and tail[:1] == " ",
                     _RUNS_ON.match(tail))  # a word hyphenated onto another
            free = self._free_after[end] = not any(glued)
        return free

    def _opens_free(self, start: int) -> bool:
        """No capitalised word runs into `start` (`glued_before`)."""
        free = self._free_before.get(start)
        if free is None:
            free = self._free_before[start] = not self.glued_before(start)
        return free

    def glued_before(self, start: int) -> bool:
        """A capitalised word runs into `start`, other than an article or the last word of
        a sentence."""
        head = self.raw[max(0, start - NEAR):start]
        if head and (head[-1].isalnum() or head[-1] in "-–"):
            return True
        last = head.rsplit(None, 1)  # the word before `start`, if any
        word = last[-1].lstrip("\"“‘'([") if last else ""
        return bool(CAPITAL_OR_DIGIT.match(word) and _WORD_END.search(word)
                    and word not in CAPITALISED_ARTICLES
                    and not head.rstrip().rstrip("\"'”’)]").endswith((".", ":", "!", "?")))


def opens_sentence(raw: str, start: int) -> bool:
    """Nothing but a sentence end or a colon comes before `start` in `raw`."""
    head = raw[max(0, start - NEAR):start].rstrip()
    return not head or head.endswith((".", "!", "?", ":"))


def written_form(name: str, written: Written, question: str = "") -> str:
    """`name` as the answer writes it when it writes it as a name, else as given. A role or
    an award the question names by its first word takes the longer name ("played Scarlett");
    elsewhere a place never becomes the longer name of a person it heads."""
    if not (name[:1].isalnum() and name[-1:].isalnum()):
        return name  # the fold drops end marks the name needs: "70%"
    spans = written.names(name) or written.names(without_expansion(name))
    if spans:
        return written.raw[spans[0][0]:spans[0][1]]
    return (_longer(name, written) if role_name(question, name) else None) or name


def without_expansion(name: str) -> str:
    """`name` without the words an abbreviation inside it spells out: "American Film
    Institute AFI Life Achievement Award" is also written "AFI Life Achievement Award"
    ("" when it holds no such pair)."""
    words = name.split()
    for k, word in enumerate(words):
        n = len(word)
        if n >= 2 and word.isupper() and word.isalpha() and k >= n and all(
                w[:1] == c for w, c in zip(words[k - n:k], word)):
            return " ".join(words[:k - n] + words[k:])
    return ""


# At most two capitalised words run on, whatever follows: a longer run is a cast list or an
# infobox row.
_RIGHT = re.compile(r"(?:\s+[A-Z][\w'’-]*(?![\w.])){1,3}")


def _longer(name: str, written: Written) -> str | None:
    """The one longer name the answer writes `name` at the head of, when it never writes
    it alone (a character's first name, an award's first word). Only rightwards: a word
    before a name is as often a title or another name."""
    raw, runs = written.raw, []
    if len(name.split()) > 1:
        return None  # a word after a name of two words is a second name, not its rest
    for s, e in written.spans(name):
        tail = raw[e:e + NEAR]
        if re.match(r"['’]s\b", tail) or re.search(r"[\"“”()]", raw[s:e]) or (
                written.glued_before(s) and not re.search(r"\d\s+$", raw[max(0, s - 9):s])):
            continue  # a possessive or a run of names names something else
        right = _RIGHT.match(tail)
        words = right.group(0).split() if right else []
        cut = next((k for k, w in enumerate(words) if w.lower() in JOINING_WORDS), len(words))
        words = words[:cut]  # an office "of" a place is no name
        if not words or len(words) > 2:
            return None
        runs.append((s, e, words))
    if not runs:
        return None
    n = min(len(w) for _, _, w in runs)
    while n and len({tuple(w[:n]) for _, _, w in runs}) > 1:
        n -= 1
    s, e, words = runs[0]
    return " ".join([raw[s:e]] + words[:n]) if n else None
