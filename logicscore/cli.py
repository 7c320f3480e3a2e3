"""The command line: parse options, call the library, render, exit (0 ok, 1 failed, 2 usage).

stdout carries data (JSONL, JSON); progress, tables and messages go to stderr.
"""

from __future__ import annotations

import json
import sys
from contextlib import nullcontext
from pathlib import Path
from typing import Annotated, Optional

import typer

from .config import CLI_TIMEOUT, AuditorConfig, default
from .errors import LogicscoreError

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
    help="How to decompose long answers: 'rules' (spaCy, offline) or 'given' (record's propositions).")]
FuzzyOpt = Annotated[float, typer.Option("--fuzzy-threshold", min=0, max=100,
    help="rapidfuzz similarity (0-100) at which two entity mentions are merged.")]
ModelOpt = Annotated[Optional[str], typer.Option("--spacy-model",
    help="spaCy pipeline for the rules extractor, e.g. en_core_web_md (default: en_core_web_sm).")]
AltsOpt = Annotated[int, typer.Option("--max-alternatives", min=0,
    help="Cap on the same-length alternative chains listed per record.")]


def _stderr():
    from rich.console import Console

    return Console(stderr=True)


def _fail(message: str, code: int = 1) -> None:
    _stderr().print(f"[red]Error:[/red] {message}", highlight=False)
    raise typer.Exit(code)


def _auditor(extractor: str, fuzzy: float, spacy_model: str | None, alts: int, timing: bool,
             **limits: object):
    from .auditor import Auditor

    try:
        config = AuditorConfig(extractor=extractor, fuzzy_threshold=fuzzy, spacy_model=spacy_model,
                               max_alternatives=alts, timing=timing, **limits)
        auditor = Auditor(config=config)
        # The signature loads the spaCy model of a stage that always parses, so a missing
        # --spacy-model is reported here, before any record is read.
        auditor.signature
    except LogicscoreError as exc:
        _fail(exc.message)
    return auditor


