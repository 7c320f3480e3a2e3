"""`--engine ray` when an actor dies mid-run (an OOM kill, a lost node): the run stops with one
line saying to rerun with --resume, the output holds whole records of the input's first lines,
and --resume completes it to the bytes of a local run."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.ray,
              pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table in /proc")]
ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpora" / "fictional-v1.jsonl"
DEADLINE = 240.0  # seconds a step may take on a loaded machine before the test gives up
ACTOR = "ray::MapWorker(MapBatches(Scorer))"  # the process title of a Scorer actor


def _score(src: Path, out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "logicscore", "score", str(src), "-o", str(out), "--no-timing", "-q", *extra]


def _env() -> dict[str, str]:
    """This checkout's logicscore, and a Ray of the run's own (never a cluster of the environment)."""
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    return env


def _processes() -> dict[int, tuple[int, str]]:
    """Every process: its parent's pid and its title (the first word of its command line)."""
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()  # after "pid (comm)": state, ppid, ...
            title = (stat.parent / "cmdline").read_bytes().split(b"\0")[0].decode(errors="replace")
        except (OSError, IndexError):
            continue  # gone meanwhile
        found[int(stat.parent.name)] = (int(fields[1]), title)
    return found


def _busy_actor(root: int) -> int | None:
    """A Scorer actor started by the run `root` (its Ray's raylet is the run's child), in a call."""
    table = _processes()
    mine, todo = set(), [root]
    while todo:
        parent = todo.pop()
        children = [pid for pid, (ppid, _) in table.items() if ppid == parent]
        mine.update(children)
        todo += children
    return next((pid for pid in sorted(mine) if table[pid][1] == ACTOR + ".submit"), None)


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def _wait(what: str, until, run: subprocess.Popen):
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        found = until()
        if found:
            return found
        assert run.poll() is None, f"the run ended ({run.returncode}) before {what}: {run.communicate()}"
        time.sleep(0.05)
    run.kill()
    pytest.fail(f"no {what} within {DEADLINE:.0f} s")


def test_actor_killed_mid_run_fails_the_run_and_resume_completes_it(tmp_path):
    # Five windows of 64 answers: several seconds of work for two actors, with windows
    # still to go when the first ones are written.
    src, out, local = tmp_path / "in.jsonl", tmp_path / "ray.jsonl", tmp_path / "local.jsonl"
    src.write_bytes(b"".join(CORPUS.read_bytes().splitlines(keepends=True)[:320]))
    ray = [*_score(src, out), "--engine", "ray", "--workers", "2"]
    run = subprocess.Popen(ray, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait("record written", lambda: _lines(out) > 0, run)
        # An actor in the middle of a window: the window it holds is lost with it.
        victim = _wait("Scorer actor in a call", lambda: _busy_actor(run.pid), run)
        written = _lines(out)
        os.kill(victim, signal.SIGKILL)
        stdout, stderr = run.communicate(timeout=DEADLINE)
    finally:
        if run.poll() is None:
            run.kill()
            run.communicate()
    # Ray Data does not retry the window elsewhere (the actors have no restarts): the run
    # fails at once, in one line, and nothing of Ray's reaches stdout (`-o -` writes there).
    assert run.returncode == 1, (stdout, stderr)
    assert stdout == ""
    [line] = stderr.splitlines()
    assert line.startswith("Error: the Ray run failed (ActorDiedError: "), line
    assert "rerun with --resume" in line and line.endswith(" --resume"), line

    subprocess.run(_score(src, local), env=_env(), check=True, timeout=DEADLINE)
    expected = local.read_bytes().splitlines(keepends=True)
    kept = out.read_bytes().splitlines(keepends=True)
    # Whole records of the first lines, in order, each once: those written before the kill
    # and the windows after them that came back before the run stopped, not one more.
    assert written <= len(kept) < len(expected)
    assert kept == expected[:len(kept)]
    assert [json.loads(r)["meta"]["line"] for r in kept] == list(range(1, len(kept) + 1))

    again = subprocess.run([*ray, "--resume"], env=_env(), capture_output=True, text=True, timeout=DEADLINE)
    assert again.returncode == 0, again.stderr
    assert out.read_bytes().splitlines(keepends=True) == expected
