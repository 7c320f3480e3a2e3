"""How far to trust the auditor's verdicts on a user's own answers, before gating on them.

    report = calibrate.run(lines, Auditor(extractor="rules", timing=False), seed=0)

The records that score complete are the bases. Each gets perturbed copies with known
labels (`perturb.build`): a body sentence dropped with the sentences restating its names
(incomplete, broken), a cycle (incomplete, circular), the answer-side sentence swapped
for another record's (incomplete, broken), distractor sentences (complete), one compared
side dropped (incomplete, broken). Copies whose label is not sound are counted with the
reason and left out; the rest are audited, and the verdicts measured against the claims:
precision and recall for flagging incomplete, and per failure type.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..models import AuditResult, QARecord
from .perturb import build

__all__ = ["NoCompleteRecords", "CalibrationReport", "run", "measure", "render", "render_markdown"]

FAILURES = ("broken", "circular", "deviated")


class NoCompleteRecords(ValueError):
    """Nothing to perturb: no record of the input scores complete."""


@dataclass(frozen=True)
class Outcome:
    """One sound copy, its claim and what the auditor said of it."""

    copy: build.Perturbation
    complete: bool | None  # None: the copy errored, or is unverified
    failure: str | None
    # The text left the copy's completeness undecided: no prediction either way, counted apart.
    unverified: bool = False


@dataclass
class CalibrationReport:
    lines: int
    input_errors: int
    bases: int
    seed: int
    signature: str | None
    copies: list[build.Perturbation] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    # Why the first lines that are not records are not ("line 3: missing field answer"), so a
    # dropped line is never silent.
    not_records: list[str] = field(default_factory=list)

    def to_json_dict(self) -> dict[str, Any]:
        return {"kind": "calibration", "lines": self.lines, "input_errors": self.input_errors,
                "not_records": self.not_records,
                "complete_records": self.bases, "seed": self.seed, "signature": self.signature,
                **measure(self.copies, self.outcomes)}


def _ratio(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


def _pr(pairs: list[tuple[bool, bool]]) -> dict[str, Any]:
    """Precision and recall of a predicted class against a claimed one."""
    tp = sum(c and p for c, p in pairs)
    claimed, predicted = sum(c for c, _ in pairs), sum(p for _, p in pairs)
    return {"claimed": claimed, "predicted": predicted, "hits": tp,
            "precision": _ratio(tp, predicted), "recall": _ratio(tp, claimed)}


def _reasons(copies: Iterable[build.Perturbation]) -> dict[str, int]:
    return dict(sorted(Counter(c.discard for c in copies).items()))


def typed(outcomes: list[Outcome]) -> list[Outcome]:
    """The outcomes whose copy claims a failure type, or claims complete (no failure)."""
    return [o for o in outcomes if o.copy.complete or o.copy.failure is not None]


def _decided(outcomes: list[Outcome]) -> list[Outcome]:
    return [o for o in outcomes if not o.unverified]


def _per_kind(copies: list[build.Perturbation], outcomes: list[Outcome]) -> dict[str, Any]:
    out = {}
    for kind in build.KINDS:
        mine = [c for c in copies if c.kind == kind]
        done = [o for o in outcomes if o.copy.kind == kind]
        sound, done = len(done), _decided(done)
        unverified = sound - len(done)
        out[kind] = {
            "built": sum(c.record is not None for c in mine), "sound": sound,
            "kept_share": _ratio(sound, sum(c.record is not None for c in mine)),
            "completeness_agrees": _ratio(sum(o.complete is o.copy.complete for o in done), len(done)),
            "failure_agrees": _ratio(sum(o.complete is not None and o.failure == o.copy.failure
                                         for o in typed(done)), len(typed(done))),
            "not_built": _reasons(c for c in mine if c.record is None),
            "discarded": _reasons(c for c in mine if c.record is not None and c.discard),
            **({"unverified": unverified} if unverified else {}),
        }
    return out


def measure(copies: list[build.Perturbation], outcomes: list[Outcome]) -> dict[str, Any]:
    """Flagging incomplete and each failure type: precision and recall over the sound copies
    (an errored copy is predicted nothing: neither complete nor any failure); the failure
    types over the copies that claim one (or claim complete). An unverified copy predicts
    nothing and is left out of every precision and recall, counted apart (`unverified`)."""
    built = sum(c.record is not None for c in copies)
    unverified = len(outcomes) - len(_decided(outcomes))
    sound, audited = len(outcomes), outcomes
    outcomes = _decided(outcomes)
    incomplete = _pr([(not o.copy.complete, o.complete is False) for o in outcomes])
    failures = {t: _pr([(o.copy.failure == t, o.complete is False and o.failure == t)
                        for o in typed(outcomes)]) for t in FAILURES}
    return {"copies": {"built": built, "sound": sound, "kept_share": _ratio(sound, built),
                       "errored": sum(o.complete is None for o in outcomes),
                       "failure_unclaimed": len(outcomes) - len(typed(outcomes)),
                       **({"unverified": unverified} if unverified else {})},
            "incomplete": incomplete,
            "complete": _pr([(o.copy.complete, o.complete is True) for o in outcomes]),
            "by_failure": failures, "by_kind": _per_kind(copies, audited)}


def _verdict(result: AuditResult) -> tuple[bool | None, str | None, bool]:
    """(complete, failure type, unverified): complete None when the record errored or is unverified."""
    if result.status != "ok" or result.scores is None:
        return None, None, False
    if result.scores.completeness is None:
        return None, None, True
    failure = result.diagnosis.failure if result.diagnosis is not None else None
    return bool(result.scores.completeness), failure, False


# How many lines that are not records the report says why of.
SHOWN_NOT_RECORDS = 5


def _records(lines: Iterable[Any]) -> tuple[list[QARecord], int, list[str]]:
    """The records of `formats.read_lines` output, how many lines there were, and why each
    line that is not a record is not."""
    records, n, bad = [], 0, []
    for line in lines:
        n += 1
        if line.record is None:
            bad.append(line.error.message if line.error else f"line {line.number}: not a record")
        else:
            records.append(line.record)
    return records, n, bad


def run(lines: Iterable[Any], auditor: Any, *, seed: int = 0,
        progress: Callable[[str, int], Callable[[], None]] | None = None,
        signature: str | None = None) -> CalibrationReport:
    """Audit the input, perturb its complete records, audit the sound copies, measure.

    Args:
        lines: `io.read_lines` output (a line that is no record is counted, not lost).
        auditor: anything with `audit_many(Iterable[QARecord])` (and a `signature`).
        seed: picks donors and where distractors go; same seed, same report.
        progress: `progress(label, total)` returns a callback ticked once per audited record.
        signature: the auditor's options and versions (default: `auditor.signature`; worker
            pools carry none of their own).
    """
    records, n, reasons = _records(lines)
    bad = len(reasons)
    tick = progress("auditing the input", len(records)) if progress else None
    bases: list[tuple[build.Answer, AuditResult]] = []
    for record, result in zip(records, auditor.audit_many(records)):
        if tick:
            tick()
        if _verdict(result)[0] is True:
            bases.append((build.Answer.of(record), result))
    if not bases:
        why = f"; {bad} of {n} lines are not records, {reasons[0]}" if bad else ""
        raise NoCompleteRecords(f"no record scores complete ({len(records)} audited{why}): "
                                "calibrate perturbs complete records, so it has nothing to perturb")
    donors = [answer for answer, _ in bases]
    copies = [c for answer, result in bases for c in build.perturb(answer, result, donors, seed)]
    sound = [c for c in copies if c.sound]
    tick = progress("auditing perturbed copies", len(sound)) if progress else None
    outcomes = []
    for copy, result in zip(sound, auditor.audit_many(c.record for c in sound)):
        if tick:
            tick()
        outcomes.append(Outcome(copy, *_verdict(result)))
    signature = signature or getattr(auditor, "signature", None)
    return CalibrationReport(n, bad, len(bases), seed,
                             f"{signature}|calibrate:seed={seed}" if signature else None,
                             copies, outcomes, reasons[:SHOWN_NOT_RECORDS])


# -- rendering ---------------------------------------------------------------------------

def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def _class_rows(data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [("incomplete (any)", data["incomplete"]), ("complete", data["complete"]),
            *((f"failure: {t}", row) for t, row in data["by_failure"].items())]


def _class_cells(row: dict[str, Any]) -> list[str]:
    return [f"{_fmt(row['precision'])} ({row['hits']}/{row['predicted']})",
            f"{_fmt(row['recall'])} ({row['hits']}/{row['claimed']})"]


def _kind_cells(row: dict[str, Any]) -> list[str]:
    return [f"{row['sound']}/{row['built']}", _fmt(row["completeness_agrees"]),
            _fmt(row["failure_agrees"])]


def _footer(report: CalibrationReport, data: dict[str, Any]) -> str:
    unverified = data["copies"].get("unverified")
    apart = f", {unverified} unverified (left out of precision and recall)" if unverified else ""
    why = f" ({'; '.join(report.not_records)}{'; …' if report.input_errors > len(report.not_records) else ''})" \
        if report.not_records else ""
    return (f"{report.lines} lines, {report.input_errors} not records{why}, {report.bases} scored complete "
            f"(perturbed); {data['copies']['sound']} of {data['copies']['built']} copies kept as sound "
            f"({data['copies']['failure_unclaimed']} claim incomplete with no failure type), "
            f"{data['copies']['errored']} errored{apart}; signature `{report.signature}`")


def _discard_lines(data: dict[str, Any], key: str) -> list[str]:
    return [f"{kind}: {why} ({n})" for kind, row in data["by_kind"].items()
            for why, n in row[key].items()]


def render_markdown(report: CalibrationReport) -> str:
    """Per class and per perturbation kind, with the discard reasons, as markdown."""
    data = report.to_json_dict()
    lines = ["| claimed class | precision | recall |", "|---|---:|---:|"]
    lines += [f"| {name} | " + " | ".join(_class_cells(row)) + " |" for name, row in _class_rows(data)]
    lines += ["", "| perturbation | sound / built | completeness agrees | failure agrees |",
              "|---|---:|---:|---:|"]
    lines += [f"| {kind} | " + " | ".join(_kind_cells(row)) + " |"
              for kind, row in data["by_kind"].items()]
    lines += ["", "Discarded, label not sound:",
              *(f"- {x}" for x in _discard_lines(data, "discarded") or ["none"])]
    lines += ["", "Not built:", *(f"- {x}" for x in _discard_lines(data, "not_built") or ["none"])]
    return "\n".join([*lines, "", _footer(report, data)])


def render(report: CalibrationReport):
    """The same tables for a terminal (rich)."""
    from rich.console import Group
    from rich.table import Table

    data = report.to_json_dict()
    classes = Table(title="logicscore calibrate", caption=_footer(report, data))
    for col in ("claimed class", "precision", "recall"):
        classes.add_column(col, justify="left" if col == "claimed class" else "right")
    for name, row in _class_rows(data):
        classes.add_row(name, *_class_cells(row))
    caption = "discarded, label not sound: " + ("; ".join(_discard_lines(data, "discarded")) or "none")
    kinds = Table(title="by perturbation", caption=caption + "\nnot built: "
                  + ("; ".join(_discard_lines(data, "not_built")) or "none"))
    for col in ("perturbation", "sound / built", "completeness agrees", "failure agrees"):
        kinds.add_column(col, justify="left" if col == "perturbation" else "right")
    for kind, row in data["by_kind"].items():
        kinds.add_row(kind, *_kind_cells(row))
    return Group(classes, kinds)

