"""The question's type (docs/metrics.md), by named rules over its words, tried in order, and
the sides a comparison or yes/no question names.

A rule answers with a type or passes. The first that answers wins; a question no rule
answers is scored as bridge, with an `unclassified_question` signal. Each rule is a row of
`tests/test_question_types.py`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ...lexicon.questions import ASKING_WORDS, AUXILIARIES, COMPARATIVE_WORDS, NO_WORDS, YES_WORDS
from ...models import QuestionEntity

_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
# "or" before a named option ("A or B", "or the B", "or \"B\""), or "before or after".
_OPTIONS = re.compile(r"\bor\s+(?:the\s+|an?\s+)?[\"“‘'(]?[A-Z0-9]|\b(?:before|after)\s+or\s+(?:before|after)\b")
# Named options closing the question: "…, A and B?" or "between A and B".
_AND_OPTIONS = re.compile(
    r"(?:,\s*|\b(?:out\s+of|of|between)\s+)[\"“‘']?[A-Z0-9][^,?]*\s+and\s+[^,?]+[\s?.]*$")
_BETWEEN = re.compile(r"(?:^|,\s*|\bin\s+)between\s+(?:the\s+)?[\"“‘']?[A-Z0-9].*\sand\s", re.I)
# "A and B, are both …?": the subjects first, an auxiliary after the comma.
_NAME_WORD = r"[\"“‘'(]?[A-Z0-9][^\s,?]*"
_SUBJECTS_FIRST = re.compile(
    rf"^(?:(?:the\s+)?{_NAME_WORD}\s+)+(?:and|&)\s+(?:the\s+)?(?:{_NAME_WORD}\s*)+,\s*(?P<aux>[a-z]+)\b")
_IN_COMMON = re.compile(r"\bin\s+common\b", re.I)
_BOTH = re.compile(r"\bboth\b", re.I)
_SAME = re.compile(r"\bsame\b", re.I)
# "the same nationality as Y": a bridge through Y, not a comparison.
_SAME_AS = re.compile(r"\bsame\b(?:\s+\S+){0,3}?\s+as\b", re.I)
# Two names joined: "A and B", "A & the B".
_NAMED_PAIR = re.compile(r"[A-Z0-9][^\s,]*\s+(?:and|&)\s+(?:the\s+|a\s+|an\s+)?[\"“‘']?[A-Z0-9]")


@dataclass(frozen=True)
class Question:
    """The words a rule looks at."""

    text: str
    words: tuple[str, ...]
    answer: str
    anchors: int

    @property
    def asks(self) -> bool:
        return any(w in ASKING_WORDS for w in self.words)


@dataclass(frozen=True)
class TypeRule:
    name: str
    apply: Callable[[Question], str | None]


def named_options(q: Question) -> str | None:
    """"Which came first, A or B?", "Did A or B start first?": a choice between options."""
    return "comparison" if _OPTIONS.search(q.text) else None


def auxiliary_first(q: Question) -> str | None:
    """"Are A and B both American?", "Is A the director of B?": verify a property."""
    return "yesno" if q.words and q.words[0] in AUXILIARIES else None


def shared_value(q: Question) -> str | None:
    """"What country are both A and B in?", "What do A and B have in common?": a value
    two named subjects share. "Who wrote both A and B?" (both objects of the answer's
    verb) and "the same X as Y" (a bridge through Y) are not."""
    if not q.asks:
        return None
    # Each pattern runs only on a question holding its word: the case-blind ones are
    # looked for in the casefolded text, where every character they match reads as theirs.
    folded = q.text.casefold()
    if ("common" in folded and _IN_COMMON.search(q.text)) or "share" in q.words:
        return "comparison"
    if not (("and" in q.text or "&" in q.text) and _NAMED_PAIR.search(q.text)):
        return None
    for m in _BOTH.finditer(q.text) if "both" in folded else ():
        before = q.text[:m.start()].split()
        if not before or before[-1].lower() in AUXILIARIES or before[-1][:1].isupper():
            return "comparison"
    return "comparison" if "same" in folded and _SAME.search(q.text) and not _SAME_AS.search(
        q.text) else None


def compared_pair(q: Question) -> str | None:
    """"Which film debuted first, A and B?": a comparative over two named options."""
    compares = any(w in COMPARATIVE_WORDS for w in q.words)
    # The pattern backtracks over the whole question: it runs only where " and " can match.
    return "comparison" if q.asks and compares and "and" in q.text and _AND_OPTIONS.search(
        q.text) else None


def between_options(q: Question) -> str | None:
    """"Between A and B, whose inventor is more famous?": options named after "between"."""
    # The pattern is tried at every character: it runs only where "between" can match.
    return "comparison" if q.asks and "between" in q.text.casefold() and _BETWEEN.search(
        q.text) else None


def subjects_first(q: Question) -> str | None:
    """"A and B, are native to South America?" (verify) or "A and B, have which
    nationality?" (a shared value): the named subjects before the comma."""
    m = _SUBJECTS_FIRST.match(q.text)
    if not m or m.group("aux") not in AUXILIARIES:
        return None
    return "comparison" if q.asks else "yesno"


def every_anchor(q: Question) -> str | None:
    """"The film that stars A and was shot in B": one answer under several named constraints."""
    return "intersection" if q.asks and q.anchors >= 2 else None


def asking_word(q: Question) -> str | None:
    """"Who directed A?": one answer reached through bridge entities."""
    return "bridge" if q.asks else None


def yes_no_answer(q: Question) -> str | None:
    """A question worded as a statement, answered yes or no."""
    return "yesno" if q.answer.strip(" .!").lower() in YES_WORDS | NO_WORDS else None


