"""JSONL in and out: field aliases, `--map`, line numbers, append-and-flush output, resume.

Reading never raises on a bad line: it yields an `InputLine` carrying a typed `InputError`,
so every input line becomes exactly one output record downstream. Every line has an id: the
record's own (`id`, `_id`, `qid`, … or the `--map id=` field), else its line number.
"""

from __future__ import annotations

import json
import math
import os
import re
import signal
import stat
import threading
from collections.abc import Iterable, Iterator
from contextlib import suppress
from dataclasses import dataclass
from io import TextIOBase
from pathlib import Path
from typing import IO, Any

from pydantic import ValidationError

from .errors import InputError
from .models import AuditResult, ErrorInfo, QARecord, ResultMeta
# What an existing output holds, read back for --resume; named here too, where readers of
# JSONL look for them.
from .resume import (MAX_LINE_BYTES, Damage, OutputState, ResumeState, cut_torn_tail,  # noqa: F401
                     done_lines, scan_for_resume, scan_output)

# Our field → the names RAG tools commonly use for it, in order of preference.
ALIASES: dict[str, tuple[str, ...]] = {
    "id": ("id", "_id", "qid", "question_id", "uid"),
    "question": ("question", "query", "input", "user_input"),
    "answer": ("answer", "short_answer", "final_answer"),
    "long_answer": ("long_answer", "response", "output", "prediction", "generated_answer"),
    "question_entities": ("question_entities",),
    "question_type": ("question_type",),
    "gold_answer": ("gold_answer", "ground_truth", "reference"),
    "hops": ("hops",),
    # The question's own sub-questions, read by `--hops given` (docs/usage.md).
    "question_hops": ("question_hops",),
    "documents": ("documents", "retrieved_contexts", "retrieval_context", "contexts"),
    "propositions": ("propositions",),
    "meta": ("meta", "metadata"),
}

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

    def __post_init__(self) -> None:
        # The id the record has or would have had: its own, else the line number.
        if self.id is None:
            own = self.record.id if self.record is not None else None
            object.__setattr__(self, "id", own if own is not None else str(self.number))


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


def lookup(obj: dict[str, Any], path: str) -> tuple[bool, Any]:
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
            found, value = lookup(obj, name)
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
        raise InputError(f"line {line}: {problems(exc)}", line=line) from None


def problems(exc: ValidationError) -> str:
    """A pydantic error as one line: `field.path: message; …`."""
    return "; ".join(f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in exc.errors())


def record_id(obj: Any, mapping: dict[str, str] | None = None) -> str | None:
    """The id `to_record` would give `obj` (same names, same `--map`), if it has a usable one."""
    if not isinstance(obj, dict):
        return None
    mapping = mapping or {}
    for name in (mapping["id"],) if "id" in mapping else ALIASES["id"]:
        found, value = lookup(obj, name)
        if not found or value is None:
            continue
        if isinstance(value, str):
            return None if _SURROGATE.search(value) else value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
        return None  # the first id field present decides, as in `to_record`
    return None


def _too_deep(obj: Any, limit: int) -> bool:
    stack = [(obj, 1)]
    while stack:
        value, depth = stack.pop()
        children: Iterable[Any]
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


class _NonFinite(ValueError):
    """A number JSON cannot write back (NaN, Infinity, 1e999): the record would be changed."""

    def __init__(self, literal: str):
        super().__init__(literal)
        self.literal = literal[:40]


def _non_finite(literal: str) -> float:
    raise _NonFinite(literal)


def _finite_float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise _NonFinite(literal)
    return value