@app.command()
def score(
    input: Annotated[Path, typer.Argument(help="Input JSONL: one {question, answer, long_answer} per line "
                                               "('-' for stdin).", allow_dash=True)],
    output: Annotated[Path, typer.Option("--output", "-o", help="Output JSONL ('-' for stdout).",
                                         allow_dash=True)],
    extractor: ExtractorOpt = "rules",
    map_: Annotated[list[str], typer.Option("--map", help="Field mapping dst=src, e.g. "
                    "--map long_answer=outputs.text (repeatable).")] = [],
    resume: Annotated[bool, typer.Option("--resume", help="Keep OUTPUT and score only the input lines "
                                         "it does not have yet.")] = False,
    strict: Annotated[bool, typer.Option("--strict", help="Exit 1 if any record errored.")] = False,
    fuzzy_threshold: FuzzyOpt = default("fuzzy_threshold"),
    spacy_model: ModelOpt = None,
    max_alternatives: AltsOpt = default("max_alternatives"),
    timing: Annotated[bool, typer.Option("--timing/--no-timing",
                      help="Record meta.latency_ms (--no-timing makes reruns byte-identical).")] = True,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar or summary.")] = False,
    max_chars: Annotated[int, typer.Option("--max-chars", min=1, help="Longest long answer scored "
                         "(characters; question and answer: a tenth of it); longer ones become "
                         "InputError records.")] = default("max_chars"),
    timeout: Annotated[float, typer.Option("--timeout", min=0, help="Seconds one record may take "
                       "before it becomes a Timeout record (0: no limit).")] = CLI_TIMEOUT,
) -> None:
    """Score every record of a JSONL file; one output line per input line, in order.

    Bad lines become error records (status "error", typed error with its line number);
    the run goes on. Exit 0 unless --strict and some record errored (then 1).

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
    stdin = str(input) == "-"
    if not stdin and not input.is_file():
        _fail(f"input file {input} not found", 2)
    stdout = str(output) == "-"
    if resume and stdout:
        _fail("--resume needs a file for --output, not stdout", 2)
    auditor = _auditor(extractor, fuzzy_threshold, spacy_model, max_alternatives, timing,
                       max_chars=max_chars, timeout=timeout or None)
    skip = io.done_lines(output) if resume else set()
    total = None if stdin else io.count_lines(input)
    summary = Summary()
    source = sys.stdin.buffer if stdin else input.open("rb")
    sink = sys.stdout if stdout else output.open("a" if resume else "w", encoding="utf-8")
    writer = io.ResultWriter(sink)
    progress = _progress(quiet or stdout and not sys.stderr.isatty())
    with source, (nullcontext() if stdout else sink), progress:
        task = progress.add_task("scoring", total=None if total is None else total - len(skip))
        for result in auditor.audit_many(io.read_lines(source, mapping, skip)):
            writer.write(result)
            summary.add(result)
            progress.advance(task)
    if not quiet:
        _stderr().print(render_summary(summary))
    if strict and summary.errors:
        raise typer.Exit(1)


def _progress(disabled: bool):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeRemainingColumn(), console=_stderr(), disable=disabled, transient=False)


@app.command()
def explain(
    file: Annotated[Optional[Path], typer.Argument(help="Input JSONL (with --id) or a scored output "
                                                        "file of `logicscore score`.")] = None,
    id_: Annotated[Optional[str], typer.Option("--id", help="Record id to explain from FILE.")] = None,
    question: Annotated[Optional[str], typer.Option("--question", "-q")] = None,
    answer: Annotated[Optional[str], typer.Option("--answer", "-a", help="The short answer.")] = None,
    long_answer: Annotated[Optional[str], typer.Option("--long-answer", "-l")] = None,
    extractor: ExtractorOpt = "rules",
    fuzzy_threshold: FuzzyOpt = default("fuzzy_threshold"),
    spacy_model: ModelOpt = None,
    max_alternatives: AltsOpt = default("max_alternatives"),
    as_json: Annotated[bool, typer.Option("--json", help="Print the result record as JSON instead.")] = False,
) -> None:
    """Explain one record for a person: propositions, chain, gap, redundancy, signals, merges.

    Either give --question/--answer/--long-answer, or FILE with --id.
    """
    from . import io
    from .report import render_explain

    flags = (question, answer, long_answer)
    if any(flags) and not all(flags):
        _fail("give all three of --question, --answer and --long-answer", 2)
    if not any(flags) and (file is None or id_ is None):
        _fail("give --question/--answer/--long-answer, or FILE --id ID", 2)
    auditor = _auditor(extractor, fuzzy_threshold, spacy_model, max_alternatives, False)
    try:
        if all(flags):
            result = auditor.audit(question=question, answer=answer, long_answer=long_answer)
        else:
            result = _find(io, auditor, file, id_)
    except LogicscoreError as exc:
        _fail(exc.message)
    if as_json:
        typer.echo(result.to_json())
    else:
        from rich.console import Console

        Console().print(render_explain(result))


def _find(io, auditor, file: Path, id_: str):
    """The record with `id_`: read back from a scored file, or audited from an input file."""
    from .models import AuditResult

    if not file.is_file():
        _fail(f"file {file} not found", 2)
    with file.open("rb") as fh:
        for number, raw in enumerate(fh, start=1):
            line = io.parse_line(raw, number)
            if line.id != id_:
                continue
            if line.record is None and b'"signature"' in raw:
                return AuditResult.model_validate_json(raw)
            return next(auditor.audit_many([line]))
    _fail(f"no record with id {id_!r} in {file}", 1)


@corpus_app.command("generate")
def corpus_generate(
    output: Annotated[Path, typer.Option("--output", "-o", help="Where to write the corpus JSONL.")],
    seed: Annotated[int, typer.Option("--seed", help="Random seed; same seed, same bytes.")] = 1,
    n: Annotated[int, typer.Option("--n", min=1, help="Number of cases.")] = 600,
    hops: Annotated[str, typer.Option("--hops", help="Hop range, e.g. 1-5 or 3.")] = "1-5",
) -> None:
    """Generate a fictional multi-hop QA corpus with gold labels (invented names)."""
    from .corpus import write_corpus

    try:
        lo, _, hi = hops.partition("-")
        span = (int(lo), int(hi or lo))
    except ValueError:
        _fail(f"--hops expects N or LO-HI (e.g. 1-5), got {hops!r}", 2)
    if not 1 <= span[0] <= span[1] <= 5:
        _fail("--hops must lie within 1-5 with LO <= HI", 2)
    digest = write_corpus(output, seed=seed, n=n, hops=span)
    _stderr().print(f"wrote {n} cases to {output} (sha256 {digest})", highlight=False)


@app.command(help=(
    "Measure the auditor against gold labels, beside baselines (majority, answer-mentioned, "
    "greedy)."))
def bench(
    corpus: Annotated[Optional[Path], typer.Argument(
        help="A gold-labelled JSONL corpus, e.g. from `logicscore corpus generate`.",
        show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")] = False,
    as_md: Annotated[bool, typer.Option("--md", help="Print markdown tables (for a README or CI comment).")] = False,
    extractor: ExtractorOpt = "rules",
    fuzzy_threshold: FuzzyOpt = default("fuzzy_threshold"),
    spacy_model: ModelOpt = None,
    max_alternatives: AltsOpt = default("max_alternatives"),
) -> None:
    from . import bench as bench_mod

    if corpus is None:
        _fail("give a corpus file (make one with `logicscore corpus generate -o FILE`)", 2)
    if not corpus.is_file():
        _fail(f"corpus file {corpus} not found; make one with `logicscore corpus generate -o FILE`", 2)
    auditor = _auditor(extractor, fuzzy_threshold, spacy_model, max_alternatives, False)
    with corpus.open(encoding="utf-8") as fh:
        records = [json.loads(line) for line in fh if line.strip()]
    report = bench_mod.run(records, auditor)
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


def main() -> None:
    app()


# Reports and the gate (SPEC §6): they read output records only, so they work on any run.
PairsOpt = list[str]


def _input_error(exc: LogicscoreError) -> None:
    """One unwrapped line on stderr, exit 2: messages hold paths and [tables] rich must not eat."""
    from rich.markup import escape

    _stderr().print(f"[red]Error:[/red] {escape(exc.message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(2)


@app.command()
def report(
    results: Annotated[Path, typer.Argument(help="Output JSONL of `logicscore score`.")],
    md: Annotated[Optional[Path], typer.Option("--md", help="Write a markdown report to this file "
                  "('-' for stdout).", allow_dash=True)] = None,
    html: Annotated[Optional[Path], typer.Option("--html", help="Write one self-contained HTML file "
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
    min_completeness: Annotated[Optional[float], typer.Option(help="Lowest mean completeness that passes.")] = None,
    min_conciseness: Annotated[Optional[float], typer.Option(help="Lowest mean conciseness that passes.")] = None,
    min_determinateness: Annotated[Optional[float], typer.Option(help="Lowest mean determinateness.")] = None,
    max_failure: Annotated[PairsOpt, typer.Option(help="Highest share of scored records of a failure "
                           "type, e.g. broken=0.2 (repeatable).")] = [],
    max_errors: Annotated[Optional[float], typer.Option(help="Highest share of errored records.")] = None,
    min_records: Annotated[Optional[int], typer.Option(help="Fewest records the run must have.")] = None,
    baseline: Annotated[Optional[Path], typer.Option(help="An earlier run of the same questions.")] = None,
    max_regression: Annotated[PairsOpt, typer.Option(help="Largest drop of a mean (completeness=0.02) or "
                              "rise of a failure share (broken=0.05) against --baseline (repeatable).")] = [],
    allow_signature_change: Annotated[bool, typer.Option(help="Compare runs audited under different settings.")] = False,
    config: Annotated[Optional[Path], typer.Option(help="pyproject.toml with [tool.logicscore.gate] "
                      "(default: the nearest one above the current folder).")] = None,
    junit: Annotated[Optional[Path], typer.Option(help="Write JUnit XML here, one testcase per check.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON on stdout.")] = False,
) -> None:
    """Pass or fail a run against thresholds: exit 0 pass, 1 fail, 2 usage or input error.

    Flags override [tool.logicscore.gate] in pyproject.toml. Example:

        logicscore gate new.jsonl --min-completeness 0.8 --max-failure broken=0.1 --baseline main.jsonl --max-regression completeness=0.02 --junit gate.xml
    """
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
