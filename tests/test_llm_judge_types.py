"""The LLM judge gives the verdict of every question type: the sides of a comparison or
yes/no answer inform its completeness, never overwrite the model's reading."""

from __future__ import annotations

import json

import pytest
from llm_server import FakeLLM
from test_llm import KEY, api_key  # noqa: F401
from typer.testing import CliRunner

from logicscore import Auditor
from logicscore.cli import app
from logicscore.models import QARecord

# The stated years select Cold Meridian (1987) as the earlier film; the answer says Glass Harbor.
COMPARISON = QARecord(
    id="cmp", question="Which film was released earlier, Glass Harbor or Cold Meridian?",
    answer="Glass Harbor",
    long_answer="Glass Harbor was released in 1999. Cold Meridian was released in 1987. "
                "So Glass Harbor was released earlier.")
# The stated years say Tobias Renner was born first; the answer says yes.
YESNO = QARecord(
    id="yn", question="Was Marta Ellison born before Tobias Renner?", answer="yes",
    long_answer="Marta Ellison was born in 1970. Tobias Renner was born in 1960. "
                "So yes, she was born first.")


def model_says(answers: dict[str, str]):
    """A judge reply per question: the model's answer from the passage alone."""
    return lambda parts: {"answer": answers[parts["question"]]}


def llm_auditor(server: FakeLLM, tmp_path, judge: str) -> Auditor:
    options = {"base_url": server.base_url, "model": "test-model", "cache_dir": str(tmp_path / "cache"),
               "timeout": 2.0, "retries": 0}
    return Auditor("rules", judge=judge, llm=options, timing=False)


def test_rules_judge_takes_the_verdict_the_sides_select():
    out = Auditor(timing=False)
    for record in (COMPARISON, YESNO):
        result = out.audit_record(record)
        assert result.question_type in ("comparison", "yesno")
        assert result.determinateness == "contradicted"
        assert "conclusion_mismatch" in {s.kind for s in result.diagnosis.signals}


@pytest.mark.parametrize("said, verdict", [
    ({COMPARISON.question: "Glass Harbor", YESNO.question: "Yes"}, "entailed"),
    ({COMPARISON.question: "UNKNOWN", YESNO.question: "UNKNOWN"}, "underdetermined"),
])
def test_llm_judge_verdict_is_kept_for_comparison_and_yes_no(tmp_path, said, verdict):
    with FakeLLM(lambda parts: {}, model_says(said)) as server:
        results = list(llm_auditor(server, tmp_path, "llm").audit_many([COMPARISON, YESNO]))
        assert server.count("judge") == 2
    assert [r.status for r in results] == ["ok", "ok"]
    assert [r.question_type for r in results] == ["comparison", "yesno"]
    assert [r.determinateness for r in results] == [verdict, verdict]
    # The sides are still read: what they found stays in the record.
    for r in results:
        assert [s.values for s in r.sides] in ([["1999"], ["1987"]], [["1970"], ["1960"]])
        assert r.scores.completeness == 0


def test_score_determinateness_llm_keeps_the_model_verdict(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text("".join(r.model_dump_json(exclude_none=True) + "\n" for r in (COMPARISON, YESNO)))
    said = {COMPARISON.question: "Glass Harbor", YESNO.question: "yes"}
    with FakeLLM(lambda parts: {}, model_says(said)) as server:
        args = ["score", src, "-o", tmp_path / "out.jsonl", "--determinateness", "llm",
                "--base-url", server.base_url, "--model", "test-model",
                "--cache-dir", tmp_path / "cache", "--no-timing", "-q"]
        run = CliRunner().invoke(app, [str(a) for a in args])
    assert run.exit_code == 0, run.output
    rows = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [(r["id"], r["determinateness"]) for r in rows] == [("cmp", "entailed"), ("yn", "entailed")]
    assert "|det:llm|" in rows[0]["meta"]["signature"]
    assert KEY not in run.output
