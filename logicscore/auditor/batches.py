"""What the Auditor does around its stages for a stream: windows of records made ahead (the LLM
stages' `prepare`), records deferred to their window's grounding calls, invisible characters
blanked before any stage reads a record, error messages kept to one line."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import ConfigError
from ..models import QARecord
from ..pipeline.flow import Draft

MAX_ERROR_MESSAGE = 2000
# No content, but they derail the parser (a NUL or a bidi mark glued to a word becomes part of
# an entity) or a terminal (`explain` printing an escape sequence): C0/C1 controls other than
# tab/newline/CR, bidi marks, embeddings, overrides and isolates, the BOM, ANSI CSI sequences.
# Each is blanked to spaces of the same length, so spans still index the original text.
_INVISIBLE = re.compile(
    "\x1b\\[[0-?]*[ -/]*[@-~]"
    "|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]")


@dataclass
class Deferred:
    """A record audited up to grounding, waiting for its window's grounding calls."""

    draft: Draft
    start: float
    line: int | None


def prepare(hooks: list[Any], records: list[Any]) -> None:
    """Run the batch hooks over a window's records."""
    ready = [r for r in records if r is not None]
    for hook in hooks if ready else ():
        try:
            hook(ready)
        except ConfigError:
            raise
        except Exception:  # noqa: BLE001 - each record then runs alone and gets its own error
            pass


def windows(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    window: list[Any] = []
    for item in items:
        window.append(item)
        if len(window) == size:
            yield window
            window = []
    if window:
        yield window


def blank_invisible(record: QARecord) -> QARecord:
    """The record with invisible control and bidi characters blanked (same length)."""
    update = {}
    for field in ("question", "answer", "long_answer"):
        text = getattr(record, field)
        clean = _INVISIBLE.sub(lambda m: " " * len(m.group()), text)
        if clean != text:
            update[field] = clean
    return record.model_copy(update=update) if update else record


def clip(message: str) -> str:
    """Error messages stay one readable line even when an exception quotes a huge input."""
    if len(message) <= MAX_ERROR_MESSAGE:
        return message
    return message[:MAX_ERROR_MESSAGE] + f"… ({len(message) - MAX_ERROR_MESSAGE:,} more characters)"


