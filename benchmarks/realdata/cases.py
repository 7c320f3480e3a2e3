"""Audit cases with known labels, built from public multi-hop QA records (docs/measurements.md).

Each record becomes an `Item`: its gold hops in question → answer order, each hop the
supporting sentences written as an answer would read them ("Title: " prefixed where a
sentence does not name its paragraph's subject). `make_cases` turns items into labelled
`Case`s: the gold answer (complete), one hop removed and one hop replaced by another
record's sentence (incomplete), and distractor sentences added (complete, less concise).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from logicscore import QARecord
# The harness's items are the dataset adapters' (Hop re-exported for the harness's users).
from logicscore.formats.items import Hop, Item, Line  # noqa: F401
from logicscore.formats.text import (as_answer_line, contains, contains_any,
                                     display_title, names_alone)
from logicscore.measure.perturb.text import removal_noise

KINDS = ("gold", "hop_removed", "replaced", "distractor")
LABELS = {"gold": "complete", "hop_removed": "incomplete", "replaced": "incomplete",
          "distractor": "complete", "side_removed": "incomplete"}


@dataclass(frozen=True)
class Case:
    """One long answer to audit, with its known label."""

    dataset: str
    record_id: str
    kind: str
    qtype: str
    scored: bool
    question: str
    answer: str
    lines: tuple[Line, ...]
    hops: int
    # Why "incomplete" may be wrong for this perturbation (`_noise`); "" when it is sound.
    noise: str = ""
    evidences: tuple[tuple[str, str, str], ...] = field(default=(), repr=False)
    source: str = field(default="", repr=False)

    @property
    def id(self) -> str:
        return f"{self.dataset}:{self.record_id}#{self.kind}"

    @property
    def noisy(self) -> bool:
        return bool(self.noise)

    @property
    def label(self) -> str:
        return LABELS[self.kind]

    @property
    def long_answer(self) -> str:
        return " ".join(line.text for line in self.lines)

    def offsets(self) -> list[tuple[int, int]]:
        """Character span of each line inside `long_answer`."""
        spans, pos = [], 0
        for line in self.lines:
            spans.append((pos, pos + len(line.text)))
            pos += len(line.text) + 1
        return spans

    def record(self) -> QARecord:
        """The auditor's input: question entities are NOT given (the auditor detects them)."""
        return QARecord(
            id=self.id, question=self.question, answer=self.answer,
            long_answer=self.long_answer, hops=self.hops,
            meta={"dataset": self.dataset, "kind": self.kind, "label": self.label},
        )


def _rng(seed: int, item: Item, purpose: str) -> random.Random:
    # String seeds hash with SHA-512: stable across runs and processes.
    return random.Random(f"{seed}|{item.dataset}|{item.id}|{purpose}")


def _case(item: Item, kind: str, lines: Iterable[Line], noise: str = "") -> Case:
    return Case(
        dataset=item.dataset, record_id=item.id, kind=kind, qtype=item.qtype,
        scored=item.scored, question=item.question, answer=item.answer, lines=tuple(lines),
        hops=len(item.hops), noise=noise, evidences=item.evidences, source=item.source,
    )


def _noise(item: Item, removed: int, remaining: list[Line]) -> str:
    """Why an "incomplete" label may be wrong ("" when it is sound): `removal_noise`, with
    the removed hop's subject its title (and the gold evidence subject for 2Wiki's first
    hop)."""
    return removal_noise(item.question, item.answer,
                         " ".join(line.text for line in item.gold_lines()),
                         " ".join(line.text for line in remaining), _subjects(item, removed))


def _subjects(item: Item, hop: int) -> list[str]:
    names = [display_title(item.hops[hop].title)] if item.hops[hop].title else []
    if hop == 0 and item.evidences:
        names.append(item.evidences[0][0])
    return names


@dataclass(frozen=True)
class Removal:
    """Which gold lines a hop-removed or replaced case takes out: one hop's sentences, and
    any other sentence that restates that hop's subject ("her 1963 book The Feminine
    Mystique" once the Feminine Mystique hop is gone), or the removal would cut nothing."""

    hop: int
    dropped: frozenset[int]  # indices into `item.gold_lines()`
    noise: str

    def remaining(self, item: Item) -> list[Line]:
        return [line for i, line in enumerate(item.gold_lines()) if i not in self.dropped]


def _removal(item: Item, hop: int, dropped: frozenset[int]) -> Removal:
    remaining = [x for i, x in enumerate(item.gold_lines()) if i not in dropped]
    return Removal(hop, dropped, _noise(item, hop, remaining))


def _writes_answer(item: Item, removal: Removal) -> bool:
    return contains(" ".join(x.text for x in removal.remaining(item)), item.answer)


def _removals(item: Item, hop: int) -> Iterator[Removal]:
    start = sum(len(h.lines) for h in item.hops[:hop])
    own = frozenset(range(start, start + len(item.hops[hop].lines)))
    yield _removal(item, hop, own)
    names = _subjects(item, hop)
    restating = frozenset(i for i, line in enumerate(item.gold_lines())
                          if i not in own and any(names_alone(line.text, n) for n in names))
    if restating:
        removal = _removal(item, hop, own | restating)
        if _writes_answer(item, removal):
            yield removal


