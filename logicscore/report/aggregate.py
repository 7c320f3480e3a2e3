"""Streaming accumulators over output records: counts, running moments, a seeded reservoir.

Everything here is O(1) memory in the number of records, so `report`, `gate` and `diff` read
a run of any size in one pass. Only the `AuditResult` contract (docs/records.md) is read.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field

from ..models import AuditResult

# The headline scores and the two partial ones, in the order every report shows them.
METRICS = ("completeness", "conciseness", "determinateness", "partial_completeness",
           "conciseness_partial")
CATEGORIES = ("complete", "broken", "circular", "deviated")
# A record whose completeness the text could not decide (scores.completeness null, issue 40):
# its own bucket, listed only by runs that have one, so other runs keep their bytes.
UNVERIFIED = "unverified"
# Means taken over decided records only: an unverified record has no completeness, and its
# conciseness (0 unless complete) would count it as incomplete.
DECIDED_ONLY = ("completeness", "conciseness")


def category(result: AuditResult) -> str:
    """'error', 'complete', 'unverified' or the failure type: the bucket a record falls in everywhere."""
    if result.status == "error" or result.scores is None:
        return "error"
    if result.scores.completeness is None:
        return UNVERIFIED
    failure = result.diagnosis.failure if result.diagnosis else None
    if failure:
        return failure
    return "complete" if result.scores.completeness else "broken"


@dataclass
class RunningStat:
    """Count, sum and variance (Welford's update), one pass, no stored values.

    The mean is sum / n, not Welford's running mean, so 8 ones in 10 give exactly 0.8 and a
    threshold of 0.8 passes as a person expects.
    """

    n: int = 0
    total: float = 0.0
    _mean: float = 0.0
    m2: float = 0.0

    def add(self, x: float) -> None:
        self.n += 1
        self.total += x
        delta = x - self._mean
        self._mean += delta / self.n
        self.m2 += delta * (x - self._mean)

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    @property
    def std(self) -> float | None:
        # Sample standard deviation; undefined for fewer than two values.
        return math.sqrt(self.m2 / (self.n - 1)) if self.n > 1 else None


@dataclass
class Reservoir:
    """A uniform sample of at most `size` items (Algorithm R), seeded so reruns agree."""

    size: int
    seed: int = 0
    seen: int = 0
    items: list = field(default_factory=list)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def add(self, item) -> None:
        self.seen += 1
        if len(self.items) < self.size:
            self.items.append(item)
            return
        j = self._rng.randrange(self.seen)
        if j < self.size:
            self.items[j] = item


@dataclass
class Aggregate:
    """What the gate and diff need from a run: coverage, means, category and verdict counts."""

    total: int = 0
    signatures: Counter = field(default_factory=Counter)
    # The grounder's keys of each record it grounded (`meta.grounder`), counted.
    grounders: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)
    categories: Counter = field(default_factory=Counter)
    verdicts: Counter = field(default_factory=Counter)
    answer_absent: int = 0
    stats: dict[str, RunningStat] = field(default_factory=lambda: {m: RunningStat() for m in METRICS})
    # Records with documents only: the share of chain hops grounded, and each hop's status.
    grounded: RunningStat = field(default_factory=RunningStat)
    hop_grounding: Counter = field(default_factory=Counter)
    with_ungrounded_hop: int = 0

    def add(self, result: AuditResult) -> None:
        self.total += 1
        self.signatures[result.meta.signature] += 1
        if result.meta.grounder is not None:
            self.grounders[result.meta.grounder] += 1
        kind = category(result)
        if kind == "error":
            self.errors[result.error.type if result.error else "RuntimeError"] += 1
            return
        assert result.scores is not None
        self.categories[kind] += 1
        self.verdicts[result.determinateness or "underdetermined"] += 1
        if result.diagnosis and result.diagnosis.answer_absent:
            self.answer_absent += 1
        for metric in METRICS:
            if kind != UNVERIFIED or metric not in DECIDED_ONLY:
                self.stats[metric].add(float(getattr(result.scores, metric)))
        if result.grounding is not None:
            self.hop_grounding.update(row.status for row in result.grounding)
            self.with_ungrounded_hop += any(row.status == "ungrounded" for row in result.grounding)
            if result.scores.grounded_chain is not None:
                self.grounded.add(result.scores.grounded_chain)

    @property
    def scored(self) -> int:
        return self.total - sum(self.errors.values())

    @property
    def unverified(self) -> int:
        return self.categories.get(UNVERIFIED, 0)

    @property
    def decided(self) -> int:
        """Scored records whose completeness was decided (complete or a failure type)."""
        return self.scored - self.unverified

    def decided_share(self, kind: str) -> float | None:
        """Share of decided records in category `kind`: what the gate holds a failure type to."""
        return self.categories.get(kind, 0) / self.decided if self.decided else None

    def mean(self, metric: str) -> float | None:
        stat = self.stats[metric]
        return stat.mean if stat.n else None

    def share(self, kind: str) -> float | None:
        """Share of scored records in category `kind`; None when nothing was scored."""
        return self.categories.get(kind, 0) / self.scored if self.scored else None

    @property
    def error_share(self) -> float | None:
        return sum(self.errors.values()) / self.total if self.total else None

    def signature_list(self) -> list[str]:
        """Signatures in first-seen order (Counter keeps insertion order)."""
        return list(self.signatures)
