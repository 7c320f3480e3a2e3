"""Time the LLM path at --concurrency 8 against --concurrency 1 and print the ratio.

    python scripts/bench_llm_concurrency.py                 # 64 records, 200 ms per call
    python scripts/bench_llm_concurrency.py -n 32 --latency 0.1 --extract-only

A scripted OpenAI-compatible server on 127.0.0.1 (tests/llm_server.py) answers every call
after `--latency` seconds. Each run audits the same records through `Auditor.audit_many`,
the call `logicscore score` makes, with a fresh cache so every call reaches the server; the
decomposition and the determinateness call are both made unless --extract-only. Prints one
line per concurrency and the ratio; exit 1 when the ratio is below --min-ratio.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from llm_server import FakeLLM

LONG = ("Marta Ellison was born in Dunmore. She starred in the film Glass Harbor [1]. "
        "It was directed by Tobias Renner [2].")
REPLY = {"question_entities": ["Marta Ellison"], "propositions": [
    {"subject": "Marta Ellison", "relation": "born in", "object": "Dunmore",
     "text": "Marta Ellison was born in Dunmore."},
    {"subject": "Marta Ellison", "relation": "starred in", "object": "Glass Harbor",
     "text": "She starred in the film Glass Harbor [1].", "citations": ["[1]"]},
    {"subject": "Glass Harbor", "relation": "directed by", "object": "Tobias Renner",
     "text": "It was directed by Tobias Renner [2].", "citations": ["[2]"]}]}


def records(n: int):
    from logicscore.models import QARecord

    return [QARecord(id=f"r{i}", question="Who directed the film that Marta Ellison starred in?",
                     answer="Tobias Renner", long_answer=f"{LONG} Note {i}.") for i in range(n)]


def timed(base_url: str, concurrency: int, n: int, judge: str) -> tuple[float, int]:
    """Seconds to audit `n` records, and how many came back scored."""
    from logicscore import Auditor

    with tempfile.TemporaryDirectory() as cache:
        auditor = Auditor("llm", judge=judge, timing=False, llm={
            "base_url": base_url, "model": "bench", "cache_dir": cache, "concurrency": concurrency})
        start = time.perf_counter()
        ok = sum(r.status == "ok" for r in auditor.audit_many(records(n)))
        return time.perf_counter() - start, ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", type=int, default=64, help="records (default 64)")
    parser.add_argument("--latency", type=float, default=0.2, help="seconds per call (default 0.2)")
    parser.add_argument("--extract-only", action="store_true", help="rules judge: one call per record")
    parser.add_argument("--min-ratio", type=float, default=5.0)
    args = parser.parse_args()
    os.environ.setdefault("OPENAI_API_KEY", "bench-key")
    judge = "rules" if args.extract_only else "llm"
    with FakeLLM(lambda parts: REPLY, lambda parts: {"answer": "Tobias Renner"},
                 latency=args.latency) as server:
        timed(server.base_url, 8, 2, judge)  # imports and first connections, off the clock
        results = {c: timed(server.base_url, c, args.n, judge) for c in (8, 1)}
        calls = server.count()
    for c, (seconds, ok) in results.items():
        print(f"concurrency {c}: {args.n} records ({ok} scored) in {seconds:.2f} s")
    ratio = results[1][0] / results[8][0]
    per_answer = (calls - 2 * (1 if args.extract_only else 2)) / (2 * args.n)
    print(f"ratio {ratio:.1f}x at {args.latency * 1000:.0f} ms per call; {per_answer:g} calls per answer")
    return 0 if ratio >= args.min_ratio else 1


if __name__ == "__main__":
    sys.exit(main())
