"""Every command's --help shows its text whole: Rich markup would take "[tool.logicscore.gate]"
or "logicscore[ray]" for a style tag and drop it, so help texts escape their brackets."""

import re

import pytest
import typer.main
import typer.rich_utils
from typer.testing import CliRunner

from logicscore.cli import app

BOX = re.compile(r"[│╭╮╰╯─]+")


def _commands(cmd, path=()):
    yield path, cmd
    for name, sub in getattr(cmd, "commands", {}).items():
        yield from _commands(sub, (*path, name))


COMMANDS = list(_commands(typer.main.get_command(app)))


def _texts(cmd):
    yield cmd.help or ""
    yield cmd.epilog or ""
    for param in cmd.params:
        yield getattr(param, "help", None) or ""


def _flat(text: str) -> str:
    return " ".join(BOX.sub(" ", text).split())


def test_help_covers_every_command():
    names = {" ".join(path) for path, _ in COMMANDS}
    assert {"score", "explain", "report", "gate", "diff", "assess", "calibrate", "bench",
            "schema", "corpus generate"} <= names


@pytest.mark.parametrize(("path", "cmd"), COMMANDS, ids=[" ".join(p) or "logicscore" for p, _ in COMMANDS])
def test_help_shows_every_bracket(path, cmd, monkeypatch):
    # Wide enough that no bracketed word is wrapped; the box drawing is taken out below.
    monkeypatch.setattr(typer.rich_utils, "MAX_WIDTH", 400)
    result = CliRunner().invoke(app, [*path, "--help"])
    assert result.exit_code == 0, result.output
    shown = _flat(result.output)
    # What the author meant: the text with Rich's escape (a backslash before "[") taken off.
    wanted = [m for text in _texts(cmd) for m in re.findall(r"\[[^\]\n]*\]", text.replace("\\[", "["))]
    missing = [w for w in wanted if _flat(w) not in shown]
    assert not missing, f"logicscore {' '.join(path)} --help drops {missing}: escape them as \\["


def test_help_of_gate_names_its_pyproject_table():
    result = CliRunner().invoke(app, ["gate", "--help"])
    assert "Flags override [tool.logicscore.gate] in pyproject.toml" in _flat(result.output)