def gap_removal(item: Item) -> Removal:
    """What a hop-removed case takes out: the question-side hop, unless that leaves an
    unsound "incomplete" label (`_noise`); then the same hop with its restatements, then a
    later hop (alone, then with restatements) whose removal is sound with the answer still
    written (docs/measurements.md: build perturbations whose label holds). When none is, the
    question-side hop, flagged with its noise."""
    first = None
    for hop in range(len(item.hops)):
        for removal in _removals(item, hop):
            first = first or removal
            if not removal.noise and removal.remaining(item) and (
                    hop == 0 or _writes_answer(item, removal)):
                return removal
    return first


def gap_hop(item: Item) -> int:
    """The hop `gap_removal` takes out."""
    return gap_removal(item).hop


def remove_hop(item: Item, hop: int | None = None) -> Case | None:
    """The gold answer without one hop's sentences (by default `gap_removal`'s); None when
    nothing would remain."""
    if len(item.hops) < 2:
        return None
    removal = gap_removal(item) if hop is None else next(_removals(item, hop))
    remaining = removal.remaining(item)
    if not remaining:
        return None
    return _case(item, "hop_removed", remaining, removal.noise)


def replace_hop(item: Item, donors: list[Item], seed: int, hop: int | None = None) -> Case | None:
    """The gold answer with what `gap_removal` takes out (or hop `hop`) replaced by a
    sentence from another record."""
    if len(item.hops) < 2:
        return None
    removal = gap_removal(item) if hop is None else next(_removals(item, hop))
    avoid = [item.answer] + [display_title(h.title) for h in item.hops]
    candidates = [d for d in donors if d.id != item.id and d.gold_lines()]
    rng = _rng(seed, item, "replace")
    rng.shuffle(candidates)
    for donor in candidates[:50]:
        line = donor.gold_lines()[0]
        # A truncated source sentence ("was the wife of …") would test the data, not the auditor.
        body = line.text.split(": ", 1)[-1] if line.prefixed else line.text
        if not body[:1].isupper() or contains_any(line.text, avoid):
            continue
        foreign = Line(text=line.text, title=line.title, hop=removal.hop, role="foreign",
                       prefixed=line.prefixed)
        lines = removal.remaining(item)
        lines.insert(min(removal.dropped, default=0), foreign)  # where the first one stood
        return _case(item, "replaced", lines, removal.noise)
    return None


def add_distractors(item: Item, seed: int) -> Case | None:
    """The gold answer with 2–3 sentences of the record's non-supporting paragraphs added.

    They go in at hop boundaries (never inside a hop), as padding in a real answer would.
    """
    avoid = [item.answer] + [display_title(h.title) for h in item.hops]
    pool = [d for d in item.distractors
            if 4 <= len(d.text.split()) <= 60 and not contains_any(d.text, avoid)]
    if not pool:
        return None
    rng = _rng(seed, item, "distract")
    picked = [_as_written(d) for d in rng.sample(pool, min(len(pool), rng.choice((2, 3))))]
    slots = sorted(rng.randrange(len(item.hops) + 1) for _ in picked)
    lines: list[Line] = []
    for i in range(len(item.hops) + 1):
        lines.extend(p for p, slot in zip(picked, slots) if slot == i)
        if i < len(item.hops):
            lines.extend(item.hops[i].lines)
    return _case(item, "distractor", lines)


def _as_written(line: Line) -> Line:
    text, prefixed = as_answer_line(line.text, line.title)
    return Line(text=text, title=line.title, hop=None, role="distractor", prefixed=prefixed)


def make_cases(items: list[Item], seed: int = 0) -> Iterator[Case | tuple[Item, str, str]]:
    """Every case of every item, in item order then `KINDS` order.

    Bridge items get all four kinds. Other question types (comparison, yes/no, …) get the
    gold case only and are reported on their own. A perturbation that cannot be built
    comes back as `(item, kind, reason)`, so it is counted, not silently dropped.
    """
    by_dataset: dict[str, list[Item]] = {}
    for item in items:
        by_dataset.setdefault(item.dataset, []).append(item)
    for item in items:
        yield _case(item, "gold", item.gold_lines())
        if not item.scored:
            continue
        # Each builder is called within this iteration, so the late-bound `item` is this one.
        builders = {
            "hop_removed": lambda: remove_hop(item),  # noqa: B023
            "replaced": lambda: replace_hop(item, by_dataset[item.dataset], seed),  # noqa: B023
            "distractor": lambda: add_distractors(item, seed),  # noqa: B023
        }
        for kind, build in builders.items():
            case = build()
            if case is not None:
                yield case
            else:
                reason = "no distractor sentence" if kind == "distractor" else "fewer than 2 hops"
                yield (item, kind, reason)
