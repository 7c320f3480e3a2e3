"""The `rules` grounder: a cited document supports a hop when it names both of the hop's
entities and words of its relation.

Entities are looked for under every form the linker joined into them (so "She" never
counts, but "J. K. Rowling" stands for "Rowling, J.K."), by text key and then by rapidfuzz
`partial_ratio` at the linker's threshold, as the long answer's mentions are matched.
The relation counts when the document holds a word of its family ("director of" is met by
"directed") or, for a relation no family knows, a stem of its own words; a relation with no
content word ("is", an apposition) asks nothing of the document.
"""

from __future__ import annotations

from functools import lru_cache
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field
from rapidfuzz import fuzz

from ..chain import Chain
from ..config import default
from ..lexicon.generic import is_generic
from ..lexicon.relations import FAMILIES
from ..lexicon.text import crude_stem, key, stem
from ..models import HopGrounding, QARecord
from ..normalize.entities import Linked
from ..normalize.mentions import is_pronoun
from ..normalize.relations import phrase_key, role
from . import Hop, chain_hops, status

# Shorter keys match inside too many words by `partial_ratio` ("ann" in "annual").
MIN_FUZZY_CHARS = 5
_PREPS = frozenset({"in", "of", "by", "for", "from", "to", "into", "on", "at", "with", "as"})


class RulesGrounder:
    """Entity and relation overlap between a hop and the documents its sentence cites."""

    name: ClassVar[str] = "rules"

    class Config(BaseModel):
        model_config = ConfigDict(extra="forbid")
        fuzzy_threshold: float = Field(default("fuzzy_threshold"), ge=0, le=100,
                                       description="rapidfuzz partial ratio (0-100) at which a "
                                                   "document names an entity")

    def __init__(self, config: RulesGrounder.Config | None = None):
        self.config = config or self.Config()

    def ground(self, record: QARecord, linked: Linked, result: Chain) -> list[HopGrounding]:
        return [status(hop, self.supporting(hop)) for hop in chain_hops(record, linked, result)]

    def supporting(self, hop: Hop) -> list[str]:
        """Ids of the cited documents that support the hop."""
        return [doc_id for doc_id, text in hop.cited if self.supports(hop, text)]

    def supports(self, hop: Hop, text: str) -> bool:
        doc = f" {key(text)} "
        threshold = self.config.fuzzy_threshold
        return (names(hop.subject_forms, doc, threshold) and names(hop.object_forms, doc, threshold)
                and states(hop.proposition.relation, doc_stems(doc)))

    def signature(self) -> list[tuple[str, object]]:
        return [("ground", "rules")]


def names(forms: tuple[str, ...], doc: str, threshold: float) -> bool:
    """Whether the padded document key `doc` names one of an entity's forms."""
    for form in forms:
        if is_pronoun(form) or is_generic(form):
            continue
        k = key(form)
        if not k:
            continue
        if f" {k} " in doc:
            return True
        if len(k) >= MIN_FUZZY_CHARS and fuzz.partial_ratio(k, doc) >= threshold:
            return True
    return False


def states(relation: str, stems: frozenset[str]) -> bool:
    """Whether a document's word stems hold a word of the relation (or it has none)."""
    wanted = relation_stems(relation)
    return not wanted or not wanted.isdisjoint(stems)


def doc_stems(doc: str) -> frozenset[str]:
    return frozenset(_stem(w) for w in doc.split())


@lru_cache(maxsize=4096)
def relation_stems(relation: str) -> frozenset[str]:
    """The stems any of which marks the relation in a text: its own words, its family's."""
    own = [t for t in phrase_key(relation) if t not in _PREPS]
    if not own:
        return frozenset()
    found = role(relation)
    words: list[str] = list(own)
    if found is not None:
        fam = FAMILIES[found.family]
        words += [t for p in fam.phrases for t in phrase_key(p.lstrip("~")) if t not in _PREPS]
        words += [stem(w) for w in fam.words]
    return frozenset(crude_stem(w) for w in words)


def _stem(word: str) -> str:
    # "starred" → "star" → "star", "director" → "director" → "direc": both sides meet here.
    return crude_stem(stem(word))
