"""Building derived tables: a subset names only words its table already holds."""

from __future__ import annotations


def words(text: str) -> frozenset[str]:
    """A table written as whitespace-separated words."""
    return frozenset(text.split())


def subset(table: frozenset[str], text: str) -> frozenset[str]:
    """The words of `text`, each of which must be in `table` (a typo fails at import)."""
    picked = words(text)
    missing = picked - table
    if missing:
        raise ValueError(f"not in the table: {sorted(missing)}")
    return picked
