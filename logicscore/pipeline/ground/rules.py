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

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field
from rapidfuzz import fuzz

from ..flow import Chain, Linked
from ...config import default
from ...lexicon.function_words import GROUNDING_PREPOSITIONS
from ...lexicon.names import PERSON_PARTICLES
from ...lexicon.relations import FAMILIES, IRREGULAR_VERBS, PLACEHOLDER_RELATIONS
from ...lexicon.text import crude_stem, key, stem
from ...models import HopGrounding, QARecord
from ..text.mentions import is_pronoun
from ..text.relations import phrase_key, role
from . import ChainLink, chain_hops, status

# Shorter keys match inside too many words by `partial_ratio` ("ann" in "annual").
MIN_FUZZY_CHARS = 5
MAX_INSIDE = 3


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
        read: dict[str, Document] = {}  # a document cited by several hops is read once
        return [status(hop, self.supporting(hop, read)) for hop in chain_hops(record, linked, result)]

    def supporting(self, hop: ChainLink, read: dict[str, Document]) -> list[str]:
        """Ids of the cited documents that support the hop (`read`: documents already read)."""
        supported = []
        for doc_id, text in hop.cited:
            if doc_id not in read:
                read[doc_id] = Document.of(text)
            if self.supports(hop, read[doc_id]):
                supported.append(doc_id)
        return supported

    def supports(self, hop: ChainLink, doc: Document) -> bool:
        threshold = self.config.fuzzy_threshold
        return (names(hop.subject_forms, doc, threshold) and names(hop.object_forms, doc, threshold)
                and states(hop.proposition.relation, doc.stems))

    def signature(self) -> list[tuple[str, object]]:
        return [("ground", "rules")]


@dataclass(frozen=True)
class Document:
    """A cited document read once: its padded text key, its names' words, its word stems."""

    key: str
    # Each word's key where the word is capitalised, else None: where names may run.
    capitals: tuple[str | None, ...]
    stems: frozenset[str]

    @classmethod
    def of(cls, text: str) -> Document:
        padded = f" {key(text)} "
        capitals: list[str | None] = []
        for word in text.split():
            named = word[:1].isupper() or word.casefold() in PERSON_PARTICLES  # "Ludwig van Beethoven"
            capitals += [k if named else None for k in key(word).split()]
        return cls(padded, tuple(capitals), frozenset(_stem(w) for w in padded.split()))


def names(forms: tuple[str, ...], doc: Document, threshold: float) -> bool:
    """Whether the document names one of an entity's forms."""
    for form in forms:
        if is_pronoun(form):
            continue
        k = key(form)
        if not k:
            continue
        words = k.split()
        if f" {k} " in doc.key or _full_name(words, doc.capitals):
            return True
        # A number tells sequels and regnal names apart: "Kick-Ass 2" is not "Kick-Ass".
        numbers_there = all(f" {w} " in doc.key for w in words if w.isdigit())
        if len(k) >= MIN_FUZZY_CHARS and numbers_there and fuzz.partial_ratio(k, doc.key) >= threshold:
            return True
    return False


def _full_name(words: list[str], capitals: tuple[str | None, ...]) -> bool:
    """A name the document writes in full: its first and last words in one run of capitalised
    words with up to `MAX_INSIDE` between ("George Augustus Frederick Cochrane" for "George
    Cochrane"), or its initials opening the words in their places ("Abraham Edward Barit" for
    "A. E. Barit")."""
    if len(words) < 2:
        return False
    initials = all(len(w) == 1 for w in words[:-1])
    for i, first in enumerate(capitals):
        if first is None:
            continue
        if initials:
            run = capitals[i:i + len(words)]
            if (len(run) == len(words) and run[-1] == words[-1]
                    and all(t is not None and t.startswith(w) for t, w in zip(run[:-1], words[:-1]))):
                return True
        elif first == words[0]:
            for t in capitals[i + 1:i + 2 + MAX_INSIDE]:
                if t is None:
                    break
                if t == words[-1]:
                    return True
    return False


def states(relation: str, stems: frozenset[str]) -> bool:
    """Whether a document's word stems hold a word of the relation (or it has none)."""
    wanted = relation_stems(relation)
    return not wanted or not wanted.isdisjoint(stems)


@lru_cache(maxsize=4096)
def relation_stems(relation: str) -> frozenset[str]:
    """The stems any of which marks the relation in a text: its own words, its family's."""
    own = [t for t in phrase_key(relation) if t not in GROUNDING_PREPOSITIONS]
    if not own or relation.strip().casefold() in PLACEHOLDER_RELATIONS:
        return frozenset()
    found = role(relation)
    words: list[str] = list(own)
    if found is not None:
        fam = FAMILIES[found.family]
        words += [t for p in fam.phrases for t in phrase_key(p.lstrip("~")) if t not in GROUNDING_PREPOSITIONS]
        words += [stem(w) for w in fam.words]
    return frozenset(_stem(w) for w in words)


def _stem(word: str) -> str:
    # "starred" → "star" → "star", "director" → "director" → "direc", "sung" → "sing":
    # a document's words and a relation's lemmas meet here.
    word = word.casefold()
    return crude_stem(stem(IRREGULAR_VERBS.get(word, word)))
