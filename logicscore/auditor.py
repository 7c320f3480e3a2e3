"""The Auditor: builds the stages from its `AuditorConfig` and runs one record through them.

Data flows one way (docs/architecture.md, "The stage flow"): record → question reader →
extractor → linker → abstention → completeness by question type → judge → signals and
scores → grounder. `_audit` is a loop over those steps, each setting its fields of the
record's `flow.Draft`; `audit_many` is the only broad error boundary.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from . import __version__
from .pipeline import registry as stages
from .pipeline import ground, prose
from .config import AuditorConfig
from .errors import ConfigError, InputError, LogicscoreError
from .pipeline.flow import Completeness, Draft, Extractor, Reading
from .io import InputLine
from .limits import GC_PAUSE_CHARS, count_sentences, deadline, gc_paused
from .models import AuditResult, ErrorInfo, QARecord, ResultMeta, Signal
from .pipeline.text.forms import forget as forget_forms
from .pipeline.normalize.options import link_sides
from .pipeline.question.types import SIDED_TYPES, option_sides, pick_sides, question_type
from .pipeline.roles import sentence_roles
from .pipeline.score import compute_scores
from .pipeline.signals import collect_signals
from .signature import Signature
from .pipeline.registry import SpacyPipeline

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

    Options are the fields of `AuditorConfig`, given as keywords or as `config=`; a keyword
    that is no field of it is an option of the extractor.

    Args:
        extractor: extractor name ("rules", "given", or a plugin's name).
        config: the whole configuration at once; keywords given beside it override it.
        fuzzy_threshold: rapidfuzz similarity (0–100) at which two mentions merge.
        max_alternatives: cap on same-length alternative chains reported.
        spacy_model: spaCy pipeline shared by every stage that parses text (default:
            en_core_web_sm if installed, else the bundled re-upload).
        timing: record `meta.latency_ms` (off makes output byte-identical across runs).
        max_chars: longest long answer scored (question and short answer: a tenth of it);
            a longer one is an `InputError` record.
        timeout: seconds one record may take before it becomes a `Timeout` record (None:
            no limit). Enforced with SIGALRM, so only on the main thread of a Unix process.
        max_sentences: most sentences a long answer may have (None: no limit); a longer one
            is an `InputError` record, found before any parse.
    Raises:
        ConfigError: an unknown stage name or option, or a value out of range.
    """

    def __init__(self, extractor: str | None = None, *, config: AuditorConfig | None = None,
                 **options: Any):
        self.config = _configure(extractor, config, options)
        c = self.config
        # Owned here and lent to the stages that require it: one pipeline, loaded on first use.
        self.spacy = SpacyPipeline(c.spacy_model)
        # Cheap to build (openai loads on the first call); shared so the LLM stages have one
        # cache and one call budget.
        from .llm.endpoint import Endpoint, EndpointConfig

        llm = stages.validate(EndpointConfig, c.llm, "the LLM endpoint")
        if llm.deadline is None and c.timeout:  # a record's calls share the record's time
            llm = llm.model_copy(update={"deadline": c.timeout})
        self.llm = Endpoint(llm)
        shared = {"spacy": self.spacy, "llm": self.llm}
        self.question_reader: stages.QuestionReader = stages.build(
            "question_reader", c.question_reader, c.question_reader_options, shared)
        self.extractor: Extractor = stages.build(
            "extractor", c.extractor, c.extractor_options, shared)
        # A linker's Config takes the Auditor's fuzzy_threshold (its options may override it).
        self.linker: stages.Linker = stages.build(
            "linker", c.linker, {"fuzzy_threshold": c.fuzzy_threshold, **c.linker_options}, shared)
        # Completeness stages by name, and the one for each question type they name.
        self.completeness = _completeness(c, shared)
        self.completeness_of = {t: stage for stage in self.completeness.values()
                                for t in stage.question_types}
        self.judge: stages.Judge = stages.build("judge", c.judge, c.judge_options, shared)
        self.grounder: ground.Grounder | None = _grounder(c, shared)
        self._signatures: dict[tuple[bool, bool, str | bool], str] = {}
        # The steps a record goes through, in order; each sets its fields of the `Draft`.
        self.steps = (self._read_question, self._extract, self._link, self._abstain,
                      self._complete, self._judge, self._signals_and_scores, self._ground)

    @property
    def signature(self) -> str:
        """The reproducibility signature every result carries.

        Each stage adds its own keys, in pipeline order after the extractor's; a key that
        an earlier stage gave with the same value (the shared spaCy model) is not repeated.
        It is the same for every record of a run: whether a record had documents is the
        record's own fact, `meta.grounder` (the grounder's keys, on the records it grounded),
        so a run that grounds some records is still one run (docs/gate-ci.md).
        """
        return self._signature(False)

    @property
    def grounded_signature(self) -> str:
        """The signature of a record with documents: `signature` plus the grounder's keys."""
        return self._signature(self.grounder is not None)

    def _signature(self, grounded: bool) -> str:
        # A stage may name the spaCy model only once it has loaded (a question reader
        # whose records all carried their entities never does).
        # Nor the LLM endpoint its structured-output mode before the server has taken one.
        state = (self.spacy.loaded, grounded, self.llm.settled and self.llm.mode)
        cached = self._signatures.get(state)
        if cached is not None:
            return cached
        parts: list[tuple[str, object]] = [("logicscore", __version__)]
        parts += self.extractor.signature()
        parts += self.question_reader.signature()
        parts += self.linker.signature()
        for stage in self.completeness.values():
            parts += stage.signature()
        parts += self.judge.signature()
        if grounded and self.grounder is not None:
            parts += self.grounder.signature()
        sig, seen = Signature(), set()
        for key, value in parts:
            if value is not None and (key, str(value)) not in seen:
                seen.add((key, str(value)))
                sig.add(key, value)
        self._signatures[state] = text = sig.format()
        return text

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
        result = self._audit_limited(record, line, defer=False)
        assert isinstance(result, AuditResult)
        return result

    def _audit_limited(self, record: QARecord, line: int | None, defer: bool) -> AuditResult | _Deferred:
        self._check_size(record, line)
        with deadline(self.config.timeout, record.id), gc_paused(
                len(record.long_answer) >= GC_PAUSE_CHARS):
            return self._audit(record, line, defer)

    def _check_size(self, record: QARecord, line: int | None) -> None:
        max_chars = self.config.max_chars
        short_limit = max(1, max_chars // SHORT_FIELD_SHARE)
        for field, limit in (("long_answer", max_chars), ("question", short_limit),
                             ("answer", short_limit)):
            size = len(getattr(record, field))
            if size > limit:
                raise InputError(
                    f"record {record.id}: {field} has {size:,} characters, over the limit of "
                    f"{limit:,}; raise it with --max-chars (memory and time grow with length)",
                    line=line)
        most = self.config.max_sentences
        if most is not None and (count := count_sentences(record.long_answer, most)) > most:
            raise InputError(
                f"record {record.id}: long_answer has over {most:,} sentences ({count:,} counted "
                f"before stopping); raise the limit with --max-sentences (memory and time grow "
                "faster than the sentences)", line=line)

    def _audit(self, record: QARecord, line: int | None, defer: bool = False) -> AuditResult | _Deferred:
        start = time.perf_counter()
        # Mention forms repeat within one answer, rarely across answers: a cache kept across
        # records only grows a long run's memory, so each record starts with an empty one.
        forget_forms()
        draft = Draft(_blank_invisible(record))
        for step in self.steps:
            if defer and step == self._ground and draft.record.documents is not None:
                return _Deferred(draft, start, line)  # grounded with its window (_audit_items)
            step(draft)
        return self._result(draft, start, line)

    def _read_question(self, draft: Draft) -> None:
        """The question's entities and type; a choice's two options read whole."""
        record = draft.record
        if not record.question_entities and getattr(self.extractor, "reads_question", False):
            draft.extraction = self.extractor.extract(record, [])
            if draft.extraction.question_entities:
                record = record.model_copy(update={"question_entities": draft.extraction.question_entities})
                draft.record = record
        questions = self.question_reader.read(record)
        qtype, type_rule = question_type(record.question, record.answer, record.question_type,
                                         questions)
        sided = qtype in SIDED_TYPES
        if sided:
            questions = option_sides(record.question, questions)
        draft.reading = Reading(qtype, type_rule, questions, sided=sided,
                                sides=pick_sides(record.question, questions) if sided else [])

    def _extract(self, draft: Draft) -> None:
        if draft.extraction is None:
            draft.extraction = self.extractor.extract(draft.record,
                                                      [q.name for q in draft.reading.entities])

    def _link(self, draft: Draft) -> None:
        """The entities; for a sided question, its sides linked and the ones the answer names."""
        assert draft.extraction is not None  # set by _read_question or _extract
        draft.linked = self.linker.link(draft.extraction, draft.reading.entities, draft.record)
        if draft.reading.sided:
            draft.reading.sides, draft.reading.chosen = link_sides(
                draft.record, draft.linked, draft.reading.sides, self.linker.same_answer)

    def _abstain(self, draft: Draft) -> None:
        """The long answer's own findings; a refusal abstains whatever the question's type."""
        record, qtype = draft.record, draft.reading.qtype
        draft.prose = prose.signals(record.answer, record.long_answer,
                                    asks_a_thing=qtype in ("bridge", "intersection"))
        draft.abstained = any(s.kind == "refusal" for s in draft.prose)

    def _complete(self, draft: Draft) -> None:
        """Completeness by the stage of the question's type (`abstained` for a refusal)."""
        if draft.abstained:
            stage = self.completeness["abstained"]
        else:  # a type no stage names asks a thing, as a bridge question does
            stage = self.completeness_of.get(draft.reading.qtype, self.completeness["chain"])
        draft.completed = stage.complete(draft.record, draft.linked, draft.reading)

    def _judge(self, draft: Draft) -> None:
        # The judge's verdict is the record's, whatever the question's type: the rules judge
        # takes the one the sides select, an LLM judge its own reading of the passage.
        draft.verdict = self.judge.judge(draft.record, draft.linked, draft.completed, draft.reading)

    def _signals_and_scores(self, draft: Draft) -> None:
        """Every signal in one order: the long answer's own, completeness's, the shared ones,
        the sides', the question type's, the extractor's."""
        linked, completed, result = draft.linked, draft.completed, draft.completed.result
        extra = list(completed.sides.signals) if completed.sides is not None else []
        if draft.reading.type_rule is None:
            extra.append(Signal(kind="unclassified_question", severity="info",
                                message="no question-type rule holds; scored as a bridge question"))
        assert draft.extraction is not None
        draft.signals = (draft.prose + completed.signals
                         + collect_signals(linked, result, draft.verdict, hops=draft.record.hops)
                         + extra + draft.extraction.signals)
        draft.scores = compute_scores(result, len(linked.propositions), draft.verdict)

    def _ground(self, draft: Draft) -> None:
        """For a record with documents, each chain hop against the documents it cites."""
        if draft.record.documents is None or self.grounder is None:
            return
        result = draft.completed.result
        draft.grounding = self.grounder.ground(draft.record, draft.linked, result)
        draft.signals += ground.signals(draft.grounding, draft.linked.propositions)
        draft.scores = draft.scores.model_copy(
            update={"grounded_chain": ground.grounded_share(draft.grounding)})

    def _result(self, draft: Draft, start: float, line: int | None) -> AuditResult:
        record, linked, result = draft.record, draft.linked, draft.completed.result
        sides = draft.completed.sides.sides if draft.completed.sides is not None else []
        reached = set(result.reached)
        question_out = [
            q.model_copy(update={"reached": q.entity is not None and q.entity in reached})
            for q in linked.question
        ]
        gold = record.gold_answer
        correct = None if gold is None else self.linker.same_answer(gold, record.answer)
        names = {e.id: e.name for e in linked.entities}
        used = [*result.chain, *(p for side in sides for p in side.propositions)]
        assert draft.extraction is not None
        return AuditResult(
            id=record.id,
            question=record.question,
            answer=record.answer,
            gold_answer=gold,
            question_type=draft.reading.qtype,
            scores=draft.scores,
            determinateness=draft.verdict,
            question_entities=question_out,
            answer_entity=names.get(linked.answer_entity or ""),
            chain=result.chain,
            alternatives=result.alternatives,
            diagnosis=result.diagnosis.model_copy(update={"signals": draft.signals}),
            sides=sides,
            sentences=sentence_roles(record.long_answer, linked.propositions, used,
                                     draft.extraction.sentences),
            propositions=linked.propositions,
            entities=linked.entities,
            grounding=draft.grounding,
            correct=correct,
            meta=self._meta(start, line, record.hops, record.meta,
                            grounded=draft.grounding is not None, record=record),
        )

    def audit_many(self, records: Iterable[QARecord | InputLine]) -> Iterator[AuditResult]:
        """Audit a stream in order; every item yields exactly one result, scored or errored.

        Items are `QARecord`s or `io.InputLine`s (an unreadable line comes back as an
        error record carrying its line number, so nothing is dropped). A `ConfigError`
        (such as a spaCy model that is not installed) stops the stream instead. Stages with
        a `prepare` hook get each window of `stages.PREPARE_WINDOW` items first.
        """
        # An extractor that reads the question may name its entities itself: the question
        # reader then has nothing to parse ahead.
        reader = None if getattr(self.extractor, "reads_question", False) else self.question_reader
        hooks = [h for h in (getattr(reader, "prepare", None),
                             getattr(self.extractor, "prepare", None),
                             getattr(self.judge, "prepare", None)) if h is not None]
        if not hooks and not self._grounds_in_windows:  # each record scored as soon as it is read
            yield from self._audit_items(records)
            return
        for window in _windows(records, stages.PREPARE_WINDOW):
            _prepare(hooks, [self._preparable(item) for item in window])
            yield from self._audit_items(window)

    @property
    def _grounds_in_windows(self) -> bool:
        """Whether the grounder makes a window's calls at once (the LLM grounder)."""
        return hasattr(self.grounder, "prepare_chains")

    def _preparable(self, item: QARecord | InputLine) -> QARecord | None:
        """The record as `_audit` will see it, or None when it will not get that far."""
        record = item.record if isinstance(item, InputLine) else item
        if record is None:
            return None
        try:
            self._check_size(record, None)
        except InputError:
            return None  # audited as an InputError record, never sent anywhere
        return _blank_invisible(record)

    def _audit_items(self, items: Iterable[QARecord | InputLine]) -> Iterator[AuditResult]:
        if not self._grounds_in_windows:
            for item in items:
                outcome = self._audit_item(item, defer=False)
                assert isinstance(outcome, AuditResult)
                yield outcome
            return
        # The window's records are audited up to grounding, their grounding calls made at
        # once (bounded by the endpoint's concurrency), then each record is finished in order.
        outcomes = [self._audit_item(item, defer=True) for item in items]
        deferred = [o for o in outcomes if isinstance(o, _Deferred)]
        rows = [(d.draft.record, d.draft.linked, d.draft.completed.result) for d in deferred]
        _prepare([self.grounder.prepare_chains], rows)  # type: ignore[union-attr]
        for outcome in outcomes:
            yield self._finish(outcome) if isinstance(outcome, _Deferred) else outcome

    def _audit_item(self, item: QARecord | InputLine, defer: bool) -> AuditResult | _Deferred:
        start = time.perf_counter()
        line = None
        if isinstance(item, InputLine):
            line = item.number
            if item.record is None:
                err: LogicscoreError = item.error or InputError("unreadable line", line=line)
                return self.error_result(item.id, err, start, line=line)
            item = item.record
        record = item
        return self._guarded(record, start, line, lambda: self._audit_limited(record, line, defer))

    def _finish(self, deferred: _Deferred) -> AuditResult:
        """A deferred record grounded (its call made ahead) and built, under its deadline."""
        draft = deferred.draft

        def finish() -> AuditResult:
            with deadline(self.config.timeout, draft.record.id):
                self._ground(draft)
                return self._result(draft, deferred.start, deferred.line)

        result = self._guarded(draft.record, deferred.start, deferred.line, finish)
        assert isinstance(result, AuditResult)
        return result

    def _guarded(self, record: QARecord, start: float, line: int | None,
                 audit: Callable[[], AuditResult | _Deferred]) -> AuditResult | _Deferred:
        """The one error boundary: a failure becomes the record's typed error result."""
        try:
            return audit()
        except ConfigError:
            raise  # options that cannot work (a missing spaCy model): no record can be scored
        except LogicscoreError as exc:
            return self.error_result(record.id, exc, start, line=line, meta=record.meta, record=record)
        except Exception as exc:  # noqa: BLE001 - a bug must not lose the record
            err = LogicscoreError(f"{type(exc).__name__}: {exc}", line=line)
            return self.error_result(record.id, err, start, line=line, meta=record.meta, record=record)

    def error_result(
        self, record_id: str | None, exc: LogicscoreError, start: float, line: int | None = None,
        meta: dict | None = None, record: QARecord | None = None,
    ) -> AuditResult:
        """The error record of `exc`; with the `record` it was raised on, that record's
        question and answers too, so the line can be read on its own."""
        return AuditResult(
            id=record_id,
            status="error",
            question=record.question if record is not None else None,
            answer=record.answer if record is not None else None,
            gold_answer=record.gold_answer if record is not None else None,
            error=ErrorInfo(type=exc.type, message=_clip(exc.message), line=line or exc.line),
            meta=self._meta(start, line or exc.line, None, meta or {}, record=record),
        )

    def _meta(self, start: float, line: int | None, hops: int | None, record_meta: dict,
              grounded: bool = False, record: QARecord | None = None) -> ResultMeta:
        latency = round((time.perf_counter() - start) * 1000, 1) if self.config.timing else None
        grounder = Signature(self.grounder.signature()).format() if grounded and self.grounder else None
        return ResultMeta(signature=self._signature(False), grounder=grounder, latency_ms=latency, line=line,
                          hops=hops, record=record_meta,
                          answer_source=record.answer_source if record is not None else None,
                          answer_rule=record.answer_rule if record is not None else None)


@dataclass
class _Deferred:
    """A record audited up to grounding, waiting for its window's grounding calls."""

    draft: Draft
    start: float
    line: int | None


def _prepare(hooks: list[Any], records: list[Any]) -> None:
    """Run the batch hooks over a window's records."""
    ready = [r for r in records if r is not None]
    for hook in hooks if ready else ():
        try:
            hook(ready)
        except ConfigError:
            raise
        except Exception:  # noqa: BLE001 - each record then runs alone and gets its own error
            pass


def _windows(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    window: list[Any] = []
    for item in items:
        window.append(item)
        if len(window) == size:
            yield window
            window = []
    if window:
        yield window


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


def _completeness(c: AuditorConfig, shared: dict[str, Any]) -> dict[str, Completeness]:
    """Every registered completeness stage by name, built-ins first: a plugin's stage that
    names a question type takes it from the built-in one."""
    out: dict[str, Completeness] = {}
    for name in stages.available("completeness"):
        cls = stages.stage_class("completeness", name)
        base = ({"max_alternatives": c.max_alternatives}
                if "max_alternatives" in cls.Config.model_fields else {})
        stage = stages.build("completeness", name, base, shared)
        out[name] = stage
    return out


def _grounder(c: AuditorConfig, shared: dict[str, Any]) -> ground.Grounder | None:
    """The grounder the config names (None for "off"); one with a fuzzy threshold takes
    the Auditor's unless its options say otherwise."""
    if c.grounder == "off":
        return None
    cls = stages.stage_class("grounder", c.grounder)
    base = {"fuzzy_threshold": c.fuzzy_threshold} if "fuzzy_threshold" in cls.Config.model_fields else {}
    return stages.build("grounder", c.grounder, {**base, **c.grounder_options}, shared)


def _configure(extractor: str | None, config: AuditorConfig | None,
               options: dict[str, Any]) -> AuditorConfig:
    """One `AuditorConfig` from the keyword API: its fields, the rest as extractor options."""
    fields = dict(config.model_dump()) if config is not None else {}
    if extractor is not None:
        fields["extractor"] = extractor
    extra = {k: v for k, v in options.items() if k not in AuditorConfig.model_fields}
    fields.update({k: v for k, v in options.items() if k in AuditorConfig.model_fields})
    if extra:
        fields["extractor_options"] = {**fields.get("extractor_options", {}), **extra}
    return stages.validate(AuditorConfig, fields, "the Auditor")
