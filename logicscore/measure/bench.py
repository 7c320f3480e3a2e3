"""Measure the auditor against a gold corpus, beside honest baselines (docs/measurements.md).

    report = bench.run(records, Auditor(extractor="rules", timing=False))
    print(report.to_json_dict()["failure_macro_f1"])

Gold lives in `meta.gold` (see `logicscore.measure.corpus`); it is stripped before the auditor sees
a record, so a prediction cannot read its own label. Every record counts: an errored
result is a wrong prediction, never a dropped one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import IO, Any

from pydantic import ValidationError

from . import labelled
from .baselines import (
    BASELINES, Pred, answer_mentioned_baseline, gold_label, greedy_baseline, greedy_chain,
    majority_baseline,
)
from ..errors import InputError
from ..lexicon.questions import QUESTION_TYPES
from ..lexicon.text import key as text_key
from ..models import AuditResult, QARecord

__all__ = ["BenchReport", "Pred", "run", "render", "score", "from_result", "load", "Rejected",
           "majority_baseline", "answer_mentioned_baseline", "greedy_baseline", "greedy_chain"]

CLASSES = ("complete", "broken", "circular", "deviated")
UNVERIFIED = "unverified"
# Hard/soft signals are scored; `redundant` is informational and present almost everywhere.
SCORED_SIGNALS = ("contradiction", "hedged_on_chain", "asserted_without_derivation", "shortcut",
                  "conclusion_mismatch")
FORK_SLICE = "fork_first"


def from_result(result: AuditResult | dict) -> Pred:
    """Read an auditor's result (model or its JSON dict) as a `Pred`."""
    if isinstance(result, dict):
        result = AuditResult.model_validate(result)
    if result.status != "ok" or result.scores is None:
        return Pred(None, None, 0.0)
    diag = result.diagnosis
    if result.scores.completeness is None:
        # Unverified: no prediction of completeness either way (`score` counts it apart).
        return Pred(None, UNVERIFIED, float(result.scores.conciseness), None, result.determinateness,
                    [s.kind for s in diag.signals] if diag else [])
    complete = int(result.scores.completeness)
    label = "complete" if complete else (diag.failure if diag and diag.failure else "broken")
    gap = (diag.gap.from_, diag.gap.to) if diag and diag.gap else None
    signals = [s.kind for s in diag.signals] if diag else []
    return Pred(complete, label, float(result.scores.conciseness), gap,
                result.determinateness, signals)


_DESCRIPTOR = re.compile(r"^(the |a |an )?((film|novel|band|club|company|city|country)( of)? )?")


def normalize(name: str) -> str:
    """Compare entity names the way docs/architecture.md does: the text key of the name without a
    possessive, a leading article or a descriptor."""
    return _DESCRIPTOR.sub("", text_key(re.sub(r"['’][sS]\b", "", name))).strip()


def _ratio(num: float, den: float) -> float | None:
    return round(num / den, 4) if den else None


