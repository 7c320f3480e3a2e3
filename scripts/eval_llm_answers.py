"""Completeness verdicts on the labelled model answers, per source, model and dataset, beside the
string baselines.

    python scripts/eval_llm_answers.py                    # both shared files, markdown tables
    python scripts/eval_llm_answers.py --json > now.json  # the same figures as JSON
    python scripts/eval_llm_answers.py --disagreements    # also every record the auditor gets wrong
    python scripts/eval_llm_answers.py --compare before.json   # deltas against an earlier --json run
    python scripts/eval_llm_answers.py --hops llm --base-url http://127.0.0.1:8099/v1 --model replay
                                  # the hop check, through a server (a replay of recorded replies)

A group is a source file, then each model within it, then each dataset (ProbTree holds two).
Ambiguous labels are left out of every figure, as `logicscore bench` does. See
docs/measurements.md for how these figures are used to accept or reject a rule.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

from logicscore import Auditor
from logicscore.measure import bench
from logicscore.measure.labelled import BASELINES, LABEL, measure, strip_labels

_SHARED = Path("shared") / "data" / "llm-answers"
# The checkout's parent holds shared/ (a worktree sits one folder deeper): the nearest one up.
DATA = next((p / _SHARED for p in Path(__file__).resolve().parents if (p / _SHARED).is_dir()),
            Path(__file__).resolve().parents[1].parent / _SHARED)
SOURCES = {"fireact": "fireact_hotpotqa.jsonl", "probtree": "probtree_2wiki_musique.jsonl"}
PREDICTORS = ("logicscore", *BASELINES)


def _groups(source: str, record: dict) -> list[str]:
    keys = [source, f"{source} / {record.get('model')}"]
    if record.get("dataset"):
        keys.append(f"{source} / {record['dataset']}")
    return keys


def evaluate(data: Path, **options: object) -> tuple[dict[str, dict[str, dict]], list[dict]]:
    """Figures per group and predictor, and every decided record the auditor got wrong;
    `options` are the Auditor's (`hops`, `llm`)."""
    auditor = Auditor(timing=False, **options)
    pairs: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    wrong: list[dict] = []
    for source, name in SOURCES.items():
        # Read, audited and left out exactly as `logicscore bench FILE` does: the same decoding
        # and rejections, every record audited, ambiguous ones left out of the figures only.
        with (data / name).open("rb") as fh:
            records, rejected = bench.load(fh)
        if rejected:
            raise SystemExit(f"{data / name}: {len(rejected)} lines are not labelled records; "
                             f"first: {rejected[0].error.message}")
        results = list(auditor.audit_many(strip_labels(r) for r in records))
        for record, result in zip(records, results):
            if record[LABEL] == "ambiguous":
                continue
            gold = record[LABEL] == "complete"
            # An error is wrong whatever the label; unverified (completeness null) is None, undecided.
            ours = (not gold if result.status != "ok" or result.scores is None
                    else None if result.scores.completeness is None else bool(result.scores.completeness))
            for key in _groups(source, record):
                pairs[key]["logicscore"].append((gold, ours))
                for base, fn in BASELINES.items():
                    pairs[key][base].append((gold, fn(record)))
            if ours is not None and ours != gold:
                d = result.diagnosis
                wrong.append({"id": record["id"], "label": record[LABEL], "reason": record.get("label_reason"),
                              "failure": d.failure if d else None,
                              "signals": [s.kind for s in d.signals] if d else [],
                              "hops": [(h.asks, h.check, h.why) for h in result.hops.hops] if result.hops else None,
                              "anchors": [(q.name, q.anchor, q.reached) for q in result.question_entities],
                              "question": record["question"], "long_answer": record["long_answer"]})
    figures = {g: {p: measure(v) for p, v in preds.items()} for g, preds in pairs.items()}
    return figures, wrong


def _fmt(x: float | None) -> str:
    return "–" if x is None else f"{x:.3f}"


def render(figures: dict, before: dict | None = None) -> str:
    head = "| group | predictor | decided | recall | specificity | BA |" + (" ΔBA |" if before else "")
    lines = [head, "|---|---|---:|---:|---:|---:|" + ("---:|" if before else "")]
    for group, preds in figures.items():
        for p in PREDICTORS:
            m = preds[p]
            name = f"**{p}**" if p == "logicscore" else p
            row = (f"| {group} ({m['complete']}+{m['incomplete']}) | {name} "
                   f"| {_fmt(m['decided_share'])} | {_fmt(m['recall'])} | {_fmt(m['specificity'])} "
                   f"| {_fmt(m['balanced_accuracy'])} |")
            if before:
                old = before.get(group, {}).get(p, {}).get("balanced_accuracy")
                new = m["balanced_accuracy"]
                row += f" {'' if old is None or new is None else f'{new - old:+.3f}'} |"
            lines.append(row)
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=DATA, help="folder holding the labelled files")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--disagreements", action="store_true", help="also list every record scored wrong")
    ap.add_argument("--compare", type=Path, help="an earlier --json output: print BA deltas")
    ap.add_argument("--hops", default="off", help="hop stage: off, llm or given")
    ap.add_argument("--base-url", help="OpenAI-compatible endpoint for --hops llm")
    ap.add_argument("--model", default="replay", help="model id for --hops llm")
    args = ap.parse_args()
    options: dict[str, object] = {"hops": args.hops}
    if args.base_url:
        options["llm"] = {"base_url": args.base_url, "model": args.model, "cache": False}
    figures, wrong = evaluate(args.data, **options)
    if args.json:
        print(json.dumps(figures, indent=1, sort_keys=True))
        return 0
    before = json.loads(args.compare.read_text()) if args.compare else None
    print(render(figures, before))
    if args.disagreements:
        for w in wrong:
            print(json.dumps(w, ensure_ascii=False), file=sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
