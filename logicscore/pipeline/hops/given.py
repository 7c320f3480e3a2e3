"""`--hops given`: the record's own decomposition (`question_hops`, as MuSiQue and
2WikiMultiHopQA ship it, filled by `--format musique` / `--format 2wiki`), checked against the
long answer with no model (docs/metrics.md, "Hops").

A given hop is stated when one sentence of the long answer writes both its input (the
previous hop's answer, or a question entity for the first hop) and its answer, by name, alias
or resolved reference. The relation itself is not read: what the text shows is that the two
are put together in one sentence. The last hop's answer is the short answer when none is
given.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from ...config import default
from ...models import QARecord, Signal
from ..flow import Hops, Linked, Reading
from . import ProposedHop, verify, yields_answer
from .check import written_in

# "#1", "#2": MuSiQue's references to an earlier sub-question's answer.
_REFERENCE = "#"


class GivenHops:
    """The record's given hops, each looked for in one sentence of the long answer."""

    name: ClassVar[str] = "given"

    class Config(BaseModel):
        model_config = ConfigDict(extra="forbid")
        fuzzy_threshold: float = Field(default("fuzzy_threshold"), ge=0, le=100,
                                       description="name similarity (0-100) that counts as the same")

    def __init__(self, config: GivenHops.Config | None = None):
        self.config = config or self.Config()

    def read_hops(self, record: QARecord, linked: Linked, reading: Reading,
                  sentences: list[tuple[int, int]]) -> Hops:
        given = record.question_hops or []
        if not given:
            return Hops(stage=self.name, signals=[Signal(
                kind="unstated_hop", severity="info",
                message="--hops given: the record carries no question_hops; nothing to check")])
        t = self.config.fuzzy_threshold
        proposed: list[ProposedHop] = []
        results: list[str] = []
        for n, hop in enumerate(given):
            result = hop.answer or (record.answer if n == len(given) - 1 else None)
            asks = _filled(hop.question, results)
            hop_input = results[-1] if results else None
            sentence = self._sentence(record, linked, sentences, hop_input, result, proposed, t)
            proposed.append(ProposedHop(
                asks=asks, input=hop_input, result=result, stated=sentence is not None,
                evidence=record.long_answer[sentence[0]:sentence[1]] if sentence else None,
                why=None if sentence else _why(hop_input, result)))
            results.append(result or f"#{n + 1}")
        hops = verify(proposed, record, linked, reading, sentences, t)
        follows = yields_answer(hops[-1], record.answer, record.long_answer, linked, t) if hops[-1].stated else None
        return Hops(stage=self.name, hops=hops, answer_follows=follows)

    def _sentence(self, record: QARecord, linked: Linked, sentences: list[tuple[int, int]],
                  hop_input: str | None, result: str | None, earlier: list[ProposedHop],
                  t: float) -> tuple[int, int] | None:
        """The first sentence that writes the hop's input and its result."""
        if result is None:
            return None
        for span in sentences:
            if not written_in(result, span, record.long_answer, linked, t):
                continue
            if hop_input is None:
                names = [q.name for q in linked.question]
                if any(written_in(n, span, record.long_answer, linked, t) for n in names) or not names:
                    return span
            elif written_in(hop_input, span, record.long_answer, linked, t):
                return span
        return None

    def signature(self) -> list[tuple[str, object]]:
        return [("hops", "given"), ("fuzzy", self.config.fuzzy_threshold)]


def _filled(question: str, results: list[str]) -> str:
    """A sub-question with its "#1" references replaced by the answers they stand for."""
    for n in range(len(results), 0, -1):
        question = question.replace(f"{_REFERENCE}{n}", results[n - 1])
    return question


def _why(hop_input: str | None, result: str | None) -> str:
    if result is None:
        return "the record gives no answer for this hop"
    start = f"“{hop_input}”" if hop_input else "a question entity"
    return f"no sentence writes both {start} and “{result}”"
