"""The question's hops (docs/metrics.md, "Hops"): every asked relation, checked sentence by sentence.

A hop is one sub-question on the way from the question's anchors to what it asks: its input
(an anchor, or the previous hop's result), the relation asked, its result. A hop stage,
chosen by name (`--hops`: `llm`, `given`), proposes the hops and, for each, the passage of the
long answer that states it; `verify` keeps a hop stated only when the text shows it
(`check.py`), and `verdict.py` turns the hops into the record's completeness.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from ...models import Hop, QARecord
from ..flow import Linked, Reading
from ..text.mentions import same_answer
from .check import judgment, linked_input, locate, sentence_at, written_in

__all__ = ["ProposedHop", "verify", "yields_answer"]

_QUOTED = 160  # characters of a cited passage quoted in a reason


class ProposedHop(BaseModel):
    """One hop as a stage proposes it, before the text is checked (the reply schema of
    `--hops llm`, docs/llm.md); fields a reply leaves out take these defaults."""

    model_config = ConfigDict(extra="ignore")

    asks: str = ""
    input: str | None = None
    result: str | None = None
    stated: bool = False
    evidence: str | None = None
    why: str | None = None


def verify(proposed: Sequence[ProposedHop], record: QARecord, linked: Linked, reading: Reading,
           sentences: Sequence[tuple[int, int]], threshold: float) -> list[Hop]:
    """Each proposed hop as the text shows it: stated only if its passage, result and input check."""
    names = [q.name for q in linked.question]
    out: list[Hop] = []
    for n, p in enumerate(proposed, 1):
        span = locate(record.long_answer, p.evidence)
        # A sided question's last hop compares the sides: its input is the hops before it.
        compares = reading.sided and n == len(proposed) and n > 1
        check, why = _check(p, span, out, record, linked, names, threshold, compares)
        out.append(Hop(
            index=n, asks=p.asks.strip() or f"hop {n}", input=p.input, result=p.result,
            stated=check == "stated", check=check,
            evidence=record.long_answer[span[0]:span[1]] if span else p.evidence,
            sentence=sentence_at(span, sentences) if span else None, span=span,
            why=None if check == "stated" else why))
    return _described_bridges(out, record, linked, threshold) if reading.sided else out


def _described_bridges(hops: list[Hop], record: QARecord, linked: Linked, threshold: float) -> list[Hop]:
    """A comparison over a bridge ("the film whose director died first") states the compared
    value of each side's bridge by description ("The director of Grey Fen died in 1981"): the
    bridge is never named, yet the attribute is stated of it. A hop with no result followed by
    a hop whose cited sentence names this hop's input and writes its own result counts for both
    (`described_bridge`); the comparison hop itself is checked as any other."""
    out = list(hops)
    for n in range(len(out) - 2):  # the last hop is the comparison
        bridge, attribute = out[n], out[n + 1]
        if bridge.stated or bridge.result is not None or attribute.span is None:
            continue
        if not (written_in(attribute.result, attribute.span, record.long_answer, linked, threshold)
                and written_in(bridge.input, attribute.span, record.long_answer, linked, threshold)):
            continue
        shown = {"stated": True, "check": "described_bridge", "why": None}
        out[n] = bridge.model_copy(update={**shown, "evidence": attribute.evidence,
                                           "sentence": attribute.sentence, "span": attribute.span})
        if not attribute.stated:
            out[n + 1] = attribute.model_copy(update=shown)
    return out


def _check(p: ProposedHop, span: tuple[int, int] | None, earlier: list[Hop], record: QARecord,
           linked: Linked, names: list[str], threshold: float, compares: bool) -> tuple[str, str]:
    """The check that decides the hop ("stated", or why not) and the reason in words."""
    if not p.stated:
        return "unstated", (p.why or "no sentence states it").strip()
    if not p.evidence or not p.evidence.strip():
        return "no_evidence", "no sentence was cited for it"
    if span is None:
        return "evidence_not_in_answer", f"the cited sentence is not in the long answer: “{_clip(p.evidence)}”"
    # A comparison's last hop picks one of the sides: its result may be named elsewhere.
    chosen = compares and p.result is not None and any(
        same_answer(p.result, n, threshold) for n in [*names, record.answer])
    if not chosen and not written_in(p.result, span, record.long_answer, linked, threshold):
        shown = f"“{p.result}”" if p.result else "no result"
        return "result_not_in_evidence", f"{shown} is not written in the cited sentence"
    if not compares and not linked_input(p.input, earlier, record.question, names, threshold):
        return "input_not_linked", f"it starts from “{p.input}”, which neither the question nor an earlier hop names"
    return "stated", ""


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _QUOTED else text[:_QUOTED] + "…"


def yields_answer(last: Hop | None, answer: str, long_answer: str, linked: Linked, threshold: float) -> bool:
    """Whether the last hop yields the short answer: its result is the answer, a yes/no
    outcome, or its passage writes the answer."""
    if last is None or last.result is None:
        return False
    if judgment(last.result) or same_answer(last.result, answer, threshold):
        return True
    return last.span is not None and written_in(answer, last.span, long_answer, linked, threshold)
