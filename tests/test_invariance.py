"""invariance: verdict flips on restyled labelled answers, counted per transform, group and
label; the `bench --styles` command around it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from logicscore.measure import invariance
from logicscore.models import AuditResult, ResultMeta, Scores
from logicscore.measure.perturb import styles

from fakes import RecordingAuditor

ROOT = Path(__file__).resolve().parents[1]


def _rec(rid, label="complete", model="m1",
         long_answer="Selvarine was shot in Velmora. Corin Valdez directed Selvarine."):
    return {"id": rid, "question": "Who directed the film shot in Velmora?", "answer": "Corin Valdez",
            "long_answer": long_answer, "label_completeness": label, "model": model}


def _res(rid, complete):
    return AuditResult(id=rid, scores=Scores(completeness=complete, conciseness=0.5, determinateness=1,
                                             partial_completeness=1.0, conciseness_partial=0.5),
                       determinateness="entailed", meta=ResultMeta(signature="t"))


def _reads_bullets(rec):
    """Complete iff the answer is not a list, except that a list of an incomplete answer
    reads complete: a verdict that flips on exactly one known transform."""
    listed = rec.long_answer.startswith("- ")
    incomplete = "Corin Valdez directed" not in rec.long_answer
    return _res(rec.id, int(listed if incomplete else not listed))


def _reads_bullets_auditor():
    return RecordingAuditor(_reads_bullets)


def test_run_counts_flips_per_transform_group_and_label():
    records = [_rec("a:1"), _rec("a:2", model="m2"), _rec("b:1", label="ambiguous"),
               _rec("b:2", label="incomplete", long_answer="Selvarine was shot in Velmora. It won a prize.")]
    fake = _reads_bullets_auditor()
    report = invariance.run(records, fake, seed=0, transforms=("bullets", "lead_in", "pronoun"))
    data = report.to_json_dict()
    assert data["n"] == 4 and data["ambiguous"] == 1 and data["signature"] == "fake|1"
    assert all(not any(k.startswith("label_") for k in r.meta) for r in fake.seen)
    bullets = data["by_transform"]["bullets"]
    assert bullets["all"]["complete"]["flips"] == 2 and bullets["all"]["complete"]["flip_rate"] == 1.0
    assert bullets["all"]["incomplete"]["became_complete"] == 1
    assert bullets["a / m2"]["complete"]["n"] == 1 and bullets["a / m2"]["complete"]["flips"] == 1
    assert "b / m1" in bullets and "a" in bullets and "b" in bullets
    lead = data["by_transform"]["lead_in"]["all"]["complete"]
    assert (lead["rewritten"], lead["flips"], lead["flip_rate"]) == (2, 0, 0.0)
    pron = data["by_transform"]["pronoun"]["all"]["complete"]
    assert pron["rewritten"] == 0 and pron["skipped"] == 2 and pron["flip_rate"] is None
    total = data["by_transform"]["all transforms"]["all"]["complete"]
    assert (total["rewritten"], total["flips"], total["skipped"]) == (4, 2, 2)
    assert report.headline() == {"complete_flip_rate": 0.5, "incomplete_became_complete_rate": 0.5}
    assert {(f["id"], f["transform"]) for f in data["flipped"]} == {("a:1", "bullets"), ("a:2", "bullets"),
                                                                   ("b:2", "bullets")}
    md = invariance.render_markdown(report)
    assert "| bullets | all | 2 (0 skipped) | 100.0% (2/2) | 1 (0 skipped) | 100.0% (1/1) |" in md
    assert "| pronoun | 3 | no sentence opens with a name the sentence before writes alone |" in md
    from io import StringIO

    from rich.console import Console

    buf = StringIO()
    Console(file=buf, width=200).print(invariance.render(report))
    table = buf.getvalue()
    assert "100.0% (2/2)" in table and "a / m2" in table and "now 50.0%" in table


def test_run_refuses_an_unknown_transform():
    with pytest.raises(ValueError, match="unknown transform"):
        invariance.run([_rec("a:1")], _reads_bullets_auditor(), transforms=("shout",))


def test_real_auditor_keeps_verdicts_of_plain_restylings(auditor):
    """Invented answers the rules path reads well: lead-ins and lists change no verdict."""
    records = [
        _rec("inv:1", long_answer="Selvarine is a 2004 film shot in Velmora. Corin Valdez directed Selvarine."),
        _rec("inv:2", label="incomplete", long_answer="Corin Valdez is a director."),
    ]
    report = invariance.run(records, auditor, transforms=("lead_in", "bullets", "numbered"))
    rows = report.to_json_dict()["by_transform"]
    for name in ("lead_in", "bullets", "numbered"):
        assert rows[name]["all"]["complete"]["flips"] == 0, name
    assert rows["lead_in"]["all"]["incomplete"]["became_complete"] == 0


def _cli(*args, cwd=ROOT):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "logicscore", "bench", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=600)


def test_cli_styles_same_seed_same_bytes(tmp_path):
    path = tmp_path / "answers.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in [
        _rec("inv:1", long_answer="Selvarine is a 2004 film shot in Velmora. Selvarine was directed by "
                                  "Corin Valdez. So the answer is: Corin Valdez."),
        _rec("inv:2", label="incomplete", long_answer="Corin Valdez is a director. Brel is far away.")]))
    first = _cli("--styles", "--json", "--seed", "4", str(path))
    again = _cli("--styles", "--json", "--seed", "4", str(path))
    assert first.returncode == 0, first.stderr
    assert first.stdout == again.stdout
    data = json.loads(first.stdout)
    assert data["kind"] == "styles" and data["seed"] == 4
    assert set(data["by_transform"]) == {"all transforms", *styles.TRANSFORMS}
    assert data["transforms"] == list(styles.TRANSFORMS)
    md = _cli("--styles", "--md", "--transform", "lead_in", str(path))
    assert md.returncode == 0 and "| lead_in | all |" in md.stdout and "| bullets |" not in md.stdout
    bad = _cli("--styles", "--transform", "shout", str(path))
    assert bad.returncode == 2 and "unknown --transform shout" in bad.stderr


def test_eval_script_measures_what_bench_measures(tmp_path):
    """scripts/eval_llm_answers.py and `bench FILE` read, audit and leave out the same records."""
    rows = [
        _rec("fireact:a:1", long_answer="Selvarine is a 2004 film shot in Velmora. Corin Valdez directed Selvarine."),
        _rec("fireact:a:2", label="incomplete", long_answer="Corin Valdez is a director."),
        _rec("fireact:a:3", label="ambiguous", long_answer="Corin Valdez directed it."),
        _rec("fireact:a:4", label="incomplete", long_answer="Selvarine was shot in Velmora by Corin Valdez."),
    ]
    for name in ("fireact_hotpotqa.jsonl", "probtree_2wiki_musique.jsonl"):
        (tmp_path / name).write_text("".join(json.dumps(r) + "\n" for r in rows))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    script = subprocess.run([sys.executable, str(ROOT / "scripts" / "eval_llm_answers.py"), "--json",
                             "--data", str(tmp_path)], capture_output=True, text=True, env=env, timeout=600)
    assert script.returncode == 0, script.stderr
    ours = json.loads(script.stdout)["fireact"]["logicscore"]
    cli = _cli("--json", str(tmp_path / "fireact_hotpotqa.jsonl"))
    assert cli.returncode == 0, cli.stderr
    theirs = json.loads(cli.stdout)["by_question_type"]["all"]
    assert ours["n"] == 3 == theirs["n"]
    for key in ("recall_hits", "specificity_hits", "balanced_accuracy"):
        assert ours[key] == theirs[key], key
