"""A pytest plugin for auditing answers inside a test suite (docs/integrations.md).

Installed with logicscore (entry point `pytest11`), it gives every test suite:

- the `logicscore_audit` fixture: `logicscore_audit(question, answer, long_answer, **fields)`
  audits one answer and returns its `AuditResult`; one rules-path `Auditor` (spaCy loaded
  once) serves the whole session, built on first use, so a suite that never asks for it
  never loads spaCy;
- `assert_sound(result, ...)`: an assertion helper whose failure message says why, the
  gap and signals, and the long answer sentence by sentence with each one's role.

    def test_rag_answer(logicscore_audit):
        result = logicscore_audit("Who directed Glass Harbor?", "Tobias Renner", my_rag(...))
        assert_sound(result, min_conciseness=0.5)

The `--logicscore-extractor` option (or the `logicscore_extractor` ini value) picks the
extractor; the default is the offline rules path.

It lives outside the `logicscore` package because pytest imports every installed plugin at
start: importing `logicscore` loads the auditor (about a second), which only a test that
audits should pay. So logicscore is imported inside the fixtures and the helper.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from logicscore.models import AuditResult

__all__ = ["assert_sound", "logicscore_audit", "logicscore_auditor"]

EXTRACTOR_HELP = "extractor the logicscore_audit fixture audits with (default: rules)"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("logicscore")
    group.addoption("--logicscore-extractor", default=None, help=EXTRACTOR_HELP)
    parser.addini("logicscore_extractor", EXTRACTOR_HELP, default="rules")


def assert_sound(result: AuditResult, *, complete: bool = True, determinate: bool = False,
                 min_conciseness: float | None = None, allow_unverified: bool = False) -> None:
    """Fail (AssertionError) unless `result` was scored and holds to what is asked: a
    complete chain (`complete`), an entailed answer (`determinate`), a least conciseness.
    An unverified answer (the text left completeness undecided) fails the completeness and
    conciseness checks with its reason, unless `allow_unverified` lets it pass them."""
    from logicscore.report.failing import describe, unverified_reason

    problems = []
    undecided = None if result.status == "error" else unverified_reason(result)
    if result.status == "error" or result.scores is None:
        problems.append("the answer could not be audited")
    elif undecided is not None:
        if (complete or min_conciseness is not None) and not allow_unverified:
            problems.append(f"completeness is unverified ({undecided}), not shown complete")
        if determinate and not result.scores.determinateness:
            problems.append(f"the answer is {result.determinateness}, not entailed")
    else:
        if complete and not result.scores.completeness:
            problems.append("the chain from the question to the answer is not complete")
        if determinate and not result.scores.determinateness:
            problems.append(f"the answer is {result.determinateness}, not entailed")
        if min_conciseness is not None and result.scores.conciseness < min_conciseness:
            problems.append(f"conciseness {result.scores.conciseness:.2f} < {min_conciseness:g}")
    if problems:
        raise AssertionError(_message(result, problems, describe(result)))


def _message(result: AuditResult, problems: list[str], why: str) -> str:
    lines = [f"logicscore: record {result.id}: {'; '.join(problems)}", f"  {why}"]
    if result.question is not None:
        lines.append(f"  question: {result.question}")
        lines.append(f"  answer: {result.answer}")
    for s in result.sentences:
        text = s.text if s.text is not None else f"characters {s.span[0]}-{s.span[1]}"
        lines.append(f"  {s.index + 1:>2} {s.role:<15} {', '.join(s.propositions) or '-':<10} {text}")
    return "\n".join(lines)


@pytest.fixture(scope="session")
def logicscore_auditor(pytestconfig: pytest.Config) -> Any:
    """The session's `Auditor` (spaCy loads on its first audit)."""
    from logicscore import Auditor

    extractor = pytestconfig.getoption("--logicscore-extractor") or pytestconfig.getini("logicscore_extractor")
    return Auditor(extractor, timing=False)


@pytest.fixture
def logicscore_audit(logicscore_auditor: Any) -> Callable[..., AuditResult]:
    """`audit(question, answer, long_answer, **fields) -> AuditResult` (fields: id,
    gold_answer, documents, … as in an input record); a record that cannot be read is an
    error result, which `assert_sound` fails."""
    from logicscore.errors import LogicscoreError

    def audit(question: str, answer: str, long_answer: str, **fields: Any) -> AuditResult:
        try:
            return logicscore_auditor.audit(question, answer, long_answer, **fields)
        except LogicscoreError as exc:
            return logicscore_auditor.error_result(str(fields.get("id", "0")), exc, 0.0)
    return audit
