"""The Extractor seam: interchangeable decomposers of a long answer, chosen by name.

Names map to import paths and load lazily (`logicscore.stages`, the seam every stage kind
shares), so `import logicscore` never pulls in spaCy. Third-party extractors register
through the `logicscore.extractors` entry-point group.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Protocol, runtime_checkable

from pydantic import BaseModel

from .. import stages
from ..models import Proposition, QARecord, Signal

BUILTIN: dict[str, str] = stages.BUILTIN["extractor"]


@dataclass(frozen=True, slots=True)
class Mention:
    """An entity surface form in the long answer, with its character span in the long answer.

    `kind` is the coarse entity kind when the extractor knows it (NER), else "other".
    """

    text: str
    start: int
    end: int
    kind: str = "other"


@dataclass
class Extraction:
    """What an extractor hands to normalization.

    `mentions` are every entity surface form found in the long answer (proposition
    arguments included). An extractor that also reads the question (the `llm` one, whose
    one call names the question's entities) sets `question_entities`; the Auditor uses them
    when the record gives none. `signals` are the extractor's own findings about the text
    (`unanchored_proposition`), appended after the shared signals.
    """

    propositions: list[Proposition]
    mentions: list[Mention] = field(default_factory=list)
    question_entities: list[str] | None = None
    signals: list[Signal] = field(default_factory=list)
    # [start, end) of each sentence of the long answer as the extractor split it (None: the
    # record's sentences are split by `roles` instead).
    sentences: list[tuple[int, int]] | None = None


@runtime_checkable
class Extractor(stages.Stage, Protocol):
    name: ClassVar[str]
    Config: ClassVar[type[BaseModel]]

    def extract(self, record: QARecord, hints: list[str]) -> Extraction:
        """Decompose `record.long_answer`; `hints` are question-entity strings to keep whole."""
        ...

    def signature(self) -> list[tuple[str, object]]: ...


def available() -> dict[str, str]:
    """Every extractor name with its import path: built-ins, then entry points."""
    return stages.available("extractor")


def get_extractor(name: str, **config: object) -> Extractor:
    """Import the extractor called `name` and build it with validated `config`.

    Raises:
        ConfigError: an unknown name (the known ones listed) or a bad option.
    """
    return stages.build("extractor", name, config)
