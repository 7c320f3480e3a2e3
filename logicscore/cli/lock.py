"""One writer per output file: an exclusive lock on the output file itself.

`score` and `assess` append to their output as they go; two runs appending to one file
(two `--resume` at once, or through two hard-linked names) would interleave their records
and double them. The lock is a `flock` on the output's own open file, so it belongs to the
file (its inode), not to a name: every path that reaches the file, by symlink or hard link,
meets the same lock, and no second file is created, truncated or removed beside the output
(a `poetry.lock` or an input called `OUT.lock` is never touched). The kernel releases the
lock when the process ends however it ends, so a killed run is never in the way. The holder's
pid, for the message, is read from the kernel's lock table (/proc/locks) where there is one.

Whole-file writers (`report --html`, `gate --junit`, …) take the same lock, shared, on an
existing target before renaming over it (`paths.replacing`), so a report never replaces an
output a run is still writing.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from ..files import same_file

try:
    import fcntl
except ImportError:  # Windows: no flock; the output goes unlocked there
    fcntl = None  # type: ignore[assignment]

_BUSY = (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES)


class OutputLocked(Exception):
    """Another live process holds the output's lock."""

    def __init__(self, path: Path, pid: int | None):
        super().__init__(f"{path} is locked by process {pid if pid else '(unknown)'}")
        self.path, self.pid = path, pid


def holder(fd: int) -> int | None:
    """The pid holding a flock on the file open as `fd`, from /proc/locks (None elsewhere)."""
    try:
        info = os.fstat(fd)
        with open("/proc/locks", encoding="ascii", errors="replace") as table:
            rows = table.read(1 << 20).splitlines()
    except OSError:
        return None
    where = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    for row in rows:
        words = row.replace("->", "").split()
        if len(words) >= 6 and words[1] == "FLOCK" and words[5] == where and words[4].isdigit():
            return int(words[4])
    return None


class OutputLock:
    """An exclusive, non-blocking flock on the output file; `release()` lets it go.

    The output is created if missing (never truncated here); a file this lock created and
    nothing was written to is removed again on release, so a run refused before its first
    record leaves no empty output behind.
    """

    def __init__(self, output: Path):
        self.path = output
        self.fd: int | None = None
        self.created = False

    def acquire(self) -> None:
        """Take the lock or raise `OutputLocked` (or the OSError of opening the output)."""
        if fcntl is None:
            return
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            self.created = True
        except FileExistsError:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o666)
        failed = _flock(fd, fcntl.LOCK_EX, self.path)
        if failed is not None:
            raise failed
        self.fd = fd

    def release(self) -> None:
        if self.fd is None:
            return
        try:
            if self.created:
                _remove_if_empty(self.path, self.fd)
        finally:
            os.close(self.fd)
            self.fd = None

    def __enter__(self) -> OutputLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _flock(fd: int, how: int, path: Path) -> OSError | None:
    """Lock `fd` without waiting: None when held; `OutputLocked` (the holder's pid named) when
    a run holds it, the descriptor closed; any other refusal returned, the descriptor closed."""
    try:
        fcntl.flock(fd, how | fcntl.LOCK_NB)
    except OSError as exc:
        pid = holder(fd)
        os.close(fd)
        if exc.errno in _BUSY:
            raise OutputLocked(path, pid) from None
        return exc
    return None


def _remove_if_empty(path: Path, fd: int) -> None:
    """Remove the file this lock created when it is still that file and still empty."""
    if same_file(path, fd) and os.fstat(fd).st_size == 0:
        path.unlink(missing_ok=True)


def check_unlocked(path: Path):
    """A descriptor of `path` holding a shared lock, so no run may start writing it while a
    whole-file writer replaces it; `OutputLocked` when a run is writing it now. None when
    there is nothing to lock (no such file, no flock, or it cannot be opened to read)."""
    if fcntl is None:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return None
    return None if _flock(fd, fcntl.LOCK_SH, path) is not None else fd
