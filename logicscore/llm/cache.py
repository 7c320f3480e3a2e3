"""The answer cache: one sqlite file, validated replies stored as JSON text.

sqlite3 rather than a pickling cache library, because a cache file can be shared (CI replays
a recorded run) and loading it must never run code. Only the model id, the prompt hash and
the record's user message make the key: no URL, no key, no header. A second table keeps
what was learnt about an endpoint (the structured-output mode it takes), under a hash of its
URL and model.

A file that is not such a cache (corrupt, cut short, another schema) is moved aside as
`answers.sqlite3.broken-<time>` with one warning, and a new cache is started.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    import sqlite3

log = logging.getLogger("logicscore.llm")
T = TypeVar("T")
_TABLES = {"answers": ["key", "value"], "meta": ["key", "value"]}


def default_dir() -> Path:
    """`$XDG_CACHE_HOME/logicscore/llm`, else `~/.cache/logicscore/llm`."""
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "logicscore" / "llm"


def key(model: str, prompt_sha: str, user: str) -> str:
    """The cache key of one call: sha256 over (model, prompt hash, input)."""
    return hashlib.sha256(json.dumps([model, prompt_sha, user]).encode("utf-8")).hexdigest()


def endpoint_key(base_url: str | None, model: str) -> str:
    """The meta key of one endpoint and model (hashed: a URL may carry a user or a token)."""
    return hashlib.sha256(json.dumps([base_url or "", model]).encode("utf-8")).hexdigest()[:32]


class AnswerCache:
    """Validated replies by key; opened on first use, so a run that never calls makes no file."""

    FILE = "answers.sqlite3"

    def __init__(self, directory: Path):
        self.path = Path(directory) / self.FILE
        self._db: sqlite3.Connection | None = None

    def check(self) -> None:
        """`ConfigError` when the cache's folder cannot hold it (a file, a dangling link, a
        read-only place), so the run is refused in one line before any record is read.
        Nothing is left behind: the folder is made, as a run would make it, and a probe file
        is made in it and removed."""
        import tempfile

        from ..errors import ConfigError

        folder = self.path.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryFile(dir=folder):
                pass
        except OSError as exc:
            why = "a file or a broken link is in the way" if isinstance(exc, FileExistsError) else (
                exc.strerror or str(exc))
            raise ConfigError(f"the LLM answer cache folder {folder} cannot be used ({why}); pass "
                              "--cache-dir with a writable folder, or --no-cache") from None

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            import sqlite3  # on first use: most runs never open the cache

            self.path.parent.mkdir(parents=True, exist_ok=True)
            try:
                self._db = _open(self.path)
            except sqlite3.DatabaseError as exc:
                self._set_aside(exc)
                self._db = _open(self.path)
        return self._db

    def _guarded(self, op: Callable[[sqlite3.Connection], T]) -> T:
        import sqlite3

        try:
            return op(self._conn())
        except sqlite3.DatabaseError as exc:  # damage that only a read of a page finds
            self._set_aside(exc)
            return op(self._conn())

    def _set_aside(self, exc: Exception) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
        stamp, n = time.strftime("%Y%m%dT%H%M%S"), 0
        aside = self.path.with_name(f"{self.FILE}.broken-{stamp}")
        while aside.exists():
            n += 1
            aside = self.path.with_name(f"{self.FILE}.broken-{stamp}-{n}")
        for suffix in ("", "-wal", "-shm"):
            source = Path(f"{self.path}{suffix}")
            if source.exists():
                os.replace(source, f"{aside}{suffix}")
        log.warning("the LLM answer cache %s is not a readable cache (%s); moved it to %s and "
                    "started a new one", self.path, exc, aside.name)

    def get(self, k: str) -> dict | None:
        return self._value("answers", k)

    def put(self, k: str, value: dict) -> None:
        self._store("answers", k, value)

    def get_meta(self, k: str) -> dict | None:
        return self._value("meta", k)

    def put_meta(self, k: str, value: dict) -> None:
        self._store("meta", k, value)

    def _value(self, table: str, k: str) -> dict | None:
        if self._db is None and not self.path.is_file():
            return None
        row = self._guarded(lambda db: db.execute(f"SELECT value FROM {table} WHERE key = ?", (k,)).fetchone())
        if row is None:
            return None
        try:
            value = json.loads(row[0])
        except (TypeError, ValueError):
            return None  # a damaged entry is a miss, written again after the call
        return value if isinstance(value, dict) else None

    def _store(self, table: str, k: str, value: dict) -> None:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True)
        self._guarded(lambda db: db.execute(f"INSERT OR REPLACE INTO {table} VALUES (?, ?)", (k, text)))

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


def _open(path: Path) -> sqlite3.Connection:
    """The cache at `path`, made if missing; `sqlite3.DatabaseError` when it is not one."""
    import sqlite3

    # One process writes from the event loop's thread; the sync path may run it in a
    # worker thread, so the connection is not tied to the thread that opened it.
    db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    try:
        check = db.execute("PRAGMA quick_check").fetchone()
        if check is None or check[0] != "ok":
            raise sqlite3.DatabaseError(f"integrity check: {check[0] if check else 'no answer'}")
        # A write per reply keeps every answer already paid for; WAL without a sync per
        # commit keeps that write well under a millisecond (a crash may lose the last few).
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        for table, columns in _TABLES.items():
            db.execute(f"CREATE TABLE IF NOT EXISTS {table} (key TEXT PRIMARY KEY, value TEXT)")
            found = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
            if found != columns:
                raise sqlite3.DatabaseError(f"table {table} has columns {found}, not {columns}")
    except sqlite3.DatabaseError:
        db.close()
        raise
    return db