def score(golds: list[dict], preds: list[Pred]) -> dict[str, Any]:
    """The headline metrics for aligned gold labels and predictions."""
    n = len(golds)
    out: dict[str, Any] = {"n": n}
    # Unverified predictions are left out of completeness accuracy and the failure types, and
    # the share decided said beside them; a run that decides everything keeps its keys.
    undecided = sum(p.label == UNVERIFIED for p in preds)
    if undecided:
        out["decided_share"] = _ratio(n - undecided, n)
    out["completeness_accuracy"] = _ratio(
        sum(p.completeness == g["completeness"] for g, p in zip(golds, preds)), n - undecided)
    per_class, f1s = {}, []
    decided = [(g, p) for g, p in zip(golds, preds) if p.label != UNVERIFIED]
    for cls in CLASSES:
        tp = sum(gold_label(g) == cls and p.label == cls for g, p in decided)
        support = sum(gold_label(g) == cls for g, _ in decided)
        predicted = sum(p.label == cls for p in preds)
        prec, rec = _ratio(tp, predicted), _ratio(tp, support)
        f1 = round(2 * prec * rec / (prec + rec), 4) if prec and rec else 0.0
        per_class[cls] = {"precision": prec, "recall": rec, "f1": f1, "support": support}
        if support or predicted:        # macro over classes that occur at all
            f1s.append(f1)
    out["failure"] = per_class
    out["failure_macro_f1"] = round(sum(f1s) / len(f1s), 4) if f1s else None
    # Conciseness, determinateness and the gap are scored on the records whose gold has them
    # (real-prose cases know their label, not how concise an answer should be).
    rated = [(g, p) for g, p in zip(golds, preds) if g.get("conciseness") is not None]
    if rated and any(p.conciseness is not None for _, p in rated):
        err = [abs((p.conciseness or 0.0) - g["conciseness"]) for g, p in rated]
        out["conciseness_mae"] = round(sum(err) / len(rated), 4)
    else:
        out["conciseness_mae"] = None   # the predictor has no notion of a chain
    gapped = [(g, p) for g, p in zip(golds, preds) if g.get("gap")]
    hits = sum(p.gap is not None and normalize(p.gap[0]) == normalize(g["gap"]["from"])
               and normalize(p.gap[1]) == normalize(g["gap"]["to"]) for g, p in gapped)
    out["gap_accuracy"] = _ratio(hits, len(gapped))
    out["gap_n"] = len(gapped)
    judged = [(g, p) for g, p in zip(golds, preds) if g.get("determinateness") is not None]
    out["determinateness_accuracy"] = _ratio(
        sum(p.determinateness == g["determinateness"] for g, p in judged), len(judged))
    tp = fp = fn = 0
    for g, p in zip(golds, preds):
        want = [s for s in SCORED_SIGNALS if s in g.get("signals", [])]
        got = [s for s in SCORED_SIGNALS if s in p.signals]
        tp += sum(s in want for s in got)
        fp += sum(s not in want for s in got)
        fn += sum(s not in got for s in want)
    out["signal_precision"] = _ratio(tp, tp + fp)
    out["signal_recall"] = _ratio(tp, tp + fn)
    return out


def score_sliced(records: list[dict], preds: list[Pred]) -> dict[str, Any]:
    """`score` overall, plus `by_hops` and `by_variant` (first-seen variant order)."""
    golds = [r["meta"]["gold"] for r in records]
    out = score(golds, preds)
    hops = sorted({r["hops"] for r in records if r.get("hops") is not None})
    out["by_hops"] = {str(h): _subset(records, preds, lambda r, h=h: r.get("hops") == h)
                      for h in hops}
    tags: list[str] = []
    for r in records:
        tags += [t for t in r["meta"].get("variants", []) if t not in tags]
    out["by_variant"] = {t: _subset(records, preds, lambda r, t=t: t in r["meta"].get("variants", []))
                         for t in tags}
    kinds = [t for t in QUESTION_TYPES if any(gold_question_type(r) == t for r in records)]
    out["by_question_type"] = {t: _subset(records, preds, lambda r, t=t: gold_question_type(r) == t)
                               for t in kinds}
    return out


def gold_question_type(record: dict) -> str:
    """The corpus's question type for a record: its gold label, its input field, else bridge."""
    gold = record.get("meta", {}).get("gold", {})
    return gold.get("question_type") or record.get("question_type") or "bridge"


def _subset(records: list[dict], preds: list[Pred], keep) -> dict[str, Any]:
    pairs = [(r["meta"]["gold"], p) for r, p in zip(records, preds) if keep(r)]
    return score([g for g, _ in pairs], [p for _, p in pairs])


# -- reading a corpus ----------------------------------------------------------------------

@dataclass(frozen=True)
class Rejected:
    """A corpus line bench cannot measure on: not a record, or no usable gold label."""

    line: int
    id: str
    error: InputError

    def to_json_dict(self) -> dict[str, Any]:
        return {"id": self.id, "line": self.line, "type": self.error.type, "message": self.error.message}


_NUMBER = (int, float)


