"""Shared test inputs, and stand-ins for the auditor in unit tests of what consumes its results (bench, the labelled
tables, the style bench): each records the records it was handed and answers with the result
its `answer` function builds, so a test sees both what went in and what came out."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any


class RecordingAuditor:
    signature = "fake|1"

    def __init__(self, answer: Callable[[Any], Any]):
        self.seen: list[Any] = []
        self._answer = answer

    def audit_many(self, records: Iterable[Any]) -> Iterator[Any]:
        for rec in records:
            self.seen.append(rec)
            yield self._answer(rec)


# A record the `given` extractor scores without spaCy.
GIVEN = {
    "question": "Who directed the film starring the actor born in Springfield?",
    "answer": "Christopher Nolan", "question_entities": ["Springfield"],
    "long_answer": "John Smith was born in Springfield. He starred in Inception. Nolan directed it.",
    "propositions": [
        {"subject": "John Smith", "relation": "born in", "object": "Springfield"},
        {"subject": "John Smith", "relation": "starred in", "object": "Inception"},
        {"subject": "Inception", "relation": "directed by", "object": "Christopher Nolan"},
    ],
}
