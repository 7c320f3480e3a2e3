"""The HTML report as a record browser, opened in headless Chromium (Debian's).

The records are the auditor's output on the fictional corpus, written as JSONL with the fields
that describe a record (question, short and gold answer, the long answer's sentences by role)
and read back, as `report` reads a run.
"""

import base64
import gzip
import io
import itertools
import json
import re
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import chromium as chromium_binary

from logicscore.models import AuditResult
from logicscore.report.browse import RecordIndex
from logicscore.report.html import html_report, render_html
from logicscore.report.synthetic import make_result, synthetic_run
from tests.hostile_strings import HOSTILE

ROOT = Path(__file__).parents[1]
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _chromium() -> str:
    path = chromium_binary()
    assert path is not None, "the browser marker skips these tests without chromium (tests/conftest.py)"
    return path


def describe(result: AuditResult, case: dict) -> dict:
    """`result` as a JSONL record that carries its question, answers and sentences by role."""
    data = json.loads(result.to_json())
    if result.status != "ok":
        return data
    chain = set(result.chain)
    redundant = set(result.diagnosis.redundant)
    text = case["long_answer"]
    by_sentence: dict[int, list] = {}
    for p in result.propositions:
        by_sentence.setdefault(p.sentence, []).append(p)
    sentences = []
    for index, props in sorted(by_sentence.items()):
        start, end = min(p.span[0] for p in props), max(p.span[1] for p in props)
        ids = [p.id for p in props]
        role = "chain" if chain & set(ids) else "redundant" if redundant & set(ids) else "no_proposition"
        sentences.append({"index": index, "span": [start, end], "role": role, "propositions": ids,
                          "text": text[start:end]})
    sentences.append({"index": len(sentences), "span": [len(text), len(text)], "role": "no_proposition",
                      "propositions": [], "text": "That is all."})
    data.update(question=case["question"], answer=case["answer"], gold_answer=case["answer"],
                sentences=sentences)
    return data


@pytest.fixture(scope="session")
def run_file(auditor, tmp_path_factory):
    from logicscore import io as lio

    # A subset keeps the test fast; 150 cases cover every failure type and hop count.
    with (ROOT / "corpora/fictional-v1.jsonl").open("rb") as fh:
        lines = list(itertools.islice(fh, 150))
    cases = [json.loads(line) for line in lines]
    results = list(auditor.audit_many(lio.read_lines(io.BytesIO(b"".join(lines)))))
    path = tmp_path_factory.mktemp("run") / "run.jsonl"
    path.write_text("".join(json.dumps(describe(r, c)) + "\n" for r, c in zip(results, cases)),
                    encoding="utf-8")
    return path


def _report(path: Path, out: Path, *extra: str) -> Path:
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    subprocess.run([sys.executable, "-m", "logicscore", "report", str(path), "--html", str(out), *extra],
                   check=True, env=env, capture_output=True)
    return out


@pytest.fixture(scope="session")
def html_report_file(run_file):
    return _report(run_file, run_file.with_suffix(".html"))


def expect(locator):
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(locator)


@contextmanager
def chromium(tmp_path, width=1200, height=900):
    from playwright.sync_api import sync_playwright

    events = {"errors": [], "requests": [], "dialogs": []}
    with sync_playwright() as pw:
        browser = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=_chromium(), args=CHROMIUM_FLAGS,
            headless=True, viewport={"width": width, "height": height})
        page = browser.new_page()
        page.on("console", lambda m: m.type in ("error", "warning") and events["errors"].append(m.text))
        page.on("pageerror", lambda e: events["errors"].append(str(e)))
        page.on("request", lambda r: events["requests"].append(r.url))

        def dialog(d):
            events["dialogs"].append(d.message)
            d.dismiss()
        page.on("dialog", dialog)
        yield page, events
        browser.close()


def _visible(page) -> list[str]:
    return page.eval_on_selector_all("#body tr[data-i]", "rows => rows.map(r => r.cells[1].textContent)")


def _non_blank(png: bytes) -> float:
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("L")
    histogram = image.histogram()
    return sum(histogram[:235]) / sum(histogram)


