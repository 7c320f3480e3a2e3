"""Typed records that flow through the pipeline (docs/records.md). Validation only, no behaviour."""

from __future__ import annotations

import json
import math
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .lexicon.signals import SIGNALS

EntityKind = Literal["person", "place", "work", "org", "date", "number", "other"]
# Values, not things: they constrain an answer but never resolve a pronoun or join a name.
LITERAL_KINDS = frozenset({"date", "number"})
FailureType = Literal["broken", "circular", "deviated"]
Verdict = Literal["entailed", "contradicted", "underdetermined"]
# The completeness verdict of a run with a hop stage (docs/metrics.md, "Three verdicts"):
# `unverified` when what the text shows decides neither way; `scores.completeness` is then null.
CompletenessVerdict = Literal["complete", "incomplete", "unverified"]
Severity = Literal["hard", "soft", "info"]
QuestionType = Literal["bridge", "comparison", "yesno", "intersection"]
# Where a record's short answer came from: its own field, an "Answer: X" line of the
# response, or the conclusion the response states (docs/records.md).
AnswerSource = Literal["answer_field", "answer_line", "conclusion"]
ErrorType = Literal["InputError", "ParseError", "Timeout", "LLMError", "RuntimeError"]
# How a chain hop stands against the documents it cites (`AuditResult.grounding`).
GroundingStatus = Literal["grounded", "ungrounded", "uncited", "unknown_citation"]
# What the check of one asked hop found (`Hop.check`, docs/metrics.md "Hops"): stated, or why not.
HopCheckKind = Literal["stated", "described_bridge", "unstated", "no_evidence",
                       "evidence_not_in_answer", "result_not_in_evidence", "input_not_linked"]
# Which extraction rule produced a proposition: tests and `explain` rely on it.
Pattern = Literal[
    "svo", "prep", "passive", "copula", "appos", "relcl", "acl", "conj", "poss",
    "cooccur", "conclusion", "given", "nested", "llm",
]

# How pydantic-core writes a float below 1e-4, where json.dumps writes otherwise: in plain
# form after four zeros ("0.00001"), or with a negative exponent ("1e-9"). Each is looked
# for on its own: a literal start lets the search skip ahead (`AuditResult.to_json`).
_TINY_PLAIN = "0.0000"
_NEGATIVE_EXPONENT = re.compile(r"e-\d")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class GivenProposition(_Strict):
    """A proposition supplied by the user (the `given` extractor)."""

    subject: str
    relation: str = ""
    object: str
    text: str | None = None
    citations: list[str] = Field(default_factory=list)
    negated: bool = False
    hedged: bool = False


class GivenHop(_Strict):
    """One sub-question of a record's own decomposition (`QARecord.question_hops`), as
    MuSiQue and 2WikiMultiHopQA ship them: the sub-question and, when known, its answer."""

    question: str
    answer: str | None = None


class QARecord(_Strict):
    """One input case: question, short answer, long answer, optional gold data."""

    id: str
    question: str
    answer: str
    long_answer: str
    question_entities: list[str] | None = None
    gold_answer: str | None = None
    hops: int | None = None
    # id → text; a list (RAGAS `retrieved_contexts`) is numbered "1", "2", … as `[1]` cites it.
    documents: dict[str, str] | None = None
    propositions: list[GivenProposition] | None = None
    # Given, it is taken as is; else the question's rules decide (docs/metrics.md).
    question_type: QuestionType | None = None
    meta: dict[str, Any] = Field(default_factory=dict)
    answer_source: AnswerSource = "answer_field"
    # The named rule that read a conclusion (`formats.conclusion`), else None.
    answer_rule: str | None = None
    # The question's hops, given (`--hops given`); a plain string is a sub-question alone.
    question_hops: list[GivenHop] | None = None

    @field_validator("question_hops", mode="before")
    @classmethod
    def _hop_questions(cls, value: Any) -> Any:
        if isinstance(value, list):
            return [{"question": v} if isinstance(v, str) else v for v in value]
        return value

    @field_validator("documents", mode="before")
    @classmethod
    def _numbered(cls, value: Any) -> Any:
        if isinstance(value, list):
            return {str(n): text for n, text in enumerate(value, 1)}
        return value


