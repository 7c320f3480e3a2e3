"""The question's hops (`--hops`) wherever a verdict is shown: the option on the commands,
`explain`, the report's Hops table (terminal, markdown, JSON, HTML) and the HTML record view's
payload; a run without a hop stage shows none of it. The LLM stage's calls: test_hops_llm.py."""

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from logicscore import Auditor
from logicscore.cli import app
from logicscore.models import AuditResult, Hop, HopCheck
from logicscore.report.as_json import report_json
from logicscore.report.browse import RecordIndex
from logicscore.report.build import build_report
from logicscore.report.hops import REASONS, first_reason
from logicscore.report.html import html_report
from logicscore.report.render import render_markdown

runner = CliRunner()
QUESTION = "Who directed the film that stars Ona Pell?"
GIVEN = [{"question": "Which film stars Ona Pell?", "answer": "Grey Fen"},
         {"question": "Who directed #1?", "answer": "Rik Dal"}]
CASES = [
    {"id": "stated", "question": QUESTION, "answer": "Rik Dal", "question_hops": GIVEN,
     "long_answer": "Ona Pell stars in Grey Fen. Grey Fen was directed by Rik Dal."},
    {"id": "second-unstated", "question": QUESTION, "answer": "Rik Dal", "question_hops": GIVEN,
     "long_answer": "Ona Pell stars in Grey Fen. Rik Dal is a director."},
    {"id": "no-hops-given", "question": QUESTION, "answer": "Rik Dal",
     "long_answer": "Ona Pell stars in Grey Fen. Grey Fen was directed by Rik Dal."},
]


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("hops") / "in.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in CASES), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def labelled(inputs) -> Path:
    path = inputs.with_name("labelled.jsonl")
    labels = ("complete", "incomplete", "complete")
    path.write_text("".join(json.dumps({**c, "label_completeness": label}) + "\n"
                            for c, label in zip(CASES, labels)), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def scored(inputs) -> Path:
    out = inputs.with_name("scored.jsonl")
    res = run("score", inputs, "-o", out, "--hops", "given", "--no-timing", "-q")
    assert res.exit_code == 0, res.output
    return out


def _results(path: Path) -> list[AuditResult]:
    return [AuditResult.model_validate_json(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_score_hops_given_reads_question_hops_from_the_input(scored):
    stated, unstated, none = _results(scored)
    assert stated.hops is not None and stated.hops.complete and stated.scores.completeness == 1
    assert [h.sentence for h in stated.hops.hops] == [0, 1]
    assert unstated.hops.hops[1].check == "unstated" and unstated.scores.completeness == 0
    assert none.hops.hops == [] and none.scores.completeness == 0
    assert all("hops:given" in r.meta.signature for r in (stated, unstated, none))


def test_score_without_hops_writes_no_hops(inputs, tmp_path):
    out = tmp_path / "plain.jsonl"
    assert run("score", inputs, "-o", out, "--hops", "off", "--no-timing", "-q").exit_code == 0
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert all("hops" not in r and "hops:" not in r["meta"]["signature"] for r in lines)
    # The first record is complete by the chain too: the option changes the check, not the text read.
    assert lines[0]["scores"]["completeness"] == 1


@pytest.mark.parametrize("command", ["score", "explain", "bench"])
def test_unknown_hops_is_one_line_usage_error(command, inputs, labelled, tmp_path):
    args = {"score": [inputs, "-o", tmp_path / "o.jsonl"], "explain": [inputs, "--line", 1],
            "bench": [labelled]}[command]
    res = run(command, *args, "--hops", "bogus")
    assert res.exit_code == 2
    assert "--hops must be one of off, rules, llm, given, not 'bogus'" in res.output
    assert len(res.output.strip().splitlines()) == 1
    assert not (tmp_path / "o.jsonl").exists()


def test_hops_llm_without_a_model_is_a_usage_error(inputs, tmp_path):
    res = run("score", inputs, "-o", tmp_path / "o.jsonl", "--hops", "llm")
    assert res.exit_code == 2 and "needs a model: pass --model" in res.output


def test_help_teaches_the_hops_option():
    out = run("score", "--help").output
    flat = " ".join(re.sub(r"[│╭╮╰╯─]", " ", out).split())
    for words in ("--hops", "'llm'", "needs --model and --base-url", "question_hops"):
        assert words in flat, words


def test_explain_lists_the_hops_of_an_input_record(inputs):
    res = run("explain", inputs, "--line", 2, "--hops", "given")
    assert res.exit_code == 0, res.output
    out = res.output
    assert "hops (given): 1 of 2 stated; incomplete: a hop no sentence states (unstated)" in out
    assert re.search(r"✓ 1 Which film stars Ona Pell\?\s+Ona Pell → Grey Fen\s+sentence 1", out)
    assert re.search(r"✗ 2 Who directed Grey Fen\?\s+Grey Fen → Rik Dal", out)
    assert "unstated: no sentence writes both “Grey Fen” and “Rik Dal”" in out
    assert "anchors written: yes" in out and "answer follows from the last hop: cannot tell" in out


def test_explain_reads_the_hops_back_from_a_scored_file(scored):
    out = run("explain", scored, "--id", "stated").output
    assert "hops (given): 2 of 2 stated; complete" in out and "sentence 2" in out
    assert "✗" not in out.split("hops (given)")[1].split("failure")[0]
    out = run("explain", scored, "--id", "no-hops-given").output
    assert "0 of 0 stated; incomplete: no hop of the question read" in out
    assert "no hop of the question could be read" in out


def test_explain_without_hops_has_no_hops_section(inputs):
    out = run("explain", inputs, "--line", 1, "--hops", "off").output
    assert "hops (" not in out and "answer follows" not in out


def test_explain_shows_hop_text_inert(tmp_path):
    hostile = {**CASES[1], "question_hops": [{"question": "Which film \x1b[2J\x1b]0;pwn\x07stars Ona Pell?",
                                              "answer": "Grey Fen"}, GIVEN[1]]}
    path = tmp_path / "h.jsonl"
    path.write_text(json.dumps(hostile) + "\n", encoding="utf-8")
    res = run("explain", path, "--line", 1, "--hops", "given")
    assert res.exit_code == 0, res.output
    assert "\x1b" not in res.output and "\x07" not in res.output
    assert "\\x1b[2J" in res.output


def _check(hops: list[Hop], complete=False, anchors=True, follows=None) -> HopCheck:
    return HopCheck(stage="llm", hops=hops, answer_follows=follows, anchors_written=anchors, complete=complete)


def test_first_reason_names_the_first_hop_not_stated_else_the_check_that_failed():
    ok = Hop(index=1, asks="a", stated=True, check="stated")
    bad = Hop(index=2, asks="b", check="result_not_in_evidence")
    later = Hop(index=3, asks="c", check="unstated")
    assert first_reason(_check([ok, bad, later])) == "result_not_in_evidence"
    assert first_reason(_check([])) == "no hop read"
    assert first_reason(_check([ok], anchors=False)) == "anchor not written"
    assert first_reason(_check([ok], follows=False)) == "answer does not follow"
    assert first_reason(_check([ok], complete=True, follows=True)) is None
    assert set(REASONS) >= {"unstated", "no_evidence", "evidence_not_in_answer", "input_not_linked",
                            "result_not_in_evidence"}


def test_report_breaks_incomplete_records_down_by_first_reason(scored):
    report = build_report(_results(scored))
    assert report.hops is not None
    assert (report.hops.records, report.hops.complete, report.hops.incomplete) == (3, 1, 2)
    assert report.hops.reasons == [("unstated", 1), ("no hop read", 1)]
    md = render_markdown(report)
    assert "## Hops" in md
    assert "| records checked by the hops (given) | 3 |" in md
    assert "| complete by the hops | 1 (33.3%) |" in md
    assert "| incomplete by the hops | 2 (66.7%) |" in md
    assert "a hop no sentence states (unstated) | 1 (50.0%) |" in md
    assert "no hop of the question read | 1 (50.0%) |" in md
    data = json.loads(json.dumps(report_json(report)))
    assert data["hops"] == {"stages": ["given"], "records": 3, "complete": 1, "incomplete": 2,
                            "reasons": [["unstated", 1], ["no hop read", 1]]}


def test_report_terminal_and_cli_show_the_hops_table(scored, tmp_path):
    res = run("report", scored)
    assert res.exit_code == 0 and "Hops" in res.output and "complete by the hops" in res.output
    res = run("report", scored, "--json")
    assert json.loads(res.output)["hops"]["reasons"] == [["unstated", 1], ["no hop read", 1]]


def test_report_of_a_run_without_hops_has_no_hops(inputs, tmp_path):
    out = tmp_path / "plain.jsonl"
    assert run("score", inputs, "-o", out, "--hops", "off", "--no-timing", "-q").exit_code == 0
    report = build_report(_results(out))
    assert report.hops is None
    assert "Hops" not in render_markdown(report) and "hops" not in report_json(report)
    _, html = html_report(_results(out))
    assert "hopBadges" not in html and "span.hop" not in html


def test_html_record_view_payload_carries_the_hops(scored):
    results = _results(scored)
    index = RecordIndex()
    for r in results:
        index.add(r)
    details = [json.loads(line)[1] for line in index.details_json().split("\n")]
    stage, hops, follows, anchors, complete = details[1]["hops"]
    assert (stage, follows, anchors, complete) == ("given", None, 1, 0)
    assert hops[0][:7] == [1, "Which film stars Ona Pell?", "Ona Pell", "Grey Fen", 1, "stated", 0]
    assert hops[1][4:7] == [0, "unstated", None] and "no sentence writes both" in hops[1][7]
    _, html = html_report(results)
    assert "hopBadges" in html and "span.hop.stated" in html
    assert re.search(r"<td>\s*a hop no sentence states \(unstated\)</td><td>1 \(50.0%\)</td>", html)


def test_estimate_counts_the_hop_calls(inputs, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "x")
    base = ["score", inputs, "-o", "-", "--estimate", "--no-cache", "--model", "m",
            "--base-url", "http://127.0.0.1:9/v1"]
    plain = json.loads(run(*base).output)
    hops = json.loads(run(*base, "--hops", "llm").output)
    both = json.loads(run(*base, "--hops", "llm", "--determinateness", "llm").output)
    assert (plain["calls"], hops["calls"], both["calls"]) == (0, 3, 6)
    assert hops["input_tokens"] > 0 and both["input_tokens"] > hops["input_tokens"]


def test_bench_measures_the_given_hops(labelled):
    res = run("bench", labelled, "--hops", "given", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert "hops:given" in data["signature"]
    # The record with no question_hops is labelled complete: the hops cannot call it so.
    assert data["by_question_type"]["all"]["recall_hits"] == 1
    assert data["by_question_type"]["all"]["specificity_hits"] == 1


def test_api_and_cli_agree(scored):
    auditor = Auditor(hops="given", timing=False)
    direct = auditor.audit(**{k: v for k, v in CASES[1].items() if k != "id"})
    assert direct.hops == _results(scored)[1].hops
