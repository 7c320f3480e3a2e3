"""The records one answer's audit passes from stage to stage, and what each stage promises.

A record flows one way (docs/architecture.md, "The stage flow"):

    question reader → extractor → linker → completeness (by question type) → judge
                    → signals and scores → grounder

Each stage reads the records the stages before it made and makes its own:

- the question reader and question typing make a `Reading`;
- the extractor an `Extraction` (propositions and `ExtractedMention`s);
- the linker a `Linked` answer (and, for a sided question, the `Reading`'s linked sides);
- the completeness stage a `Completed`: the `Chain` analysis and, for a comparison or
  yes/no question, its `Sides`;
- the judge the one `Verdict`; a hop stage (`--hops`) the question's `Hops`, each checked
  against the long answer; the grounder one `HopGrounding` row per `ChainLink`.

`Draft` holds them for one record while it moves through the stages, as a spaCy `Doc`
does through a pipeline's components. The stage protocols are here too; `logicscore.pipeline.registry`
keeps the registry that builds stages by name. This module imports nothing of logicscore
but `models`, so every stage can name these types without importing another stage.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Protocol, runtime_checkable

from pydantic import BaseModel

from ..models import (
    Diagnosis,
    Entity,
    Hop,
    HopCheck,
    HopGrounding,
    Proposition,
    QARecord,
    QuestionEntity,
    Scores,
    Side,
    Signal,
    Verdict,
)

__all__ = [
    "Chain", "Completed", "Completeness", "Draft", "Extraction", "ExtractedMention", "Extractor",
    "ChainLink", "Grounder", "Hop", "HopGrounding", "HopReader", "Hops", "Judge", "Linked", "Linker",
    "QuestionReader", "Reading", "Sides", "Stage",
]


# The records, in the order the stages make them.

@dataclass
class Reading:
    """What the question asks: its type, the rule that typed it, its entities as read and
    the compared sides of a comparison or yes/no question (picked by the question step,
    linked to entities by the linking step).

    `type_rule` is None when no question-type rule holds (scored as a bridge question).
    `sided` says the type compares sides (comparison, yes/no) rather than asks a thing.
    `chosen` are the indices of the `sides` the short answer names.
    """

    qtype: str
    type_rule: str | None
    entities: list[QuestionEntity]
    sided: bool = False
    sides: list[QuestionEntity] = field(default_factory=list)
    chosen: list[int] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ExtractedMention:
    """An entity surface form the extractor found, with its character span in the long answer.

    `kind` is the coarse entity kind when the extractor knows it (NER), else "other". The
    linker clusters these into `models.Entity`s, whose `models.Mention`s are the output's
    record of each form and why it joined.
    """

    text: str
    start: int
    end: int
    kind: str = "other"


@dataclass
class Extraction:
    """What an extractor hands to the linker.

    `mentions` are every entity surface form found in the long answer (proposition
    arguments included). An extractor that also reads the question (the `llm` one, whose
    one call names the question's entities) sets `question_entities`; the Auditor uses them
    when the record gives none. `signals` are the extractor's own findings about the text
    (`unanchored_proposition`), appended after the shared signals.
    """

    propositions: list[Proposition]
    mentions: list[ExtractedMention] = field(default_factory=list)
    question_entities: list[str] | None = None
    signals: list[Signal] = field(default_factory=list)
    # [start, end) of each sentence of the long answer as the extractor split it (None: the
    # record's sentences are split by `roles` instead).
    sentences: list[tuple[int, int]] | None = None


@dataclass
class Linked:
    """Propositions with entity ids, the entities, and the question and answer matched to them."""

    propositions: list[Proposition]
    entities: list[Entity]
    question: list[QuestionEntity]
    answer_entity: str | None


@dataclass
class Chain:
    """Everything the search found: the chain, its alternatives, and what is missing.

    `diagnosis` is the record's own `Diagnosis` (failure, gaps, absent answer, redundant
    propositions); the signals are added to it later.
    """

    chain: list[str] = field(default_factory=list)
    entity_path: list[str] = field(default_factory=list)
    alternatives: list[list[str]] = field(default_factory=list)
    reached: list[str] = field(default_factory=list)
    complete: bool = False
    diagnosis: Diagnosis = field(default_factory=Diagnosis)
    partial_completeness: float = 0.0
    conciseness_partial: float = 0.0
    best_partial: list[str] = field(default_factory=list)
    # No anchor in the question: completeness fell back to "reaches any question entity".
    fallback: bool = False
    # Anchors whose name matched no entity of the long answer (always unreached).
    unmatched_anchors: list[str] = field(default_factory=list)
    # Conclusion propositions: they state a result, bridge nothing and are not counted in |P|.
    conclusions: list[str] = field(default_factory=list)
    # Why completeness is left undecided (`unverified`, docs/metrics.md), or None when decided.
    undecided: str | None = None


@dataclass
class Sides:
    """Completeness of a comparison or yes/no answer: the analysis that replaces the chain's,
    each side with its values, the signals, and the verdict the stated values select.

    `verdict` is None when the sides select none and leave the verdict to the judge (a value
    both sides share, chained or not).
    """

    result: Chain
    verdict: Verdict | None = None
    sides: list[Side] = field(default_factory=list)
    signals: list[Signal] = field(default_factory=list)


@dataclass
class Completed:
    """What the completeness stage found: the chain analysis, its own signals
    (`relation_mismatch`), and the sides of a sided question."""

    chain: Chain
    signals: list[Signal] = field(default_factory=list)
    sides: Sides | None = None

    @property
    def result(self) -> Chain:
        """The analysis the record reports: the sides' when there are sides, else the chain's."""
        return self.sides.result if self.sides is not None else self.chain


@dataclass
class Hops:
    """What a hop stage read: the question's asked hops (`models.Hop`), each already checked
    against the long answer, whether the short answer is what the last one yields (None when
    the stage cannot tell) and the stage's own signals (docs/metrics.md, "Hops")."""

    stage: str
    hops: list[Hop] = field(default_factory=list)
    answer_follows: bool | None = None
    signals: list[Signal] = field(default_factory=list)


