"""Self-describing output records (docs/records.md): the question and answers, the long
answer's sentences with their roles and the input's extra fields in every record; RAG rows
whose answer comes from the response score as their native records do; `explain` reads a
record from the output alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from logicscore.cli import app
from logicscore.formats.conclusion import stated_answer

FIREACT = Path("/work/shared/data/llm-answers/fireact_hotpotqa.jsonl")
EXAMPLES = Path(__file__).parents[1] / "corpora/examples.jsonl"
runner = CliRunner()
needs_fireact = pytest.mark.skipif(not FIREACT.is_file(), reason=f"{FIREACT} (the FireAct answers) is not here")


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def read(path):
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines()]


def write(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def as_ragas(row):
    """A FireAct record as a RAGAS row: the response states its answer in its conclusion when
    the conclusion rules read the record's own answer from it, else on an "Answer:" line."""
    stated = stated_answer(row["long_answer"], row["question"])
    response = row["long_answer"]
    if stated is None or stated[0] != row["answer"]:
        response += "\nAnswer: " + row["answer"]
    return {"id": row["id"], "user_input": row["question"], "response": response,
            "reference": row["gold_answer"], "retrieved_contexts": [], "model": row["model"]}


# What an adapted record must share with its native one: every verdict and score.
SAME = ("status", "question", "answer", "gold_answer", "question_type", "scores", "determinateness",
        "question_entities", "answer_entity", "chain", "alternatives", "diagnosis", "sides", "sentences",
        "propositions", "entities", "correct")


@pytest.mark.slow
@needs_fireact
def test_fireact_rows_as_ragas_rows_score_exactly_as_native(tmp_path):
    # An "Answer: X" line ends X at its full stop, so a short answer that is a whole sentence
    # ("The Beatles did not release … Dark Horse.") cannot be written on one: the first 20
    # records whose short answer is not a sentence.
    rows = [json.loads(line) for line in FIREACT.read_text(encoding="utf-8").splitlines()]
    rows = [r for r in rows if not r["answer"].endswith(".") or r["answer"].endswith(("Co.", "D.C."))][:20]
    native = write(tmp_path / "native.jsonl", rows)
    ragas = write(tmp_path / "ragas.jsonl", [as_ragas(r) for r in rows])
    for src in (native, ragas):
        res = run("score", src, "-o", src.with_suffix(".out"), "--no-timing", "-q")
        assert res.exit_code == 0, res.output
    a, b = read(native.with_suffix(".out")), read(ragas.with_suffix(".out"))
    assert [r["id"] for r in a] == [r["id"] for r in b] == [r["id"] for r in rows]
    for one, other in zip(a, b, strict=True):
        assert {k: one[k] for k in SAME} == {k: other[k] for k in SAME}, one["id"]
    # `correct` is the native value, not the reference compared with itself.
    assert [r["correct"] for r in b] == [r["correct"] for r in a]
    assert sum(r["correct"] for r in b) < 20
    sources = [r["meta"]["answer_source"] for r in b]
    assert {"conclusion", "answer_line"} <= set(sources) and {r["meta"]["answer_source"] for r in a} == {"answer_field"}
    assert all(r["meta"]["answer_rule"] for r in b if r["meta"]["answer_source"] == "conclusion")
    assert [r["meta"]["record"]["model"] for r in b] == [r["model"] for r in rows]


def test_a_ragas_row_with_no_stated_answer_is_an_error_record_naming_the_map(tmp_path):
    src = write(tmp_path / "in.jsonl", [{"user_input": "Who made it?", "response": "Ana Lund made the film.",
                                         "reference": "Ana Lund", "retrieved_contexts": []}])
    res = run("score", src, "-o", tmp_path / "out.jsonl", "-q")
    (rec,) = read(tmp_path / "out.jsonl")
    assert rec["status"] == "error" and rec["error"]["type"] == "InputError"
    assert "--map answer=FIELD" in rec["error"]["message"]
    assert res.exit_code == 1  # every record errored


