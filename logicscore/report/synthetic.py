"""Valid output records made up from a few knobs: for tests of reports and the gate, and the
streaming benchmark (`scripts/bench_report.py`). Nothing here runs the auditor."""

from __future__ import annotations

import random

from ..models import AuditResult

SIGNATURE = "logicscore:0.1.0|extractor:rules|synthetic"


def make_result(id_: str, kind: str = "complete", *, line: int | None = None, hops: int = 2,
                signature: str = SIGNATURE, correct: bool | None = None,
                conciseness: float = 0.5, meta: dict | None = None) -> AuditResult:
    """One record of category `kind` ('complete', 'broken', 'circular', 'deviated', 'error',
    'unverified': a run with a hop stage whose completeness the text left undecided)."""
    base = {"id": id_, "meta": {"signature": signature, "line": line, "hops": hops,
                                "record": meta or {}}}
    if kind == "error":
        return AuditResult.model_validate({**base, "status": "error", "error": {
            "type": "InputError", "message": "missing field long_answer", "line": line}})
    if kind == "unverified":
        return _unverified(make_result(id_, "broken", line=line, hops=hops, signature=signature,
                                       correct=correct, conciseness=conciseness, meta=meta))
    complete = kind == "complete"
    props = [{"id": "P1", "text": "Ana wrote Bel.", "subject": "Ana", "relation": "write",
              "object": "Bel", "subject_entity": "E1", "object_entity": "E2", "span": [0, 14]},
             {"id": "P2", "text": "Bel is set in Cor.", "subject": "Bel", "relation": "set in",
              "object": "Cor", "subject_entity": "E2", "object_entity": "E3", "sentence": 1,
              "span": [15, 33]},
             {"id": "P3", "text": "Ana likes tea.", "subject": "Ana", "relation": "like",
              "object": "tea", "subject_entity": "E1", "object_entity": "E4", "sentence": 2,
              "span": [34, 48]}]
    gap = None if complete else {"from": "Cor", "to": "Dov", "anchor": "Dov"}
    return AuditResult.model_validate({
        **base, "status": "ok",
        "scores": {"completeness": int(complete), "conciseness": conciseness if complete else 0.0,
                   "determinateness": int(complete), "partial_completeness": 1.0 if complete else 0.67,
                   "conciseness_partial": conciseness},
        "determinateness": "entailed" if complete else "underdetermined",
        "question_entities": [{"name": "Cor" if complete else "Dov", "anchor": True,
                               "reached": complete, "entity": "E3" if complete else None}],
        "answer_entity": "Ana", "chain": ["P2", "P1"] if complete else [],
        "diagnosis": {"failure": None if complete else kind, "gap": gap, "gaps": [gap] if gap else [],
                      "redundant": ["P3"], "signals": [
                          {"kind": "redundant", "severity": "info", "propositions": ["P3"],
                           "message": "P3 is off every minimal chain"}]},
        "propositions": props,
        "entities": [{"id": f"E{i}", "name": n} for i, n in enumerate(["Ana", "Bel", "Cor", "tea"], 1)],
        "correct": correct,
    })


UNVERIFIED_WHY = "every entity is written but no sentence joins Cor to Dov, nor rules it out"


def _unverified(broken: AuditResult) -> AuditResult:
    """`broken` with its completeness left undecided, as the rules hop stage leaves it."""
    data = broken.model_dump(mode="json", by_alias=True)
    data["scores"]["completeness"] = None
    data["completeness"] = "unverified"
    data["diagnosis"].update(failure=None, gap=None, gaps=[])
    data["diagnosis"]["signals"].insert(0, {"kind": "unverified", "severity": "info", "propositions": [],
                                            "message": UNVERIFIED_WHY})
    return AuditResult.model_validate(data)


def synthetic_run(n: int, seed: int = 0, signature: str = SIGNATURE):
    """`n` records with a seeded mix of categories, hop counts and conciseness values."""
    rng = random.Random(seed)
    kinds = ["complete"] * 6 + ["broken"] * 2 + ["circular", "deviated"]
    for i in range(n):
        kind = "error" if rng.random() < 0.01 else rng.choice(kinds)
        yield make_result(f"s{i}", kind, line=i + 1, hops=rng.randint(1, 5), signature=signature,
                          correct=rng.random() < 0.7, conciseness=round(rng.random(), 4),
                          meta={"model": rng.choice(["a", "b"])})
