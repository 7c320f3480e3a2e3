"""The three scores plus the partial ones (docs/metrics.md), from the chain analysis and the verdict."""

from __future__ import annotations

from .flow import Chain
from ..models import Scores, Verdict


def compute_scores(result: Chain, n_propositions: int, verdict: Verdict) -> Scores:
    """Scores for one record.

    Args:
        result: the chain analysis.
        n_propositions: every proposition of LA; conclusions (`result.conclusions`) are
            taken out of |P| because they state a result and bridge nothing.
        verdict: the determinateness verdict.
    Returns:
        completeness and determinateness in {0, 1}, completeness None when the analysis left
        it undecided (`result.undecided`); conciseness |Pmin| / |P| when complete,
        else 0; the partial scores from `result`. Floats are rounded to 4 decimals.
    """
    counted = n_propositions - len(result.conclusions)
    concise = round(len(result.chain) / counted, 4) if result.complete and counted > 0 else 0.0
    return Scores(
        completeness=None if result.undecided else int(result.complete),
        conciseness=concise,
        determinateness=int(verdict == "entailed"),
        partial_completeness=round(result.partial_completeness, 4),
        conciseness_partial=round(result.conciseness_partial, 4),
    )
