"""The question's hops (`--hops`) wherever a verdict is shown: `explain`, the report's tables.

A record audited with a hop stage carries `AuditResult.hops`; a run without one carries none,
and then nothing here adds a line, a table or a key, so its reports keep their bytes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from rich.text import Text

from ..models import AuditResult, HopCheck

# Why a record the hops call incomplete is incomplete, first reason first: the first hop not
# stated (by its check), else no hop read, an anchor never written, an answer that does not follow.
REASONS = ("unstated", "no_evidence", "evidence_not_in_answer", "result_not_in_evidence",
           "input_not_linked", "no hop read", "anchor not written",
           "answer does not follow")
# The same reasons in words, for the tables.
WORDS = {
    "unstated": "a hop no sentence states (unstated)",
    "no_evidence": "a hop stated with no sentence cited (no_evidence)",
    "evidence_not_in_answer": "a hop's cited sentence not in the long answer (evidence_not_in_answer)",
    "result_not_in_evidence": "a hop's result not in its cited sentence (result_not_in_evidence)",
    "input_not_linked": "a hop starting from nothing named before (input_not_linked)",
    "no hop read": "no hop of the question read",
    "anchor not written": "every hop stated, an anchor of the question never written",
    "answer does not follow": "every hop stated, the short answer does not follow",
}


def first_reason(check: HopCheck) -> str | None:
    """Why the hops call the record incomplete (one of `REASONS`), None when complete."""
    if check.complete:
        return None
    missing = next((h for h in check.hops if not h.stated), None)
    if missing is not None:
        return missing.check
    if not check.hops:
        return "no hop read"
    if not check.anchors_written:
        return "anchor not written"
    return "answer does not follow"


def _yes_no(value: bool | None) -> str:
    return "cannot tell" if value is None else "yes" if value else "no"


def explain_lines(result: AuditResult) -> list[Text]:
    """The hops section of `explain` (the result already made inert by the caller)."""
    check = result.hops
    if check is None:
        return []
    stated = sum(h.stated for h in check.hops)
    verdict = "complete" if check.complete else f"incomplete: {WORDS[first_reason(check) or 'unstated']}"
    lines = [Text(f"hops ({check.stage}): {stated} of {len(check.hops)} stated; {verdict}",
                  style="bold" if check.complete else "bold red")]
    for hop in check.hops:
        mark = "✓" if hop.stated else "✗"
        line = Text(f"  {mark} {hop.index} {hop.asks}", style="green" if hop.stated else "red")
        line.append(f"   {hop.input or '(the question)'} → {hop.result or '?'}", style="")
        if hop.sentence is not None:
            line.append(f"   sentence {hop.sentence + 1}", style="cyan")
        lines.append(line)
        if not hop.stated:
            lines.append(Text(f"      {hop.check}: {hop.why or 'not stated'}", style="red"))
    if not check.hops:
        lines.append(Text("  no hop of the question could be read", style="red"))
    lines.append(Text(f"  anchors written: {_yes_no(check.anchors_written)}    "
                      f"answer follows from the last hop: {_yes_no(check.answer_follows)}",
                      style="" if check.anchors_written and check.answer_follows is not False else "red"))
    return lines


@dataclass
class HopBreakdown:
    """The records a hop stage checked: how many the hops call complete, and for the others
    the first reason they are not."""

    stages: list[str]
    records: int
    complete: int
    reasons: list[tuple[str, int]]

    @property
    def incomplete(self) -> int:
        return self.records - self.complete


@dataclass
class HopTally:
    """Fed every scored result; `build()` is None for a run with no hop check at all."""

    stages: Counter = field(default_factory=Counter)
    complete: int = 0
    reasons: Counter = field(default_factory=Counter)

    def add(self, result: AuditResult) -> None:
        check = result.hops
        if check is None:
            return
        self.stages[check.stage] += 1
        reason = first_reason(check)
        if reason is None:
            self.complete += 1
        else:
            self.reasons[reason] += 1

    def build(self) -> HopBreakdown | None:
        if not self.stages:
            return None
        return HopBreakdown(sorted(self.stages), sum(self.stages.values()), self.complete,
                            [(r, self.reasons[r]) for r in REASONS if self.reasons.get(r)])
