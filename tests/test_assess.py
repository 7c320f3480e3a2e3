"""`assess`: the prompt under test against the scripted server, audited, reported and gated."""

from __future__ import annotations

import json

import pytest
from llm_server import Fault, FakeLLM
from typer.testing import CliRunner

from logicscore.run.assess import AgentPrompt, assess, parse_reply, read_questions
from logicscore.cli import app
from logicscore.errors import ConfigError, ParseError
from logicscore.llm.endpoint import Endpoint, EndpointConfig

runner = CliRunner()
SPRINGFIELD = "Who is the director of the film that stars the actor born in Springfield?"
MARTA = "Who directed the film that Marta Ellison starred in?"
QUESTIONS = [{"id": "springfield", "question": SPRINGFIELD, "gold_answer": "Christopher Nolan", "hops": 3},
             {"id": "marta", "question": MARTA, "gold_answer": "Tobias Renner", "hops": 2}]
# The old prompt's agent states each hop; the new one skips the middle of the chain.
STATES_EACH_HOP = {
    SPRINGFIELD: "The actor born in Springfield is John Smith. John Smith starred in the film Inception. "
                 "The director of Inception is Christopher Nolan.\nAnswer: Christopher Nolan",
    MARTA: '{"reasoning": "Marta Ellison starred in the film Glass Harbor. Glass Harbor was directed by '
           'Tobias Renner.", "answer": "Tobias Renner"}',
}
SKIPS_A_HOP = {
    SPRINGFIELD: "The director of Inception is Christopher Nolan.\nAnswer: Christopher Nolan",
    MARTA: "Marta Ellison was born in Dunmore.\n**Final answer:** Tobias Renner.",
}
PROMPT = "Answer the question, one fact per sentence, then a last line 'Answer: ...'.\n" \
         "<question>\n{question}\n</question>\n"


def agent(table):
    return FakeLLM(lambda parts: table[parts["question"]])


def files(tmp_path, questions=QUESTIONS, prompt=PROMPT, name="qa.md"):
    (tmp_path / "questions.jsonl").write_text("".join(json.dumps(q) + "\n" for q in questions))
    (tmp_path / name).write_text(prompt)
    return tmp_path / "questions.jsonl", tmp_path / name


def run(server, tmp_path, out, prompt, *extra):
    args = ["assess", tmp_path / "questions.jsonl", "--prompt", prompt, "--base-url", server.base_url,
            "--model", "agent-model", "-o", out, "--cache-dir", tmp_path / "cache", "--no-timing", "-q",
            *extra]
    return runner.invoke(app, [str(a) for a in args])


