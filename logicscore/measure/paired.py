"""The rules path and the LLM path measured on one labelled file, side by side.

`bench --extractor llm` (or `--determinateness llm`) audits the file twice, once with the
rules path and once with the options given, and reports both in the table `bench` prints
for one, one column (or row) each, with what the LLM path spent: calls, tokens, seconds.
This is how a user chooses between them on their own data (docs/llm-servers.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import bench, labelled


@dataclass
class Spent:
    """What the LLM path's run cost, as its endpoint counted it."""

    calls: int
    prompt_tokens: int
    completion_tokens: int
    seconds: float
    structured: str

    def line(self) -> str:
        return (f"llm path: {self.calls} calls, {self.prompt_tokens:,} prompt + "
                f"{self.completion_tokens:,} completion tokens, {self.seconds:.1f} s, "
                f"structured output: {self.structured}")


@dataclass
class PairedReport:
    rules: bench.BenchReport | labelled.LabelledReport
    llm: bench.BenchReport | labelled.LabelledReport
    spent: Spent

    def to_json_dict(self) -> dict[str, Any]:
        return {"rules": self.rules.to_json_dict(), "llm": self.llm.to_json_dict(),
                "llm_spent": vars(self.spent)}


def run(records: list[dict], rules: Any, llm: Any, rejected: list[Any]) -> PairedReport:
    """Bench `records` on the `rules` auditor and on the `llm` auditor (an `Auditor`)."""
    import time

    first = bench.run(records, rules, rejected=rejected)
    start = time.perf_counter()
    second = bench.run(records, llm, rejected=rejected)
    endpoint = llm.llm
    spent = Spent(endpoint.calls, endpoint.tokens["prompt"], endpoint.tokens["completion"],
                  round(time.perf_counter() - start, 1), endpoint.structured_mode())
    return PairedReport(first, second, spent)


def _labelled_rows(report: PairedReport) -> list[tuple[str, str, dict[str, Any]]]:
    rules, llm = report.rules, report.llm
    assert isinstance(rules, labelled.LabelledReport) and isinstance(llm, labelled.LabelledReport)
    rows = []
    for kind, row in rules.auditor.items():
        rows += [(kind, "logicscore (rules)", row), ("", "logicscore (llm)", llm.auditor.get(kind, {}))]
        rows += [("", name, base[kind]) for name, base in rules.baselines.items()]
    return rows


def _headline_rows(report: PairedReport) -> tuple[list[str], list[list[str]]]:
    rules, llm = report.rules.to_json_dict(), report.llm.to_json_dict()
    names = list(report.rules.baselines)
    head = ["metric", "rules", "llm", *names]
    rows = [[key, bench._fmt(rules.get(key)), bench._fmt(llm.get(key)),
             *(bench._fmt(report.rules.baselines[n].get(key)) for n in names)] for key in bench._HEADLINE]
    rows.append(["n / errors", f"{rules['n']} / {rules['errors']}", f"{llm['n']} / {llm['errors']}",
                 *("" for _ in names)])
    return head, rows


def _footer(report: PairedReport) -> str:
    return (f"{report.spent.line()}\nrules: {report.rules.signature}\nllm: {report.llm.signature}\n"
            f"errored: rules {report.rules.errors}, llm {report.llm.errors}")


def render(report: PairedReport):
    """One rich table: the rules path's row (or column) and the LLM path's beside it."""
    from rich.table import Table

    if isinstance(report.rules, labelled.LabelledReport):
        table = Table(title="logicscore bench (labelled answers): rules vs llm", caption=_footer(report))
        for col in ("question type", "predictor", *labelled._COLUMNS):
            table.add_column(col, justify="right" if col in labelled._COLUMNS else "left")
        for kind, name, row in _labelled_rows(report):
            table.add_row(kind, name, *(labelled._cell(row, k) for k in labelled._COLUMNS),
                          style="bold" if name.startswith("logicscore") else None)
        return table
    head, cells = _headline_rows(report)
    table = Table(title="logicscore bench: rules vs llm", caption=_footer(report))
    for i, col in enumerate(head):
        table.add_column(col, justify="right" if i else "left")
    for line in cells:
        table.add_row(*line)
    return table


def render_markdown(report: PairedReport) -> str:
    lines: list[str]
    if isinstance(report.rules, labelled.LabelledReport):
        lines = ["| question type | predictor | recall on complete | specificity on incomplete "
                 "| balanced accuracy |", "|---|---|---:|---:|---:|"]
        for kind, name, row in _labelled_rows(report):
            bold = "**" if name.startswith("logicscore") else ""
            lines.append(f"| {kind} | {bold}{name}{bold} | "
                         + " | ".join(labelled._cell(row, k) for k in labelled._COLUMNS) + " |")
    else:
        head, rows = _headline_rows(report)
        lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
    footer = _footer(report).replace("\n", "  \n")
    return "\n".join([*lines, "", footer])
