"""The Auditor: builds the stages from its options and runs one record through them.

Data flows one way: record → question entities → extract → link entities → chain →
determinateness → signals → scores. `audit_many` is the only broad error boundary.
"""

from __future__ import annotations

import re
import signal
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from . import __version__
from .chain import analyze
from .determinate import judge
from .errors import ConfigError, InputError, LogicscoreError, Timeout
from .extract import Extractor, get_extractor
from .io import InputLine
from .models import AuditResult, Diagnosis, ErrorInfo, QARecord, QuestionEntity, ResultMeta
from .normalize.entities import link, same_answer
from .question import detect_question_entities, is_generic
from .score import compute_scores
from .signals import collect_signals
from .signature import Signature

DEFAULT_FUZZY = 85.0
DEFAULT_ALTERNATIVES = 16
# Bounds for huge or adversarial input (SPEC §7). Real long answers are a few thousand
# characters; a 1,000,000-character one peaks near 2.5 GB and minutes of work, so the
# default stops at 200,000 and a user who needs more raises it knowingly.
DEFAULT_MAX_CHARS = 200_000
# The question and short answer may be a tenth of that (a 1.2M-character short answer took
# over two minutes to match against the entities).
SHORT_FIELD_SHARE = 10
MAX_ERROR_MESSAGE = 2000
# No content, but they derail the parser (a NUL or a bidi mark glued to a word becomes part of
# an entity) or a terminal (`explain` printing an escape sequence): C0/C1 controls other than
# tab/newline/CR, bidi marks, embeddings, overrides and isolates, the BOM, ANSI CSI sequences.
# Each is blanked to spaces of the same length, so spans still index the original text.
_INVISIBLE = re.compile(
    "\x1b\\[[0-?]*[ -/]*[@-~]"
    "|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]")


