"""A dataset record's own decomposition of its question, as `question_hops` (`--hops given`).

MuSiQue ships it as `question_decomposition`: sub-questions in chain order, each with its
answer, a later one naming an earlier answer as "#k". 2WikiMultihopQA ships `evidences`,
(subject, relation, object) triples: each becomes the sub-question "What is the <relation>
of <subject>?" answered by the object, its subject written "#k" when it is the object of an
earlier triple (for a compositional or inference record, whose triples are one chain, that of the
triple before), so the hops chain as MuSiQue's do. A comparison's triples are one per compared
entity and name each other nowhere: they stay parallel hops, each starting from the entity it
names, and the comparison itself is no hop (its answer is the record's short answer).

A record without these fields, or with a malformed step, has no given hops (None): the
decomposition is optional and never stops the record being read.
"""

from __future__ import annotations

from typing import Any

from rapidfuzz import fuzz

from .text import norm

# How alike (0-100, normalized names) a triple's subject and an earlier object must be to be
# one entity: 2Wiki writes "André de Toth" or "Rajeev Anchal" as an object, "Andre DeToth" or
# "Rajiv Anchal" as a subject, and drops a title ("…Ruspoli, 1st Prince of Cerveteri" →
# "…Ruspoli") from a name of at least two words.
_SAME_NAME = 85
_SHORT_FORM_WORDS = 2
# 2Wiki's types whose triples run question entity → bridge → answer.
_CHAINS = ("compositional", "inference")


def musique_hops(obj: dict[str, Any]) -> list[dict[str, str]] | None:
    """MuSiQue's `question_decomposition` as given hops, or None when it has none usable."""
    steps = obj.get("question_decomposition")
    if not isinstance(steps, list) or not steps:
        return None
    hops = [_hop(s.get("question"), s.get("answer")) for s in steps if isinstance(s, dict)]
    return hops if len(hops) == len(steps) and all(hops) else None  # type: ignore[return-value]


def wiki_hops(obj: dict[str, Any]) -> list[dict[str, str]] | None:
    """2WikiMultihopQA's `evidences` triples as given hops, or None when it has none usable."""
    triples = obj.get("evidences")
    if not isinstance(triples, list) or not triples:
        return None
    if not all(isinstance(t, (list, tuple)) and len(t) == 3 and all(isinstance(x, str) for x in t)
               for t in triples):
        return None
    objects = [norm(o) for _, _, o in triples]
    chained = obj.get("type") in _CHAINS
    hops = []
    for n, (subject, relation, answer) in enumerate(triples):
        # A chain's subject is the object before it even where 2Wiki spells it otherwise
        # ("Mithridates" → "Mithridates VI of Pontus").
        earlier = (n - 1 if n else None) if chained else _earlier(norm(subject), objects[:n])
        start = f"#{earlier + 1}" if earlier is not None else subject.strip()
        hops.append(_hop(f"What is the {relation.strip()} of {start}?", answer))
    return hops if all(hops) else None  # type: ignore[return-value]


def _earlier(subject: str, objects: list[str]) -> int | None:
    """The last earlier triple whose object is `subject`: the hop it continues."""
    for k in range(len(objects) - 1, -1, -1):
        if subject and _same(subject, objects[k]):
            return k
    return None


def _same(a: str, b: str) -> bool:
    if a == b or fuzz.ratio(a, b) >= _SAME_NAME:
        return True
    short, long = sorted((a.split(), b.split()), key=len)
    return len(short) >= _SHORT_FORM_WORDS and long[:len(short)] == short


def _hop(question: Any, answer: Any) -> dict[str, str] | None:
    if not isinstance(question, str) or not question.strip():
        return None
    hop = {"question": question.strip()}
    if isinstance(answer, str) and answer.strip():
        hop["answer"] = answer.strip()
    return hop