class Resolution(_Strict):
    """A reference the coreference pass replaced, and why."""

    text: str
    span: tuple[int, int]
    to: str
    reason: str


class Proposition(_Strict):
    """One atomic (subject, relation, object) claim of the long answer."""

    id: str
    text: str
    subject: str
    relation: str
    object: str
    citations: list[str] = Field(default_factory=list)
    negated: bool = False
    hedged: bool = False
    sentence: int = 0
    span: tuple[int, int] = (0, 0)
    pattern: Pattern = "svo"
    # Conclusion sentences ("So the answer is X") state a result and create no bridge.
    conclusion: bool = False
    subject_entity: str | None = None
    object_entity: str | None = None
    resolutions: list[Resolution] = Field(default_factory=list)


class Mention(_Strict):
    """A surface form of an entity, with why it joined its cluster."""

    text: str
    span: tuple[int, int] | None = None
    reason: str = "first mention"


class Entity(_Strict):
    id: str
    name: str
    kind: EntityKind = "other"
    mentions: list[Mention] = Field(default_factory=list)


class QuestionEntity(_Strict):
    name: str
    anchor: bool = True
    reached: bool = False
    entity: str | None = None


class Gap(_Strict):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    from_: str = Field(alias="from")
    to: str
    anchor: str | None = None

    def describe(self) -> str:
        return f"missing proposition linking {self.from_} to {self.to}"


class Signal(_Strict):
    """A finding about one record: a kind of the signal catalogue at one of the severities it
    declares for that kind (docs/metrics.md, "Failure types and signals")."""

    kind: str = Field(json_schema_extra={"enum": list(SIGNALS)})
    severity: Severity
    propositions: list[str] = Field(default_factory=list)
    message: str

    @model_validator(mode="after")
    def _catalogued(self) -> Signal:
        entry = SIGNALS.get(self.kind)
        if entry is None:
            raise ValueError(f"signal kind {self.kind!r} is not in the catalogue "
                             "(logicscore/lexicon/signals.py): declare it there first")
        if self.severity not in entry.severities:
            raise ValueError(f"signal {self.kind!r} is {'/'.join(entry.severities)} in the catalogue, "
                             f"not {self.severity!r}")
        return self


class Side(_Strict):
    """One compared entity of a comparison or yes/no question, and the values stated for it."""

    name: str
    entity: str | None = None
    established: bool = False
    values: list[str] = Field(default_factory=list)
    propositions: list[str] = Field(default_factory=list)
    negated: bool = False


class Diagnosis(_Strict):
    failure: FailureType | None = None
    gap: Gap | None = None
    gaps: list[Gap] = Field(default_factory=list)
    answer_absent: bool = False
    redundant: list[str] = Field(default_factory=list)
    signals: list[Signal] = Field(default_factory=list)


class Scores(_Strict):
    # 1 or 0; null when the record is `unverified` (`AuditResult.completeness`).
    completeness: int | None
    conciseness: float
    determinateness: int
    partial_completeness: float
    conciseness_partial: float
    # Share of chain hops grounded in their cited documents; None without documents.
    grounded_chain: float | None = None


class HopGrounding(_Strict):
    """One chain hop against the documents it cites, and which of them support it."""

    hop: int
    proposition: str
    status: GroundingStatus
    citations: list[str] = Field(default_factory=list)
    supported_by: list[str] = Field(default_factory=list)


