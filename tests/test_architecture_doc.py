"""docs/architecture.md, "Where the rule tables live" and "How to add a rule": a newcomer can
follow them alone, so what they name exists and their worked example runs.

tests/test_docs.py runs the example block as any doc block; here it runs in this process so
its result can be checked, and every file and table the two sections name is looked up.
"""

from __future__ import annotations

import re
from pathlib import Path

from logicscore.pipeline.question.types import TYPE_RULES, classify

ROOT = Path(__file__).parents[1]
DOC = (ROOT / "docs/architecture.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    start = DOC.index(f"\n## {title}\n")
    end = DOC.find("\n## ", start + 1)
    return DOC[start:end if end >= 0 else None]


TABLES = _section("Where the rule tables live")
HOW_TO = _section("How to add a rule")


def _python_blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```$", text, re.M | re.S)


def test_architecture_doc_example_adds_a_rule_that_fires():
    blocks = _python_blocks(HOW_TO)
    assert len(blocks) == 1
    space: dict = {}
    exec(compile(blocks[0], "docs/architecture.md", "exec"), space)  # its own asserts run too
    rules, rows = space["RULES"], space["ROWS"]
    (name, examples), = rows.items()
    assert [r.name for r in rules] == [r.name for r in TYPE_RULES] + [name]
    assert len(examples) >= 3 and len({q for q, *_ in examples}) == len(examples)
    for question, answer, anchors, expected in examples:
        # Unread before the rule (scored as bridge with an `unclassified_question` signal) ...
        assert classify(question, answer, anchors) == ("bridge", None)
        # ... and read by it after.
        assert classify(question, answer, anchors, rules) == (expected, name)


def test_architecture_doc_names_files_that_exist():
    paths = set(re.findall(r"`((?:logicscore|tests|scripts|prompts)/[\w/.]+)`", TABLES + HOW_TO))
    assert len(paths) >= 10
    missing = sorted(p for p in paths if not (ROOT / p).exists())
    assert not missing, missing


def test_architecture_doc_names_tables_where_they_are():
    pairs = re.findall(r"((?:`[A-Z_]+`(?:, | and )?)+) in `((?:logicscore|tests)/[\w/.]+\.py)`",
                       TABLES + HOW_TO)
    assert len(pairs) >= 6
    for names, path in pairs:
        source = (ROOT / path).read_text(encoding="utf-8")
        for name in re.findall(r"`([A-Z_]+)`", names):
            assert re.search(rf"^{name}\b.*=", source, re.M), f"{name} is not defined in {path}"


def test_architecture_doc_lists_every_lexicon_module():
    listed = set(re.findall(r"`(\w+\.py)`", TABLES))
    modules = {p.name for p in (ROOT / "logicscore/lexicon").glob("*.py") if not p.name.startswith("_")}
    assert modules <= listed, sorted(modules - listed)


def test_architecture_doc_measuring_step_uses_real_options():
    script = (ROOT / "scripts/eval_llm_answers.py").read_text(encoding="utf-8")
    options = set(re.findall(r"eval_llm_answers\.py((?: --[\w-]+(?: [\w.]+)?)*)", HOW_TO))
    flags = {f for group in options for f in re.findall(r"--[\w-]+", group)}
    assert flags >= {"--json", "--compare", "--disagreements"}
    assert all(f'"{f}"' in script for f in flags), flags
