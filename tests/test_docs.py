"""The README is part of the interface: it must name every command and match CI."""

import re
from pathlib import Path

from logicscore.cli import app

ROOT = Path(__file__).parents[1]
README = (ROOT / "README.md").read_text()


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


def test_docs_readme_names_every_command():
    missing = [c for c in _commands() if f"logicscore {c}" not in README]
    assert not missing, f"README does not document: {missing}"


def test_docs_ci_runs_the_readme_test_command():
    blocks = re.findall(r"```bash\n(.*?)```", README, flags=re.S)
    assert len(blocks) >= 2
    install, test = blocks[0].strip(), blocks[1].strip()
    assert "corpora/examples.jsonl" in install and "requirements/model.txt" in install
    ci = (ROOT / ".ci/run").read_text()
    assert test in ci.splitlines()
