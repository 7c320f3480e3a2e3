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

from .config import CLI_TIMEOUT, AuditorConfig, default, llm_default
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
    help="How to decompose long answers: 'rules' (spaCy, offline), 'given' (record's propositions) "
         "or 'llm' (an OpenAI-compatible endpoint: --model, --base-url).")]
FuzzyOpt = Annotated[float, typer.Option("--fuzzy-threshold", min=0, max=100,
    help="rapidfuzz similarity (0-100) at which two entity mentions are merged.")]
ModelOpt = Annotated[Optional[str], typer.Option("--spacy-model",
    help="spaCy pipeline for the rules extractor, e.g. en_core_web_md (default: en_core_web_sm).")]
AltsOpt = Annotated[int, typer.Option("--max-alternatives", min=0,
    help="Cap on the same-length alternative chains listed per record.")]
# The LLM path (--extractor llm, --determinateness llm); the key comes from OPENAI_API_KEY only.
JudgeOpt = Annotated[str, typer.Option("--determinateness",
    help="How to judge determinateness: 'rules' (closed-world over the propositions) or 'llm'.")]
BaseUrlOpt = Annotated[Optional[str], typer.Option("--base-url",
    help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1 (default: OpenAI's).")]
LLMModelOpt = Annotated[Optional[str], typer.Option("--model", help="Model id for the LLM stages.")]
LLMTimeoutOpt = Annotated[float, typer.Option("--llm-timeout", min=0.001,
    help="Seconds one LLM call may take before it is retried or becomes a Timeout record.")]
ConcurrencyOpt = Annotated[int, typer.Option("--concurrency", min=1, help="LLM calls in flight at once.")]
MaxCallsOpt = Annotated[Optional[int], typer.Option("--max-calls", min=0,
    help="Hard budget of LLM calls for the run; records past it become LLMError records.")]
OfflineOpt = Annotated[bool, typer.Option("--offline",
    help="Never call the LLM: answers come from the cache, a miss is an LLMError record.")]
CacheOpt = Annotated[bool, typer.Option("--cache/--no-cache", help="Read and write the LLM answer cache.")]
CacheDirOpt = Annotated[Optional[Path], typer.Option("--cache-dir",
    help="LLM answer cache folder (default: ~/.cache/logicscore/llm).")]


def _stderr():
    from rich.console import Console

    return Console(stderr=True)


def _fail(message: str, code: int = 1) -> None:
    _stderr().print(f"[red]Error:[/red] {message}", highlight=False)
    raise typer.Exit(code)


def _llm(base_url: str | None, model: str | None, timeout: float, concurrency: int,
         max_calls: int | None, offline: bool, cache: bool, cache_dir: Path | None) -> dict:
    """The LLM endpoint options (AuditorConfig.llm) from their flags."""
    return {"base_url": base_url, "model": model, "timeout": timeout, "concurrency": concurrency,
            "max_calls": max_calls, "offline": offline, "cache": cache,
            "cache_dir": None if cache_dir is None else str(cache_dir)}


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
                       max_chars=max_chars, timeout=timeout or None, judge=determinateness,
                       llm=_llm(base_url, model, llm_timeout, concurrency, max_calls, offline,
                                cache, cache_dir))
    skip = io.done_lines(output) if resume else set()
    if estimate:
        from .llm.plan import estimate as plan

        with sys.stdin.buffer if stdin else input.open("rb") as source:
            typer.echo(json.dumps(plan(auditor, io.read_lines(source, mapping, skip)), sort_keys=True))
        return
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
    determinateness: JudgeOpt = default("judge"),
    base_url: BaseUrlOpt = None,
    model: LLMModelOpt = None,
    llm_timeout: LLMTimeoutOpt = llm_default("timeout"),
    offline: OfflineOpt = False,
    cache: CacheOpt = True,
    cache_dir: CacheDirOpt = None,
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
    auditor = _auditor(extractor, fuzzy_threshold, spacy_model, max_alternatives, False,
                       judge=determinateness, llm=_llm(base_url, model, llm_timeout, 1, None,
                                                       offline, cache, cache_dir))
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
