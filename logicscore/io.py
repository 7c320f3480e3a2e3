"""JSONL in and out: field aliases, `--map`, line numbers, append-and-flush output, resume.

Reading never raises on a bad line: it yields an `InputLine` carrying a typed `InputError`,
so every input line becomes exactly one output record downstream.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from pydantic import ValidationError

from .errors import InputError
from .models import AuditResult, QARecord

# Our field → the names RAG tools commonly use for it, in order of preference.
ALIASES: dict[str, tuple[str, ...]] = {
    "id": ("id", "_id", "qid", "question_id", "uid"),
    "question": ("question", "query", "input", "user_input"),
    "answer": ("answer", "short_answer", "final_answer"),
    "long_answer": ("long_answer", "response", "output", "prediction", "generated_answer"),
    "question_entities": ("question_entities",),
    "gold_answer": ("gold_answer", "ground_truth", "reference"),
    "hops": ("hops",),
    "documents": ("documents",),
    "propositions": ("propositions",),
    "meta": ("meta", "metadata"),
}

MAX_LINE_BYTES = 50_000_000


@dataclass(frozen=True)
class InputLine:
    """One physical input line: a record, or the error that stopped it being one."""

    number: int
    record: QARecord | None = None
    error: InputError | None = None
    id: str | None = None


def parse_map(pairs: Iterable[str]) -> dict[str, str]:
    """Turn `dst=src` strings into a mapping; `src` may be a dotted path into nested objects."""
    mapping: dict[str, str] = {}
    for pair in pairs:
        dst, sep, src = pair.partition("=")
        dst, src = dst.strip(), src.strip()
        if not sep or not dst or not src:
            raise ValueError(f"--map expects dst=src (e.g. long_answer=outputs.text), got {pair!r}")
        if dst not in ALIASES:
            known = ", ".join(ALIASES)
            raise ValueError(f"--map target {dst!r} is not a record field; fields: {known}")
        mapping[dst] = src
    return mapping


def _lookup(obj: dict[str, Any], path: str) -> tuple[bool, Any]:
    cur: Any = obj
    for part in path.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return False, None
        cur = cur[part]
    return True, cur


def to_record(obj: Any, line: int, mapping: dict[str, str] | None = None) -> QARecord:
    """Build a `QARecord` from one decoded JSON value, or raise `InputError` naming the fields."""
    if not isinstance(obj, dict):
        raise InputError(f"line {line}: expected a JSON object, got {type(obj).__name__}", line=line)
    mapping = mapping or {}
    data: dict[str, Any] = {}
    for field, names in ALIASES.items():
        candidates = (mapping[field],) if field in mapping else names
        for name in candidates:
            found, value = _lookup(obj, name)
            if found and value is not None:
                data[field] = value
                break
    data.setdefault("id", str(line))
    if isinstance(data["id"], (int, float)) and not isinstance(data["id"], bool):
        data["id"] = str(data["id"])
    missing = [f for f in ("question", "answer", "long_answer") if f not in data]
    if missing:
        hint = " or ".join(ALIASES[missing[0]])
        raise InputError(
            f"line {line}: missing {', '.join(missing)} (accepted names for {missing[0]}: {hint};"
            f" or pass --map {missing[0]}=YOUR_FIELD)",
            line=line,
        )
    try:
        return QARecord.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in exc.errors()
        )
        raise InputError(f"line {line}: {problems}", line=line) from None


def _best_id(obj: Any) -> str | None:
    if isinstance(obj, dict):
        for name in ALIASES["id"]:
            value = obj.get(name)
            if isinstance(value, (str, int)) and not isinstance(value, bool):
                return str(value)
    return None


def parse_line(raw: bytes, number: int, mapping: dict[str, str] | None = None) -> InputLine:
    """Decode one physical line (BOM, CRLF and bad UTF-8 tolerated or reported)."""
    if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    raw = raw.rstrip(b"\r\n")
    if len(raw) > MAX_LINE_BYTES:
        return InputLine(number, error=InputError(
            f"line {number}: {len(raw)} bytes is over the {MAX_LINE_BYTES}-byte line limit", line=number))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return InputLine(number, error=InputError(
            f"line {number}: not valid UTF-8 at byte {exc.start}; re-encode the file as UTF-8",
            line=number))
    if not text.strip():
        return InputLine(number, error=InputError(f"line {number}: blank line", line=number))
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        return InputLine(number, error=InputError(
            f"line {number}: invalid JSON ({exc.msg} at column {exc.colno})", line=number))
    except RecursionError:
        return InputLine(number, error=InputError(f"line {number}: JSON nested too deeply", line=number))
    try:
        return InputLine(number, record=to_record(obj, number, mapping), id=_best_id(obj))
    except InputError as exc:
        return InputLine(number, error=exc, id=_best_id(obj))


def read_lines(source: IO[bytes], mapping: dict[str, str] | None = None, skip: set[int] | None = None
               ) -> Iterator[InputLine]:
    """Yield one `InputLine` per physical line of a binary JSONL stream, in order."""
    skip = skip or set()
    for number, raw in enumerate(source, start=1):
        if number in skip:
            continue
        yield parse_line(raw, number, mapping)


def count_lines(path: Path) -> int:
    """Physical lines in a file (a final line without a newline counts)."""
    count, last = 0, b"\n"
    with path.open("rb") as fh:
        while chunk := fh.read(1 << 20):
            count += chunk.count(b"\n")
            last = chunk[-1:]
    return count + (last != b"\n")


def done_lines(path: Path) -> set[int]:
    """Input line numbers already written to an output file (for `--resume`).

    A torn last line (the run was killed mid-write) is cut off so appending continues cleanly.
    """
    if not path.exists():
        return set()
    data = path.read_bytes()
    keep = data.rfind(b"\n") + 1
    if keep != len(data):
        with path.open("r+b") as fh:
            fh.truncate(keep)
    done: set[int] = set()
    for raw in data[:keep].splitlines():
        try:
            line = json.loads(raw)["meta"]["line"]
        except (ValueError, KeyError, TypeError):
            continue
        if isinstance(line, int):
            done.add(line)
    return done


class ResultWriter:
    """Appends one JSON line per result and flushes it, so a killed run loses nothing written."""

    def __init__(self, target: IO[str], fsync: bool = False):
        self.target = target
        self.fsync = fsync

    def write(self, result: AuditResult) -> None:
        self.target.write(result.to_json() + "\n")
        self.target.flush()
        if self.fsync:
            os.fsync(self.target.fileno())


def read_results(path: Path) -> Iterator[AuditResult]:
    """Read an output JSONL back into `AuditResult`s (for report, gate, explain)."""
    with path.open("r", encoding="utf-8") as fh:
        for number, line in enumerate(fh, start=1):
            if line.strip():
                try:
                    yield AuditResult.model_validate_json(line)
                except ValidationError as exc:
                    raise InputError(f"{path}:{number}: not a logicscore result ({exc.error_count()} "
                                     "errors); was it written by `logicscore score`?", line=number) from None
