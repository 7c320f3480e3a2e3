"""Gold-labelled data: `corpus generate`, `bench` against it, and the output `schema`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Annotated, cast

import typer

from ..config import default
from . import app, corpus_app
from .common import HopsOpt
from .common import (AltsOpt, BaseUrlOpt, CacheDirOpt, CacheOpt, ConcurrencyOpt, ExtractorOpt, FuzzyOpt, JudgeOpt,
                     LLMModelOpt, LLMTimeoutOpt, MaxBytesOpt, MaxCallsOpt, MaxTokensOpt, ModelOpt, OfflineOpt,
                     StructuredOpt, WorkersOpt, fail, llm_default, llm_options, make_auditor, reason, runner, say,
                     show)
from .paths import check_input, check_output, check_stdout, replacing


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
    from ..measure.corpus import write_corpus

    try:
        lo, _, hi = hops.partition("-")
        span = (int(lo), int(hi or lo))
    except ValueError:
        fail(f"--hops expects N or LO-HI (e.g. 1-5), got {hops!r}", 2)
    if not 1 <= span[0] <= span[1] <= 5:
        fail("--hops must lie within 1-5 with LO <= HI", 2)
    if str(output) == "-":
        fail("--output must be a file for corpus generate", 2)
    check_output(output, [])
    with replacing(output, "corpus") as temp:
        digest = write_corpus(temp, seed=seed, n=n, hops=span, compared=compared)
    if not quiet:
        say(f"wrote {n + compared} cases to {output} (sha256 {digest})")


@app.command(help=(
    "Measure the auditor against gold labels, beside baselines (majority, answer-mentioned, "
    "greedy). With --extractor llm, --determinateness llm or --hops llm, the rules path and the "
    "LLM path side by side, with the calls and tokens the LLM path spent."))
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
    styles: Annotated[bool, typer.Option(
        "--styles", help="Restyle each labelled answer (lead-ins, bullets, a restated question, "
                         "pronouns, …; docs/styles.md) and report how often the verdict flips.")] = False,
    seed: Annotated[int, typer.Option("--seed", help="With --styles: picks phrasings and places; "
                                      "same seed, same rewrites.")] = 0,
    transform: Annotated[list[str] | None, typer.Option(
        "--transform", help="With --styles: only this transform (repeatable; default all).")] = None,
    determinateness: JudgeOpt = default("judge"),
    hops: HopsOpt = default("hops"),
    base_url: BaseUrlOpt = None,
    model: LLMModelOpt = None,
    llm_timeout: LLMTimeoutOpt = llm_default("timeout"),
    concurrency: ConcurrencyOpt = llm_default("concurrency"),
    max_calls: MaxCallsOpt = None,
    offline: OfflineOpt = False,
    cache: CacheOpt = True,
    cache_dir: CacheDirOpt = None,
    structured: StructuredOpt = llm_default("structured"),
    llm_max_bytes: MaxBytesOpt = llm_default("max_body_bytes"),
    llm_max_tokens: MaxTokensOpt = None,
) -> None:
    from ..measure import bench as bench_mod

    if corpus is None:
        fail("give a corpus file (make one with `logicscore corpus generate -o FILE`)", 2)
    make = "; make one with `logicscore corpus generate -o FILE`"
    check_input(corpus, "corpus file", make)
    check_stdout([("corpus file", corpus)])
    from .. import io
    from ..errors import InputError

    try:
        with corpus.open("rb") as fh:
            records, rejected = bench_mod.load(cast("IO[bytes]", io.Capped(fh, f"corpus file {corpus}")))
    except OSError as exc:
        fail(f"cannot read corpus file {corpus}: {reason(exc)}", 2)
    except InputError as exc:  # over the bound of a file read whole, or not a corpus at all
        fail(exc.message, 2)
    if not records:
        why = f" ({rejected[0].error.message})" if rejected else ": it is empty"
        fail(f"{corpus} is not a gold-labelled corpus{why}{make}", 2)
    if "llm" in (extractor, determinateness, hops):
        from ..measure import paired

        rules = make_auditor("rules", fuzzy_threshold, spacy_model, max_alternatives, False)
        llm = make_auditor(extractor, fuzzy_threshold, spacy_model, max_alternatives, False,
                           judge=determinateness, hops=hops,
                           llm=llm_options(base_url, model, llm_timeout, concurrency, max_calls, offline,
                                           cache, cache_dir, structured, llm_max_bytes, llm_max_tokens))
        # The LLM path runs in this process: its calls overlap by --concurrency, not --workers.
        both = paired.run(records, runner(rules, workers), llm, rejected)
        show(both, paired, as_json, as_md)
        return
    auditor = make_auditor(extractor, fuzzy_threshold, spacy_model, max_alternatives, False,
                           judge=determinateness, hops=hops)
    if styles:
        _styles(corpus, records, rejected, runner(auditor, workers), seed, transform, as_json, as_md)
        return
    report = bench_mod.run(records, runner(auditor, workers), rejected=rejected)
    show(report, bench_mod, as_json, as_md)


def _styles(corpus: Path, records: list, rejected: list, auditor, seed: int,
            transforms: list[str] | None, as_json: bool, as_md: bool) -> None:
    from ..measure import invariance, labelled
    from ..measure.perturb.styles import TRANSFORMS

    if not all(labelled.is_labelled(r) for r in records):
        fail(f"--styles needs labelled answers (label_completeness); {corpus} is a gold corpus", 2)
    unknown = [t for t in transforms or () if t not in TRANSFORMS]
    if unknown:
        fail(f"unknown --transform {', '.join(unknown)}; choose from {', '.join(TRANSFORMS)}", 2)
    report = invariance.run(records, auditor, seed=seed, transforms=tuple(transforms or ()) or None,
                            rejected=rejected)
    show(report, invariance, as_json, as_md)


@app.command()
def schema() -> None:
    """Print the JSON Schema of an output record."""
    from ..models import AuditResult

    typer.echo(json.dumps(AuditResult.model_json_schema(by_alias=True), indent=2, sort_keys=True))
