"""The HTML report of an audit of the fictional corpus, opened in headless Chromium (Debian's)."""

import io
import itertools
import re
from pathlib import Path

import pytest
from conftest import chromium

from logicscore.report.build import build_report
from logicscore.report.html import render_html

ROOT = Path(__file__).parents[1]
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session")
def html_report(auditor, tmp_path_factory):
    from logicscore import io as lio

    # A subset keeps the test fast; 150 cases cover every failure type and hop count.
    with (ROOT / "corpora/fictional-v1.jsonl").open("rb") as fh:
        head = io.BytesIO(b"".join(itertools.islice(fh, 150)))
        results = list(auditor.audit_many(lio.read_lines(head)))
    path = tmp_path_factory.mktemp("html") / "report.html"
    path.write_text(render_html(build_report(results)), encoding="utf-8")
    return path, results


def _non_blank(png: bytes) -> float:
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("L")
    histogram = image.histogram()
    return sum(histogram[:235]) / sum(histogram)


@pytest.mark.slow
@pytest.mark.browser  # skips, naming the install, without playwright or chromium (tests/conftest.py)
def test_report_html_renders_offline_in_chromium(html_report, tmp_path):
    from playwright.sync_api import sync_playwright

    path, _ = html_report
    errors, requests = [], []
    with sync_playwright() as pw:
        browser = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=chromium(), args=CHROMIUM_FLAGS,
            headless=True, viewport={"width": 1200, "height": 900})
        page = browser.new_page()
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("request", lambda r: requests.append(r.url))
        page.goto(path.as_uri())
        page.wait_for_load_state("networkidle")
        page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
        charts = page.locator("figure.chart svg")
        graphs = page.locator("svg.chain-graph")
        assert charts.count() == 3 and graphs.count() >= 4
        chart_ink = [_non_blank(charts.nth(i).screenshot()) for i in range(charts.count())]
        graph_ink = _non_blank(graphs.first.screenshot())
        chain_edges = page.locator("svg.chain-graph .edge.chain").count()
        gaps = page.locator("svg.chain-graph .gap").count()
        page.select_option("#filter", "broken")
        visible = page.eval_on_selector_all("section.failure", "els => els.filter(e => !e.hidden)"
                                            ".map(e => e.dataset.kind)")
        browser.close()
    assert errors == []
    assert requests == [path.as_uri()], "the report fetched something: it must be self-contained"
    assert all(ink > 0.02 for ink in chart_ink), chart_ink
    assert graph_ink > 0.01 and chain_edges > 0 and gaps > 0
    assert visible == ["broken"]
    assert (tmp_path / "report.png").stat().st_size > 10_000


def test_report_html_is_deterministic_and_self_contained(html_report):
    path, results = html_report
    html = path.read_text(encoding="utf-8")
    assert html == render_html(build_report(results))
    # Namespace URIs are names, not fetches; anything loaded would be a src, href or url().
    loads = re.findall(r'(?:src|href)="(?!data:|#)[^"]*"|url\((?!#)[^)]*\)|@import', html)
    assert loads == []
