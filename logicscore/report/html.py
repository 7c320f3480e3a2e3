"""A `Report` and every record of the run as one self-contained HTML file.

The page is a record browser (docs/report-browser.md): the summary tables and charts of the
run, a table of every record with filters, search and sorting, and a record view. Records
travel as JSON inside the page (`browse`) and the page's own script draws only what is on
screen. Nothing is fetched when it opens (a Content-Security-Policy forbids it), so the file
works offline and as a CI artifact. Every string of a record reaches the page through
autoescaped markup or the page's `textContent`, never as markup.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from importlib import resources

from ..errors import ConfigError
from ..lexicon.signals import SIGNAL_MEANINGS
from ..models import AuditResult
from . import charts
from .browse import CATEGORIES, Baseline, RecordIndex, script_json
from .build import Report, build_report
from .chaingraph import gaps_of
from .failing import unverified_reason
from .render import fmt, section_lines, signature_note, tables


def _examples(kind: str, results: list[AuditResult], index: RecordIndex) -> list[dict]:
    # A section's examples are the first records of its category, in input order: the same
    # records the index numbered first.
    first = [i for i, c in enumerate(index.cat) if c == CATEGORIES.index(kind)][: len(results)]
    out = []
    for i, result in zip(first, results):
        if result.diagnosis is None:
            err = result.error
            lines = [f"{err.type}: {err.message}" if err else "RuntimeError"]
        else:
            undecided = unverified_reason(result)
            lines = [f"completeness unverified: {undecided}"] if undecided is not None else [
                f"no statement links {g.from_} to {g.to}" for g in gaps_of(result)]
        out.append({"index": i, "id": str(result.id), "lines": lines})
    return out


def _baseline(baseline: Baseline | None) -> dict | None:
    if baseline is None:
        return None
    return {"name": baseline.name, "same_signature": baseline.same_signature,
            "deltas": [[m.replace("_", " "), fmt(a, 4), fmt(b, 4), "-" if d is None else f"{d:+.4f}"]
                       for m, a, b, d in baseline.deltas],
            "transitions": [[a, b, str(n)] for a, b, n in baseline.transitions],
            "moved": sum(n for a, b, n in baseline.transitions if a != b),
            "only_new": len(baseline.only_new), "only_old": baseline.only_old}


def render_html(report: Report, index: RecordIndex) -> str:
    """The page for `report`, browsing the records `index` was fed (the same run)."""
    try:
        import jinja2
    except ImportError:
        raise ConfigError("the HTML report needs jinja2 (a dependency of logicscore): "
                          "pip install 'jinja2>=3.1,<4'") from None
    source = resources.files("logicscore.report").joinpath("templates/report.html.j2").read_text("utf-8")
    template = jinja2.Environment(autoescape=True, keep_trailing_newline=True).from_string(source)
    drawn = [("metrics", charts.metrics_chart(report)), ("failures", charts.failures_chart(report)),
             ("hops", charts.hops_chart(report))]
    sections = [{"kind": s.kind, "count": s.count, "lines": section_lines(s),
                 "examples": _examples(s.kind, s.examples, index)} for s in report.sections]
    sections.append({"kind": "error", "count": report.total - report.scored, "lines": [],
                     "examples": _examples("error", report.error_examples, index)})
    return template.render(
        report=report, tables=tables(report), signature_note=signature_note(report),
        charts=[(n, svg) for n, svg in drawn if svg], sections=sections,
        baseline=_baseline(index.baseline), rows=index.rows(), details=index.details(),
        meanings=script_json(SIGNAL_MEANINGS), hops=report.hops is not None)


def html_report(results: Iterable[AuditResult], by: Sequence[str] = (), seed: int = 0,
                baseline: Baseline | None = None) -> tuple[Report, str]:
    """One pass over `results`: the report and its HTML page (memory grows with the page)."""
    index = RecordIndex(baseline)
    report = build_report(results, by=by, seed=seed, sinks=[index])
    return report, render_html(report, index)
