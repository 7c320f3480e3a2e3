"""Tests against optional third-party packages (the `deepeval` extra), run by `.ci/run` in an
environment of their own: DeepEval brings pytest plugins the main suite must not run under.

No network: DeepEval's telemetry and update check are switched off, and any connection
to a host other than 127.0.0.1 fails the test that makes it.
"""

from __future__ import annotations

import os
import socket
import sys
import tempfile
from pathlib import Path

import pytest

# Before deepeval is imported: its settings read these once.
# Its run files go to a temporary folder, not the working tree.
os.environ.update({"DEEPEVAL_TELEMETRY_OPT_OUT": "1", "DEEPEVAL_UPDATE_WARNING_OPT_IN": "0",
                   "DEEPEVAL_DISABLE_DOTENV": "1", "ERROR_REPORTING": "0", "CONFIDENT_TRACE_FLUSH": "0",
                   "DEEPEVAL_CACHE_FOLDER": tempfile.mkdtemp(prefix="deepeval-")})
# The scripted OpenAI-compatible server of the main suite.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))


@pytest.fixture(autouse=True)
def loopback_only(monkeypatch):
    connect = socket.socket.connect

    def guarded(self, address):
        host = address[0] if isinstance(address, tuple) else address
        if host not in ("127.0.0.1", "localhost", "::1") and not str(host).startswith("/"):
            raise AssertionError(f"network call to {address!r} in a test")
        return connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded)


@pytest.fixture(scope="session")
def auditor():
    from logicscore import Auditor

    return Auditor(timing=False)