class Hop(_Strict):
    """One asked hop of the question and whether the long answer states it (docs/metrics.md,
    "Hops"): what it asks, its input (an anchor or the previous hop's result), its result, and
    the sentence that states it, as located in the long answer."""

    index: int
    asks: str
    input: str | None = None
    result: str | None = None
    stated: bool = False
    check: HopCheckKind = "unstated"
    evidence: str | None = None
    # The cited sentence's index among `AuditResult.sentences` and its span in the long answer.
    sentence: int | None = None
    span: tuple[int, int] | None = None
    # Why the hop is not stated, in words (the model's reason or the tool's check).
    why: str | None = None


class HopCheck(_Strict):
    """The question's hops as a hop stage read them, and the verdict they give."""

    stage: str
    hops: list[Hop] = Field(default_factory=list)
    # Whether the short answer is what the last hop yields (None: the stage cannot tell).
    answer_follows: bool | None = None
    # Every anchor of the question is written in the long answer (name, alias, reference).
    anchors_written: bool = True
    complete: bool = False
    # What decided the verdict: "hops" (the hops above), "chain" (the rules' chain), the named
    # rule that shows the answer incomplete (docs/metrics.md, "Three verdicts"), or None when
    # nothing did (unverified).
    decided_by: str | None = None


class SentenceRole(_Strict):
    """One sentence of the long answer and the part it plays (`roles.sentence_roles`)."""

    index: int
    span: tuple[int, int]
    role: Literal["chain", "redundant", "no_proposition"]
    propositions: list[str] = Field(default_factory=list)
    text: str | None = None


class ErrorInfo(_Strict):
    type: ErrorType
    message: str
    line: int | None = None


class AgentMeta(_Strict):
    """What `assess` asked the agent under test and what came back (no URL, no key)."""

    model: str
    prompt_sha256: str
    signature: str
    latency_ms: float | None = None
    cached: bool = False
    answer: str | None = None
    long_answer: str | None = None  # the text the propositions' spans index
    reply: str | None = None        # kept only when no short answer could be parsed from it


class ResultMeta(_Strict):
    signature: str
    # The grounder's signature keys, on a record it grounded (one with documents) only: the
    # run's `signature` is the same whether a record had documents or not (docs/records.md).
    grounder: str | None = None
    latency_ms: float | None = None
    line: int | None = None
    hops: int | None = None
    record: dict[str, Any] = Field(default_factory=dict)
    agent: AgentMeta | None = None
    # Where the short answer came from (docs/records.md): the record's field, an "Answer: X"
    # line of the response, or the conclusion it states (then `answer_rule` names the rule).
    answer_source: AnswerSource | None = None
    answer_rule: str | None = None


