"""Comparable numbers from the values an answer states: a date, a count, a year."""

from __future__ import annotations

import re

from ...lexicon.dates import MONTHS
from ...lexicon.questions import COUNT_VALUES, SCALE_VALUES

_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
_YEAR = re.compile(r"\b(\d{3,4})\b")
_NUMBER = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*(thousand|million|billion)?", re.IGNORECASE)
_MONTH = re.compile(rf"\b({'|'.join(MONTHS)})\b", re.IGNORECASE)
_DAY = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\b")


def number(value: str) -> float | None:
    """A comparable number for a date ("May 22, 1859" → 1859.0522) or a count ("1.2 million")."""
    year = _YEAR.findall(value)
    month = _MONTH.search(value)
    if year and (month or re.fullmatch(r"\s*\d{3,4}\s*", value)):
        y = float(year[-1])
        if month:
            m = MONTHS.index(month.group(1).lower()) + 1
            rest = value[:month.start()] + value[month.end():]
            day = _DAY.search(rest.replace(year[-1], ""))
            return y + m / 100 + (int(day.group(1)) / 10000 if day else 0)
        return y
    found = _NUMBER.search(value)
    if found:
        n = float(found.group(1).replace(",", ""))
        return n * SCALE_VALUES.get((found.group(2) or "").lower(), 1)
    for w in _WORD.findall(value.lower()):
        if w in COUNT_VALUES:
            return float(COUNT_VALUES[w])
    return None
