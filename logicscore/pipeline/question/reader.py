"""The `rules` question reader: the question's entities, given in the record or detected."""

from __future__ import annotations

import re
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from ...lexicon.generic import is_generic
from ...lexicon.prose import RESTATEMENT
from ...models import QARecord, QuestionEntity
from ..registry import SpacyPipeline
from .detect import detect_question_entities, known


class RulesQuestionReader:
    """Takes `record.question_entities` when given; else reads Q with the shared spaCy pipeline.

    The pipeline is touched only for a record without question entities, so a run whose
    records all carry them never loads spaCy, and its signature names no spaCy model.
    """

    name: ClassVar[str] = "rules"
    requires: ClassVar[tuple[str, ...]] = ("spacy",)

    class Config(BaseModel):
        model_config = ConfigDict(extra="forbid")

    def __init__(self, config: RulesQuestionReader.Config | None = None,
                 spacy: SpacyPipeline | None = None):
        self.config = config or self.Config()
        self.spacy = spacy if spacy is not None else SpacyPipeline()
        self._docs: dict[str, Any] = {}  # the current window's parses, by question

    def prepare(self, records: list[QARecord]) -> None:
        """Parse the window's questions that need detecting in one `nlp.pipe`."""
        from ...parsing.loader import parse_many

        self._docs = {}
        todo = [r for r in records if not r.question_entities]
        if not todo or not self.spacy.loaded:
            # Loading is left to the first record that needs spaCy, as unbatched: records
            # before it keep a signature that names no spaCy model.
            return
        nlp = self.spacy.nlp
        texts = [r.question for r in todo if not known(r.question, nlp, unrestated(r.long_answer))]
        try:
            self._docs = parse_many(nlp, texts)
        except Exception:  # noqa: BLE001 - each record then parses alone and fails alone
            self._docs = {}

    def read(self, record: QARecord) -> list[QuestionEntity]:
        """The question entities of `record`, generic ones with anchor=False."""
        if record.question_entities:
            return [QuestionEntity(name=n, anchor=not is_generic(n)) for n in record.question_entities]
        return detect_question_entities(record.question, nlp=self.spacy.nlp,
                                        context=unrestated(record.long_answer),
                                        doc=self._docs.get(record.question))

    def signature(self) -> list[tuple[str, object]]:
        spacy = self.spacy.model_id() if self.spacy.loaded else None
        return [("question", "rules"), ("spacy", spacy)]


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[.!?][\"”’)])\s+")


def unrestated(long_answer: str) -> str:
    """The long answer without its sentences that restate the question: the question's names
    are read as the answer writes them, not from the answer's copy of the question."""
    parts = _SENTENCE_END.split(long_answer)
    kept = [s for s in parts if not RESTATEMENT.match(s)]
    return long_answer if len(kept) == len(parts) else " ".join(kept)
