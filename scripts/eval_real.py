#!/usr/bin/env python3
"""Measure the rules path on real multi-hop QA dev data (docs/measurements.md).

Builds long answers from gold supporting sentences (and labelled perturbations of them),
audits them, and reports completeness recall, incompleteness detection, precision,
conciseness under padding, 2Wiki evidence-pair recall, and failure causes with examples.

    python scripts/eval_real.py                      # all datasets, table on stderr
    python scripts/eval_real.py --dataset 2wiki --limit 50 --json > report.json
    python scripts/eval_real.py --dataset musique --md       # markdown metrics on stdout
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    from benchmarks.realdata import DATASETS
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", action="append", metavar="NAME",
                        help=f"repeatable; one of {', '.join(DATASETS)} (or 2wiki, hotpot, eb); "
                             "default: all")
    parser.add_argument("--limit", type=int, metavar="N", help="first N records per dataset")
    parser.add_argument("--seed", type=int, default=0, help="seed for donors and distractors")
    parser.add_argument("--workers", type=int, default=min(4, os.cpu_count() or 1),
                        help="processes for the spaCy path (default: CPUs, at most 4)")
    parser.add_argument("--data", type=Path, help="the folder holding the datasets "
                        "(default: $LOGICSCORE_DATA, else the sample folder above the checkout)")
    parser.add_argument("--fuzzy-threshold", type=float, metavar="T",
                        help="the auditor's mention-merging similarity, 0-100 (default: its own)")
    parser.add_argument("--spacy-model", metavar="NAME", help="spaCy pipeline for the rules path")
    parser.add_argument("--hops", metavar="STAGE", help="hop stage: off, rules, given (default: the auditor's)")
    parser.add_argument("--max-alternatives", type=int, metavar="N",
                        help="cap on alternative chains listed per record")
    parser.add_argument("--examples", type=int, default=3,
                        help="worked examples kept per failure cause in the report")
    parser.add_argument("--show", type=int, default=1, help="examples per cause in the table")
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="write the report as JSON to stdout")
    out.add_argument("--md", action="store_true",
                     help="write the metrics table as markdown to stdout (for a README)")
    return parser.parse_args(argv)


def auditor_options(args: argparse.Namespace) -> dict | None:
    """The `Auditor` options given on the command line; None keeps every default."""
    given = {k: getattr(args, k) for k in ("fuzzy_threshold", "spacy_model", "max_alternatives", "hops")}
    return {k: v for k, v in given.items() if v is not None} or None


def main(argv: list[str] | None = None) -> int:
    from rich.console import Console
    from rich.progress import Progress

    from benchmarks.realdata import DataNotFound, evaluate, locate_data, resolve_name
    from benchmarks.realdata.render import markdown, render
    from logicscore import Auditor, LogicscoreError

    args = parse_args(argv)
    err = Console(stderr=True)
    if not err.is_terminal:
        err = Console(stderr=True, width=160)  # a log file gets the whole table
    try:
        names = [resolve_name(n) for n in args.dataset or []] or None
        data = args.data or locate_data(Path(__file__))
    except ValueError as exc:  # an unknown --dataset
        err.print(f"[red]error:[/red] {exc}")
        return 2
    except DataNotFound as exc:
        err.print(f"[red]error:[/red] {exc}")
        return 1
    options = auditor_options(args)
    try:  # a given option is checked here (the signature loads the model), before any worker starts
        auditor = Auditor(timing=False, **(options or {}))
        if options:
            _ = auditor.signature
    except (LogicscoreError, ValueError) as exc:  # ValueError: an option out of range
        err.print(f"[red]error:[/red] {exc}")
        return 2
    start = time.perf_counter()
    try:
        with Progress(console=err, transient=True) as bar:
            task = bar.add_task("auditing", total=None)
            report = evaluate(data, names, limit=args.limit, seed=args.seed,
                              workers=args.workers, examples=args.examples, options=options,
                              auditor=auditor if args.workers <= 1 else None,
                              progress=lambda done, total: bar.update(task, completed=done, total=total))
    except FileNotFoundError as exc:
        err.print(f"[red]error:[/red] {exc} (pass --data /path/to/shared/data)")
        return 1
    err.print(render(report, show=args.show))
    err.print(f"[dim]{report['settings']['cases']} cases in {time.perf_counter() - start:.0f}s[/dim]")
    if args.json:
        sys.stdout.write(json.dumps(report, ensure_ascii=False, indent=1, sort_keys=False) + "\n")
    elif args.md:
        sys.stdout.write(markdown(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
