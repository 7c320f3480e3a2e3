"""Medians and seeded bootstrap intervals of the means, from the reservoir sample.

While the run fits in the reservoir this is the plain percentile bootstrap of the mean. For a
larger run the reservoir is a uniform sample of k of the n records: the bootstrap deviations
of its mean are scaled by sqrt(k / n) to the standard error of the n-record mean and centred
on the exact mean, so the interval narrows with n as it should while memory stays at k rows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .aggregate import METRICS, Aggregate, Reservoir

CHUNK = 100


@dataclass
class MetricSummary:
    name: str
    n: int
    mean: float | None
    median: float | None
    std: float | None
    ci: tuple[float, float] | None


def summarize_metrics(agg: Aggregate, sample: Reservoir, resamples: int, seed: int) -> list:
    rows = sample.items
    if not rows:
        return [MetricSummary(m, 0, None, None, None, None) for m in METRICS]
    import numpy as np

    data = np.asarray(rows, dtype=np.float64)
    k = len(rows)
    rng = np.random.default_rng(seed)
    means = []
    for start in range(0, resamples, CHUNK):
        idx = rng.integers(0, k, size=(min(CHUNK, resamples - start), k))
        means.append(data[idx].mean(axis=1))
    boot = np.concatenate(means)                      # (resamples, metrics)
    sample_mean = data.mean(axis=0)
    scale = math.sqrt(k / sample.seen) if sample.seen > k else 1.0
    lo_dev, hi_dev = np.percentile(boot - sample_mean, [2.5, 97.5], axis=0)
    medians = np.median(data, axis=0)
    out = []
    for i, metric in enumerate(METRICS):
        stat = agg.stats[metric]
        mean = stat.mean
        ci = (_clip(mean + scale * lo_dev[i]), _clip(mean + scale * hi_dev[i]))
        out.append(MetricSummary(metric, stat.n, mean, float(medians[i]), stat.std, ci))
    return out


def _clip(x: float) -> float:
    # Every score lies in [0, 1]; the scaled interval must too.
    return min(1.0, max(0.0, float(x)))