@pytest.mark.slow
@pytest.mark.browser  # skips, naming the install, without playwright or chromium (tests/conftest.py)
def test_report_html_browses_filters_and_opens_records(html_report_file, tmp_path):
    path = html_report_file
    with chromium(tmp_path) as (page, events):
        page.goto(path.as_uri())
        page.wait_for_selector("body[data-ready]", state="attached")
        page.wait_for_load_state("networkidle")
        total = page.locator("#count").text_content()
        assert total == "150 of 150 records"
        charts = page.locator("figure.chart svg")
        assert charts.count() == 3
        assert all(_non_blank(charts.nth(i).screenshot()) > 0.02 for i in range(3))
        # Filter by failure type: every visible row is broken, and fewer than all.
        page.select_option("#f-cat", "1")  # broken
        broken = int(re.match(r"(\d+)", page.locator("#count").text_content()).group(1))
        assert 0 < broken < 150 and set(_visible(page)) == {"broken"}
        selection = page.locator("#selection svg").get_attribute("aria-label")
        assert f"broken {broken}" in selection and "complete 0" in selection
        # Search by text within the filter, then by id.
        page.fill("#f-search", "Pralania")
        expect(page.locator("#count")).not_to_have_text(re.compile(f"^{broken} of"))
        found = int(page.locator("#count").text_content().split()[0])
        assert 0 < found < broken
        page.click("#f-reset")
        page.fill("#f-search", "fv1-0007")
        expect(page.locator("#count")).to_have_text("1 of 150 records")
        assert page.eval_on_selector_all("#body tr[data-i]", "r => r.map(x => x.cells[0].textContent)") \
            == ["fv1-0007"]
        # Sorting by id descending puts the last record first.
        page.click("#f-reset")
        page.click("#head th:nth-child(1) button")
        page.click("#head th:nth-child(1) button")
        assert page.locator("#head th:nth-child(1)").get_attribute("aria-sort") == "descending"
        assert page.locator("#body tr[data-i] td").first.text_content() == "fv1-0149"
        # Open a broken record from the keyboard: sentences by role, the graph with its gap.
        page.select_option("#f-cat", "1")
        page.locator("#body tr[data-i]").first.focus()
        page.keyboard.press("ArrowDown")
        page.keyboard.press("Enter")
        record = page.locator("#record")
        assert record.is_visible()
        assert record.locator("ol.sentences > li.no_proposition").count() >= 1
        assert record.locator("ol.sentences > li").count() >= 2
        assert record.locator("svg.chain-graph .gap").count() >= 1
        assert record.locator(".legend li").count() == 8
        assert record.locator("mark.anchor").count() >= 1
        assert "No statement links" in record.locator(".gapline").first.text_content()
        graph_ink = _non_blank(record.locator("svg.chain-graph").screenshot())
        # Node labels are never cut: each label's lines rejoin into the node's full name.
        for node in record.locator("svg.chain-graph .node").all()[:6]:
            title = node.locator("title").text_content()
            lines = " ".join(t.text_content() for t in node.locator("text").all())
            assert lines.replace("…", "") in title
        page.keyboard.press("Escape")
        assert record.is_hidden()
        # A complete record shows its chain.
        page.select_option("#f-cat", "0")
        page.locator("#body tr[data-i]").first.click()
        assert record.locator("ol.sentences > li.chain").count() >= 1
        assert record.locator("svg.chain-graph .edge.chain").count() >= 1
        page.emulate_media(media="print")
        assert page.locator("#controls").is_hidden() and page.locator("#grid").is_hidden()
        assert record.is_visible()
    assert events["errors"] == [] and events["dialogs"] == []
    assert events["requests"] == [path.as_uri()], "the report fetched something: it must be self-contained"
    assert graph_ink > 0.01


@pytest.mark.slow
@pytest.mark.browser  # skips, naming the install, without playwright or chromium (tests/conftest.py)
def test_report_html_draws_only_the_rows_on_screen(tmp_path):
    run = tmp_path / "run.jsonl"
    run.write_text("".join(r.to_json() + "\n" for r in synthetic_run(5000, seed=3)), encoding="utf-8")
    path = _report(run, tmp_path / "big.html")
    with chromium(tmp_path) as (page, events):
        page.goto(path.as_uri())
        page.wait_for_selector("body[data-ready]", state="attached")
        assert page.locator("#count").text_content() == "5000 of 5000 records"
        assert page.locator("#body tr[data-i]").count() < 60
        page.locator("#grid").evaluate("g => g.scrollTop = 28 * 4000")
        expect(page.locator("#body tr[data-i] td").first).not_to_have_text("s0")
        ids = page.eval_on_selector_all("#body tr[data-i]", "r => r.map(x => x.cells[0].textContent)")
        assert "s4000" in ids and len(ids) < 60
    assert events["errors"] == []


def test_report_html_is_deterministic_and_self_contained(run_file):
    results = [AuditResult.model_validate_json(line) for line in run_file.read_text().splitlines()]
    _, html = html_report(results)
    assert html == html_report(results)[1]
    # Namespace URIs are names, not fetches; anything loaded would be a src, href or url().
    loads = re.findall(r'(?:src|href)="(?!data:|#)[^"]*"|url\((?!#)[^)]*\)|@import', html)
    assert loads == []


