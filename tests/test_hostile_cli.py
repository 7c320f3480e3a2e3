"""Every command tried as a careless or hostile user would (docs/reliability.md).

Each test is one attempt that used to destroy a file, inject markup or escape sequences into
what a person opens, or end as "internal error" with exit 1; it runs the real CLI (typer's
CliRunner, or a subprocess where a shell redirection, a signal or a second process matters)
and checks the exit code, the one-line message and the bytes left behind.
"""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from typer.testing import CliRunner

from logicscore import io
from logicscore.cli import app
from logicscore.cli.lock import OutputLock

from hostile_strings import HOSTILE
from fakes import GIVEN

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "corpora/examples.jsonl"
FAST = ("-x", "given", "--no-timing", "-q")
# What must never reach a terminal: ESC (every escape sequence), BEL, the bidi overrides and
# isolates, other C0/C1 controls.
RAW_CONTROL = [chr(c) for c in (*range(0x00, 0x09), 0x0b, 0x0c, *range(0x0e, 0x20), 0x7f, *range(0x80, 0xa0))]
RAW_CONTROL += ["\u202e", "\u202c", "\u2066", "\u2067", "\u2068", "\u2069", "\u200b"]


def cli(*args: object, env: dict | None = None):
    return CliRunner().invoke(app, [str(a) for a in args], env=env)


def python_cli(*args: object, **kwargs) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"}
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **kwargs}
    return subprocess.run([sys.executable, "-m", "logicscore", *map(str, args)], env=env,
                          timeout=300, **streams)


def one_line_error(res, code: int, *needles: str) -> str:
    assert res.exit_code == code, res.output
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), res.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    assert "internal error" not in lines[0] and "Traceback" not in res.output
    return lines[0]


def write_input(path: Path, n: int = 6, ids=None) -> Path:
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            fh.write(json.dumps({**GIVEN, "id": ids[i] if ids else f"r{i}"}) + "\n")
    return path


@pytest.fixture
def run(tmp_path) -> Path:
    """A scored run of six records."""
    out = tmp_path / "s.jsonl"
    assert cli("score", write_input(tmp_path / "in.jsonl"), "-o", out, *FAST).exit_code == 0
    return out


# --- data loss ------------------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["same path", "symlink", "hard link"])
@pytest.mark.parametrize("option", ["--md", "--html"])
def test_hostile_cli_report_onto_its_results_is_refused(run, how, option):
    before = run.read_bytes()
    target = run
    if how == "symlink":
        target = run.with_name("link.jsonl")
        target.symlink_to(run)
    elif how == "hard link":
        target = run.with_name("hard.jsonl")
        os.link(run, target)
    one_line_error(cli("report", run, option, target), 2, str(target), "results file")
    assert run.read_bytes() == before


def test_hostile_cli_gate_junit_onto_results_or_baseline_is_refused(run, tmp_path):
    before = run.read_bytes()
    one_line_error(cli("gate", run, "--min-completeness", 0.1, "--junit", run), 2, "results file")
    base = tmp_path / "base.jsonl"
    base.write_bytes(before)
    one_line_error(cli("gate", run, "--min-completeness", 0.1, "--baseline", base, "--junit", base),
                   2, "baseline")
    assert run.read_bytes() == before and base.read_bytes() == before


@pytest.mark.parametrize("args", [["report", "{run}", "--md", "-"], ["report", "{run}"],
                                  ["diff", "{run}", "{run}", "--json"], ["explain", "{run}", "--line", "1"],
                                  ["gate", "{run}", "--min-completeness", "0.1", "--json"]])
def test_hostile_cli_stdout_appended_onto_an_input_is_refused(run, args):
    """`report s.jsonl --md - >> s.jsonl`: stdout is the very file read."""
    before = run.read_bytes()
    with run.open("ab") as out:
        done = python_cli(*(a.format(run=run) for a in args), stdout=out)
    assert done.returncode == 2, done.stderr
    assert b"output stdout is the" in done.stderr and done.stderr.count(b"\n") == 1
    assert run.read_bytes() == before


