"""Determinateness, rules path (SPEC §4.6): does LA alone, closed-world, yield SA?"""

from __future__ import annotations

import re

from .chain import ChainResult
from .models import Proposition, Verdict
from .normalize.entities import Linked

_STOP = frozenset("""
a an the of in on at to for by from with as and or is was were are be been being has have had
do does did who whom whose what which when where why how that this these those it its also then
later not never no one
""".split())
_NEGATION = frozenset({"not", "never", "no", "n't", "neither", "nor"})
_PASSIVE = "by"
_IRREGULAR = {
    "write": "writ", "wrote": "writ", "written": "writ", "writer": "writ", "writes": "writ",
    "birth": "born", "birthplace": "born", "died": "die", "death": "die",
}
_ANSWER_WORDS = frozenset({"answer", "final answer", "result", "solution"})
# Relations with one value per entity. States hold of their subject ("X born in A");
# for actions the *patient* has one agent ("A directed X", "X directed by A", "X director A").
_FUNCTIONAL_STATES = frozenset({"born", "die", "capit", "locat", "headq", "natio", "spous"})
_FUNCTIONAL_VERBS = frozenset({"direc", "writ", "found", "creat", "compo", "produ", "paint",
                               "desig", "autho"})


def _stem(word: str) -> str:
    """A crude, deterministic stem: enough to equate "directed", "director", "directs"."""
    word = word.casefold()
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    for suffix in ("ing", "ed", "er", "or", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            word = word[: -len(suffix)]
            break
    return word[:5]


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+(?:'t)?", text.casefold())


def _content(text: str) -> str:
    return " ".join(w for w in _words(text) if w not in _STOP)


def relation_key(relation: str) -> tuple[tuple[str, ...], bool]:
    """Comparable form of a relation: (content stems, passive voice), negation words dropped."""
    words = _words(relation)
    stems = tuple(_stem(w) for w in words if w not in _STOP and w not in _NEGATION)
    return stems, _PASSIVE in words


def _agent(p: Proposition, entity: str) -> bool:
    """Whether `entity` is the doer in `p` ("Nolan directed X", "X directed by Nolan")."""
    words = _words(p.relation)
    passive = _PASSIVE in words
    # An agent noun as relation ("X director A") reads as "A directs X", like a passive.
    noun = any(w.endswith(("or", "er")) and len(w) > 4 for w in words)
    return (p.subject_entity == entity) != (passive or noun)


def functional(p: Proposition, entity: str) -> bool:
    """Whether `p`'s relation allows one value per `entity` (born in, directed by…)."""
    stems = set(relation_key(p.relation)[0])
    if stems & _FUNCTIONAL_STATES:
        return p.subject_entity == entity
    return bool(stems & _FUNCTIONAL_VERBS) and not _agent(p, entity)


def same_relation(p: Proposition, q: Proposition, entity: str) -> bool:
    """Same relation with `entity` in the same role, whatever the voice."""
    stems = relation_key(p.relation)[0]
    if not stems or stems != relation_key(q.relation)[0]:
        return False
    return _agent(p, entity) == _agent(q, entity)


def _other(p: Proposition, entity: str) -> tuple[str | None, str]:
    return (p.object_entity, p.object) if p.subject_entity == entity else (p.subject_entity, p.subject)


def restates_question(text: str, question: str, *, loose: bool = False) -> bool:
    """Whether a phrase restates the question ("the director of the film starring X")."""
    words = [_stem(w) for w in _words(text) if w not in _STOP]
    if not words:
        return False
    asked = {_stem(w) for w in _words(question) if w not in _STOP}
    shared = sum(w in asked for w in words)
    return shared >= (1 if loose else 2) and shared / len(words) >= (1.0 if loose else 0.6)


def competitors(props: list[Proposition], final: list[Proposition], answer: str,
                kinds: dict[str, str]) -> tuple[list[Proposition], list[Proposition]]:
    """Propositions giving another value for a final relation: (all, functional conflicts)."""
    linked = {frozenset((p.subject_entity, p.object_entity)) for p in props if not p.negated}
    every, conflict = [], []
    for p in final:
        bridge, _ = _other(p, answer)
        if bridge is None:
            continue
        for q in props:
            if q is p or q.negated or q.conclusion or bridge not in (q.subject_entity, q.object_entity):
                continue
            value, _ = _other(q, bridge)
            if value in (None, answer, bridge) or not same_relation(p, q, bridge):
                continue
            every.append(q)
            literal = {"date", "number"}
            same_class = (kinds.get(value) in literal) == (kinds.get(answer) in literal)
            # "born in Springfield" and "born in Illinois" agree when LA links the two.
            if same_class and functional(p, bridge) and frozenset((value, answer)) not in linked:
                conflict.append(q)
    return every, conflict


def judge(question: str, linked: Linked, result: ChainResult) -> Verdict:
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
            elif not p.negated and (_content(p.subject) in _ANSWER_WORDS
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
    if other_answer or negates or conflict:
        return "contradicted"
    if states or (result.complete and not every):
        return "entailed"
    return "underdetermined"
