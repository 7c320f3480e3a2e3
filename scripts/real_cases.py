#!/usr/bin/env python3
"""Write the real-data cases as a gold-labelled JSONL corpus for `logicscore bench`.

The cases are those `scripts/eval_real.py` measures (same datasets, limit and seed give the
same records, in the same order), each with `meta.gold` as bench reads it.

    python scripts/real_cases.py -o real.jsonl && logicscore bench real.jsonl
    python scripts/real_cases.py --dataset musique --limit 20 -o - | head -1
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    from benchmarks.realdata import DATASETS
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-o", "--output", required=True, metavar="FILE",
                        help="where to write the JSONL ('-' for stdout)")
    parser.add_argument("--dataset", action="append", metavar="NAME",
                        help=f"repeatable; one of {', '.join(DATASETS)} (or 2wiki, hotpot, eb); "
                             "default: all")
    parser.add_argument("--limit", type=int, metavar="N", help="first N records per dataset")
    parser.add_argument("--seed", type=int, default=0, help="seed for donors and distractors")
    parser.add_argument("--all-types", action="store_true",
                        help="also the gold answers of question types the figures leave out "
                             "(comparison, yes/no), tagged 'unscored'")
    parser.add_argument("--data", type=Path, help="the folder holding the datasets "
                        "(default: $LOGICSCORE_DATA, else the sample folder above the checkout)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    from benchmarks.realdata import DataNotFound, locate_data, resolve_name
    from benchmarks.realdata.corpus import gold_records, write_gold

    args = parse_args(argv)
    try:
        names = [resolve_name(n) for n in args.dataset or []] or None
        data = args.data or locate_data(Path(__file__))
    except ValueError as exc:  # an unknown --dataset
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except DataNotFound as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    try:  # read every dataset before writing, so a missing file leaves no half corpus
        records = list(gold_records(data, names, limit=args.limit, seed=args.seed,
                                    all_types=args.all_types))
    except FileNotFoundError as exc:
        print(f"error: {exc} (pass --data /path/to/the/datasets)", file=sys.stderr)
        return 1
    if args.output == "-":
        n = write_gold(sys.stdout, records)
    else:
        with open(args.output, "w", encoding="utf-8") as out:
            n = write_gold(out, records)
    print(f"wrote {n} cases to {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
