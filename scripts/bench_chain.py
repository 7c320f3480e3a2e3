"""Time of everything after extraction (linking, chaining, determinateness, signals, scores)
on synthetic long answers of growing size, measured in one run.

    python scripts/bench_chain.py                   # 100, 1,000, 5,000 and 20,000 propositions
    python scripts/bench_chain.py --sizes 100 1000  # chosen sizes only
    python scripts/bench_chain.py --repeat 3        # best of three per size
    python scripts/bench_chain.py --json            # machine-readable
    python scripts/bench_chain.py --profile 1000    # cProfile of one size, top 25 by own time

Each answer is one record for the `given` extractor with `question_entities` given, so nothing
is parsed: the figures are the linker, the chain search, the judge, signals and scores (and
the given extractor's locating of each proposition in the text). The answers are seeded and
made of invented names: a mostly linear chain from the short answer back to the first anchor,
a dead-end fork every fifth hop, side chains to two more anchors, citation markers ("[3]")
on every proposition, and a few restatements of earlier links by surname alone.

The machine this runs on may be shared and noisy, so the script prints the growth ratio of
consecutive sizes beside the times (time(20,000) / time(5,000) is 4 for linear cost), for
wall time and for the process's CPU time (which other work on the machine moves less), and
asserts nothing.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SIZES = (100, 1_000, 5_000, 20_000)
SYLLABLES = ["ka", "lo", "mi", "ra", "ven", "tor", "zel", "qui", "bran", "dus", "fen", "gra", "hol",
             "ix", "jor", "mel", "nor", "pas", "sul", "tav", "ur", "wex", "yl", "zor", "be", "cu",
             "da", "fi", "go", "ha", "ji", "ku", "le", "mo", "nu", "po", "ri", "se", "ti", "vo"]
RELATIONS = ["was born in", "directed", "was written by", "married", "founded", "studied under",
             "was succeeded by", "worked with", "is located in", "was produced by"]
# Forks name a further acquaintance, no second value of a one-valued relation.
FORKS = ["met", "worked with", "visited", "wrote to"]
FORK_EVERY = 5
RESTATE_EVERY = 97  # a surname-only restatement now and then, not on every hop


def names(n: int, rng: random.Random) -> list[str]:
    """`n` invented two-word names sharing no word, so no two are fuzzy variants by accident."""
    out: list[str] = []
    seen: set[str] = set()
    while len(out) < n:
        words = ["".join(rng.choice(SYLLABLES) for _ in range(3)).capitalize() for _ in range(2)]
        if words[0] in seen or words[1] in seen or words[0] == words[1]:
            continue
        seen.update(words)
        out.append(" ".join(words))
    return out


def answer(n_props: int, seed: int = 13) -> dict:
    """A record of about `n_props` propositions (see the module docstring)."""
    rng = random.Random(seed + n_props)
    side = max(2, n_props // 20)  # each side chain to another anchor
    main = n_props - 2 * side
    pool = names(n_props + 8, rng)[::-1]  # popped from the end: every name is used once
    chain = [pool.pop()]
    triples: list[tuple[str, str, str]] = []
    i = 0
    while len(triples) < main:
        chain.append(pool.pop())
        triples.append((chain[i], rng.choice(RELATIONS), chain[i + 1]))
        if i % FORK_EVERY == FORK_EVERY - 1:
            triples.append((chain[i], rng.choice(FORKS), pool.pop()))
        if i % RESTATE_EVERY == RESTATE_EVERY - 1:
            # a restatement of the previous hop naming the person by surname alone
            triples.append((chain[i].split()[1], "was linked to", chain[i + 1]))
        i += 1
    del triples[main:]
    hops = i
    anchors = [chain[0]]
    for k in (1, 2):
        prev = chain[(hops * k) // 3]
        for _ in range(side):
            nxt = pool.pop()
            triples.append((prev, rng.choice(RELATIONS), nxt))
            prev = nxt
        anchors.append(prev)
    props, texts = [], []
    for j, (s, r, o) in enumerate(triples):
        cite = f"[{j % 9 + 1}]"
        text = f"{s} {r} {o} {cite}."
        texts.append(text)
        props.append({"subject": s, "relation": r, "object": o, "text": text,
                      "citations": [cite.strip("[]")]})
    return {"id": f"chain-{n_props}", "question": f"Who is linked to {', '.join(anchors)}?",
            "answer": chain[hops], "long_answer": " ".join(texts), "question_entities": anchors,
            "propositions": props}


def _auditor(record):
    from logicscore import Auditor

    # A 20,000-proposition answer is a megabyte of text: opt in, as a user would with --max-chars.
    return Auditor(extractor="given", timing=False, timeout=None,
                   max_chars=max(200_000, 2 * len(record.long_answer)))


def measure(n_props: int, repeat: int) -> dict:
    """Best wall time of `repeat` audits of one record of `n_props` propositions."""
    from logicscore.models import QARecord

    record = QARecord(**answer(n_props))
    auditor = _auditor(record)
    best = cpu = float("inf")
    result = None
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = auditor.audit_record(record)
        best = min(best, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    assert result is not None
    return {"propositions": len(record.propositions or []), "seconds": round(best, 4),
            "cpu_seconds": round(cpu, 4),
            "entities": len(result.entities), "chain": len(result.chain),
            "completeness": result.scores.completeness, "determinateness": result.determinateness}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES),
                        help="proposition counts (default: 100 1000 5000 20000)")
    parser.add_argument("--repeat", type=int, default=1, help="best of this many runs per size")
    parser.add_argument("--json", action="store_true", help="print a JSON list instead of a table")
    parser.add_argument("--profile", type=int, metavar="N", help="cProfile one run of size N")
    args = parser.parse_args()
    if args.profile:
        from logicscore.models import QARecord

        record = QARecord(**answer(args.profile))
        auditor = _auditor(record)
        prof = cProfile.Profile()
        prof.runcall(auditor.audit_record, record)
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
        return 0
    rows = []
    for n in args.sizes:
        row = measure(n, args.repeat)
        if rows:
            row["ratio"] = round(row["seconds"] / max(rows[-1]["seconds"], 1e-9), 2)
            row["cpu_ratio"] = round(row["cpu_seconds"] / max(rows[-1]["cpu_seconds"], 1e-9), 2)
            row["size_ratio"] = round(row["propositions"] / rows[-1]["propositions"], 2)
        rows.append(row)
        if not args.json:
            growth = (f"  ×{row['ratio']:<6} (CPU ×{row['cpu_ratio']:<6}) for ×{row['size_ratio']:g}"
                      " propositions" if "ratio" in row else "")
            print(f"{row['propositions']:>7,} propositions {row['seconds']:9.3f} s"
                  f" (CPU {row['cpu_seconds']:.3f} s){growth}"
                  f"  ({row['entities']:,} entities, chain {row['chain']},"
                  f" completeness {row['completeness']}, {row['determinateness']})", flush=True)
    if args.json:
        print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