class AuditResult(_Strict):
    """The output record; its field names are the contract of docs/records.md."""

    id: str | None
    status: Literal["ok", "error"] = "ok"
    # The record's own question, short answer and gold answer (null with `score --no-text`).
    question: str | None = None
    answer: str | None = None
    gold_answer: str | None = None
    question_type: QuestionType | None = None
    scores: Scores | None = None
    determinateness: Verdict | None = None
    # Runs with a hop stage (`--hops`): complete, incomplete or unverified; left out otherwise.
    completeness: CompletenessVerdict | None = None
    question_entities: list[QuestionEntity] = Field(default_factory=list)
    answer_entity: str | None = None
    chain: list[str] = Field(default_factory=list)
    alternatives: list[list[str]] = Field(default_factory=list)
    diagnosis: Diagnosis | None = None
    # Comparison and yes/no questions only: each side and what the answer states of it.
    sides: list[Side] = Field(default_factory=list)
    # The long answer's sentences in text order, each with its role (docs/records.md).
    sentences: list[SentenceRole] = Field(default_factory=list)
    propositions: list[Proposition] = Field(default_factory=list)
    entities: list[Entity] = Field(default_factory=list)
    # Records with documents only: one row per chain hop.
    grounding: list[HopGrounding] | None = None
    # Runs with a hop stage only (`--hops`): the question's hops and what they give.
    hops: HopCheck | None = None
    correct: bool | None = None
    error: ErrorInfo | None = None
    meta: ResultMeta

    def without_text(self) -> AuditResult:
        """This record with the answer's words left out (`score --no-text`): question, short
        and gold answer, each sentence's text and each hop's words null; spans and roles stay."""
        sentences = [s.model_copy(update={"text": None}) for s in self.sentences]
        update: dict[str, Any] = {"question": None, "answer": None, "gold_answer": None,
                                  "sentences": sentences}
        if self.hops is not None:  # a hop quotes the question and its sentence: spans stay
            update["hops"] = self.hops.model_copy(update={"hops": [
                h.model_copy(update={"asks": "", "input": None, "result": None, "evidence": None,
                                     "why": None}) for h in self.hops.hops]})
        return self.model_copy(update=update)

    def to_json(self) -> str:
        """One JSONL line; byte-stable for equal results, `latency_ms` left out when None.

        pydantic-core writes the line straight from the models, the bytes `json.dumps` gives
        for the dumped dict: the same field order, escapes and float digits. Where they may
        differ the dict is dumped as before: a float below 1e-4 (written "0.00001" or "1e-9"
        where json writes "1e-05" or "1e-09"; a string holding such text is sent the same
        way), a lone surrogate (which pydantic-core refuses and json writes, for the writer
        to refuse), an inf or nan where None is left out (the dump makes it None)."""
        exclude = self._left_out()
        if exclude is not None:
            try:
                line = self.model_dump_json(by_alias=True, exclude=exclude)
            except ValueError:  # a lone surrogate: json writes it, for the writer to refuse
                return self._dumped_json()
            if _TINY_PLAIN not in line and not _NEGATIVE_EXPONENT.search(line):
                return line
        return self._dumped_json()

    def _left_out(self) -> dict[str, Any] | None:
        """The fields `to_json` leaves out, as `exclude` takes them; None when a field that is
        left out when None holds an inf or nan float, which only the dumped dict shows as None."""
        agent = self.meta.agent
        optional = (self.scores.grounded_chain if self.scores is not None else None,
                    self.meta.latency_ms, agent.latency_ms if agent is not None else None)
        if any(isinstance(x, float) and not math.isfinite(x) for x in optional):
            return None
        exclude: dict[str, Any] = {}
        # Grounding is left out when the record had no documents: older outputs keep their bytes.
        if self.grounding is None:
            exclude["grounding"] = True
        # Likewise the hops and the three-way verdict without a hop stage.
        if self.hops is None:
            exclude["hops"] = True
        if self.completeness is None:
            exclude["completeness"] = True
        if self.scores is not None and self.scores.grounded_chain is None:
            exclude["scores"] = {"grounded_chain": True}
        meta: dict[str, Any] = {}
        if self.meta.latency_ms is None:
            meta["latency_ms"] = True
        if self.meta.grounder is None:
            meta["grounder"] = True
        # Records of `score` carry no agent: their bytes stay what they were.
        if agent is None:
            meta["agent"] = True
        elif agent.latency_ms is None:
            meta["agent"] = {"latency_ms": True}
        if meta:
            exclude["meta"] = meta
        return exclude

    def _dumped_json(self) -> str:
        """`to_json` by way of the dumped dict and `json.dumps`, for any value."""
        data = self.model_dump(mode="json", by_alias=True)
        for optional_field in ("grounding", "hops", "completeness"):
            if data[optional_field] is None:
                data.pop(optional_field)
        if data["scores"] is not None and data["scores"]["grounded_chain"] is None:
            data["scores"].pop("grounded_chain")
        if data["meta"].get("latency_ms") is None:
            data["meta"].pop("latency_ms", None)
        if data["meta"].get("grounder", 0) is None:
            data["meta"].pop("grounder")
        if data["meta"].get("agent", 0) is None:
            data["meta"].pop("agent")
        elif data["meta"]["agent"].get("latency_ms") is None:
            data["meta"]["agent"].pop("latency_ms")
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
