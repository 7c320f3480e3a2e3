"""Completeness from hops and anchors (docs/metrics.md, "Hops").

Complete iff every anchor of the question is written in the long answer (by name, alias or
resolved reference: the linker's reading, the tool's judgment of names), every hop is stated
and the last hop yields the short answer (the model's judgment of relations, verified where
the text can show it). When it is not:

- the first unstated hop is the gap, in words, with an `unstated_hop` signal;
- `circular` when that hop's only evidence restates the question (the answer filled in,
  the bridge never named) or is the concluding sentence;
- `deviated` when every hop is stated but the chain yields something else;
- `broken` otherwise; an anchor never written keeps the chain analysis's gap.

Conciseness counts the propositions of the sentences the hops cite.
"""

from __future__ import annotations

from dataclasses import replace

from ...models import Diagnosis, Gap, Hop, HopCheck, Signal
from ..flow import Chain, Completed, Hops, Linked, Reading
from ..text.phrases import CONCLUDING, restates_question


def decide(completed: Completed, hops: Hops, linked: Linked, reading: Reading, question: str,
           long_answer: str, abstained: bool = False) -> tuple[Completed, HopCheck]:
    """The record's analysis with completeness from the hops, and the hop check it reports.
    An answer that refuses (`abstained`) is never complete, whatever its hops say."""
    result = completed.result
    unwritten = [q.name for q in linked.question if q.anchor and q.entity is None]
    missing = next((h for h in hops.hops if not h.stated), None)
    complete = (bool(hops.hops) and not unwritten and missing is None and not abstained
                and hops.answer_follows is not False)
    check = HopCheck(stage=hops.stage, hops=hops.hops, answer_follows=hops.answer_follows,
                     anchors_written=not unwritten, complete=complete, decided_by="hops")
    cited = _cited(hops.hops, linked)
    counted = [p for p in linked.propositions if not p.conclusion]
    share = round(len(cited) / len(counted), 4) if counted else 0.0
    stated = sum(h.stated for h in hops.hops)
    if complete:
        chain = replace(result, chain=cited, complete=True, partial_completeness=1.0,
                        conciseness_partial=share, best_partial=cited, alternatives=[],
                        diagnosis=result.diagnosis.model_copy(update={
                            "failure": None, "gap": None, "gaps": [], "answer_absent": False,
                            "redundant": [p.id for p in counted if p.id not in cited]}))
    else:
        chain = replace(result, chain=[], complete=False, best_partial=cited,
                        partial_completeness=round(min(1.0 if not unwritten else result.partial_completeness,
                                                       stated / (len(hops.hops) or 1)), 4),
                        conciseness_partial=share,
                        diagnosis=_diagnosis(result, missing, hops, unwritten, question, long_answer,
                                             abstained))
    signals = [*completed.signals, *hops.signals, *_signals(missing, hops, unwritten)]
    if completed.sides is not None:  # the sides stay for the record; their analysis is the hops'
        return Completed(completed.chain, signals, replace(completed.sides, result=chain)), check
    return Completed(chain=chain, signals=signals), check


def _cited(hops: list[Hop], linked: Linked) -> list[str]:
    """The propositions of the sentences stated hops cite, in text order."""
    spans = [h.span for h in hops if h.stated and h.span is not None]
    return [p.id for p in linked.propositions
            if not p.conclusion and any(a <= p.span[0] < b for a, b in spans)]


def _diagnosis(result: Chain, missing: Hop | None, hops: Hops, unwritten: list[str], question: str,
               long_answer: str, abstained: bool) -> Diagnosis:
    if unwritten or abstained or (missing is None and not hops.hops):
        return result.diagnosis.model_copy(update={"failure": result.diagnosis.failure or "broken"})
    if missing is None:  # every hop stated, and the chain yields another answer
        last = hops.hops[-1]
        gap = Gap(**{"from": last.result or last.asks, "to": "the short answer"})
        return result.diagnosis.model_copy(update={"failure": "deviated", "gap": gap, "gaps": [gap]})
    gap = Gap(**{"from": missing.input or "the question", "to": missing.asks})
    failure = "circular" if _restated(missing, question, long_answer) else "broken"
    return result.diagnosis.model_copy(update={"failure": failure, "gap": gap, "gaps": [gap]})


def _restated(hop: Hop, question: str, long_answer: str) -> bool:
    """The hop's only evidence is the question restated with the answer filled in, or the
    concluding sentence."""
    if hop.span is None:
        return False
    text = long_answer[hop.span[0]:hop.span[1]]
    return bool(CONCLUDING.match(text.lstrip())) or restates_question(text, question)


def _signals(missing: Hop | None, hops: Hops, unwritten: list[str]) -> list[Signal]:
    out = []
    if missing is not None:
        out.append(Signal(kind="unstated_hop", severity="hard", message=describe(missing)))
    elif hops.hops and hops.answer_follows is False:
        out.append(Signal(kind="unstated_hop", severity="hard", message=(
            "every hop is stated, but the last one does not yield the short answer")))
    elif not hops.hops:
        out.append(Signal(kind="unstated_hop", severity="hard",
                          message="no hop of the question could be read"))
    if unwritten and missing is None and hops.hops:
        out.append(Signal(kind="unstated_hop", severity="info", message=(
            "every hop is stated, but the long answer never writes " + ", ".join(unwritten))))
    return out


def describe(hop: Hop) -> str:
    """The gap in words: "the long answer never states <what hop 2 asks>: <why>"."""
    asks = hop.asks.rstrip("?").strip()
    start = f" (from {hop.input})" if hop.input else ""
    return f"hop {hop.index}{start}: the long answer never states {_lower(asks)}: {hop.why or hop.check}"


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:] if text[:2] != text[:2].upper() else text
