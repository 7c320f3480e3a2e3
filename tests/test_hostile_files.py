"""Files the tool does not own, and records wrong without saying so (issue 38).

Each test is one attempt of the issue that cost a user a file or left wrong records behind an
exit 0: the lock beside the output (`poetry.lock`, an input named `OUT.lock`, a symlink),
the `.damaged` file of a repair, `gate --junit` onto the pyproject it reads, a report renamed
over a running output, two resumes through hard links, and a resume after lines were
inserted into an id-less input. Real CLI throughout (typer's CliRunner, or processes where
two runs meet).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from typer.testing import CliRunner

from logicscore.cli import app
from logicscore.cli.lock import OutputLock
from logicscore.pipeline.registry import PREPARE_WINDOW as WINDOW  # records read before any is scored

from fakes import GIVEN

ROOT = Path(__file__).resolve().parents[1]
FAST = ("-x", "given", "--no-timing", "-q")


def cli(*args: object, cwd: Path | None = None):
    if cwd is None:
        return CliRunner().invoke(app, [str(a) for a in args])
    before = Path.cwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(app, [str(a) for a in args])
    finally:
        os.chdir(before)


def write_input(path: Path, n: int = 6, ids: bool = True) -> Path:
    rows = [{**GIVEN, **({"id": f"r{i}"} if ids else {}), "question": f"{GIVEN['question']} ({i})"}
            for i in range(n)]
    if not ids:
        for row in rows:
            row.pop("id", None)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def one_line_error(res, code: int, *needles: str) -> str:
    assert res.exit_code == code, res.output
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), res.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


# --- the lock is the output's own -------------------------------------------------------------

def test_score_to_poetry_leaves_poetry_lock_alone(tmp_path):
    inp = write_input(tmp_path / "in.jsonl")
    lock = tmp_path / "poetry.lock"
    lock.write_text("# the project's pinned dependencies\n")
    assert cli("score", inp, "-o", tmp_path / "poetry", *FAST).exit_code == 0
    assert lock.read_text() == "# the project's pinned dependencies\n"


def test_an_input_named_like_the_outputs_lock_is_never_deleted(tmp_path):
    inp = write_input(tmp_path / "x.jsonl.lock")
    before = inp.read_bytes()
    res = cli("score", inp, "-o", tmp_path / "x.jsonl", *FAST)
    assert res.exit_code == 0, res.output
    assert inp.read_bytes() == before
    assert len((tmp_path / "x.jsonl").read_text().splitlines()) == 6


def test_a_symlink_named_like_the_lock_keeps_its_target(tmp_path):
    inp = write_input(tmp_path / "in.jsonl")
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me\n")
    (tmp_path / "s.jsonl.lock").symlink_to(precious)
    assert cli("score", inp, "-o", tmp_path / "s.jsonl", *FAST).exit_code == 0
    assert precious.read_text() == "keep me\n" and (tmp_path / "s.jsonl.lock").is_symlink()


def test_two_resumes_through_hard_links_never_double_the_output(tmp_path):
    """One output reached by two hard-linked names: the lock is the file's, so one run waits
    its turn or is refused; the output holds each input line once."""
    inp = write_input(tmp_path / "in.jsonl", 600)
    out, other = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    out.touch()
    os.link(out, other)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen([sys.executable, "-m", "logicscore", "score", str(inp), "-o", str(name),
                               *FAST, "--resume"], env=env, stderr=subprocess.PIPE)
             for name in (out, other)]
    codes, errs = zip(*((p.wait(timeout=300), p.stderr.read()) for p in procs))  # type: ignore[union-attr]
    assert sorted(codes) in ([0, 0], [0, 2]), errs
    if 2 in codes:
        assert b"being written by another logicscore run" in errs[codes.index(2)]
    lines = [json.loads(line)["meta"]["line"] for line in out.read_text().splitlines()]
    assert lines == list(range(1, 601))
    res = cli("gate", out, "--min-records", "600", cwd=tmp_path)
    assert res.exit_code == 0, res.output


def test_the_lock_follows_the_file_not_the_name(tmp_path):
    """Held through one hard-linked name, the lock refuses a run through the other."""
    inp = write_input(tmp_path / "in.jsonl")
    out, other = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    out.touch()
    os.link(out, other)
    with OutputLock(out):
        one_line_error(cli("score", inp, "-o", other, *FAST, "--resume"), 2,
                       "being written by another logicscore run", f"process {os.getpid()}")
    assert out.read_bytes() == b""


# --- whole files never replace what another run writes or what the command reads ----------------

def test_report_html_onto_a_running_output_is_refused(tmp_path):
    """`report --html out.jsonl` while `score -o out.jsonl` runs: it used to rename the page
    over the output, and `score` then ended "written", exit 0, into an HTML page."""
    inp = write_input(tmp_path / "in.jsonl")
    run = tmp_path / "run.jsonl"
    assert cli("score", inp, "-o", run, *FAST).exit_code == 0
    out = tmp_path / "out.jsonl"
    out.write_text("partial\n")
    with OutputLock(out):  # what a running `score -o out.jsonl` holds
        one_line_error(cli("report", run, "--html", out), 2, f"{out} is being written by another "
                       "logicscore run")
    assert out.read_text() == "partial\n"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out.jsonl")]  # no temp file left


def test_report_and_score_meet_on_one_output_in_two_processes(tmp_path):
    """The real race: `score - -o out.jsonl` reads a pipe kept open, so it is still writing
    when `report --html out.jsonl` runs; the report is refused and the run ends whole."""
    inp = write_input(tmp_path / "in.jsonl", 2 * WINDOW)
    run = tmp_path / "run.jsonl"
    assert cli("score", inp, "-o", run, *FAST).exit_code == 0
    out = tmp_path / "out.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    scoring = subprocess.Popen([sys.executable, "-m", "logicscore", "score", "-", "-o", str(out), *FAST],
                               env=env, stdin=subprocess.PIPE, stderr=subprocess.PIPE)
    rows = inp.read_bytes().splitlines(keepends=True)
    scoring.stdin.write(b"".join(rows[:WINDOW + 3]))  # type: ignore[union-attr]
    scoring.stdin.flush()  # type: ignore[union-attr]
    deadline = time.monotonic() + 120
    while not out.exists() or out.read_bytes().count(b"\n") < 3:
        assert time.monotonic() < deadline, "score wrote nothing"
        assert scoring.poll() is None, scoring.stderr.read()  # type: ignore[union-attr]
        time.sleep(0.05)
    report = subprocess.run([sys.executable, "-m", "logicscore", "report", str(run), "--html", str(out)],
                            env=env, capture_output=True, text=True, timeout=300)
    scoring.stdin.write(b"".join(rows[WINDOW + 3:]))  # type: ignore[union-attr]
    scoring.stdin.close()  # type: ignore[union-attr]
    assert scoring.wait(timeout=300) == 0
    assert report.returncode == 2 and "being written by another logicscore run" in report.stderr
    lines = out.read_text().splitlines()
    assert [json.loads(line)["meta"]["line"] for line in lines] == list(range(1, 2 * WINDOW + 1))


def test_gate_junit_onto_the_pyproject_it_reads_is_refused(tmp_path):
    inp = write_input(tmp_path / "in.jsonl")
    run = tmp_path / "run.jsonl"
    assert cli("score", inp, "-o", run, *FAST).exit_code == 0
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text("[tool.logicscore.gate]\nmin_completeness = 0.0\n")
    before = pyproject.read_bytes()
    one_line_error(cli("gate", run, "--junit", "pyproject.toml", cwd=tmp_path), 2,
                   "is the config file", "pyproject.toml")
    assert pyproject.read_bytes() == before


# --- --repair creates its own file --------------------------------------------------------------

def _damaged_output(tmp_path: Path, inp: Path) -> tuple[Path, bytes]:
    clean = tmp_path / "clean.jsonl"
    assert cli("score", inp, "-o", clean, *FAST).exit_code == 0
    lines = clean.read_text().splitlines(keepends=True)
    out = tmp_path / "s.jsonl"
    out.write_text("".join(lines[:2] + lines[3:5]))  # a record missing: damage at line 3
    return out, clean.read_bytes()


def test_repair_never_overwrites_an_input_named_like_the_damaged_file(tmp_path):
    inp = write_input(tmp_path / "s.jsonl.damaged")
    before = inp.read_bytes()
    out, clean = _damaged_output(tmp_path, inp)
    res = cli("score", inp, "-o", out, *FAST, "--resume", "--repair")
    assert res.exit_code == 0, res.output
    assert inp.read_bytes() == before and out.read_bytes() == clean
    assert (tmp_path / "s.jsonl.damaged.2").read_bytes() and "s.jsonl.damaged.2" in res.stderr


def test_a_second_repair_keeps_what_the_first_one_moved(tmp_path):
    inp = write_input(tmp_path / "in.jsonl")
    out, clean = _damaged_output(tmp_path, inp)
    assert cli("score", inp, "-o", out, *FAST, "--resume", "--repair").exit_code == 0
    first = (tmp_path / "s.jsonl.damaged").read_bytes()
    lines = clean.decode().splitlines(keepends=True)
    out.write_text("".join(lines[:1] + lines[2:4]))
    assert cli("score", inp, "-o", out, *FAST, "--resume", "--repair").exit_code == 0
    assert (tmp_path / "s.jsonl.damaged").read_bytes() == first
    assert (tmp_path / "s.jsonl.damaged.2").read_bytes() == "".join(lines[2:4]).encode()
    assert out.read_bytes() == clean


def test_repair_never_writes_through_a_link_named_like_the_damaged_file(tmp_path):
    inp = write_input(tmp_path / "in.jsonl")
    out, _ = _damaged_output(tmp_path, inp)
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me\n")
    (tmp_path / "s.jsonl.damaged").symlink_to(precious)
    assert cli("score", inp, "-o", out, *FAST, "--resume", "--repair").exit_code == 0
    assert precious.read_text() == "keep me\n" and (tmp_path / "s.jsonl.damaged.2").is_file()


# --- --resume knows the line it continues -------------------------------------------------------

def test_resume_after_lines_were_inserted_into_an_id_less_input_is_refused(tmp_path):
    """The ids of an id-less input are its line numbers: after lines were inserted at the top,
    record 1 is no longer input line 1's, and only its question says so."""
    inp = write_input(tmp_path / "in.jsonl", 8, ids=False)
    out = tmp_path / "s.jsonl"
    assert cli("score", inp, "-o", out, *FAST).exit_code == 0
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join(lines[:5]))  # the run stopped after 5 records
    before = out.read_bytes()
    rows = inp.read_text().splitlines(keepends=True)
    new = [json.dumps({**GIVEN, "question": f"{GIVEN['question']} (new {i})"}) + "\n" for i in range(5)]
    new = [json.dumps({k: v for k, v in json.loads(row).items() if k != "id"}) + "\n" for row in new]
    inp.write_text("".join(new + rows))
    line = one_line_error(cli("score", inp, "-o", out, *FAST, "--resume"), 2,
                          f"{out} line 1", "another question or answer than input line 1", "--repair")
    assert "nothing was changed" in line and out.read_bytes() == before
    res = cli("score", inp, "-o", out, *FAST, "--resume", "--repair")
    assert res.exit_code == 0, res.output
    written = [json.loads(x) for x in out.read_text().splitlines()]
    expected = [json.loads(r)["question"] for r in inp.read_text().splitlines()]
    assert [r["question"] for r in written] == expected and len(written) == 13


