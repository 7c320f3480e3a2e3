"""Throughput of `logicscore score` against raw spaCy `nlp.pipe` over the same long answers.

    python scripts/bench_throughput.py                   # every corpus below, one round
    python scripts/bench_throughput.py --sets fireact    # one corpus
    python scripts/bench_throughput.py --rounds 3        # alternate the runs, best of three
    python scripts/bench_throughput.py --workers-only    # --workers 1 vs 2 on 2,000 answers

Whole process against whole process: each figure is a fresh `python` process, model load
included. The auditor is `python -m logicscore score FILE -o OUT --no-timing -q`; raw spaCy
is a process that loads the full `en_core_web_sm` pipeline (every component, the lemmatizer
too) and runs `nlp.pipe(long_answers, batch_size=64)` over the same file. The ratio is
answers/s of the auditor over answers/s of raw spaCy (target >= 0.80). The CLI starts with
OPENBLAS_NUM_THREADS=1 (unless set) and its pipeline multiplies matrices with numpy's BLAS
rather than blis (`logicscore.parsing.matmul`): the CPU ratio is also printed against a raw process
given both settings, so that part of the gain is visible on its own. Then `--workers 2`
against `--workers 1` on at least 2,000 real answers (target >= 1.6 on two idle cores).

Corpora: `fireact` (336 LLM answers, ../shared/data/llm-answers), `gold` (HotpotQA and
2Wiki gold supporting sentences as long answers, from scripts/real_cases.py), `fictional`
(corpora/fictional-v1.jsonl). The machine may be shared, so the load average is printed
beside every ratio and the runs of a round alternate; beside wall time, each process's CPU
time (user + system, which other work moves less) gives a second ratio. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SETS = ("fireact", "gold", "fictional")
WORKERS_ANSWERS = 2_000


def _env(**extra: str) -> dict:
    return dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
                **extra)


def _data() -> Path:
    from benchmarks.realdata import locate_data

    return locate_data(Path(__file__))


def write_set(name: str, folder: Path) -> Path:
    """The corpus `name` as a JSONL file in `folder`."""
    path = folder / f"{name}.jsonl"
    if name == "fireact":
        path.write_bytes((_data() / "llm-answers" / "fireact_hotpotqa.jsonl").read_bytes())
    elif name == "fictional":
        path.write_bytes((ROOT / "corpora" / "fictional-v1.jsonl").read_bytes())
    elif name == "gold":
        everything = folder / "real-all.jsonl"
        _real_cases(everything, "--dataset", "hotpot", "--dataset", "2wiki")
        rows = [line for line in everything.read_text().splitlines() if '#gold"' in line]
        path.write_text("".join(r + "\n" for r in rows))
    elif name == "real":
        _real_cases(path)
    else:
        raise SystemExit(f"unknown set {name!r}; one of {', '.join(SETS)}")
    return path


def _real_cases(path: Path, *extra: str) -> None:
    subprocess.run([sys.executable, str(ROOT / "scripts" / "real_cases.py"), "-o", str(path), *extra],
                   check=True, env=_env(), stdout=subprocess.DEVNULL)


CPU: dict[str, float] = {}  # CPU seconds (user + system) of the last process of each kind


def _timed(args: list[str], kind: str = "", **env: str) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(args, check=True, env=_env(**env), cwd=ROOT, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU[kind] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return time.perf_counter() - start


def auditor_seconds(path: Path, workers: int = 1) -> float:
    out = path.with_suffix(f".w{workers}.out")
    return _timed([sys.executable, "-m", "logicscore", "score", str(path), "-o", str(out),
                   "--no-timing", "-q", "--workers", str(workers)], "auditor")


def raw_seconds(path: Path, *flags: str, **env: str) -> float:
    return _timed([sys.executable, __file__, "--raw", str(path), "--model", _model(), *flags],
                  "raw", **env)


def _model() -> str:
    """The pipeline package the auditor loads by default, found here so that the raw process
    imports spaCy alone (importing logicscore there would charge raw for our imports)."""
    from logicscore.parsing.loader import DEFAULT_MODELS, installed_package

    return next(n for n in DEFAULT_MODELS if installed_package(n) is not None)


def raw_pipe(path: Path, model: str, numpy_products: bool = False) -> None:
    """The baseline process: the full pipeline, nothing disabled, batch 64 (its matrices
    multiplied by numpy rather than blis, with `numpy_products`, as the auditor's are)."""
    import contextlib

    import spacy
    from thinc.api import use_ops

    with use_ops("numpy", use_blis=False) if numpy_products else contextlib.nullcontext():
        nlp = spacy.load(model)
    texts = [json.loads(line)["long_answer"] for line in path.open(encoding="utf-8") if line.strip()]
    for _ in nlp.pipe(texts, batch_size=64):
        pass


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def compare_raw(path: Path, rounds: int) -> dict:
    n = sum(1 for line in path.open(encoding="utf-8") if line.strip())
    best_a = best_r = cpu_a = cpu_r = cpu_s = float("inf")
    for _ in range(rounds):
        best_r = min(best_r, raw_seconds(path))
        cpu_r = min(cpu_r, CPU["raw"])
        # the CLI's settings: one BLAS thread, numpy's products
        raw_seconds(path, "--numpy-products", OPENBLAS_NUM_THREADS="1")
        cpu_s = min(cpu_s, CPU["raw"])
        best_a = min(best_a, auditor_seconds(path))
        cpu_a = min(cpu_a, CPU["auditor"])
    return {"answers": n, "auditor_s": round(best_a, 2), "raw_s": round(best_r, 2),
            "auditor_per_s": round(n / best_a, 1), "raw_per_s": round(n / best_r, 1),
            "ratio": round(best_r / best_a, 3), "auditor_cpu_s": round(cpu_a, 2),
            "raw_cpu_s": round(cpu_r, 2), "cpu_ratio": round(cpu_r / cpu_a, 3),
            "raw_cli_settings_cpu_s": round(cpu_s, 2), "cpu_ratio_cli_settings": round(cpu_s / cpu_a, 3),
            "load": _load()}


def compare_workers(path: Path, rounds: int) -> dict:
    n = sum(1 for line in path.open(encoding="utf-8") if line.strip())
    one = two = float("inf")
    for _ in range(rounds):
        one = min(one, auditor_seconds(path, 1))
        two = min(two, auditor_seconds(path, 2))
    same = path.with_suffix(".w1.out").read_bytes() == path.with_suffix(".w2.out").read_bytes()
    return {"answers": n, "workers1_s": round(one, 2), "workers2_s": round(two, 2),
            "speedup": round(one / two, 3), "identical": same, "cpus": os.cpu_count(),
            "load": _load()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=SETS)
    parser.add_argument("--rounds", type=int, default=1, help="alternating runs; best of each")
    parser.add_argument("--workers-only", action="store_true")
    parser.add_argument("--no-workers", action="store_true", help="skip --workers 1 vs 2")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--raw", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--model", help=argparse.SUPPRESS)
    parser.add_argument("--numpy-products", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.raw:
        raw_pipe(args.raw, args.model, args.numpy_products)
        return 0
    # Byte-compiled first, as `pip install` leaves a package; with PYTHONDONTWRITEBYTECODE set,
    # a checkout would otherwise compile its modules again in every timed process.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "logicscore")], check=True)
    report: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in [] if args.workers_only else args.sets:
            row = report[name] = compare_raw(write_set(name, Path(tmp)), args.rounds)
            if not args.json:
                print(f"{name:<10} {row['answers']:>5} answers  auditor {row['auditor_per_s']:6.1f}/s"
                      f"  raw nlp.pipe {row['raw_per_s']:6.1f}/s  ratio {row['ratio']:.2f}"
                      f"  CPU {row['auditor_cpu_s']:.2f} s vs {row['raw_cpu_s']:.2f} s,"
                      f" ratio {row['cpu_ratio']:.2f} (raw with the CLI's BLAS settings too:"
                      f" {row['cpu_ratio_cli_settings']:.2f})"
                      f"  (target >= 0.80; load average {row['load']})", flush=True)
        if not args.no_workers:
            real = write_set("real", Path(tmp))
            rows = real.read_text().splitlines()[:max(WORKERS_ANSWERS, 1)]
            real.write_text("".join(r + "\n" for r in rows))
            row = report["workers"] = compare_workers(real, args.rounds)
            if not args.json:
                print(f"workers    {row['answers']:>5} answers  --workers 1 {row['workers1_s']:.1f} s"
                      f"  --workers 2 {row['workers2_s']:.1f} s  speedup {row['speedup']:.2f}"
                      f"  identical {row['identical']}  (target >= 1.6 on {row['cpus']} cores;"
                      f" load average {row['load']})", flush=True)
    if args.json:
        print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
