"""A DeepEval custom metric: the test case's long answer audited, one score held to a threshold.

    from deepeval import assert_test
    from deepeval.test_case import LLMTestCase
    from logicscore.integrations.deepeval_metric import LogicScoreMetric

    metric = LogicScoreMetric(threshold=1.0)           # completeness must be 1
    assert_test(LLMTestCase(input=q, actual_output=reply, expected_output=a), [metric])

The test case is read as `--format deepeval` reads a row (`input`, `actual_output`,
`expected_output`, `retrieval_context`): the short answer is the output's last "Answer: X"
line, else the conclusion it states ("So the answer is X"); `expected_output` is the gold
answer. The rules path needs no judge model; pass an `Auditor` built with `judge="llm"` to
judge determinateness with one (DeepEval's own model is never called).
Needs the extra: `pip install "logicscore[deepeval]"`.
"""

from __future__ import annotations

import asyncio
from typing import Any

from deepeval.metrics import BaseMetric

from ..auditor import Auditor
from .verdict import Verdict, check_metric, verdict


class LogicScoreMetric(BaseMetric):
    """Passes when `metric` (completeness by default) of the audited answer is >= `threshold`.

    `score` is that metric (0..1), `reason` the chain and the diagnosis, `result` the whole
    `AuditResult`. A test case that cannot be read or audited sets `error` and fails. An
    answer whose completeness the text leaves undecided has `score` None, `unverified` True
    and the reason; it passes, unless `strict_mode` asks for every answer to be shown complete.
    """

    def __init__(self, threshold: float = 1.0, metric: str = "completeness", auditor: Auditor | None = None,
                 async_mode: bool = True, strict_mode: bool = False):
        check_metric(metric, threshold)
        self.threshold = 1.0 if strict_mode else threshold
        self.metric = metric
        self.auditor = auditor
        self.async_mode, self.strict_mode = async_mode, strict_mode
        self.include_reason = True
        self.evaluation_model = "logicscore"
        self.result: Any = None
        self.unverified = False

    def measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float | None:
        if self.auditor is None:
            self.auditor = Auditor(timing=False)  # loaded on first use, then kept
        row = {"input": test_case.input, "actual_output": test_case.actual_output,
               "expected_output": test_case.expected_output,
               "retrieval_context": test_case.retrieval_context, "context": test_case.context}
        found = verdict(row, "deepeval", self.auditor, self.metric, self.threshold,
                        unverified_passes=not self.strict_mode)
        return self._keep(found)

    async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float | None:
        # The audit is CPU-bound: run it off the event loop DeepEval awaits metrics on.
        return await asyncio.to_thread(self.measure, test_case)

    def is_successful(self) -> bool:
        return self.error is None and bool(self.success)

    def _keep(self, found: Verdict) -> float | None:
        self.result, self.reason, self.error = found.result, found.reason, found.error
        self.success = found.passed
        self.unverified = found.unverified
        # No score for an unverified answer: a 0 would read as an incomplete one.
        self.score = None if found.unverified else found.score if found.score is not None else 0.0
        return self.score

    @property
    def __name__(self) -> str:  # DeepEval names a metric by this property
        return f"LogicScore ({self.metric})"
