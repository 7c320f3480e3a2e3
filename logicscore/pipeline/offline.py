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
from functools import cached_property

from ..lexicon.conclusions import COPULAS
from ..lexicon.coreference import POINTING
from ..lexicon.names import ARTICLES
from ..models import Entity, HopCheck, QARecord, Signal
from .flow import Chain, Completed, Hops, Linked, Reading
from . import kin_hops
from .signals import contradictions
from .text.phrases import CONCLUDING, content_stems, question_stems
from .hops.rules import sentence_entities

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
    reading: Reading

    @cached_property
    def per_sentence(self) -> list[set[str]]:
        """The entities each sentence names, read once for every rule that asks."""
        return sentence_entities(self.linked, self.sentences)

    @cached_property
    def answer_side(self) -> set[str]:
        """Every entity a chain of sentences joins to the answer (empty without an answer)."""
        answer = self.linked.answer_entity
        return _component(answer, self.per_sentence) if answer is not None else set()


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
    """The chain goes somewhere the question never asked (and no chain of sentences joins
    the question's names to the answer)."""
    return "deviated" if e.result.diagnosis.failure == "deviated" and not _joined(e) else None


def _joined(e: Evidence) -> bool:
    """Whether sentences join every anchor (or, with none, every name of the question) to the
    answer: then what the claims missed is no break the text shows."""
    answer = e.linked.answer_entity
    targets = [q.entity for q in e.linked.question if q.anchor] or [q.entity for q in e.linked.question]
    if answer is None or not targets or None in targets:
        return False
    return all(t in e.answer_side for t in targets)


def _values_select_another(e: Evidence) -> str | None:
    """A comparison whose stated values select another answer than the one given."""
    sides = e.completed.sides
    found = [x for x in (sides.signals if sides is not None else []) if x.kind == "conclusion_mismatch"]
    return found[0].message if found else None


def _side_unstated(e: Evidence) -> str | None:
    """A compared side the answer says nothing of but in its conclusion ("A is from X. So A
    and B are both from X.")."""
    sides = e.completed.sides
    if sides is None:
        return None
    per_sentence = e.per_sentence
    concluding = _concluding(e)
    for side in sides.sides:
        if side.entity is None or side.established:
            continue
        if not any(side.entity in named for n, named in enumerate(per_sentence) if n not in concluding):
            return f"nothing is said of {side.name} but in the conclusion"
    return None


def _concluding(e: Evidence) -> set[int]:
    """The sentences that draw the conclusion: a conclusion claim, or "So …", "Thus …"."""
    out = {p.sentence for p in e.linked.propositions if p.conclusion}
    for n, (a, b) in enumerate(e.sentences):
        if CONCLUDING.match(e.record.long_answer[a:b].lstrip()):
            out.add(n)
    return out


def _restated(e: Evidence) -> str | None:
    """An asked hop the rules see unstated: the question restated with the answer filled in,
    naming no bridge, or another relation than the one asked (`relation_mismatch`)."""
    found = [s for s in e.completed.signals if s.kind == "relation_mismatch"]
    return found[0].message if found else None


def _restated_kin(e: Evidence) -> str | None:
    """"X's paternal grandmother is Y" for a question asking X's paternal grandmother: the
    multi-step kin term stated whole, the generation between never named."""
    if not e.result.complete:
        found = kin_hops.restated_kin(e.linked.propositions, e.record.question)
        answer = e.linked.answer_entity
        props = e.linked.propositions

        def touches(i: int) -> bool:
            return answer in (props[i].subject_entity, props[i].object_entity)

        # A generation named on the way ("The father of X is Y") is a step the text states.
        stepped = any(touches(i) and i not in found and not props[i].conclusion
                      and kin_hops.kin_terms(props[i].text) for i in range(len(props)))
        if any(touches(i) for i in found) and not stepped:
            return "the kin term asked is stated whole; the generation between is never named"
    return None


