"""A test that needs an optional install skips without it, naming the install, unless
LOGICSCORE_REQUIRE_EXTRAS=1 (set by .ci/run) makes that skip a failure."""

import importlib.util

import conftest
import pytest


def test_optional_missing_extra_skips_with_the_install_line(monkeypatch):
    monkeypatch.delenv(conftest.REQUIRE_EXTRAS, raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"needs Ray: pip install -e '\.\[ray\]'"):
        conftest.missing_extra("needs Ray: pip install -e '.[ray]'")


def test_optional_missing_extra_fails_when_required(monkeypatch):
    monkeypatch.setenv(conftest.REQUIRE_EXTRAS, "1")
    with pytest.raises(pytest.fail.Exception, match="LOGICSCORE_REQUIRE_EXTRAS=1 makes this a failure"):
        conftest.missing_extra("needs chromium: apt-get install -y chromium")


def test_optional_names_what_is_missing(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name in {"ray", "playwright"} else real(name, *a))
    assert conftest._missing("ray") == "needs Ray: pip install -e '.[ray]'"
    assert conftest._missing("browser") == "needs the browser driver: pip install -e '.[browser]'"
    # The driver is there, the browser binary is not.
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: object() if name == "playwright" else real(name, *a))
    monkeypatch.setattr(conftest, "chromium", lambda: None)
    assert conftest._missing("browser") == "needs chromium: apt-get install -y chromium"