@pytest.mark.slow
def test_every_record_says_its_question_answers_and_sentence_roles(tmp_path):
    out = tmp_path / "out.jsonl"
    res = run("score", EXAMPLES, "-o", out, "--no-timing")
    assert res.exit_code == 0
    assert f"records written to {out}; next: logicscore report {out}" in res.output.replace("\n", "")
    source = read(EXAMPLES)
    for rec, row in zip(read(out), source, strict=True):
        assert (rec["question"], rec["answer"]) == (row["question"], row["answer"])
        assert rec["gold_answer"] == row.get("gold_answer")
        text = row["long_answer"]
        spans = [s["span"] for s in rec["sentences"]]
        assert [s["index"] for s in rec["sentences"]] == list(range(len(spans))) and spans == sorted(spans)
        on = set(rec["chain"]) | {p for side in rec["sides"] for p in side["propositions"]}
        given = [p for s in rec["sentences"] for p in s["propositions"]]
        assert sorted(given) == sorted({p["id"] for p in rec["propositions"] if p["span"] != [0, 0]})
        for s in rec["sentences"]:
            assert s["text"] == text[s["span"][0]:s["span"][1]] and s["text"].strip() == s["text"]
            expected = ("no_proposition" if not s["propositions"] else
                        "chain" if on & set(s["propositions"]) else "redundant")
            assert s["role"] == expected
    roles = {s["role"] for rec in read(out) for s in rec["sentences"]}
    assert {"chain", "redundant"} <= roles  # no_proposition: see the explain test


@pytest.mark.slow
def test_no_text_keeps_spans_and_roles_but_no_words(tmp_path):
    run("score", EXAMPLES, "-o", tmp_path / "a.jsonl", "--no-timing", "-q")
    run("score", EXAMPLES, "-o", tmp_path / "b.jsonl", "--no-timing", "-q", "--no-text")
    for full, bare in zip(read(tmp_path / "a.jsonl"), read(tmp_path / "b.jsonl"), strict=True):
        assert (bare["question"], bare["answer"], bare["gold_answer"]) == (None, None, None)
        assert [s["text"] for s in bare["sentences"]] == [None] * len(full["sentences"])
        assert [(s["span"], s["role"]) for s in bare["sentences"]] == [(s["span"], s["role"])
                                                                      for s in full["sentences"]]
        assert bare["scores"] == full["scores"]


@pytest.mark.slow
def test_explain_reads_a_record_from_the_output_alone(tmp_path):
    src = write(tmp_path / "in.jsonl", [{
        "id": "r1", "question": "Who directed the film that Marta Ellison starred in?", "answer": "Tobias Renner",
        "gold_answer": "Tobias Renner", "model": "m-7",
        "long_answer": "Marta Ellison starred in the film Glass Harbor. Glass Harbor was directed by Tobias "
                       "Renner. The weather was nice. Tobias Renner was born in Osk."}])
    out = tmp_path / "out.jsonl"
    assert run("score", src, "-o", out, "--no-timing", "-q").exit_code == 0
    src.unlink()
    res = runner.invoke(app, ["explain", str(out), "--id", "r1"], terminal_width=200)
    assert res.exit_code == 0, res.output
    shown = res.output
    assert "question: Who directed the film that Marta Ellison starred in?" in shown
    assert "answer: Tobias Renner" in shown and "gold answer: Tobias Renner" in shown
    lines = {line.split()[0]: line for line in shown.splitlines()[shown.splitlines().index(
        "long answer, by sentence:") + 1:][:4]}
    assert "chain" in lines["1"] and "Marta Ellison starred in the film Glass Harbor." in lines["1"]
    assert "chain" in lines["2"]
    assert "no proposition" in lines["3"] and "The weather was nice." in lines["3"]
    assert "redundant" in lines["4"] and "Tobias Renner was born in Osk." in lines["4"]
    (rec,) = read(out)
    assert rec["meta"]["record"] == {"model": "m-7"}


@pytest.mark.slow
def test_report_by_an_extra_input_field(tmp_path):
    rows = [{"id": f"r{i}", "question": "Who directed Glass Harbor?", "answer": "Tobias Renner",
             "long_answer": "Glass Harbor was directed by Tobias Renner.", "model": m}
            for i, m in enumerate(["a", "b", "b"])]
    out = tmp_path / "out.jsonl"
    run("score", write(tmp_path / "in.jsonl", rows), "-o", out, "-q")
    res = run("report", out, "--md", "-", "--by", "model")
    assert res.exit_code == 0
    part = res.output.split("## By model")[1].split("##")[0]
    assert "(missing)" not in part and "| a | 1 |" in part and "| b | 2 |" in part


def test_schema_describes_the_self_describing_fields():
    res = run("schema")
    schema = json.loads(res.output)
    assert {"question", "answer", "gold_answer", "sentences"} <= set(schema["properties"])
    role = schema["$defs"]["SentenceRole"]
    assert set(role["properties"]) == {"index", "span", "role", "propositions", "text"}
    assert role["properties"]["role"]["enum"] == ["chain", "redundant", "no_proposition"]
    meta = schema["$defs"]["ResultMeta"]["properties"]
    assert {"answer_source", "answer_rule", "record"} <= set(meta)
    assert meta["answer_source"]["anyOf"][0]["enum"] == ["answer_field", "answer_line", "conclusion"]
