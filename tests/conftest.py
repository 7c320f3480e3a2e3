"""Shared fixtures, and the tests that need an optional install.

The main install (README's first command) is the auditor and its report. Tests marked `ray`
need the `[ray]` extra; tests marked `browser` need the `[browser]` extra (playwright) and a
chromium binary. Without them those tests skip, each with a one-line reason naming the
install. `.ci/run` installs everything and sets LOGICSCORE_REQUIRE_EXTRAS=1, under which such a
skip is a failure instead, so CI runs every test (docs/architecture.md, "Tests").
"""

from __future__ import annotations

import importlib.util
import os
import shutil

import pytest

REQUIRE_EXTRAS = "LOGICSCORE_REQUIRE_EXTRAS"


def chromium() -> str | None:
    """The chromium binary the browser tests drive (Debian's `chromium`), or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _missing(marker: str) -> str | None:
    """Why the tests under `marker` cannot run here, or None when they can."""
    if marker == "ray" and importlib.util.find_spec("ray") is None:
        return "needs Ray: pip install -e '.[ray]'"
    if marker == "browser":
        if importlib.util.find_spec("playwright") is None:
            return "needs the browser driver: pip install -e '.[browser]'"
        if chromium() is None:
            return "needs chromium: apt-get install -y chromium"
    return None


def missing_extra(reason: str) -> None:
    """Skip for a missing optional install, or fail when LOGICSCORE_REQUIRE_EXTRAS=1."""
    if os.environ.get(REQUIRE_EXTRAS) == "1":
        pytest.fail(f"{reason} ({REQUIRE_EXTRAS}=1 makes this a failure)", pytrace=False)
    pytest.skip(reason)


def pytest_runtest_setup(item: pytest.Item) -> None:
    for marker in ("ray", "browser"):
        if item.get_closest_marker(marker) is not None and (reason := _missing(marker)):
            missing_extra(reason)


@pytest.fixture(scope="session")
def auditor():
    """The rules path's chain analysis, built once (loading spaCy is the slow part). Its 0/1
    verdict is what the tests of the chain's rules read, so the offline verdict over it is off
    here (`hops="off"`); that verdict has tests of its own (tests/test_offline_verdict.py)."""
    from logicscore import Auditor

    return Auditor(timing=False, hops="off")
