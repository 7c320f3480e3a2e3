"""`--hops llm` on real model answers, offline: the shared replay server answers each record with a
strong model's recorded hop reply (`shared/tools/llm_replay.py`, `shared/data/llm-answers/
hops-strong.jsonl`), so everything after the model is measured on the labelled answers.

The floors are the hop issue's targets (docs/metrics.md, "Hops"): balanced accuracy at least
0.92 on each source and 0.90 for each model, no record errored.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest

from benchmarks.realdata.datasets import locate_data
from logicscore import Auditor
from logicscore.measure.labelled import LABEL, measure, strip_labels

pytestmark = pytest.mark.slow

DATA = locate_data(Path(__file__))
ANSWERS = DATA / "llm-answers"
REPLAY = DATA.parent / "tools" / "llm_replay.py"
SOURCES = {"fireact": "fireact_hotpotqa.jsonl", "probtree": "probtree_2wiki_musique.jsonl"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def replay():
    port = _free_port()
    proc = subprocess.Popen([sys.executable, str(REPLAY), "--replies", str(ANSWERS / "hops-strong.jsonl"),
                             "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.1)
    else:
        proc.kill()
        pytest.fail(f"the replay server did not start: {proc.stderr.read().decode() if proc.stderr else ''}")
    yield f"http://127.0.0.1:{port}/v1"
    proc.kill()
    proc.wait()


@pytest.fixture(scope="module")
def scored(replay, tmp_path_factory):
    auditor = Auditor(timing=False, hops="llm",
                      llm={"base_url": replay, "model": "replay", "cache": False, "concurrency": 8})
    out = {}
    for source, name in SOURCES.items():
        records = [json.loads(line) for line in (ANSWERS / name).read_text(encoding="utf-8").splitlines()]
        results = list(auditor.audit_many(strip_labels(r) for r in records))
        out[source] = list(zip(records, results))
    return out


def test_no_record_errors(scored):
    errors = [(r["id"], res.error.message) for pairs in scored.values() for r, res in pairs
              if res.status != "ok"]
    assert not errors, errors[:3]


def test_balanced_accuracy_per_source_and_per_model(scored):
    groups: dict[str, list] = defaultdict(list)
    for source, pairs in scored.items():
        for record, result in pairs:
            if record[LABEL] == "ambiguous":
                continue
            pair = (record[LABEL] == "complete", bool(result.scores.completeness))
            groups[source].append(pair)
            groups[f"model {record['model']}"].append(pair)
    figures = {g: measure(p)["balanced_accuracy"] for g, p in groups.items()}
    assert all(figures[s] >= 0.92 for s in SOURCES), figures
    assert all(v >= 0.90 for g, v in figures.items() if g.startswith("model ")), figures


def test_a_complete_record_cites_sentences_the_long_answer_writes(scored):
    for pairs in scored.values():
        for record, result in pairs:
            if not (result.scores and result.scores.completeness):
                continue
            for hop in result.hops.hops:
                assert hop.stated and hop.span is not None
                a, b = hop.span
                assert record["long_answer"][a:b] == hop.evidence


def test_escalate_decides_every_unverified_record_through_the_replay(replay):
    """`--escalate`: the records the offline verdict leaves unverified, and only those, go to
    the model's hop check; every record is then decided."""
    offline = Auditor(timing=False, hops="rules")
    escalating = Auditor(timing=False, hops="rules", escalate=True,
                         llm={"base_url": replay, "model": "replay", "cache": False})
    records = [strip_labels(json.loads(line))
               for line in (ANSWERS / SOURCES["probtree"]).read_text(encoding="utf-8").splitlines()]
    before = list(offline.audit_many(records))
    after = list(escalating.audit_many(records))
    unverified = {r.id for r in before if r.completeness == "unverified"}
    assert unverified, "the offline verdict leaves some ProbTree records unverified"
    assert {r.id for r in after if r.hops.stage == "llm"} == unverified
    assert all(r.status == "ok" and r.completeness != "unverified" for r in after)
    # What the rules decided stays as it was.
    assert all(a.completeness == b.completeness for a, b in zip(before, after) if b.id not in unverified)
