"""Helpers shared by the entity-linking tests: given propositions and entity lookup."""

from __future__ import annotations

from logicscore.pipeline.extract import Extraction
from logicscore.models import Proposition, QuestionEntity
from logicscore.pipeline.normalize.entities import link


def props(*triples):
    return [Proposition(id=f"P{i + 1}", text=f"{s} {r} {o}.", subject=s, relation=r, object=o,
                        pattern="given", sentence=i) for i, (s, r, o) in enumerate(triples)]


def entity_of(linked, text):
    for e in linked.entities:
        if any(m.text == text for m in e.mentions):
            return e.id
    raise AssertionError(text)


def ask(question, *triples, mentions=()):
    """Link the propositions with `question` as the one question entity: (linked, its entity)."""
    linked = link(Extraction(props(*triples), mentions=list(mentions)),
                  [QuestionEntity(name=question)], "")
    return linked, linked.question[0].entity
