"""`score`: a JSONL file in, one result line per input line out; interrupt and --resume."""

from __future__ import annotations

import errno
import json
import shlex
import stat
import sys
from contextlib import nullcontext
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import typer

from ..errors import ConfigError
from ..files import count_lines, same_file
from . import app
from .common import fail, make_auditor, reason, runner, say, stderr
from .options import EstimateOpt, InputOptions, LLMOptions, OutputOptions, RulesOptions, RunningOptions, grouped
from .paths import check_input, check_output, engine_inputs, fd, make_folder, open_output
from .resume import input_ids, lock_output, resume_state

if TYPE_CHECKING:
    from ..io import ResultWriter
    from ..report import Summary
    from .lock import OutputLock


def rerun_command(ctx: typer.Context, extra: tuple[str, ...] = ()) -> str:
    """The command line that ran, rebuilt from what was given on it, plus `extra`.

    Only options given on the command line are repeated, so the command means the same
    whatever the defaults are.
    """
    root = ctx.find_root().info_name or "logicscore"
    # `python -m logicscore` is rerun with this very interpreter; otherwise the installed script.
    launcher = [sys.executable, "-m", "logicscore"] if root.startswith("python") else ["logicscore"]
    words = [*launcher, ctx.info_name or ""]
    params = ctx.command.params
    skip = {e.lstrip("-").replace("-", "_") for e in extra}
    for param in (p for p in params if p.param_type_name == "argument"):
        assert param.name is not None  # typer names every parameter
        words.append(str(ctx.params[param.name]))
    for param in (p for p in params if p.param_type_name == "option"):
        assert param.name is not None
        source = ctx.get_parameter_source(param.name)
        if param.name in skip or getattr(source, "name", None) not in ("COMMANDLINE", "ENVIRONMENT"):
            continue
        value, name = ctx.params[param.name], max(param.opts, key=len)
        if getattr(param, "is_flag", False):
            if value:
                words.append(name)
            elif param.secondary_opts:
                words.append(max(param.secondary_opts, key=len))
        elif param.multiple:
            for item in value:
                words += [name, str(item)]
        else:
            words += [name, str(value)]
    return " ".join(shlex.quote(w) for w in [*words, *extra])


@app.command()
@grouped
def score(ctx: typer.Context, source: InputOptions, out: OutputOptions, rules: RulesOptions, llm: LLMOptions,
          running: RunningOptions, estimate: EstimateOpt = False) -> None:
    """Score every record of a JSONL file; one output line per input line, in order.

    Bad lines become error records (status "error", typed error with its line number);
    the run goes on. Exit 0, or 1 when every record errored (or, with --strict, any did).

    Ctrl-C stops after the line being written and prints the --resume command (exit 130).

    Examples:

        logicscore score runs.jsonl -o scored.jsonl

        logicscore score runs.jsonl -o scored.jsonl --resume     # after a crash or Ctrl-C

        logicscore score 'shards/*.jsonl' -o scored.jsonl --engine ray --workers 8

        cat runs.jsonl | logicscore score - -o - --map long_answer=output.text -q

        logicscore score ragas_rows.jsonl -o scored.jsonl --format ragas
    """
    from .. import io
    from ..report import render_summary

    input, output, resume = source.input, out.output, out.resume
    files = engine_inputs(running.engine, input)  # --engine ray: the files of a folder or glob
    mapping = _preflight(io, input, output, source.map, resume, source.format, files)
    if out.repair and not resume:
        fail("--repair goes with --resume (it mends the output a resumed run continues)", 2)
    run = _Run(ctx, output, str(output) == "-")
    lock = None
    try:
        auditor = make_auditor(rules.extractor, rules.fuzzy_threshold, rules.spacy_model, rules.max_alternatives,
                               out.timing, **running.limits(), judge=rules.determinateness,
                               grounder=rules.grounding, hops=rules.hops, escalate=rules.escalate,
                               llm=llm.endpoint())
        if not run.stdout and not estimate:
            lock = run.lock = lock_output(output)
        skip: set[int] = set()
        if resume:
            _adopt_structured(output, auditor.llm)
            skip = resume_state(io, output, auditor.signature, out.allow_signature_change,
                                (auditor.grounded_signature,),
                                None if estimate else input_ids(input, source.format, mapping, files),
                                out.repair)
        if estimate:
            _estimate(auditor, input, source.format, mapping, skip, files)
            return
        summary = _score_lines(io, run, runner(auditor, running.workers, running.engine), input,
                               (source.format, mapping), skip, resume, running.quiet, files, out.text)
        if lock is not None and lock.fd is not None and not same_file(output, lock.fd):
            # Another program renamed a file over the output, or removed it, while it was
            # written: what this run wrote is in no file of that name.
            fail(f"{output} was replaced or removed by another program while this run wrote it; "
                 f"the {run.written} records of this run are not in it: score again", 2)
    except KeyboardInterrupt:
        run.interrupted()
    except OSError as exc:  # reading is checked record by record (_Run.next): this is the output
        if exc.errno == errno.EPIPE:
            raise  # stdout closed (`| head`): typer exits quietly
        fail(f"{exc.filename or output}: {reason(exc)}", 2)
    finally:
        if lock is not None:
            lock.release()
    if summary.total and not summary.scored:  # a failed run: one line, as every failure
        fail(f"every record errored ({_errors(summary)}); {run.where()}: each record's error says "
             f"what to fix (logicscore report {shlex.quote(str(output))})", 1)
    if not running.quiet:
        stderr().print(render_summary(summary))
        if not run.stdout:
            say(f"{run.where()}; next: logicscore report {shlex.quote(str(output))}  or  "
                f"logicscore gate {shlex.quote(str(output))} --min-completeness 0.8")
    if running.strict and summary.errors:
        raise typer.Exit(1)


