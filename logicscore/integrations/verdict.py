"""One row of another tool, audited and reduced to a score, a pass and a reason.

The score is one of the record's scores (`METRICS`); a row that cannot be read or audited
has no score: its `Verdict` carries the typed error instead, and never passes. A record whose
completeness the text left undecided (`unverified`) has no completeness or conciseness either:
its `Verdict` says so with the reason, and passes unless the caller makes it fail.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import io
from ..auditor import Auditor
from ..errors import InputError
from ..formats import convert
from ..models import AuditResult

# The scores a threshold can be set on: each is 0..1, higher is better.
METRICS = ("completeness", "partial_completeness", "conciseness", "determinateness")
# Undecided for an unverified record: completeness is null, and conciseness (0 unless complete)
# would read as incomplete.
UNDECIDED = ("completeness", "conciseness")


@dataclass(frozen=True)
class Verdict:
    score: float | None
    passed: bool
    reason: str
    result: AuditResult | None = None
    error: str | None = None
    # The text left completeness undecided: `score` is None and `reason` says what was not checked.
    unverified: bool = False


def check_metric(metric: str, threshold: float) -> None:
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}; metrics: {', '.join(METRICS)}")
    if not 0 <= threshold <= 1:
        raise ValueError(f"threshold must be within 0..1, got {threshold}")


def verdict(row: dict[str, Any], fmt: str, auditor: Auditor, metric: str = "completeness",
            threshold: float = 1.0, unverified_passes: bool = True) -> Verdict:
    """Audit one row of format `fmt` and hold `metric` to `threshold` (score >= threshold); an
    unverified record passes when `unverified_passes`, and fails otherwise, with no score."""
    check_metric(metric, threshold)
    try:
        record = io.to_record(convert(row, 1, fmt), 1)
    except InputError as exc:
        return Verdict(None, False, exc.message, error=f"InputError: {exc.message}")
    result = next(auditor.audit_many([record]))
    if result.status == "error" or result.scores is None:
        assert result.error is not None  # an error record always carries its error
        message = f"{result.error.type}: {result.error.message}"
        return Verdict(None, False, message, result, message)
    return judge(result, metric, threshold, unverified_passes)


def judge(result: AuditResult, metric: str, threshold: float, unverified_passes: bool = True) -> Verdict:
    """Hold `metric` of a scored record to `threshold`."""
    assert result.scores is not None
    if result.scores.completeness is None and metric in UNDECIDED:
        why = next((s.message for s in (result.diagnosis.signals if result.diagnosis else [])
                    if s.kind == "unverified"), "the text neither shows the chain nor shows it broken")
        said = "passes: not checked" if unverified_passes else f"fails: {metric} must be shown >= {threshold:g}"
        return Verdict(None, unverified_passes, f"{metric} unverified ({said}): {why}", result, unverified=True)
    score = float(getattr(result.scores, metric))
    passed = score >= threshold
    return Verdict(score, passed, _reason(result, metric, score, threshold, passed), result)


def _reason(result: AuditResult, metric: str, score: float, threshold: float, passed: bool) -> str:
    head = f"{metric} {score:.3g} {'>=' if passed else '<'} {threshold:g}"
    diagnosis = result.diagnosis
    if result.chain:
        claims = {p.id: f"({p.subject}, {p.relation}, {p.object})" for p in result.propositions}
        head += f"; chain: {' → '.join(claims.get(c, c) for c in result.chain)}"
    if diagnosis is not None and diagnosis.failure:
        head += f"; {diagnosis.failure}"
        if diagnosis.gap is not None:
            head += f": {diagnosis.gap.describe()}"
    if diagnosis is not None and diagnosis.redundant:
        head += f"; redundant: {', '.join(diagnosis.redundant)}"
    return head
