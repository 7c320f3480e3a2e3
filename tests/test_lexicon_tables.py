"""Every word table lives in logicscore/lexicon/ (docs/architecture.md, "Where the rule tables
live"): no module elsewhere defines a set, frozenset, tuple or list of three or more words,
at module level or inline, nor a table written as a string of words to split.

A string is word-like when it is letters (with inner apostrophes, hyphens or spaces) and not
a name the program gives its own things: a spaCy label (`nsubj`, `PERSON`) or a field or
literal value of the record format (`logicscore/models.py`). What is left and still no word
table (column headers, JSON keys, option names) is listed below, table by table.
"""

from __future__ import annotations

import ast
import re
import typing
from pathlib import Path

import spacy.glossary
from pydantic import BaseModel

import logicscore.models

ROOT = Path(__file__).parents[1]
PACKAGE = ROOT / "logicscore"
MIN_WORDS = 3
_WORD = re.compile(r"[A-Za-z][a-z'\-]*(?: [A-Za-z][a-z'\-]*)*")
_TABLE_CALLS = {"frozenset", "set", "tuple", "list", "sorted", "words"}

# The corpus generator's invented world: syllables of fictional names and the kinds of its
# entities, never language the rules read. Their order is part of the seeded corpora.
FICTIONAL = {"logicscore/measure/corpus/names.py", "logicscore/measure/corpus/schema.py"}
# Strings that are the program's own names, not words it reads, table by table.
NOT_WORDS: dict[str, set[tuple[str, ...]]] = {
    # Column headers of rendered tables.
    "logicscore/measure/bench.py": {("class", "precision", "recall", "support"), ("precision", "recall", "support")},
    "logicscore/measure/calibrate.py": {("claimed class", "precision", "recall"),
                                ("perturbation", "completeness agrees", "failure agrees")},
    "logicscore/report/diff.py": {("metric", "old", "new", "delta")},
    "logicscore/report/gate.py": {("value", "threshold", "verdict", "detail")},
    "logicscore/report/thresholds.py": {("tool", "logicscore", "gate")},  # the pyproject table's path
    "logicscore/report/render.py": {("metric", "n", "mean", "median", "std"),
                                    ("category", "records", "share of scored")},
    # Labels: gold label values, perturbation kinds, the citations a fictional record carries.
    # The reasons a hop check gives for an incomplete record, beside its check kinds.
    "logicscore/report/hops.py": {("no hop read", "anchor not written", "answer does not follow")},
    "logicscore/measure/corpus/__init__.py": {("doc", "doc", "none")},
    # Keys of other tools' rows and of input records.
    "logicscore/formats/rag.py": {("response", "reference", "contexts", "metadata")},
    "logicscore/io.py": {("response", "output", "prediction")},
    # Protocol names: structured-output modes, HTTP content encodings, spaCy components,
    # Unicode categories.
    "logicscore/llm/structured.py": {("schema", "object-schema", "vllm", "ollama")},
    "logicscore/llm/transport.py": {("identity", "gzip", "deflate")},
    "logicscore/parsing/loader.py": {("transformer", "tagger", "morphologizer", "parser", "lemmatizer", "ner")},
    "logicscore/inert.py": {("Cc", "Cf", "Zl", "Zp", "Cs")},
    # The invented names of the report's synthetic example record.
    "logicscore/report/synthetic.py": {("Ana", "Bel", "Cor", "tea")},
}


def _own_names() -> set[str]:
    names = set(spacy.glossary.GLOSSARY)
    for value in vars(logicscore.models).values():
        if isinstance(value, type) and issubclass(value, BaseModel):
            for field, info in value.model_fields.items():
                names.update(n for n in (field, info.alias) if n)
        elif typing.get_origin(value) is typing.Literal:
            names.update(typing.get_args(value))
    return names


OWN_NAMES = _own_names()


def _word_like(value: object) -> bool:
    return isinstance(value, str) and bool(_WORD.fullmatch(value)) and value not in OWN_NAMES


def _strings(node: ast.AST) -> list[str] | None:
    """The strings of a table node, or None when the node is no table."""
    if isinstance(node, (ast.Set, ast.Tuple, ast.List)):
        return [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    if isinstance(node, ast.Call):
        func = node.func
        # "a b c".split(): a table written as one string.
        if (isinstance(func, ast.Attribute) and func.attr == "split" and not node.args
                and isinstance(func.value, ast.Constant) and isinstance(func.value.value, str)):
            return func.value.value.split()
        # words("a b c") of the lexicon's helper, frozenset("abc") is no table of words.
        if (isinstance(func, ast.Name) and func.id == "words" and node.args
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            return node.args[0].value.split()
    return None


def word_tables(path: Path) -> list[tuple[int, tuple[str, ...]]]:
    """(line, words) of every table of three or more word-like strings in one module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript):  # Literal["a", "b", "c"] is a type
            skip.update(id(n) for n in ast.walk(node.slice))
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            skip.add(id(node.value))
    found = []
    for node in ast.walk(tree):
        strings = None if id(node) in skip else _strings(node)
        if strings is None:
            continue
        words = tuple(s for s in strings if _word_like(s))
        if len(words) >= MIN_WORDS:
            found.append((node.lineno, words))
    return sorted(found)


def _modules() -> list[Path]:
    return [p for p in sorted(PACKAGE.rglob("*.py")) if "lexicon" not in p.relative_to(PACKAGE).parts]


def test_lexicon_holds_every_word_table():
    stray = []
    for path in _modules():
        rel = path.relative_to(ROOT).as_posix()
        if rel in FICTIONAL:
            continue
        for line, words in word_tables(path):
            if words not in NOT_WORDS.get(rel, set()):
                stray.append(f"{rel}:{line}: {words}")
    assert not stray, "word tables outside logicscore/lexicon/:\n" + "\n".join(stray)


def test_lexicon_allowances_are_still_needed():
    """An allowance whose table is gone goes too, so the lists cannot grow stale."""
    for rel, allowed in NOT_WORDS.items():
        present = {words for _, words in word_tables(ROOT / rel)}
        assert allowed <= present, f"{rel}: no longer defines {sorted(allowed - present)}"
    for rel in FICTIONAL:
        assert word_tables(ROOT / rel), f"{rel} defines no word table any more"


def test_lexicon_scan_finds_the_tables_it_is_about(tmp_path):
    """The scan sees each way a table is written, and passes what is not one."""
    module = tmp_path / "m.py"
    module.write_text('''
from typing import Literal
__all__ = ["alpha", "beta", "gamma"]
Kind = Literal["apple", "pear", "plum"]
A = frozenset({"in", "on", "at"})
B = ("the", "a", "an")
C = frozenset("of and for".split())
D = words("so thus hence")
def f(w):
    return w in ["never", "not", "no"]
E = ("nsubj", "dobj", "pobj")
F = ("PERSON", "GPE", "ORG")
G = ("completeness", "conciseness", "determinateness")
H = ("in", "on")
''')
    found = [words for _, words in word_tables(module)]
    assert found == [("in", "on", "at"), ("the", "a", "an"), ("of", "and", "for"),
                     ("so", "thus", "hence"), ("never", "not", "no")]