def _errors(summary: Summary) -> str:
    """'19 InputError, 2 Timeout': the error types of a run, most common first."""
    return ", ".join(f"{n} {kind}" for kind, n in summary.errors.most_common())


def _preflight(io, input: Path, output: Path, map_: list[str], resume: bool, format_: str,
               files: list[Path] | None) -> dict[str, str]:
    """The --map mapping, once the options and files that can refuse the run are checked."""
    from ..formats import check_format

    try:
        mapping = io.parse_map(map_)
        check_format(format_)
    except ValueError as exc:
        fail(str(exc), 2)
    stdin, stdout = str(input) == "-", str(output) == "-"
    if resume and stdout:
        fail("--resume needs a file for --output, not stdout", 2)
    if not stdin and files is None:
        check_input(input, "input file")
    check_output(output, [fd(sys.stdin) if stdin else input] if files is None else list(files))
    return mapping


def _estimate(auditor, input: Path, format_: str, mapping: dict[str, str], skip: set[int],
              files: list[Path] | None = None) -> None:
    """--estimate: the LLM calls and tokens of the run as JSON on stdout, nothing called.
    The files of a folder or glob (`--engine ray`) are numbered as one input, as the run does."""
    from ..formats import read_lines
    from ..llm.plan import estimate as plan

    def lines():
        first = 1
        for path in files or []:
            with path.open("rb") as source:
                yield from read_lines(source, format_, mapping, skip, first)
            first += count_lines(path)

    if files:
        typer.echo(json.dumps(plan(auditor, lines()), sort_keys=True))
        return
    stdin = str(input) == "-"
    with (nullcontext(sys.stdin.buffer) if stdin else input.open("rb")) as source:
        typer.echo(json.dumps(plan(auditor, read_lines(source, format_, mapping, skip)), sort_keys=True))