def test_resume_of_an_unchanged_id_less_input_continues(tmp_path):
    inp = write_input(tmp_path / "in.jsonl", 8, ids=False)
    out = tmp_path / "s.jsonl"
    assert cli("score", inp, "-o", out, *FAST).exit_code == 0
    whole = out.read_bytes()
    out.write_bytes(b"".join(whole.splitlines(keepends=True)[:3]))
    assert cli("score", inp, "-o", out, *FAST, "--resume").exit_code == 0
    assert out.read_bytes() == whole


def test_resume_reads_an_overlong_output_line_as_damage_in_bounded_memory(tmp_path):
    """The output read back for --resume has the bound of every reader: a 120 MB line is
    damage at its line, refused in one line, and --repair moves it aside."""
    inp = write_input(tmp_path / "in.jsonl", 4)
    out = tmp_path / "s.jsonl"
    assert cli("score", inp, "-o", out, *FAST).exit_code == 0
    first = out.read_text().splitlines(keepends=True)[0]
    with out.open("w") as fh:
        fh.write(first + '{"id": "' + "x" * 120_000_000 + '"}\n')
    measure = ("import resource, subprocess, sys; code = subprocess.run(sys.argv[1:]).returncode; "
               "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); sys.exit(code)")
    done = subprocess.run([sys.executable, "-c", measure, sys.executable, "-m", "logicscore", "score", str(inp),
                           "-o", str(out), *FAST, "--resume"], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    *message, peak = done.stderr.splitlines()
    assert done.returncode == 2 and len(message) == 1, done.stderr[-2000:]
    assert f"{out} line 2 is over the 50,000,000-byte line limit" in message[0]
    assert int(peak) / 1024 < 350  # MB


def test_score_says_so_when_another_program_replaced_its_output(tmp_path):
    """A program that is not logicscore renames a file over the output mid-run: `score` no
    longer ends "written", exit 0, as if the file held the run."""
    inp = write_input(tmp_path / "in.jsonl", 2 * WINDOW)
    out = tmp_path / "out.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    scoring = subprocess.Popen([sys.executable, "-m", "logicscore", "score", "-", "-o", str(out), "-x", "given",
                                "--no-timing"], env=env, stdin=subprocess.PIPE, stderr=subprocess.PIPE)
    rows = inp.read_bytes().splitlines(keepends=True)
    scoring.stdin.write(b"".join(rows[:WINDOW + 3]))  # type: ignore[union-attr]
    scoring.stdin.flush()  # type: ignore[union-attr]
    deadline = time.monotonic() + 120
    while not out.exists() or out.read_bytes().count(b"\n") < 3:
        assert time.monotonic() < deadline and scoring.poll() is None, "score wrote nothing"
        time.sleep(0.05)
    page = tmp_path / "page.html"
    page.write_text("<html></html>")
    os.replace(page, out)
    scoring.stdin.write(b"".join(rows[WINDOW + 3:]))  # type: ignore[union-attr]
    scoring.stdin.close()  # type: ignore[union-attr]
    assert scoring.wait(timeout=300) == 2
    stderr = scoring.stderr.read().decode()  # type: ignore[union-attr]
    assert f"{out} was replaced or removed by another program while this run wrote it" in stderr
    assert "records written" not in stderr and out.read_text() == "<html></html>"