def _hostile_run(tmp_path) -> Path:
    lines = []
    for k, text in enumerate(HOSTILE):
        kind = ("complete", "broken")[k % 2]
        data = json.loads(make_result(f"{text}#{k}", kind, meta={"note": text, text: "field"}).to_json())
        data["entities"][0]["name"] = text
        data["propositions"][0]["subject"] = text
        data["diagnosis"]["signals"][0]["message"] = text
        data["question_entities"][0]["name"] = text
        data.update(question=f"Who {text} wrote?", answer=text, gold_answer=text, sentences=[
            {"index": 0, "span": [0, 14], "role": "chain", "propositions": ["P1"], "text": text},
            {"index": 1, "span": [15, 33], "role": "no_proposition", "propositions": [], "text": None}])
        lines.append(AuditResult.model_validate(data).to_json())
    run = tmp_path / "hostile.jsonl"
    run.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return run


@pytest.mark.slow
@pytest.mark.browser  # skips, naming the install, without playwright or chromium (tests/conftest.py)
def test_report_html_keeps_hostile_strings_inert(tmp_path):
    run = _hostile_run(tmp_path)
    path = _report(run, tmp_path / "hostile.html")
    html = path.read_text(encoding="utf-8")
    # The page's own four scripts end where they should; no record ends one or opens a comment.
    data = html[html.index('<script type="application/json"'):html.index("<script>\n")]
    assert html.count("</script>") == 4 and data.count("</script>") == 3 and "<!--" not in data
    with chromium(tmp_path) as (page, events):
        page.goto(path.as_uri())
        page.wait_for_selector("body[data-ready]", state="attached")
        scripts = page.locator("script").count()
        assert page.locator("#count").text_content() == f"{len(HOSTILE)} of {len(HOSTILE)} records"
        shown = []
        for k in range(len(HOSTILE)):
            page.locator("#grid").evaluate(f"g => g.scrollTop = {28 * k}")
            row = page.locator(f'#body tr[data-i="{k}"]')
            row.scroll_into_view_if_needed()
            row.click()
            # The view is drawn after the click; read it once it shows record k.
            page.wait_for_function(f"() => location.hash === '#record-{k}' && "
                                   "!document.getElementById('record').hidden", timeout=5000)
            shown.append(page.locator("#record").text_content())
            page.keyboard.press("Escape")
        page.select_option("#f-field", label="note")
        page.select_option("#f-value", index=3)
        assert page.locator("#count").text_content() == f"1 of {len(HOSTILE)} records"
        injected = page.evaluate(
            "() => document.querySelectorAll('img, iframe, object, embed, [onerror], [onload]').length")
        assert page.locator("script").count() == scripts == 4
    assert injected == 0 and events["dialogs"] == [] and events["errors"] == []
    # What a record holds is shown as text, character for character.
    assert all(text in body for text, body in zip(HOSTILE, shown))


def test_report_html_details_are_inert_json(tmp_path):
    index = RecordIndex()
    for text in HOSTILE:
        index.add(make_result(f"</script><!--{text}", "broken", meta={"m": text}))
    for payload in (index.rows_json(), index.details_json()):
        assert "<" not in payload and ">" not in payload and "&" not in payload
    lines = index.details_json().split("\n")
    assert [json.loads(line)[0][0] for line in lines] == [f"</script><!--{t}" for t in HOSTILE]


def test_report_html_baseline_marks_what_moved(tmp_path):
    old = [make_result(f"r{i}", "complete" if i < 6 else "broken", line=i + 1) for i in range(10)]
    new = [make_result(f"r{i}", "broken" if i in (1, 2) else "complete", line=i + 1) for i in range(10)]
    new.append(make_result("r10", "circular", line=11))
    (tmp_path / "old.jsonl").write_text("".join(r.to_json() + "\n" for r in old))
    (tmp_path / "new.jsonl").write_text("".join(r.to_json() + "\n" for r in new))
    path = _report(tmp_path / "new.jsonl", tmp_path / "r.html", "--baseline", str(tmp_path / "old.jsonl"))
    html = path.read_text(encoding="utf-8")
    packed = re.search(r'id="rows-data">(.*?)</script>', html).group(1)
    rows = json.loads(gzip.decompress(base64.b64decode(packed)))
    changes = [rows["changes"][c] for c in rows["chg"]]
    assert changes[1] == changes[2] == "complete → broken"
    assert changes[6:10] == ["broken → complete"] * 4 and changes[10] == "new in this run"
    assert changes[0] == "unchanged"
    assert "6 records changed category; 1 are new in this run" in html
    res = subprocess.run([sys.executable, "-m", "logicscore", "report", str(tmp_path / "new.jsonl"),
                          "--baseline", str(tmp_path / "old.jsonl")],
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, capture_output=True, text=True)
    assert res.returncode == 2 and "--baseline needs --html" in res.stderr