def _gold_problem(record: dict) -> str | None:
    """Why `record` is not a gold-labelled corpus record (None when it is one)."""
    for name in ("question", "answer", "long_answer"):
        if not isinstance(record.get(name), str):
            return f"{name} must be a string"
    meta = record.get("meta")
    if not isinstance(meta, dict) or "gold" not in meta:
        return "no gold label (meta.gold)"
    gold = meta["gold"]
    if not isinstance(gold, dict):
        return "meta.gold must be an object"
    if gold.get("completeness") not in (0, 1) or isinstance(gold.get("completeness"), float):
        return "meta.gold.completeness must be 0 or 1"
    if not gold["completeness"] and gold.get("failure") not in CLASSES[1:]:
        return f"meta.gold.failure must be one of {', '.join(CLASSES[1:])} when completeness is 0"
    # Only completeness is required: a real-data corpus knows no gold conciseness or verdict.
    concise = gold.get("conciseness")
    if concise is not None and (not isinstance(concise, _NUMBER) or isinstance(concise, bool)):
        return "meta.gold.conciseness must be a number"
    for name in ("determinateness", "question_entity"):
        if gold.get(name) is not None and not isinstance(gold.get(name), str):
            return f"meta.gold.{name} must be a string"
    gap = gold.get("gap")
    if gap is not None and not (isinstance(gap, dict) and isinstance(gap.get("from"), str)
                                and isinstance(gap.get("to"), str)):
        return "meta.gold.gap must be null or {\"from\": …, \"to\": …}"
    for where, value in (("meta.gold.signals", gold.get("signals", [])),
                         ("meta.variants", meta.get("variants", []))):
        if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            return f"{where} must be a list of strings"
    hops = record.get("hops")
    if hops is not None and (not isinstance(hops, int) or isinstance(hops, bool)):
        return "hops must be an integer"
    return None


def _problem(record: dict, kind: bool | None) -> str | None:
    """Why `record` cannot be measured in a file whose first usable record was labelled
    (`kind` True), gold-corpus (False) or not yet seen (None)."""
    if labelled.is_labelled(record):
        if kind is False:
            return "a labelled record (label_completeness) in a gold corpus (meta.gold)"
        return labelled.label_problem(record)
    if kind is True:
        return "no label_completeness in a file of labelled answers"
    return _gold_problem(record)


# Lines refused before any record is read: past them the file is not a corpus, and what
# would be kept of an endless one (`yes | logicscore bench /dev/stdin`) is bounded.
MAX_REJECTED = 10_000


def load(source: IO[bytes]) -> tuple[list[dict], list[Rejected]]:
    """Read a gold corpus, or a file of labelled answers (`labelled`): the records bench can
    measure on, and every line it cannot. One file holds one kind, set by its first usable line.

    Lines are decoded as `logicscore.io` decodes input (BOM, CRLF, UTF-8, size and depth
    limits). A line that is not JSON, not a record, or has no usable `meta.gold` becomes a
    `Rejected` with a typed `InputError`; it never raises.
    """
    from .. import io

    records: list[dict] = []
    rejected: list[Rejected] = []
    kind: bool | None = None
    for number, raw in io.iter_raw(source):
        obj, error = io.decode_line(raw, number)
        if error is None:
            if not isinstance(obj, dict):
                error = InputError(f"line {number}: expected a JSON object, got {type(obj).__name__}",
                                   line=number)
            elif (problem := _problem(obj, kind)) is not None:
                error = InputError(f"line {number}: {problem}", line=number)
            else:
                try:
                    _input(obj)
                except (ValidationError, TypeError) as exc:
                    reason = io.problems(exc) if isinstance(exc, ValidationError) else str(exc)
                    error = InputError(f"line {number}: {reason}", line=number)
        if error is not None:
            rejected.append(Rejected(number, io.record_id(obj) or str(number), error))
            if len(rejected) > MAX_REJECTED and not records:
                raise InputError(f"the first {MAX_REJECTED:,} lines are not corpus records "
                                 f"({rejected[0].error.message}); is it a corpus?")
        else:
            records.append(obj)
            kind = labelled.is_labelled(obj)
    return records, rejected


