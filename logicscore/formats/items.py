"""A public multi-hop QA record, parsed: its gold hops in question → answer order.

Each hop holds the supporting sentences written as an answer would read them ("Title: "
prefixed where a sentence does not name its paragraph's subject, docs/measurements.md). The dataset
adapter joins them into a long answer; the real-data harness builds labelled cases from them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Line:
    """One sentence of a built long answer and where it came from."""

    text: str
    title: str | None = None
    hop: int | None = None
    role: str = "gold"  # gold | distractor | foreign
    prefixed: bool = False


@dataclass(frozen=True)
class Hop:
    """One hop of the gold chain: its paragraph title and its answer-ready sentences."""

    title: str
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class Item:
    """One dataset record, parsed: question, answer, ordered hops, distractor pool."""

    dataset: str
    id: str
    qtype: str
    scored: bool
    question: str
    answer: str
    hops: tuple[Hop, ...]
    distractors: tuple[Line, ...] = ()
    evidences: tuple[tuple[str, str, str], ...] = ()
    notes: tuple[str, ...] = ()
    # Full text of the supporting paragraphs: tells a harness limit (a name left in an
    # unselected sentence) from an auditor failure when diagnosing.
    source: str = ""

    def gold_lines(self) -> list[Line]:
        return [line for hop in self.hops for line in hop.lines]
