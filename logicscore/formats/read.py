"""Reading JSONL in any input format: detect each line's format, convert it, build the record.

With `auto` (the default) a line is read in the one format whose fields it has; a line that
has the fields of several is an `InputError` naming them (pass `--format`), and a line of no
known format is read as a logicscore record, whose error names the fields it lacks. A chosen
format reads every line in that format. Each physical line still yields one `InputLine`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, Any

from .. import io
from ..errors import InputError
from ..models import QARecord
from . import rag, records


@dataclass(frozen=True)
class Format:
    """One input format: its name, the fields that identify it, how a row becomes a record."""

    name: str
    fields: str
    matches: Callable[[dict[str, Any]], bool]
    convert: Callable[[dict[str, Any]], dict[str, Any]] | None  # None: the record is read as it is
    # The fields its adapter reads: the others go to `meta.record` (docs/records.md). None:
    # none are kept (a promptfoo result's or a dataset record's are its whole run or context).
    reads: frozenset[str] | None = None


def _native(obj: dict[str, Any]) -> bool:
    return all(any(obj.get(n) is not None for n in io.ALIASES[f]) for f in ("question", "answer", "long_answer"))


FORMATS: dict[str, Format] = {f.name: f for f in (
    Format("logicscore", "question, answer, long_answer", _native, None),
    Format("ragas", "user_input, response, retrieved_contexts, reference", rag.is_ragas, rag.from_ragas,
           rag.RAGAS_FIELDS),
    Format("deepeval", "input, actual_output, expected_output, retrieval_context", rag.is_deepeval,
           rag.from_deepeval, rag.DEEPEVAL_FIELDS),
    Format("promptfoo", "vars, response.output", rag.is_promptfoo, rag.from_promptfoo),
    Format("hotpotqa", "context, supporting_facts", records.is_hotpot, records.from_hotpot),
    Format("2wiki", "context, supporting_facts, evidences", records.is_2wiki, records.from_2wiki),
    Format("musique", "paragraphs, question_decomposition", records.is_musique, records.from_musique),
)}
NAMES = ("auto", *FORMATS)
# The fields an adapter sets beside the record's own: where its short answer came from.
PROVENANCE = ("answer_source", "answer_rule")


def check_format(name: str) -> str:
    """The format name itself; ValueError listing the known ones."""
    if name not in NAMES:
        raise ValueError(f"unknown --format {name!r}; formats: {', '.join(NAMES)}")
    return name


def detect(obj: dict[str, Any], line: int) -> Format:
    """The one format whose fields `obj` has (logicscore when none); `InputError` when several."""
    found = [f for f in FORMATS.values() if f.matches(obj)]
    if len(found) > 1:
        names = [f.name for f in found]
        which = "; ".join(f"{f.name} ({f.fields})" for f in found)
        raise InputError(f"line {line}: reads as more than one format: {which}; pass "
                         + " or ".join(f"--format {n}" for n in names), line=line)
    return found[0] if found else FORMATS["logicscore"]


def convert(obj: Any, line: int, fmt: str = "auto", mapping: dict[str, str] | None = None) -> dict[str, Any]:
    """The logicscore record fields of one decoded line, or `InputError`.

    `--map dst=src` reads `dst` from the line as written (src a dotted path), over what the
    format gave.
    """
    if not isinstance(obj, dict):
        raise InputError(f"line {line}: expected a JSON object, got {type(obj).__name__}", line=line)
    chosen = detect(obj, line) if fmt == "auto" else FORMATS[fmt]
    mapping = mapping or {}
    mapped = {src.split(".")[0] for src in mapping.values()}
    if chosen.convert is None:
        aliases = {n for names in io.ALIASES.values() for n in names}
        extra = extra_fields(obj, aliases | mapped)
        if not extra or not isinstance(obj.get("meta", obj.get("metadata", {})), dict):
            return obj
        # The input's own meta wins over a field of the same name beside it (docs/records.md).
        meta = "meta" if "meta" in obj or "metadata" not in obj else "metadata"
        return {**obj, meta: {**extra, **obj.get(meta, {})}}
    try:
        data = chosen.convert(obj)
    except rag.NoAnswer as exc:
        found, value = io.lookup(obj, mapping["answer"]) if "answer" in mapping else (False, None)
        if not found or value is None:
            raise InputError(f"line {line}: {chosen.name} row: {exc}", line=line) from None
        data = exc.record
    except rag.Unreadable as exc:
        raise InputError(f"line {line}: {chosen.name} row: {exc}", line=line) from None
    except (KeyError, TypeError, AttributeError, IndexError, ValueError) as exc:
        # A row of another shape under a chosen --format: still one error record, never a crash.
        raise InputError(f"line {line}: not a {chosen.name} row ({type(exc).__name__}: {exc}); "
                         f"its fields: {chosen.fields}", line=line) from None
    own = io.record_id(obj)
    if own is not None:
        data.setdefault("id", own)
    if chosen.reads is not None:
        extra = extra_fields(obj, set(chosen.reads) | set(io.ALIASES["id"]) | mapped)
        data["meta"] = {**extra, **data.get("meta", {})}
    for dst, src in mapping.items():
        found, value = io.lookup(obj, src)
        if found and value is not None:
            data[dst] = value
            if dst == "answer":
                data.update(answer_source="answer_field", answer_rule=None)
    return data


def extra_fields(obj: dict[str, Any], read: set[str]) -> dict[str, Any]:
    """The fields of `obj` that are no record field and were not read as one (`model`,
    labels, …): kept in `meta.record`, so `report --by FIELD` can slice on them."""
    taken = read | set(QARecord.model_fields) | set(io.ALIASES["meta"])
    return {k: v for k, v in obj.items() if k not in taken}


def parse_line(raw: bytes, number: int, fmt: str = "auto", mapping: dict[str, str] | None = None
               ) -> io.InputLine:
    """One physical line as an `InputLine` in format `fmt` (see the module docstring)."""
    obj, error = io.decode_line(raw, number)
    if error is None:
        try:
            data = convert(obj, number, fmt, mapping)
            native = (detect(obj, number) if fmt == "auto" else FORMATS[fmt]).convert is None
            record = io.to_record(data, number, mapping if native else None)
            if not native:  # where the adapter found the short answer (docs/records.md)
                record = record.model_copy(update={k: data[k] for k in PROVENANCE if k in data})
            return io.InputLine(number, record=record, id=record.id)
        except InputError as exc:
            error = exc
    # The id an unreadable line keeps: its own (`id`, `_id`, …), else its line number.
    return io.InputLine(number, error=error, id=io.record_id(obj, mapping))


def read_lines(source: IO[bytes], fmt: str = "auto", mapping: dict[str, str] | None = None,
               skip: set[int] | None = None, first: int = 1) -> Iterator[io.InputLine]:
    """One `InputLine` per physical line of a binary JSONL stream in format `fmt`, in order
    (the first numbered `first`: a slice of a longer input keeps its numbers)."""
    skip = skip or set()
    for number, raw in io.iter_raw(source, first):
        if number not in skip:
            yield parse_line(raw, number, fmt, mapping)
