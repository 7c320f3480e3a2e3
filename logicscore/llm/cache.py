"""The answer cache: one sqlite file, validated replies stored as JSON text.

sqlite3 rather than a pickling cache library, because a cache file can be shared (CI replays
a recorded run) and loading it must never run code. Only the model id, the prompt hash and
the record's user message make the key: no URL, no key, no header.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sqlite3


def default_dir() -> Path:
    """`$XDG_CACHE_HOME/logicscore/llm`, else `~/.cache/logicscore/llm`."""
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "logicscore" / "llm"


def key(model: str, prompt_sha: str, user: str) -> str:
    """The cache key of one call: sha256 over (model, prompt hash, input)."""
    return hashlib.sha256(json.dumps([model, prompt_sha, user]).encode("utf-8")).hexdigest()


class AnswerCache:
    """Validated replies by key; opened on first use, so a run that never calls makes no file."""

    FILE = "answers.sqlite3"

    def __init__(self, directory: Path):
        self.path = Path(directory) / self.FILE
        self._db: sqlite3.Connection | None = None

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            import sqlite3  # on first use: most runs never open the cache

            self.path.parent.mkdir(parents=True, exist_ok=True)
            # One process writes from the event loop's thread; the sync path may run it in a
            # worker thread, so the connection is not tied to the thread that opened it.
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            # A write per reply keeps every answer already paid for; WAL without a sync per
            # commit keeps that write well under a millisecond (a crash may lose the last few).
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, value TEXT)")
        return self._db

    def get(self, k: str) -> dict | None:
        if self._db is None and not self.path.is_file():
            return None
        row = self._conn().execute("SELECT value FROM answers WHERE key = ?", (k,)).fetchone()
        return None if row is None else json.loads(row[0])

    def put(self, k: str, value: dict) -> None:
        self._conn().execute("INSERT OR REPLACE INTO answers VALUES (?, ?)",
                             (k, json.dumps(value, ensure_ascii=False, sort_keys=True)))

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
