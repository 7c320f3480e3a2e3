"""Why incomplete answers are incomplete, counted from the diagnosis, and what to change.

Each incomplete record gets one reason (the first that applies, in the order of `REASONS`);
a failure section reports the reasons' shares and recommends the fix for the largest one.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..models import AuditResult

# reason -> (what the answers did, what to change in the pipeline)
REASONS: dict[str, tuple[str, str]] = {
    "answer_absent": ("never state the short answer in a proposition",
                      "ask the prompt to end with a sentence that names the answer"),
    "no_anchor": ("never mention any of the question's entities",
                  "check retrieval, and ask the prompt to start from the entity the question names"),
    "anchor_left_out": ("link some of the question's entities but leave another unlinked",
                        "ask the prompt to account for every constraint the question states"),
    "first_hop": ("never link the question's entity to anything",
                  "ask the prompt to start from the question's entity and state its first hop"),
    "last_hop": ("reach the short answer through no proposition",
                 "ask the prompt to state how the last bridge entity leads to the answer"),
    "middle_hop": ("skip a hop between the question's side and the answer's side",
                   "ask the prompt to state each hop as its own sentence"),
}
# Circular answers have their own cause whatever their gap looks like.
CIRCULAR_FIX = ("ask the prompt to derive the answer from the documents rather than restate the "
                "question with the answer filled in")


def reason(result: AuditResult) -> str:
    """The one reason an incomplete record is incomplete (see `REASONS`)."""
    diag = result.diagnosis
    assert diag is not None
    if diag.answer_absent:
        return "answer_absent"
    anchors = [q for q in result.question_entities if q.anchor]
    if not any(q.reached for q in anchors) and not any(q.entity for q in anchors):
        return "no_anchor"
    if len(anchors) > 1 and any(q.reached for q in anchors):
        return "anchor_left_out"
    gap = diag.gap
    names = {q.name for q in result.question_entities}
    if gap is not None and (gap.from_ in names or gap.from_ == gap.anchor):
        return "first_hop"
    if gap is not None and result.answer_entity and gap.to == result.answer_entity:
        return "last_hop"
    return "middle_hop"


@dataclass(frozen=True)
class Finding:
    """`count` of `total` records of a category share one reason."""

    reason: str
    count: int
    total: int

    @property
    def share(self) -> float:
        return self.count / self.total if self.total else 0.0

    def describe(self, kind: str) -> str:
        # An unverified record's reason is what its `unverified` signal says could not be checked.
        what = REASONS[self.reason][0] if self.reason in REASONS else f"leave completeness undecided: {self.reason}"
        return f"{100 * self.share:.0f}% of {kind} answers ({self.count} of {self.total}) {what}"


def findings(kind: str, reasons: Counter) -> list[Finding]:
    """The reasons of one category, largest first (ties by the fixed reason order)."""
    total = sum(reasons.values())
    order = list(REASONS)
    return [Finding(r, n, total) for r, n in
            sorted(reasons.items(), key=lambda item: (-item[1], _rank(order, item[0]), item[0]))]


def _rank(order: list[str], reason: str) -> int:
    return order.index(reason) if reason in order else len(order)


def recommend(kind: str, found: list[Finding]) -> str | None:
    """One data-driven sentence: the largest reason's figure and its fix."""
    if not found:
        return None
    top = found[0]
    if kind == "circular":
        return f"{top.describe(kind)}, and their reasoning loops back on its own premises: {CIRCULAR_FIX}."
    return f"{top.describe(kind)}: {REASONS[top.reason][1]}."
