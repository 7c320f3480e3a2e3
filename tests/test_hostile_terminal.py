"""What a path, a terminal's encoding or an endless file does to a command (issue 38).

Paths with rich markup, a terminal that cannot show every character, numbers JSON cannot
write back, and files too big or endless for the readers that hold them whole: each ends in
the file written under its own name or in one line and exit 2, never "internal error", an
escape sequence sent to the terminal or memory without bound. Real CLI (a process of its own
where the terminal's encoding, an endless pipe or peak memory matter).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from logicscore.cli import app

from fakes import GIVEN

ROOT = Path(__file__).resolve().parents[1]
FAST = ("-x", "given", "--no-timing", "-q")
# Peak RSS of one child (the command), read in a parent of its own so no other child counts.
MEASURE = ("import resource, subprocess, sys; code = subprocess.run(sys.argv[1:]).returncode; "
           "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); sys.exit(code)")


def cli(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args])


def python_cli(*args: object, env: dict | None = None, measure: bool = False, **kwargs):
    command = [sys.executable, "-m", "logicscore", *map(str, args)]
    if measure:
        command = [sys.executable, "-c", MEASURE, *command]
    return subprocess.run(command, env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
                          capture_output=True, timeout=300, **kwargs)


def one_line(stderr: str | bytes, *needles: str) -> str:
    text = stderr.decode() if isinstance(stderr, bytes) else stderr
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), text
    for needle in needles:
        assert needle in lines[0], lines[0]
    assert "internal error" not in lines[0]
    return lines[0]


@pytest.fixture
def run(tmp_path) -> Path:
    inp = tmp_path / "in.jsonl"
    inp.write_text("".join(json.dumps({**GIVEN, "id": f"r{i}"}) + "\n" for i in range(4)))
    out = tmp_path / "run.jsonl"
    assert cli("score", inp, "-o", out, *FAST).exit_code == 0
    return out


# --- paths are text, never markup ---------------------------------------------------------------

@pytest.mark.parametrize("name", ["a[/b].html", "report[v2].html", "[link=https://example.com]x[/link].html",
                                  "[bold red]loud[/].html"])
def test_an_output_path_with_rich_markup_is_written_and_shown_as_it_is(tmp_path, run, name):
    md = tmp_path / f"{name}.md"
    done = python_cli("report", run, "--html", tmp_path / name, "--md", md, "--failures", tmp_path / f"{name}.jsonl",
                      env={"FORCE_COLOR": "1", "TERM": "xterm-256color", "COLUMNS": "300"}, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / name).read_text().startswith("<!DOCTYPE html>") and md.read_text()
    assert (tmp_path / f"{name}.jsonl").exists()  # the output after the page is written too
    assert f"wrote {tmp_path / name}".encode() in done.stderr
    assert b"\x1b]8;" not in done.stderr and b"internal error" not in done.stderr


# --- a terminal that cannot show every character ------------------------------------------------

def test_score_to_stdout_on_an_ascii_terminal_writes_utf8_records(tmp_path):
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps({**GIVEN, "id": "zoë", "question": "Qui a réalisé le film ? 映画"}) + "\n",
                   encoding="utf-8")
    done = python_cli("score", inp, "-o", "-", *FAST, env={"PYTHONIOENCODING": "ascii"})
    assert done.returncode == 0, done.stderr
    (record,) = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    assert record["id"] == "zoë" and record["question"].endswith("映画")


def test_explain_on_an_ascii_terminal_shows_escapes_not_a_crash():
    done = python_cli("explain", "-Q", "Who directed Zoë's film?", "-a", "Zoë",
                      "-l", "Zoë directed the film Ärmel.", env={"PYTHONIOENCODING": "ascii"})
    assert done.returncode == 0, done.stderr
    assert b"internal error" not in done.stderr and b"Zo\\xeb" in done.stdout + done.stderr


# --- numbers JSON cannot write back -------------------------------------------------------------

@pytest.mark.parametrize("literal", ["1e999", "-Infinity", "NaN", "-1e400"])
def test_a_non_finite_number_is_a_typed_input_error_never_null(tmp_path, literal):
    inp = tmp_path / "in.jsonl"
    row = json.dumps({**GIVEN, "id": "ok"})
    inp.write_text(row + "\n" + row[:-1] + f', "meta": {{"score": {literal}}}}}\n'
                   + row.replace('"id": "ok"', f'"id": {literal}') + "\n")
    out = tmp_path / "out.jsonl"
    assert cli("score", inp, "-o", out, *FAST).exit_code == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["status"] for r in records] == ["ok", "error", "error"]
    for record in records[1:]:
        assert record["error"]["type"] == "InputError" and literal in record["error"]["message"]
        assert record["meta"]["record"] == {}
    # The line keeps its own id; an id that is the number itself is the line number, never "inf".
    assert [r["id"] for r in records] == ["ok", "ok", "3"]


# --- every reader has the same bound ------------------------------------------------------------

def test_gate_config_that_never_ends_is_one_line(run):
    done = python_cli("gate", run, "--config", "/dev/zero", "--min-records", "1", measure=True)
    assert done.returncode == 2
    lines = done.stderr.decode().splitlines()
    one_line("\n".join(lines[:-1]), "/dev/zero", "50,000,000-byte limit")
    assert int(lines[-1]) / 1024 < 300  # MB of peak memory


@pytest.mark.parametrize("command", [["report", "{big}"], ["gate", "{big}", "--min-records", "1"],
                                     ["diff", "{run}", "{big}"]])
def test_a_results_line_over_the_bound_is_one_line_in_bounded_memory(tmp_path, run, command):
    big = tmp_path / "big.jsonl"
    first = run.read_text().splitlines()[0]
    with big.open("w") as fh:
        fh.write(first + "\n")
        fh.write('{"id": "' + "x" * 120_000_000 + '"}\n')
    args = [a.format(big=big, run=run) for a in command]
    done = python_cli(*args, measure=True, cwd=tmp_path)
    lines = done.stderr.decode().splitlines()
    assert done.returncode == 2, done.stderr[-2000:]
    one_line("\n".join(lines[:-1]), "50,000,000-byte limit", f"{big}:2")
    assert int(lines[-1]) / 1024 < 350  # MB of peak memory, a 120 MB line held whole costs more


def test_bench_on_an_endless_file_is_one_line(tmp_path):
    done = python_cli("bench", "/dev/zero", measure=True)
    assert done.returncode == 2
    lines = done.stderr.decode().splitlines()
    one_line("\n".join(lines[:-1]), "corpus file /dev/zero", "50,000,000-byte limit")
    assert int(lines[-1]) / 1024 < 400


def test_bench_on_an_endless_pipe_of_lines_is_one_line():
    yes = subprocess.Popen(["yes", '{"question": 1}'], stdout=subprocess.PIPE)
    try:
        done = python_cli("bench", "/dev/stdin", stdin=yes.stdout)
    finally:
        yes.kill()
        yes.wait()
    assert done.returncode == 2
    one_line(done.stderr, "are not corpus records", "is it a corpus?")