@dataclass(frozen=True)
class ChainLink:
    """One link of the chain to ground: its proposition, the entity forms, the documents it cites."""

    index: int
    proposition: Proposition
    subject_forms: tuple[str, ...]
    object_forms: tuple[str, ...]
    cited: tuple[tuple[str, str], ...]   # (document id, text) of each marker that resolves
    unknown: tuple[str, ...]             # markers that name no document


@dataclass
class Draft:
    """One record's audit in the making: each stage sets the fields it makes, in flow order.

    A field is unset (reading it raises AttributeError) until its stage has run; `extraction`
    may be set by the question step when the extractor also reads the question.
    """

    record: QARecord
    extraction: Extraction | None = None
    reading: Reading = field(init=False)
    linked: Linked = field(init=False)
    # The long answer's own findings before any chain (`refusal`, `unsupported_language`).
    prose: list[Signal] = field(init=False)
    abstained: bool = field(init=False)
    completed: Completed = field(init=False)
    verdict: Verdict = field(init=False)
    # Set only when the Auditor has a hop stage (`--hops`).
    hops: Hops | None = None
    hop_check: HopCheck | None = None
    signals: list[Signal] = field(init=False)
    scores: Scores = field(init=False)
    grounding: list[HopGrounding] | None = None


# The stage protocols, in the order a record meets the stages.

@runtime_checkable
class Stage(Protocol):
    """What every stage has: a registered name, a Config model and its signature keys."""

    name: ClassVar[str]
    Config: ClassVar[type[BaseModel]]

    def signature(self) -> list[tuple[str, object]]: ...


class QuestionReader(Stage, Protocol):
    def read(self, record: QARecord) -> list[QuestionEntity]: ...


@runtime_checkable
class Extractor(Stage, Protocol):
    name: ClassVar[str]
    Config: ClassVar[type[BaseModel]]

    def extract(self, record: QARecord, hints: list[str]) -> Extraction:
        """Decompose `record.long_answer`; `hints` are question-entity strings to keep whole."""
        ...

    def signature(self) -> list[tuple[str, object]]: ...


class Linker(Stage, Protocol):
    def link(self, extraction: Extraction, question: list[QuestionEntity],
             record: QARecord) -> Linked: ...

    def same_answer(self, a: str, b: str) -> bool: ...


class Completeness(Stage, Protocol):
    """Completeness for the question types it names; the Auditor picks one per record."""

    question_types: ClassVar[tuple[str, ...]]

    def complete(self, record: QARecord, linked: Linked, reading: Reading) -> Completed: ...


class Judge(Stage, Protocol):
    """The one verdict: whether the long answer alone yields the short answer. It gets the
    question type (`reading.qtype`) and what the completeness stage found; a judge that
    reads the sides may take their `verdict`, one that reads the passage itself need not."""

    def judge(self, record: QARecord, linked: Linked, completed: Completed,
              reading: Reading) -> Verdict: ...


class HopReader(Stage, Protocol):
    """The question's hops, each checked against the long answer; `sentences` are the
    [start, end) spans of the long answer's sentences, as the record reports them."""

    def read_hops(self, record: QARecord, linked: Linked, reading: Reading,
                  sentences: list[tuple[int, int]]) -> Hops: ...


class Grounder(Protocol):
    """What the Auditor calls for a record with documents, and its signature keys."""

    def signature(self) -> list[tuple[str, object]]: ...

    def ground(self, record: QARecord, linked: Linked, result: Chain) -> list[HopGrounding]: ...
