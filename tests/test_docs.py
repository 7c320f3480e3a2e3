"""The README and docs/ are part of the interface: every command and example in them runs as
written, every output they show is what the command prints, and every relative link resolves.

How a code block is read (the conventions are in docs/architecture.md, "Docs"):
- ```bash: run with `bash -e` in a temporary folder; it must exit 0.
- ```console: each `$ ` line is run in one bash session; the lines after it, up to the next
  `$ `, are what it prints (stdout and stderr together); a line `…` stands for any lines.
- ```python: run with this interpreter in the same folder; it must exit 0.
- ```toml, ```json, ```jsonl: must parse.
- `<!-- file: NAME -->` on the line above a block writes the block to NAME in that folder
  (a pyproject.toml, an input file) for the blocks after it.
- `<!-- not run: REASON -->` on the line above a block leaves it out, with the reason
  (installs, servers, measurements that take minutes).
The temporary folder of a document holds `corpora/`, `scripts/` and `prompts/` of this
checkout and the `scored.jsonl` the README's first command writes, scored once per session.
`logicscore` and `python` there are this checkout under this interpreter.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from logicscore.cli import app

ROOT = Path(__file__).parents[1]
README = (ROOT / "README.md").read_text()
DOCS = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELL = {"bash", "sh", "shell"}
RUN_TIMEOUT = 600


@dataclass
class Block:
    path: Path
    line: int  # of the opening fence, 1-based
    lang: str
    text: str
    directive: str | None  # "file: NAME" or "not run: REASON"

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def blocks(path: Path) -> list[Block]:
    lines = path.read_text(encoding="utf-8").splitlines()
    found, i = [], 0
    while i < len(lines):
        fence = re.match(r"^```(\S*)\s*$", lines[i])
        if not fence:
            i += 1
            continue
        start = i
        i += 1
        while i < len(lines) and lines[i] != "```":
            i += 1
        above = lines[start - 1].strip() if start else ""
        directive = re.fullmatch(r"<!--\s*(file:.*?|not run:.*?)\s*-->", above)
        found.append(Block(path, start + 1, fence.group(1), "\n".join(lines[start + 1:i]) + "\n",
                           directive.group(1) if directive else None))
        i += 1
    return found


def _commands():
    import typer.main

    group = typer.main.get_command(app)
    for name, cmd in group.commands.items():
        subs = getattr(cmd, "commands", None)
        if subs:
            for sub in subs:
                yield f"{name} {sub}"
        else:
            yield name


# --- the front door ----------------------------------------------------------------------------

def test_docs_readme_is_a_front_door():
    assert len(README.encode()) <= 12 * 1024, "README.md is over 12 KB: move detail to docs/"


def test_docs_readme_names_every_command():
    missing = [c for c in _commands() if f"logicscore {c}" not in README]
    assert not missing, f"README does not document: {missing}"


def test_docs_ci_runs_the_readme_test_command():
    shell = [b for b in blocks(ROOT / "README.md") if b.lang == "bash"]
    assert len(shell) >= 2
    install, test = shell[0].text.strip(), shell[1].text.strip()
    assert "corpora/examples.jsonl" in install and "requirements/model.txt" in install
    ci = (ROOT / ".ci/run").read_text().splitlines()
    assert test in ci
    # ... with optional-install skips turned into failures (tests/conftest.py).
    assert ci.index("export LOGICSCORE_REQUIRE_EXTRAS=1") < ci.index(test)


def test_docs_index_lists_every_document():
    index = (ROOT / "docs/index.md").read_text()
    missing = [p.name for p in (ROOT / "docs").glob("*.md") if p.name != "index.md" and f"]({p.name})" not in index]
    assert not missing, f"docs/index.md does not link {missing}"


# --- links ----------------------------------------------------------------------------------------

def _slug(heading: str) -> str:
    text = re.sub(r"[`*]|<[^>]+>", "", heading.strip()).lower()
    return re.sub(r"\s", "-", re.sub(r"[^\w\- ]", "", text))


def _anchors(path: Path) -> set[str]:
    body = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.S | re.M)
    return {_slug(m) for m in re.findall(r"^#+\s+(.*)$", body, flags=re.M)}


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_docs_relative_links_resolve(path):
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.S | re.M)
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        file, _, anchor = target.partition("#")
        dest = (path.parent / file).resolve() if file else path
        if not dest.exists() or (anchor and dest.suffix == ".md" and anchor not in _anchors(dest)):
            broken.append(target)
    assert not broken, f"{path.relative_to(ROOT)}: links that resolve to nothing: {broken}"


# --- every block ------------------------------------------------------------------------------

def test_docs_every_command_block_is_run_or_says_why_not():
    loose = []
    for path in DOCS:
        for b in blocks(path):
            if b.directive and b.directive.startswith("not run:"):
                assert b.directive[len("not run:"):].strip(), f"{b.where}: 'not run' gives no reason"
            elif b.lang not in SHELL | {"console", "python"} and re.search(r"^(\$ )?logicscore ", b.text, re.M):
                loose.append(b.where)
    assert not loose, f"commands in blocks no test runs (mark them ```bash or ```console): {loose}"


@pytest.fixture(scope="session")
def workbench(tmp_path_factory):
    """A bin folder with `logicscore` and `python` of this checkout, and the README's scored file."""
    bin_dir = tmp_path_factory.mktemp("bin")
    for name, line in [("logicscore", f'exec "{sys.executable}" -m logicscore "$@"'),
                       ("python", f'exec "{sys.executable}" "$@"'), ("python3", f'exec "{sys.executable}" "$@"')]:
        (bin_dir / name).write_text(f"#!/bin/sh\n{line}\n")
        (bin_dir / name).chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "PYTHONPATH": str(ROOT),
           "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"}
    env.pop("FORCE_COLOR", None)
    scored = tmp_path_factory.mktemp("scored") / "scored.jsonl"
    subprocess.run([sys.executable, "-m", "logicscore", "score", "corpora/examples.jsonl", "-o", str(scored), "-q"],
                   cwd=ROOT, env=env, check=True, timeout=RUN_TIMEOUT)
    return env, scored


