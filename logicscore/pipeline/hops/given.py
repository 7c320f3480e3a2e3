"""`--hops given`: the record's own decomposition (`question_hops`, as MuSiQue and
2WikiMultiHopQA ship it, filled by `--format musique` / `--format 2wiki`), checked against the
long answer with no model (docs/metrics.md, "Hops").

A given hop is stated when one sentence of the long answer writes both its input and its
answer, by name, alias or resolved reference. The relation itself is not read: what the text
shows is that the two are put together in one sentence. The last hop's answer is the short
answer when none is given. A hop's input is where its sub-question says it starts (`_starts`):

- an earlier answer its "#k" references name (any one of them: "the region of #1 where #2
  lies" is stated by "#2 lies in <region>", #1 being tied in by its own hop);
- else, for the first hop or in a decomposition that writes "#k" (so a step without one
  starts afresh: MuSiQue's parallel steps), a question entity its sub-question names;
- else a question entity it names that no sub-question before it named (a new subject: a
  comparison's other side), else the previous hop's answer (it goes on from "that film", or
  restates the chain: "the film that stars Ona Pell");
- with none of these, any question entity.

A sided question's (or a yes/no answer's) given hops may stop at the compared values: the
comparison is then no given hop, and whether they yield the short answer is left open
(`answer_follows` None) rather than counted against the answer.
"""

from __future__ import annotations

import re
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from ...config import default
from ...models import QARecord, Signal
from ..flow import Hops, Linked, Reading
from ..text.phrases import content_stems
from . import ProposedHop, verify, yields_answer
from .check import WORD_SHARE, judgment, written_in

# "#1", "#2": MuSiQue's references to an earlier sub-question's answer.
_REFERENCE = re.compile(r"#(\d+)")


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
        names = [q.name for q in linked.question]
        referring = any(_REFERENCE.search(h.question) for h in given)
        proposed: list[ProposedHop] = []
        results: list[str] = []
        for n, hop in enumerate(given):
            result = hop.answer or (record.answer if n == len(given) - 1 else None)
            starts = _starts(hop.question, [h.question for h in given[:n]], results, names, referring)
            sentence, hop_input = self._sentence(record, linked, sentences, starts, result, names, t)
            proposed.append(ProposedHop(
                asks=_filled(hop.question, results), input=hop_input, result=result,
                stated=sentence is not None,
                evidence=record.long_answer[sentence[0]:sentence[1]] if sentence else None,
                why=None if sentence else _why(hop_input, result)))
            results.append(result or f"#{n + 1}")
        hops = verify(proposed, record, linked, reading, sentences, t)
        last = hops[-1]
        follows = yields_answer(last, record.answer, record.long_answer, linked, t) if last.stated else None
        if follows is False and (reading.sided or judgment(record.answer)):
            follows = None  # the hops stop at the compared values; the comparison is no given hop
        return Hops(stage=self.name, hops=hops, answer_follows=follows)

    def _sentence(self, record: QARecord, linked: Linked, sentences: list[tuple[int, int]],
                  starts: list[str], result: str | None, names: list[str],
                  t: float) -> tuple[tuple[int, int] | None, str | None]:
        """The first sentence that writes the hop's result and one of its inputs (with none,
        a question entity), and the input it wrote."""
        shown = " or ".join(starts) or None
        if result is None:
            return None, shown
        for span in sentences:
            if not written_in(result, span, record.long_answer, linked, t):
                continue
            wrote = next((s for s in starts if written_in(s, span, record.long_answer, linked, t)), None)
            if wrote is not None:
                return span, wrote
            if not starts and (not names or any(written_in(n, span, record.long_answer, linked, t)
                                                for n in names)):
                return span, None
        return None, shown

    def signature(self) -> list[tuple[str, object]]:
        return [("hops", "given"), ("fuzzy", _number(self.config.fuzzy_threshold))]


def _starts(question: str, asked: list[str], results: list[str], names: list[str], referring: bool
            ) -> list[str]:
    """Where a hop may start (see the module docstring); none: from any question entity."""
    refs = [int(k) for k in _REFERENCE.findall(question) if 0 < int(k) <= len(results)]
    if refs:
        return list(dict.fromkeys(results[k - 1] for k in refs))
    named = [n for n in names if _names(question, n)]
    if not results or referring:
        return named
    fresh = [n for n in named if not any(_names(q, n) for q in asked)]
    return fresh or [results[-1]]


def _names(question: str, name: str) -> bool:
    """Whether a sub-question names `name`: most of its content words are written there."""
    wanted = content_stems(name)
    return bool(wanted) and len(wanted & content_stems(question)) / len(wanted) >= WORD_SHARE


def _filled(question: str, results: list[str]) -> str:
    """A sub-question with its "#1" references replaced by the answers they stand for."""
    return _REFERENCE.sub(lambda m: results[int(m.group(1)) - 1] if 0 < int(m.group(1)) <= len(results)
                          else m.group(0), question)


def _why(hop_input: str | None, result: str | None) -> str:
    if result is None:
        return "the record gives no answer for this hop"
    start = f"“{hop_input}”" if hop_input else "a question entity"
    return f"no sentence writes both {start} and “{result}”"


def _number(value: float) -> float | int:
    """85.0 as 85, as the linker writes its threshold: one key, one spelling, in the signature."""
    return int(value) if float(value).is_integer() else value