def decode_line(raw: bytes, number: int) -> tuple[Any, InputError | None]:
    """Decode one physical line into a JSON value, or say why it is not one.

    A BOM is skipped, CR/LF stripped; bad UTF-8, blank lines, invalid JSON, a number that is
    not finite (NaN, Infinity, 1e999: written back it would be null), lone surrogate
    escapes, JSON deeper than `MAX_DEPTH` and lines over `MAX_LINE_BYTES` are `InputError`s
    (the decoded value comes back with the last two, so the caller can still read an id).
    """
    # A BOM starts the file, or a later line when files were concatenated (`cat a b`).
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    raw = raw.rstrip(b"\r\n")
    if len(raw) > MAX_LINE_BYTES:
        return None, InputError(
            f"line {number}: {len(raw)} bytes is over the {MAX_LINE_BYTES}-byte line limit", line=number)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, InputError(
            f"line {number}: not valid UTF-8 at byte {exc.start}; re-encode the file as UTF-8",
            line=number)
    if not text.strip():
        return None, InputError(f"line {number}: blank line", line=number)
    try:
        obj = json.loads(text, parse_constant=_non_finite, parse_float=_finite_float)
    except _NonFinite as exc:  # read again only for the id the error record keeps
        readable = json.loads(text, parse_constant=lambda _: None,
                              parse_float=lambda x: v if math.isfinite(v := float(x)) else None)
        return readable, InputError(
            f"line {number}: the number {exc.literal} is not finite, and JSON output cannot hold it; "
            f"write it as a string (\"{exc.literal}\") or as a finite number", line=number)
    except json.JSONDecodeError as exc:
        return None, InputError(
            f"line {number}: invalid JSON ({exc.msg} at column {exc.colno})", line=number)
    except RecursionError:
        return None, InputError(f"line {number}: JSON nested too deeply", line=number)
    except ValueError as exc:  # e.g. an integer over Python's 4300-digit conversion limit
        reason = str(exc).split(";")[0]
        return None, InputError(f"line {number}: invalid JSON ({reason})", line=number)
    if "\\u" in text and _has_surrogate(obj):
        # A lone surrogate escape ("\\ud800") decodes but cannot be written back as UTF-8.
        return obj, InputError(
            f"line {number}: a string holds a lone UTF-16 surrogate escape (\\ud800-\\udfff), "
            "which is not valid Unicode; fix the producer's JSON encoding", line=number)
    if _too_deep(obj, MAX_DEPTH):
        return obj, InputError(f"line {number}: JSON nested deeper than {MAX_DEPTH} levels", line=number)
    return obj, None


def parse_line(raw: bytes, number: int, mapping: dict[str, str] | None = None) -> InputLine:
    """Decode one physical line (BOM, CRLF and bad UTF-8 tolerated or reported)."""
    obj, error = decode_line(raw, number)
    if error is not None:
        return InputLine(number, error=error, id=record_id(obj, mapping))
    try:
        record = to_record(obj, number, mapping)
    except InputError as exc:
        return InputLine(number, error=exc, id=record_id(obj, mapping))
    return InputLine(number, record=record, id=record.id)


class Capped:
    """A binary source that ends in an `InputError` once more than `limit` bytes were read
    from it: what is read whole into memory (a bench corpus, a config) is bounded like a
    line, and an endless source (`/dev/zero`, a pipe that never closes) ends."""

    def __init__(self, source: IO[bytes], name: str, limit: int = MAX_LINE_BYTES):
        self.source, self.name, self.limit, self.read_bytes = source, name, limit, 0

    def _count(self, data: bytes) -> bytes:
        self.read_bytes += len(data)
        if self.read_bytes > self.limit:
            raise InputError(f"{self.name} is over the {self.limit:,}-byte limit of a file read "
                             "whole; split it, or give the file you meant")
        return data

    def readline(self, size: int = -1) -> bytes:
        room = self.limit + 1 - self.read_bytes
        return self._count(self.source.readline(room if size < 0 else min(size, room)))

    def read(self, size: int = -1) -> bytes:
        room = self.limit + 1 - self.read_bytes
        return self._count(self.source.read(room if size < 0 else min(size, room)))


def read_whole(path: Path, name: str) -> bytes:
    """The bytes of a file read whole (a config, a prompt), bounded as `Capped` bounds them."""
    with path.open("rb") as fh:
        return Capped(fh, name).read()


def iter_raw(source: IO[bytes], first: int = 1) -> Iterator[tuple[int, bytes]]:
    """(line number, bytes) per physical line from number `first`; a line over the limit is cut."""
    number = first - 1
    while raw := source.readline(MAX_LINE_BYTES + 1):
        number += 1
        oversize = len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n")
        while oversize and (rest := source.readline(1 << 20)):  # drop the rest, memory stays bounded
            if rest.endswith(b"\n"):
                break
        yield number, raw


