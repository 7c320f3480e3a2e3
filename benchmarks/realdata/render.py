"""The real-data report for a person: rich renderables or markdown (printing is the caller's job)."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .measure import TARGETS

SHORT = {"2wikimultihopqa": "2wiki", "entailmentbank": "entailmentbank"}
ROWS = [
    ("completeness_recall", "completeness recall (gold)"),
    ("hop_removed_recall", "hop removed → incomplete"),
    ("hop_removed_recall_clean", "  … without noisy labels"),
    ("replaced_recall", "hop replaced → incomplete"),
    ("replaced_recall_clean", "  … without noisy labels"),
    ("completeness_precision", "completeness precision (all cases)"),
    ("completeness_precision_clean", "  … without noisy labels"),
    ("distractor_conciseness_fell", "padding lowers conciseness"),
    ("distractor_broke_completeness", "padding breaks completeness"),
    ("evidence_pair_recall", "evidence-pair recall (compositional)"),
    ("evidence_pair_recall_lenient", "  … lenient name matching"),
    ("evidence_pair_recall_all_types", "evidence-pair recall (all types)"),
    ("evidence_pair_connected_all_types", "evidence pair connected (all types)"),
    ("bridge_precision", "bridge precision on chains"),
]
CATEGORIES = {
    "gold_incomplete": "gold answer scored incomplete",
    "hop_removed_still_complete": "hop removed, still complete",
    "replaced_still_complete": "hop replaced, still complete",
    "distractor_broke": "padding broke completeness",
    "distractor_conciseness_kept": "padding kept conciseness",
    "evidence_missed": "gold evidence pair not extracted",
}


def _target(dataset: str, metric: str) -> tuple[str, float] | None:
    for name, m, op, threshold in TARGETS:
        if m == metric and name in ("*", dataset):
            return op, threshold
    return None


def _cell(value: float | None, target: tuple[str, float] | None) -> Text:
    if value is None:
        return Text("—", style="dim")
    text = f"{value:.3f}"
    if target is None:
        return Text(text)
    op, threshold = target
    met = value >= threshold if op == ">=" else value <= threshold
    return Text(f"{text} {'✓' if met else '✗'}", style="green" if met else "red")


def metrics_table(report: dict) -> Table:
    sections = report["datasets"]
    table = Table(title="logicscore on real multi-hop QA (gold supporting sentences as long answers)")
    table.add_column("metric")
    for name, section in sections.items():
        table.add_column(SHORT.get(name, name) + ("" if section["targets_apply"] else " *"),
                         justify="right")
    table.add_column("target", justify="right", style="dim")
    for metric, label in ROWS:
        if not any(section["metrics"].get(metric) is not None for section in sections.values()):
            continue
        cells = [
            _cell(s["metrics"].get(metric), _target(n, metric) if s["targets_apply"] else None)
            for n, s in sections.items()]
        goals = sorted({f"{op} {t}" for n, m, op, t in TARGETS if m == metric})
        table.add_row(label, *cells, " / ".join(goals))
    table.add_section()
    for key, label in (("gold", "gold cases (scored types)"), ("hop_removed", "hop-removed cases"),
                       ("hop_removed_noisy", "  … of which noisy"), ("replaced", "replaced cases"),
                       ("distractor_on_complete_gold", "padded pairs on complete gold")):
        table.add_row(label, *[str(s["cases"].get(key, 0)) for s in sections.values()], "")
    table.add_row("records (duplicates skipped)",
                  *[f"{s['records']} ({s['duplicates_skipped']})" for s in sections.values()], "")
    table.add_row("errored cases", *[str(sum(s["errors"].values())) for s in sections.values()], "")
    return table


def markdown(report: dict) -> str:
    """The metrics table as markdown (for a README or a CI comment), ✓/✗ against targets."""
    sections = report["datasets"]
    head = ["metric", *(SHORT.get(n, n) + ("" if s["targets_apply"] else " *")
                        for n, s in sections.items()), "target"]
    lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 2) + "---|"]
    for metric, label in ROWS:
        if not any(s["metrics"].get(metric) is not None for s in sections.values()):
            continue
        cells = [_cell(s["metrics"].get(metric), _target(n, metric) if s["targets_apply"] else None)
                 for n, s in sections.items()]
        goals = " / ".join(sorted({f"{op} {t}" for n, m, op, t in TARGETS if m == metric}))
        lines.append("| " + " | ".join([label.strip(), *(c.plain for c in cells), goals]) + " |")
    lines.append("")
    if "by_type" in report:
        lines += [by_type_markdown(report)]
    lines.append(f"signature: `{report['settings']['signature']}`")
    return "\n".join(lines) + "\n"


# (key, label, target): the comparison family measured by type (docs/metrics.md).
BY_TYPE_ROWS = (
    ("type_match", "question type read as comparison/yes-no", 0.95),
    ("gold_complete", "gold answer complete", 0.85),
    ("side_removed_incomplete", "one side removed → incomplete", 0.85),
    ("gap_names_side", "… gap names that side", 0.80),
)


def _by_type_cells(report: dict) -> tuple[list[str], list[list[str]]]:
    sections = report.get("by_type", {}).get("sections", {})
    head = ["metric", *(SHORT.get(n, n) for n in sections), "target"]
    rows = []
    for key, label, goal in BY_TYPE_ROWS:
        cells = [s.get(key) for s in sections.values()]
        rows.append([label, *(_cell(v, (">=", goal)).plain for v in cells),
                     f">= {goal}"])
    rows.append(["items (side-removed cases)",
                 *(f"{s['items']} ({s['side_removed_cases']})" for s in sections.values()), ""])
    return head, rows


def by_type_table(report: dict) -> Table:
    head, rows = _by_type_cells(report)
    table = Table(title="comparison and yes/no questions, by type")
    for i, col in enumerate(head):
        table.add_column(col, justify="left" if i == 0 else "right")
    for row in rows:
        table.add_row(*row)
    return table


def by_type_markdown(report: dict) -> str:
    if "by_type" not in report:
        return ""
    head, rows = _by_type_cells(report)
    lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 2) + "---|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def types_table(report: dict) -> Table:
    table = Table(title="question types (only scored types count toward the metrics above)")
    for col in ("dataset", "type", "records", "scored", "gold complete"):
        table.add_column(col, justify="right" if col in ("records", "gold complete") else "left")
    for name, section in report["datasets"].items():
        for qtype, row in section["types"].items():
            share = row["gold_complete"]
            table.add_row(name, qtype, str(row["records"]), "yes" if row["scored"] else "no (reported)",
                          "—" if share is None else f"{share:.3f}")
    return table


def causes_table(name: str, section: dict, show: int = 1) -> Table:
    table = Table(title=f"{name}: failure causes (worst examples first)", show_lines=True)
    table.add_column("category")
    table.add_column("cause", overflow="fold")
    table.add_column("n", justify="right")
    table.add_column("example", overflow="fold")
    for category, counts in section["causes"].items():
        examples = section["examples"].get(category, [])
        for cause, n in counts.items():
            shown = [e for e in examples if e["cause"] == cause][:show]
            text = "\n".join(f"{e['id']}: {e['detail']}" for e in shown)
            table.add_row(CATEGORIES.get(category, category), cause, str(n), text)
    return table


def render(report: dict, show: int = 1) -> RenderableType:
    parts: list[RenderableType] = [metrics_table(report), types_table(report)]
    if "by_type" in report:
        parts.append(by_type_table(report))
    for name, section in report["datasets"].items():
        if section.get("note"):
            parts.append(Text(f"* {name}: {section['note']}", style="dim"))
        if section["not_built"]:
            built = ", ".join(f"{k} ({v})" for k, v in section["not_built"].items())
            parts.append(Text(f"{name}: perturbations not built: {built}", style="dim"))
    for name, section in report["datasets"].items():
        if section["causes"]:
            parts.append(causes_table(name, section, show))
    parts.append(Text(f"signature: {report['settings']['signature']}", style="dim"))
    return Group(*parts)
