"""Question entities (SPEC §4.3): what the question names, and which of those are anchors."""

from __future__ import annotations

from typing import Any

from ..lexicon.function_words import WH_WORDS
from ..lexicon.generic import is_generic
from ..models import QuestionEntity
from ..nlp import load, parse
from .context import named_windows, prefer_written, widen
from .rules import GENERIC_LABELS, candidates, clean, wh_phrases
from .written import Written, written_form

_CACHE: dict[tuple[int, str, str], list[QuestionEntity]] = {}
_CACHE_SIZE = 4096


def detect_question_entities(question: str, nlp: Any = None,
                             context: str | None = None) -> list[QuestionEntity]:
    """Entities named in `question`, in order of appearance, generic ones with anchor=False.

    Args:
        question: the question text.
        nlp: a loaded spaCy pipeline; the default one is loaded when None.
        context: the long answer, when known: a title that it writes out ("The Fox and the
            Hound", "Avengers: Age of Ultron") is preferred to the pieces the question's
            case and punctuation suggest, and a name is given as the answer writes it. What
            the answer never names stays as the question has it.
    """
    if nlp is None:
        nlp = load()
    key = (id(nlp), question, context or "")
    if key not in _CACHE:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.clear()  # audits of one question's variants come together; keep it simple
        _CACHE[key] = _detect(question, nlp, context)
    return [q.model_copy() for q in _CACHE[key]]


def _detect(question: str, nlp: Any, context: str | None) -> list[QuestionEntity]:
    doc = parse(nlp, question)
    spans = candidates(doc)
    written = None
    if context:
        written = Written(context)
        spans = widen(doc, spans, written)
        spans = prefer_written(doc, spans + named_windows(doc, spans, written), written)
    out: list[QuestionEntity] = []
    seen: set[str] = set()
    asked = wh_phrases(doc)
    for start, end, label in spans:
        name = clean(question[start:end])
        # NER reads a band as a people ("The Joggers are …"); a real people is a known word.
        band = label in GENERIC_LABELS and question[max(0, start - 4):start] == "The "
        generic = label in GENERIC_LABELS and not band or is_generic(name)
        # "what National sports league", "which Hells Angel member": what is asked for
        # describes the answer; it is no chain end.
        generic = generic or any(a <= start and end <= b for a, b in asked)
        if written is not None and label != "QUOTE" and not generic:
            name = written_form(name, written, question)
        if not name or name.lower() in seen or name.lower() in WH_WORDS:
            continue
        seen.add(name.lower())
        out.append(QuestionEntity(name=name, anchor=not generic))
    return out
