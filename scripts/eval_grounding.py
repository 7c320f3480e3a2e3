#!/usr/bin/env python3
"""Measure per-hop grounding on 2WikiMultihopQA records with their paragraphs as documents.

Each record's long answer is its gold supporting sentences, written as an answer reads them
(`benchmarks.realdata`), and its documents are the record's paragraphs (title line, then
sentences), numbered: the gold paragraphs first, in hop order, then the distractors. The answer is audited twice:

- right: each sentence cites the paragraph it comes from ("… [2].");
- distractor: the same sentence cites one of the record's distractor paragraphs instead.

It prints the share of chain hops `grounded` in the first run and `ungrounded` in the
second, with every status counted, overall and for compositional records.

    python scripts/eval_grounding.py                  # table on stdout
    python scripts/eval_grounding.py --limit 100 --json
    python scripts/eval_grounding.py --grounding llm --model M --base-url URL
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

FILE = "2wikimultihopqa/2wikimultihopqa_dev_sample500.jsonl"
STATUSES = ("grounded", "ungrounded", "uncited", "unknown_citation")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, metavar="N", help="first N records")
    parser.add_argument("--seed", type=int, default=0, help="seed for the distractor each sentence cites")
    parser.add_argument("--data", type=Path, help="the folder holding the datasets "
                        "(default: $LOGICSCORE_DATA, else the sample folder above the checkout)")
    parser.add_argument("--no-titles", action="store_true",
                        help="documents without their paragraph's title (the body alone)")
    parser.add_argument("--grounding", default="rules", help="grounder: rules or llm")
    parser.add_argument("--model", help="model id for --grounding llm")
    parser.add_argument("--base-url", help="OpenAI-compatible endpoint for --grounding llm")
    parser.add_argument("--json", action="store_true", help="write the figures as JSON to stdout")
    return parser.parse_args(argv)


def cite(text: str, doc_id: str) -> str:
    """The sentence with its marker before the closing stop, as answers write them."""
    body = text.rstrip()
    if body[-1:] in ".!?":
        return f"{body[:-1]} [{doc_id}]{body[-1]}"
    return f"{body} [{doc_id}]"


def build(obj: dict, item, seed: int, wrong: bool, titles: bool = True):
    """The record of one item, each sentence citing its own paragraph (or a distractor's);
    None when the record has no gold line or no distractor paragraph. A document is its
    paragraph's title on a line of its own, then its sentences (`titles=False`: the
    sentences alone)."""
    from logicscore import QARecord

    paragraphs: dict[str, str] = {}
    for title, sentences in obj["context"]:
        body = " ".join(s.strip() for s in sentences)
        paragraphs.setdefault(title, f"{title}\n{body}" if titles else body)
    gold = [hop.title for hop in item.hops]
    order = gold + [t for t in paragraphs if t not in gold]
    ids = {title: str(n) for n, title in enumerate(order, 1)}
    distractors = [ids[t] for t in order if t not in gold]
    lines = item.gold_lines()
    if not lines or not distractors or any(line.title not in ids for line in lines):
        return None
    rng = random.Random(f"{seed}:{item.id}")
    cited = [cite(line.text, rng.choice(distractors) if wrong else ids[line.title]) for line in lines]
    return QARecord(id=item.id, question=item.question, answer=item.answer,
                    long_answer=" ".join(cited), documents={ids[t]: paragraphs[t] for t in order},
                    meta={"type": item.qtype})


def measure(auditor, records: list) -> dict:
    """Chain-hop statuses over the audited records, overall and for compositional ones."""
    counts: dict[str, Counter] = {"all": Counter(), "compositional": Counter()}
    errors = 0
    for result in auditor.audit_many(records):
        if result.status == "error":
            errors += 1
            continue
        rows = result.grounding or []
        for scope in ("all", "compositional"):
            if scope == "all" or result.meta.record.get("type") == "compositional":
                counts[scope].update(r.status for r in rows)
                counts[scope]["records"] += bool(rows)
    return {"errors": errors, **{k: dict(v) for k, v in counts.items()}}


def share(counts: dict, status: str) -> float | None:
    hops = sum(counts.get(s, 0) for s in STATUSES)
    return counts.get(status, 0) / hops if hops else None


def main(argv: list[str] | None = None) -> int:
    from benchmarks.realdata.datasets import locate_data, parse_2wiki
    from logicscore import Auditor

    args = parse_args(argv)
    path = (args.data or locate_data()) / FILE
    objs = [json.loads(raw) for raw in path.read_text(encoding="utf-8").splitlines() if raw.strip()]
    objs = objs[:args.limit] if args.limit else objs
    llm = {k: v for k, v in (("model", args.model), ("base_url", args.base_url)) if v}
    auditor = Auditor(grounder=args.grounding, timing=False, llm=llm)
    runs = {}
    for name, wrong in (("right", False), ("distractor", True)):
        built = [build(obj, parse_2wiki(obj), args.seed, wrong, not args.no_titles) for obj in objs]
        runs[name] = measure(auditor, [r for r in built if r is not None])
        runs[name]["skipped"] = sum(r is None for r in built)
    figures = {
        "records": len(objs), "signature": auditor.grounded_signature, "titles": not args.no_titles,
        "grounded_when_cited_right": {s: share(runs["right"][s], "grounded")
                                      for s in ("all", "compositional")},
        "ungrounded_when_cited_distractor": {s: share(runs["distractor"][s], "ungrounded")
                                             for s in ("all", "compositional")},
        "runs": runs,
    }
    if args.json:
        print(json.dumps(figures, indent=2, sort_keys=True))
        return 0
    titled = "without" if args.no_titles else "with"
    print(f"2WikiMultihopQA, {len(objs)} records, documents {titled} their titles; "
          f"signature {figures['signature']}")
    print(f"{'run':<12}{'scope':<15}{'records':>8}{'hops':>7}  " + "  ".join(f"{s:>16}" for s in STATUSES))
    for name, run in runs.items():
        for scope in ("all", "compositional"):
            c = run[scope]
            hops = sum(c.get(s, 0) for s in STATUSES)
            print(f"{name:<12}{scope:<15}{c.get('records', 0):>8}{hops:>7}  "
                  + "  ".join(f"{c.get(s, 0):>16}" for s in STATUSES))
    for scope in ("all", "compositional"):
        right = figures["grounded_when_cited_right"][scope]
        wrong = figures["ungrounded_when_cited_distractor"][scope]
        print(f"{scope}: hops cited to their gold paragraph grounded {_pct(right)}; "
              f"cited to a distractor paragraph ungrounded {_pct(wrong)}")
    return 0


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


if __name__ == "__main__":
    raise SystemExit(main())
