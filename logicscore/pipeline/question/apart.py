"""Names the long answer writes together that the question means apart (docs/questions-and-answers.md): read
from the question's parse, not from how the answer happens to write them. A window the
answer writes as one ("Case Moe and Dan Moe", "Opry Hall in Velmora") goes back to the
question's own names when a rule here holds; each is a row of tests/test_question_rules.py.

A rule takes the question's Doc, the window and the question's own candidates inside it, and
says whether the window is several names.
"""

from __future__ import annotations

from typing import Any

from ...lexicon.function_words import PLACE_PREPOSITIONS
from ...lexicon.names import ARTICLES
from ...lexicon.questions import PLURAL_CUES, PLURAL_VERBS
from ..text.question_forms import Candidate

_PLACE_LABELS = frozenset({"GPE", "LOC"})


def _tokens(doc: Any, start: int, end: int) -> list[Any]:
    return [t for t in doc if start <= t.idx < end]


def _joiners(doc: Any, pieces: list[Candidate]) -> list[Any]:
    """The tokens between consecutive pieces."""
    out: list[Any] = []
    for a, b in zip(pieces, pieces[1:]):
        out.extend(t for t in _tokens(doc, a.end, b.start) if not t.is_space)
    return out


def _name_words(doc: Any, piece: Candidate) -> list[Any]:
    return [t for t in _tokens(doc, piece.start, piece.end)
            if not t.is_punct and t.lower_ not in ARTICLES and not t.is_lower]


def _conjoined(doc: Any, pieces: list[Candidate]) -> bool:
    joins = {t.lower_ for t in _joiners(doc, pieces)} - ARTICLES - {","}
    return bool(joins) and joins <= {"and", "or", "&"}


def two_full_names(doc: Any, window: Candidate, pieces: list[Candidate]) -> bool:
    """"A and B" where each side is a name of two or more words and the second opens with
    no article ("Case Moe and Dan Moe"; not "Moss and the Tide", a title)."""
    if not _conjoined(doc, pieces):
        return False
    last = _tokens(doc, pieces[-1].start, pieces[-1].end)
    before = [t for t in _tokens(doc, pieces[-2].end, pieces[-1].start) if not t.is_space]
    opens_with_article = (bool(last) and last[0].lower_ in ARTICLES) or (
        bool(before) and before[-1].lower_ in ARTICLES)
    return not opens_with_article and all(len(_name_words(doc, p)) >= 2 for p in pieces)


def spoken_of_as_several(doc: Any, window: Candidate, pieces: list[Candidate]) -> bool:
    """"A and B" in a question that speaks of several things: "both", "each", "between",
    or a plural verb whose subject the pair is ("Zeta and Orbit are what kind of …?")."""
    if not _conjoined(doc, pieces):
        return False
    if any(t.lower_ in PLURAL_CUES for t in doc):
        return True
    inside = _tokens(doc, window.start, window.end)
    return any(t.dep_ in ("nsubj", "nsubjpass") and (t.head.lower_ in PLURAL_VERBS or any(
        c.dep_ in ("aux", "auxpass") and c.lower_ in PLURAL_VERBS for c in t.head.children))
        for t in inside)


def cut_description(doc: Any, window: Candidate, pieces: list[Candidate]) -> bool:
    """"A and B" whose last word qualifies a lowercase noun after the window ("between
    Tarn and Osk district's river"): the window cuts a description, it is no title."""
    if not _conjoined(doc, pieces):
        return False
    inside = _tokens(doc, window.start, window.end)
    if not inside:
        return False
    last = inside[-1]
    while last.dep_ == "conj" and last.head.i < last.i:  # the pair's first name carries the link
        last = last.head
    return (last.dep_ in ("compound", "amod", "poss", "nmod") and last.head.i > inside[-1].i
            and last.head.is_lower and last.head.pos_ == "NOUN")


def place_after(doc: Any, window: Candidate, pieces: list[Candidate]) -> bool:
    """"A in B" where B is a place: a name ends before the phrase that places it ("the
    Hall Council in Osk", "Opry Hall in Velmora, Tennessee")."""
    joins = [t for t in _joiners(doc, pieces) if t.lower_ not in ARTICLES]
    if len(pieces) != 2 or len(joins) != 1 or joins[0].lower_ not in PLACE_PREPOSITIONS:
        return False
    place = pieces[1]
    return any(e.label_ in _PLACE_LABELS and e.start_char <= place.start and place.end <= e.end_char
               for e in doc.ents)
