"""The promptfoo assertion on the shapes promptfoo documents (promptfoo is a Node package,
not installable from PyPI: `get_assert(output, context)` is called as its Python runner
calls it), and the verdict both integrations share. The DeepEval metric is tested against
the real package in tests_extras/ (run by .ci/run in an environment of its own)."""

from __future__ import annotations

import pytest

from logicscore import Auditor
from logicscore.integrations import verdict
from logicscore.integrations.promptfoo_assert import get_assert

QUESTION = "Where was the director of the film Glass Harbor born?"
GOOD = ("Glass Harbor was directed by Tobias Renner [1]. Tobias Renner was born in Dunmore [2].\n"
        "Answer: Dunmore")
BROKEN = ("Glass Harbor is a film by Ana Vell, shot in Osk. Dunmore is a town in Ireland, home of Cor Rand.\n"
          "Answer: Dunmore")


def _context(**config):
    # promptfoo's AssertionValueFunctionContext: prompt, vars, test, config (and more).
    variables = {"question": QUESTION, "context": ["Glass Harbor was directed by Tobias Renner.",
                                                   "Tobias Renner was born in Dunmore."]}
    return {"prompt": f"Answer: {QUESTION}", "vars": variables,
            "test": {"vars": variables, "assert": [{"type": "python"}]}, "config": config}


@pytest.mark.slow
def test_promptfoo_assertion_passes_a_complete_chain():
    graded = get_assert(GOOD, _context())
    assert set(graded) == {"pass", "score", "reason", "namedScores"}
    assert graded["pass"] is True and graded["score"] == 1.0
    assert "(Tobias Renner, born in, Dunmore)" in graded["reason"]
    assert graded["namedScores"]["logicscore_completeness"] == 1.0


@pytest.mark.slow
def test_promptfoo_assertion_fails_a_broken_chain_and_names_the_gap():
    graded = get_assert(BROKEN, _context())
    assert graded["pass"] is False and graded["score"] == 0.0
    assert graded["reason"].startswith("completeness 0 < 1") and "broken" in graded["reason"]


@pytest.mark.slow
def test_promptfoo_assertion_config_picks_metric_and_threshold():
    graded = get_assert(BROKEN, _context(metric="partial_completeness", threshold=0.25))
    partial = graded["namedScores"]["logicscore_partial_completeness"]
    assert graded["score"] == partial and graded["pass"] is (partial >= 0.25)


@pytest.mark.slow
def test_promptfoo_assertion_without_a_short_answer_fails_with_the_reason():
    graded = get_assert("Glass Harbor was directed by Tobias Renner.", _context())
    assert graded == {"pass": False, "score": 0.0, "namedScores": {},
                      "reason": 'line 1: promptfoo row: no short answer in the response: no "Answer: X" line '
                                'and no stated conclusion ("So the answer is X"); pass --map answer=FIELD naming '
                                'the field that holds it, or end the response with a line "Answer: X"'}


def test_verdict_refuses_an_unknown_metric_or_threshold():
    with pytest.raises(ValueError, match="unknown metric 'faithfulness'"):
        verdict({}, "deepeval", Auditor(), "faithfulness")
    with pytest.raises(ValueError, match=r"threshold must be within 0\.\.1"):
        verdict({}, "deepeval", Auditor(), "completeness", 2.0)


@pytest.mark.slow
def test_verdict_of_an_error_record_has_no_score():
    found = verdict({"input": "Q?", "actual_output": "x" * 50 + "\nAnswer: A", "expected_output": "A"}, "deepeval",
                    Auditor(timing=False, max_chars=10))
    assert found.score is None and not found.passed and found.error.startswith("InputError: ")
    assert found.result is not None and found.result.status == "error"


@pytest.fixture(scope="module")
def undecided_auditor():
    from undecided import leave_undecided

    return leave_undecided(Auditor(timing=False))


@pytest.mark.slow
def test_promptfoo_assertion_says_unverified_with_no_score(undecided_auditor, monkeypatch):
    from logicscore.integrations import promptfoo_assert
    from undecided import WHY

    monkeypatch.setattr(promptfoo_assert, "_auditor", lambda: undecided_auditor)
    graded = get_assert(BROKEN, _context())
    # No score of 0 that would read as incomplete: null, the reason, and a pass by default.
    assert graded["pass"] is True and graded["score"] is None
    assert graded["reason"] == f"completeness unverified (passes: not checked): {WHY}"
    assert set(graded["namedScores"]) == {"logicscore_partial_completeness", "logicscore_determinateness"}
    failing = get_assert(BROKEN, _context(unverified="fail"))
    assert failing["pass"] is False and failing["score"] is None and "unverified (fails" in failing["reason"]
    # A score that is still decided is held to its threshold as before.
    partial = get_assert(BROKEN, _context(metric="partial_completeness", threshold=0.25))
    assert partial["score"] == partial["namedScores"]["logicscore_partial_completeness"]
    assert partial["pass"] is (partial["score"] >= 0.25)
    # A complete chain is decided: the plugin leaves it alone.
    assert get_assert(GOOD, _context())["score"] == 1.0
    with pytest.raises(ValueError, match=r"config\.unverified must be 'pass' or 'fail'"):
        get_assert(BROKEN, _context(unverified="maybe"))


@pytest.mark.slow
def test_verdict_of_an_unverified_record(undecided_auditor):
    row = {"input": QUESTION, "actual_output": BROKEN, "expected_output": "Dunmore"}
    found = verdict(row, "deepeval", undecided_auditor)
    assert found.unverified and found.score is None and found.passed and found.error is None
    assert found.result.scores.completeness is None
    strict = verdict(row, "deepeval", undecided_auditor, unverified_passes=False)
    assert strict.unverified and not strict.passed
    concise = verdict(row, "deepeval", undecided_auditor, "conciseness", 0.1)
    assert concise.unverified and concise.score is None