def read_lines(source: IO[bytes], mapping: dict[str, str] | None = None, skip: set[int] | None = None,
               first: int = 1) -> Iterator[InputLine]:
    """Yield one `InputLine` per physical line of a binary JSONL stream, in order."""
    skip = skip or set()
    for number, raw in iter_raw(source, first):
        if number not in skip:
            yield parse_line(raw, number, mapping)


class ResultWriter:
    """Appends one JSON line per result and flushes it, so a killed run loses nothing written.

    With `hold_interrupt`, Ctrl-C (SIGINT) arriving mid-write is held until the line is
    complete and flushed, then raised as usual: an interrupted run never leaves half a line.
    `written` counts the lines this writer completed.
    """

    def __init__(self, target: IO[str] | IO[bytes], fsync: bool = False, hold_interrupt: bool = False):
        self.target = target
        self.fsync = fsync
        self.written = 0
        self.hold_interrupt = (hold_interrupt and hasattr(signal, "pthread_sigmask")
                               and threading.current_thread() is threading.main_thread())

    def write(self, result: AuditResult) -> None:
        try:
            line = _line(result)
        except (ValueError, TypeError) as exc:  # unserializable: the line still gets a record
            line = _line(_unwritable(result, exc))
        if self.hold_interrupt:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            if isinstance(self.target, TextIOBase) or hasattr(self.target, "encoding"):
                self.target.write(line + "\n")  # type: ignore[call-overload]  # a text stream: stdout
                self.target.flush()
            else:
                _write_whole(self.target, (line + "\n").encode("utf-8"))  # type: ignore[arg-type]
            if self.fsync:
                os.fsync(self.target.fileno())
            self.written += 1
        finally:
            if self.hold_interrupt:  # a pending Ctrl-C is delivered here, after the whole line
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _write_whole(target: IO[bytes], data: bytes) -> None:
    """Write all of `data` to a binary file, or nothing: a write that fails part way (a full
    disk) is cut back off a regular file, so no half line is left for a reader to trip on."""
    fd: int | None = None
    start: int | None = None
    try:
        fd = target.fileno()
        info = os.fstat(fd)
        start = info.st_size if stat.S_ISREG(info.st_mode) else None
    except (OSError, ValueError, AttributeError):
        fd = start = None
    view = memoryview(data)
    try:
        while view:
            count = target.write(view)
            view = view[count or 0:]
        target.flush()
    except OSError:
        if fd is not None and start is not None:
            # The error being raised says what went wrong; if even this fails, --resume cuts
            # the torn tail.
            with suppress(OSError):
                os.ftruncate(fd, start)
        raise


def _line(result: AuditResult) -> str:
    line = result.to_json()
    if not line.isascii():
        line = re.sub("[\x85\u2028\u2029]", lambda m: _UNICODE_BREAKS[ord(m.group())], line)
        line.encode("utf-8")  # raises on a lone surrogate before anything reaches the file
    return line


def _unwritable(result: AuditResult, exc: Exception) -> AuditResult:
    line = result.meta.line
    record_id = result.id
    if record_id is None or _SURROGATE.search(record_id):
        record_id = None if line is None else str(line)  # the id an unnamed line gets
    return AuditResult(
        id=record_id, status="error",
        error=ErrorInfo(type="RuntimeError", line=line,
                        message=f"result could not be written as JSON ({type(exc).__name__}: {exc})"[:2000]),
        meta=ResultMeta(signature=result.meta.signature, line=line, hops=result.meta.hops),
    )


def read_results(path: Path) -> Iterator[AuditResult]:
    """Read an output JSONL back into `AuditResult`s (for report, gate, explain); a line over
    `MAX_LINE_BYTES` is refused as `score` refuses one, before it is held whole."""
    with path.open("rb") as fh:
        for number, raw in iter_raw(fh):
            if len(raw) > MAX_LINE_BYTES:
                raise InputError(f"{path}:{number}: the line is over the {MAX_LINE_BYTES:,}-byte limit; "
                                 "was it written by `logicscore score`?", line=number)
            line = raw.decode("utf-8")
            if line.strip():
                try:
                    yield AuditResult.model_validate_json(line)
                except ValidationError as exc:
                    raise InputError(f"{path}:{number}: not a logicscore result ({exc.error_count()} "
                                     "errors); was it written by `logicscore score`?", line=number) from None
