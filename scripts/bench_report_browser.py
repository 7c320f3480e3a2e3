"""Size of `logicscore report --html` on large runs, and how fast Chromium opens and filters it.

Each size is written as a file of valid output records that carry their question, answers
and sentences (the synthetic records of `logicscore.report.synthetic`, each with its own
invented names, so that the page compresses as a real run's does), reported to HTML in a
fresh process, then opened in headless Chromium (Debian's `chromium`, through playwright).
Printed per size: the page's bytes and bytes per record, the time `report` took, the time to
open the page (navigation start to the load event, to the table drawn, and to the details
inflated that search and the record view read), and the time
of a filter, a search, a sort and opening a record, each measured inside the page.

    python3 scripts/bench_report_browser.py                # 10,000 and 100,000 records
    python3 scripts/bench_report_browser.py --sizes 1000
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from logicscore.models import AuditResult  # noqa: E402
from logicscore.report.synthetic import synthetic_run  # noqa: E402

SENTENCES = [("Ana wrote Bel.", "chain", ["P1"]), ("Bel is set in Cor.", "chain", ["P2"]),
             ("Ana likes tea.", "redundant", ["P3"]), ("So the answer is Ana.", "no_proposition", [])]


SYLLABLES = ("al", "bor", "cen", "dra", "el", "fin", "gar", "hol", "is", "jor", "kal", "lun", "mer",
             "nor", "os", "pra", "quin", "ros", "sel", "tar", "ul", "ven", "wil", "yr", "zan")


def _name(rng: random.Random) -> str:
    return " ".join("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))).capitalize()
                    for _ in range(rng.randint(1, 3)))


def _vary(line: str, rng: random.Random) -> str:
    # Every record names its own entities, so the page compresses as a real run does, not as
    # 100,000 copies of one answer.
    for word in ("Ana", "Bel", "Cor", "Dov", "tea"):
        line = line.replace(word, _name(rng))
    return line


def write_run(path: Path, n: int) -> None:
    """`n` synthetic records, each carrying a question, answers and four sentences by role."""
    rng = random.Random(7)
    with path.open("w", encoding="utf-8") as fh:
        for result in synthetic_run(n, seed=1):
            data = json.loads(result.to_json())
            if result.status == "ok":
                at, sentences = 0, []
                for k, (text, role, props) in enumerate(SENTENCES):
                    sentences.append({"index": k, "span": [at, at + len(text)], "role": role,
                                      "propositions": props, "text": text})
                    at += len(text) + 1
                data.update(question=f"Which writer of a novel set in Cor, question {result.id}, is it?",
                            answer="Ana", gold_answer="Ana", sentences=sentences)
            fh.write(_vary(AuditResult.model_validate(data).to_json(), rng) + "\n")


def render(run: Path, out: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "logicscore", "report", str(run), "--html", str(out)],
                   env=env, check=True, capture_output=True)
    return time.perf_counter() - start


MEASURE = """([id, value, event]) => {
  const el = document.getElementById(id), t = performance.now();
  el.value = value; el.dispatchEvent(new Event(event));
  return [performance.now() - t, document.getElementById("count").textContent];
}"""


def browse(page_path: Path, profile: Path) -> dict[str, float | str]:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("Chromium is not installed: apt-get install -y chromium")
    errors: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch_persistent_context(
            str(profile), executable_path=chromium, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--no-first-run"], viewport={"width": 1300, "height": 900})
        page = browser.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(page_path.as_uri(), wait_until="load", timeout=120_000)
        # The page stamps <body data-table> with the time the table was drawn, and <body
        # data-ready> with the time it had also inflated the details that search and the
        # record view read (milliseconds since navigation start).
        page.wait_for_selector("body[data-ready]", state="attached", timeout=120_000)
        table = float(page.get_attribute("body", "data-table") or "nan")
        ready = float(page.get_attribute("body", "data-ready") or "nan")
        load = page.evaluate("() => performance.getEntriesByType('navigation')[0].loadEventEnd")
        filt, count = page.evaluate(MEASURE, ["f-cat", "1", "change"])
        page.evaluate(MEASURE, ["f-cat", "", "change"])
        # Matches s999, s9990…s9999, s99900…: a search that hits a few records among all.
        search, found = page.evaluate(MEASURE, ["f-search", "s999", "change"])
        page.evaluate(MEASURE, ["f-search", "", "change"])
        sort = page.evaluate("() => { const t = performance.now();"
                             " document.querySelector('#head th:nth-child(6) button').click();"
                             " return performance.now() - t; }")
        opened = page.evaluate("() => { const t = performance.now();"
                               " document.querySelector('#body tr[data-i]').click();"
                               " return performance.now() - t; }")
        browser.close()
    if errors:
        raise SystemExit(f"the page raised: {errors}")
    return {"table_ms": table, "ready_ms": ready, "load_ms": load, "filter_ms": filt, "filtered": count,
            "search_ms": search, "found": found, "sort_ms": sort, "record_ms": opened}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    args = parser.parse_args()
    print(f"{'records':>9} {'MB':>7} {'B/rec':>6} {'report s':>9} {'load ms':>8} {'table ms':>9} "
          f"{'ready ms':>9} {'filter ms':>10} {'search ms':>10} {'sort ms':>8} {'record ms':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            run, page = Path(tmp) / f"run{n}.jsonl", Path(tmp) / f"run{n}.html"
            write_run(run, n)
            seconds = render(run, page)
            size = page.stat().st_size
            m = browse(page, Path(tmp) / f"profile{n}")
            print(f"{n:>9} {size / 1e6:>7.1f} {size / n:>6.0f} {seconds:>9.1f} {m['load_ms']:>8.0f} "
                  f"{m['table_ms']:>9.0f} {m['ready_ms']:>9.0f} {m['filter_ms']:>10.0f} "
                  f"{m['search_ms']:>10.0f} {m['sort_ms']:>8.0f} {m['record_ms']:>10.0f}"
                  f"   ({m['filtered']} broken; search: {m['found']})")


if __name__ == "__main__":
    main()
