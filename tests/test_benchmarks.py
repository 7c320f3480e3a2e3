"""The real-data harness from outside the package: its scripts, the corpus it writes for
`logicscore bench`, bench on gold that knows only the label, and a wheel that leaves it out."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from benchmarks.realdata import Case, Hop, Item, Line, make_cases
from benchmarks.realdata.corpus import gold_record, start_name
from benchmarks.realdata.datasets import parse_hotpot
from logicscore.measure import bench
from logicscore.measure.bench import Pred
from test_realdata import HOTPOT

ROOT = Path(__file__).resolve().parents[1]

BAND = HOTPOT  # the same HotpotQA-shaped record the harness's own tests read
DRUMMER = {**BAND, "_id": "h2", "question": "Which drummer played with Toto?", "answer": "Jeffrey Porcaro",
           "supporting_facts": [["Jeff Porcaro", 0], ["Jeff Porcaro", 1], ["Neil Peart", 0]]}
COMPARED = {**BAND, "_id": "h3", "type": "comparison", "question": "Were Neil Peart and Jeff Porcaro "
            "both drummers?", "answer": "yes",
            "supporting_facts": [["Neil Peart", 0], ["Jeff Porcaro", 0]]}


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def data(tmp_path) -> Path:
    folder = tmp_path / "data" / "hotpotqa"
    folder.mkdir(parents=True)
    lines = [json.dumps(r) for r in (BAND, DRUMMER, COMPARED)]
    (folder / "hotpotqa_dev_distractor_migres200.jsonl").write_text("\n".join(lines) + "\n")
    return tmp_path / "data"


def _eval(capsys, *args) -> tuple[int, str, str]:
    code = _script("eval_real").main([*map(str, args)])
    out = capsys.readouterr()
    return code, out.out, " ".join(out.err.split())


# ---- scripts/eval_real.py ----

@pytest.mark.slow
def test_eval_real_workers_and_options(data, capsys):
    code, out, _ = _eval(capsys, "--data", data, "--dataset", "hotpot", "--workers", 1, "--json")
    assert code == 0
    report = json.loads(out)
    section = report["datasets"]["hotpotqa"]
    assert list(report["datasets"]) == ["hotpotqa"] and section["records"] == 3
    assert section["cases"]["gold"] == 2 and section["cases"]["hop_removed"] == 2
    assert section["types"]["yes/no"]["scored"] is False
    assert "fuzzy:85" in report["settings"]["signature"]
    # Worker processes give the same report, and get the auditor options.
    code, pooled, _ = _eval(capsys, "--data", data, "--dataset", "hotpot", "--workers", 2, "--json")
    assert code == 0 and json.loads(pooled) == report
    code, out, _ = _eval(capsys, "--data", data, "--dataset", "hotpot", "--workers", 2, "--json",
                         "--fuzzy-threshold", 90)
    assert code == 0 and "fuzzy:90" in json.loads(out)["settings"]["signature"]
    code, md, _ = _eval(capsys, "--data", data, "--dataset", "hotpot", "--workers", 1, "--md")
    assert code == 0 and md.startswith("| metric | hotpotqa | target |\n|---|---:|---|\n")
    assert "| completeness recall (gold) |" in md


def test_eval_real_failures(data, tmp_path, capsys, monkeypatch):
    code, _, said = _eval(capsys, "--data", data, "--dataset", "squad")
    assert code == 2 and "known: 2wikimultihopqa" in said
    code, _, said = _eval(capsys, "--data", data, "--dataset", "musique")  # its file is not there
    assert code == 1 and "musique" in said and "--data" in said
    code, _, said = _eval(capsys, "--data", data, "--fuzzy-threshold", 150)
    assert code == 2 and "fuzzy_threshold" in said
    monkeypatch.setenv("LOGICSCORE_DATA", str(tmp_path / "nowhere"))
    code, _, said = _eval(capsys)
    assert code == 1 and "LOGICSCORE_DATA" in said


# ---- scripts/real_cases.py: the cases as a corpus for `logicscore bench` ----

def _written(data, tmp_path, *args) -> list[dict]:
    out = tmp_path / "real.jsonl"
    code = _script("real_cases").main(["--data", str(data), "--dataset", "hotpot", "-o", str(out), *args])
    assert code == 0
    return [json.loads(line) for line in out.read_text().splitlines()]


def test_real_cases_gold_labels(data, tmp_path):
    records = _written(data, tmp_path)
    items = {r["_id"]: parse_hotpot(r) for r in (BAND, DRUMMER, COMPARED)}
    built = [c for c in make_cases(list(items.values()), 0) if isinstance(c, Case) and c.scored]
    assert [r["id"] for r in records] == [c.id for c in built]  # evaluate's cases, its order
    assert [r["long_answer"] for r in records] == [c.long_answer for c in built]
    for record, case in zip(records, built):
        gold = record["meta"]["gold"]
        assert gold["completeness"] == (case.kind in ("gold", "distractor"))
        assert gold["failure"] == (None if gold["completeness"] else "broken")
        assert gold["answer_entity"] == case.answer
        assert gold["question_entity"] == start_name(items[case.record_id])
        assert record["meta"]["variants"][:2] == ["hotpotqa", case.kind]
        assert ("noisy" in record["meta"]["variants"]) == bool(gold.get("noise")) == case.noisy
        assert "conciseness" not in gold and "determinateness" not in gold
    assert any(r["meta"]["variants"][2:] == ["noisy"] for r in records)
    every = _written(data, tmp_path, "--all-types")
    assert [r["id"] for r in every if "unscored" in r["meta"]["variants"]] == ["hotpotqa:h3#gold"]
    assert len(every) == len(records) + 1


def _item(title: str, evidences=()) -> Item:
    hop = Hop(title, (Line("Usher was born in Dallas.", title, 0),))
    return Item(dataset="d", id="x", qtype="bridge", scored=True, question="Where was Usher born?",
                answer="Dallas", hops=(hop,), evidences=evidences)


@pytest.mark.parametrize("item, expected", [
    (_item("Usher (musician)"), "Usher"),                                         # as written
    (_item("Usher (musician)", (("Usher Raymond", "place of birth", "Dallas"),)), "Usher Raymond"),
    (_item(""), None),                                                            # no titles
])
def test_real_cases_start_name(item, expected):
    assert start_name(item) == expected
    case = next(c for c in make_cases([item]) if isinstance(c, Case))
    gold = gold_record(case, item)["meta"]["gold"]
    assert gold.get("question_entity") == expected and ("question_entity" in gold) == bool(expected)


@pytest.mark.slow
def test_real_cases_scored_by_logicscore_bench(data, tmp_path):
    from typer.testing import CliRunner

    from logicscore.cli import app
    records = _written(data, tmp_path)
    res = CliRunner().invoke(app, ["bench", str(tmp_path / "real.jsonl"), "--json"])
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    assert report["n"] == len(records) and report["errors"] == 0
    assert report["completeness_accuracy"] is not None
    assert report["conciseness_mae"] is None and report["determinateness_accuracy"] is None
    tags = [t for r in records for t in r["meta"]["variants"]]
    assert {"hotpotqa", "gold", "hop_removed", "noisy"} <= set(report["by_variant"])
    assert {k: v["n"] for k, v in report["by_variant"].items()} == {t: tags.count(t) for t in tags}


# ---- bench on gold that knows only the label ----

def _record(label: str, **gold) -> dict:
    complete = label == "complete"
    return {"id": label, "question": "Who directed Inception?", "answer": "Christopher Nolan",
            "long_answer": "Inception was directed by Christopher Nolan.",
            "meta": {"gold": {"completeness": int(complete), "failure": None if complete else label,
                              **gold}}}


def test_bench_scores_only_the_gold_that_is_given():
    golds = [_record("complete", conciseness=1.0, determinateness="entailed")["meta"]["gold"],
             _record("complete")["meta"]["gold"], _record("broken")["meta"]["gold"]]
    preds = [Pred(1, "complete", 0.5, None, "entailed"), Pred(1, "complete", 0.2, None, "refuted"),
             Pred(1, "complete", 0.9, None, "refuted")]
    out = bench.score(golds, preds)
    assert out["completeness_accuracy"] == round(2 / 3, 4)
    assert out["conciseness_mae"] == 0.5 and out["determinateness_accuracy"] == 1.0
    labels_only = bench.score(golds[1:], preds[1:])
    assert labels_only["conciseness_mae"] is None and labels_only["determinateness_accuracy"] is None


def test_bench_baselines_without_conciseness_or_question_entity():
    records = [_record("complete"), _record("complete"), _record("broken")]
    majority = bench.majority_baseline(records)
    assert [p.label for p in majority] == ["complete"] * 3 and majority[0].conciseness == 0.0
    # The greedy search stops at a question entity; with none given it never does.
    assert [p.label for p in bench.greedy_baseline(records)] == ["broken"] * 3
    named = [_record("complete", question_entity="Inception")]
    assert bench.greedy_baseline(named)[0].label == "complete"


# ---- the wheel ----

# Sample-file names and the data path the harness reads. The package reads these datasets'
# records (`--format hotpotqa`, 2wiki, musique), never their files.
DATASET_NAMES = ("hotpotqa_dev", "2wikimultihopqa_dev", "musique_ans_dev", "entailmentbank", "fireact",
                 "shared/data")


def test_wheel_leaves_the_harness_out(tmp_path):
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                            str(tmp_path), str(ROOT)], capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp_path.glob("logicscore-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        found = {(name, word) for name in names for word in DATASET_NAMES
                 if word in zf.read(name).decode("utf-8", "replace")}
    assert not found, sorted(found)
    assert not [n for n in names if "realdata" in n or n.startswith("benchmarks/")]
    assert "logicscore/cli/__init__.py" in names and any(n.startswith("logicscore/_prompts/") for n in names)
