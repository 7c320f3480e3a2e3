"""A `Report` as text: rich tables for the terminal and markdown, from the same rows.

`tables()` formats every figure once, so the terminal, the markdown and the HTML agree to
the digit; the renderers only lay them out.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..inert import markdown, markdown_code, terminal
from ..models import AuditResult
from .build import Report, Section
from .signatures import mix


@dataclass
class TextTable:
    title: str
    headers: list[str]
    rows: list[list[str]]
    note: str | None = None


def fmt(x: float | None, digits: int = 3) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def pct(n: int, total: int) -> str:
    return f"{n} ({100 * n / total:.1f}%)" if total else "0"


def signature_note(report: Report) -> str:
    if report.mixed:
        return ("MIXED SIGNATURES: this run pools records audited under different settings "
                f"({mix([s for s, _ in report.signatures])}); figures below are sliced by signature, "
                "compare them apart.")
    return "one signature: every record was audited under the same settings."


def tables(report: Report) -> list[TextTable]:
    """Every table of the report, figures formatted, in reading order."""
    out = [TextTable("Signatures", ["signature", "records"],
                     [[s, str(n)] for s, n in report.signatures], signature_note(report))]
    coverage = [["records", str(report.total)], ["scored", pct(report.scored, report.total)]]
    coverage += [[f"error: {kind}", pct(n, report.total)] for kind, n in report.errors]
    out.append(TextTable("Coverage", ["", "records"], coverage,
                         "Every record read is counted here; errored records are never dropped."))
    ci_note = ("95% intervals: seeded percentile bootstrap of the mean"
               + (", from a uniform sample of the run, scaled to its size." if report.sampled else "."))
    if report.unverified:
        ci_note += (f" completeness and conciseness are over the decided records only: {report.unverified} "
                    "unverified records (the text neither shows the chain nor shows it broken) are left out "
                    "and listed under unverified.")
    out.append(TextTable("Scores", ["metric", "n", "mean", "95% CI", "median", "std"],
                         [[m.name, str(m.n), fmt(m.mean),
                           "-" if m.ci is None else f"{m.ci[0]:.3f} to {m.ci[1]:.3f}",
                           fmt(m.median), fmt(m.std)] for m in report.metrics], ci_note))
    cats = [[k, str(n), f"{100 * share:.1f}%"] for k, n, share in report.categories]
    cats.append(["(answer absent)", str(report.answer_absent),
                 f"{100 * report.answer_absent / report.scored:.1f}%" if report.scored else "-"])
    out.append(TextTable("Failures", ["category", "records", "share of scored"], cats))
    out.append(TextTable("Determinateness", ["verdict", "records"],
                         [[v, pct(n, report.scored)] for v, n in report.verdicts]))
    if report.signals:
        out.append(TextTable("Signals", ["kind", "count", "hard", "soft", "info"],
                             [[k, str(n), *(str(c.get(s, 0)) for s in ("hard", "soft", "info"))]
                              for k, n, c in report.signals]))
    if report.grounding is not None:
        out.append(_grounding(report))
    if report.hops is not None:
        out.append(_hops(report))
    out.append(_gold(report))
    kinds = ("broken", "circular", "deviated", *(("unverified",) if report.unverified else ()))
    for sl in report.slices:
        out.append(TextTable(f"By {sl.field}", [sl.field, "records", "errors", "completeness",
                                                "conciseness", "determinateness", *kinds],
                             [[r.value, str(r.n), str(r.errors), fmt(r.mean("completeness")),
                               fmt(r.mean("conciseness")), fmt(r.mean("determinateness")),
                               *(str(r.categories.get(k, 0)) for k in kinds)]
                              for r in sl.rows]))
    return out


def _grounding(report: Report) -> TextTable:
    g = report.grounding
    assert g is not None
    hops = sum(n for _, n in g.hops)
    rows = [["records with documents and a chain", str(g.records)],
            ["mean grounded_chain (share of chain hops grounded)", fmt(g.mean)],
            ["records with an ungrounded hop", pct(g.with_ungrounded_hop, g.records)]]
    rows += [[f"chain hops {status}", pct(n, hops)] for status, n in g.hops]
    rows += [[f"grounded by {keys}", str(n)] for keys, n in g.grounders]
    return TextTable("Grounding", ["measure", "value"], rows,
                     "Each chain hop against the documents its sentence cites: grounded (a cited "
                     "document supports it), ungrounded (cited, not supported), uncited, "
                     "unknown_citation (a marker naming no document).")


def _hops(report: Report) -> TextTable:
    from .hops import WORDS

    h = report.hops
    assert h is not None
    rows = [[f"records checked by the hops ({', '.join(h.stages)})", str(h.records)],
            ["complete by the hops", pct(h.complete, h.records)],
            ["incomplete by the hops", pct(h.incomplete, h.records)]]
    rows += [[f"  {WORDS[reason]}", pct(n, h.incomplete)] for reason, n in h.reasons]
    return TextTable("Hops", ["measure", "records"], rows,
                     "Each incomplete record counted once, by its first reason: the first hop not "
                     "stated (its check), else no hop read, an anchor never written, or a short "
                     "answer the last hop does not yield. Shares of the incomplete records.")


def _gold(report: Report) -> TextTable:
    g = report.gold
    if g is None:
        return TextTable("Gold answers", ["", ""], [], "No record has a gold answer (`correct` is "
                         "null throughout): give `gold_answer` in the input to get accuracy and the "
                         "right-for-wrong-reason rate.")
    rows = [["records with a gold answer", str(g.n)], ["accuracy", fmt(g.accuracy)],
            ["right for the wrong reason (correct, chain incomplete; share of correct)",
             fmt(g.rwr_rate)],
            ["completeness predicts correctness", fmt(g.chain_agrees / g.n)],
            ["  baseline: majority outcome", fmt(g.majority)],
            ["  baseline: answer mentioned", fmt(g.mentioned_agrees / g.n)]]
    left_out = (f" The {report.unverified} unverified records are left out: completeness predicts "
                "nothing for them.") if report.unverified else ""
    return TextTable("Gold answers", ["measure", "value"], rows,
                     "'Answer mentioned' means the short answer appears in a proposition "
                     "(diagnosis.answer_absent is false): output records do not carry the long "
                     "answer, so mentions outside extracted propositions are not seen." + left_out)


def example_lines(result: AuditResult) -> list[str]:
    """A worked example as plain lines: entities, propositions marked, chain, gaps, signals."""
    diag = result.diagnosis
    if result.status == "error" or diag is None:
        err = result.error
        where = f" (line {err.line})" if err and err.line else ""
        return [f"{result.id}{where}: {err.type if err else 'RuntimeError'}: "
                f"{err.message if err else 'no message'}"]
    q = ", ".join(f"{e.name}{'' if e.reached else ' (unreached)'}" for e in result.question_entities)
    lines = [f"{result.id}: question entities {q or 'none found'}; answer entity "
             f"{result.answer_entity or 'not found'}"]
    chain, redundant = set(result.chain), set(diag.redundant)
    for p in result.propositions:
        mark = "chain" if p.id in chain else "redundant" if p.id in redundant else ""
        lines.append(f"  {p.id} ({p.subject}) -{p.relation}-> ({p.object}) {mark}".rstrip())
    lines.append(f"  chain: {' -> '.join(result.chain) or '(none)'}")
    for gap in diag.gaps or ([diag.gap] if diag.gap else []):
        lines.append(f"  gap: {gap.describe()}")
    if diag.redundant:
        lines.append(f"  redundant: {', '.join(diag.redundant)}")
    for sig in diag.signals:
        if sig.kind != "redundant":
            lines.append(f"  signal {sig.kind} [{sig.severity}]: {sig.message}")
    return lines


def section_lines(section: Section) -> list[str]:
    lines = [f.describe(section.kind) for f in section.findings]
    if section.recommendation:
        lines.append(f"Recommendation: {section.recommendation}")
    if section.signals:
        lines.append("Signals: " + ", ".join(f"{k} {n}" for k, n in section.signals[:5]))
    return lines


def render_markdown(report: Report) -> str:
    out = ["# logicscore report", ""]
    for t in tables(report):
        out += [f"## {markdown(t.title)}", ""]
        if t.note:
            out += [t.note, ""]
        if t.rows:
            out.append("| " + " | ".join(markdown(h) or " " for h in t.headers) + " |")
            out.append("|" + "|".join("---" for _ in t.headers) + "|")
            out += ["| " + " | ".join(markdown(c) for c in row) + " |" for row in t.rows]
            out.append("")
    for section in [*report.sections, None]:
        kind = section.kind if section else "error"
        examples = section.examples if section else report.error_examples
        count = section.count if section else report.total - report.scored
        out += [f"## {markdown(kind)} ({count})", ""]
        out += [f"- {markdown(line)}" for line in (section_lines(section) if section else [])]
        for ex in examples:
            out += ["", *markdown_code(example_lines(ex))]
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def render_terminal(report: Report):
    """A rich renderable of the whole report."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    parts: list = []
    for t in tables(report):
        table = Table(title=Text(terminal(t.title), style="table.title"), title_justify="left")
        for i, h in enumerate(t.headers):
            table.add_column(Text(terminal(h)), justify="left" if i == 0 else "right")
        for row in t.rows:
            table.add_row(*(Text(terminal(cell)) for cell in row))
        if t.rows:
            parts.append(table)
        parts.append(Text(t.note if t.rows else f"{t.title}: {t.note}", style="dim") if t.note else Text(""))
    for section in report.sections:
        parts.append(Text(f"\n{terminal(section.kind)} ({section.count})", style="bold"))
        parts += [Text(f"  {terminal(line)}") for line in section_lines(section)]
        for ex in section.examples[:1]:
            parts += [Text(f"  {terminal(line)}", style="dim") for line in example_lines(ex)]
    return Group(*parts)
