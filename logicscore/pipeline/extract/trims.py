"""How a proposed mention span is narrowed before overlaps are resolved: the rules of
`TRIMS`, in order, and the leading `MODIFIERS` one of them skips."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...lexicon.function_words import CONNECTORS
from ...lexicon.generic import GENERIC_WORDS
from ...lexicon.names import ARTICLES, RELATIONAL


@dataclass(slots=True)
class Cut:
    """A proposed span while `TRIMS` narrow it: token span [start, end) and its priority;
    `doc` is the Doc or its token list (the rules only index it)."""

    doc: Any
    start: int
    end: int
    priority: int


def opening_article(c: Cut) -> None:
    """Articles and stray punctuation open a phrase, not a name (an exact question or
    answer string keeps them)."""
    while c.start < c.end and c.priority > 0 and (
            c.doc[c.start].lower_ in ARTICLES or _loose(c.doc[c.start])):
        c.start += 1


def dangling_end(c: Cut) -> None:
    """Punctuation NER leaves after a date ("D Month YYYY –"), and a possessive ending."""
    while c.end > c.start and (_loose(c.doc[c.end - 1])
                               or (c.priority > 0 and c.doc[c.end - 1].tag_ == "POS")):
        c.end -= 1


def leading_modifiers(c: Cut) -> None:
    """Leading words that describe the name rather than belong to it: the first of
    `MODIFIERS` that skips some, then again from the top."""
    if c.priority == 0:
        return
    while c.end - c.start >= 2:
        for rule in MODIFIERS:
            skip = rule(c.doc, c.start, c.end)
            if skip:
                c.start += skip
                break
        else:
            return


TRIMS: tuple[Callable[[Cut], None], ...] = (opening_article, dangling_end, leading_modifiers)


def trim(doc: Any, start: int, end: int, priority: int) -> tuple[int, int]:
    """The span [start, end) once every rule of `TRIMS` has narrowed it, in order."""
    cut = Cut(doc, start, end, priority)
    for rule in TRIMS:
        rule(cut)
    return cut.start, cut.end


def relation_of(doc: Any, s: int, e: int) -> int:
    """"Widow of Name", "Chairman of Firm of Place": the name follows the relation."""
    if (doc[s].lower_ in RELATIONAL and doc[s + 1].lower_ == "of" and e - s >= 3
            and doc[s + 2].text[:1].isupper()):
        return 2
    return 0


def _before_name(doc: Any, s: int) -> bool:
    return doc[s + 1].text[:1].isupper() or doc[s + 1].like_num


def nationality(doc: Any, s: int, e: int) -> int:
    """A nationality before a name (a name NER reads as one organisation keeps it: its
    label is not NORP)."""
    tok = doc[s]
    return int(_before_name(doc, s) and tok.text.lower() in GENERIC_WORDS
               and not tok.text.isupper() and tok.ent_type_ in ("NORP", "LANGUAGE", ""))


def role_noun(doc: Any, s: int, e: int) -> int:
    """A lowercase role noun NER pulled into a person's span ("geographer Name")."""
    tok = doc[s]
    return int(_before_name(doc, s) and tok.is_lower and tok.is_alpha
               and tok.lower_ not in CONNECTORS)


MODIFIERS: tuple[Callable[[Any, int, int], int], ...] = (relation_of, nationality, role_noun)


def _loose(tok: Any) -> bool:
    return (tok.is_punct and tok.text not in (")", ".")) or tok.is_space