def _restated_answer(e: Evidence) -> str | None:
    """"Thep Kasattri's father died in Thailand", "The city that borders Osk is in Vell County":
    every sentence that writes the answer (its conclusion aside) restates the question's own
    words, and either names nothing the question does not write or gave no claim that touches
    the answer (the extractor read it as a restatement): the hop into the answer is asserted,
    its bridge never named."""
    answer = e.linked.answer_entity
    if answer is None:
        return None
    asked = {q.entity for q in e.linked.question if q.entity}
    names = {x.id: x for x in e.linked.entities}
    concluding = {p.sentence for p in e.linked.propositions if p.conclusion}
    claimed = any(answer in (p.subject_entity, p.object_entity) for p in e.linked.propositions
                  if not p.conclusion)
    per_sentence = e.per_sentence
    writing = [n for n, named in enumerate(per_sentence) if answer in named and n not in concluding]
    if not writing:
        return None
    for n in writing:
        others = per_sentence[n] - asked - {answer}
        if claimed and any(_missing(names[x].name, e.record.question) for x in others):
            return None  # it names a bridge, a thing the question does not write
        a, b = e.sentences[n]
        if _points_back(e.record.long_answer[a:b]):
            return None  # "This church was …": a bridge named before, referred to
        if _identifies(e.record.long_answer, a, b, names[answer]):
            return None  # "the film in which X played Y is Z": a description then a name is a link
        said = content_stems(e.record.long_answer[a:b])
        said -= {w for x in per_sentence[n] for m in names[x].mentions for w in content_stems(m.text)}
        if not said or len(said & question_stems(e.record.question)) / len(said) < RESTATED_SHARE:
            return None
    return "the answer is asserted by restating the question; the bridge it asks through is never named"


def _identifies(text: str, a: int, b: int, answer: Entity) -> bool:
    """Whether the sentence [a, b) names the answer as what its description is ("… is Z"): a
    copula, perhaps an article, right before a mention of the answer."""
    for m in answer.mentions:
        if m.span is not None and a <= m.span[0] < b:
            before = _words(text[a:m.span[0]].lower())
            while before and before[-1] in ARTICLES:
                before.pop()
            if before and before[-1] in COPULAS:
                return True
    return False


def _points_back(sentence: str) -> bool:
    """A sentence that opens on a pointing reference ("This church …", "That city …") speaks
    of a thing named before it."""
    first = _words(sentence.lower())[:1]
    return bool(first) and first[0] in POINTING - ARTICLES


def _words(text: str) -> list[str]:
    return [w.strip("\"“”'‘’(") for w in text.split() if w.strip("\"“”'‘’(")]


def _unjoined(e: Evidence) -> str | None:
    """Two chains never joined: an anchor's sentences reach other named things, the answer's
    sentences too, and no sentence joins the two (a comparison's sides stand apart by design,
    and a lone name is more often a reference the rules missed than a break)."""
    answer = e.linked.answer_entity
    if e.reading.sided or answer is None:
        return None
    per_sentence, theirs = e.per_sentence, e.answer_side
    names = {x.id: x.name for x in e.linked.entities}
    # The anchors; with none, what the question names at all (its description's names).
    targets = [q for q in e.linked.question if q.anchor] or list(e.linked.question)
    for q in targets:
        if q.entity and q.entity not in theirs:
            ours = _component(q.entity, per_sentence)
            if len(ours) > 1 and len(theirs) > 1:
                return f"no sentence joins {names.get(q.entity, q.name)} to the answer's side"
    return None


def _component(start: str, per_sentence: list[set[str]]) -> set[str]:
    """Every entity some chain of sentences joins to `start`."""
    seen, todo = {start}, [start]
    while todo:
        entity = todo.pop()
        for named in per_sentence:
            if entity in named:
                todo += sorted(named - seen)
                seen |= named
    return seen


SHOWN: tuple[ShownRule, ...] = (
    ShownRule("refusal", _refusal),
    ShownRule("answer_not_written", _answer_not_written),
    ShownRule("anchor_not_written", _anchor_not_written),
    ShownRule("contradiction", _contradiction),
    ShownRule("restated_kin", _restated_kin),
    ShownRule("circular", _circular),
    ShownRule("deviated", _deviated),
    ShownRule("values_select_another", _values_select_another),
    ShownRule("side_unstated", _side_unstated),
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
        return completed, check.model_copy(update={"decided_by": "chain"})
    evidence = Evidence(record, linked, result, completed, hops, abstained, sentences, reading)
    shown = shown_incomplete(evidence, SHOWN)
    if shown is not None:
        return completed, check.model_copy(update={"decided_by": shown[0]})
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
