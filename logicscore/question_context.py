"""Question entities read against the long answer (SPEC §4.3): a title the answer writes
out in full, and lowercase question words the answer writes as a name."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from .nlp import unknown_word
from .question import CONNECTORS, TITLE_CONNECTORS, WH_WORDS, _end, is_generic

_FOLD = re.compile(r"[^0-9a-z]+")


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.replace("&", " and "))
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    return " " + " ".join(_FOLD.sub(" ", text).split()) + " "


_STOP_END = CONNECTORS | frozenset(TITLE_CONNECTORS) | WH_WORDS


def widen(doc: Any, spans: list[tuple[int, int, str]], context: str) -> list[tuple[int, int, str]]:
    """Replace candidates by the longest window around them that the context writes out."""
    haystack = _fold(context)
    toks = list(doc)
    starts = {t.idx: t.i for t in toks}
    ends = {_end(t): t.i for t in toks}
    wide: list[tuple[int, int, str]] = []
    for start, end, label in spans:
        a, b = starts.get(start), ends.get(end)
        if a is None or b is None or label == "QUOTE" or is_generic(doc.text[start:end]):
            continue
        best = None
        for i in range(max(0, a - 3), a + 1):
            first = toks[i]
            if i < a and not (first.is_title or first.like_num):
                continue
            for j in range(b, min(len(toks), b + 5)):
                last = toks[j]
                window = toks[i:j + 1]
                # Only capitalised words or numbers end a wider window: "Canadian rock band"
                # is a description, "Before Sunset" a title.
                if j > b and (last.lower_ in _STOP_END or not (last.is_title or last.like_num)):
                    continue
                if any(t.text in ("?", ",", ";", "(", ")", ":") for t in window):
                    break
                # Title words only ("Fox and the Hound"), never a description between two
                # names ("Channel coast to capture Boulogne").
                if not all(t.is_title or t.like_num or t.is_upper or t.lower_ in TITLE_CONNECTORS
                           or t.text in ("'s", "’s", "&", "-") for t in window):
                    continue
                # A window never cuts another candidate in two ("Seahawks in the National
                # Football" out of "… National Football League").
                lo, hi = first.idx, _end(last)
                if any(s0 < hi and lo < e0 and not (lo <= s0 and e0 <= hi) for s0, e0, _ in spans):
                    continue
                if (i, j) == (a, b):
                    continue
                found = f"{_fold(doc.text[first.idx:_end(last)])}" in haystack
                if found and (best is None or j - i > best[1] - best[0]):
                    best = (i, j)
        if best is not None:
            wide.append((toks[best[0]].idx, _end(toks[best[1]]), "CONTEXT"))
    kept: list[tuple[int, int, str]] = []
    for s in sorted(wide + spans, key=lambda s: (-(s[1] - s[0]), s[0])):
        if not any(s[0] < k[1] and k[0] < s[1] for k in kept):
            kept.append(s)
    return sorted(kept)


_WINDOW_STOP = WH_WORDS | TITLE_CONNECTORS | frozenset({"'s", "’s"})


def cased_by_context(doc: Any, spans: list[tuple[int, int, str]],
                      context: str) -> list[tuple[int, int, str]]:
    """Lowercase question words the long answer writes as a name: "leslie knope on parks and
    recreation" → "Leslie Knope", "Parks and Recreation". A window counts when the context
    writes it capitalised as a whole name (no capitalised word glued on either side) and
    never in lowercase; a single word also has to be no dictionary word ("king", "tony")."""
    toks = list(doc)
    found: list[tuple[int, int, str]] = []
    for i, first in enumerate(toks):
        if first.lower_ in _WINDOW_STOP or not first.is_alpha:
            continue
        for j in range(i, min(len(toks), i + 6)):
            last = toks[j]
            window = toks[i:j + 1]
            if any(t.is_punct and t.text not in ("-", "&", "'", "’") for t in window):
                break
            if not any(t.is_lower and t.is_alpha for t in window):
                continue  # wholly capitalised runs are the other detectors' job
            if last.lower_ in _WINDOW_STOP or not (last.is_alpha or last.like_num):
                continue
            text = doc.text[first.idx:_end(last)]
            if j == i and not unknown_word(_Capitalised(first)):
                continue
            if _written_as_name(text, context):
                found.append((first.idx, _end(last), "CASED"))
    haystack = _fold(context)
    kept = [s for s in spans if s[2] == "QUOTE"]
    # What the context writes out beats a longer span it never writes ("Family Ties in Back"
    # against "Back to the Future").
    absent = {s for s in spans if _fold(doc.text[s[0]:s[1]]) not in haystack}
    for s in sorted(spans + found, key=lambda s: (s in absent, -(s[1] - s[0]), s[0])):
        if s[2] != "QUOTE" and not any(s[0] < k[1] and k[0] < s[1] for k in kept):
            kept.append(s)
    return sorted(kept)


class _Capitalised:
    """A token seen as if capitalised, for the dictionary test of `unknown_word`."""

    def __init__(self, tok: Any):
        self.text = tok.text[:1].upper() + tok.text[1:]
        self.vocab, self.is_alpha, self.is_stop = tok.vocab, tok.is_alpha, tok.is_stop


_CAP_WORD = re.compile(r"[\"“‘'(]?[A-Z0-9]")


def _written_as_name(text: str, context: str) -> bool:
    def pattern(words: list[str]) -> str:
        return r"(?<![\w-])" + r"\s+".join(re.escape(w) for w in words) + r"(?![\w-])"

    if re.search(pattern(text.lower().split()), context):
        return False  # the context writes it lowercase too: a common phrase
    pattern = pattern(text.split())
    for m in re.finditer(pattern, context, re.I):
        written = m.group(0).split()
        if not (_CAP_WORD.match(written[0]) and _CAP_WORD.match(written[-1])):
            continue
        if not all(_CAP_WORD.match(w) or w.lower() in TITLE_CONNECTORS for w in written):
            continue
        before = re.search(r"(\S+)\s*$", context[:m.start()])
        after = re.match(r"\s*(\S+)", context[m.end():])
        glued = (before and before.group(1)[-1:].isalnum() and _CAP_WORD.match(before.group(1))
                 and before.group(1) not in ("The", "A", "An")
                 and m.start() > 0 and not context[:m.start()].rstrip().endswith((".", ":")),
                 after and _CAP_WORD.match(after.group(1)) and context[m.end():m.end() + 1] == " ")
        if not any(glued):
            return True
    return False
