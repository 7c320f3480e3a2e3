"""`assess`, the pre-merge loop: ask the QA prompt under test, then audit its replies (library:
`logicscore.run.assess`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..config import default
from ..errors import ConfigError, LogicscoreError
from . import app
from .common import HopsOpt
from .common import (BaseUrlOpt, CacheDirOpt, CacheOpt, ConcurrencyOpt, ExtractorOpt, JudgeOpt, MapOpt,
                     MaxCallsOpt, OfflineOpt, QuietOpt, fail, llm_default, llm_options, make_auditor, reason,
                     say, stderr)
from .paths import check_input, check_output, open_output
from .resume import lock_output, resume_state
from .score import rerun_command


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
    hops: HopsOpt = default("hops"),
    audit_base_url: Annotated[str | None, typer.Option("--audit-base-url", help="Endpoint of the llm "
                              "extractor, judge or hop stage (default: --base-url).")] = None,
    audit_model: Annotated[str | None, typer.Option("--audit-model", help="Model of the llm extractor "
                           "judge or hop stage (default: --model).")] = None,
    timing: Annotated[bool, typer.Option("--timing/--no-timing", help="Record latencies.")] = True,
    quiet: QuietOpt = False,
) -> None:
    """Ask the prompt under test each question, then audit the replies; one record per line.

    The reply ends with a line "Answer: X" or is a JSON object {"reasoning", "answer"}; a
    reply without a short answer is a ParseError record, a failed call a Timeout or LLMError
    record. Exit 1 when every record errored. Compare two prompts with `logicscore gate NEW.jsonl --baseline OLD.jsonl`.

    Example:

        logicscore assess questions.jsonl --prompt qa.md --base-url http://127.0.0.1:8000/v1 --model m -o new.jsonl
    """
    from ..run import assess as a
    from .. import io
    from ..llm.endpoint import Endpoint, EndpointConfig

    check_input(questions, "questions file")
    check_input(prompt, "prompt file")
    check_output(output, [questions, prompt])
    audit_llm = llm_options(audit_base_url or base_url, audit_model or model, timeout, concurrency, None,
                     offline, cache, cache_dir)
    auditor = make_auditor(extractor, default("fuzzy_threshold"), None, default("max_alternatives"), timing,
                       judge=determinateness, hops=hops, llm=audit_llm)
    try:
        agent = a.AgentPrompt.from_file(prompt)
        endpoint = Endpoint(EndpointConfig(**{**audit_llm, "base_url": base_url, "model": model,
                                              "retries": retries, "max_calls": max_calls}), "--timeout")
        signature = f"{auditor.signature}|{a.agent_signature(agent, endpoint)}"
        mapping = io.parse_map(map_)
    except ConfigError as exc:  # options that cannot work: a usage error (docs/reliability.md)
        fail(exc.message, 2)
    except LogicscoreError as exc:
        fail(exc.message)
    except ValueError as exc:
        fail(str(exc), 2)
    lock = lock_output(output)
    try:
        _run(ctx, a, io, questions, output, agent, endpoint, auditor, signature, mapping, resume, quiet, lock)
    finally:
        if lock is not None:
            lock.release()


def _run(ctx, a, io, questions: Path, output: Path, agent, endpoint, auditor, signature: str,
         mapping: dict[str, str], resume: bool, quiet: bool, lock=None) -> None:
    from ..report import Summary, render_summary

    skip = resume_state(io, output, signature, False) if resume else set()
    summary = Summary()
    if lock is not None:
        lock.created = False  # the output is this run's now, written or not
    try:
        with questions.open("rb") as source, open_output(output, append=resume) as sink:
            writer = io.ResultWriter(sink, hold_interrupt=True)
            for result in a.assess(a.read_questions(source, mapping, skip), agent, endpoint, auditor):
                writer.write(result)
                summary.add(result)
    except ConfigError as exc:  # options that cannot work: a usage error (docs/reliability.md)
        fail(exc.message, 2)
    except LogicscoreError as exc:
        fail(exc.message)
    except OSError as exc:  # the questions were checked readable: a failed write, a full disk
        fail(f"cannot write {exc.filename or output}: {reason(exc)}", 2)
    except KeyboardInterrupt:
        say(f"Interrupted; continue with: {rerun_command(ctx, ('--resume',))}", "yellow")
        raise typer.Exit(130) from None
    if summary.total and not summary.scored:  # a failed run: one line, as every failure
        kinds = ", ".join(f"{n} {kind}" for kind, n in summary.errors.most_common())
        fail(f"every record errored ({kinds}); {summary.total} records written to {output}: each "
             f"record's error says what to fix (logicscore report {output})", 1)
    if not quiet:
        stderr().print(render_summary(summary))
        say(f"{summary.total} records written to {output}; next: logicscore report {output}  or  "
            f"logicscore gate {output} --baseline OLD.jsonl --max-regression completeness=0.02")
