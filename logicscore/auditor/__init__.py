"""The Auditor: builds the stages from its `AuditorConfig` and runs one record through them.

Data flows one way (docs/architecture.md, "The stage flow"): record → question reader →
extractor → linker → abstention → completeness by question type → judge → hops (with a
hop stage) → signals and scores → grounder. `_audit` is a loop over those steps, each setting its fields of the
record's `flow.Draft`; `audit_many` is the only broad error boundary.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .. import __version__
from ..pipeline import registry as stages
from ..pipeline import ground, prose
from ..config import AuditorConfig
from ..errors import ConfigError, InputError, LogicscoreError
from ..pipeline.flow import Completeness as Completeness, Draft, Extractor, Reading
from ..io import InputLine
from ..limits import GC_PAUSE_CHARS, count_sentences, deadline, gc_paused
from ..models import AuditResult, ErrorInfo, QARecord, ResultMeta, Signal
from ..pipeline.text.forms import forget as forget_forms
from ..pipeline.normalize.options import link_sides
from ..pipeline.question.types import SIDED_TYPES, option_sides, pick_sides, question_type
from ..pipeline.roles import sentence_roles
from ..pipeline.score import compute_scores
from ..pipeline.signals import collect_signals
from ..signature import Signature
from .batches import Deferred, blank_invisible, clip, prepare, windows
from .hops import check_hops, verdict_of
from .build import completeness_stages, configure, escalation, grounder, hop_stage
from ..pipeline.registry import SpacyPipeline

# The question and short answer may be a tenth of that (a 1.2M-character short answer took
# over two minutes to match against the entities).
SHORT_FIELD_SHARE = 10
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
        self.config = configure(extractor, config, options)
        c = self.config
        # Owned here and lent to the stages that require it: one pipeline, loaded on first use.
        self.spacy = SpacyPipeline(c.spacy_model)
        # Cheap to build (openai loads on the first call); shared so the LLM stages have one
        # cache and one call budget.
        from ..llm.endpoint import Endpoint, EndpointConfig

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
        self.completeness = completeness_stages(c, shared)
        self.completeness_of = {t: stage for stage in self.completeness.values()
                                for t in stage.question_types}
        self.judge: stages.Judge = stages.build("judge", c.judge, c.judge_options, shared)
        self.hop_stage: stages.HopReader | None = hop_stage(c, shared)
        self.escalation: stages.HopReader | None = escalation(c, shared)
        self.grounder: ground.Grounder | None = grounder(c, shared)
        self._signatures: dict[tuple[bool, bool, str | bool], str] = {}
        # The steps a record goes through, in order; each sets its fields of the `Draft`.
        self.steps = (self._read_question, self._extract, self._link, self._abstain,
                      self._complete, self._judge, self._check_hops, self._signals_and_scores,
                      self._ground)

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
        if self.hop_stage is not None:
            parts += self.hop_stage.signature()
        if self.escalation is not None:
            parts += [("escalate", "llm"), *self.escalation.signature()[1:]]
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

    def _audit_limited(self, record: QARecord, line: int | None, defer: bool) -> AuditResult | Deferred:
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

    def _audit(self, record: QARecord, line: int | None, defer: bool = False) -> AuditResult | Deferred:
        start = time.perf_counter()
        # Mention forms repeat within one answer, rarely across answers: a cache kept across
        # records only grows a long run's memory, so each record starts with an empty one.
        forget_forms()
        draft = Draft(blank_invisible(record))
        for step in self.steps:
            if defer and step == self._ground and draft.record.documents is not None:
                return Deferred(draft, start, line)  # grounded with its window (_audit_items)
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

    def _check_hops(self, draft: Draft) -> None:
        """With a hop stage: the question's hops, checked, and the completeness verdict (hops.py)."""
        if self.hop_stage is not None:
            check_hops(self.hop_stage, self.escalation, draft)

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
            hops=draft.hop_check,
            completeness=verdict_of(draft.scores.completeness) if self.hop_stage is not None else None,
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
                             getattr(self.judge, "prepare", None),
                             getattr(self.hop_stage, "prepare", None)) if h is not None]
        if not hooks and not self._grounds_in_windows:  # each record scored as soon as it is read
            yield from self._audit_items(records)
            return
        for window in windows(records, stages.PREPARE_WINDOW):
            prepare(hooks, [self._preparable(item) for item in window])
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
        return blank_invisible(record)

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
        deferred = [o for o in outcomes if isinstance(o, Deferred)]
        rows = [(d.draft.record, d.draft.linked, d.draft.completed.result) for d in deferred]
        prepare([self.grounder.prepare_chains], rows)  # type: ignore[union-attr]
        for outcome in outcomes:
            yield self._finish(outcome) if isinstance(outcome, Deferred) else outcome

    def _audit_item(self, item: QARecord | InputLine, defer: bool) -> AuditResult | Deferred:
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

    def _finish(self, deferred: Deferred) -> AuditResult:
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
                 audit: Callable[[], AuditResult | Deferred]) -> AuditResult | Deferred:
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
            error=ErrorInfo(type=exc.type, message=clip(exc.message), line=line or exc.line),
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
