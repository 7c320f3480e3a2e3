"""The package's shape: module and function sizes, and no private names across modules."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "logicscore"
# A module holds one concept; past about 500 lines it usually holds two (docs/architecture.md).
# The cap catches that without splitting a concept by length.
MAX_MODULE_LINES = 550
MAX_FUNCTION_LINES = 60
# The stages, whose functions stay short enough to read as one rule each.
STAGES = ("question", "extract", "normalize", "chain.py", "graph.py", "determinate.py",
          "signals.py", "score.py")


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _name(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


def _is_stage(path: Path) -> bool:
    return _name(path).split("/")[0] in STAGES


def test_no_module_over_the_limit():
    long = [f"{_name(p)}: {n} lines" for p in _modules()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES]
    assert not long, f"modules over {MAX_MODULE_LINES} lines: split them\n" + "\n".join(long)


def test_no_stage_function_over_the_limit():
    long = []
    for path in filter(_is_stage, _modules()):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                n = node.end_lineno - node.lineno + 1
                if n > MAX_FUNCTION_LINES:
                    long.append(f"{_name(path)}:{node.lineno} {node.name}: {n} lines")
    assert not long, f"stage functions over {MAX_FUNCTION_LINES} lines\n" + "\n".join(long)


def _module_of(path: Path) -> str:
    parts = ["logicscore", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported_from(path: Path, node: ast.ImportFrom) -> str:
    """The absolute module a `from … import` reads, relative levels resolved."""
    if not node.level:
        return node.module or ""
    package = _module_of(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join([*base, node.module] if node.module else base)


def _unit(module: str) -> str:
    """The stage (or other top-level module or subpackage) a module belongs to."""
    return module.split(".")[1] if "." in module else ""


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _private_imports(path: Path) -> list[str]:
    """`from X import _y` (or from a private module) where X is another stage's."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom):
            continue
        source = _imported_from(path, node)
        if not source.startswith("logicscore") or _unit(source) == _unit(_module_of(path)):
            continue
        private_module = any(map(_private, source.split(".")))
        found += [f"{_name(path)}:{node.lineno} from {source} import {alias.name}"
                  for alias in node.names if private_module or _private(alias.name)]
    return found


def test_no_private_names_across_packages():
    found = [hit for path in _modules() for hit in _private_imports(path)]
    assert not found, "private names imported from another package: make them public\n" \
        + "\n".join(found)


@pytest.mark.parametrize(("module", "line", "flagged"), [
    ("logicscore/pipeline/signals.py", "from .chain import _Ctx", True),
    ("logicscore/pipeline/signals.py", "from .chain import Chain", False),
    ("logicscore/pipeline/extract/rules.py", "from ..normalize.mentions import _trim", True),
    ("logicscore/pipeline/extract/rules.py", "from .mentions import _phrase", False),
    ("logicscore/lexicon/__init__.py", "from ._sets import words", False),
    ("logicscore/measure/bench.py", "from .lexicon._sets import words", True),
])
def test_private_import_rule(tmp_path, monkeypatch, module, line, flagged):
    # The rule reads a file in place: a copy at the same relative path under a stand-in package.
    fake = tmp_path / "logicscore" / module.removeprefix("logicscore/")
    fake.parent.mkdir(parents=True, exist_ok=True)
    fake.write_text(line + "\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path / "logicscore")
    assert bool(_private_imports(fake)) is flagged