def test_report_html_renders_without_the_describing_fields():
    # An older record carries no question, answers or sentences: the page still holds it all.
    index = RecordIndex()
    for r in synthetic_run(20, seed=4):
        index.add(r)
    line = json.loads(index.details_json().split("\n")[0])
    assert line[0][:4] == ["s0", "", "", ""] and line[0][5] == ["Ana wrote Bel.", "Bel is set in Cor.",
                                                                 "Ana likes tea."]
    assert line[1]["sen"] == [] and len(line[1]["p"]) == 3
    from logicscore.report.build import build_report

    assert "20 records read" in render_html(build_report(list(synthetic_run(20, seed=4))), index)


@pytest.mark.slow
@pytest.mark.browser  # skips, naming the install, without playwright or chromium (tests/conftest.py)
def test_report_html_record_view_shows_the_hops(tmp_path):
    from logicscore import Auditor

    question = "Who directed the film that stars Ona Pell?"
    hops = [{"question": "Which film <b>stars</b> Ona Pell?", "answer": "Grey Fen"},
            {"question": "Who directed #1?", "answer": "Rik Dal"}]
    auditor = Auditor(hops="given", timing=False)
    results = [auditor.audit(question=question, answer="Rik Dal", question_hops=hops, id=rid, long_answer=text)
               for rid, text in (("both", "Ona Pell stars in Grey Fen. Grey Fen was directed by Rik Dal."),
                                 ("second", "Ona Pell stars in Grey Fen. Rik Dal is a director."))]
    (tmp_path / "hops.jsonl").write_text("".join(r.to_json() + "\n" for r in results), encoding="utf-8")
    path = _report(tmp_path / "hops.jsonl", tmp_path / "hops.html")
    with chromium(tmp_path) as (page, events):
        page.goto(path.as_uri() + "#record-1")
        page.wait_for_selector("body[data-ready]", state="attached")
        record = page.locator("#record")
        expect(record).to_be_visible()
        # Hop 1 is stated by the first sentence; hop 2 cites no sentence, so no badge for it.
        sentences = record.locator("ol.sentences > li")
        expect(sentences.nth(0).locator("span.hop.stated")).to_have_text("hop 1 ✓")
        assert record.locator("span.hop").count() == 1
        assert "1 of 2 hops stated; incomplete by the hops; anchors written: yes" in record.text_content()
        table = record.locator("table", has_text="why not stated")
        rows = [r.text_content() for r in table.locator("tr").all()]
        assert len(rows) == 3 and rows[1].startswith("✓ 1") and rows[2].startswith("✗ 2")
        assert "Grey Fen → Rik Dal" in rows[2] and "unstated: no sentence writes both" in rows[2]
        # A hop's text from the input is text, never markup.
        assert "Which film <b>stars</b> Ona Pell?" in rows[1] and record.locator("b").count() == 0
        page.keyboard.press("Escape")
        page.locator("#body tr[data-i]").first.click()
        expect(sentences.nth(1).locator("span.hop.stated")).to_have_text("hop 2 ✓")
        assert record.locator("span.hop.unstated").count() == 0
        assert "2 of 2 hops stated; complete by the hops" in record.text_content()
        # The summary's Hops table counts the incomplete record by its first reason.
        summary = page.locator("#summary section.table", has_text="incomplete by the hops")
        assert "a hop no sentence states (unstated)1 (100.0%)" in summary.text_content()
    assert events["errors"] == [] and events["dialogs"] == []


