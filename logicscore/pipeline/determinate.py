"""Determinateness, rules path (docs/metrics.md): does LA alone, closed-world, yield SA?"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from pydantic import BaseModel, ConfigDict

from .flow import Chain, Completed, Linked, Reading
from ..models import LITERAL_KINDS, Proposition, QARecord, Verdict
from ..lexicon.conclusions import ANSWER_NOUNS
from ..lexicon.stop_words import PHRASE_STOP_WORDS
from ..lexicon.text import crude_stem as _stem
from .text.phrases import content as _content
from .text.phrases import restates_question, words as _words
from .text.relation_reading import functional, reading, relation_key, role_key, same_relation

__all__ = ["RulesJudge", "judge", "functional", "reading", "same_relation", "role_key", "relation_key",
           "restates_question", "competitors"]

def _other(p: Proposition, entity: str) -> tuple[str | None, str]:
    return (p.object_entity, p.object) if p.subject_entity == entity else (p.subject_entity, p.subject)


def competitors(props: list[Proposition], final: list[Proposition], answer: str,
                kinds: Mapping[str, str]) -> tuple[list[Proposition], list[Proposition]]:
    """Propositions giving another value for a final relation: (all, functional conflicts)."""
    linked: set[frozenset] | None = None  # the pairs the text links, built on first need
    # Propositions by entity, in order: each final one is compared with its bridge's only,
    # not with every proposition (quadratic when many touch the answer).
    touching: dict[str, list[Proposition]] = {}
    for q in props:
        for end in dict.fromkeys((q.subject_entity, q.object_entity)):
            if end is not None:
                touching.setdefault(end, []).append(q)
    every, conflict = [], []
    for p in final:
        bridge, _ = _other(p, answer)
        if bridge is None:
            continue
        for q in touching.get(bridge, ()):
            if q is p or q.negated or q.conclusion:
                continue
            value, _ = _other(q, bridge)
            if value in (None, answer, bridge) or not same_relation(p, q, bridge):
                continue
            # "born in Springfield" and "born in Illinois" agree when LA links the two: a
            # place and the larger place containing it are one value, not a competitor.
            if linked is None:
                linked = {frozenset((x.subject_entity, x.object_entity)) for x in props
                          if not x.negated}
            if frozenset((value, answer)) in linked:
                continue
            every.append(q)
            same_class = (kinds.get(value) in LITERAL_KINDS) == (kinds.get(answer) in LITERAL_KINDS)
            if same_class and functional(p, bridge):
                conflict.append(q)
    return every, conflict


def judge(question: str, linked: Linked, result: Chain) -> Verdict:
    """Closed-world verdict on whether LA alone yields SA.

    Args:
        question: the question text Q.
        linked: linked propositions, entities and the answer entity.
        result: the chain analysis.
    Returns:
        "entailed", "contradicted" or "underdetermined".
    """
    props = linked.propositions
    answer = linked.answer_entity
    kinds = {e.id: e.kind for e in linked.entities}
    on_chain = set(result.entity_path) | {q.entity for q in linked.question if q.entity}
    states = negates = other_answer = False
    for p in props:
        ends = (p.subject_entity, p.object_entity)
        if p.conclusion:
            if answer is not None and answer in ends:
                negates |= p.negated
                states |= not p.negated
            elif not p.negated and (_content(p.subject) in ANSWER_NOUNS
                                    or restates_question(p.subject, question, loose=True)):
                other_answer = True  # "So the answer is Tim Burton"
            continue
        if answer is None or answer not in ends:
            continue
        other, other_text = _other(p, answer)
        if p.negated and (other in on_chain or restates_question(other_text, question)):
            negates = True
        elif not p.negated and restates_question(other_text, question):
            states = True
    if answer is None:
        return "contradicted" if other_answer else "underdetermined"
    by_id = {p.id: p for p in props}
    if result.complete and result.chain:
        final = [by_id[result.chain[-1]]]
    else:
        final = [p for p in props if answer in (p.subject_entity, p.object_entity)
                 and not p.negated and not p.conclusion]
    every, conflict = competitors(props, final, answer, kinds)
    if other_answer or negates or conflict or (
            states and not result.complete and _derives_another(question, props, answer, kinds)):
        return "contradicted"
    if states or (result.complete and not every):
        return "entailed"
    return "underdetermined"


def _derives_another(question: str, props: list[Proposition], answer: str,
                     kinds: Mapping[str, str]) -> bool:
    """The body derives a value for what the question asks, then concludes another: "X was
    born in Honolulu. So the answer is Chicago." Only the conclusion names the answer; a body
    claim through a relation the question names reaches a thing of the answer's kind."""
    if any(answer in (p.subject_entity, p.object_entity) for p in props if not p.conclusion):
        return False
    asked = {_stem(w) for w in _words(question)} - {_stem(w) for w in PHRASE_STOP_WORDS}
    kind = kinds.get(answer)
    if kind in (None, "other"):
        return False
    for p in props:
        if p.conclusion or p.negated or not {_stem(w) for w in _words(p.relation)} & asked:
            continue
        if kind in (kinds.get(p.object_entity or ""), kinds.get(p.subject_entity or "")):
            return True
    return False


class RulesJudge:
    """The `judge` stage on the rules path: the verdict the compared sides select, else
    `judge` over the linked propositions and the chain."""

    name: ClassVar[str] = "rules"

    class Config(BaseModel):
        model_config = ConfigDict(extra="forbid")

    def __init__(self, config: RulesJudge.Config | None = None):
        self.config = config or self.Config()

    def judge(self, record: QARecord, linked: Linked, completed: Completed,
              reading: Reading) -> Verdict:
        """Whether LA alone yields SA: "entailed", "contradicted" or "underdetermined"."""
        sides = completed.sides
        if sides is not None and sides.verdict is not None:
            return sides.verdict
        return judge(record.question, linked, completed.chain)

    def signature(self) -> list[tuple[str, object]]:
        return [("det", "rules")]
