"""`report`, `gate` and `diff` (docs/usage.md): they read output records only, so they work on any run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from ..errors import LogicscoreError
from . import app
from .common import console, fail, say, stderr
from .paths import check_output, check_stdout, write_output

PairsOpt = list[str]


def _input_error(exc: LogicscoreError) -> NoReturn:
    """Bad input to a report command: one line, exit 2."""
    fail(exc.message, 2)


@app.command()
def report(
    results: Annotated[Path, typer.Argument(help="Output JSONL of `logicscore score`.")],
    md: Annotated[Path | None, typer.Option("--md", help="Write a markdown report to this file "
                  "('-' for stdout).", allow_dash=True)] = None,
    html: Annotated[Path | None, typer.Option("--html", help="Write one self-contained HTML file: "
                    "charts and every record, to filter, search and open (works offline).")] = None,
    by: Annotated[PairsOpt, typer.Option("--by", help="Also slice by this input meta field, dotted "
                  "for nesting, e.g. --by model or --by gold.perturbation (repeatable).")] = [],
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of the bootstrap and the sample "
                    "(0 or more).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as one JSON object on stdout.")] = False,
    failures: Annotated[Path | None, typer.Option("--failures", help="Write every failing record (errored "
                        "or incomplete chain) to this JSONL file, as the run has it ('-' for stdout).",
                        allow_dash=True)] = None,
    baseline: Annotated[Path | None, typer.Option("--baseline", help="An earlier run of the same "
                        "questions: the HTML report shows what moved, with a filter 'changed'.")] = None,
) -> None:
    """Summarise a scored run: scores with 95% intervals, failures, coverage, slices, examples.

    Without --md, --html or --json the report prints as tables. Same input, same report bytes.

    Examples:

        logicscore report scored.jsonl

        logicscore report scored.jsonl --html report.html --md report.md --by model

        logicscore report scored.jsonl --json --failures failing.jsonl

        logicscore report new.jsonl --html report.html --baseline old.jsonl
    """
    from ..report.build import build_report
    from ..report.source import read_run

    if baseline and not html:
        fail("--baseline needs --html: the page is where the records that moved are listed; "
             "for the terminal use `logicscore diff OLD NEW`", 2)
    inputs = [("results file", results)] + ([("baseline", baseline)] if baseline else [])
    check_stdout(inputs)
    for path in (p for p in (md, html, failures) if p is not None):
        check_output(path, inputs, "report")
    written = [str(p) for p in (md, html, failures) if p is not None and str(p) != "-"]
    if len(set(written)) < len(written):
        fail("--md, --html and --failures must name different files", 2)
    try:
        if failures:
            _write_failures(read_run(results), failures, results)
        if html:
            from ..report.html import html_report

            moved = None
            if baseline:
                from ..report import diff as d

                moved = d.diff(read_run(baseline), read_run(results)).baseline(baseline.name)
            rep, page = html_report(read_run(results), by=by, seed=seed, baseline=moved)
            write_output(html, page, inputs, "report")
            say(f"wrote {html}")
        else:
            rep = build_report(read_run(results), by=by, seed=seed)
        if as_json:
            from ..report.as_json import report_json

            typer.echo(json.dumps(report_json(rep), indent=2, sort_keys=True, ensure_ascii=False))
        if md:
            from ..report.render import render_markdown

            write_output(md, render_markdown(rep), inputs, "report")
            if str(md) != "-":
                say(f"wrote {md}")
    except LogicscoreError as exc:
        _input_error(exc)
    if not (md or html or as_json or str(failures) == "-"):
        from ..report.render import render_terminal

        console().print(render_terminal(rep))


def _write_failures(results, target: Path, results_path: Path) -> None:
    """Every failing record of `results`, one JSON line each, to `target` ('-': stdout)."""
    from ..report.failing import is_failing

    lines = (r.to_json() + "\n" for r in results if is_failing(r))
    if str(target) == "-":
        for line in lines:
            typer.echo(line, nl=False)
        return
    text = "".join(lines)
    write_output(target, text, [("results file", results_path)], "--failures")
    say(f"wrote {text.count(chr(10))} failing records to {target}")


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
    max_errors: Annotated[float | None, typer.Option(help="Highest share of errored records (default 0: "
                          "any errored record fails).")] = None,
    min_records: Annotated[int | None, typer.Option(help="Fewest records the run must have.")] = None,
    max_unverified: Annotated[str | None, typer.Option(help="Most records whose completeness the text "
                              "left undecided: a count (5), a share of the scored ones (0.1) or 10%. "
                              "Unset, they neither pass nor fail and the summary counts them.")] = None,
    baseline: Annotated[Path | None, typer.Option(help="An earlier run of the same questions.")] = None,
    max_regression: Annotated[PairsOpt, typer.Option(help="Largest drop of a mean (completeness=0.02) or "
                              "rise of a failure share (broken=0.05) against --baseline (repeatable).")] = [],
    max_regressed: Annotated[int | None, typer.Option(min=0, help="Most records complete in --baseline "
                             "that may not be any more (default 0).")] = None,
    allow_signature_change: Annotated[bool, typer.Option(
        help="Compare runs audited under different settings.")] = False,
    config: Annotated[Path | None, typer.Option(help="pyproject.toml with \\[tool.logicscore.gate] "
                      "(default: the nearest one above the current folder).")] = None,
    junit: Annotated[Path | None, typer.Option(help="Write JUnit XML here: one testcase per check and one "
                     "per record (a failing record's category, gap and signals in its message).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON on stdout.")] = False,
) -> None:
    """Pass or fail a run against thresholds: exit 0 pass, 1 fail, 2 usage or input error.

    By default an errored record fails the gate (--max-errors 0) and counts as incomplete in
    the completeness mean; against --baseline, so does a record that was complete there and
    is not any more (--max-regressed 0). --max-regression and --max-regressed from the config
    are skipped (and said so) without --baseline.

    Flags override \\[tool.logicscore.gate] in pyproject.toml. Example:

        logicscore gate new.jsonl --min-completeness 0.8 --max-failure broken=0.1 --baseline main.jsonl --max-regression completeness=0.02 --junit gate.xml
    """  # noqa: E501 - the example command stays on one line to be copied
    from ..report import gate as g
    from ..report import thresholds as t
    from ..report.aggregate import METRICS
    from ..report.source import read_run

    # The pyproject found by default is read too: a --junit onto it would overwrite it.
    config = config or t.find_pyproject(Path.cwd())
    inputs = [("results file", results), ("baseline", baseline), ("config file", config)]
    check_stdout(inputs)
    if junit is not None:
        check_output(junit, inputs, "--junit")
    try:
        overrides = dict(min_completeness=min_completeness, min_conciseness=min_conciseness,
                         min_determinateness=min_determinateness, min_grounded=min_grounded,
                         max_errors=max_errors, max_regressed=max_regressed,
                         min_records=min_records, max_unverified=t.parse_limit(max_unverified),
                         max_failure=t.parse_pairs(max_failure, "--max-failure", t.FAILURES),
                         max_regression=t.parse_pairs(max_regression, "--max-regression",
                                                      (*METRICS, *t.FAILURES)))
        thresholds = t.load_thresholds(config, overrides)
        old, regressed, went = g.regressions(read_run(baseline), read_run(results), f"baseline {baseline}") \
            if baseline else (None, [], [])
        cases: list = []
        verdict = g.evaluate(g.aggregate(read_run(results), str(results), cases), thresholds, old,
                             allow_signature_change, flagged=[k for k, v in overrides.items() if v is not None
                                                              and v != {}], regressed=regressed)
        verdict.cases = cases
        verdict.went_unverified = g.went_unverified(went, cases)
        verdict.mark_regressed()
    except LogicscoreError as exc:
        _input_error(exc)
    if junit:  # before the table: a refused write is then the one line on stderr
        write_output(junit, g.to_junit(verdict), inputs, "--junit")
    stderr().print(g.render_table(verdict, str(results)), soft_wrap=True)
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
    from ..report import diff as d
    from ..report.source import read_run

    check_stdout([("old run", old), ("new run", new)])
    try:
        result = d.diff(read_run(old), read_run(new))
    except LogicscoreError as exc:
        _input_error(exc)
    if as_json:
        typer.echo(json.dumps(result.to_json_dict(), indent=2, sort_keys=True))
    else:
        console().print(d.render(result), soft_wrap=True)
