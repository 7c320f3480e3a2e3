"""Time and peak memory of the auditor on adversarial input, one fresh process per case.

    python scripts/bench_adversarial.py            # every case, table on stdout
    python scripts/bench_adversarial.py --quick    # smaller sizes (the test uses this)
    python scripts/bench_adversarial.py --json     # machine-readable
    python scripts/bench_adversarial.py --case clique-500 --tracemalloc

Cases:
  given-20k      a long answer of 20,000 propositions (given extractor): one long chain with
                 forks, so search, linking and scoring all see 20k edges.
  rules-20k      the same 20,000 propositions as prose through the spaCy rules path.
  clique-500     500 entities all linked to each other (124,750 propositions) plus a question
                 entity and an answer both linked to all 500: 500 shortest chains, so the
                 alternative enumeration must stay capped (16).
  rules-500-names  one sentence naming 500 entities (the co-occurrence fallback must not go
                 quadratic).
  rules-1mb      a 1,000,000-character long answer with no sentence break (the --max-chars
                 default; spaCy's own limit).
  rules-over-limit  5,000,000 characters: refused as an InputError before any parsing.

--quick runs every case smaller (see CASES). Each record runs under the Auditor's --timeout
(default 300 s, as `score`), so a case ends as "ok" or a typed Timeout, never hangs.

Peak memory is the process's peak RSS (ru_maxrss, spaCy's C allocations included), with the
RSS before the record (model loaded) beside it; --tracemalloc adds Python-heap peaks (slower).
"""

from __future__ import annotations

import argparse
import json
import random
import os
import resource
import subprocess
import sys
import threading
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SYLLABLES = ["ka", "lo", "mi", "ra", "ven", "tor", "zel", "qui", "bran", "dus", "fen", "gra", "hol",
             "ix", "jor", "mel", "nor", "pas", "sul", "tav", "ur", "wex", "yl", "zor", "be", "cu",
             "da", "fi", "go", "ha", "ji", "ku", "le", "mo", "nu", "po", "ri", "se", "ti", "vo"]
# case: (size, size with --quick, statuses accepted). A Timeout is a bounded outcome too,
# but the test (--quick) expects every case to finish well inside the time limit.
CASES: dict[str, tuple[int, int, tuple[str, ...]]] = {
    "given-20k": (20_000, 600, ("ok", "error:Timeout")),
    "rules-20k": (20_000, 200, ("ok", "error:Timeout")),
    "clique-500": (500, 40, ("ok", "error:Timeout")),
    "rules-500-names": (500, 100, ("ok", "error:Timeout")),
    "rules-1mb": (1_000_000, 20_000, ("ok", "error:Timeout")),
    "rules-over-limit": (5_000_000, 5_000_000, ("error:InputError",)),
}


def names(n: int, seed: int = 7) -> list[str]:
    """`n` distinct invented two-word names (capitalised, unlike each other)."""
    rng = random.Random(seed)
    out: list[str] = []
    seen: set[str] = set()
    while len(out) < n:
        # three syllables: 64,000 words, room for the 40,000 the 20k case needs
        words = ["".join(rng.choice(SYLLABLES) for _ in range(3)).capitalize() for _ in range(2)]
        name = " ".join(words)
        if words[0] in seen or words[1] in seen:
            continue
        seen.update(words)
        out.append(name)
    return out


def long_chain(n_props: int) -> tuple[list[dict], str, str]:
    """A chain of n/2 hops with a dead-end fork at every hop: (props, question entity, answer)."""
    hops = n_props // 2
    ents = names(hops + 1 + (n_props - hops))
    chain, forks = ents[:hops + 1], ents[hops + 1:]
    props = []
    for i in range(hops):
        props.append({"subject": chain[i], "relation": "met", "object": chain[i + 1]})
        props.append({"subject": chain[i], "relation": "saw", "object": forks[i]})
    return props[:n_props], chain[0], chain[-1]


def build(case: str, size: int) -> dict:
    """The record (and extractor) for one case at `size`."""
    if case in ("given-20k", "rules-20k"):
        props, q, a = long_chain(size)
        text = " ".join(f"{p['subject']} {p['relation']} {p['object']}." for p in props)
        record = {"question": f"Which place is ultimately linked to {q}?", "answer": a,
                  "long_answer": text, "question_entities": [q]}
        if case == "given-20k":
            return {"extractor": "given", "record": record | {"propositions": props}}
        return {"extractor": "rules", "record": record}
    if case == "clique-500":
        ents = names(size + 2)
        q, a, clique = ents[0], ents[1], ents[2:]
        props = [{"subject": x, "relation": "knows", "object": y}
                 for i, x in enumerate(clique) for y in clique[i + 1:]]
        props += [{"subject": q, "relation": "met", "object": x} for x in clique]
        props += [{"subject": x, "relation": "hired", "object": a} for x in clique]
        return {"extractor": "given", "record": {
            "question": f"Who was hired by someone {q} met?", "answer": a, "question_entities": [q],
            "long_answer": f"{q} met many people. They hired {a}.", "propositions": props}}
    if case == "rules-500-names":
        ents = names(size + 2)
        text = (", ".join(ents[2:]) + f" and {ents[1]} were all born in {ents[0]}. "
                f"{ents[1]} directed the film.")
        return {"extractor": "rules", "record": {
            "question": f"Who was born in {ents[0]}?", "answer": ents[1], "long_answer": text}}
    if case in ("rules-1mb", "rules-over-limit"):
        ents = names(200)
        rng = random.Random(3)
        parts, total = [], 0
        while total < size:
            piece = f"{rng.choice(ents)} met {rng.choice(ents)} and then"
            parts.append(piece)
            total += len(piece) + 1
        text = " ".join(parts)[:size]
        return {"extractor": "rules", "record": {
            "question": f"Whom did {ents[0]} meet?", "answer": ents[1], "long_answer": text}}
    raise SystemExit(f"unknown case {case!r}; cases: {', '.join(CASES)}")


