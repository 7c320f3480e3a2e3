#!/usr/bin/env python3
"""Measure `--hops given` on real MuSiQue and 2WikiMultihopQA dev records (docs/measurements.md).

Each record is read as `--format musique` / `--format 2wiki` reads it (gold supporting
sentences as the long answer, the dataset's decomposition as `question_hops`), then audited
twice with `hops="given"`: as it is, which should be complete, and with one hop's sentences
removed (the real-data harness's `remove_hop`, the question-side hop unless that leaves an
unsound label), which should not.

    python scripts/eval_hops_given.py --dataset musique --limit 100
    python scripts/eval_hops_given.py --dataset 2wiki --limit 100 --json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

FILES = {"musique": "musique/musique_ans_dev_migres200.jsonl",
         "musique-kag": "musique/musique_ans_dev_kag100.jsonl",  # 3- and 4-hop records too
         "2wiki": "2wikimultihopqa/2wikimultihopqa_dev_sample500.jsonl"}


def measure(dataset: str, limit: int, data: Path) -> dict[str, Any]:
    from benchmarks.realdata.cases import remove_hop
    from logicscore import Auditor
    from logicscore.formats.datasets import parse_2wiki, parse_musique
    from logicscore.formats.records import from_2wiki, from_musique
    from logicscore.models import QARecord

    convert, parse = {"musique": (from_musique, parse_musique), "2wiki": (from_2wiki, parse_2wiki)
                      }[dataset.split("-")[0]]
    auditor = Auditor(timing=False, hops="given")
    counts: Counter[str] = Counter()
    by_type: dict[str, Counter[str]] = {}
    with open(data / FILES[dataset], encoding="utf-8") as f:
        rows = [json.loads(line) for _, line in zip(range(limit), f)]
    for row in rows:
        fields = convert(row)
        qtype = fields["meta"]["type"]
        tally = by_type.setdefault(qtype, Counter())
        gold = auditor.audit_record(QARecord(**fields))
        for c in (counts, tally):
            c["records"] += 1
            c["with_hops"] += gold.hops is not None and len(gold.hops.hops) == len(fields["question_hops"])
            c["gold_complete"] += bool(gold.hops and gold.hops.complete)
        case = remove_hop(parse(row))
        if case is None:
            continue
        removed = auditor.audit_record(QARecord(**{**fields, "long_answer": case.long_answer}))
        for c in (counts, tally):
            c["removed"] += 1
            c["removed_incomplete"] += not (removed.hops and removed.hops.complete)
            c["removed_sound"] += not case.noise
            c["removed_sound_incomplete"] += not case.noise and not (removed.hops and removed.hops.complete)
    return {"dataset": dataset, "limit": limit, "all": _shares(counts),
            "by_type": {t: _shares(c) for t, c in sorted(by_type.items())}}


def _shares(c: Counter[str]) -> dict[str, Any]:
    def share(a: str, b: str) -> float | None:
        return round(c[a] / c[b], 3) if c[b] else None
    return {**dict(c), "gold_complete_share": share("gold_complete", "records"),
            "removed_incomplete_share": share("removed_incomplete", "removed"),
            "removed_sound_incomplete_share": share("removed_sound_incomplete", "removed_sound")}


def main(argv: list[str] | None = None) -> int:
    from benchmarks.realdata import locate_data
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", choices=sorted(FILES), required=True)
    parser.add_argument("--limit", type=int, default=100, metavar="N", help="first N records")
    parser.add_argument("--data", type=Path, help="the folder holding the datasets "
                        "(default: $LOGICSCORE_DATA, else the sample folder above the checkout)")
    parser.add_argument("--json", action="store_true", help="the whole report as JSON on stdout")
    args = parser.parse_args(argv)
    report = measure(args.dataset, args.limit, args.data or locate_data())
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    for name, row in [("all", report["all"]), *report["by_type"].items()]:
        print(f"{args.dataset:8} {name:18} records {row['records']:4}  gold complete "
              f"{row['gold_complete_share']}  hop removed incomplete {row['removed_incomplete_share']} "
              f"(sound labels {row['removed_sound_incomplete_share']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
