"""What a model's answer says about itself (docs/metrics.md): a refusal to answer, and a long
answer in a language the rules path does not read. Pure functions over the record's text."""

from __future__ import annotations

import re
from collections import Counter

from ..lexicon.prose import ENGLISH, OTHER_LANGUAGES, REFUSAL, REFUSAL_ANSWER, YES_OR_NO
from ..models import Signal

__all__ = ["refusal", "language", "signals"]

_WORD = re.compile(r"[^\W\d_]+", re.U)
# Below this many words, function-word shares say nothing.
_MIN_WORDS = 8
# `REFUSAL` without its case-blindness, for lowercased ASCII text: its words are written in
# lowercase, so there it finds the same spans, in about half the time (a case-blind search
# tries every alternative at every position). None if the pattern ever holds a capital.
_REFUSAL_LOWER = (re.compile(REFUSAL.pattern, REFUSAL.flags & ~re.IGNORECASE)
                  if REFUSAL.pattern == REFUSAL.pattern.lower() else None)


def _tables_of() -> dict[str, tuple[str, ...]]:
    """Each table word and the codes of the tables that list it ("" for English)."""
    out: dict[str, tuple[str, ...]] = {}
    for code, table in (("", ENGLISH), *OTHER_LANGUAGES.items()):
        for word in table:
            out[word] = (*out.get(word, ()), code)
    return out


# An answer's words are looked up once here, where asking each table of its few dozen
# words costs more.
_TABLES_OF = _tables_of()


def refusal(answer: str, long_answer: str, asks_a_thing: bool = False) -> str | None:
    """The words that refuse, when the short answer only refuses ("Unknown", "None"; "Yes"
    or "No" when the question `asks_a_thing`, not a yes or no) or the long answer refuses
    without writing the short answer."""
    if REFUSAL_ANSWER.match(answer) or (asks_a_thing and YES_OR_NO.match(answer)):
        return answer.strip()
    said = _refusing_words(long_answer)
    if said is None:
        return None
    short = answer.strip().strip(".").casefold()
    return said if not short or short not in long_answer.casefold() else None


def _refusing_words(long_answer: str) -> str | None:
    """The first words of `long_answer` that `REFUSAL` matches, or None."""
    if _REFUSAL_LOWER is not None and long_answer.isascii():
        # ASCII lowercasing keeps every character where it was: the span is the original's.
        m = _REFUSAL_LOWER.search(long_answer.lower())
        return None if m is None else long_answer[m.start():m.end()]
    m = REFUSAL.search(long_answer)
    return None if m is None else m.group(0)


def language(long_answer: str) -> str | None:
    """The code of another language whose function words outnumber English ones, or None."""
    # Casefolding ASCII text first splits it the same; elsewhere it may not ("İ" → "i̇").
    tokens = Counter(_WORD.findall(long_answer.casefold()) if long_answer.isascii()
                     else (w.casefold() for w in _WORD.findall(long_answer)))
    if tokens.total() < _MIN_WORDS:
        return None
    # How many words of the answer each table lists.
    share = dict.fromkeys(("", *OTHER_LANGUAGES), 0)
    for word in tokens.keys() & _TABLES_OF.keys():
        for code in _TABLES_OF[word]:
            share[code] += tokens[word]
    english = share[""]
    best, count = max(((code, share[code]) for code in OTHER_LANGUAGES), key=lambda x: x[1])
    # Shared words ("die", "in", "a") count for both; another language must clearly lead.
    return best if count >= 3 and count > 2 * english else None


def signals(answer: str, long_answer: str, asks_a_thing: bool = False) -> list[Signal]:
    """`refusal` (hard) and `unsupported_language` (hard) for one record (`asks_a_thing`:
    the question asks for a thing, not a yes or no)."""
    out = []
    refused = refusal(answer, long_answer, asks_a_thing)
    if refused is not None:
        out.append(Signal(kind="refusal", severity="hard",
                          message=f"the answer refuses: '{refused[:80]}'"))
    lang = language(long_answer)
    if lang is not None:
        out.append(Signal(kind="unsupported_language", severity="hard",
                          message=f"the long answer reads as '{lang}', not English; the rules "
                                  "path reads English only, so its verdict means nothing here"))
    return out
