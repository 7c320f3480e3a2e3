"""A `Report` as one self-contained HTML file: inline styles, SVG charts and chain graphs.

Nothing is fetched when it opens (a Content-Security-Policy forbids it), so the file works
offline and as a CI artifact. The page's only script is the failure-type filter.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from ..errors import ConfigError
from ..models import AuditResult
from . import charts
from .build import Report
from .chaingraph import render_chain_svg
from .render import section_lines, signature_note, tables


@dataclass
class _Example:
    id: str
    svg: str
    props: list[dict[str, str]]
    gaps: list[str]


def _example(result: AuditResult) -> _Example:
    diag = result.diagnosis
    if diag is None:
        err = result.error
        text = f"{err.type}: {err.message}" if err else "RuntimeError"
        return _Example(str(result.id), "", [{"cls": "", "text": text}], [])
    chain, redundant = set(result.chain), set(diag.redundant)
    props = [{"cls": "chain" if p.id in chain else "redundant" if p.id in redundant else "",
              "text": f"{p.id}  {p.text}  [({p.subject}) -{p.relation}-> ({p.object})]"}
             for p in result.propositions]
    gaps = [g.describe() for g in diag.gaps or ([diag.gap] if diag.gap else [])]
    return _Example(str(result.id), render_chain_svg(result), props, gaps)


def render_html(report: Report) -> str:
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
                 "examples": [_example(e) for e in s.examples]} for s in report.sections]
    sections.append({"kind": "error", "count": report.total - report.scored, "lines": [],
                     "examples": [_example(e) for e in report.error_examples]})
    return template.render(report=report, tables=tables(report), signature_note=signature_note(report),
                           charts=[(n, svg) for n, svg in drawn if svg], sections=sections)
