"""Kill `logicscore score` with SIGKILL mid-run, resume it, and check nothing was lost.

    python scripts/kill_resume_soak.py            # 20 rounds, given extractor
    python scripts/kill_resume_soak.py -n 5 --rules

Each round: write an input (records carrying `propositions`, plus a few bad lines), start
`python -m logicscore score IN -o OUT --no-timing`, SIGKILL it at a random moment once it
has written some records (sometimes twice, with a resume in between), then run the same
command with `--resume` to the end. The round passes when OUT holds every input line
exactly once, in input order (`meta.line` 1..N), the ids match the input, and OUT is
byte-identical to an uninterrupted run. Prints the pass count; exit 1 on any failure.
tests/test_reliability.py imports `run_round` from this file.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAMES = ["Orla Vantrese", "Dunmore", "Glass Harbor", "Tobias Renner", "Kest Avalon", "Miro Pelland",
         "Quillon Bay", "Saskia Thorn", "Velmont", "Harrow Creek", "Ilsa Moravec", "Brannock"]
RELATIONS = ["was born in", "starred in", "directed", "is located in", "founded", "married"]
BAD_EVERY = 97  # every 97th input line is broken JSON: an InputError record, kept in order


def make_input(path: Path, n: int, seed: int, rules: bool = False) -> list[str]:
    """Write `n` input lines (a few of them bad); return the id each line should get."""
    rng = random.Random(seed)
    ids: list[str] = []
    with path.open("w", encoding="utf-8") as fh:
        for i in range(1, n + 1):
            if i % BAD_EVERY == 0:  # bad lines are records too: an InputError each, kept in order
                fh.write('{"id": "broken-%d", "question": \n' % i)
                ids.append(str(i))  # unreadable JSON: the record's id is its line number
                continue
            chain = rng.sample(NAMES, k=rng.randint(2, 6))
            props = [{"subject": a, "relation": rng.choice(RELATIONS), "object": b}
                     for a, b in zip(chain, chain[1:])]
            rng.shuffle(props)
            text = " ".join(f"{p['subject']} {p['relation']} {p['object']} [Doc{k}]."
                            for k, p in enumerate(props, 1))
            record = {"id": f"r{i}", "question": f"What is connected to {chain[0]}?",
                      "answer": chain[-1], "long_answer": text, "hops": len(props),
                      "meta": {"i": i}}
            if not rules:  # fully decomposed input: no spaCy at all on this path
                record["propositions"] = props
                record["question_entities"] = [chain[0]]
            fh.write(json.dumps(record) + "\n")
            ids.append(f"r{i}")
    return ids


def _cmd(inp: Path, out: Path, rules: bool, resume: bool) -> list[str]:
    cmd = [sys.executable, "-m", "logicscore", "score", str(inp), "-o", str(out),
           "--no-timing", "--quiet", "--extractor", "rules" if rules else "given"]
    return cmd + (["--resume"] if resume else [])


def _lines(path: Path) -> int:
    try:
        with path.open("rb") as fh:
            return sum(1 for _ in fh)
    except FileNotFoundError:
        return 0


def _kill_midway(cmd: list[str], out: Path, n: int, rng: random.Random, timeout: float) -> int:
    """Start `cmd`, SIGKILL it after it wrote a random number of records; return lines seen."""
    target = rng.randint(1, max(1, n // 2))
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + timeout
    try:
        while _lines(out) < target and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.002)
        time.sleep(rng.random() * 0.01)  # land anywhere, mid-write included
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        proc.stderr.close()
    return _lines(out)


def run_round(workdir: Path, seed: int, n: int = 1500, rules: bool = False, kills: int | None = None,
              reference: Path | None = None, timeout: float = 120.0) -> tuple[bool, str]:
    """One kill-and-resume round; returns (passed, explanation)."""
    rng = random.Random(seed)
    inp, out = workdir / f"in-{seed}.jsonl", workdir / f"out-{seed}.jsonl"
    expected_ids = make_input(inp, n, seed=0, rules=rules)  # same input each round: one reference
    kills = kills if kills is not None else rng.choice([1, 1, 2])
    seen, torn = [], 0
    for k in range(kills):
        seen.append(_kill_midway(_cmd(inp, out, rules, resume=k > 0), out, n, rng, timeout))
        tail = out.read_bytes()[-1:] if out.exists() else b""
        torn += tail not in (b"", b"\n")  # killed mid-write: resume must cut this line
    if seen[-1] >= n:
        return False, f"inconclusive: the run finished before the kill ({seen}); use a bigger input"
    done = subprocess.run(_cmd(inp, out, rules, resume=True), cwd=ROOT, capture_output=True,
                          timeout=timeout)
    if done.returncode != 0:
        return False, f"resume exited {done.returncode}: {done.stderr.decode()[-2000:]}"
    records = [json.loads(line) for line in out.read_bytes().splitlines()]
    lines = [r["meta"]["line"] for r in records]
    if lines != list(range(1, n + 1)):
        dup = sorted({x for x in lines if lines.count(x) > 1})[:5]
        return False, f"meta.line not 1..{n} in order (killed at {seen}; {len(lines)} records, dup {dup})"
    ids = [r["id"] for r in records]
    if ids != expected_ids:
        bad = next(i for i, (a, b) in enumerate(zip(ids, expected_ids)) if a != b)
        return False, f"id mismatch at line {bad + 1}: {ids[bad]!r} != {expected_ids[bad]!r}"
    statuses = [r["status"] == "ok" for r in records]
    if statuses != [i % BAD_EVERY != 0 for i in range(1, n + 1)]:
        return False, "status mismatch: a good line errored or a bad line scored"
    if reference is not None and out.read_bytes() != reference.read_bytes():
        return False, f"resumed output differs from an uninterrupted run (killed at {seen})"
    return True, f"killed at {seen} of {n} lines{' (torn last line)' if torn else ''}, resumed to {n}"


def reference_run(workdir: Path, n: int, rules: bool, timeout: float = 300.0) -> Path:
    """An uninterrupted run over the same input, to compare bytes with."""
    inp, out = workdir / "in-ref.jsonl", workdir / "out-ref.jsonl"
    make_input(inp, n, seed=0, rules=rules)
    subprocess.run(_cmd(inp, out, rules, resume=False), cwd=ROOT, check=True, timeout=timeout,
                   capture_output=True)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--rounds", type=int, default=20)
    parser.add_argument("--records", type=int, default=None, help="input lines (default 1500; 150 with --rules)")
    parser.add_argument("--rules", action="store_true", help="use the spaCy rules extractor (slow)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    n = args.records or (150 if args.rules else 1500)
    passed = 0
    with tempfile.TemporaryDirectory(prefix="logicscore-soak-") as tmp:
        workdir = Path(tmp)
        reference = reference_run(workdir, n, args.rules)
        for i in range(args.rounds):
            ok, why = run_round(workdir, seed=args.seed + i, n=n, rules=args.rules, reference=reference)
            passed += ok
            print(f"round {i + 1:2d}: {'PASS' if ok else 'FAIL'}  {why}", flush=True)
    print(f"{passed}/{args.rounds} rounds passed")
    return 0 if passed == args.rounds else 1


if __name__ == "__main__":
    sys.exit(main())
