"""The files a run reads: a folder or glob expanded to its input files, lines counted for the
progress bar, and one file told from another by what it is (its inode), not by its name."""

from __future__ import annotations

import glob as _glob
import os
import stat
from collections.abc import Sequence
from pathlib import Path

from .errors import ConfigError


def input_files(paths: str | Path | Sequence[str | Path]) -> list[Path]:
    """The input files `paths` name, in order: a file as given, a folder's `*.jsonl` files and
    a glob's matches each sorted by name. Every engine reads a folder or a glob the same way;
    `score --engine ray` and `ray.audit_files` take one.

    Raises:
        ConfigError: a path that names no file, or a folder or glob with no match.
    """
    names = [paths] if isinstance(paths, (str, Path)) else list(paths)
    found: list[Path] = []
    for name in names:
        path = Path(name)
        if path.is_dir():
            matches = sorted(p for p in path.glob("*.jsonl") if p.is_file())
        elif _glob.has_magic(str(name)):
            matches = sorted(Path(p) for p in _glob.glob(str(name)) if Path(p).is_file())
        elif path.exists():
            matches = [path]
        else:
            raise ConfigError(f"input {name} not found")
        if not matches:
            raise ConfigError(f"input {name} holds no .jsonl file" if path.is_dir()
                              else f"input {name} matches no file")
        found += matches
    return found


def count_lines(path: Path) -> int:
    """Physical lines in a file (a final line without a newline counts)."""
    count, last = 0, b"\n"
    with path.open("rb") as fh:
        while chunk := fh.read(1 << 20):
            count += chunk.count(b"\n")
            last = chunk[-1:]
    return count + (last != b"\n")


def same_file(a: Path | int, b: Path | int) -> bool:
    """Whether two paths (or open file descriptors) are one regular file, after symlinks and
    hard links. A terminal or a pipe on both sides is not: reading and writing it is fine."""
    try:
        sa = os.fstat(a) if isinstance(a, int) else os.stat(a)
        sb = os.fstat(b) if isinstance(b, int) else os.stat(b)
    except (OSError, ValueError):
        return False
    return (stat.S_ISREG(sa.st_mode) and stat.S_ISREG(sb.st_mode)
            and (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino))
