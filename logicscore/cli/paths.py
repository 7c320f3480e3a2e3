"""Checks on the files a command reads and writes, before anything is opened for writing, and
the one way a whole output file is written: beside its target, then renamed into place
(docs/reliability.md)."""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

import typer

from .common import fail, reason


def check_input(path: Path, what: str, hint: str = "") -> None:
    """`path` is a file this process can read (or a pipe), else exit with why."""
    try:
        mode = path.stat().st_mode
    except (FileNotFoundError, NotADirectoryError):
        fail(f"{what} {path} not found{hint}", 2)
    except OSError as exc:
        fail(f"cannot read {what} {path}: {reason(exc)}", 2)
    if stat.S_ISDIR(mode):
        fail(f"{what} {path} is a folder, not a file{hint}", 2)
    if not stat.S_ISREG(mode):
        return  # a pipe (`<(zcat runs.jsonl.gz)`): opening it twice could block or lose data
    try:
        with path.open("rb"):
            pass
    except OSError as exc:
        fail(f"cannot read {what} {path}: {reason(exc)}", 2)


def engine_inputs(engine: str, input: Path) -> list[Path] | None:
    """The files `--engine ray` reads (`input` a file, folder or glob), each checked; None
    for the local engine, which reads `input` itself. Exit 2 on an unknown engine, a missing
    Ray or stdin."""
    if engine == "local":
        return None
    if engine != "ray":
        fail(f"--engine must be 'local' or 'ray', not {engine!r}", 2)
    from ..errors import ConfigError
    from ..files import input_files
    from ..run.engines import ray

    try:
        ray.require()
        if str(input) == "-":
            raise ConfigError("--engine ray reads files: give a file, a folder or a glob, not stdin")
        files = input_files(str(input))
    except ConfigError as exc:
        fail(exc.message, 2)
    for path in files:
        check_input(path, "input file")
    return files


def fd(stream) -> int | None:
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):  # replaced streams (tests, notebooks)
        return None


# What a command reads, each named as its messages name it: ("input file", path), ("baseline",
# path); a descriptor is standard input. A bare path or descriptor is an input file.
Source = Path | int | None | tuple[str, Path | int | None]


def _sources(inputs: Sequence[Source]) -> list[tuple[str, Path | int]]:
    named = [s if isinstance(s, tuple) else ("input file", s) for s in inputs]
    return [(what, source) for what, source in named if source is not None]


def check_output(path: Path, inputs: Sequence[Source], what: str = "output") -> None:
    """Refuse an output that is one of `inputs` (same file by path, symlink, hard link or
    descriptor) or a folder; nothing is opened. `path` '-' is stdout."""
    from ..files import same_file

    stdout = str(path) == "-"
    target: Path | int | None = fd(sys.stdout) if stdout else path
    name = f"{what} stdout" if stdout else f"{what} {path}"
    for label, source in _sources(inputs):
        if target is not None and same_file(source, target):
            shown = f"{label} (standard input)" if isinstance(source, int) else f"{label} {source}"
            fail(f"{name} is the {shown} itself (same file after links); writing it "
                 f"would destroy the {label}, so write to another file", 2)
    if not stdout and path.is_dir():
        fail(f"{what} {path} is a folder; give a file path, e.g. {path / 'out'}", 2)


def check_stdout(inputs: Sequence[Source]) -> None:
    """Refuse to run when stdout is one of `inputs` (`report r.jsonl --md - >> r.jsonl`,
    `diff a b > a`): what the command prints would land in the file it reads."""
    check_output(Path("-"), inputs)


def make_folder(path: Path) -> None:
    """Create the output's folder if needed; say why when it cannot be written to (exit 2)."""
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        fail(f"cannot create folder {folder} for {path}: a file of that name is in the way", 2)
    except OSError as exc:
        fail(f"cannot create folder {folder} for {path}: {reason(exc)}", 2)
    # An existing output (a file, /dev/null) needs only itself writable; a new one, its folder.
    if not (os.access(path, os.W_OK) if path.exists() else os.access(folder, os.W_OK | os.X_OK)):
        try:
            readonly = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
        except OSError:
            readonly = False
        fail(f"cannot write {path}: {'read-only file system' if readonly else 'permission denied'}", 2)


def open_output(path: Path, append: bool):
    """`path` opened for appending bytes, unbuffered, so a failed write leaves nothing
    pending that a later close could write half of (io.ResultWriter cuts what it began)."""
    try:
        return path.open("ab" if append else "wb", buffering=0)
    except OSError as exc:
        fail(f"cannot write {path}: {reason(exc)}", 2)


@contextmanager
def replacing(path: Path, what: str = "output") -> Iterator[Path]:
    """A temporary file beside `path` to write, renamed onto `path` when the block ends
    without error, so `path` is either as it was or complete (never half written).

    Missing folders are created; any OSError is one line naming `path` and why (exit 2).
    A `path` that is not a regular file (/dev/null, a pipe) is written in place. A symlink
    is followed: the file it points to is replaced, the link stays.
    """
    make_folder(path)
    real = Path(os.path.realpath(path))
    if real.exists() and not real.is_file():
        try:
            yield real
        except OSError as exc:
            fail(f"cannot write {what} {path}: {reason(exc)}", 2)
        return
    from .lock import OutputLocked, check_unlocked

    try:
        # Held until the rename: a run writing `path` refuses it, and no run starts meanwhile.
        guard = check_unlocked(real)
    except OutputLocked as exc:
        locked(path, exc.pid)
    try:
        handle, name = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name}.", suffix=".tmp")
        os.close(handle)
    except OSError as exc:
        _let_go(guard)
        fail(f"cannot write {what} {path}: {reason(exc)}", 2)
    temp = Path(name)
    try:
        yield temp
        os.chmod(temp, _mode_for(real))
        os.replace(temp, real)
    except OSError as exc:
        fail(f"cannot write {what} {path}: {reason(exc)}", 2)
    finally:
        temp.unlink(missing_ok=True)
        _let_go(guard)


def locked(path: Path, pid: int | None) -> NoReturn:
    """The one refusal of a file another run is writing (exit 2)."""
    fail(f"{path} is being written by another logicscore run (process {pid or 'unknown'}); "
         "wait for it to end, or write to another file", 2)


def _let_go(fd: int | None) -> None:
    if fd is not None:
        os.close(fd)


def _mode_for(real: Path) -> int:
    """An existing file keeps its permissions; a new one gets what `open` would give it."""
    try:
        return stat.S_IMODE(real.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_output(path: Path, text: str, inputs: Sequence[Source], what: str = "output") -> None:
    """Write `text` to `path` ('-': stdout) once it is known not to be any of `inputs`;
    a file is replaced whole (see `replacing`)."""
    check_output(path, inputs, what)
    if str(path) == "-":
        typer.echo(text, nl=False)
        return
    with replacing(path, what) as temp:
        temp.write_text(text, encoding="utf-8")