# -- the run -----------------------------------------------------------------------------

@dataclass
class BenchReport:
    auditor: dict[str, Any]
    baselines: dict[str, dict[str, Any]]
    errors: int = 0
    signature: str | None = None
    rejected: list[Rejected] = field(default_factory=list)

    def to_json_dict(self) -> dict[str, Any]:
        greedy = self.baselines.get("greedy", {})
        fork = greedy.get("by_variant", {}).get(FORK_SLICE, {})
        # Lines left out for want of a gold label; the key is there only when some were.
        skipped = {"input_errors": [r.to_json_dict() for r in self.rejected]} if self.rejected else {}
        return {
            **self.auditor,
            **skipped,
            "errors": self.errors,
            "signature": self.signature,
            "baselines": self.baselines,
            # The trap the forks set: conciseness error of first-match search where a fork
            # is listed before the gold link.
            "greedy_fork_conciseness_mae": fork.get("conciseness_mae"),
            "auditor_fork_conciseness_mae": self.auditor.get("by_variant", {})
                                                       .get(FORK_SLICE, {}).get("conciseness_mae"),
        }


def _input(record: dict) -> QARecord:
    if labelled.is_labelled(record):
        return labelled.strip_labels(record)
    meta = {k: v for k, v in record.get("meta", {}).items() if k != "gold"}
    fields = {k: v for k, v in record.items() if k != "meta"}
    return QARecord(**fields, meta=meta)


def run(records: list[dict], auditor: Any = None, *,
        results: Iterable[AuditResult | dict] | None = None,
        rejected: Iterable[Rejected] = ()) -> BenchReport | labelled.LabelledReport:
    """Audit `records` (or take precomputed `results`, aligned) and score them with baselines.

    Args:
        records: corpus records with `meta.gold` (as `logicscore.measure.corpus.generate` writes;
            `load` reads a file into them).
        auditor: anything with `audit_many(Iterable[QARecord])`; gold is stripped first.
        results: predictions already made, one per record in order (tests, cached runs).
        rejected: the lines `load` could not use, reported beside the metrics.
    """
    records = list(records)
    if records and all(labelled.is_labelled(r) for r in records):
        return labelled.run(records, auditor, results=results, rejected=rejected)
    if results is None:
        if auditor is None:
            raise ValueError("bench.run needs an auditor or precomputed results")
        results = auditor.audit_many(_input(r) for r in records)
    results = list(results)
    if len(results) != len(records):
        raise ValueError(f"{len(results)} results for {len(records)} records")
    preds = [from_result(r) for r in results]
    errors = sum(p.completeness is None and p.label != UNVERIFIED for p in preds)
    baselines = {name: score_sliced(records, fn(records)) for name, fn in BASELINES.items()}
    return BenchReport(score_sliced(records, preds), baselines, errors,
                       getattr(auditor, "signature", None) if auditor is not None else None,
                       list(rejected))


_HEADLINE = ("completeness_accuracy", "failure_macro_f1", "conciseness_mae", "gap_accuracy",
             "determinateness_accuracy", "signal_precision", "signal_recall")


def _headline(data: dict[str, Any]) -> tuple[str, ...]:
    # The share decided leads only where some prediction was unverified: other tables keep their bytes.
    return ("decided_share", *_HEADLINE) if "decided_share" in data else _HEADLINE


def _fmt(value: Any) -> str:
    return "—" if value is None else (f"{value:.3f}" if isinstance(value, float) else str(value))


