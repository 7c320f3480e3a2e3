"""Peak memory of `logicscore score` on 10,000 and on 100,000 streamed records, one run.

    python scripts/bench_memory.py                    # 10,000 vs 100,000 given-path records
    python scripts/bench_memory.py --sizes 1000 10000
    python scripts/bench_memory.py --extractor rules  # short answers, parsed (much slower)
    python scripts/bench_memory.py --workers 2        # the same through two worker processes

Each size is a fresh `python -m logicscore score FILE -o OUT --no-timing -q` process on a
generated file (a short two-hop answer per record, every name numbered so no two records are
alike), and its peak resident set comes from `wait4`. Streaming means the peak does not grow
with the input: the target is RSS(100,000) <= 1.2 x RSS(10,000). With `--workers`, the
figure is the parent's; each worker streams its windows the same way.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIZES = (10_000, 100_000)


def record(i: int, given: bool) -> dict:
    """A two-hop answer whose names carry `i`, so no cache sees the same record twice."""
    actor, film, director = f"Aldo Ven{i}", f"Film Qua{i}", f"Mira Tor{i}"
    row = {"id": str(i), "question": f"Who directed the film that stars {actor}?",
           "answer": director, "long_answer": f"{actor} starred in {film}. {film} was "
                                              f"directed by {director}."}
    if given:
        row["question_entities"] = [actor]
        row["propositions"] = [{"subject": actor, "relation": "starred in", "object": film},
                               {"subject": film, "relation": "directed by", "object": director}]
    return row


def write_input(path: Path, n: int, given: bool) -> None:
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            fh.write(json.dumps(record(i, given)) + "\n")


def peak_rss(args: list[str]) -> tuple[float, float]:
    """(peak RSS in MB, wall seconds) of one child process running `args`."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    start = time.perf_counter()
    proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)} exited {proc.returncode}")
    return usage.ru_maxrss / 1024, time.perf_counter() - start  # Linux reports kB


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs=2, default=list(SIZES), metavar=("SMALL", "LARGE"))
    parser.add_argument("--extractor", choices=("given", "rules"), default="given")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            src, out = Path(tmp) / f"in-{n}.jsonl", Path(tmp) / f"out-{n}.jsonl"
            write_input(src, n, args.extractor == "given")
            mb, seconds = peak_rss([sys.executable, "-m", "logicscore", "score", str(src), "-o",
                                    str(out), "--no-timing", "-q", "--extractor", args.extractor,
                                    "--workers", str(args.workers)])
            rows.append((n, mb, seconds))
            print(f"{n:>9,} records  peak RSS {mb:7.1f} MB  {seconds:7.1f} s "
                  f"({n / seconds:,.0f} records/s)", flush=True)
            src.unlink()
            out.unlink()
    (small, rss_small, _), (large, rss_large, _) = rows
    print(f"RSS({large:,}) / RSS({small:,}) = {rss_large / rss_small:.3f}  (target <= 1.2)   "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
