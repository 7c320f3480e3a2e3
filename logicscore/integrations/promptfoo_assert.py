"""A promptfoo Python assertion: the answer's logic, audited, as a GradingResult.

In `promptfooconfig.yaml`, with a file `logicscore_assert.py` holding the one line
`from logicscore.integrations.promptfoo_assert import get_assert`:

    assert:
      - type: python
        value: file://logicscore_assert.py
        config: {metric: completeness, threshold: 1}

The test's `vars` give the question (and a reference answer and contexts) as
`--format promptfoo` reads them; the output's last "Answer: X" line, else the conclusion it
states ("So the answer is X"), gives the short answer.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..auditor import Auditor
from .verdict import UNDECIDED, Verdict, verdict


@lru_cache(maxsize=1)
def _auditor() -> Auditor:
    # promptfoo calls the assertion once per output: the spaCy model loads once per worker.
    return Auditor(timing=False)


def get_assert(output: Any, context: dict[str, Any]) -> dict[str, Any]:
    """promptfoo's entry point: `{"pass", "score", "reason", "namedScores"}` for one output.

    `context` is promptfoo's (`vars`, `test`, `config`, `prompt`, …); `config.metric` (default
    completeness) and `config.threshold` (default 1) set what passes; `config.unverified`
    ("pass", the default, or "fail") what an answer whose completeness the text leaves
    undecided does.
    """
    config = context.get("config") or {}
    variables = context.get("vars") or (context.get("test") or {}).get("vars") or {}
    row = {"vars": variables, "response": {"output": output}}
    metric = config.get("metric", "completeness")
    if config.get("unverified", "pass") not in ("pass", "fail"):
        raise ValueError(f"config.unverified must be 'pass' or 'fail', got {config['unverified']!r}")
    found = verdict(row, "promptfoo", _auditor(), metric, float(config.get("threshold", 1.0)),
                    unverified_passes=config.get("unverified", "pass") == "pass")
    return graded(found)


def graded(found: Verdict) -> dict[str, Any]:
    """A verdict as promptfoo's GradingResult. An unverified answer has no score (null, never
    a 0 that would read as incomplete) and no named completeness or conciseness."""
    named: dict[str, float] = {}
    if found.result is not None and found.result.scores is not None:
        scores = found.result.scores
        named = {f"logicscore_{k}": float(getattr(scores, k))
                 for k in ("completeness", "partial_completeness", "conciseness", "determinateness")
                 if not (scores.completeness is None and k in UNDECIDED)}
    score = None if found.unverified else found.score if found.score is not None else 0.0
    return {"pass": found.passed, "score": score, "reason": found.reason, "namedScores": named}
