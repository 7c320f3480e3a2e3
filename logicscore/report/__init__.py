"""Turning AuditResults into things a person reads: the run summary and `explain`.

Pure functions from results to rich renderables; printing is the CLI's job.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ..inert import inert_copy, terminal
from ..lexicon.questions import QUESTION_TYPES
from ..models import AuditResult
from .aggregate import DECIDED_ONLY as _DECIDED_ONLY
from .failing import unverified_reason

METRICS = ("completeness", "conciseness", "determinateness", "partial_completeness")
APART = ("refusal", "unsupported_language")


@dataclass
class Summary:
    """Counts and means over a batch of results; errors are counted, never dropped."""

    total: int = 0
    scored: int = 0
    errors: Counter = field(default_factory=Counter)
    failures: Counter = field(default_factory=Counter)
    verdicts: Counter = field(default_factory=Counter)
    # Records whose verdict means nothing or something else: refusals, unread languages.
    apart: Counter = field(default_factory=Counter)
    # Exact running sums: the mean `statistics.mean` gives, in memory that does not grow
    # with the run (a float is a binary fraction, so the sum stays small).
    sums: dict[str, Fraction] = field(default_factory=lambda: {m: Fraction(0) for m in METRICS})
    # question type → [records scored, complete ones, decided ones] (docs/metrics.md)
    types: dict[str, list[int]] = field(default_factory=dict)
    # Records whose completeness the text left undecided: out of the completeness and
    # conciseness means, counted beside them.
    unverified: int = 0

    def add(self, result: AuditResult) -> None:
        self.total += 1
        if result.status == "error" or result.scores is None:
            self.errors[result.error.type if result.error else "RuntimeError"] += 1
            return
        self.scored += 1
        decided = result.scores.completeness is not None
        self.unverified += not decided
        for metric in METRICS:
            if decided or metric not in _DECIDED_ONLY:
                self.sums[metric] += Fraction(float(getattr(result.scores, metric)))
        failure = result.diagnosis.failure if result.diagnosis else None
        self.failures[(failure or "complete") if decided else "unverified"] += 1
        self.verdicts[result.determinateness or "underdetermined"] += 1
        kinds = {s.kind for s in (result.diagnosis.signals if result.diagnosis else [])}
        self.apart.update(k for k in APART if k in kinds)
        row = self.types.setdefault(result.question_type or "bridge", [0, 0, 0])
        row[0] += 1
        row[1] += result.scores.completeness or 0
        row[2] += decided

    def means(self) -> dict[str, float | None]:
        decided = self.scored - self.unverified
        return {m: (round(float(v / n), 4) if n else None)
                for m, v in self.sums.items() for n in [decided if m in _DECIDED_ONLY else self.scored]}


def summarize(results: Iterable[AuditResult]) -> Summary:
    summary = Summary()
    for result in results:
        summary.add(result)
    return summary


def _pct(n: int, total: int) -> str:
    return f"{n} ({100 * n / total:.1f}%)" if total else "0"


def render_summary(summary: Summary) -> Table:
    table = Table(title=f"logicscore: {summary.scored} scored, "
                        f"{sum(summary.errors.values())} errored, {summary.total} records")
    table.add_column("measure")
    table.add_column("value", justify="right")
    for metric, value in summary.means().items():
        table.add_row(f"mean {metric}", "-" if value is None else f"{value:.3f}")
    if summary.unverified:
        table.add_row("unverified (out of the completeness and conciseness means)",
                      _pct(summary.unverified, summary.scored), style="yellow")
    for kind in ("complete", "broken", "circular", "deviated"):
        table.add_row(kind, _pct(summary.failures.get(kind, 0), summary.scored))
    for verdict in ("entailed", "contradicted", "underdetermined"):
        table.add_row(verdict, _pct(summary.verdicts.get(verdict, 0), summary.scored))
    for kind in APART:
        if summary.apart.get(kind):
            table.add_row(f"{kind} (counted apart)", _pct(summary.apart[kind], summary.scored),
                          style="yellow")
    for qtype in QUESTION_TYPES:
        if qtype in summary.types:
            n, complete, decided = summary.types[qtype]
            share = f"{complete / decided:.3f}" if decided else "-"
            table.add_row(f"{qtype} questions", f"{_pct(n, summary.scored)}, complete {share}")
    for kind, count in sorted(summary.errors.items()):
        table.add_row(Text(f"error: {terminal(kind)}"), _pct(count, summary.total), style="red")
    return table


_ROLE_STYLE = {"chain": "green", "redundant": "dim", "no_proposition": "yellow"}
_ROLE_MARK = {"chain": "chain", "redundant": "redundant", "no_proposition": "no proposition"}


def _said(result: AuditResult) -> list[Text]:
    """The record's question, short and gold answer and where the answer came from."""
    lines = []
    for name, value in (("question", result.question), ("answer", result.answer),
                        ("gold answer", result.gold_answer)):
        if value is not None:
            lines.append(Text(f"{name}: {value}"))
    source = result.meta.answer_source
    if source is not None and source != "answer_field":
        rule = f" ({result.meta.answer_rule})" if result.meta.answer_rule else ""
        lines.append(Text(f"answer taken from: {source}{rule}", style="dim"))
    if result.correct is not None:
        lines.append(Text(f"correct: {'yes' if result.correct else 'no'}",
                          style="" if result.correct else "red"))
    return lines