def test_hostile_cli_a_second_writer_is_refused_while_the_lock_is_held(tmp_path):
    inp = write_input(tmp_path / "in.jsonl")
    out = tmp_path / "s.jsonl"
    with OutputLock(out):
        for resume in ([], ["--resume"]):
            line = one_line_error(cli("score", inp, "-o", out, *FAST, *resume), 2,
                                  "being written by another logicscore run", f"process {os.getpid()}")
            assert line.startswith(f"Error: {out} is being written")
    # The lock is the output's own: nothing is left beside it, and an empty output the
    # holder made for it is gone with it.
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl"]
    assert cli("score", inp, "-o", out, *FAST).exit_code == 0
    assert len(out.read_text().splitlines()) == 6 and sorted(p.name for p in tmp_path.iterdir()) == [
        "in.jsonl", "s.jsonl"]


def test_hostile_cli_two_resumes_at_once_never_double_the_output(tmp_path):
    """Two `score --resume` on one output at once: one is refused or finds the work done; the
    output holds each input line once, in order (it used to hold 1,200 lines for 600)."""
    inp = write_input(tmp_path / "in.jsonl", 600)
    out = tmp_path / "s.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "logicscore", "score", str(inp), "-o", str(out), *FAST, "--resume"]
    procs = [subprocess.Popen(cmd, env=env, stderr=subprocess.PIPE) for _ in range(2)]
    codes, errs = zip(*((p.wait(timeout=300), p.stderr.read()) for p in procs))  # type: ignore[union-attr]
    assert sorted(codes) in ([0, 0], [0, 2]), errs
    if 2 in codes:
        assert b"being written by another logicscore run" in errs[codes.index(2)]
    lines = [json.loads(line)["meta"]["line"] for line in out.read_text().splitlines()]
    assert lines == list(range(1, 601))


@pytest.mark.parametrize("damage", ["cut", "missing", "repeated", "foreign"])
def test_hostile_cli_resume_refuses_a_damaged_output_and_repair_rebuilds_it(tmp_path, damage):
    inp = write_input(tmp_path / "in.jsonl", 6)
    clean = tmp_path / "clean.jsonl"
    assert cli("score", inp, "-o", clean, *FAST).exit_code == 0
    lines = clean.read_text().splitlines(keepends=True)
    broken = {"cut": lines[:2] + [lines[2][:50] + "\n"] + lines[3:4],
              "missing": lines[:2] + lines[3:5],
              "repeated": lines[:2] + lines[1:3],
              "foreign": lines[:2] + [lines[2].replace('"id":"r2"', '"id":"zz"')] + lines[3:4]}[damage]
    out = tmp_path / "s.jsonl"
    out.write_text("".join(broken))
    before = out.read_bytes()
    one_line_error(cli("score", inp, "-o", out, *FAST, "--resume"), 2, f"{out} line 3", "--repair")
    assert out.read_bytes() == before
    res = cli("score", inp, "-o", out, *FAST, "--resume", "--repair")
    assert res.exit_code == 0, res.output
    assert out.read_bytes() == clean.read_bytes()
    assert out.with_name("s.jsonl.damaged").read_bytes() == before[len("".join(lines[:2]).encode()):]


def test_hostile_cli_resume_still_redoes_a_torn_last_line(tmp_path):
    inp = write_input(tmp_path / "in.jsonl", 4)
    out = tmp_path / "s.jsonl"
    assert cli("score", inp, "-o", out, *FAST).exit_code == 0
    whole = out.read_bytes()
    out.write_bytes(whole[:-40])
    assert cli("score", inp, "-o", out, *FAST, "--resume").exit_code == 0
    assert out.read_bytes() == whole


def test_hostile_cli_full_disk_names_the_output_and_leaves_no_half_line(tmp_path):
    inp = write_input(tmp_path / "in.jsonl")
    res = cli("score", inp, "-o", "/dev/full", *FAST)
    line = one_line_error(res, 2, "cannot write /dev/full", "No space left on device")
    assert str(inp) not in line.split(";")[0]


class _FillsUp:
    """A binary file that takes `room` bytes, then fails as a full disk does."""

    def __init__(self, path: Path, room: int):
        self.fh = path.open("ab", buffering=0)
        self.room = room

    def write(self, data) -> int:
        if self.room <= 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        taken = bytes(data[:self.room])
        self.room -= len(taken)
        return self.fh.write(taken)

    def flush(self) -> None:
        pass

    def fileno(self) -> int:
        return self.fh.fileno()


def test_hostile_cli_writer_cuts_a_line_the_disk_could_not_hold(tmp_path, run):
    result = next(io.read_results(run))
    out = tmp_path / "o.jsonl"
    sink = _FillsUp(out, room=len(result.to_json()) + 1 + 100)  # one line and a bit
    writer = io.ResultWriter(sink)  # type: ignore[arg-type]
    writer.write(result)
    with pytest.raises(OSError, match="No space"):
        writer.write(result)
    assert out.read_bytes() == (result.to_json() + "\n").encode() and writer.written == 1


