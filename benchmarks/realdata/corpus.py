"""The real-data cases as a gold-labelled corpus that `logicscore bench` scores (docs/measurements.md).

A case's gold is what its construction knows: the label (a gold or padded answer is
complete; a hop removed or replaced breaks it), the short answer, and the name the gold
chain starts from. How concise an answer should be, its determinateness and the gap are not
known for real prose, so they are left out, and bench scores those on the records that have
them. Tags in `meta.variants` give bench its slices: dataset, kind, "noisy" for a label that
may not hold (`Case.noise`), "unscored" for question types the figures leave out.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from logicscore.formats.text import display_title

from .cases import Case, Item, make_cases
from .datasets import DATASETS, load_items, resolve_name


def start_name(item: Item) -> str | None:
    """The name the gold chain starts from: 2Wiki's first evidence subject, else the title of
    the first hop's paragraph (None when the dataset has no titles)."""
    if item.evidences:
        return item.evidences[0][0]
    title = item.hops[0].title if item.hops else ""
    return display_title(title) if title else None


def gold_record(case: Case, item: Item) -> dict:
    """The case's auditor input with `meta.gold` and `meta.variants` added."""
    record = case.record().model_dump(mode="json", exclude_none=True)
    complete = case.label == "complete"
    gold = {"completeness": int(complete), "failure": None if complete else "broken",
            "answer_entity": case.answer}
    name = start_name(item)
    if name:
        gold["question_entity"] = name
    if case.noise:
        gold["noise"] = case.noise
    tags = [case.dataset, case.kind] + ["noisy"] * case.noisy + ["unscored"] * (not case.scored)
    record["meta"].update(gold=gold, variants=tags)
    return record


def gold_records(data_dir: Path, datasets: list[str] | None = None, *, limit: int | None = None,
                 seed: int = 0, all_types: bool = False) -> Iterator[dict]:
    """Every built case of the chosen datasets (all by default) as a gold-labelled record, in
    the order `evaluate` audits them; `all_types` adds the gold answers of unscored types."""
    for name in dict.fromkeys(resolve_name(n) for n in (datasets or list(DATASETS))):
        items, _ = load_items(name, data_dir, limit)
        by_id = {item.id: item for item in items}
        for case in make_cases(items, seed):
            if isinstance(case, Case) and (case.scored or all_types):
                yield gold_record(case, by_id[case.record_id])


def write_gold(out: IO[str], records: Iterable[dict]) -> int:
    """One JSON line per record; returns how many were written."""
    n = 0
    for record in records:
        out.write(json.dumps(record, ensure_ascii=False) + "\n")
        n += 1
    return n
