"""The completeness stages: one per question type, chosen per record (docs/architecture.md).

Registered as the `completeness` kind of `logicscore.pipeline.registry`; each names the question types
it completes (`question_types`):

- `chain`, for `bridge` and `intersection` (and any type no stage names): the chain from the
  question's anchors to the answer (`chain.analyze`), then the relation check: a complete
  chain whose hops state another relation than the question asks is broken, with a
  `relation_mismatch` signal;
- `sides`, for `comparison` and `yesno`: the chain analysis, then the sides (`compare.audit_sides`),
  whose analysis the record reports and whose verdict a rules judge takes;
- `abstained`, for an answer that refuses whatever its type: the chain analysis of its type,
  then no chain and no sides (`chain.refused`), the answer absent.

Each gets what the stages before it made (the record, the `Linked` answer, the question's
`Reading` with its linked sides) and hands on a `flow.Completed`; none calls an earlier stage.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from . import kin_hops
from .chain import analyze, mismatched, refused
from .compare import audit_sides
from .described import described_bridge
from ..config import default
from .flow import Chain, Completed, Linked, Reading
from ..models import QARecord, QuestionEntity, Signal


class ChainCompleteness:
    """Completeness as a chain, for a question that asks a thing; the analysis every
    completeness starts from."""

    name: ClassVar[str] = "chain"
    question_types: ClassVar[tuple[str, ...]] = ("bridge", "intersection")

    class Config(BaseModel):
        model_config = ConfigDict(extra="forbid")
        max_alternatives: int = Field(default("max_alternatives"), ge=0,
                                      description="cap on the same-length alternative chains reported")

    def __init__(self, config: ChainCompleteness.Config | None = None):
        self.config = config or self.Config()

    def complete(self, record: QARecord, linked: Linked, reading: Reading) -> Completed:
        """The chain analysis; for a question that asks a thing, checked against the relation
        it asks. A comparison's sides are no path of hops, so neither check applies there."""
        restated = frozenset() if reading.sided else kin_hops.restated_kin(linked.propositions,
                                                                        record.question)
        chain = self._analyze(record, linked, linked.question, restated)
        if not reading.sided and chain.fallback and not chain.complete:
            # A question with no anchor: the chain to the bridge the long answer ties to
            # its description (`described.described_bridge`), if there is one.
            bridge = described_bridge(record, linked)
            if bridge is not None:
                name = next(e.name for e in linked.entities if e.id == bridge)
                tied = self._analyze(record, linked, [QuestionEntity(name=name, entity=bridge)],
                                     restated)
                if tied.complete:
                    tied.fallback = True
                    chain = tied
        if reading.sided or not chain.complete:
            return Completed(chain)
        return relation_mismatch(record, linked, chain)

    def _analyze(self, record: QARecord, linked: Linked, question: list[QuestionEntity],
                 restated: frozenset[int]) -> Chain:
        return analyze(
            linked.propositions, linked.answer_entity, question,
            entities=linked.entities, max_alternatives=self.config.max_alternatives,
            answer_text=record.answer, question_text=record.question, restated=restated,
        )

    def signature(self) -> list[tuple[str, object]]:
        return [("alts", self.config.max_alternatives)]


class SidesCompleteness(ChainCompleteness):
    """Completeness as sides, for a question that compares them."""

    name: ClassVar[str] = "sides"
    question_types: ClassVar[tuple[str, ...]] = ("comparison", "yesno")

    def complete(self, record: QARecord, linked: Linked, reading: Reading) -> Completed:
        done = super().complete(record, linked, reading)
        sides = audit_sides(reading.qtype, record, linked, done.chain, reading.sides, reading.chosen)
        return Completed(done.chain, done.signals, sides)


class Abstained(ChainCompleteness):
    """The `abstained` stage: an answer that refuses reaches no answer it never gives, and
    answers no side, whatever its other sentences connect."""

    name: ClassVar[str] = "abstained"
    question_types: ClassVar[tuple[str, ...]] = ()

    def complete(self, record: QARecord, linked: Linked, reading: Reading) -> Completed:
        done = super().complete(record, linked, reading)
        return Completed(refused(done.chain), done.signals)


def relation_mismatch(record: QARecord, linked: Linked, chain: Chain) -> Completed:
    """A complete chain that states a hop with another relation than the question asks
    (kin hops adding up to another kin term, a hop that only links, an asked relation no
    hop states) is incomplete, with a `relation_mismatch` signal."""
    anchors = {q.entity for q in linked.question if q.anchor and q.entity}
    # With several anchors the kin terms may be constraints on one person ("the husband
    # of A, who was the father of B"), not one path of hops.
    kin = (kin_hops.kin_mismatch(linked.propositions, chain.chain, record.question)
           if len(anchors) <= 1 else None)
    if not chain.chain and linked.answer_entity in anchors:
        message = "the answer is the question's own anchor: no asked hop is stated"
    elif kin is not None:
        message = f"the question asks '{kin.text}'; the chain's kin hops add up to another relation"
    else:
        family = kin_hops.family_mismatch(linked.propositions, chain.chain, record.question)
        if family is None:
            return Completed(chain)
        message = f"the question asks a '{family}' hop; no hop of the chain states it"
    names = {e.id: e.name for e in linked.entities}
    anchor = next((q.name for q in linked.question if q.anchor and q.entity), record.question)
    answer = names.get(linked.answer_entity or "", record.answer)
    signal = Signal(kind="relation_mismatch", severity="hard", propositions=list(chain.chain),
                    message=message)
    return Completed(mismatched(chain, anchor, answer), [signal])
