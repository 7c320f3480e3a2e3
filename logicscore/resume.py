"""What an existing output file holds, read back for `--resume` (docs/reliability.md).

`scan_output` is lenient (it counts what it can read); `scan_for_resume` is strict: it stops
at the first line a resumed run cannot build on and says why.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field as _field
from pathlib import Path

from pydantic import ValidationError

from .models import AuditResult


# The one bound of a line, for every reader (docs/reliability.md, "Every reader has one
# bound"); `logicscore.io` reads input lines with it too.
MAX_LINE_BYTES = 50_000_000


def _lines(fh) -> Iterator[bytes]:
    """The file's lines, each read up to `MAX_LINE_BYTES` (+1, so an overlong one shows)."""
    while raw := fh.readline(MAX_LINE_BYTES + 1):
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            while (rest := fh.readline(1 << 20)) and not rest.endswith(b"\n"):
                pass  # the rest of an overlong line, never held
            raw = raw[:MAX_LINE_BYTES + 1] + b"\n" if rest else raw
        yield raw


@dataclass
class OutputState:
    """What an existing output file already holds (for `--resume`)."""

    done: set[int] = _field(default_factory=set)           # input line numbers written
    signatures: Counter = _field(default_factory=Counter)  # meta.signature -> records
    torn: bool = False                                    # last line has no newline


def scan_output(path: Path) -> OutputState:
    """Read an output file without changing it: lines done, signatures, a torn last line."""
    state = OutputState()
    if not path.exists():
        return state
    with path.open("rb") as fh:  # streamed: memory stays flat in output size
        for raw in _lines(fh):
            if not raw.endswith(b"\n"):
                state.torn = True  # cut by `done_lines`, redone by the resumed run
                break
            try:
                meta = json.loads(raw)["meta"]
                line, signature = meta["line"], meta.get("signature")
                agent = meta.get("agent")
            except (ValueError, KeyError, TypeError, AttributeError):
                continue
            if isinstance(signature, str) and isinstance(agent, dict) and isinstance(agent.get("signature"), str):
                signature = f"{signature}|{agent['signature']}"  # `assess`: its agent must match too
            if isinstance(line, int) and not isinstance(line, bool):
                state.done.add(line)
                if isinstance(signature, str):
                    state.signatures[signature] += 1
    return state


@dataclass
class Damage:
    """The first output line `--resume` cannot build on, and the good prefix before it."""

    line: int    # physical line of the output file
    offset: int  # bytes before that line: the records a repair keeps
    reason: str


@dataclass
class ResumeState(OutputState):
    """An output read for `--resume`: the records in order (ids and where each starts), and
    the first damaged line, if any. Records must be input lines 1, 2, 3, … in order, as
    `score` writes them."""

    ids: list[str | None] = _field(default_factory=list)
    # Each record's question and short answer (None with `score --no-text`): an id-less
    # input's ids are its line numbers, so only the text tells a moved line.
    texts: list[tuple[str | None, str | None]] = _field(default_factory=list)
    offsets: list[int] = _field(default_factory=list)
    damage: Damage | None = None


def scan_for_resume(path: Path) -> ResumeState:
    """Read an output file without changing it, stopping at its first damaged line: one that
    is not a result record, or whose input line is not the next one (a record lost, repeated
    or moved). A torn last line (no newline: the run died mid-write) is not damage."""
    state = ResumeState()
    if not path.exists():
        return state
    offset = 0
    with path.open("rb") as fh:
        for number, raw in enumerate(_lines(fh), start=1):
            if not raw.endswith(b"\n"):
                state.torn = True
                break
            expected = len(state.offsets) + 1
            if len(raw) > MAX_LINE_BYTES:
                state.damage = Damage(number, offset, f"is over the {MAX_LINE_BYTES:,}-byte line limit")
                break
            try:
                result = AuditResult.model_validate_json(raw)
            except ValidationError:
                state.damage = Damage(number, offset, "is not a result record (cut, merged or edited)")
                break
            line = result.meta.line
            if line != expected:
                state.damage = Damage(number, offset, f"holds input line {line} where input line "
                                      f"{expected} was expected (a record is missing, repeated or "
                                      "out of order)")
                break
            signature = result.meta.signature
            if result.meta.agent is not None:
                signature = f"{signature}|{result.meta.agent.signature}"  # `assess`: its agent too
            state.done.add(line)
            state.signatures[signature] += 1
            state.ids.append(result.id)
            state.texts.append((result.question, result.answer))
            state.offsets.append(offset)
            offset += len(raw)
    return state


def done_lines(path: Path) -> set[int]:
    """Input line numbers already written to an output file (for `--resume`).

    A torn last line (the run was killed mid-write) is cut off so appending continues cleanly.
    """
    if not path.exists():
        return set()
    cut_torn_tail(path)
    return scan_output(path).done


def cut_torn_tail(path: Path) -> None:
    """Truncate the file after its last newline (a record half-written when the run died)."""
    with path.open("r+b") as fh:
        end = fh.seek(0, os.SEEK_END)
        pos = end
        while pos > 0:
            step = min(pos, 1 << 16)
            fh.seek(pos - step)
            block = fh.read(step)
            cut = block.rfind(b"\n")
            if cut >= 0:
                pos = pos - step + cut + 1
                break
            pos -= step
        if pos != end:
            fh.truncate(pos)