def test_hostile_cli_full_disk_on_a_real_small_file_system(tmp_path):
    """A 16 KB tmpfs (root only: the suite runs as root in CI): the run stops naming the
    output, and what it leaves is whole lines that --resume continues."""
    mount = tmp_path / "tiny"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", str(mount)],
                      capture_output=True).returncode != 0:
        pytest.skip("mounting a tmpfs needs root")
    try:
        inp = write_input(tmp_path / "in.jsonl", 30)
        out = mount / "s.jsonl"
        line = one_line_error(cli("score", inp, "-o", out, *FAST), 2, f"cannot write {out}",
                              "No space left on device", "--resume")
        assert str(inp) not in line.split(";")[0]
        data = out.read_bytes()
        assert data.endswith(b"\n") and all(json.loads(x) for x in data.splitlines())
        assert sorted(p.name for p in mount.iterdir()) == ["s.jsonl"]  # no lock file beside it
    finally:
        subprocess.run(["umount", str(mount)], check=True)


# --- injection into what people open -------------------------------------------------------------


def hostile_run(tmp_path: Path) -> Path:
    """A scored run whose ids, meta values and signature are the hostile strings."""
    inp = tmp_path / "hostile_in.jsonl"
    with inp.open("w", encoding="utf-8") as fh:
        for text in HOSTILE:
            fh.write(json.dumps({**GIVEN, "id": text, "meta": {"model": text}}) + "\n")
        fh.write(json.dumps({"id": HOSTILE[0], "question": "Q?"}) + "\n")  # an error record
    out = tmp_path / "hostile.jsonl"
    assert cli("score", inp, "-o", out, *FAST).exit_code == 0
    # A signature carrying a control character (as `--model $'gpt\x01'` gives one).
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    for record in lines:
        record["meta"]["signature"] += "|model:gpt\x01\x1b[2J"
    out.write_text("".join(json.dumps(r) + "\n" for r in lines))
    return out


def test_hostile_cli_report_markdown_renders_inert(tmp_path):
    from markdown_it import MarkdownIt

    run = hostile_run(tmp_path)
    md = tmp_path / "r.md"
    assert cli("report", run, "--md", md, "--by", "model").exit_code == 0
    text = md.read_text()
    html = MarkdownIt("commonmark").enable("table").render(text)
    for tag in ("<img", "<script", "<svg", "<a href"):
        assert tag not in html
    assert "\x1b" not in text and "\u202e" not in text
    # Every fence closes where the report closed it: no hostile line of backticks ends one
    # early, so nothing after an example is read as code, and no code block swallows a heading.
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    headings = [t for t in tokens if t.type == "heading_open"]
    assert len(headings) == text.count("\n## ") + 1
    for token in (t for t in tokens if t.type == "fence"):
        assert token.content.count("\n") == len(token.content.splitlines())


def test_hostile_cli_junit_is_well_formed_xml(tmp_path):
    run = hostile_run(tmp_path)
    junit = tmp_path / "gate.xml"
    res = cli("gate", run, "--min-completeness", 0.1, "--junit", junit, "--allow-signature-change")
    assert res.exit_code in (0, 1), res.output
    root = ET.parse(junit).getroot()
    values = [p.get("value") for p in root.iter("property")]
    assert values and all("\\x01" in v and "\x01" not in v for v in values)


@pytest.mark.parametrize("args", [
    ["report", "{run}"], ["report", "{run}", "--by", "model"],
    ["diff", "{run}", "{run}"], ["gate", "{run}", "--min-completeness", "0.1"],
    ["explain", "{run}", "--line", "9"], ["explain", "{run}", "--line", "17", "-x", "given"]])
def test_hostile_cli_terminal_never_gets_raw_control_characters(tmp_path, args):
    run = hostile_run(tmp_path)
    done = python_cli(*(a.format(run=run) for a in args))
    assert done.returncode in (0, 1), done.stderr
    shown = (done.stdout + done.stderr).decode("utf-8")
    # rich's own colours are ESC [ … m; anything else starting with ESC came from the data.
    stripped = __import__("re").sub("\x1b\\[[0-9;]*m", "", shown)
    for char in RAW_CONTROL:
        assert char not in stripped, (repr(char), stripped[:2000])


