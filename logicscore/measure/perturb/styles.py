"""Restyled copies of an answer that state the same things: the label a person gave the
original holds for each copy (docs/styles.md).

    from logicscore.measure.perturb import styles
    copies = styles.restyle(record, seed=0)   # one `Rewrite` per transform, built or skipped

Each transform is a function `(record, rng) -> new long answer` that raises `Skip` when it
does not apply or could change what the answer states (a pronoun whose referent is not
safe, a conclusion whose removal would leave the answer unwritten). Every built copy is
then checked by `check` on fixed text; a copy that fails is skipped too, with the reason,
so skips are counted, never silently dropped. Like every builder here, transforms read the
answer as fixed text (`perturb.text`), never through the stages under test.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ...lexicon.questions import ASKING_WORDS
from ...lexicon.function_words import QUESTION_LEADING
from ...lexicon.styles import (
    CONCLUDING,
    LEAD_PREFIXES,
    LEAD_SENTENCES,
    LOWERABLE_OPENERS,
    QUOTED_CLAUSE,
    RESTATING,
)
from ...models import QARecord
from .referring import (CONJOINED, Skip, answer_in, asked_names, concludes, description,
                        mentions, pronoun, reorder)
from .text import contains, norm, split_sentences

__all__ = ["TRANSFORMS", "Rewrite", "Skip", "restyle", "rewrite", "check", "question_clause", "asked_names",
           "restate_question", "lead_in", "bullets", "numbered", "bold_names", "description",
           "pronoun", "answer_appended", "answer_removed", "reorder"]


@dataclass(frozen=True)
class Rewrite:
    """One restyled copy; `record` is None and `skip` says why when it was not built."""

    transform: str
    source: str
    record: QARecord | None
    skip: str = ""


def _lower_first(sentence: str) -> str:
    first = sentence.split(maxsplit=1)[0] if sentence.split() else ""
    if first.lower().strip(",") in LOWERABLE_OPENERS:
        return sentence[:1].lower() + sentence[1:]
    return sentence


# -- the transforms ----------------------------------------------------------------------------

def question_clause(question: str) -> str:
    """The question as an indirect one: "Who directed X?" → "who directed X"; a question
    that opens otherwise is quoted (`QUOTED_CLAUSE`)."""
    text = question.strip().rstrip("?").strip()
    words = text.split()
    if not words:
        raise Skip("the question is empty")
    first = words[0].lower()
    second = words[1].lower() if len(words) > 1 else ""
    if first in ASKING_WORDS or (first in QUESTION_LEADING and second in ASKING_WORDS):
        return text[:1].lower() + text[1:]
    return QUOTED_CLAUSE.format(question=question.strip())


def restate_question(record: QARecord, rng: random.Random) -> str:
    """A first sentence restating the question in one of several phrasings (`RESTATING`):
    it asks, it states nothing, so the label stands."""
    opener = rng.choice(RESTATING).format(clause=question_clause(record.question))
    return f"{opener} {record.long_answer.strip()}"


def lead_in(record: QARecord, rng: random.Random) -> str:
    """"Let's think step by step." before the answer, or "From the context, I know that"
    (and kin) before its first sentence."""
    text = record.long_answer.strip()
    choice = rng.choice((*LEAD_SENTENCES, *LEAD_PREFIXES))
    if choice in LEAD_SENTENCES:
        return f"{choice} {text}"
    return f"{choice} {_lower_first(text)}"


def _items(record: QARecord) -> list[str]:
    sentences = split_sentences(record.long_answer)
    if len(sentences) < 2:
        raise Skip("one sentence: nothing to list")
    return sentences


def bullets(record: QARecord, rng: random.Random) -> str:
    """One markdown bullet per sentence."""
    return "\n".join(f"- {s}" for s in _items(record))


def numbered(record: QARecord, rng: random.Random) -> str:
    """Numbered steps, one sentence each."""
    return "\n".join(f"{i}. {s}" for i, s in enumerate(_items(record), 1))


def bold_names(record: QARecord, rng: random.Random) -> str:
    """The question's names (each side of "A and B" on its own) and the short answer in
    **bold** wherever written whole: set off by spaces, quotes, brackets or punctuation, never
    glued to a hyphen or a figure ("QF 6-pounder" keeps its "QF 6"). A name with no capital
    ("20th") is no name to bold."""
    text = record.long_answer
    asked = asked_names(record.question)
    names = [n for n in asked if any(c.isupper() for c in n)
             and not all(p in asked for p in CONJOINED.split(n)[1:] or [n + " "])]
    names = sorted({*names, record.answer.strip()}, key=len, reverse=True)
    spans: list[tuple[int, int]] = []
    for name in names:
        if len(norm(name)) < 2:
            continue
        for m in mentions(text, name):
            if not _set_off(text, m.start(), m.end()):
                continue
            if not any(m.start() < e and s < m.end() for s, e in spans):
                spans.append((m.start(), m.end()))
    if not spans:
        raise Skip("no name of the question or answer written")
    for start, end in sorted(spans, reverse=True):
        text = f"{text[:start]}**{text[start:end]}**{text[end:]}"
    return text


def _set_off(text: str, start: int, end: int) -> bool:
    before, after = text[start - 1:start], text[end:end + 1]
    return (not before or before.isspace() or before in "\"“'‘([") and \
        (not after or after.isspace() or after in "\"”'’)].,;:!?")


def answer_appended(record: QARecord, rng: random.Random) -> str:
    """"So the answer is: X." (or a kin phrasing) appended to an answer that does not end so."""
    sentences = split_sentences(record.long_answer)
    if sentences and concludes(sentences[-1]):
        raise Skip("already ends by stating the answer")
    if not record.answer.strip():
        raise Skip("no short answer")
    ending = rng.choice(CONCLUDING).format(answer=record.answer.strip().rstrip("."))
    return f"{record.long_answer.strip()} {ending}"


def answer_removed(record: QARecord, rng: random.Random) -> str:
    """The closing "So the answer is: X." removed, where the rest still writes the answer."""
    sentences = split_sentences(record.long_answer)
    if len(sentences) < 2 or not concludes(sentences[-1]):
        raise Skip("no closing sentence that states the answer")
    rest = " ".join(sentences[:-1])
    if not answer_in(rest, record.answer):
        raise Skip("the closing sentence is the only one that writes the answer")
    return rest



Transform = Callable[[QARecord, random.Random], str]
TRANSFORMS: dict[str, Transform] = {
    "restate_question": restate_question,
    "lead_in": lead_in,
    "bullets": bullets,
    "numbered": numbered,
    "bold_names": bold_names,
    "description": description,
    "pronoun": pronoun,
    "answer_appended": answer_appended,
    "answer_removed": answer_removed,
    "reorder": reorder,
}
# Transforms that add the question's own words, so may write a name the original did not.
_ADDS_QUESTION = frozenset({"restate_question"})
# Transforms that may write the short answer where the original did not.
_ADDS_ANSWER = frozenset({"answer_appended", "restate_question"})


# -- checking and building ------------------------------------------------------------------------

def check(transform: str, record: QARecord, new: str) -> str:
    """Why a rewrite may not keep the label ("" when it does), on fixed text: the short
    answer written before and not after (or the reverse, unless the transform states it),
    a name of the question written before and not after (or the reverse), the text unchanged."""
    old = record.long_answer
    if norm(new) == norm(old) and new == old:
        return "unchanged"
    before, after = answer_in(old, record.answer), answer_in(new, record.answer)
    if before and not after:
        return "the short answer is no longer written"
    if after and not before and transform not in _ADDS_ANSWER:
        return "the short answer is written where it was not"
    for name in asked_names(record.question):
        if len(CONJOINED.split(name)) > 1:
            continue  # "A and B": its parts are checked one by one
        was, now = contains(old, name), contains(new, name)
        if was and not now:
            return f"the question's name {name!r} is no longer written"
        if now and not was and transform not in _ADDS_QUESTION:
            return f"the question's name {name!r} is written where it was not"
    return ""


def rng_for(seed: int, record_id: str, transform: str) -> random.Random:
    # String seeds hash with SHA-512: stable across runs and processes.
    return random.Random(f"styles|{seed}|{record_id}|{transform}")


def rewrite(record: QARecord, transform: str, seed: int = 0) -> Rewrite:
    """One transform applied to one record and checked: built, or skipped with the reason."""
    rid = str(record.id)
    try:
        new = TRANSFORMS[transform](record, rng_for(seed, rid, transform))
    except Skip as why:
        return Rewrite(transform, rid, None, str(why))
    problem = check(transform, record, new)
    if problem:
        return Rewrite(transform, rid, None, f"failed the check: {problem}")
    copy = record.model_copy(update={
        "id": f"{rid}#style:{transform}", "long_answer": new,
        "meta": {**record.meta, "style": transform, "source": rid}})
    return Rewrite(transform, rid, copy)


def restyle(record: QARecord, seed: int = 0, transforms: tuple[str, ...] | None = None) -> list[Rewrite]:
    """Every transform (`TRANSFORMS` order, or `transforms`) applied to one record."""
    return [rewrite(record, name, seed) for name in (transforms or tuple(TRANSFORMS))]
