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
from ..lexicon.relations import FAMILIES, IRREGULAR_VERBS, PLACEHOLDER_RELATIONS
from ..lexicon.text import crude_stem, key, stem
from ..models import HopGrounding, QARecord
from ..normalize.entities import Linked
from ..normalize.mentions import is_pronoun
from ..normalize.relations import phrase_key, role
from . import Hop, chain_hops, status

# Shorter keys match inside too many words by `partial_ratio` ("ann" in "annual").
MIN_FUZZY_CHARS = 5
MAX_INSIDE = 3
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
        if is_pronoun(form):
            continue
        k = key(form)
        if not k:
            continue
        words = k.split()
        if f" {k} " in doc or _first_last(words, doc) or _initials(words, doc):
            return True
        # A number tells sequels and regnal names apart: "Kick-Ass 2" is not "Kick-Ass".
        numbers_there = all(f" {w} " in doc for w in words if w.isdigit())
        if len(k) >= MIN_FUZZY_CHARS and numbers_there and fuzz.partial_ratio(k, doc) >= threshold:
            return True
    return False


def _initials(words: list[str], doc: str) -> bool:
    """"A. E. Barit" in "Abraham Edward Barit": each initial opens the word in its place."""
    if len(words) < 2 or not all(len(w) == 1 and w.isalpha() for w in words[:-1]):
        return False
    tokens, n = doc.split(), len(words)
    return any(tokens[i + n - 1] == words[-1]
               and all(tokens[i + j].startswith(words[j]) for j in range(n - 1))
               for i in range(len(tokens) - n + 1))


def _first_last(words: list[str], doc: str) -> bool:
    """A name's first and last words with up to `MAX_INSIDE` words between: documents give
    the full name ("George Augustus Frederick Cochrane") an answer shortens."""
    if len(words) < 2:
        return False
    tokens = doc.split()
    first, last = words[0], words[-1]
    return any(t == first and last in tokens[i + 1:i + 2 + MAX_INSIDE] for i, t in enumerate(tokens))


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
    if not own or relation.strip().casefold() in PLACEHOLDER_RELATIONS:
        return frozenset()
    found = role(relation)
    words: list[str] = list(own)
    if found is not None:
        fam = FAMILIES[found.family]
        words += [t for p in fam.phrases for t in phrase_key(p.lstrip("~")) if t not in _PREPS]
        words += [stem(w) for w in fam.words]
    return frozenset(_stem(w) for w in words)


def _stem(word: str) -> str:
    # "starred" → "star" → "star", "director" → "director" → "direc", "sung" → "sing":
    # a document's words and a relation's lemmas meet here.
    word = word.casefold()
    return crude_stem(stem(IRREGULAR_VERBS.get(word, word)))
