"""`logicscore calibrate`: the auditor measured on perturbed copies of the user's own answers."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..config import default
from . import app
from .common import (AltsOpt, ExtractorOpt, FormatOpt, FuzzyOpt, MapOpt, ModelOpt, QuietOpt, WorkersOpt, fail,
                     make_auditor, reason, runner, show, stderr)
from .paths import check_input, check_stdout


@app.command(help=(
    "Measure the auditor on your own answers: perturb the records that score complete (a hop "
    "dropped, a cycle, the answer side swapped, distractors, a compared side dropped), audit the "
    "copies whose label is sound, and report precision and recall per failure type."))
def calibrate(
    data: Annotated[Path | None, typer.Argument(
        help="Your records as JSONL (the input of `logicscore score`).", show_default=False,
        readable=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")] = False,
    as_md: Annotated[bool, typer.Option("--md", help="Print markdown tables.")] = False,
    seed: Annotated[int, typer.Option("--seed", help="Picks donors and distractor places; same "
                                      "seed, same report.")] = 0,
    mapping: MapOpt = [],
    format_: FormatOpt = "auto",
    extractor: ExtractorOpt = "rules",
    fuzzy_threshold: FuzzyOpt = default("fuzzy_threshold"),
    spacy_model: ModelOpt = None,
    max_alternatives: AltsOpt = default("max_alternatives"),
    workers: WorkersOpt = 1,
    quiet: QuietOpt = False,
) -> None:
    from ..formats import check_format, read_lines
    from ..measure import calibrate as calibrate_mod
    from .. import io

    if data is None:
        fail("give a JSONL file of your records (question, answer, long_answer)", 2)
    check_input(data, "input file")
    check_stdout([data])
    try:
        mapped = io.parse_map(mapping)
        check_format(format_)
    except ValueError as exc:
        fail(str(exc), 2)
    auditor = make_auditor(extractor, fuzzy_threshold, spacy_model, max_alternatives, False)
    with _progress(quiet) as bar:
        def progress(label: str, total: int):
            task = bar.add_task(label, total=total)
            return lambda: bar.advance(task)

        try:
            with data.open("rb") as fh:
                report = calibrate_mod.run(read_lines(fh, format_, mapped), runner(auditor, workers),
                                           seed=seed, progress=progress,
                                           signature=auditor.signature)
        except OSError as exc:
            fail(f"cannot read {data}: {reason(exc)}", 2)
        except calibrate_mod.NoCompleteRecords as exc:
            fail(f"{data}: {exc}", 2)
    show(report, calibrate_mod, as_json, as_md)


def _progress(disabled: bool):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    console=stderr(), disable=disabled, transient=True)
