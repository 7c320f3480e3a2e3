"""`report`, `gate` and `diff` (SPEC §6): they read output records only, so they work on any run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from ..errors import LogicscoreError
from . import app
from .common import fail, stderr

PairsOpt = list[str]


def _input_error(exc: LogicscoreError) -> NoReturn:
    """Bad input to a report command: one line, exit 2."""
    fail(exc.message, 2)


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
    from ..report.build import build_report
    from ..report.source import read_run

    try:
        rep = build_report(read_run(results), by=by, seed=seed)
        if html:
            from ..report.html import render_html

            html.write_text(render_html(rep), encoding="utf-8")
            stderr().print(f"wrote {html}", highlight=False)
        if md:
            from ..report.render import render_markdown

            text = render_markdown(rep)
            typer.echo(text, nl=False) if str(md) == "-" else md.write_text(text, encoding="utf-8")
    except LogicscoreError as exc:
        _input_error(exc)
    if not (md or html):
        from rich.console import Console

        from ..report.render import render_terminal

        Console().print(render_terminal(rep))


@app.command()
def gate(
    results: Annotated[Path, typer.Argument(help="Output JSONL of `logicscore score` to judge.")],
    min_completeness: Annotated[float | None, typer.Option(help="Lowest mean completeness that passes.")] = None,
    min_conciseness: Annotated[float | None, typer.Option(help="Lowest mean conciseness that passes.")] = None,
    min_determinateness: Annotated[float | None, typer.Option(help="Lowest mean determinateness.")] = None,
    min_grounded: Annotated[float | None, typer.Option(help="Lowest mean share of chain hops grounded in "
                            "their cited documents (scores.grounded_chain; records with documents).")] = None,
    max_failure: Annotated[PairsOpt, typer.Option(help="Highest share of scored records of a failure "
                           "type, e.g. broken=0.2 (repeatable).")] = [],
    max_errors: Annotated[float | None, typer.Option(help="Highest share of errored records.")] = None,
    min_records: Annotated[int | None, typer.Option(help="Fewest records the run must have.")] = None,
    baseline: Annotated[Path | None, typer.Option(help="An earlier run of the same questions.")] = None,
    max_regression: Annotated[PairsOpt, typer.Option(help="Largest drop of a mean (completeness=0.02) or "
                              "rise of a failure share (broken=0.05) against --baseline (repeatable).")] = [],
    allow_signature_change: Annotated[bool, typer.Option(
        help="Compare runs audited under different settings.")] = False,
    config: Annotated[Path | None, typer.Option(help="pyproject.toml with \\[tool.logicscore.gate] "
                      "(default: the nearest one above the current folder).")] = None,
    junit: Annotated[Path | None, typer.Option(help="Write JUnit XML here, one testcase per check.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON on stdout.")] = False,
) -> None:
    """Pass or fail a run against thresholds: exit 0 pass, 1 fail, 2 usage or input error.

    Flags override \\[tool.logicscore.gate] in pyproject.toml. Example:

        logicscore gate new.jsonl --min-completeness 0.8 --max-failure broken=0.1 --baseline main.jsonl --max-regression completeness=0.02 --junit gate.xml
    """  # noqa: E501 - the example command stays on one line to be copied
    from .. import gate as g
    from ..report.aggregate import METRICS
    from ..report.source import read_run

    try:
        overrides = dict(min_completeness=min_completeness, min_conciseness=min_conciseness,
                         min_determinateness=min_determinateness, min_grounded=min_grounded,
                         max_errors=max_errors,
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
    stderr().print(g.render_table(verdict), soft_wrap=True)
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
    from .. import diff as d
    from ..report.source import read_run

    try:
        result = d.diff(read_run(old), read_run(new))
    except LogicscoreError as exc:
        _input_error(exc)
    if as_json:
        typer.echo(json.dumps(result.to_json_dict(), indent=2, sort_keys=True))
    else:
        from rich.console import Console

        Console().print(d.render(result), soft_wrap=True)
