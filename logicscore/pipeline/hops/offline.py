"""The offline verdict (docs/metrics.md, "Three verdicts"): complete, incomplete, or unverified.

The rules path decides only what the text shows. A chain the rules built is complete. A
record is incomplete only for a reason the text shows, each a named rule below (`SHOWN`, tried
in order, tested row by row in tests/test_offline_verdict.py). Anything else, a chain the
rules could not build between entities that are all written and that the sentences join, is
`unverified`: completeness null, with an `unverified` signal saying what could not be checked.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from ...models import HopCheck, QARecord, Signal
from ..flow import Chain, Completed, Hops, Linked, Reading
from ..signals import contradictions
from ..text.phrases import content_stems, question_stems
from .rules import sentence_entities

# Share of a name's content words that must be missing from the long answer before "never
# written" is shown: the linker's reading and a plain word check must agree.
MISSING_SHARE = 0.5
# Share of a sentence's own words (its names aside) the question writes, for it to restate it.
RESTATED_SHARE = 0.6


@dataclass(frozen=True)
class Evidence:
    """What the rules of `SHOWN` read: the record, its linked answer, the analysis, the hops."""

    record: QARecord
    linked: Linked
    result: Chain
    completed: Completed
    hops: Hops
    abstained: bool
    sentences: list[tuple[int, int]]


@dataclass(frozen=True)
class ShownRule:
    """A reason the text shows an answer incomplete; `test` returns it in words, or None."""

    name: str
    test: Callable[[Evidence], str | None]


def _refusal(e: Evidence) -> str | None:
    """"I don't know", "Unknown": an answer that refuses derives nothing."""
    return "the answer refuses" if e.abstained else None


def _answer_not_written(e: Evidence) -> str | None:
    """The short answer is written nowhere, by the linker's reading or as words."""
    if e.result.diagnosis.answer_absent and _missing(e.record.answer, e.record.long_answer):
        return f"the short answer “{e.record.answer}” is never written"
    return None


def _anchor_not_written(e: Evidence) -> str | None:
    """An anchor of the question is written nowhere, by the linker's reading or as words."""
    gone = [q.name for q in e.linked.question
            if q.anchor and q.entity is None and _missing(q.name, e.record.long_answer)]
    return f"never written: {', '.join(gone)}" if gone else None


def _contradiction(e: Evidence) -> str | None:
    """The answer asserts a claim and its denial, or two values of a relation that has one."""
    found = contradictions(e.linked)
    return found[0].message if found else None


def _circular(e: Evidence) -> str | None:
    """The answer's reasoning returns to its premises without reaching the question."""
    return "circular" if e.result.diagnosis.failure == "circular" else None


def _deviated(e: Evidence) -> str | None:
    """The chain goes somewhere the question never asked."""
    return "deviated" if e.result.diagnosis.failure == "deviated" else None


def _restated(e: Evidence) -> str | None:
    """An asked hop the rules see unstated: the question restated with the answer filled in,
    naming no bridge, or another relation than the one asked (`relation_mismatch`)."""
    found = [s for s in e.completed.signals if s.kind == "relation_mismatch"]
    return found[0].message if found else None


def _restated_answer(e: Evidence) -> str | None:
    """"Thep Kasattri's father died in Thailand": every sentence that writes the answer (its
    conclusion aside) names nothing but the question's entities and restates the question's
    own words: the bridge it asks through is never named."""
    answer = e.linked.answer_entity
    if answer is None:
        return None
    asked = {q.entity for q in e.linked.question if q.entity}
    names = {x.id: x for x in e.linked.entities}
    concluding = {p.sentence for p in e.linked.propositions if p.conclusion}
    per_sentence = sentence_entities(e.linked, e.sentences)
    writing = [n for n, named in enumerate(per_sentence) if answer in named and n not in concluding]
    if not writing:
        return None
    for n in writing:
        if per_sentence[n] - asked - {answer}:
            return None  # it names a bridge
        a, b = e.sentences[n]
        said = content_stems(e.record.long_answer[a:b])
        said -= {w for x in per_sentence[n] for m in names[x].mentions for w in content_stems(m.text)}
        if not said or len(said & question_stems(e.record.question)) / len(said) < RESTATED_SHARE:
            return None
    return "the answer is asserted by restating the question; the bridge it asks through is never named"


def _unjoined(e: Evidence) -> str | None:
    """No sentence joins an anchor's side to the answer's: the break is in the text."""
    gaps = [h.why for h in e.hops.hops if not h.stated and h.why and "no sentence joins" in h.why]
    return gaps[0] if gaps else None


SHOWN: tuple[ShownRule, ...] = (
    ShownRule("refusal", _refusal),
    ShownRule("answer_not_written", _answer_not_written),
    ShownRule("anchor_not_written", _anchor_not_written),
    ShownRule("contradiction", _contradiction),
    ShownRule("circular", _circular),
    ShownRule("deviated", _deviated),
    ShownRule("restated", _restated),
    ShownRule("restated_answer", _restated_answer),
    ShownRule("unjoined", _unjoined),
)


def shown_incomplete(e: Evidence, rules: tuple[ShownRule, ...] = SHOWN) -> tuple[str, str] | None:
    """The first rule that shows the answer incomplete, with its reason in words."""
    for rule in rules:
        reason = rule.test(e)
        if reason:
            return rule.name, reason
    return None


def decide(completed: Completed, hops: Hops, linked: Linked, reading: Reading, record: QARecord,
           sentences: list[tuple[int, int]], abstained: bool = False) -> tuple[Completed, HopCheck]:
    """The record's analysis with completeness decided where the text shows it, else unverified."""
    result = completed.result
    unwritten = [q.name for q in linked.question if q.anchor and q.entity is None]
    check = HopCheck(stage=hops.stage, hops=hops.hops, answer_follows=hops.answer_follows,
                     anchors_written=not unwritten, complete=result.complete)
    if result.complete:
        return completed, check
    evidence = Evidence(record, linked, result, completed, hops, abstained, sentences)
    if shown_incomplete(evidence) is not None:
        return completed, check
    gap = result.diagnosis.gap
    where = f" (between {gap.from_} and {gap.to})" if gap is not None else ""
    reason = ("every entity is written and the sentences join them, but the rules could not read "
              f"the chain{where}")
    undecided = replace(result, undecided=reason)
    signals = [*completed.signals, Signal(kind="unverified", severity="info", message=reason)]
    if completed.sides is not None:
        return Completed(completed.chain, signals, replace(completed.sides, result=undecided)), check
    return Completed(chain=undecided, signals=signals), check


def _missing(name: str, text: str) -> bool:
    """Whether most of `name`'s content words are absent from `text` (a plain word check)."""
    wanted = content_stems(name)
    if not wanted:
        return True
    return len(wanted - content_stems(text)) / len(wanted) >= MISSING_SHARE
