"""Fuzz the JSONL reader and the rules extractor with hypothesis, for a fixed time.

    python scripts/fuzz.py --minutes 5                 # both targets, half the time each
    python scripts/fuzz.py --target reader --minutes 2

Targets:
  reader     random and mutated bytes (valid records, the bad-input corpus, JSON fragments)
             through io.read_lines -> Auditor(given).audit_many -> ResultWriter. Must never
             raise; one InputLine and one written record per physical line, each parseable.
  extractor  random and mutated long answers, questions and short answers through the rules
             path (Auditor().audit). Must never raise; spans inside the text; one JSON line.

A failure is shrunk by hypothesis and appended to tests/data/fuzz_crashers.jsonl, which
tests/test_reliability.py replays as regression tests. Exit 1 when anything was found.
"""

from __future__ import annotations

import argparse
import io as pyio
import json
import random
import sys
import time
import traceback
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from logicscore import Auditor, io  # noqa: E402

CRASHERS = ROOT / "tests" / "data" / "fuzz_crashers.jsonl"
GOOD = {"id": "f", "question": "Who directed the film that Alma Reyes starred in?", "answer": "Tovar Quintel",
        "long_answer": "Alma Reyes starred in Glimmer Ponds [Doc1]. It was directed by Tovar Quintel.",
        "propositions": [{"subject": "Alma Reyes", "relation": "starred in", "object": "Glimmer Ponds"},
                         {"subject": "Glimmer Ponds", "relation": "directed by", "object": "Tovar Quintel"}]}
FRAGMENTS = [b"{", b"}", b"[", b"]", b'"', b"\\", b"\\u", b"\\ud800", b":", b",", b"null", b"NaN", b"1e999",
             b"\n", b"\r\n", b"\r", b"\xef\xbb\xbf", b"\xff", b"\xc3", b"\x00", b'"id"', b'"meta"',
             b'"long_answer"', b'"propositions"', b"-0", b"true", b"9" * 50]
WORDS = ["Alma Reyes", "Tovar Quintel", "Glimmer Ponds", "she", "it", "they", "the film", "was born in",
         "directed", "is", "not", "reportedly", "and", "which", "[Doc1]", "[2]", "So the answer is", ".",
         ",", ";", "?", "!", "\n", "'s", "(", ")", "1999", "American", "\u200d", "\u202e", "<b>", "**",
         "\x00", "\u00ad", "\ufeff", "Mr.", "e.g.", "U.S.", "—", "“", "”", "…", "http://x.y/z?a=[1]"]


def _seeds() -> list[bytes]:
    seeds = [json.dumps(GOOD).encode(), json.dumps({k: v for k, v in GOOD.items() if k != "propositions"}).encode()]
    bad = ROOT / "tests" / "data" / "bad_input.jsonl"
    if bad.exists():
        seeds += bad.read_bytes().split(b"\n")
    return seeds


def _mutate(data: bytes, rnd: random.Random) -> bytes:
    buf = bytearray(data)
    for _ in range(rnd.randint(1, 6)):
        op = rnd.randrange(5)
        pos = rnd.randint(0, len(buf))
        if op == 0 and buf:
            del buf[pos:pos + rnd.randint(1, 8)]
        elif op == 1:
            buf[pos:pos] = rnd.choice(FRAGMENTS)
        elif op == 2 and buf:
            buf[min(pos, len(buf) - 1)] = rnd.randrange(256)
        elif op == 3:
            buf[pos:pos] = bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 4)))
        else:
            buf = buf[:pos]
    return bytes(buf)


@st.composite
def reader_inputs(draw) -> bytes:
    seeds = _seeds()
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    lines = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.integers(0, 3))
        if kind == 0:
            lines.append(draw(st.binary(max_size=60)))
        elif kind == 1:
            lines.append(b"".join(draw(st.lists(st.sampled_from(FRAGMENTS), max_size=12))))
        else:
            lines.append(_mutate(rnd.choice(seeds), rnd))
    return b"\n".join(lines)


