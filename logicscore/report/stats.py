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
    if np.isnan(data).any():
        return _without_unverified(agg, sample, data, resamples, seed)
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


def _without_unverified(agg: Aggregate, sample: Reservoir, data, resamples: int, seed: int) -> list:
    """The same figures for a sample holding unverified records (NaN in the metrics they take
    no part in): each metric over the sampled records that have it, so a decided-only mean's
    interval is the bootstrap of the decided records."""
    import numpy as np

    out = []
    for i, metric in enumerate(METRICS):
        column = data[:, i][~np.isnan(data[:, i])]
        stat = agg.stats[metric]
        if not len(column):
            out.append(MetricSummary(metric, stat.n, None, None, None, None))
            continue
        k = len(column)
        rng = np.random.default_rng(seed)
        boot = np.concatenate([column[rng.integers(0, k, size=(min(CHUNK, resamples - start), k))].mean(axis=1)
                               for start in range(0, resamples, CHUNK)])
        # The reservoir samples scored records; the decided ones seen are in proportion.
        seen = max(k, round(sample.seen * k / len(data)))
        scale = math.sqrt(k / seen) if seen > k else 1.0
        lo_dev, hi_dev = np.percentile(boot - column.mean(), [2.5, 97.5])
        mean = stat.mean
        ci = (_clip(mean + scale * lo_dev), _clip(mean + scale * hi_dev))
        out.append(MetricSummary(metric, stat.n, mean if stat.n else None, float(np.median(column)), stat.std, ci))
    return out


def _clip(x: float) -> float:
    # Every score lies in [0, 1]; the scaled interval must too.
    return min(1.0, max(0.0, float(x)))
