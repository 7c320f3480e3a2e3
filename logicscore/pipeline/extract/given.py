"""The `given` extractor: propositions supplied in the record, used as they are."""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict

from ...errors import InputError
from ...models import Proposition, QARecord
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
        starts = first_positions(record.long_answer, [g.text for g in record.propositions if g.text])
        for i, given in enumerate(record.propositions):
            text = given.text or " ".join(p for p in (given.subject, given.relation, given.object) if p)
            start = starts[text] if given.text else -1
            span = (start, start + len(text)) if start >= 0 else (0, 0)
            props.append(Proposition(
                id=f"P{i + 1}", text=text, subject=given.subject, relation=given.relation,
                object=given.object, citations=list(given.citations), negated=given.negated,
                hedged=given.hedged, sentence=i, span=span, pattern="given",
            ))
        return Extraction(propositions=props)

    def signature(self) -> list[tuple[str, object]]:
        return [("extractor", "given")]


# Below this many characters searched in all, each text is looked up on its own.
_SCAN_FROM = 4_000_000
_KEY = 8


def first_positions(text: str, needles: list[str]) -> dict[str, int]:
    """`text.find(n)` of each needle. A long answer's propositions come in its order, so
    finding each from the start reads the text once per proposition; one pass over it, keyed
    by each needle's first characters, finds them all."""
    todo = list(dict.fromkeys(needles))
    if len(todo) * len(text) < _SCAN_FROM:
        return {n: text.find(n) for n in todo}
    found = {n: text.find(n) for n in todo if len(n) < _KEY}
    waiting: dict[str, list[str]] = {}
    for n in todo:
        if len(n) >= _KEY:
            waiting.setdefault(n[:_KEY], []).append(n)
    left = sum(map(len, waiting.values()))
    for pos in range(len(text) - _KEY + 1):
        if not left:
            break
        group = waiting.get(text[pos:pos + _KEY])
        if group:
            for n in [n for n in group if text.startswith(n, pos)]:
                found[n] = pos
                group.remove(n)
                left -= 1
    for group in waiting.values():
        found.update((n, -1) for n in group)
    return found
