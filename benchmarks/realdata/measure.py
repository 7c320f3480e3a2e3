"""Running the auditor over real-data cases and turning results into the report.

`evaluate` is the whole measurement: load items, build cases, audit them (optionally in
worker processes, order kept), then `summarize` per dataset. The report is a plain dict of
counts and rounded shares: the same inputs and seed give the same bytes.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from logicscore import Auditor, AuditResult, QARecord

from . import compared as cmp
from . import diagnose as dx
from .cases import KINDS, Case, Item, make_cases
from .datasets import DATASETS, load_items, resolve_name

# (dataset or "*", metric, comparison, threshold): the targets for the extractor.
TARGETS = [
    ("2wikimultihopqa", "completeness_recall", ">=", 0.90),
    ("2wikimultihopqa", "evidence_pair_recall", ">=", 0.90),
    ("hotpotqa", "completeness_recall", ">=", 0.80),
    ("musique", "completeness_recall", ">=", 0.80),
    ("*", "hop_removed_recall", ">=", 0.85),
    ("*", "completeness_precision", ">=", 0.90),
    ("*", "distractor_broke_completeness", "<=", 0.05),
    ("*", "distractor_conciseness_fell", ">=", 0.95),
]
NOT_TARGETED = {
    "entailmentbank": (
        "exploratory: facts are common-noun statements ('the sun rising is a kind of event') "
        "and answers are often sentences, while the method chains named-entity bridges; "
        "reported for reference, held to no target"),
}
CHUNK = 8

_AUDITOR = None


def _init_worker(options: dict | None = None) -> None:
    global _AUDITOR
    _AUDITOR = Auditor(timing=False, **(options or {}))


def _audit_chunk(records: list[QARecord], auditor: Auditor | None = None) -> list[AuditResult]:
    if auditor is None and _AUDITOR is None:
        _init_worker()
    return list((auditor or _AUDITOR).audit_many(records))


def audit_cases(cases: list[Case], workers: int = 1, progress: Callable[[int], None] | None = None,
                auditor: Auditor | None = None, options: dict | None = None) -> Iterator[AuditResult]:
    """One result per case, in case order; `workers` > 1 audits in processes.

    `auditor` (in-process runs only) must be built with `timing=False`, like the workers'.
    `options` are `Auditor` keyword arguments for the auditor built when none is given.
    """
    chunks = [[c.record() for c in cases[i:i + CHUNK]] for i in range(0, len(cases), CHUNK)]
    if workers <= 1:
        if auditor is None:
            auditor = Auditor(timing=False, **(options or {}))
        for chunk in chunks:
            results = _audit_chunk(chunk, auditor)
            if progress:
                progress(len(results))
            yield from results
        return
    with ProcessPoolExecutor(max_workers=workers, initializer=_init_worker,
                             initargs=(options,)) as pool:
        for results in pool.map(_audit_chunk, chunks):
            if progress:
                progress(len(results))
            yield from results


def _share(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


def _complete(result: AuditResult) -> bool:
    return result.status == "ok" and result.scores is not None and result.scores.completeness == 1


class _Collector:
    """Causes and a few worked examples per failure category."""

    def __init__(self, examples: int):
        self.counts: dict[str, Counter] = defaultdict(Counter)
        self.examples: dict[str, list[dict]] = defaultdict(list)
        self.limit = examples

    def add(self, category: str, case: Case, result: AuditResult | None, cause: tuple[str, str],
            rank: float = 0.0) -> None:
        self.counts[category][cause[0]] += 1
        self.examples[category].append({"rank": rank, "case": case, "result": result, "cause": cause})

    def export(self) -> tuple[dict, dict]:
        counts = {k: dict(sorted(v.items(), key=lambda kv: (-kv[1], kv[0])))
                  for k, v in sorted(self.counts.items())}
        picked: dict[str, list[dict]] = {}
        for category, rows in sorted(self.examples.items()):
            rows.sort(key=lambda r: (r["rank"], r["case"].id))
            per_cause: Counter = Counter()
            out = []
            for row in rows:  # a few of every cause, worst (lowest partial score) first
                if per_cause[row["cause"][0]] < self.limit:
                    per_cause[row["cause"][0]] += 1
                    out.append(_example(row["case"], row["result"], row["cause"]))
            picked[category] = out
        return counts, picked


def _example(case: Case, result: AuditResult | None, cause: tuple[str, str]) -> dict:
    out = {"id": case.id, "cause": cause[0], "detail": cause[1], "question": case.question,
           "answer": case.answer}
    if result is None or result.status != "ok":
        out["lines"] = [{"text": line.text, "role": line.role} for line in case.lines]
        return out
    view = dx.View(case, result)
    gap = result.diagnosis.gap if result.diagnosis else None
    out.update({
        "question_entities": [
            {"name": q.name, "anchor": q.anchor, "reached": q.reached, "entity": view.name(q.entity)
             if q.entity else None} for q in result.question_entities],
        "answer_entity": result.answer_entity,
        "gap": gap.describe() if gap else None,
        "chain": result.chain,
        "lines": [{"text": line.text, "role": line.role, "propositions": view.line_props(i)}
                  for i, line in enumerate(case.lines)],
    })
    return out


def summarize(name: str, items: list[Item], duplicates: int, pairs: list[tuple[Case, AuditResult]],
              not_built: list[tuple[Item, str, str]], examples: int = 3) -> dict:
    """The report section of one dataset."""
    causes = _Collector(examples)
    scored = [(c, r) for c, r in pairs if c.scored]
    by_kind: dict[str, list[tuple[Case, AuditResult]]] = {k: [] for k in KINDS}
    for c, r in scored:
        by_kind[c.kind].append((c, r))
    gold_of = {c.record_id: r for c, r in by_kind["gold"]}

    gold_ok = 0
    for c, r in by_kind["gold"]:
        if _complete(r):
            gold_ok += 1
        else:
            rank = r.scores.partial_completeness if r.scores else -1.0
            causes.add("gold_incomplete", c, r, dx.why_incomplete(c, r), rank)
    kinds = {}
    for kind in ("hop_removed", "replaced"):
        rows = by_kind[kind]
        caught = [not _complete(r) for _, r in rows]
        clean = [hit for (c, _), hit in zip(rows, caught) if not c.noisy]
        for (c, r), hit in zip(rows, caught):
            if not hit:
                causes.add(f"{kind}_still_complete", c, r, dx.why_complete(c, r))
        kinds[kind] = (sum(caught), len(rows), sum(clean), len(clean), len(rows) - len(clean))

    fell = broke = base = 0
    for c, r in by_kind["distractor"]:
        gold = gold_of.get(c.record_id)
        if gold is None or not _complete(gold):
            continue
        base += 1
        if not _complete(r):
            broke += 1
            causes.add("distractor_broke", c, r, dx.why_padding_broke(c, r, gold))
        elif r.scores.conciseness < gold.scores.conciseness:
            fell += 1
        else:
            causes.add("distractor_conciseness_kept", c, r, dx.why_concise_kept(c, r, gold))

    predicted = [c for c, r in scored if _complete(r)]
    clean = [c for c in predicted if not c.noisy]
    metrics = {
        "completeness_recall": _share(gold_ok, len(by_kind["gold"])),
        "hop_removed_recall": _share(kinds["hop_removed"][0], kinds["hop_removed"][1]),
        "hop_removed_recall_clean": _share(kinds["hop_removed"][2], kinds["hop_removed"][3]),
        "replaced_recall": _share(kinds["replaced"][0], kinds["replaced"][1]),
        "replaced_recall_clean": _share(kinds["replaced"][2], kinds["replaced"][3]),
        "completeness_precision": _share(sum(c.label == "complete" for c in predicted), len(predicted)),
        "completeness_precision_clean": _share(sum(c.label == "complete" for c in clean), len(clean)),
        "distractor_conciseness_fell": _share(fell, base),
        "distractor_broke_completeness": _share(broke, base),
    }
    # With a hop stage that may leave completeness undecided (`--hops rules`): the share of
    # gold answers and of answers with a hop removed that it decided.
    undecided = {kind: sum(r.status == "ok" and r.scores is not None and r.scores.completeness is None
                           for _, r in by_kind[kind]) for kind in ("gold", "hop_removed")}
    if any(undecided.values()):
        metrics["gold_decided"] = _share(len(by_kind["gold"]) - undecided["gold"], len(by_kind["gold"]))
        metrics["hop_removed_decided"] = _share(kinds["hop_removed"][1] - undecided["hop_removed"],
                                                kinds["hop_removed"][1])
    counts = {
        "gold": len(by_kind["gold"]), "hop_removed": kinds["hop_removed"][1],
        "hop_removed_noisy": kinds["hop_removed"][4], "replaced": kinds["replaced"][1],
        "replaced_noisy": kinds["replaced"][4], "distractor": len(by_kind["distractor"]),
        "distractor_on_complete_gold": base, "predicted_complete": len(predicted),
    }
    if name == "2wikimultihopqa":
        metrics.update(_evidence(pairs, causes))

    types: dict[str, dict] = {}
    for c, r in pairs:
        if c.kind == "gold":
            row = types.setdefault(c.qtype, {"records": 0, "scored": c.scored, "gold_complete": 0})
            row["records"] += 1
            row["gold_complete"] += _complete(r)
    for row in types.values():
        row["gold_complete"] = _share(row["gold_complete"], row["records"])
    errors = Counter(r.error.type for _, r in pairs if r.status == "error" and r.error)
    cause_counts, picked = causes.export()
    section = {
        "targets_apply": DATASETS[name][3],
        "records": len(items), "duplicates_skipped": duplicates,
        "scored_records": sum(1 for i in items if i.scored),
        "types": dict(sorted(types.items())),
        "cases": counts,
        "not_built": dict(sorted(Counter(f"{k}: {why}" for _, k, why in not_built).items())),
        "errors": dict(sorted(errors.items())),
        "metrics": metrics,
        "targets": _targets(name, metrics),
        "causes": cause_counts,
        "examples": picked,
    }
    if name in NOT_TARGETED:
        section["note"] = NOT_TARGETED[name]
    return section


def _evidence(pairs: list[tuple[Case, AuditResult]], causes: _Collector) -> dict:
    found = connected = total = found_scored = total_scored = good = chain = lenient = 0
    for c, r in pairs:
        if c.kind != "gold":
            continue
        view = dx.View(c, r) if r.status == "ok" else None
        for row in dx.evidence_pairs(c, r, view):
            total += 1
            found += row["found"]
            connected += row["connected"]
            if c.scored:
                total_scored += 1
                found_scored += row["found"]
                lenient += row["found_lenient"]
            if not row["found"]:
                causes.add("evidence_missed", c, r, (row["cause"], " | ".join(row["triple"])))
        if c.scored and _complete(r):
            g, n = dx.bridge_precision(c, r, view)
            good, chain = good + g, chain + n
    return {
        "evidence_pair_recall": _share(found_scored, total_scored),
        "evidence_pair_recall_lenient": _share(lenient, total_scored),
        "evidence_pair_recall_all_types": _share(found, total),
        "evidence_pair_connected_all_types": _share(connected, total),
        "bridge_precision": _share(good, chain),
    }


def _targets(name: str, metrics: dict) -> list[dict]:
    if not DATASETS[name][3]:
        return []
    out = []
    for dataset, metric, op, threshold in TARGETS:
        if dataset not in ("*", name):
            continue
        value = metrics.get(metric)
        met = None if value is None else (value >= threshold if op == ">=" else value <= threshold)
        out.append({"metric": metric, "target": f"{op} {threshold}", "value": value, "met": met})
    return out


def evaluate(data_dir: Path, datasets: list[str] | None = None, *, limit: int | None = None,
             seed: int = 0, workers: int = 1, examples: int = 3,
             progress: Callable[[int, int], None] | None = None,
             auditor: Auditor | None = None, options: dict | None = None) -> dict:
    """Build, audit and measure every case of the chosen datasets.

    Args:
        data_dir: the `shared/data` folder.
        datasets: names or aliases (default: all).
        limit: first N records per dataset.
        seed: seeds replaced-hop donors and distractor picks.
        workers: processes for the spaCy path.
        examples: worked examples kept per failure cause.
        progress: called with (cases done so far, total cases).
        auditor: an `Auditor(timing=False)` to reuse when `workers` is 1.
        options: `Auditor` keyword arguments (fuzzy_threshold, spacy_model, …) otherwise.
    Returns:
        the report: settings plus one section per dataset.
    """
    names = [resolve_name(n) for n in (datasets or list(DATASETS))]
    loaded = {n: load_items(n, data_dir, limit) for n in dict.fromkeys(names)}
    cases: list[Case] = []
    not_built: dict[str, list] = defaultdict(list)
    for name, (items, _) in loaded.items():
        for case in make_cases(items, seed):
            if isinstance(case, Case):
                cases.append(case)
            else:
                not_built[name].append(case)
    # The comparison family, measured by type: its gold cases are among `cases` already.
    sided = [(c, side) for items, _ in loaded.values() for item in items if cmp.in_family(item)
             for c, side in cmp.side_cases(item) if side is not None]
    done = 0

    def tick(n: int) -> None:
        nonlocal done
        done += n
        if progress:
            progress(done, len(cases) + len(sided))

    every = cases + [c for c, _ in sided]
    results = list(audit_cases(every, workers, tick, auditor, options))
    results, extra = results[:len(cases)], results[len(cases):]
    signature = next((r.meta.signature for r in results), None)
    per: dict[str, list] = defaultdict(list)
    for case, result in zip(cases, results):
        per[case.dataset].append((case, result))
    report = {"settings": {"datasets": list(loaded), "limit": limit, "seed": seed,
                           "signature": signature, "cases": len(cases)},
              "datasets": {}}
    for name, (items, duplicates) in loaded.items():
        report["datasets"][name] = summarize(name, items, duplicates, per[name],
                                             not_built[name], examples)
    rows = [(c, None, r) for c, r in zip(cases, results)
            if c.kind == "gold" and (c.dataset, c.qtype) in cmp.FAMILY]
    rows += [(c, side, r) for (c, side), r in zip(sided, extra)]
    if rows:
        report["by_type"] = {"sections": cmp.summarize(rows), "misses": cmp.misses(rows, examples)}
    return report
