"""Reading a run for report, gate and diff, with errors that name the file and the fix."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from ..errors import InputError
from ..io import read_results
from ..models import AuditResult


def read_run(path: Path) -> Iterator[AuditResult]:
    """Stream the output records of `path`; InputError (with the path) if it is not a run."""
    if not path.is_file():
        raise InputError(f"{path}: no such file; make one with `logicscore score IN.jsonl -o {path}`")
    try:
        yield from read_results(path)
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text (byte {exc.start}); is it a logicscore output "
                         "JSONL file?") from None
    except OSError as exc:  # unreadable (permissions, an I/O error): the user's to fix
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
