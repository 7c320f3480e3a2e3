"""What a reply cut off at the token limit still says: the array items it finished.

A server stops a reply at its token limit (`finish_reason: "length"`) wherever it is, inside
a string or an object, so the text is not JSON. A small model at temperature 0 gets there by
repeating items until the limit; asked again, it repeats again. Rather than fail, the reply
keeps what the model finished: the top-level members read whole, and of the array the cut
fell in, every item read whole (each by the standard JSON decoder, so an item is kept only
when it is complete). An item repeated verbatim is kept once: the repetition is what ran to
the limit. A reply model opts in by deriving from `Salvageable`; the record says what was
kept (docs/llm-servers.md).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from pydantic import BaseModel, PrivateAttr, ValidationError

# The cache entry of a salvaged reply carries its note under this key, which no reply field
# can have (pydantic fields do not start with "_").
CACHE_KEY = "_cut"
_DECODER = json.JSONDecoder(strict=False)  # as a whole reply is read (endpoint.py)
_SPACE = " \t\n\r"


@dataclass(frozen=True)
class Cut:
    """How a cut reply was salvaged: the array cut, the items kept and the repeats dropped."""

    array: str
    kept: int
    repeats: int
    limit: int | None  # the max_tokens sent (None: the server's own limit)


class Salvageable(BaseModel):
    """A reply model whose replies cut at the token limit keep their finished items."""

    _cut: Cut | None = PrivateAttr(default=None)

    @property
    def cut(self) -> Cut | None:
        """How the reply was salvaged, or None for a reply the model finished."""
        return self._cut

    def noted(self, cut: Cut | None) -> Salvageable:
        """This reply, with how it was salvaged."""
        self._cut = cut
        return self


def salvage(text: str, model: type[BaseModel], limit: int | None) -> BaseModel | None:
    """The finished part of a cut reply, valid against `model` and noted, or None.

    None when `model` does not opt in, when the cut fell before any array item was finished,
    or when what was finished is not valid against `model` (the reply then gets a repair call).
    """
    if not issubclass(model, Salvageable):
        return None
    found = _finished(text)
    if found is None:
        return None
    members, array = found
    items = members.get(array) if array is not None else None
    if array is None or not isinstance(items, list):
        return None
    unique: list[Any] = []
    for item in items:
        if item not in unique:
            unique.append(item)
    if not unique:
        return None
    members[array] = unique
    try:
        reply = model.model_validate(members)
    except ValidationError:
        return None
    return reply.noted(Cut(array=array, kept=len(unique), repeats=len(items) - len(unique), limit=limit))


def stored(reply: BaseModel) -> dict:
    """The cache entry of a validated reply (a salvaged one with its note)."""
    value = reply.model_dump(mode="json")
    if isinstance(reply, Salvageable) and reply.cut is not None:
        value[CACHE_KEY] = asdict(reply.cut)
    return value


def restored(value: dict, model: type[BaseModel]) -> BaseModel:
    """The reply of a cache entry written by `stored`; `ValueError` when it is not one."""
    value = dict(value)
    note = value.pop(CACHE_KEY, None)
    reply = model.model_validate(value)
    if note is None:
        return reply
    if not isinstance(reply, Salvageable) or not isinstance(note, dict):
        raise ValueError(f"a cut note on a {model.__name__}, which is never salvaged")
    try:
        return reply.noted(Cut(**note))
    except TypeError as exc:
        raise ValueError(f"a damaged cut note: {exc}") from None


def _finished(text: str) -> tuple[dict[str, Any], str | None] | None:
    """The top-level object's members read whole, and the name of the array the cut fell in.

    That array's value is the list of its items read whole. None when the text does not open
    an object.
    """
    at = _skip(text, 0)
    if not text.startswith("{", at):
        return None
    members: dict[str, Any] = {}
    at = _skip(text, at + 1)
    while True:
        name, at = _value(text, at)
        if not isinstance(name, str):
            return members, None
        at = _skip(text, at)
        if not text.startswith(":", at):
            return members, None
        at = _skip(text, at + 1)
        value, end = _value(text, at)
        if end == at:  # the cut fell in this member's value
            if text.startswith("[", at):
                members[name] = _items(text, at + 1)
                return members, name
            return members, None
        members[name] = value
        at = _skip(text, end)
        if not text.startswith(",", at):
            return members, None
        at = _skip(text, at + 1)


def _items(text: str, at: int) -> list[Any]:
    """The items of an array, from just after its "[", read whole up to the cut."""
    items: list[Any] = []
    while True:
        start = _skip(text, at)
        item, end = _value(text, start)
        if end == start:
            return items
        items.append(item)
        at = _skip(text, end)
        if not text.startswith(",", at):
            return items
        at += 1


def _value(text: str, at: int) -> tuple[Any, int]:
    """The JSON value starting at `at` and where it ends; (None, at) when it is not read whole.

    A number is whole only when something follows it: "12" may be the cut "123".
    """
    try:
        value, end = _DECODER.raw_decode(text, at)
    except ValueError:
        return None, at
    if isinstance(value, int | float) and not isinstance(value, bool) and _skip(text, end) >= len(text):
        return None, at
    return value, end


def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at] in _SPACE:
        at += 1
    return at
