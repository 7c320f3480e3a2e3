"""Word-level helpers shared by chaining and determinateness: crude stems, question restatement."""

from __future__ import annotations

import re
from functools import lru_cache

from ...lexicon.conclusions import COPULAS
from ...lexicon.questions import CONCLUDING_WORDS
from ...lexicon.stop_words import PHRASE_STOP_WORDS
from ...lexicon.text import crude_stem

__all__ = ["CONCLUDING", "answer_head", "content", "content_stems", "crude_stem", "question_stems",
           "restates_question", "words"]


_WORD = re.compile(r"[^\W_]+(?:'t)?")
# Where a clause starts drawing its conclusion: "so", "therefore", "thus", "hence".
CONCLUDING = re.compile(rf"(?:^|[,;:]\s*|\b)(?:{'|'.join(sorted(CONCLUDING_WORDS))})\b", re.I)


def words(text: str) -> list[str]:
    return _WORD.findall(text.casefold())


def content(text: str) -> str:
    return " ".join(w for w in words(text) if w not in PHRASE_STOP_WORDS)


def content_stems(text: str) -> set[str]:
    """The stems of `text`'s content words (stop words left out)."""
    return {crude_stem(w) for w in words(text) if w not in PHRASE_STOP_WORDS}


def restates_question(text: str, question: str, *, loose: bool = False) -> bool:
    """Whether a phrase restates the question ("the director of the film starring X")."""
    said = [crude_stem(w) for w in words(text) if w not in PHRASE_STOP_WORDS]
    if not said:
        return False
    asked = question_stems(question)
    shared = sum(w in asked for w in said)
    return shared >= (1 if loose else 2) and shared / len(said) >= (1.0 if loose else 0.6)


# One question is restated against every phrase of its answer: its stems are read once.
@lru_cache(maxsize=1024)
def question_stems(question: str) -> frozenset[str]:
    return frozenset(content_stems(question))


def answer_head(answer: str, question: str) -> str | None:
    """What a short answer written as a sentence names (docs/metrics.md): the predicate after
    its last copula, when what comes before restates the question ("Opry Mills in Nashville
    is a large shopping mall" → "a large shopping mall"); None for an answer that is no such
    sentence. "X is the director" names X, not "the director": nothing of the question
    comes before its copula."""
    text = answer.strip().rstrip(".!")
    if len(text.split()) < 4:
        return None
    copulas = [m for m in _WORD.finditer(text) if m.group(0).casefold() in COPULAS]
    if not copulas:
        return None
    last = copulas[-1]
    before, after = text[:last.start()], text[last.end():].strip(" ,;:")
    if not after or not content_stems(before) & question_stems(question):
        return None
    return after
