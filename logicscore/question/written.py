"""The long answer as a lookup of written names (SPEC §4.3): a name is found the way the
answer writes it, whatever the question's case and punctuation ("avengers age of ultron" is
"Avengers: Age of Ultron")."""

from __future__ import annotations

import re

from ..lexicon.function_words import TITLE_SMALL_WORDS
from ..lexicon.text import fold_char, key
from .forms import JOINING_WORDS, role_name

_CAP_WORD = re.compile(r"[\"“‘'(]?[A-Z0-9]")
_GLUE = re.compile(r"[A-Z0-9]")
NEAR = 80  # characters looked at around a match: words glued to it are close


def fold(text: str) -> str:
    return f" {key(text)} "


class Written:
    """The long answer folded for lookup (case, accents, punctuation, "&"), each folded
    character mapped back to the character it came from."""

    def __init__(self, text: str):
        chars, where = [" "], [0]
        for i, ch in enumerate(text):
            for c in fold_char(ch):
                if not (c == " " and chars[-1] == " "):
                    chars.append(c)
                    where.append(i)
        if chars[-1] != " ":
            chars.append(" ")
            where.append(len(text))
        self.raw, self.text, self.where = text, "".join(chars), where
        self._names: dict[str, list[tuple[int, int]]] = {}

    def __contains__(self, phrase: str) -> bool:
        return fold(phrase) in self.text

    def spans(self, phrase: str) -> list[tuple[int, int]]:
        """Where the answer writes `phrase`, as character spans of the raw text."""
        key = fold(phrase)
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
        if phrase not in self._names:
            self._names[phrase] = [s for s in self.spans(phrase) if self._is_name(*s)]
        return self._names[phrase]

    def lowercase(self, phrase: str) -> bool:
        """The answer also writes `phrase` in lowercase: a common phrase there."""
        return any(not any(c.isupper() for c in self.raw[s:e]) for s, e in self.spans(phrase))

    def _is_name(self, start: int, end: int) -> bool:
        if re.search(r"[\"“”()\[\]\n]", self.raw[start:end]):
            return False  # a quoted nickname inside a name does not write the nickname's name
        words = [w.strip(".,:;!?'‘’") for w in self.raw[start:end].split()]
        words = [w for w in words if w]
        if not words or not (_CAP_WORD.match(words[0]) and _CAP_WORD.match(words[-1])):
            return False
        if not all(_CAP_WORD.match(w) or w.lower() in TITLE_SMALL_WORDS for w in words):
            return False
        tail = self.raw[end:end + NEAR]
        after = re.match(r"\s*(\S+)", tail)
        # A capitalised word on either side makes it part of a longer name; a bracket or
        # quote between them is a boundary.
        glued = (after and _GLUE.match(after.group(1)) and tail[:1] == " ",
                 re.match(r"[-–]?\w|['’]s [A-Z]", tail))  # a word hyphenated onto another
        return not any(glued) and not self.glued_before(start)

    def glued_before(self, start: int) -> bool:
        """A capitalised word runs into `start`, other than an article or the last word of
        a sentence."""
        head = self.raw[max(0, start - NEAR):start]
        if head and (head[-1].isalnum() or head[-1] in "-–"):
            return True
        words = head.split()
        word = words[-1].lstrip("\"“‘'([") if words else ""
        return bool(_GLUE.match(word) and re.search(r"(?:\w|[a-z]['’])$", word)
                    and word not in ("The", "A", "An")
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