@pytest.mark.browser  # skips, naming the install, without playwright or chromium (tests/conftest.py)
def test_report_html_shows_unverified_records_as_their_own_category(tmp_path):
    from logicscore.report.synthetic import UNVERIFIED_WHY

    kinds = ["complete", "broken", "unverified", "complete", "unverified", "error"]
    run = tmp_path / "run.jsonl"
    run.write_text("".join(make_result(f"r{i}", k, line=i + 1).to_json() + "\n" for i, k in enumerate(kinds)),
                   encoding="utf-8")
    path = _report(run, tmp_path / "unverified.html")
    with chromium(tmp_path) as (page, events):
        page.goto(path.as_uri())
        page.wait_for_selector("body[data-ready]", state="attached")
        badges = page.locator("#body span.cat.unverified")
        assert badges.count() == 2 and badges.first.text_content() == "unverified"
        # A badge of its own: not the colours of a failure type.
        style = badges.first.evaluate("b => [getComputedStyle(b).borderTopStyle, getComputedStyle(b).color]")
        broken = page.locator("#body span.cat.broken").first.evaluate("b => getComputedStyle(b).backgroundColor")
        assert style[0] == "dashed" and style[1] != broken
        options = page.eval_on_selector_all("#f-cat option", "o => o.map(x => x.textContent)")
        assert "unverified (2)" in options
        page.select_option("#f-cat", label="unverified (2)")
        assert page.locator("#count").text_content() == "2 of 6 records"
        assert set(_visible(page)) == {"unverified"}
        assert "unverified 2" in page.locator("#selection svg").get_attribute("aria-label")
        # Their completeness and conciseness are no 0: the filtered means have none to show.
        texts = page.eval_on_selector_all("#selection svg text", "t => t.map(x => x.textContent)")
        at = texts.index("completeness")
        assert texts[at:at + 4] == ["completeness", "-", "conciseness", "-"]
        assert texts[texts.index("determinateness", at):][1] == "0.000"
        page.locator("#body tr[data-i]").first.click()
        record = page.locator("#record")
        assert record.locator("h2 span.cat.unverified").text_content() == "unverified"
        assert record.locator(".unverified-why").text_content() == f"completeness unverified: {UNVERIFIED_WHY}"
        assert "completeness unverified" in record.locator("dl").first.text_content()
    assert events["errors"] == []


def test_report_html_unverified_examples_carry_the_reason():
    from logicscore.report.synthetic import UNVERIFIED_WHY

    _, html = html_report([make_result("a", "complete"), make_result("u", "unverified")])
    assert 'data-show="unverified"' in html
    index = RecordIndex()
    index.add(make_result("u", "unverified"))
    assert json.loads(gzip.decompress(base64.b64decode(index.rows())))["cat"] == [5]
    assert json.loads(index.details_json())[1]["unv"] == UNVERIFIED_WHY


LONG_SIGNATURE = ("logicscore:0.1.0|extractor:rules|spacy:en_core_web_sm-3.8.0|spacy_disabled:senter,lemmatizer|"
                  "question:rules|coref:rules|fuzzy:85|alts:16|det:rules")
FITS = """() => {
  const out = {page: document.documentElement.scrollWidth - window.innerWidth, tables: [], heads: [], grid: 0};
  document.querySelectorAll("main table").forEach(t => {
    const box = t.closest("section").getBoundingClientRect(), r = t.getBoundingClientRect();
    if (r.right > box.right + 1) out.tables.push(t.closest("section").querySelector("h3, h2").textContent);
  });
  document.querySelectorAll("#head th button").forEach(b => {
    if (b.scrollWidth > b.clientWidth) out.heads.push(b.textContent);
  });
  const grid = document.getElementById("grid");
  out.grid = grid.scrollWidth - grid.clientWidth;
  return out;
}"""


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize("width", [1280, 1400])
def test_report_html_tables_fit_the_page_without_cutting_a_header(tmp_path, width):
    # The widest page a run makes: two long signatures (a "By signature" table), kept fields,
    # a baseline (the "change" column) and a slice by a field.
    new = [make_result(f"record-{i:04d}", kind, line=i + 1, signature=LONG_SIGNATURE + ("|x:1" if i % 2 else ""),
                       meta={"model": f"model-{i % 3}", "split": "dev" if i % 2 else "test"})
           for i, kind in enumerate(["complete", "broken", "circular", "deviated", "error"] * 4)]
    old = [make_result(r.id, "complete", line=r.meta.line, signature=LONG_SIGNATURE) for r in new]
    (tmp_path / "old.jsonl").write_text("".join(r.to_json() + "\n" for r in old))
    (tmp_path / "new.jsonl").write_text("".join(r.to_json() + "\n" for r in new))
    path = _report(tmp_path / "new.jsonl", tmp_path / "r.html", "--baseline", str(tmp_path / "old.jsonl"),
                   "--by", "model")
    assert "By signature" in path.read_text(encoding="utf-8")
    with chromium(tmp_path, width=width) as (page, events):
        page.goto(path.as_uri())
        page.wait_for_selector("body[data-ready]", state="attached")
        assert page.locator("#head th").count() >= 12  # every column the run can have
        fits = page.evaluate(FITS)
        assert fits == {"page": 0, "tables": [], "heads": [], "grid": 0}
        assert events["errors"] == []