def _folder(tmp_path: Path, scored: Path) -> Path:
    for name in ("corpora", "scripts", "prompts"):
        (tmp_path / name).symlink_to(ROOT / name)
    (tmp_path / "scored.jsonl").write_bytes(scored.read_bytes())
    return tmp_path


def _console(block: Block) -> list[tuple[str, list[str]]]:
    steps: list[tuple[str, list[str]]] = []
    for line in block.text.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            assert steps, f"{block.where}: a console block starts with '$ '"
            steps[-1][1].append(line.rstrip())
    return steps


def _matches(want: list[str], got: list[str]) -> bool:
    if "…" not in want:
        return want == got
    pattern = "".join(r"(?:[^\n]*\n)*?" if w == "…" else re.escape(w) + r"\n" for w in want)
    return re.fullmatch(pattern, "".join(g + "\n" for g in got)) is not None


def _run_console(block: Block, cwd: Path, env: dict) -> None:
    steps = _console(block)
    mark = "@@logicscore-docs-step@@"
    # Each step's status is restored after the mark is printed, so `echo $?` shows the step's.
    script = "\n".join(f"{cmd} 2>&1\nrc=$?\necho {mark}\n(exit $rc)" for cmd, _ in steps)
    out = subprocess.run(["bash", "-c", script], cwd=cwd, env=env, capture_output=True, text=True,
                         timeout=RUN_TIMEOUT).stdout
    outputs = out.split(mark + "\n")
    for (cmd, want), got in zip(steps, outputs):
        got_lines = [line.rstrip() for line in got.splitlines()]
        while want and not want[-1]:
            want = want[:-1]
        assert _matches(want, got_lines), (f"{block.where}: `{cmd}` printed\n" + "\n".join(got_lines)
                                           + "\n--- the document shows ---\n" + "\n".join(want))


def _run(block: Block, cwd: Path, env: dict) -> None:
    if block.lang in SHELL:
        proc = subprocess.run(["bash", "-e", "-c", block.text], cwd=cwd, env=env, capture_output=True,
                              text=True, timeout=RUN_TIMEOUT)
    else:
        proc = subprocess.run([sys.executable, "-c", block.text], cwd=cwd, env=env, capture_output=True,
                              text=True, timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, f"{block.where}: exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"


@pytest.mark.slow
@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_docs_examples_run_as_written(path, workbench, tmp_path):
    env, scored = workbench
    cwd = _folder(tmp_path, scored)
    for block in blocks(path):
        directive = block.directive or ""
        if directive.startswith("not run:"):
            continue
        if directive.startswith("file:"):
            target = cwd / directive[len("file:"):].strip()
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(block.text, encoding="utf-8")
        if block.lang == "toml":
            tomllib.loads(block.text)
        elif block.lang == "json":
            json.loads(block.text)
        elif block.lang == "jsonl":
            for line in block.text.splitlines():
                json.loads(line)
        elif block.lang == "console":
            _run_console(block, cwd, env)
        elif block.lang in SHELL | {"python"} and not directive.startswith("file:"):
            _run(block, cwd, env)
