"""The API key kept out of everything the LLM path keeps or shows.

A server may echo the key (in an error body, or inside a reply the model wrote), whole or in
part. Every string that comes back from the endpoint passes through `redact` before it is
cut short, parsed, cached, written into a record or put in a message: any run of it that
matches a piece of the key at least `FRAGMENT` characters long becomes `MASK`. The
`Authorization` header the client sends is `Bearer <key>`, so masking the key masks it too.
"""

from __future__ import annotations

import os
import re
from functools import cache

KEY_ENV = "OPENAI_API_KEY"
FRAGMENT = 7  # shorter pieces are too common in ordinary text to hide
MASK = "***"


def redact(text: str) -> str:
    """`text` with every piece of the key of `FRAGMENT` or more characters masked."""
    key = os.environ.get(KEY_ENV) or ""
    if len(key) < FRAGMENT or not text:
        return text
    pattern = _pattern(key)
    if not pattern.search(text):
        return text
    grams = _grams(key)
    out: list[str] = []
    at = 0
    for found in pattern.finditer(text):
        start, end = found.span()
        if start < at:
            continue
        # A match is one piece; the run of the key around it may go on either side.
        while start > 0 and text[start - 1:start - 1 + FRAGMENT] in grams:
            start -= 1
        while end < len(text) and text[end + 1 - FRAGMENT:end + 1] in grams:
            end += 1
        start = max(start, at)
        out += [text[at:start], MASK]
        at = end
    out.append(text[at:])
    return "".join(out)


@cache
def _pattern(key: str) -> re.Pattern[str]:
    return re.compile("|".join(re.escape(g) for g in sorted(_grams(key))))


@cache
def _grams(key: str) -> frozenset[str]:
    return frozenset(key[i:i + FRAGMENT] for i in range(len(key) - FRAGMENT + 1))
