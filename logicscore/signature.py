"""Reproducibility signatures: `key:value|key:value`, fixed order, version first.

Built from the live, configured objects (not CLI flags), so library and CLI users get the
same string. Any option that can change a score must appear here.
"""

from __future__ import annotations

from collections.abc import Iterable


def _fmt(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


class Signature:
    """An ordered set of (key, value) parts; `None` values are left out."""

    def __init__(self, parts: Iterable[tuple[str, object]] = ()):
        self.parts: list[tuple[str, str]] = []
        for key, value in parts:
            self.add(key, value)

    def add(self, key: str, value: object) -> None:
        if value is None:
            return
        if "|" in key or ":" in key:
            raise ValueError(f"signature key {key!r} may not contain '|' or ':'")
        text = _fmt(value).replace("|", "/")
        self.parts.append((key, text))

    def format(self) -> str:
        return "|".join(f"{k}:{v}" for k, v in self.parts)

    @classmethod
    def parse(cls, text: str) -> Signature:
        sig = cls()
        for item in text.split("|"):
            key, sep, value = item.partition(":")
            if not sep:
                raise ValueError(f"malformed signature part {item!r}: expected key:value")
            sig.parts.append((key, value))
        return sig

    def as_dict(self) -> dict[str, str]:
        return dict(self.parts)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Signature) and self.parts == other.parts

    def __str__(self) -> str:
        return self.format()


def differences(old: str, new: str) -> list[str]:
    """'key: OLD → NEW' for each key whose value differs between two signatures, in the
    order the keys appear ('(none)' for a key one of them lacks)."""
    try:
        a, b = Signature.parse(old).as_dict(), Signature.parse(new).as_dict()
    except ValueError:
        return [f"signature: {old!r} → {new!r}"]
    keys = [*a, *(k for k in b if k not in a)]
    return [f"{k}: {a.get(k, '(none)')} → {b.get(k, '(none)')}" for k in keys if a.get(k) != b.get(k)]