def _sentences(result: AuditResult) -> list[Text]:
    """The long answer, sentence by sentence, each with its role in the audit."""
    if not result.sentences:
        return []
    lines = [Text("long answer, by sentence:", style="bold")]
    for s in result.sentences:
        said = ", ".join(s.propositions) or "-"
        line = Text(f"  {s.index + 1:>2} {_ROLE_MARK[s.role]:<15}", style=_ROLE_STYLE[s.role])
        line.append(f"{said:<12}", style="dim")
        line.append(s.text if s.text is not None else f"(text left out; characters {s.span[0]}-{s.span[1]})",
                    style=_ROLE_STYLE[s.role])
        lines.append(line)
    return lines


def render_explain(result: AuditResult) -> Group:
    """A person-readable account of one result: the question and answers, the long answer
    sentence by sentence with its role, propositions, chain, gap, merges, signals.

    Every string of the record is shown inert (escape sequences, bidi overrides and line
    breaks escaped): ids, names and messages come from the input."""
    result = inert_copy(result, terminal)
    parts: list = []
    head = Text(f"record {result.id}", style="bold")
    if result.status == "error" and result.error:
        parts.append(head)
        parts.extend(_said(result))
        parts.append(Text(f"{result.error.type}: {result.error.message}", style="red"))
        return Group(*parts)
    s = result.scores
    assert s is not None and result.diagnosis is not None
    diag = result.diagnosis
    completeness = "unverified" if s.completeness is None else s.completeness
    head.append(f"  completeness {completeness}  conciseness {s.conciseness:.2f}  "
                f"determinateness {s.determinateness} ({result.determinateness})"
                f"  partial {s.partial_completeness:.2f}", style="")
    parts.append(head)
    parts.extend(_said(result))
    q = ", ".join(f"{e.name}{'' if e.anchor else ' (generic)'}{' ✓' if e.reached else ' ✗'}"
                  for e in result.question_entities) or "none found"
    parts.append(Text(f"question entities: {q}    answer entity: {result.answer_entity or 'not found'}"))
    if result.question_type:
        parts.append(Text(f"question type: {result.question_type}"))
    for side in result.sides:
        values = ", ".join(side.values) or "no value stated"
        said = f" (by {', '.join(side.propositions)})" if side.propositions else ""
        mark = "✓" if side.established else "✗"
        parts.append(Text(f"  side {side.name} {mark}: {values}{' (negated)' if side.negated else ''}{said}",
                          style="" if side.established else "red"))

    parts.extend(_sentences(result))
    chain = set(result.chain)
    redundant = set(diag.redundant)
    parts.append(Text("propositions:", style="bold"))
    for p in result.propositions:
        flags = [f for f, on in (("CHAIN", p.id in chain), ("redundant", p.id in redundant),
                                 ("negated", p.negated), ("hedged", p.hedged),
                                 ("conclusion", p.conclusion)) if on]
        style = "green" if p.id in chain else ("dim" if p.id in redundant else "")
        line = Text(f"  {p.id:<4}", style=style)
        line.append(f"({p.subject}) —{p.relation}→ ({p.object})", style=style)
        line.append(f"  [{p.pattern}]", style="dim")
        if p.citations:
            line.append(f"  cites {', '.join(p.citations)}", style="cyan")
        if flags:
            line.append(f"  {' '.join(flags)}", style="bold")
        parts.append(line)
        parts.append(Text(f"        {p.text}", style="dim"))
    parts.append(Text(f"chain: {' → '.join(result.chain) or '(none)'}", style="bold green"))
    for alt in result.alternatives:
        parts.append(Text(f"  alternative: {' → '.join(alt)}"))
    if result.grounding is not None:
        parts.extend(_grounding(result))
    if result.hops is not None:
        from .hops import explain_lines

        parts.extend(explain_lines(result))
    if diag.failure:
        parts.append(Text(f"failure: {diag.failure}", style="bold red"))
    undecided = unverified_reason(result)
    if undecided is not None:
        parts.append(Text(f"completeness unverified: {undecided}", style="bold yellow"))
    for gap in diag.gaps or ([diag.gap] if diag.gap else []):
        parts.append(Text(f"gap: {gap.describe()}", style="red"))
    if diag.answer_absent:
        parts.append(Text("answer absent: no proposition mentions the short answer", style="red"))
    if diag.redundant:
        parts.append(Text(f"redundant: {', '.join(diag.redundant)}", style="dim"))
    for sig in diag.signals:
        parts.append(Text(f"signal [{sig.severity}] {sig.kind}: {sig.message}"))
    merges = list({(e.name, m.text): (e.name, m) for e in result.entities for m in e.mentions
                   if m.text != e.name}.values())
    if merges:
        parts.append(Text("why mentions were merged:", style="bold"))
        for name, m in merges:
            parts.append(Text(f"  {m.text!r} → {name}: {m.reason}"))
    parts.append(Text(f"signature: {result.meta.signature}", style="dim"))
    if result.meta.grounder is not None:  # the record's own: it had documents
        parts.append(Text(f"grounder: {result.meta.grounder}", style="dim"))
    return Group(*parts)


_GROUNDING_STYLE = {"grounded": "green", "ungrounded": "red", "unknown_citation": "red", "uncited": "yellow"}


def _grounding(result: AuditResult) -> list[Text]:
    """The grounding section of `explain`: each chain hop against the documents it cites."""
    from ..pipeline.ground import describe

    share = result.scores.grounded_chain if result.scores else None
    head = "grounding:" + ("" if share is None else f" {share:.2f} of the chain's hops grounded")
    by_id = {p.id: p for p in result.propositions}
    lines = [Text(head, style="bold")]
    lines += [Text(f"  {row.status:<17} {describe(row, by_id.get(row.proposition))}",
                   style=_GROUNDING_STYLE[row.status]) for row in result.grounding or []]
    if not result.grounding:
        lines.append(Text("  no chain hop to check", style="dim"))
    return lines