def records(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.parametrize("reply, answer, long_answer", [
    ("A is B.\nB is C.\nAnswer: C", "C", "A is B.\nB is C."),
    ("A is B.\n**Final Answer:** C.", "C", "A is B."),
    ("Answer: C", "C", "Answer: C"),
    ('```json\n{"reasoning": "A is B.", "answer": "C"}\n```', "C", "A is B."),
    ('{"answer": 1947}', "1947", "1947"),
    ("Answer: B\nOn reflection A is C.\nanswer: C", "C", "Answer: B\nOn reflection A is C."),
])
def test_parse_reply_takes_the_last_answer_line_or_the_json_answer(reply, answer, long_answer):
    parsed = parse_reply(reply)
    assert (parsed.answer, parsed.long_answer) == (answer, long_answer)


@pytest.mark.parametrize("reply", ["", "I think it is C.", '{"reasoning": "A is B."}', "Answer:"])
def test_parse_reply_without_a_short_answer_is_a_parse_error(reply):
    with pytest.raises(ParseError):
        parse_reply(reply)


def test_a_prompt_file_needs_the_placeholder(tmp_path):
    (tmp_path / "p.md").write_text("Answer: {q}")
    with pytest.raises(ConfigError, match="placeholder"):
        AgentPrompt.from_file(tmp_path / "p.md")


def test_assess_audits_each_reply_in_order_with_the_agent_in_meta(tmp_path, auditor):
    questions, prompt_file = files(tmp_path)
    prompt = AgentPrompt.from_file(prompt_file)
    with agent(STATES_EACH_HOP) as server:
        endpoint = Endpoint(EndpointConfig(base_url=server.base_url, model="agent-model", cache=False))
        with questions.open("rb") as source:
            results = list(assess(read_questions(source), prompt, endpoint, auditor))
        # Calls run concurrently, so the server may see either question first.
        sent = next(c.body for c in server.calls
                    if "Springfield" in c.body["messages"][0]["content"])
    assert [r.id for r in results] == ["springfield", "marta"]
    assert [r.scores.completeness for r in results if r.scores] == [1, 1]
    assert [r.correct for r in results] == [True, True]
    agent_meta = results[0].meta.agent
    assert agent_meta is not None and agent_meta.answer == "Christopher Nolan"
    assert agent_meta.prompt_sha256 == prompt.sha256 and agent_meta.model == "agent-model"
    assert "agent_prompt:" + prompt.sha256[:12] in agent_meta.signature
    assert sent["messages"] == [{"role": "user", "content": prompt.render(SPRINGFIELD)}]
    assert "response_format" not in sent and sent["temperature"] == 0
    assert server.base_url not in results[0].to_json()


def test_timeout_and_unparseable_replies_are_typed_records_counted_in_the_report(tmp_path):
    extra = [{"id": "late", "question": "Who wrote Glass Harbor?"},
             {"id": "rambling", "question": "Where was Marta Ellison born?"}, "not an object"]
    _, prompt = files(tmp_path, [*QUESTIONS, *extra])
    table = {**STATES_EACH_HOP, "Where was Marta Ellison born?": "Somewhere near the coast, I believe.",
             "Who wrote Glass Harbor?": "Answer: nobody"}
    with agent(table) as server:
        server.faults.append(Fault(delay=1.0, body="Answer: too late"))  # the first call hangs
        out = tmp_path / "out.jsonl"
        result = run(server, tmp_path, out, prompt, "--timeout", "0.2", "--retries", "0",
                     "--concurrency", "1")
    assert result.exit_code == 0, result.output
    rows = records(out)
    assert [r["id"] for r in rows] == ["springfield", "marta", "late", "rambling", "5"]
    assert [(r["error"] or {}).get("type") for r in rows] == ["Timeout", None, None, "ParseError", "InputError"]
    assert [r["meta"]["line"] for r in rows] == [1, 2, 3, 4, 5]
    assert rows[0]["error"]["line"] == 1 and "--timeout" in rows[0]["error"]["message"]
    assert rows[3]["meta"]["agent"]["reply"] == "Somewhere near the coast, I believe."
    assert rows[1]["scores"]["completeness"] == 1
    report = runner.invoke(app, ["report", str(out), "--md", "-"])
    assert report.exit_code == 0, report.output
    coverage = report.output.split("## Coverage")[1].split("\n## ")[0]
    for kind in ("Timeout", "ParseError", "InputError"):
        assert any(kind in line and "| 1 " in line for line in coverage.splitlines()), coverage


def test_gate_baseline_fails_when_the_new_prompt_regresses(tmp_path):
    _, old_prompt = files(tmp_path)
    new_prompt = tmp_path / "qa-new.md"
    new_prompt.write_text(PROMPT.replace("one fact per sentence", "briefly"))
    with agent(STATES_EACH_HOP) as server:
        assert run(server, tmp_path, tmp_path / "old.jsonl", old_prompt).exit_code == 0
    with agent(SKIPS_A_HOP) as server:
        assert run(server, tmp_path, tmp_path / "new.jsonl", new_prompt).exit_code == 0
        again = run(server, tmp_path, tmp_path / "same.jsonl", old_prompt)
    assert again.exit_code == 0
    # The same prompt is answered from the cache: the old run's replies, not the new server's.
    same, old = records(tmp_path / "same.jsonl"), records(tmp_path / "old.jsonl")
    assert [r["meta"]["agent"].pop("cached") for r in same] == [True, True]
    assert [r["meta"]["agent"].pop("cached") for r in old] == [False, False]
    assert same == old
    old_sha = records(tmp_path / "old.jsonl")[0]["meta"]["agent"]["prompt_sha256"]
    new_sha = records(tmp_path / "new.jsonl")[0]["meta"]["agent"]["prompt_sha256"]
    assert old_sha != new_sha
    gate = ["gate", "--baseline", str(tmp_path / "old.jsonl"), "--max-regression", "completeness=0.02"]
    assert runner.invoke(app, [*gate, str(tmp_path / "old.jsonl")]).exit_code == 0
    failed = runner.invoke(app, [*gate, str(tmp_path / "new.jsonl")])
    assert failed.exit_code == 1, failed.output


def test_resume_refuses_another_prompt_and_asks_only_the_missing_lines(tmp_path):
    _, prompt = files(tmp_path)
    out = tmp_path / "out.jsonl"
    with agent(STATES_EACH_HOP) as server:
        assert run(server, tmp_path, out, prompt, "--no-cache").exit_code == 0
        full = out.read_text()
        out.write_text(full.splitlines(keepends=True)[0])
        assert run(server, tmp_path, out, prompt, "--no-cache", "--resume").exit_code == 0
        assert len(server.calls) == 3
        other = tmp_path / "other.md"
        other.write_text("Q: {question}")
        refused = run(server, tmp_path, out, other, "--resume")
    assert out.read_text() == full
    assert refused.exit_code == 2 and "agent_prompt" in refused.output


def test_assess_without_a_model_fails_before_writing(tmp_path):
    _, prompt = files(tmp_path)
    result = runner.invoke(app, ["assess", str(tmp_path / "questions.jsonl"), "--prompt", str(prompt),
                                 "--base-url", "http://127.0.0.1:9/v1", "-o", str(tmp_path / "out.jsonl")])
    assert result.exit_code == 2 and "--model" in result.output
    assert not (tmp_path / "out.jsonl").exists()


def test_assess_exits_1_in_one_line_when_every_record_errored(tmp_path):
    _, prompt = files(tmp_path, [{"id": "a", "question": MARTA}, {"id": "b", "question": SPRINGFIELD}])
    with agent({MARTA: "No idea.", SPRINGFIELD: "Somewhere."}) as server:
        out = tmp_path / "out.jsonl"
        failed = runner.invoke(app, [str(a) for a in [
            "assess", tmp_path / "questions.jsonl", "--prompt", prompt, "--base-url", server.base_url,
            "--model", "agent-model", "-o", out, "--cache-dir", tmp_path / "cache", "--no-timing"]])
    assert failed.exit_code == 1
    assert [(r["error"]["type"], r["question"], r["answer"]) for r in records(out)] == [
        ("ParseError", MARTA, None), ("ParseError", SPRINGFIELD, None)]
    lines = [line for line in failed.output.splitlines() if line.strip()]
    assert lines == [f"Error: every record errored (2 ParseError); 2 records written to {out}: each record's "
                     f"error says what to fix (logicscore report {out})"]


def test_assess_hops_given_checks_each_questions_own_hops(tmp_path):
    hopped = [{**QUESTIONS[1], "question_hops": [
        {"question": "Which film did Marta Ellison star in?", "answer": "Glass Harbor"},
        {"question": "Who directed #1?", "answer": "Tobias Renner"}]}]
    out = {}
    for name, table in (("stated", STATES_EACH_HOP), ("skipped", SKIPS_A_HOP)):
        folder = tmp_path / name  # a cache of its own: the two agents answer the same question
        folder.mkdir()
        _, prompt = files(folder, hopped)
        with agent(table) as server:
            assert run(server, folder, folder / "out.jsonl", prompt, "--hops", "given").exit_code == 0
        (out[name],) = records(folder / "out.jsonl")
    good, bad = out["stated"], out["skipped"]
    assert "hops:given" in good["meta"]["signature"] and good["hops"]["complete"]
    assert [h["stated"] for h in good["hops"]["hops"]] == [True, True]
    assert bad["hops"]["hops"][0]["check"] == "unstated" and bad["scores"]["completeness"] == 0
