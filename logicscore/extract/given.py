"""The `given` extractor: propositions supplied in the record, used as they are."""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict

from ..errors import InputError
from ..models import Proposition, QARecord
from . import Extraction


class GivenExtractor:
    """Takes `record.propositions` (subject, relation, object…) instead of parsing text."""

    name: ClassVar[str] = "given"

    class Config(BaseModel):
        model_config = ConfigDict(extra="forbid")

    def __init__(self, config: GivenExtractor.Config | None = None):
        self.config = config or self.Config()

    def extract(self, record: QARecord, hints: list[str]) -> Extraction:
        if record.propositions is None:
            raise InputError(
                f"record {record.id}: the 'given' extractor needs a 'propositions' list "
                "of {subject, relation, object}; use --extractor rules to parse the long answer")
        props: list[Proposition] = []
        for i, given in enumerate(record.propositions):
            text = given.text or " ".join(p for p in (given.subject, given.relation, given.object) if p)
            start = record.long_answer.find(text) if given.text else -1
            span = (start, start + len(text)) if start >= 0 else (0, 0)
            props.append(Proposition(
                id=f"P{i + 1}", text=text, subject=given.subject, relation=given.relation,
                object=given.object, citations=list(given.citations), negated=given.negated,
                hedged=given.hedged, sentence=i, span=span, pattern="given",
            ))
        return Extraction(propositions=props)

    def signature(self) -> list[tuple[str, object]]:
        return [("extractor", "given")]
