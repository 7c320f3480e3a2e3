"""The HTML report's charts, drawn by matplotlib into inline SVG (text as paths: no fonts).

Figures are built without pyplot (no global state) and saved with a fixed hash salt and no
date, so the same report gives the same bytes.
"""

from __future__ import annotations

import io

from ..errors import ConfigError
from .build import Report

COLOURS = {"complete": "#3a8f4b", "broken": "#c0392b", "circular": "#d68910", "deviated": "#7d3c98",
           "error": "#7f8c8d", "unverified": "#b7950b"}


def _figure(width: float, height: float):
    try:
        import matplotlib
        from matplotlib.figure import Figure
    except ImportError:
        raise ConfigError("the HTML report draws its charts with matplotlib, which is not "
                          "installed (a dependency of logicscore): pip install 'matplotlib>=3.9,<4'") from None
    matplotlib.rcParams["svg.hashsalt"] = "logicscore"
    matplotlib.rcParams["svg.fonttype"] = "path"
    return Figure(figsize=(width, height), dpi=96, layout="constrained")


def _svg(fig) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    text = buf.getvalue()
    return text[text.index("<svg"):]


def metrics_chart(report: Report) -> str:
    """Mean of each metric with its bootstrap 95% interval."""
    fig = _figure(6.4, 2.8)
    ax = fig.subplots()
    rows = [m for m in report.metrics if m.mean is not None]
    names = [m.name.replace("_", " ") for m in rows]
    means = [m.mean for m in rows if m.mean is not None]
    lo = [m.mean - m.ci[0] for m in rows if m.ci and m.mean is not None]
    hi = [m.ci[1] - m.mean for m in rows if m.ci and m.mean is not None]
    ax.barh(names, means, xerr=[lo, hi] if len(lo) == len(rows) else None, color="#2e86c1",
            capsize=3)
    ax.set_xlim(0, 1)
    ax.invert_yaxis()
    ax.set_xlabel("mean (bars: 95% bootstrap interval)")
    return _svg(fig)


def failures_chart(report: Report) -> str:
    """Records per category, errors included, so coverage is visible at a glance."""
    fig = _figure(6.4, 2.4)
    ax = fig.subplots()
    kinds = [k for k, _, _ in report.categories] + ["error"]
    counts = [n for _, n, _ in report.categories] + [report.total - report.scored]
    ax.bar(kinds, counts, color=[COLOURS[k] for k in kinds])
    for i, n in enumerate(counts):
        ax.annotate(str(n), (i, n), ha="center", va="bottom", fontsize=8)
    ax.set_ylabel("records")
    return _svg(fig)


def hops_chart(report: Report) -> str | None:
    """Category shares by hop count, stacked; None when no record knows its hops."""
    hops = next((s for s in report.slices if s.field == "hops"), None)
    rows = [r for r in hops.rows if r.value != "(missing)"] if hops else []
    if not rows:
        return None
    fig = _figure(6.4, 2.6)
    ax = fig.subplots()
    labels = [r.value for r in rows]
    bottom = [0.0] * len(rows)
    for kind in ("complete", "broken", "circular", "deviated", *(("unverified",) if report.unverified else ())):
        shares = [r.categories.get(kind, 0) / r.n if r.n else 0 for r in rows]
        ax.bar(labels, shares, bottom=bottom, color=COLOURS[kind], label=kind)
        bottom = [b + s for b, s in zip(bottom, shares)]
    ax.set_xlabel("hops")
    ax.set_ylabel("share of records")
    ax.set_ylim(0, 1)
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    return _svg(fig)