def test_hostile_cli_html_report_escapes_every_hostile_string(tmp_path):
    run = hostile_run(tmp_path)
    page = tmp_path / "r.html"
    assert cli("report", run, "--html", page, "--by", "model").exit_code == 0
    text = page.read_text()
    for tag in ("<img src=x", "<script>alert", "<svg onload"):
        assert tag not in text


# --- errors and limits -----------------------------------------------------------------------------


def test_hostile_cli_writers_create_missing_folders(run, tmp_path):
    page = tmp_path / "new" / "deeper" / "x.html"
    assert cli("report", run, "--html", page).exit_code == 0 and page.read_text().startswith("<!")
    junit = tmp_path / "nd" / "g.xml"
    assert cli("gate", run, "--min-completeness", 0.1, "--junit", junit).exit_code == 0
    assert ET.parse(junit).getroot().tag == "testsuites"
    md = tmp_path / "m" / "r.md"
    assert cli("report", run, "--md", md).exit_code == 0 and md.read_text().startswith("# ")


def test_hostile_cli_writers_refuse_a_folder_or_a_refused_place(run, tmp_path):
    folder = tmp_path / "adir"
    folder.mkdir()
    one_line_error(cli("report", run, "--html", folder), 2, "is a folder")
    one_line_error(cli("gate", run, "--min-completeness", 0.1, "--junit", folder), 2, "is a folder")
    # sysfs refuses new files even to root, as a read-only file system does.
    one_line_error(cli("gate", run, "--min-completeness", 0.1, "--junit", "/sys/gate.xml"), 2,
                   "/sys/gate.xml")
    one_line_error(cli("report", run, "--md", "/sys/r.md"), 2, "/sys/r.md")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    one_line_error(cli("report", run, "--md", blocker / "r.md"), 2, "cannot create folder")


def test_hostile_cli_a_failed_write_leaves_the_old_file_whole(tmp_path, capsys):
    """Files are written beside their target and renamed: a write that fails (a full disk)
    keeps the old file and leaves no temporary file, with one line naming the path."""
    import typer

    from logicscore.cli.paths import replacing

    target = tmp_path / "r.md"
    target.write_text("old report\n")
    with pytest.raises(typer.Exit) as stop, replacing(target, "report") as temp:
        temp.write_text("half a rep")
        raise OSError(errno.ENOSPC, "No space left on device")
    assert stop.value.exit_code == 2
    assert target.read_text() == "old report\n" and sorted(p.name for p in tmp_path.iterdir()) == ["r.md"]
    assert f"cannot write report {target}: No space left on device" in capsys.readouterr().err


def test_hostile_cli_a_replaced_file_keeps_its_mode_and_its_link(run, tmp_path):
    real = tmp_path / "real.md"
    real.write_text("old\n")
    real.chmod(0o640)
    link = tmp_path / "link.md"
    link.symlink_to(real)
    assert cli("report", run, "--md", link).exit_code == 0
    assert link.is_symlink() and real.read_text().startswith("# logicscore report")
    assert real.stat().st_mode & 0o777 == 0o640


def test_hostile_cli_report_negative_seed_is_a_usage_error(run):
    res = cli("report", run, "--seed", -1)
    assert res.exit_code == 2 and "--seed" in res.output


@pytest.mark.parametrize("body, key", [
    ("[tool.logicscore.gate]\nmax_failure = 0.2\n", "max_failure"),
    ("[tool.logicscore]\ngate = 5\n", "tool.logicscore.gate"),
    ("[[tool.logicscore.gate]]\nmin_completeness = 0.5\n", "tool.logicscore.gate"),
    ("[tool.logicscore.gate]\nmin_completeness = nan\n", "min_completeness"),
    ("[tool.logicscore.gate]\nmin_completeness = inf\n", "min_completeness"),
    ("[tool.logicscore.gate]\nmin_completeness = -0.1\n", "min_completeness"),
    ("[tool.logicscore.gate]\nmin_completeness = true\n", "min_completeness"),
    ("[tool.logicscore.gate]\nmax_errors = 2\n", "max_errors"),
    ("[tool.logicscore.gate]\nmin_records = 2.5\n", "min_records"),
    ("[tool.logicscore.gate]\nmin_records = false\n", "min_records"),
    ("[tool.logicscore.gate]\nmax_failure = {broken = -1}\n", "max_failure.broken"),
    ("[tool.logicscore.gate]\nmax_failure = {broken = true}\n", "max_failure.broken"),
    ("[tool.logicscore.gate]\nmax_regression = {completeness = nan}\n", "max_regression.completeness"),
    ("[tool.logicscore.gate]\nmax_failure = {wobbly = 0.1}\n", "wobbly"),
    ("[tool.logicscore.gate]\nmin_completness = 0.5\n", "min_completness"),
    ("tool = 3\n", "tool"),
    ("[tool.logicscore.gate\n", "not valid TOML"),
])
def test_hostile_cli_malformed_gate_config_is_one_line_exit_2(run, tmp_path, body, key):
    config = tmp_path / "pyproject.toml"
    config.write_text(body)
    one_line_error(cli("gate", run, "--config", config), 2, key)


