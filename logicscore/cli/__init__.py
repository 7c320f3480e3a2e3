"""The command line: parse options, call the library, render, exit.

Exit codes: 0 ok; 1 failed (a gate threshold not met, `--strict` with errored records, a
missing model or endpoint); 2 the user's to fix (a bad option, config table or value, a file
that cannot be read or written, an output that is an input, a locked or damaged output, a
`--resume` whose options differ); 130 interrupted (Ctrl-C). See docs/reliability.md.

stdout carries data (JSONL, JSON); progress, tables and messages go to stderr. Every
failure is one line on stderr, never a traceback; nothing is opened for writing before
every check that can refuse the run has passed.
"""

from __future__ import annotations

import gc
import os
import sys
from typing import Annotated

import typer

from .. import __version__
from .common import say

app = typer.Typer(
    name="logicscore",
    help="Audit the logic of multi-hop long-form answers: completeness, conciseness, "
         "determinateness, and a diagnosis (broken / circular / deviated, the gap, redundancy).\n\n"
         "Start with: logicscore score corpora/examples.jsonl -o scored.jsonl",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
corpus_app = typer.Typer(help="Fictional multi-hop QA corpora with gold labels.", no_args_is_help=True)
app.add_typer(corpus_app, name="corpus")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"logicscore {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    pass


def single_threaded_blas() -> None:
    """One BLAS thread, unless the user chose otherwise, set before numpy loads OpenBLAS.

    The parse multiplies small matrices: OpenBLAS's thread pool costs the entity recognizer
    a fifth of its time (its locking, not parallel work) and gives nothing back, and the
    cores are better spent by `--workers`. The variable must be set before the library
    loads, which only the entry point can do; library users set it themselves (docs/usage.md, Python API).
    """
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def main() -> None:
    """The `logicscore` entry point: a bug is reported in one line, not a traceback
    (set LOGICSCORE_TRACEBACK=1 to see it)."""
    single_threaded_blas()
    tolerant_streams()
    try:
        app()
    except Exception as exc:  # the last resort: typer handled everything it knows
        if os.environ.get("LOGICSCORE_TRACEBACK"):
            raise
        say(f"Error: internal error ({type(exc).__name__}: {exc}); please report it "
            "(LOGICSCORE_TRACEBACK=1 shows the traceback)", "red")
        sys.exit(1)
    finally:
        skip_last_collection()


def tolerant_streams() -> None:
    """A terminal that cannot show every character (PYTHONIOENCODING=ascii, a C locale)
    gets the ones it cannot show as escapes, never a crash half way through a message;
    JSONL on stdout is written as UTF-8 bytes whatever the encoding (`score -o -`)."""
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "").replace("_", "")
        if encoding not in ("utf8", "utf8sig") and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")


def skip_last_collection() -> None:
    """Leave every object out of the interpreter's collection at exit.

    The command is done and its files are closed; that last collection would walk every
    object the run made (about 0.2 s of CPU after 336 answers, the time of 20 answers) only
    to free memory the process's exit frees anyway. Exit handlers, stream flushing and
    module teardown still run.
    """
    gc.freeze()


# The command modules register themselves on `app`, in the order `--help` lists them.
from . import score, explain, data, reports, assess, calibrate  # noqa: E402, F401