def render(report: BenchReport | labelled.LabelledReport):
    """Rich tables: headline vs baselines, per-class F1, by hop count, by variant."""
    if isinstance(report, labelled.LabelledReport):
        return labelled.render(report)
    from rich.console import Group
    from rich.table import Table

    data = report.to_json_dict()
    head = Table(title="logicscore bench", caption=report.signature)
    head.add_column("metric")
    for col in ("auditor", *report.baselines):
        head.add_column(col, justify="right")
    for key in _headline(data):
        head.add_row(key, _fmt(data.get(key)), *(_fmt(b.get(key)) for b in report.baselines.values()))
    head.add_row("conciseness_mae on fork_first", _fmt(data["auditor_fork_conciseness_mae"]),
                 *(_fmt(b.get("by_variant", {}).get(FORK_SLICE, {}).get("conciseness_mae"))
                   for b in report.baselines.values()))
    head.add_row("n / errors", f"{data['n']} / {report.errors}", *("" for _ in report.baselines))
    if report.rejected:
        first = report.rejected[0].error.message
        head.add_row("lines left out", str(len(report.rejected)),
                     *("" for _ in report.baselines), style="red")
        head.caption = f"{report.signature}\nleft out, first: {first}"

    classes = Table(title="failure types (auditor)")
    for col in ("class", "precision", "recall", "f1", "support"):
        classes.add_column(col, justify="right" if col != "class" else "left")
    for cls, row in data["failure"].items():
        classes.add_row(cls, *(_fmt(row[k]) for k in ("precision", "recall", "f1", "support")))

    def sliced(title: str, rows: dict[str, dict]) -> Table:
        table = Table(title=title)
        table.add_column("slice")
        table.add_column("n", justify="right")
        for key in _HEADLINE[:5]:
            table.add_column(key.replace("_accuracy", " acc").replace("_", " "), justify="right")
        for name, row in rows.items():
            table.add_row(name, str(row["n"]), *(_fmt(row.get(k)) for k in _HEADLINE[:5]))
        return table

    parts = [head, classes, sliced("by hop count (auditor)", data["by_hops"]),
             sliced("by variant (auditor)", data["by_variant"])]
    if len(data.get("by_question_type", {})) > 1:
        parts.append(sliced("by question type (auditor)", data["by_question_type"]))
    return Group(*parts)


def render_markdown(report: BenchReport | labelled.LabelledReport) -> str:
    """The headline and per-hop tables as GitHub markdown (for READMEs and CI comments)."""
    if isinstance(report, labelled.LabelledReport):
        return labelled.render_markdown(report)
    data = report.to_json_dict()
    names = list(report.baselines)
    lines = ["| metric | logicscore | " + " | ".join(names) + " |",
             "|---|---:|" + "---:|" * len(names)]
    for key in _headline(data):
        lines.append(f"| {key} | **{_fmt(data.get(key))}** | "
                     + " | ".join(_fmt(report.baselines[n].get(key)) for n in names) + " |")
    fork = [_fmt(report.baselines[n].get("by_variant", {}).get(FORK_SLICE, {}).get("conciseness_mae"))
            for n in names]
    lines.append(f"| conciseness_mae, fork listed first | **{_fmt(data['auditor_fork_conciseness_mae'])}** | "
                 + " | ".join(fork) + " |")
    lines += ["", "| hops | n | " + " | ".join(_HEADLINE[:5]) + " |", "|---:|---:|" + "---:|" * 5]
    for hops, row in data["by_hops"].items():
        lines.append(f"| {hops} | {row['n']} | " + " | ".join(_fmt(row.get(k)) for k in _HEADLINE[:5]) + " |")
    by_type = data.get("by_question_type", {})
    if len(by_type) > 1:  # a bridge-only corpus keeps its tables as they were
        lines += ["", "| question type | n | " + " | ".join(_HEADLINE[:5]) + " |",
                  "|---|---:|" + "---:|" * 5]
        for qtype, row in by_type.items():
            lines.append(f"| {qtype} | {row['n']} | "
                         + " | ".join(_fmt(row.get(k)) for k in _HEADLINE[:5]) + " |")
    lines += ["", f"{data['n']} cases, {report.errors} errored; signature `{report.signature}`"]
    if report.rejected:
        lines.append(f"{len(report.rejected)} lines left out, not gold-labelled records; first: "
                     f"{report.rejected[0].error.message}")
    return "\n".join(lines)