@st.composite
def extractor_inputs(draw) -> dict:
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    base = GOOD["long_answer"]
    text = draw(st.one_of(
        st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=10)), max_size=50).map(" ".join),
        st.just(base).map(lambda b: _mutate(b.encode(), rnd).decode("utf-8", "replace")),
        st.text(max_size=200),
    ))
    question = draw(st.one_of(st.just(GOOD["question"]), st.text(max_size=60),
                              st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join)))
    answer = draw(st.one_of(st.sampled_from(["Tovar Quintel", "Alma Reyes", "", " ", "1999"]), st.text(max_size=20)))
    return {"question": question, "answer": answer, "long_answer": text}


class Fuzzer:
    def __init__(self) -> None:
        self.given = Auditor(extractor="given", timing=False, timeout=30)
        self.rules = Auditor(timing=False, timeout=30)
        self.last: object = None

    def check_reader(self, raw: bytes) -> None:
        self.last = raw
        lines = list(io.read_lines(pyio.BytesIO(raw)))
        physical = raw.count(b"\n") + (not raw.endswith(b"\n")) if raw else 0
        assert len(lines) == physical, (len(lines), physical)
        assert [x.number for x in lines] == list(range(1, physical + 1))
        for x in lines:
            assert (x.record is None) != (x.error is None)
        out = pyio.StringIO()
        writer = io.ResultWriter(out)
        results = list(self.given.audit_many(lines))
        assert len(results) == physical
        for r in results:
            writer.write(r)
            assert r.status == "ok" or r.error.type != "RuntimeError", r.error.message
        written = out.getvalue().encode("utf-8").split(b"\n")
        assert written[-1] == b"" and len(written) - 1 == physical
        for line in written[:-1]:
            json.loads(line)

    def check_extractor(self, record: dict) -> None:
        self.last = record
        result = self.rules.audit(**record)
        assert result.status == "ok"
        for p in result.propositions:
            assert 0 <= p.span[0] <= p.span[1] <= len(record["long_answer"]), p
        line = result.to_json()
        assert "\n" not in line
        json.loads(line)


def _save(target: str, value: object, exc: BaseException) -> dict:
    case = {"name": f"{target}-{int(time.time())}-{random.randrange(10**6)}", "target": target,
            "error": f"{type(exc).__name__}: {str(exc)[:300]}"}
    if target == "reader":
        case["hex"] = value.hex()
    else:
        case["record"] = {"id": "fuzz", **value}
    with CRASHERS.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(case, ensure_ascii=True) + "\n")
    return case


def fuzz(target: str, seconds: float, fuzzer: Fuzzer) -> tuple[int, int, list[dict]]:
    """Run batches until `seconds` pass; return (examples, batches, crashers)."""
    strategy = reader_inputs() if target == "reader" else extractor_inputs()
    check = fuzzer.check_reader if target == "reader" else fuzzer.check_extractor
    count = [0]

    def body(value):
        count[0] += 1
        check(value)

    found: list[dict] = []
    batches = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        batches += 1
        test = settings(max_examples=200 if target == "reader" else 40, deadline=None, database=None,
                        derandomize=False, suppress_health_check=list(HealthCheck))(given(strategy)(body))
        try:
            test()
        except Exception as exc:  # noqa: BLE001 - every failure is a finding
            case = _save(target, fuzzer.last, exc)
            found.append(case)
            print(f"  CRASHER {case['name']}: {case['error']}", flush=True)
            traceback.print_exception(exc, limit=3, file=sys.stderr)
    return count[0], batches, found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=4.0)
    parser.add_argument("--target", choices=["reader", "extractor", "both"], default="both")
    args = parser.parse_args()
    targets = ["reader", "extractor"] if args.target == "both" else [args.target]
    fuzzer = Fuzzer()
    total_found = 0
    for target in targets:
        seconds = args.minutes * 60 / len(targets)
        start = time.monotonic()
        n, batches, found = fuzz(target, seconds, fuzzer)
        total_found += len(found)
        print(f"{target}: {n} examples in {time.monotonic() - start:.0f} s ({batches} batches), "
              f"{len(found)} crashers", flush=True)
    return 1 if total_found else 0


if __name__ == "__main__":
    sys.exit(main())
