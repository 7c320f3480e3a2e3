"""`LogicScoreMetric` inside real DeepEval tests: assert_test, evaluate, the async path, and a
determinateness judge served by a local stub (no network)."""

from __future__ import annotations

import pytest
from deepeval import assert_test, evaluate
from deepeval.test_case import LLMTestCase
from llm_server import FakeLLM

from logicscore import Auditor
from logicscore.integrations.deepeval_metric import LogicScoreMetric

COMPLETE = LLMTestCase(
    input="Where was the director of the film Glass Harbor born?",
    actual_output="Glass Harbor was directed by Tobias Renner [1]. Tobias Renner was born in Dunmore [2].\n"
                  "Answer: Dunmore",
    expected_output="Dunmore", retrieval_context=["Glass Harbor was directed by Tobias Renner.",
                                                  "Tobias Renner was born in Dunmore."])
BROKEN = LLMTestCase(
    input="Where was the director of the film Glass Harbor born?",
    actual_output="Glass Harbor is a film by Ana Vell, shot in Osk. Dunmore is a town in Ireland, home of "
                  "Cor Rand.\nAnswer: Dunmore",
    expected_output="Dunmore")


def test_a_complete_chain_passes_assert_test(auditor):
    metric = LogicScoreMetric(threshold=1.0, auditor=auditor)
    assert_test(COMPLETE, [metric], run_async=False)
    assert metric.score == 1.0 and metric.is_successful()
    assert "Tobias Renner" in metric.reason and metric.result.answer_entity == "Dunmore"


def test_a_broken_chain_fails_assert_test_with_the_gap_as_reason(auditor):
    metric = LogicScoreMetric(threshold=1.0, auditor=auditor)
    with pytest.raises(AssertionError):
        assert_test(BROKEN, [metric], run_async=False)
    assert metric.score == 0.0 and not metric.is_successful()
    assert "completeness 0 < 1" in metric.reason and "broken" in metric.reason


def test_evaluate_runs_the_async_path_and_reports_each_case(auditor):
    out = evaluate(test_cases=[COMPLETE, BROKEN], metrics=[LogicScoreMetric(auditor=auditor)])
    by_input = {r.actual_output: r for r in out.test_results}
    assert by_input[COMPLETE.actual_output].success is True
    assert by_input[BROKEN.actual_output].success is False
    (data,) = by_input[BROKEN.actual_output].metrics_data
    assert data.name == "LogicScore (completeness)" and data.score == 0.0


def test_threshold_on_another_score_and_strict_mode(auditor):
    metric = LogicScoreMetric(threshold=0.5, metric="partial_completeness", auditor=auditor)
    metric.measure(BROKEN)
    assert metric.score == pytest.approx(metric.result.scores.partial_completeness)
    assert metric.is_successful() is (metric.score >= 0.5)
    assert LogicScoreMetric(threshold=0.2, strict_mode=True).threshold == 1.0
    with pytest.raises(ValueError, match="unknown metric"):
        LogicScoreMetric(metric="faithfulness")


def test_an_unreadable_test_case_errors_and_fails(auditor):
    metric = LogicScoreMetric(auditor=auditor)
    metric.measure(LLMTestCase(input="Q?", actual_output="No answer line and no expected output."))
    assert not metric.is_successful() and metric.error.startswith("InputError: ")
    assert "no short answer" in metric.error


def test_determinateness_judged_by_a_local_stub(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-local")
    with FakeLLM(extract=lambda parts: {}, judge=lambda parts: {"answer": "Dunmore"}) as server:
        judged = Auditor(judge="llm", timing=False,
                         llm={"base_url": server.base_url, "model": "stub", "cache": False, "timeout": 5.0})
        metric = LogicScoreMetric(metric="determinateness", auditor=judged)
        assert_test(COMPLETE, [metric], run_async=False)
        assert server.count("judge") == 1
    assert metric.score == 1.0 and metric.is_successful()


def test_an_unverified_answer_says_so_with_no_score():
    from undecided import WHY, leave_undecided

    undecided = leave_undecided(Auditor(timing=False))
    metric = LogicScoreMetric(threshold=1.0, auditor=undecided)
    # Neither a pass nor a failure of completeness: assert_test lets it through, with no score.
    assert_test(BROKEN, [metric], run_async=False)
    assert metric.unverified and metric.score is None and metric.is_successful()
    assert metric.reason == f"completeness unverified (passes: not checked): {WHY}"
    assert metric.result.scores.completeness is None
    strict = LogicScoreMetric(auditor=undecided, strict_mode=True)
    with pytest.raises(AssertionError):
        assert_test(BROKEN, [strict], run_async=False)
    assert strict.unverified and strict.score is None and not strict.is_successful()
    out = evaluate(test_cases=[BROKEN], metrics=[LogicScoreMetric(auditor=undecided)])
    (data,) = out.test_results[0].metrics_data
    assert data.score is None and data.success is True and "unverified" in data.reason
