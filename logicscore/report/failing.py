"""Which records fail and why, in one line each: for `gate --junit` (one test case per
record), `report --failures` and `report --json`.

A record fails when it errored or its chain is not complete (`aggregate.category`); its line
says the category, the gap or the error, the determinateness verdict and the signals. An
unverified record neither passes nor fails: `unverified_reason` says what could not be checked.
"""

from __future__ import annotations

from ..models import AuditResult
from .aggregate import UNVERIFIED, category


def is_failing(result: AuditResult) -> bool:
    """Whether the record errored or its chain is incomplete (broken, circular, deviated)."""
    return category(result) not in ("complete", UNVERIFIED)


def unverified_reason(result: AuditResult) -> str | None:
    """Why the record's completeness is undecided (its `unverified` signal), or None when it
    is decided or errored."""
    if category(result) != UNVERIFIED:
        return None
    signals = result.diagnosis.signals if result.diagnosis else []
    return next((s.message for s in signals if s.kind == UNVERIFIED),
                "the text neither shows the chain nor shows it broken")


def describe(result: AuditResult) -> str:
    """One line: the record's category and why, its verdict and signals."""
    kind = category(result)
    if kind == "error":
        error = result.error
        return f"error: {error.type}: {error.message}" if error else "error"
    parts = [kind]
    if kind == UNVERIFIED:
        parts.append(str(unverified_reason(result)))
    diag = result.diagnosis
    if diag is not None:
        gaps = diag.gaps or ([diag.gap] if diag.gap else [])
        parts += [g.describe() for g in gaps]
        if diag.answer_absent:
            parts.append("no proposition states the short answer")
    if result.determinateness and result.determinateness != "entailed":
        parts.append(f"determinateness {result.determinateness}")
    signals = [s.kind for s in (diag.signals if diag else [])]
    if signals:
        parts.append("signals: " + ", ".join(dict.fromkeys(signals)))
    return "; ".join(parts)
