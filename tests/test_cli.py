import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from logicscore.cli import app
from logicscore.models import AuditResult

from fakes import GIVEN as SHARED_GIVEN

ROOT = Path(__file__).parents[1]
EXAMPLES = ROOT / "corpora/examples.jsonl"
runner = CliRunner()

GIVEN = {**SHARED_GIVEN, "id": "g1", "long_answer": "..."}


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def read(path):
    return [json.loads(line) for line in Path(path).read_text().splitlines()]


@pytest.mark.parametrize("command", [[], ["score"], ["explain"], ["schema"], ["bench"], ["corpus", "generate"]])
def test_cli_every_command_has_help(command):
    res = run(*command, "--help")
    assert res.exit_code == 0
    assert len(res.output.strip().splitlines()) > 3


def test_cli_score_given_and_bad_lines(tmp_path):
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps(GIVEN) + "\n{broken\n" + json.dumps({"id": "x", "question": "Q"}) + "\n")
    out = tmp_path / "out.jsonl"
    res = run("score", inp, "-o", out, "--extractor", "given", "--no-timing")
    assert res.exit_code == 0, res.output
    recs = read(out)
    assert [r["status"] for r in recs] == ["ok", "error", "error"]
    assert recs[0]["scores"]["completeness"] == 1
    assert recs[0]["chain"] == ["P1", "P2", "P3"]
    assert [r["error"]["line"] for r in recs[1:]] == [2, 3]
    assert all(r["error"]["type"] == "InputError" for r in recs[1:])
    assert recs[2]["id"] == "x"
    for r in recs:
        AuditResult.model_validate(r)
        assert "latency_ms" not in r["meta"]


def test_cli_strict_exit_code(tmp_path):
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps(GIVEN) + "\nnot json\n")
    res = run("score", inp, "-o", tmp_path / "o.jsonl", "-x", "given", "--strict", "-q")
    assert res.exit_code == 1


@pytest.mark.parametrize(
    "args, code",
    [
        (["score", "missing.jsonl", "-o", "x.jsonl"], 2),
        (["score", EXAMPLES, "-o", "x.jsonl", "--map", "nonsense"], 2),
        (["score", EXAMPLES, "-o", "x.jsonl", "--extractor", "nope"], 2),
        (["explain", "--question", "Q?"], 2),
        (["score", EXAMPLES, "-o", "x.jsonl", "--fuzzy-threshold", "120"], 2),
    ],
)
def test_cli_usage_errors(args, code, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = run(*args)
    assert res.exit_code == code
    assert "Traceback" not in res.output


def test_cli_unknown_extractor_lists_known(tmp_path):
    res = run("score", EXAMPLES, "-o", tmp_path / "x.jsonl", "--extractor", "nope")
    assert "rules" in res.output and "given" in res.output


def test_cli_schema_is_json_schema():
    res = run("schema")
    schema = json.loads(res.output)
    assert {"id", "status", "scores", "diagnosis", "meta"} <= set(schema["properties"])


@pytest.mark.slow
def test_cli_score_examples_twice_same_bytes(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for out in (a, b):
        res = run("score", EXAMPLES, "-o", out, "--no-timing")
        assert res.exit_code == 0, res.output
    assert a.read_bytes() == b.read_bytes()
    assert len(read(a)) == len(EXAMPLES.read_text().splitlines())


@pytest.mark.slow
def test_cli_explain_from_file_and_flags(tmp_path):
    res = run("explain", EXAMPLES, "--id", "springfield")
    assert res.exit_code == 0, res.output
    assert "P1" in res.output and "Christopher Nolan" in res.output
    res = run("explain", "-Q", "What country is the birthplace of the author of Harry Potter?",
              "-a", "United Kingdom", "-l",
              "J.K. Rowling wrote Harry Potter. The United Kingdom has a population of 67 million.")
    assert res.exit_code == 0, res.output
    assert "broken" in res.output and "gap" in res.output


@pytest.mark.slow
def test_cli_explain_reads_scored_file(tmp_path):
    out = tmp_path / "s.jsonl"
    run("score", EXAMPLES, "-o", out, "-q")
    res = run("explain", out, "--id", "rowling")
    assert res.exit_code == 0 and "broken" in res.output


def test_cli_explain_unknown_id(tmp_path):
    res = run("explain", EXAMPLES, "--id", "no-such-id", "-x", "given")
    assert res.exit_code == 2 and "no-such-id" in res.output


def test_cli_corpus_generate_is_reproducible(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for out in (a, b):
        res = run("corpus", "generate", "--seed", 5, "--n", 12, "--hops", "2-3", "-o", out)
        assert res.exit_code == 0, res.output
        assert "wrote 12 cases" in res.output
    assert a.read_bytes() == b.read_bytes()
    assert {r["hops"] for r in read(a)} <= {2, 3} and len(read(a)) == 12
    assert run("corpus", "generate", "--hops", "0-9", "-o", a).exit_code == 2
