"""Scores from a chain result and a verdict (docs/metrics.md)."""

from __future__ import annotations

import pytest

from logicscore.pipeline.chain import Chain
from logicscore.pipeline.score import compute_scores


@pytest.mark.parametrize("result, n, verdict, expected", [
    (Chain(chain=["P1", "P2", "P3"], complete=True, partial_completeness=1.0,
                 conciseness_partial=0.75), 4, "entailed", (1, 0.75, 1, 1.0, 0.75)),
    # Incomplete: headline conciseness is 0, the partial one is kept.
    (Chain(best_partial=["P1"], partial_completeness=0.5, conciseness_partial=0.5), 2,
     "underdetermined", (0, 0.0, 0, 0.5, 0.5)),
    (Chain(chain=["P1", "P2"], complete=True, partial_completeness=1.0), 3, "contradicted",
     (1, 0.6667, 0, 1.0, 0.0)),
    # Conclusions are not counted in |P|.
    (Chain(chain=["P1"], complete=True, conclusions=["P2"]), 2, "entailed", (1, 1.0, 1, 0.0, 0.0)),
    # Nothing to count.
    (Chain(), 0, "underdetermined", (0, 0.0, 0, 0.0, 0.0)),
])
def test_score_table(result, n, verdict, expected):
    s = compute_scores(result, n, verdict)
    assert (s.completeness, s.conciseness, s.determinateness, s.partial_completeness,
            s.conciseness_partial) == expected
