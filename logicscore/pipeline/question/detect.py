"""Question entities (docs/metrics.md): the rules run over the question, and over the long answer
when known; what the question names, and which of those are anchors."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ...lexicon.function_words import WH_WORDS
from ...models import QuestionEntity
from ...parsing.loader import load, parse
from .apart import cut_description, place_after, spoken_of_as_several, two_full_names
from .context import named_windows, prefer_written, widen, written_nouns
from ..text.question_forms import Candidate, longest_first
from .rules import GENERIC_RULES, KEPT_SOURCES, KEPT_STEPS, SOURCES, STEPS, Rule, clean
from .written import Written, written_form


# A window the long answer writes as one name that the question means as several names
# (`apart`): any of these holding sends it back to the question's own candidates.
APART_RULES: tuple[Rule, ...] = (
    Rule("two_full_names", two_full_names),
    Rule("spoken_of_as_several", spoken_of_as_several),
    Rule("cut_description", cut_description),
    Rule("place_after", place_after),
)


@dataclass(frozen=True)
class Rules:
    """The rule tables detection runs, in order (see `rules`)."""

    sources: tuple[Rule, ...] = SOURCES
    steps: tuple[Rule, ...] = STEPS
    kept_sources: tuple[Rule, ...] = KEPT_SOURCES
    kept_steps: tuple[Rule, ...] = KEPT_STEPS
    generic: tuple[Rule, ...] = GENERIC_RULES
    apart: tuple[Rule, ...] = APART_RULES

    def names(self) -> list[str]:
        """Every rule's name, table by table, in order."""
        return [r.name for table in (self.sources, self.steps, self.kept_sources,
                                     self.kept_steps, self.generic, self.apart) for r in table]

    def without(self, name: str) -> Rules:
        """These rules with every rule called `name` left out."""
        def drop(table: tuple[Rule, ...]) -> tuple[Rule, ...]:
            return tuple(r for r in table if r.name != name)
        return replace(self, sources=drop(self.sources), steps=drop(self.steps),
                       kept_sources=drop(self.kept_sources), kept_steps=drop(self.kept_steps),
                       generic=drop(self.generic), apart=drop(self.apart))


RULES = Rules()

# Each question's entities as (name, anchor) pairs: every read builds new entities from
# them (a caller may change its own), cheaper than copying kept ones.
_CACHE: dict[tuple[int, str, str], tuple[tuple[str, bool], ...]] = {}
_CACHE_SIZE = 4096


def detect_question_entities(question: str, nlp: Any = None, context: str | None = None,
                             doc: Any = None) -> list[QuestionEntity]:
    """Entities named in `question`, in order of appearance, generic ones with anchor=False.

    Args:
        question: the question text.
        nlp: a loaded spaCy pipeline; the default one is loaded when None.
        context: the long answer, when known: a title that it writes out ("The Fox and the
            Hound", "Avengers: Age of Ultron") is preferred to the pieces the question's
            case and punctuation suggest, and a name is given as the answer writes it. What
            the answer never names stays as the question has it.
        doc: `question` already parsed by `nlp` (a batched parse); parsed here when None.
    """
    if nlp is None:
        nlp = load()
    key = (id(nlp), question, context or "")
    kept = _CACHE.get(key)
    if kept is None:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.clear()  # audits of one question's variants come together; keep it simple
        found = detect(question, nlp, context, doc=doc)
        _CACHE[key] = tuple((q.name, q.anchor) for q in found)
        return found  # (new entities, kept by no one else)
    return [QuestionEntity(name=name, anchor=anchor) for name, anchor in kept]


def known(question: str, nlp: Any, context: str | None = None) -> bool:
    """`detect_question_entities` answers from its cache, without parsing."""
    return (id(nlp), question, context or "") in _CACHE


def detect(question: str, nlp: Any, context: str | None = None,
           rules: Rules = RULES, doc: Any = None) -> list[QuestionEntity]:
    """`detect_question_entities` with the given rule tables and no cache."""
    if doc is None:
        doc = parse(nlp, question)
    spans = candidates(doc, rules)
    generics: dict[Candidate, bool] = {}  # the generic tests' verdict on each span, read once

    def generic(span: Candidate) -> bool:
        if span not in generics:
            generics[span] = _generic(doc, span, question, rules)
        return generics[span]

    written = None
    if context:
        written = Written(context)
        own = spans
        spans = widen(doc, spans, written)
        spans = prefer_written(doc, spans + named_windows(doc, spans, written), written)
        spans = apart(doc, spans, own, rules)
        if all(generic(s) for s in spans):
            spans = sorted(spans + [c for c in written_nouns(doc, written)
                                    if not any(c.overlaps(s) for s in spans)])
    out: list[QuestionEntity] = []
    seen: set[str] = set()
    for span in spans:
        name = clean(question[span.start:span.end])
        is_generic = generic(span)
        if written is not None and not span.quoted and not is_generic:
            name = written_form(name, written, question)
        if not name or name.lower() in seen or name.lower() in WH_WORDS:
            continue
        seen.add(name.lower())
        out.append(QuestionEntity(name=name, anchor=not is_generic))
    return out


def apart(doc: Any, spans: list[Candidate], own: list[Candidate], rules: Rules = RULES) -> list[Candidate]:
    """`spans` with each window read against the answer that joins two or more of the
    question's `own` candidates replaced by them, when an `apart` rule holds."""
    out: list[Candidate] = []
    for span in spans:
        pieces = sorted(c for c in own if c.within(span.start, span.end) and c != span)
        if span.label in ("CONTEXT", "CASED") and len(pieces) >= 2 and any(
                rule.apply(doc, span, pieces) for rule in rules.apart):
            out.extend(pieces)
        else:
            out.append(span)
    return sorted(out)


def _generic(doc: Any, span: Candidate, question: str, rules: Rules) -> bool:
    name = clean(question[span.start:span.end])
    return any(rule.apply(doc, span, name) for rule in rules.generic)


def candidates(doc: Any, rules: Rules = RULES) -> list[Candidate]:
    """The question's candidates, overlaps resolved longest-first, in text order."""
    found = _through(doc, [c for rule in rules.sources for c in rule.apply(doc)], rules.steps)
    kept = _through(doc, [c for rule in rules.kept_sources for c in rule.apply(doc)],
                    rules.kept_steps)
    return longest_first(found, kept)


def _through(doc: Any, found: list[Candidate], steps: tuple[Rule, ...]) -> list[Candidate]:
    out = []
    for cand in found:
        for step in steps:
            cand = step.apply(doc, cand)
            if cand is None:
                break
        else:
            out.append(cand)
    return out
