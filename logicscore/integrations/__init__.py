"""LogicScore inside the evaluation tools teams already run.

- `deepeval_metric.LogicScoreMetric`: a DeepEval custom metric (extra `logicscore[deepeval]`);
- `promptfoo_assert.get_assert`: a promptfoo Python assertion (no extra: promptfoo runs it
  with the Python that has logicscore).

Both read the tool's test case through the input adapters (`logicscore.formats`), so a test
case audits exactly as the same row given to `logicscore score --format` does.
"""

from __future__ import annotations

from .verdict import METRICS, Verdict, verdict

__all__ = ["METRICS", "Verdict", "verdict"]