class Auditor:
    """Audits long-form answers with a fixed, signed configuration.

    Args:
        extractor: extractor name ("rules", "given", or a plugin's name).
        fuzzy_threshold: rapidfuzz similarity (0–100) at which two mentions merge.
        max_alternatives: cap on same-length alternative chains reported.
        spacy_model: spaCy pipeline for the rules path (default: en_core_web_sm if
            installed, else the bundled re-upload).
        timing: record `meta.latency_ms` (off makes output byte-identical across runs).
        max_chars: longest long answer scored (question and short answer: a tenth of it);
            a longer one is an `InputError` record.
        timeout: seconds one record may take before it becomes a `Timeout` record (None:
            no limit). Enforced with SIGALRM, so only on the main thread of a Unix process.
    """

    def __init__(
        self,
        extractor: str = "rules",
        *,
        fuzzy_threshold: float = DEFAULT_FUZZY,
        max_alternatives: int = DEFAULT_ALTERNATIVES,
        spacy_model: str | None = None,
        timing: bool = True,
        max_chars: int = DEFAULT_MAX_CHARS,
        timeout: float | None = None,
        **extractor_options: Any,
    ):
        if not 0 <= fuzzy_threshold <= 100:
            raise ValueError("fuzzy_threshold must be between 0 and 100")
        if max_alternatives < 0:
            raise ValueError("max_alternatives must be >= 0")
        if max_chars < 1:
            raise ValueError("max_chars must be >= 1")
        if timeout is not None and timeout <= 0:
            raise ValueError("timeout must be > 0 seconds (or None for no limit)")
        if extractor == "rules" and spacy_model is not None:
            extractor_options.setdefault("spacy_model", spacy_model)
        self.extractor: Extractor = get_extractor(extractor, **extractor_options)
        self.fuzzy_threshold = fuzzy_threshold
        self.max_alternatives = max_alternatives
        self.spacy_model = spacy_model
        self.timing = timing
        self.max_chars = max_chars
        self.timeout = timeout
        self._signature: str | None = None

    @property
    def signature(self) -> str:
        """The reproducibility signature every result carries."""
        if self._signature is None:
            sig = Signature([("logicscore", __version__)])
            for key, value in self.extractor.signature():
                sig.add(key, value)
            sig.add("fuzzy", _num(self.fuzzy_threshold))
            sig.add("alts", self.max_alternatives)
            sig.add("det", "rules")
            self._signature = sig.format()
        return self._signature

    def audit(self, question: str, answer: str, long_answer: str, **optional: Any) -> AuditResult:
        """Audit one answer; raises `LogicscoreError` subclasses on bad input."""
        record_id = optional.pop("id", "0")
        try:
            record = QARecord(
                id=str(record_id), question=question, answer=answer,
                long_answer=long_answer, **optional,
            )
        except Exception as exc:  # pydantic.ValidationError, listed field by field
            raise InputError(str(exc)) from exc
        return self.audit_record(record)

    def audit_record(self, record: QARecord, line: int | None = None) -> AuditResult:
        """Audit one record within the size and time limits; raises `LogicscoreError`s."""
        short_limit = max(1, self.max_chars // SHORT_FIELD_SHARE)
        for field, limit in (("long_answer", self.max_chars), ("question", short_limit),
                             ("answer", short_limit)):
            size = len(getattr(record, field))
            if size > limit:
                raise InputError(
                    f"record {record.id}: {field} has {size:,} characters, over the limit of "
                    f"{limit:,}; raise it with --max-chars (memory and time grow with length)",
                    line=line)
        with _deadline(self.timeout, record.id):
            return self._audit(record, line)

    def _audit(self, record: QARecord, line: int | None) -> AuditResult:
        start = time.perf_counter()
        record = _blank_invisible(record)
        questions = self._question_entities(record)
        hints = [q.name for q in questions]
        extraction = self.extractor.extract(record, hints)
        linked = link(extraction, questions, record.answer, threshold=self.fuzzy_threshold,
                      question_text=record.question)
        result = analyze(
            linked.propositions, linked.answer_entity, linked.question,
            entities=linked.entities, max_alternatives=self.max_alternatives,
            answer_text=record.answer, question_text=record.question,
        )
        verdict = judge(record.question, linked, result)
        signals = collect_signals(linked, result, verdict, hops=record.hops)
        scores = compute_scores(result, len(linked.propositions), verdict)
        reached = set(result.reached)
        question_out = [
            q.model_copy(update={"reached": q.entity is not None and q.entity in reached})
            for q in linked.question
        ]
        gold = record.gold_answer
        correct = None if gold is None else same_answer(gold, record.answer, self.fuzzy_threshold)
        names = {e.id: e.name for e in linked.entities}
        return AuditResult(
            id=record.id,
            scores=scores,
            determinateness=verdict,
            question_entities=question_out,
            answer_entity=names.get(linked.answer_entity or "", None),
            chain=result.chain,
            alternatives=result.alternatives,
            diagnosis=Diagnosis(
                failure=result.failure, gap=result.gap, gaps=result.gaps,
                answer_absent=result.answer_absent, redundant=result.redundant,
                signals=signals,
            ),
            propositions=linked.propositions,
            entities=linked.entities,
            correct=correct,
            meta=self._meta(start, line, record.hops, record.meta),
        )

    def audit_many(self, records: Iterable[QARecord | InputLine]) -> Iterator[AuditResult]:
        """Audit a stream in order; every item yields exactly one result, scored or errored.

        Items are `QARecord`s or `io.InputLine`s (an unreadable line comes back as an
        error record carrying its line number, so nothing is dropped). A `ConfigError`
        (the spaCy model is missing) is raised, not recorded: it would fail every record.
        """
        for item in records:
            start = time.perf_counter()
            line = None
            if isinstance(item, InputLine):
                line = item.number
                if item.record is None:
                    err = item.error or InputError("unreadable line", line=line)
                    yield self.error_result(item.id, err, start, line=line)
                    continue
                item = item.record
            try:
                result = self.audit_record(item, line=line)
            except ConfigError:  # a missing model stops the run; it is not one record's error
                raise
            except LogicscoreError as exc:
                result = self.error_result(item.id, exc, start, line=line, meta=item.meta)
            except Exception as exc:  # noqa: BLE001 - a bug must not lose the record
                err = LogicscoreError(f"{type(exc).__name__}: {exc}", line=line)
                result = self.error_result(item.id, err, start, line=line, meta=item.meta)
            yield result

    def error_result(
        self, record_id: str | None, exc: LogicscoreError, start: float, line: int | None = None,
        meta: dict | None = None,
    ) -> AuditResult:
        return AuditResult(
            id=record_id,
            status="error",
            error=ErrorInfo(type=exc.type, message=_clip(exc.message), line=line or exc.line),
            meta=self._meta(start, line or exc.line, None, meta or {}),
        )

    def _question_entities(self, record: QARecord) -> list[QuestionEntity]:
        if record.question_entities:
            return [QuestionEntity(name=n, anchor=not is_generic(n)) for n in record.question_entities]
        return detect_question_entities(record.question, nlp=getattr(self.extractor, "nlp", None),
                                        context=record.long_answer)

    def _meta(self, start: float, line: int | None, hops: int | None, record_meta: dict) -> ResultMeta:
        latency = round((time.perf_counter() - start) * 1000, 1) if self.timing else None
        return ResultMeta(signature=self.signature, latency_ms=latency, line=line, hops=hops,
                          record=record_meta)


@contextmanager
def _deadline(seconds: float | None, record_id: str):
    """Raise `Timeout` in the running code once `seconds` have passed (main thread, Unix)."""
    usable = (seconds is not None and hasattr(signal, "setitimer")
              and threading.current_thread() is threading.main_thread())
    if not usable:
        yield
        return

    def expire(signum, frame):
        raise Timeout(f"record {record_id}: took longer than {seconds:g} s; "
                      "raise the limit with --timeout")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _blank_invisible(record: QARecord) -> QARecord:
    """The record with invisible control and bidi characters blanked (same length)."""
    update = {}
    for field in ("question", "answer", "long_answer"):
        text = getattr(record, field)
        clean = _INVISIBLE.sub(lambda m: " " * len(m.group()), text)
        if clean != text:
            update[field] = clean
    return record.model_copy(update=update) if update else record


def _clip(message: str) -> str:
    """Error messages stay one readable line even when an exception quotes a huge input."""
    if len(message) <= MAX_ERROR_MESSAGE:
        return message
    return message[:MAX_ERROR_MESSAGE] + f"… ({len(message) - MAX_ERROR_MESSAGE:,} more characters)"


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