def _score_lines(io, run: _Run, auditor, input: Path, reading: tuple[str, dict[str, str]], skip: set[int],
                 resume: bool, quiet: bool, files: list[Path] | None = None, text: bool = True) -> Summary:
    """Audit the input lines not in `skip` (read as `reading`: format, --map) and write each
    result as it comes, with progress."""
    from ..formats import read_lines
    from ..report import Summary

    stdin, stdout, output = str(input) == "-", run.stdout, run.output
    run.before = len(skip)
    total = None
    if files is not None:
        total = sum(count_lines(path) for path in files)
    elif not stdin and stat.S_ISREG(input.stat().st_mode):
        total = count_lines(input)
    if not stdout:
        make_folder(output)
    summary = Summary()
    with (nullcontext(sys.stdin.buffer) if stdin or files else input.open("rb")) as source:
        results = (auditor.audit_files(files, reading, skip) if files
                   else auditor.audit_many(read_lines(source, reading[0], reading[1], skip)))
        # The first record before the output is opened: a model that only this record
        # needs (the given path's question entities) fails with no file touched.
        first = run.next(results, input)
        if first is None and not run.before:
            # An empty run is no run: a `gate` on it could only refuse it, later and further away.
            where = "stdin" if stdin else "the input" if files else str(input)
            run.fail(f"{where} holds no records (it is empty): give one JSON object per line, "
                     "{question, answer, long_answer}", 1)
        sink = _stdout_bytes() if stdout else open_output(output, append=resume)
        if run.lock is not None:
            run.lock.created = False  # the output is this run's now, written or not
        run.writer = io.ResultWriter(sink, hold_interrupt=True)
        progress = _progress(quiet or (stdout and not sys.stderr.isatty()))
        with (nullcontext() if stdout else sink), progress:
            task = progress.add_task("scoring", total=None if total is None else total - len(skip))
            rest = iter(lambda: run.next(results, input), None)
            for result in chain([] if first is None else [first], rest):
                run.write(result if text else result.without_text())
                summary.add(result)
                progress.advance(task)
    return summary


class _Run:
    """One `score` run's output side: counts what was written, words the way out."""

    def __init__(self, ctx: typer.Context, output: Path, stdout: bool):
        self.ctx, self.output, self.stdout = ctx, output, stdout
        self.before = 0
        self.writer: ResultWriter | None = None
        self.lock: OutputLock | None = None

    @property
    def written(self) -> int:
        return self.writer.written if self.writer is not None else 0

    def resume_hint(self) -> str:
        if self.stdout:
            return "--resume needs -o FILE; rerun writing to a file to be able to continue"
        return "continue with: " + rerun_command(self.ctx, ("--resume",))

    def where(self) -> str:
        if self.stdout:
            return f"{self.written} records written to stdout"
        if self.before:
            return (f"{self.before + self.written} records in {self.output} "
                    f"({self.written} written by this run)")
        return f"{self.written} records written to {self.output}"

    def next(self, results, input: Path):
        try:
            return next(results, None)
        except ConfigError as exc:  # the model went missing mid-run (given path)
            self.fail(exc.message, 1)
        except OSError as exc:
            self.fail(f"cannot read {'stdin' if str(input) == '-' else input}: {reason(exc)}", 1)

    def write(self, result) -> None:
        assert self.writer is not None  # set by the command before the first record
        try:
            self.writer.write(result)
        except OSError as exc:
            if self.stdout and exc.errno == errno.EPIPE:
                raise  # `| head`: typer exits quietly
            self.fail(f"cannot write {'stdout' if self.stdout else self.output}: {reason(exc)}", 2)

    def fail(self, message: str, code: int) -> NoReturn:
        if self.writer is None and not self.before:
            fail(f"{message}; nothing was written", code)
        fail(f"{message}; {self.where()}, {self.resume_hint()}", code)

    def interrupted(self) -> NoReturn:
        say(f"Interrupted: {self.where()}; {self.resume_hint()}", "yellow")
        raise typer.Exit(130)


def _stdout_bytes():
    """stdout for JSONL: its bytes when it can take them, so records are UTF-8 whatever
    the terminal's encoding (PYTHONIOENCODING=ascii)."""
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        return sys.stdout
    sys.stdout.flush()
    return buffer


def _adopt_structured(output: Path, llm) -> None:
    """Resume in the structured-output mode the records already written were scored in, when
    this run has not learnt one yet (`--no-cache`): the server took it then."""
    from ..signature import Signature

    if llm.structured_mode() != "auto":
        return
    from ..resume import scan_output

    try:
        written = scan_output(output).signatures
    except OSError:
        return  # resume_state reports it
    for text in written:
        try:
            mode = Signature.parse(text).as_dict().get("structured")
        except ValueError:
            continue
        if mode is not None and llm.adopt(str(mode)):
            return


def _progress(disabled: bool):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeRemainingColumn(), console=stderr(), disable=disabled, transient=False)
