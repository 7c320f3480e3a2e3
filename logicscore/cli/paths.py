"""Checks on the files a command reads and writes, before anything is opened for writing."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

from .common import fail, reason


def check_input(path: Path, what: str, hint: str = "") -> None:
    """`path` is a file this process can read (or a pipe), else exit with why."""
    try:
        mode = path.stat().st_mode
    except (FileNotFoundError, NotADirectoryError):
        fail(f"{what} {path} not found{hint}", 2)
    except OSError as exc:
        fail(f"cannot read {what} {path}: {reason(exc)}", 1)
    if stat.S_ISDIR(mode):
        fail(f"{what} {path} is a folder, not a file{hint}", 2)
    if not stat.S_ISREG(mode):
        return  # a pipe (`<(zcat runs.jsonl.gz)`): opening it twice could block or lose data
    try:
        with path.open("rb"):
            pass
    except OSError as exc:
        fail(f"cannot read {what} {path}: {reason(exc)}", 1)


def engine_inputs(engine: str, input: Path) -> list[Path] | None:
    """The files `--engine ray` reads (`input` a file, folder or glob), each checked; None
    for the local engine, which reads `input` itself. Exit 2 on an unknown engine, a missing
    Ray or stdin."""
    if engine == "local":
        return None
    if engine != "ray":
        fail(f"--engine must be 'local' or 'ray', not {engine!r}", 2)
    from ..engines import ray
    from ..errors import ConfigError

    try:
        ray.require()
        if str(input) == "-":
            raise ConfigError("--engine ray reads files: give a file, a folder or a glob, not stdin")
        files = ray.expand(str(input))
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


def check_output(path: Path, inputs: list[Path | int | None]) -> None:
    """Refuse an output that is an input (after links) or a folder; nothing is opened."""
    from .. import io

    target: Path | int | None = fd(sys.stdout) if str(path) == "-" else path
    for source in inputs:
        if source is not None and target is not None and io.same_file(source, target):
            name = "stdout" if str(path) == "-" else str(path)
            fail(f"output {name} is the input file itself (same file after links); writing it "
                 "would destroy the input, so write to another file", 2)
    if str(path) != "-" and path.is_dir():
        fail(f"output {path} is a folder; give a file path, e.g. {path / 'scored.jsonl'}", 2)


def make_folder(path: Path) -> None:
    """Create the output's folder if needed; say why when it cannot be written to."""
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        fail(f"cannot create folder {folder} for {path}: a file of that name is in the way", 1)
    except OSError as exc:
        fail(f"cannot create folder {folder} for {path}: {reason(exc)}", 1)
    # An existing output (a file, /dev/null) needs only itself writable; a new one, its folder.
    if not (os.access(path, os.W_OK) if path.exists() else os.access(folder, os.W_OK | os.X_OK)):
        try:
            readonly = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
        except OSError:
            readonly = False
        fail(f"cannot write {path}: {'read-only file system' if readonly else 'permission denied'}", 1)


def open_output(path: Path, mode: str):
    try:
        return path.open(mode, encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {path}: {reason(exc)}", 1)