def run_case(case: str, quick: bool, trace: bool, timeout: float) -> dict:
    """Run one case in this process and measure it."""
    from logicscore import Auditor
    from logicscore.io import InputLine
    from logicscore.models import QARecord

    size = CASES[case][1 if quick else 0]
    spec = build(case, size)
    auditor = Auditor(extractor=spec["extractor"], timing=False, timeout=timeout,
                      max_chars=1_000_000)  # the 1 MB case opts in, as a user would with --max-chars
    if spec["extractor"] == "rules":  # load the model before measuring
        auditor.audit(question="Who?", answer="A", long_answer="A met B.")
    record = QARecord(id=case, **spec["record"])
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if trace:
        tracemalloc.start()
    start = time.perf_counter()
    (result,) = list(auditor.audit_many([InputLine(1, record=record)]))
    seconds = time.perf_counter() - start
    py_peak = tracemalloc.get_traced_memory()[1] / 2**20 if trace else None
    status = "ok" if result.status == "ok" else f"error:{result.error.type}"
    out = {
        "case": case, "size": size, "seconds": round(seconds, 2),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "rss_before_mb": round(rss_before, 1), "python_peak_mb": py_peak and round(py_peak, 1),
        "chars": len(record.long_answer), "propositions": len(result.propositions),
        "alternatives": len(result.alternatives), "chain": len(result.chain), "status": status,
        "error": result.error.message[:200] if result.error else None,
        "timeout": timeout, "expected_status": list(CASES[case][2]),
    }
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", help="run one case in this process (used by the driver)")
    parser.add_argument("--quick", action="store_true", help="smaller sizes, for the test")
    parser.add_argument("--json", action="store_true", help="print a JSON list instead of a table")
    parser.add_argument("--tracemalloc", action="store_true", help="also measure the Python heap peak")
    parser.add_argument("--timeout", type=float, default=300,
                        help="the Auditor's per-record limit, as `score --timeout` (default 300)")
    parser.add_argument("--only", nargs="*", help="run only these cases")
    args = parser.parse_args()
    if args.case:
        # never outlive a killed driver for long (SIGALRM belongs to the Auditor's --timeout)
        watchdog = threading.Timer(args.timeout * 2 + 60, os._exit, args=(3,))
        watchdog.daemon = True
        watchdog.start()
        print(json.dumps(run_case(args.case, args.quick, args.tracemalloc, args.timeout)))
        return 0
    rows = []
    for case in args.only or CASES:
        cmd = [sys.executable, __file__, "--case", case, "--timeout", str(args.timeout)] + (
            ["--quick"] if args.quick else []) + (["--tracemalloc"] if args.tracemalloc else [])
        kill_after = args.timeout * 2 + 120  # model load and input building come on top
        wall = time.perf_counter()
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=kill_after)
        except subprocess.TimeoutExpired:
            rows.append({"case": case, "status": "killed", "seconds": round(time.perf_counter() - wall, 2),
                         "peak_rss_mb": 0, "timeout": args.timeout, "expected_status": list(CASES[case][2]),
                         "error": f"still running after {kill_after:g} s; killed"})
            proc = None
        if proc is None:
            pass
        elif proc.returncode != 0:
            rows.append({"case": case, "status": "crashed", "seconds": round(time.perf_counter() - wall, 2),
                         "peak_rss_mb": 0, "timeout": args.timeout, "expected_status": list(CASES[case][2]),
                         "error": proc.stderr[-1500:]})
        else:
            rows.append(json.loads(proc.stdout.strip().splitlines()[-1]))
        if not args.json:
            r = rows[-1]
            print(f"{r['case']:16s} {r.get('size', 0):>9,} {r['status']:17s} {r['seconds']:8.2f} s"
                  f"  peak RSS {r['peak_rss_mb']:7.1f} MB"
                  f" (before {r.get('rss_before_mb', 0):6.1f})  chars {r.get('chars', 0):>9,}"
                  f"  props {r.get('propositions', 0):>7,}  alts {r.get('alternatives', 0)}"
                  + (f"  py-heap {r['python_peak_mb']} MB" if r.get("python_peak_mb") else "")
                  + (f"\n    {r['error']}" if r.get("error") else ""), flush=True)
    if args.json:
        print(json.dumps(rows))
    return 0 if all(r["status"] in r["expected_status"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
