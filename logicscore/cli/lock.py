"""One writer per output file: an exclusive lock on a lock file beside it.

`score` and `assess` append to their output as they go; two runs appending to one file
(two `--resume` at once) would interleave their records and double them. The lock is a
`flock` on `OUTPUT.lock`, which the kernel releases when the process ends however it ends,
so a lock left by a killed run is never in the way: the file may stay, but nobody holds it,
and the next run takes it over (the pid written in it is only for the message). A lock file
on a file system without `flock` support is refused with its reason rather than ignored.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: no flock; the output goes unlocked there
    fcntl = None  # type: ignore[assignment]


class OutputLocked(Exception):
    """Another live process holds the output's lock."""

    def __init__(self, lock: Path, pid: int | None):
        super().__init__(f"{lock} is held by process {pid if pid else '(unknown)'}")
        self.lock, self.pid = lock, pid


def lock_path(output: Path) -> Path:
    """`OUTPUT.lock`, beside the file the output resolves to (links lead to one lock)."""
    real = Path(os.path.realpath(output))
    return real.with_name(real.name + ".lock")


class OutputLock:
    """An exclusive, non-blocking lock on `lock_path(output)`; `release()` removes the file."""

    def __init__(self, output: Path):
        self.path = lock_path(output)
        self.fd: int | None = None

    def acquire(self) -> None:
        """Take the lock or raise `OutputLocked` (or the OSError of creating the lock file)."""
        if fcntl is None:
            return
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                pid = _read_pid(fd)
                os.close(fd)
                if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise OutputLocked(self.path, pid) from None
                raise
            # The holder before us may have removed the file between our open and our flock:
            # then we hold a lock nobody else can see, and must lock the file now there.
            try:
                current = os.stat(self.path)
            except FileNotFoundError:
                os.close(fd)
                continue
            mine = os.fstat(fd)
            if (mine.st_dev, mine.st_ino) != (current.st_dev, current.st_ino):
                os.close(fd)
                continue
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
            self.fd = fd
            return

    def release(self) -> None:
        if self.fd is None:
            return
        try:
            self.path.unlink(missing_ok=True)  # removed while held, so no one locks a stale file
        finally:
            os.close(self.fd)
            self.fd = None

    def __enter__(self) -> OutputLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        return int(text) if text.isdigit() else None
    except (OSError, ValueError):
        return None
