"""One pass over output records into a `Report`: plain data that every renderer reads.

Memory stays flat in the number of records: counts and running moments are exact, medians
and bootstrap intervals come from a seeded reservoir (exact while the run fits in it), and
each category keeps a bounded number of worked examples (the first ones, in input order).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..models import AuditResult
from .aggregate import CATEGORIES, DECIDED_ONLY, METRICS, UNVERIFIED, Aggregate, Reservoir, category
from .failing import unverified_reason
from .findings import Finding, findings, reason, recommend
from .hops import HopBreakdown, HopTally
from .stats import MetricSummary

RESERVOIR = 5000
RESAMPLES = 1000
EXAMPLES = 3
# A slice field with more distinct values than this pools the rest under "(other)".
SLICE_VALUES = 30
SLICE_METRICS = ("completeness", "conciseness", "determinateness")
# Distinct reasons kept for unverified records; the rest are counted as one.
REASONS_KEPT = 20
OTHER_REASONS = "(other reasons)"


@dataclass
class SliceRow:
    value: str
    n: int = 0
    errors: int = 0
    sums: dict[str, float] = field(default_factory=lambda: dict.fromkeys(SLICE_METRICS, 0.0))
    categories: Counter = field(default_factory=Counter)

    def mean(self, metric: str) -> float | None:
        scored = self.n - self.errors
        if metric in DECIDED_ONLY:
            scored -= self.categories.get(UNVERIFIED, 0)
        return self.sums[metric] / scored if scored else None


@dataclass
class Slice:
    field: str
    rows: list[SliceRow]


@dataclass
class Gold:
    """Answer accuracy, the right-for-wrong-reason rate and what completeness adds."""

    n: int
    correct: int
    right_wrong_reason: int     # correct answer, incomplete chain
    chain_agrees: int           # completeness == correct
    mentioned_agrees: int       # short answer stated in a proposition == correct

    @property
    def accuracy(self) -> float:
        return self.correct / self.n

    @property
    def rwr_rate(self) -> float | None:
        """Share of the correct answers whose chain is incomplete."""
        return self.right_wrong_reason / self.correct if self.correct else None

    @property
    def majority(self) -> float:
        # Always predicting the more common outcome: the floor any predictor must beat.
        return max(self.correct, self.n - self.correct) / self.n


@dataclass
class Grounding:
    """Chain hops against their cited documents, over the records that carry documents."""

    records: int                # scored records with a grounded chain share
    mean: float | None          # mean of scores.grounded_chain
    hops: list[tuple[str, int]]  # status → chain hops
    with_ungrounded_hop: int
    # The grounders' keys (`meta.grounder`) → records they grounded: a record's own fact,
    # apart from the run's signature.
    grounders: list[tuple[str, int]] = field(default_factory=list)


@dataclass
class Section:
    kind: str
    count: int
    share: float
    findings: list[Finding]
    recommendation: str | None
    signals: list[tuple[str, int]]
    examples: list[AuditResult]


@dataclass
class Report:
    signatures: list[tuple[str, int]]
    total: int
    scored: int
    errors: list[tuple[str, int]]
    metrics: list[MetricSummary]
    categories: list[tuple[str, int, float]]
    answer_absent: int
    verdicts: list[tuple[str, int]]
    signals: list[tuple[str, int, Counter]]
    gold: Gold | None
    slices: list[Slice]
    sections: list[Section]
    error_examples: list[AuditResult]
    sampled: bool
    seed: int
    grounding: Grounding | None = None
    # Runs with a hop stage only (`--hops`): why the hops call records incomplete.
    hops: HopBreakdown | None = None

    @property
    def mixed(self) -> bool:
        return len(self.signatures) > 1

    @property
    def unverified(self) -> int:
        """Scored records whose completeness the text left undecided."""
        return next((n for kind, n, _ in self.categories if kind == UNVERIFIED), 0)


def _lookup(record: dict[str, Any], path: str) -> str:
    node: Any = record
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return "(missing)"
        node = node[part]
    return node if isinstance(node, str) else json.dumps(node, sort_keys=True)


class ReportBuilder:
    """Feed results with `add`, then `build()`; `by` lists dotted paths into the input meta."""

    def __init__(self, by: Sequence[str] = (), seed: int = 0, reservoir: int = RESERVOIR,
                 examples: int = EXAMPLES):
        self.agg = Aggregate()
        self.by = list(by)
        self.seed = seed
        self.sample = Reservoir(reservoir, seed)
        self.examples_cap = examples
        self.examples: dict[str, list[AuditResult]] = {k: [] for k in (*CATEGORIES, UNVERIFIED, "error")}
        self.reasons: dict[str, Counter] = {k: Counter() for k in (*CATEGORIES[1:], UNVERIFIED)}
        self.signals: dict[str, Counter] = {}
        self.signals_by_category: dict[str, Counter] = {k: Counter() for k in (*CATEGORIES, UNVERIFIED)}
        self.gold: Counter[str] = Counter()
        self.slices: dict[str, dict[str, SliceRow]] = {}
        self.hops = HopTally()

    def add(self, result: AuditResult) -> None:
        self.agg.add(result)
        kind = category(result)
        if len(self.examples[kind]) < self.examples_cap:
            self.examples[kind].append(result)
        self._slice(result, kind)
        if kind == "error":
            return
        assert result.scores is not None and result.diagnosis is not None
        self.hops.add(result)
        self.sample.add(tuple(_sampled(result, m) for m in METRICS))
        if kind == UNVERIFIED:
            self._unverified_reason(str(unverified_reason(result)))
        elif kind != "complete":
            self.reasons[kind][reason(result)] += 1
        for sig_kind in dict.fromkeys(s.kind for s in result.diagnosis.signals):
            self.signals_by_category[kind][sig_kind] += 1
        for sig in result.diagnosis.signals:
            self.signals.setdefault(sig.kind, Counter())[sig.severity] += 1
        if result.correct is not None and kind != UNVERIFIED:
            complete = bool(result.scores.completeness)
            mentioned = not result.diagnosis.answer_absent
            self.gold.update(n=1, correct=result.correct,
                             rwr=result.correct and not complete,
                             chain=complete == result.correct, mentioned=mentioned == result.correct)

    def _unverified_reason(self, why: str) -> None:
        # A reason may name the record's entities: past REASONS_KEPT distinct ones the rest are
        # pooled, so memory stays flat however many records a run leaves unverified.
        reasons = self.reasons[UNVERIFIED]
        if why not in reasons and len(reasons) >= REASONS_KEPT:
            why = OTHER_REASONS
        reasons[why] += 1

    def _slice(self, result: AuditResult, kind: str) -> None:
        keys = {"hops": "(missing)" if result.meta.hops is None else str(result.meta.hops),
                "signature": result.meta.signature}
        qtype = getattr(result, "question_type", None)
        if qtype is not None:
            keys["question_type"] = str(qtype)
        for path in self.by:
            keys[path] = _lookup(result.meta.record, path)
        for name, value in keys.items():
            rows = self.slices.setdefault(name, {})
            if value not in rows and len(rows) >= SLICE_VALUES:
                value = "(other)"
            row = rows.setdefault(value, SliceRow(value))
            row.n += 1
            if kind == "error":
                row.errors += 1
                continue
            row.categories[kind] += 1
            for metric in SLICE_METRICS:
                if kind != UNVERIFIED or metric not in DECIDED_ONLY:
                    row.sums[metric] += float(getattr(result.scores, metric))

    def build(self) -> Report:
        agg = self.agg
        from .stats import summarize_metrics

        metrics = summarize_metrics(agg, self.sample, RESAMPLES, self.seed)
        sections = []
        for kind in _kinds(agg):
            count = agg.categories.get(kind, 0)
            found = findings(kind, self.reasons.get(kind, Counter()))
            sections.append(Section(
                kind, count, count / agg.scored if agg.scored else 0.0, found,
                None if kind in ("complete", UNVERIFIED) else recommend(kind, found),
                sorted(self.signals_by_category[kind].items(), key=lambda kv: (-kv[1], kv[0])),
                self.examples[kind]))
        g = self.gold
        return Report(
            signatures=list(agg.signatures.items()), total=agg.total, scored=agg.scored,
            errors=sorted(agg.errors.items()), metrics=metrics,
            categories=[(k, agg.categories.get(k, 0), agg.share(k) or 0.0) for k in _kinds(agg)],
            answer_absent=agg.answer_absent,
            verdicts=[(v, agg.verdicts.get(v, 0)) for v in ("entailed", "contradicted", "underdetermined")],
            signals=[(k, sum(c.values()), c) for k, c in
                     sorted(self.signals.items(), key=lambda kv: (-sum(kv[1].values()), kv[0]))],
            gold=Gold(g["n"], g["correct"], g["rwr"], g["chain"], g["mentioned"]) if g["n"] else None,
            slices=self._slice_list(), sections=sections, error_examples=self.examples["error"],
            sampled=self.sample.seen > self.sample.size, seed=self.seed, grounding=_grounding(agg),
            hops=self.hops.build())

    def _slice_list(self) -> list[Slice]:
        out = []
        for name, rows in self.slices.items():
            if name == "signature" and len(rows) < 2:
                continue
            ordered = sorted(rows.values(), key=lambda r: (r.value in ("(missing)", "(other)"), _natural(r.value)))
            out.append(Slice(name, ordered))
        return out


def _kinds(agg: Aggregate) -> tuple[str, ...]:
    """The categories a report lists: `unverified` only for a run that has such records."""
    return (*CATEGORIES, UNVERIFIED) if agg.unverified else CATEGORIES


def _sampled(result: AuditResult, metric: str) -> float:
    # NaN marks a mean an unverified record takes no part in; `stats` skips it.
    if metric in DECIDED_ONLY and result.scores is not None and result.scores.completeness is None:
        return math.nan
    return float(getattr(result.scores, metric))


def _grounding(agg: Aggregate) -> Grounding | None:
    if not agg.hop_grounding and not agg.grounded.n:
        return None
    statuses = ("grounded", "ungrounded", "uncited", "unknown_citation")
    return Grounding(agg.grounded.n, agg.grounded.mean if agg.grounded.n else None,
                     [(k, agg.hop_grounding.get(k, 0)) for k in statuses], agg.with_ungrounded_hop,
                     list(agg.grounders.items()))


def _natural(value: str) -> tuple:
    # Hop counts sort as numbers, everything else as text.
    return (0, int(value), "") if value.isdigit() else (1, 0, value)


class Sink(Protocol):
    def add(self, result: AuditResult) -> None: ...


def build_report(results: Iterable[AuditResult], by: Sequence[str] = (), seed: int = 0,
                 sinks: Sequence[Sink] = ()) -> Report:
    """Stream `results` into a `Report` (same input and seed, same report); each of `sinks`
    is fed every result too, in the same pass."""
    builder = ReportBuilder(by=by, seed=seed)
    for result in results:
        builder.add(result)
        for sink in sinks:
            sink.add(result)
    return builder.build()
