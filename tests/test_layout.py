"""The package's shape: module and function sizes, and no private names across modules."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "logicscore"
# Sizes are limited per concept (docs/architecture.md): a wing's package, a seam, or one
# stage of the pipeline. Past its budget a concept usually holds two: split out the second,
# or raise the budget in the same commit and say why. A module is only capped loosely, so
# that a concept is never cut in two by length alone.
# llm: 1400 since issue 38, whose redaction reads every form of a secret (reversed, base64,
# split by separators) and the URL's credentials: one concept, the endpoint's secrets.
CONCEPT_LINES = {
    "cli": 2000, "measure": 4200, "report": 2800, "run": 850, "integrations": 300,
    "auditor": 650, "formats": 1300, "io": 500, "lexicon": 1400, "llm": 1450, "parsing": 900,
    "models": 450, "pipeline/extract": 2700, "pipeline/normalize": 2700, "pipeline/question": 2150,
    "pipeline/ground": 450, "pipeline/hops": 750, "pipeline/text": 2200, "pipeline/flow": 350,
    "pipeline/registry": 250,
}
# The auditor gained the hop step (650); the hop stage holds three stages (rules, llm, given)
# over one verification and the verdict from hops (750; the offline verdict is its own); the
# report shows hops and unverified records (2800); io reads every input with one bound (500).
DEFAULT_CONCEPT_LINES = 450
MAX_MODULE_LINES = 700
MAX_FUNCTION_LINES = 60
# The stages, whose functions stay short enough to read as one rule each.
STAGES = ("question", "extract", "normalize", "chain.py", "graph.py", "determinate.py",
          "signals.py", "score.py")


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _name(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


def _is_stage(path: Path) -> bool:
    name = _name(path)
    return name.startswith("pipeline/") and name.split("/")[1] in STAGES


def test_no_module_over_the_limit():
    long = [f"{_name(p)}: {n} lines" for p in _modules()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES]
    assert not long, f"modules over {MAX_MODULE_LINES} lines: split them\n" + "\n".join(long)


def _concept(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return "/".join(parts[:2]) if parts[0] == "pipeline" and len(parts) > 1 else parts[0]


def test_no_concept_over_its_budget():
    sizes: dict[str, int] = {}
    for path in _modules():
        concept = _concept(path)
        sizes[concept] = sizes.get(concept, 0) + len(path.read_text(encoding="utf-8").splitlines())
    over = [f"{c}: {n} lines, budget {CONCEPT_LINES.get(c, DEFAULT_CONCEPT_LINES)}"
            for c, n in sorted(sizes.items()) if n > CONCEPT_LINES.get(c, DEFAULT_CONCEPT_LINES)]
    assert not over, "concepts over their budget: split out the second concept, or raise the " \
        "budget saying why\n" + "\n".join(over)
    assert set(CONCEPT_LINES) <= set(sizes), "budgets for concepts that are gone"


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
    """The stage (or other top-level module or subpackage) a module belongs to; inside the
    pipeline wing, each stage is its own unit."""
    parts = module.split(".")
    if len(parts) > 2 and parts[1] == "pipeline":
        return ".".join(parts[1:3])
    return parts[1] if len(parts) > 1 else ""


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
    ("logicscore/measure/bench.py", "from ..lexicon._sets import words", True),
])
def test_private_import_rule(tmp_path, monkeypatch, module, line, flagged):
    # The rule reads a file in place: a copy at the same relative path under a stand-in package.
    fake = tmp_path / "logicscore" / module.removeprefix("logicscore/")
    fake.parent.mkdir(parents=True, exist_ok=True)
    fake.write_text(line + "\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path / "logicscore")
    assert bool(_private_imports(fake)) is flagged
