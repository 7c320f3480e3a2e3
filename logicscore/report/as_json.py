"""The report as one JSON object (`report --json`): every figure the tables show, the
examples as their ids and failure lines (the records themselves are in the run)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

from ..models import AuditResult
from .build import Report
from .failing import describe


def report_json(report: Report) -> dict[str, Any]:
    """`report` as plain JSON values, keys in a fixed order."""
    data = _plain(report)
    if report.hops is None:  # a run without a hop stage keeps its report's bytes
        data.pop("hops")
    else:
        data["hops"]["incomplete"] = report.hops.incomplete
    if report.unverified:  # beside the means it is left out of; other runs keep their bytes
        data["unverified"] = report.unverified
    if report.gold is not None:
        data["gold"].update(accuracy=report.gold.accuracy, right_wrong_reason_rate=report.gold.rwr_rate,
                            majority=report.gold.majority)
    return data


def _plain(value: Any) -> Any:
    if isinstance(value, AuditResult):
        return {"id": value.id, "line": value.meta.line, "why": describe(value)}
    if isinstance(value, Counter):
        return dict(sorted(value.items()))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
        if hasattr(value, "share") and "share" not in out:
            out["share"] = value.share
        return out
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value
