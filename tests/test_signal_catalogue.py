"""The signal catalogue (logicscore/lexicon/signals.py) is the one place a kind is declared:
every kind the code can emit is in it at its severity, records refuse any other, and the
JSON schema, the HTML report's legend and docs/metrics.md read it.

The corpora tests (tests/test_corpus*.py, tests/test_realdata.py) score whole corpora through
`models.Signal`, whose validator rejects an uncatalogued kind, so a kind built at run time
and missing here fails them too.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from logicscore.lexicon.signals import SIGNAL_MEANINGS, SIGNALS
from logicscore.models import AuditResult, Signal

ROOT = Path(__file__).parents[1]
PACKAGE = ROOT / "logicscore"
SEVERITIES = ("hard", "soft", "info")


def _emitted() -> list[tuple[str, int, str, str]]:
    """(file, line, kind, severity) of every `Signal(...)` built in the package."""
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "Signal"):
                continue
            args = {k.arg: k.value for k in node.keywords}
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            kind, severity = args.get("kind"), args.get("severity")
            # A kind or severity computed at run time could not be checked here.
            assert isinstance(kind, ast.Constant) and isinstance(severity, ast.Constant), (
                f"{where}: write the signal's kind and severity as literals")
            out.append((where, node.lineno, kind.value, severity.value))
    return out


def test_catalogue_every_kind_emitted_is_declared_at_its_severity():
    emitted = _emitted()
    assert len(emitted) >= len(SIGNALS)
    wrong = [(where, kind, severity) for where, _, kind, severity in emitted
             if kind not in SIGNALS or severity not in SIGNALS[kind].severities]
    assert not wrong, f"not in the catalogue at that severity: {wrong}"


def test_catalogue_declares_only_kinds_the_code_emits():
    emitted = {(kind, severity) for _, _, kind, severity in _emitted()}
    declared = {(kind, s) for kind, entry in SIGNALS.items() for s in entry.severities}
    assert declared == emitted, f"declared but never emitted: {sorted(declared - emitted)}"


def test_catalogue_entries_are_well_formed():
    for kind, entry in SIGNALS.items():
        assert re.fullmatch(r"[a-z]+(?:_[a-z]+)*", kind), kind
        assert entry.severities and set(entry.severities) <= set(SEVERITIES), kind
        assert entry.meaning and "\n" not in entry.meaning, kind
    assert {k: v.meaning for k, v in SIGNALS.items()} == SIGNAL_MEANINGS


@pytest.mark.parametrize("kind, severity, error", [
    ("contradictions", "hard", "not in the catalogue"),
    ("redundant", "hard", "is info in the catalogue, not 'hard'"),
    ("hedged_on_chain", "info", "is hard/soft in the catalogue"),
])
def test_catalogue_records_refuse_other_kinds_and_severities(kind, severity, error):
    with pytest.raises(ValidationError, match=re.escape(error)):
        Signal(kind=kind, severity=severity, message="m")
    # ... also when read back from JSON, as `diff`, `gate` and `report` read runs.
    with pytest.raises(ValidationError, match=re.escape(error)):
        Signal.model_validate_json(json.dumps({"kind": kind, "severity": severity, "message": "m"}))


def test_catalogue_records_accept_every_declared_kind():
    for kind, entry in SIGNALS.items():
        for severity in entry.severities:
            assert Signal(kind=kind, severity=severity, message="m").kind == kind


def test_catalogue_is_the_schemas_list_of_kinds():
    schema = AuditResult.model_json_schema(by_alias=True)
    kind = schema["$defs"]["Signal"]["properties"]["kind"]
    assert kind["enum"] == list(SIGNALS)


def test_catalogue_is_the_signal_table_of_docs_metrics():
    text = (ROOT / "docs/metrics.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| ([a-z ]+) \| (.+) \|$", text, re.M)
    assert [(k, tuple(s.split(" or ")), m) for k, s, m in rows] == [
        (k, v.severities, v.meaning) for k, v in SIGNALS.items()]


def test_catalogue_holds_every_gold_signal_of_the_corpora():
    gold: set[str] = set()
    for path in sorted((ROOT / "corpora").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            labels = (json.loads(line).get("meta") or {}).get("gold") or {}
            gold.update(labels.get("signals", []))
    assert gold, "the fictional corpora carry gold signals"
    assert gold <= set(SIGNALS), sorted(gold - set(SIGNALS))
