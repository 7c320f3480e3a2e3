"""`--hops rules`: the question's hops read offline, from the anchors and the sentences that join
them (docs/metrics.md, "Three verdicts").

Each anchor's hops are the steps of the shortest path from it to the short answer through the
long answer's sentences: an entity to the next where one sentence names both (by name, alias
or a reference the linker resolved). A step is a stated hop, with that sentence as its
evidence. Where no sentence joins the anchor's side to the answer's, the hop across the gap
is unstated: the text shows the break. An anchor the long answer never writes is an unstated
first hop. The rules judge no relation: whether a stated step states the asked relation is
the chain analysis's (and the model's, with `--hops llm`).
"""

from __future__ import annotations

from collections import deque
from typing import ClassVar

from pydantic import BaseModel, ConfigDict

from ...models import Hop, QARecord
from ..flow import Hops, Linked, Reading

# Most sentences a path may cross: a question rarely asks more than four hops, and a longer
# path joins things the question never asked to join.
MAX_STEPS = 6


class RulesHops:
    """The question's hops as the sentences join its anchors to the answer, offline."""

    name: ClassVar[str] = "rules"
    # Its verdict is the offline one (offline.py): the chain analysis decides where it can.
    offline: ClassVar[bool] = True

    class Config(BaseModel):
        model_config = ConfigDict(extra="forbid")

    def __init__(self, config: RulesHops.Config | None = None):
        self.config = config or self.Config()

    def read_hops(self, record: QARecord, linked: Linked, reading: Reading,
                  sentences: list[tuple[int, int]]) -> Hops:
        names = {e.id: e.name for e in linked.entities}
        per_sentence = sentence_entities(linked, sentences)
        answer = linked.answer_entity
        hops: list[Hop] = []
        for q in linked.question:
            if not q.anchor:
                continue
            if q.entity is None:
                hops.append(_hop(len(hops) + 1, q.name, None, "the long answer never writes it"))
                continue
            if answer is None:
                continue
            path = _path(q.entity, answer, per_sentence)
            if path is None:
                hops.append(_hop(len(hops) + 1, names.get(q.entity, q.name), None,
                                 f"no sentence joins {names.get(q.entity, q.name)} to the answer's side"))
                continue
            for entity, sentence, nxt in path:
                a, b = sentences[sentence]
                hops.append(Hop(index=len(hops) + 1, asks=_relation(linked, entity, nxt, (a, b)),
                                input=names[entity], result=names[nxt], stated=True, check="stated",
                                evidence=record.long_answer[a:b], sentence=sentence, span=(a, b)))
        return Hops(stage=self.name, hops=hops, answer_follows=answer is not None)

    def signature(self) -> list[tuple[str, object]]:
        return [("hops", "rules")]


def _relation(linked: Linked, entity: str, nxt: str, span: tuple[int, int]) -> str:
    """What the sentence says between two entities: the relation of a claim of it that joins
    them, else that it names them together."""
    for p in linked.propositions:
        if span[0] <= p.span[0] < span[1] and {p.subject_entity, p.object_entity} == {entity, nxt}:
            return p.relation or "named together"
    return "named together"


def _hop(index: int, start: str, result: str | None, why: str) -> Hop:
    return Hop(index=index, asks=f"{start} → the answer", input=start, result=result, stated=False,
               check="unstated", why=why)


def sentence_entities(linked: Linked, sentences: list[tuple[int, int]]) -> list[set[str]]:
    """The entities each sentence names: its mentions, and the entities its propositions'
    references resolve to."""
    out: list[set[str]] = [set() for _ in sentences]

    def place(start: int, entity: str) -> None:
        for n, (a, b) in enumerate(sentences):
            if a <= start < b:
                out[n].add(entity)
                return

    for e in linked.entities:
        for m in e.mentions:
            if m.span is not None:
                place(m.span[0], e.id)
    for p in linked.propositions:
        for entity in (p.subject_entity, p.object_entity):
            if entity and p.span != (0, 0):
                place(p.span[0], entity)
    return out


def _path(start: str, goal: str, per_sentence: list[set[str]]) -> list[tuple[str, int, str]] | None:
    """The shortest path of (entity, sentence, next entity) steps from `start` to `goal`; [] when
    they are one entity, None when no path of at most MAX_STEPS steps joins them."""
    if start == goal:
        return []
    back: dict[str, tuple[str, int]] = {}
    queue, depth = deque([start]), {start: 0}
    while queue:
        entity = queue.popleft()
        if depth[entity] >= MAX_STEPS:
            continue
        for n, named in enumerate(per_sentence):
            if entity not in named:
                continue
            for other in sorted(named - depth.keys()):
                depth[other], back[other] = depth[entity] + 1, (entity, n)
                if other == goal:
                    return _walk(back, start, goal)
                queue.append(other)
    return None


def _walk(back: dict[str, tuple[str, int]], start: str, goal: str) -> list[tuple[str, int, str]]:
    steps, at = [], goal
    while at != start:
        prev, sentence = back[at]
        steps.append((prev, sentence, at))
        at = prev
    return steps[::-1]