TYPE_RULES: tuple[TypeRule, ...] = tuple(TypeRule(f.__name__, f) for f in (
    named_options, auxiliary_first, shared_value, compared_pair, between_options, subjects_first,
    every_anchor, asking_word, yes_no_answer,
))


def classify(question: str, answer: str = "", anchors: int = 0,
             rules: tuple[TypeRule, ...] = TYPE_RULES) -> tuple[str, str | None]:
    """(question type, the rule that decided it); (`bridge`, None) when no rule does."""
    words = tuple(map(str.lower, _WORD.findall(question)))
    q = Question(question.strip(), words, answer, anchors)
    for rule in rules:
        found = rule.apply(q)
        if found is not None:
            return found, rule.name
    return "bridge", None


_AND = re.compile(r"\s+(?:and|&)\s+")


# The options closing a choice: "…, A or B?", "…: A or B?", "…\"Classic,\" the A or the B?",
# "… - A or B?"; an option may hold a comma ("Home, James"), so each is tried from the first.
_OPTIONS_FOLLOW = r"[,:]|\s[-–—](?=\s)"
_CLOSING_OPTIONS = re.compile(rf"(?:{_OPTIONS_FOLLOW})[\"”’']?\s*(?:the\s+)?(?P<a>[^:?]+?)\s+or\s+"
                              r"(?:the\s+)?(?P<b>[^:?]+?)[\s?.]*$", re.I)
_INNER_CLAUSE = re.compile(r",\s+[a-z]|\s[-–—]\s")
# The options opening a choice: "Did A or B start first?".
_OPENING_OPTIONS = re.compile(
    r"^\w+\s+(?:the\s+)?(?P<a>[A-Z0-9][^,?]*?)\s+or\s+(?:the\s+)?(?P<b>[A-Z0-9][^,?]*?)\s+[a-z]", re.U)


def option_sides(question: str, entities: list[QuestionEntity]) -> list[QuestionEntity]:
    """A choice's two options, whole, in place of the anchors read inside them ("Ma And
    Pa Kettle Go To Town or Malibu Express" is two options, not three names)."""
    found = [_CLOSING_OPTIONS.match(question, m.start()) for m in re.finditer(_OPTIONS_FOLLOW, question)]
    found.append(_OPENING_OPTIONS.match(question))
    options = next((o for o in map(_named_options, found) if o), None)
    if options is None:
        return split_sides(entities)
    low = [o.lower() for o in options]
    kept = [q for q in entities if not any(q.name.lower() in o for o in low)]
    return kept + [QuestionEntity(name=o, anchor=True) for o in options]


def _named_options(m: re.Match[str] | None) -> list[str] | None:
    """The two options of a match when both are names, not a clause."""
    if m is None:
        return None
    options = [m.group("a").strip(" \"“”'"), m.group("b").strip(" \"“”'")]
    # "A or B is older" is a clause, and so is "the driver, win more races - A"; a title's
    # "Can" ("I Can Explain") or comma ("Home, James") is not.
    clause = any(w in AUXILIARIES for o in options for w in o.split()) or any(
        _INNER_CLAUSE.search(o) for o in options)
    if clause or not all(o[:1].isupper() or o[:1].isdigit() for o in options):
        return None
    return options


def split_sides(question: list[QuestionEntity]) -> list[QuestionEntity]:
    """Question entities with "A and B" read as two sides, for comparison and yes/no."""
    out: list[QuestionEntity] = []
    for q in question:
        first, _, rest = q.name.partition(" ")
        if rest and first.lower() in AUXILIARIES:  # "Are A and B both …?" read "Are A" as a name
            q = q.model_copy(update={"name": rest})
        parts = [p for p in _AND.split(q.name) if p]
        if q.anchor and len(parts) == 2 and all(p[:1].isupper() or p[:1].isdigit() for p in parts):
            out.extend(QuestionEntity(name=p, anchor=True) for p in parts)
        else:
            out.append(q)
    return out


def pick_sides(question: str, entities: list[QuestionEntity]) -> list[QuestionEntity]:
    """The compared entities: the anchors next to "or", "and" or "&" in the question, or
    every anchor when fewer than two are."""
    anchors = [q for q in entities if q.anchor]
    low = question.lower()
    # Options joined by "or" first: "Which breed includes A and B, C or D?" compares C and D.
    for joins in ("or", "or|and|&"):
        joined = []
        for q in anchors:
            at = low.find(q.name.lower())
            before = low[max(0, at - 9):at] if at >= 0 else ""
            after = low[at + len(q.name):at + len(q.name) + 6] if at >= 0 else ""
            if re.search(rf"\b(?:{joins})\s+(?:the\s+)?[\"“‘']?$", before) or re.match(
                    rf"^[\"”’']?\s*(?:,\s*)?(?:{joins})\b", after):
                joined.append(q)
        if len(joined) >= 2:
            return joined
    if len(anchors) >= 2:
        return anchors
    # A compared name the reader took for a generic word ("before Kasawyn Orquin"): a
    # comparison has two sides, so every capitalised question entity is one.
    named = [q for q in entities if q.anchor or q.name[:1].isupper()]
    return named if len(named) >= 2 else anchors


SIDED_TYPES = frozenset({"comparison", "yesno"})


def question_type(question: str, answer: str, given: str | None,
                  entities: list[QuestionEntity]) -> tuple[str, str | None]:
    """The record's type: as given, else by `TYPE_RULES` (rule None: unclassified)."""
    if given is not None:
        return given, "given"
    return classify(question, answer, sum(q.anchor for q in entities))
