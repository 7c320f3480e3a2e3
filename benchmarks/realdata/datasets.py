"""Reading the public QA dev sets in `shared/data` into `Item`s. The HotpotQA, 2Wiki and MuSiQue
parsers are the package's dataset adapters (`logicscore.formats.datasets`, `--format`), so
the figures and `logicscore score --format 2wiki` read a record alike; EntailmentBank's is
the harness's own."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path

from logicscore.formats.datasets import parse_2wiki, parse_hotpot, parse_musique
from logicscore.formats.items import Hop, Item, Line


class DataNotFound(FileNotFoundError):
    """The shared data folder is not where it was looked for."""


def locate_data(start: Path | None = None) -> Path:
    """The data folder: `$LOGICSCORE_DATA`, else a `shared/data` beside the repo or a parent."""
    env = os.environ.get("LOGICSCORE_DATA")
    if env:
        path = Path(env)
        if not path.is_dir():
            raise DataNotFound(f"LOGICSCORE_DATA={env} is not a directory")
        return path
    here = (start or Path(__file__)).resolve()
    for parent in [here, *here.parents]:
        candidate = parent / "shared" / "data"
        if candidate.is_dir():
            return candidate
    raise DataNotFound(f"no shared/data folder found in {here} or above; "
                       "set LOGICSCORE_DATA=/path/to/shared/data")


_STEP = re.compile(r"^(.*?)->\s*(hypothesis|int\d+)(?::.*)?$")


def _fact(text: str) -> str:
    text = " ".join(text.split())
    return (text[:1].upper() + text[1:] + ("" if text.endswith((".", "?", "!")) else ".")) if text else text


def parse_entailmentbank(obj: dict) -> Item:
    """EntailmentBank: one hop per proof step, its leaf facts then its intermediate conclusion.

    The hypothesis (the question restated with the answer) is left out, as the gold answer
    is for the other datasets. No paragraph titles: no prefixing.
    """
    meta = obj["meta"]
    facts, conclusions = meta["triples"], meta["intermediate_conclusions"]
    hops = []
    for step_no, step in enumerate(s.strip() for s in obj["proof"].split(";") if s.strip()):
        match = _STEP.match(step)
        if not match:
            continue
        premises = [p.strip() for p in match.group(1).split("&")]
        texts = [_fact(facts[p]) for p in premises if p in facts]
        target = match.group(2)
        if target != "hypothesis" and target in conclusions:
            texts.append(_fact(conclusions[target]))
        lines = tuple(Line(text=t, hop=step_no) for t in texts)
        if lines:
            hops.append(Hop(title="", lines=lines))
    distractors = tuple(Line(text=_fact(facts[d]), role="distractor")
                        for d in meta.get("distractors", []) if d in facts)
    return Item(
        dataset="entailmentbank", id=obj["id"], qtype=f"depth {obj.get('depth_of_proof', '?')}",
        scored=True, question=obj["question"], answer=obj["answer"], hops=tuple(hops),
        distractors=distractors,
    )


Parser = Callable[[dict], Item]
# name → (folder, files, parser, whether its numbers are held to the targets)
DATASETS: dict[str, tuple[str, tuple[str, ...], Parser, bool]] = {
    "2wikimultihopqa": ("2wikimultihopqa", ("2wikimultihopqa_dev_sample500.jsonl",), parse_2wiki, True),
    "hotpotqa": ("hotpotqa", ("hotpotqa_dev_distractor_migres200.jsonl",), parse_hotpot, True),
    "musique": ("musique", ("musique_ans_dev_migres200.jsonl", "musique_ans_dev_kag100.jsonl"),
                parse_musique, True),
    "entailmentbank": ("entailmentbank", ("entailmentbank_task2_dev.jsonl",),
                       parse_entailmentbank, False),
}
ALIASES = {"2wiki": "2wikimultihopqa", "hotpot": "hotpotqa", "eb": "entailmentbank"}


def resolve_name(name: str) -> str:
    """A dataset's canonical name from itself or a short alias; ValueError lists the known."""
    key = ALIASES.get(name.lower(), name.lower())
    if key not in DATASETS:
        known = ", ".join(list(DATASETS) + list(ALIASES))
        raise ValueError(f"unknown dataset {name!r}; known: {known}")
    return key


def load_items(name: str, data_dir: Path, limit: int | None = None) -> tuple[list[Item], int]:
    """The dataset's items in file order, and how many duplicate ids (across files) were skipped."""
    folder, files, parser, _ = DATASETS[resolve_name(name)]
    items: list[Item] = []
    seen: set[str] = set()
    duplicates = 0
    for filename in files:
        with (data_dir / folder / filename).open(encoding="utf-8") as fh:
            for raw in fh:
                if not raw.strip():
                    continue
                if limit is not None and len(items) >= limit:
                    return items, duplicates
                item = parser(json.loads(raw))
                if item.id in seen:
                    duplicates += 1
                    continue
                seen.add(item.id)
                items.append(item)
    return items, duplicates
