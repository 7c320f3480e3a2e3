"""The pytest plugin (`pytest_logicscore`): its entry point, the `logicscore_audit` fixture
and `assert_sound`, run in a test suite of its own by pytester."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest

import pytest_logicscore

pytest_plugins = ["pytester"]
ROOT = Path(__file__).parents[1]

SUITE = '''
from pytest_logicscore import assert_sound

Q = "Who directed the film that Marta Ellison starred in?"

def test_complete(logicscore_audit):
    result = logicscore_audit(Q, "Tobias Renner",
        "Marta Ellison starred in the film Glass Harbor. Glass Harbor was directed by Tobias Renner.",
        id="good")
    assert_sound(result, min_conciseness=0.5)
    assert result.question == Q and [s.role for s in result.sentences] == ["chain", "chain"]

def test_broken(logicscore_audit):
    result = logicscore_audit(Q, "Tobias Renner",
        "Marta Ellison starred in the film Glass Harbor. The weather was nice. Tobias Renner was born in Osk.",
        id="bad")
    assert_sound(result)

def test_unreadable(logicscore_audit):
    assert_sound(logicscore_audit(Q, "Tobias Renner", "x", documents=5, id="odd"))
'''


def _args() -> list[str]:
    # Named here in case logicscore is installed from another tree (whose entry points do not
    # have it yet); where its entry point loads it too, the one name makes the two one plugin.
    return ["-p", "pytest_logicscore"]


def test_the_plugin_is_declared_as_a_pytest11_entry_point():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    # Named as its module, so `-p pytest_logicscore` and the entry point are one plugin.
    assert data["project"]["entry-points"]["pytest11"] == {"pytest_logicscore": "pytest_logicscore"}
    assert "pytest_logicscore" in data["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"]


def test_importing_the_plugin_does_not_import_logicscore():
    code = "import sys, pytest_logicscore; print('logicscore' in sys.modules)"
    import subprocess

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.slow
def test_fixture_and_assertion_helper_in_a_suite(pytester):
    pytester.makepyfile(test_answers=SUITE)
    result = pytester.runpytest(*_args(), "-q")
    result.assert_outcomes(passed=1, failed=2)
    out = result.stdout.str()
    assert "logicscore: record bad: the chain from the question to the answer is not complete" in out
    assert "no_proposition" in out and "The weather was nice." in out
    assert "logicscore: record odd: the answer could not be audited" in out and "InputError" in out


@pytest.mark.slow
def test_the_extractor_option_is_read(pytester):
    pytester.makepyfile(test_x="def test_x(logicscore_auditor):\n"
                               "    assert logicscore_auditor.config.extractor == 'given'\n")
    pytester.runpytest(*_args(), "--logicscore-extractor", "given").assert_outcomes(passed=1)
    pytester.makeini("[pytest]\nlogicscore_extractor = given\n")
    pytester.runpytest(*_args()).assert_outcomes(passed=1)


def test_assert_sound_passes_a_complete_record_and_fails_an_incomplete_one():
    from logicscore.report.synthetic import make_result

    pytest_logicscore.assert_sound(make_result("a", "complete"))
    with pytest.raises(AssertionError, match=r"record b: the chain .* not complete\n  broken; missing"):
        pytest_logicscore.assert_sound(make_result("b", "broken"))
    with pytest.raises(AssertionError, match=r"conciseness 0\.50 < 0\.9"):
        pytest_logicscore.assert_sound(make_result("c", "complete"), min_conciseness=0.9)


def test_assert_sound_fails_an_unverified_record_with_its_reason_unless_allowed():
    from logicscore.report.synthetic import UNVERIFIED_WHY, make_result

    unverified = make_result("u", "unverified")
    with pytest.raises(AssertionError) as caught:
        pytest_logicscore.assert_sound(unverified)
    message = str(caught.value)
    assert message.startswith(f"logicscore: record u: completeness is unverified ({UNVERIFIED_WHY})")
    assert "not complete" not in message and f"\n  unverified; {UNVERIFIED_WHY}" in message
    pytest_logicscore.assert_sound(unverified, allow_unverified=True)
    with pytest.raises(AssertionError, match="not entailed"):
        pytest_logicscore.assert_sound(unverified, allow_unverified=True, determinate=True)
