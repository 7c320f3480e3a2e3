"""Time `logicscore report` on synthetic runs and show that its memory stays flat.

Each size is written as a file of valid output records, then reported in a fresh process
(`python -m logicscore report FILE --md OUT`), whose wall time and peak RSS are printed.

    python3 scripts/bench_report.py                 # 10,000 and 100,000 records
    python3 scripts/bench_report.py --sizes 1000 20000
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from logicscore.report.synthetic import synthetic_run  # noqa: E402


def write_run(path: Path, n: int) -> None:
    with path.open("w", encoding="utf-8") as fh:
        for result in synthetic_run(n, seed=1):
            fh.write(result.to_json() + "\n")


def time_report(path: Path, out: Path) -> tuple[float, float]:
    """(seconds, peak RSS in MiB) of one `report` run in its own process."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    # wait4 gives the child's own peak RSS, not the maximum over every child so far.
    proc = subprocess.Popen([sys.executable, "-m", "logicscore", "report", str(path), "--md", str(out)],
                            env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"report failed on {path}")
    return seconds, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    args = parser.parse_args()
    print(f"{'records':>9} {'seconds':>8} {'peak RSS MiB':>13}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            run = Path(tmp) / f"run{n}.jsonl"
            write_run(run, n)
            seconds, rss = time_report(run, Path(tmp) / "report.md")
            print(f"{n:>9} {seconds:>8.1f} {rss:>13.1f}", flush=True)


if __name__ == "__main__":
    main()
