"""The short answer a response states in its conclusion, by named rules.

A row of a RAG tool carries the model's response but no short answer of its own. The
response's own words give one only where they state it: a rule below is one way of stating
it, tried in table order, each on the sentences from the last to the first (the yes/no
rule on the first sentence only, the copula rule on the last only). The rule that read the
answer is named in `meta.answer_rule`, so no record carries an answer nobody can trace
(docs/records.md, "answer_source").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..lexicon.conclusions import (ANSWER_QUALIFIERS, ANSWER_VERBS, CONCLUSION_OPENERS, COPULAS, NOT_ANSWERS,
                                   NOT_VALUE_STARTS, YES_NO)
from ..lexicon.questions import AUXILIARIES
from .reply import trim_stop

_OPENER = "|".join(re.escape(w) for w in sorted(CONCLUSION_OPENERS, key=len, reverse=True))
_QUALIFIER = "|".join(sorted(ANSWER_QUALIFIERS))
_VERB = "|".join(re.escape(v) for v in sorted(ANSWER_VERBS, key=len, reverse=True))
_COPULA = "|".join(sorted(COPULAS))
# A sentence ends at . ! ? followed by space and a capital, a digit or a quote; initials
# ("M. P. Shiel") and "D.C." are one letter before their stop and end nothing.
_SENTENCE_END = re.compile(r"(?<![A-Z])(?<!\b[A-Za-z]\.[A-Za-z])[.!?][\"'”’)]*\s+(?=[\"“'‘(]?[A-Z0-9])|\n+")
_TRAILING = re.compile(r"[\s!?\"'”’*]+$")
_LEADING = re.compile(r"^[\s\"'“‘*:]+")


@dataclass(frozen=True)
class Rule:
    """One way a response states its answer; `find` gives the answer of one sentence or None."""

    name: str
    find: Callable[[str, str], str | None]  # (sentence, question) -> answer
    where: str  # which sentences it reads: "any" (from the last), "last" or "first"
    example: str  # a sentence it reads, for the docs and the table's own test


def _pattern(regex: str) -> Callable[[str, str], str | None]:
    compiled = re.compile(regex, re.IGNORECASE)

    def find(sentence: str, question: str) -> str | None:
        match = compiled.search(sentence)
        return match.group("answer") if match else None
    return find


def _copula(sentence: str, question: str) -> str | None:
    """"So the director of the film is X": the value after the sentence's last copula, when
    the question asks for a thing (a yes/no question is answered by no value)."""
    words = question.split()
    if words and words[0].lower().strip("\"'“") in AUXILIARIES:
        return None
    opened = re.match(rf"^\W*(?:{_OPENER})\b[\s,]*(?P<rest>.+)$", sentence, re.IGNORECASE | re.DOTALL)
    if not opened:
        return None
    copulas = list(re.finditer(rf"\s(?:{_COPULA})\s+", opened.group("rest"), re.IGNORECASE))
    if not copulas:
        return None
    value = opened.group("rest")[copulas[-1].end():]
    first = value.split()[0].lower().strip(",\"'“”") if value.split() else ""
    if first in NOT_VALUE_STARTS or first.endswith("ed"):
        return None
    return value


def _yes_no(sentence: str, question: str) -> str | None:
    match = re.match(r"^\W*(?P<answer>yes|no)\b\s*[,.!;:—-]", sentence, re.IGNORECASE)
    if not match or match.group("answer").lower() not in YES_NO:
        return None
    return match.group("answer").capitalize()


RULES: tuple[Rule, ...] = (
    Rule("the_answer_is", _pattern(
        rf"\bthe\s+(?:(?:{_QUALIFIER})\s+)?answer\s+(?:to\s+the\s+question\s+)?(?:{_VERB})\s*:?\s+(?P<answer>.+)$"),
        "any", "So the answer is Kurt Gerron."),
    Rule("is_the_answer", _pattern(
        rf"^\W*(?:(?:{_OPENER})\b[\s,]*)?(?P<answer>.+?)\s+(?:is|would be)\s+the\s+(?:(?:{_QUALIFIER})\s+)?answer\b"),
        "any", "Therefore, Len Wiseman is the answer."),
    Rule("leading_yes_no", _yes_no, "first", "Yes, both of them are film directors."),
    Rule("concluding_copula", _copula, "last", "So the creator of the show is Seth MacFarlane."),
)


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """[start, end) of each sentence of `text`, spaces around it left out (a light split)."""
    spans, start = [], 0
    for match in [*_SENTENCE_END.finditer(text), None]:
        end = match.end() if match is not None else len(text)
        piece = text[start:end]
        if piece.strip():
            lead = len(piece) - len(piece.lstrip())
            spans.append((start + lead, start + len(piece.rstrip())))
        start = end
    return spans


def sentences(text: str) -> list[str]:
    """The sentences of `text` (a light split: the conclusion is all it is asked for)."""
    return [text[a:b] for a, b in sentence_spans(text)]


def _clean(answer: str) -> str | None:
    answer = _LEADING.sub("", trim_stop(_TRAILING.sub("", answer.strip())))
    answer = _TRAILING.sub("", answer) if not answer.endswith(".") else answer
    first = answer.split()[0].lower().strip(",") if answer.split() else ""
    if not answer or (first in NOT_ANSWERS and answer.lower() not in YES_NO):
        return None
    return answer


def stated_answer(text: str, question: str, rules: tuple[Rule, ...] = RULES) -> tuple[str, str] | None:
    """(answer, rule name) of the first rule that reads an answer in `text`, else None."""
    said = sentences(text)
    for rule in rules:
        read = {"last": said[-1:], "first": said[:1]}.get(rule.where, said[::-1])
        for sentence in read:
            found = rule.find(sentence, question)
            answer = _clean(found) if found is not None else None
            if answer is not None:
                return answer, rule.name
    return None
