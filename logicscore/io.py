"""JSONL in and out: field aliases, `--map`, line numbers, append-and-flush output, resume.

Reading never raises on a bad line: it yields an `InputLine` carrying a typed `InputError`,
so every input line becomes exactly one output record downstream.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from pydantic import ValidationError

from .errors import InputError
from .models import AuditResult, ErrorInfo, QARecord, ResultMeta

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
# Deeper JSON cannot be written back out (pydantic stops near 255 levels); no record needs it.
MAX_DEPTH = 100
_SURROGATE = re.compile("[\ud800-\udfff]")
# Valid inside JSON strings, but str.splitlines() and older JSON parsers (JavaScript before
# ES2019) break lines there; escaping them keeps one record per line for every reader.
_UNICODE_BREAKS = {0x85: "\\u0085", 0x2028: "\\u2028", 0x2029: "\\u2029"}


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


def _too_deep(obj: Any, limit: int) -> bool:
    stack = [(obj, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def _has_surrogate(obj: Any) -> bool:
    try:
        return _walk_surrogate(obj)
    except RecursionError:  # nested near json's own limit: too deep to be a record anyway
        return True


def _walk_surrogate(obj: Any) -> bool:
    if isinstance(obj, str):
        return _SURROGATE.search(obj) is not None
    if isinstance(obj, dict):
        return any(_walk_surrogate(k) or _walk_surrogate(v) for k, v in obj.items())
    if isinstance(obj, list):
        return any(_walk_surrogate(v) for v in obj)
    return False


def parse_line(raw: bytes, number: int, mapping: dict[str, str] | None = None) -> InputLine:
    """Decode one physical line (BOM, CRLF and bad UTF-8 tolerated or reported)."""
    # A BOM starts the file, or a later line when files were concatenated (`cat a b`).
    if raw.startswith(b"\xef\xbb\xbf"):
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
    except ValueError as exc:  # e.g. an integer over Python's 4300-digit conversion limit
        reason = str(exc).split(";")[0]
        return InputLine(number, error=InputError(f"line {number}: invalid JSON ({reason})", line=number))
    if "\\u" in text and _has_surrogate(obj):
        # A lone surrogate escape ("\\ud800") decodes but cannot be written back as UTF-8.
        record_id = _best_id(obj)
        return InputLine(number, id=None if record_id is None or _has_surrogate(record_id) else record_id,
                         error=InputError(
            f"line {number}: a string holds a lone UTF-16 surrogate escape (\\ud800-\\udfff), "
            "which is not valid Unicode; fix the producer's JSON encoding", line=number))
    if _too_deep(obj, MAX_DEPTH):
        return InputLine(number, id=_best_id(obj), error=InputError(
            f"line {number}: JSON nested deeper than {MAX_DEPTH} levels", line=number))
    try:
        return InputLine(number, record=to_record(obj, number, mapping), id=_best_id(obj))
    except InputError as exc:
        return InputLine(number, error=exc, id=_best_id(obj))


def read_lines(source: IO[bytes], mapping: dict[str, str] | None = None, skip: set[int] | None = None
               ) -> Iterator[InputLine]:
    """Yield one `InputLine` per physical line of a binary JSONL stream, in order."""
    skip = skip or set()
    number = 0
    while raw := source.readline(MAX_LINE_BYTES + 1):
        number += 1
        oversize = len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n")
        while oversize and (rest := source.readline(1 << 20)):  # drop the rest, memory stays bounded
            if rest.endswith(b"\n"):
                break
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
    _cut_torn_tail(path)
    done: set[int] = set()
    with path.open("rb") as fh:  # streamed: memory stays flat in output size
        for raw in fh:
            try:
                line = json.loads(raw)["meta"]["line"]
            except (ValueError, KeyError, TypeError):
                continue
            if isinstance(line, int):
                done.add(line)
    return done


def _cut_torn_tail(path: Path) -> None:
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


class ResultWriter:
    """Appends one JSON line per result and flushes it, so a killed run loses nothing written."""

    def __init__(self, target: IO[str], fsync: bool = False):
        self.target = target
        self.fsync = fsync

    def write(self, result: AuditResult) -> None:
        try:
            line = _line(result)
        except (ValueError, TypeError) as exc:  # unserializable: the line still gets a record
            line = _line(_unwritable(result, exc))
        self.target.write(line + "\n")
        self.target.flush()
        if self.fsync:
            os.fsync(self.target.fileno())


def _line(result: AuditResult) -> str:
    line = result.to_json()
    if not line.isascii():
        line = line.translate(_UNICODE_BREAKS)
        line.encode("utf-8")  # raises on a lone surrogate before anything reaches the file
    return line


def _unwritable(result: AuditResult, exc: Exception) -> AuditResult:
    record_id = result.id
    if record_id is not None and _SURROGATE.search(record_id):
        record_id = None
    line = result.meta.line
    return AuditResult(
        id=record_id, status="error",
        error=ErrorInfo(type="RuntimeError", line=line,
                        message=f"result could not be written as JSON ({type(exc).__name__}: {exc})"[:2000]),
        meta=ResultMeta(signature=result.meta.signature, line=line, hops=result.meta.hops),
    )


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