def test_hostile_cli_gate_config_not_utf8_is_one_line_exit_2(run, tmp_path):
    config = tmp_path / "pyproject.toml"
    config.write_bytes(b"[tool.logicscore.gate]\nmin_completeness = 0.5 # \xff\xfe\n")
    one_line_error(cli("gate", run, "--config", config), 2, "not UTF-8")


@pytest.mark.parametrize("flags, key", [
    (["--min-completeness", "nan"], "--min-completeness"),
    (["--min-conciseness", "-0.5"], "--min-conciseness"),
    (["--max-errors", "inf"], "--max-errors"),
    (["--max-failure", "broken=nan"], "--max-failure.broken"),
    (["--max-failure", "broken=-0.1"], "--max-failure.broken"),
])
def test_hostile_cli_bad_gate_flags_are_one_line_exit_2(run, flags, key):
    one_line_error(cli("gate", run, *flags), 2, key)


def test_hostile_cli_integer_thresholds_still_count(run, tmp_path):
    config = tmp_path / "pyproject.toml"
    config.write_text("[tool.logicscore.gate]\nmin_completeness = 1\nmin_records = 6\n")
    assert cli("gate", run, "--config", config).exit_code == 0


def test_hostile_cli_unreadable_results_are_exit_2(tmp_path):
    folder = tmp_path / "d.jsonl"
    folder.mkdir()
    for args in (["report", folder], ["gate", folder, "--min-records", 1], ["diff", folder, folder]):
        res = cli(*args)
        assert res.exit_code == 2 and "internal error" not in res.output, res.output


def test_hostile_cli_a_huge_answer_is_refused_by_the_default_budget(tmp_path):
    """10,000 short sentences (126,000 characters, under --max-chars): once 165 s and 0.85 GB
    for one record; now an InputError record before any parse, with the flag that raises it."""
    names = ("Ann", "Bob", "Cy", "Dee", "Eve")
    long_answer = " ".join(f"{names[i % 5]} met {names[(i * 3 + 1) % 5]}." for i in range(10_000))
    inp = tmp_path / "big.jsonl"
    inp.write_text(json.dumps({"id": "big", "question": "Who did Ann meet?", "answer": "Bob",
                               "long_answer": long_answer}) + "\n")
    out = tmp_path / "s.jsonl"
    start = time.perf_counter()
    done = python_cli("score", inp, "-o", out, "-q", "--no-timing")
    # The one record errored, so the run fails (exit 1) as any run in which every record errored.
    assert done.returncode == 1, done.stderr
    assert b"every record errored (1 InputError)" in done.stderr
    assert time.perf_counter() - start < 60
    record = json.loads(out.read_text())
    assert record["error"]["type"] == "InputError" and "--max-sentences" in record["error"]["message"]
    assert "--max-sentences" in python_cli("score", "--help").stdout.decode()


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.slow
def test_hostile_cli_workers_end_when_their_parent_is_killed(tmp_path):
    lines = EXAMPLES.read_text().splitlines()
    inp = tmp_path / "in.jsonl"
    inp.write_text("".join(f"{line}\n" for _ in range(60) for line in lines))
    out = tmp_path / "s.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    parent = subprocess.Popen([sys.executable, "-m", "logicscore", "score", str(inp), "-o", str(out),
                               "--workers", "2", "-q", "--no-timing"], env=env)
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            workers = _children(parent.pid)
            if len(workers) >= 2 and out.exists() and out.stat().st_size:
                break
            time.sleep(0.2)
        assert len(workers) >= 2, "the workers never started"
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(_running(w) for w in workers):
            time.sleep(0.1)
        assert not any(_running(w) for w in workers)
    finally:
        for pid in workers:
            if _running(pid):
                os.kill(pid, signal.SIGKILL)
        if parent.poll() is None:
            parent.kill()
