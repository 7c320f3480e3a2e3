"""Restyled copies of an answer that state the same things: the label a person gave the
original holds for each copy (docs/styles.md).

    from logicscore.perturb import styles
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
import re
from collections.abc import Callable
from dataclasses import dataclass

from ..lexicon.kinds import DESCRIPTOR_NOUNS
from ..lexicon.pronouns import DEMONSTRATIVES, STANDING_PRONOUNS
from ..lexicon.questions import ASKING_WORDS, AUXILIARIES, CONCLUDING_WORDS
from ..lexicon.function_words import QUESTION_LEADING, QUESTION_OPENERS
from ..lexicon.styles import (BINDING_STOPS, CONCLUDING, FEMALE_NOUNS, LEAD_PREFIXES, LEAD_SENTENCES,
                              LOWERABLE_OPENERS, MALE_NOUNS, QUOTED_CLAUSE, RESTATING, THING_KINDS)
from ..models import QARecord
from .text import capitalized_phrases, contains, norm, question_names, split_sentences

__all__ = ["TRANSFORMS", "Rewrite", "Skip", "restyle", "rewrite", "check", "question_clause", "asked_names",
           "restate_question", "lead_in", "bullets", "numbered", "bold_names", "description",
           "pronoun", "answer_appended", "answer_removed", "reorder"]


class Skip(Exception):
    """A transform that does not apply to this answer, or might change what it states."""


@dataclass(frozen=True)
class Rewrite:
    """One restyled copy; `record` is None and `skip` says why when it was not built."""

    transform: str
    source: str
    record: QARecord | None
    skip: str = ""


# -- reading fixed text ----------------------------------------------------------------------

_REFERRING = STANDING_PRONOUNS | DEMONSTRATIVES
# Capitalised words that open a sentence without being part of the name after them.
_OPENERS = LOWERABLE_OPENERS | CONCLUDING_WORDS | frozenset({"and", "but", "yes", "no"})
_CONJOINED = re.compile(r"\s+(?:and|or)\s+")
_QUESTION_WORDS = QUESTION_OPENERS | AUXILIARIES
_CONCLUSION = re.compile(r"^(?:so|therefore|thus|hence),?\s+the\s+(?:final\s+)?answer\s+is\b",
                         re.IGNORECASE)


def _concludes(sentence: str) -> bool:
    return bool(_CONCLUSION.match(sentence.strip()))


def _draws(sentence: str) -> bool:
    """Whether a sentence draws a conclusion ("So …", "Thus, …"): it stays after the body."""
    return norm(sentence).split()[:1] in ([w] for w in CONCLUDING_WORDS)


def _mentions(text: str, name: str) -> list[re.Match]:
    """Where `text` writes `name` (case-insensitive, whole words, not inside a longer run of
    capitalised words: "Stapp" is not written in "Scott Stapp")."""
    pattern = re.compile(r"(?<![\w])" + re.escape(name) + r"(?![\w])", re.IGNORECASE)
    return [m for m in pattern.finditer(text) if not _glued(text, m)]


_WORD_BEFORE = re.compile(r"([\w'’-]+) $")
_WORD_AFTER = re.compile(r"^ ([\w'’-]+)")


def _glued(text: str, match: re.Match) -> bool:
    before = _WORD_BEFORE.search(text[:match.start()])
    after = _WORD_AFTER.match(text[match.end():])
    return bool((before and before.group(1)[:1].isupper()
                 and before.group(1).lower() not in _OPENERS)
                or (after and after.group(1)[:1].isupper()))


def _opens_sentence(text: str, at: int) -> bool:
    return not text[:at].strip() or text[:at].rstrip()[-1:] in ".!?:"


# "the film", "this band" not followed by the name it describes.
_DESCRIBES = re.compile(r"\b(?i:the|this|that)\s+(\w+)\b(?!\s+(?:[A-Z\"“]|of\b))")


def _refers(sentence: str) -> bool:
    """Whether a sentence may lean on another: a pronoun, a demonstrative, or a description
    ("the film") not followed by the name it describes."""
    if set(norm(sentence).split()) & _REFERRING:
        return True
    return any(m.group(1).lower() in DESCRIPTOR_NOUNS for m in _DESCRIBES.finditer(sentence))


def asked_names(question: str) -> list[str]:
    """The question's capitalised names, wider than `text.question_names`: the opening run
    loses its question words instead of being dropped ("Are Hoodoo Gurus and Pierre Bouvier
    …" names both), and a demonym after a wh-word stays ("Which American actor"). Wider is
    safer here: a name counts against moving a sentence and must survive every rewrite."""
    out = list(question_names(question))
    phrases = capitalized_phrases(question)
    if phrases and question.lstrip().startswith(phrases[0]):
        words = phrases[0].split()
        while words and words[0].lower() in _QUESTION_WORDS:
            words.pop(0)
        if words:
            phrase = " ".join(words)
            out += [phrase, *(p for p in re.split(r"\s+(?:and|or|on)\s+", phrase) if p != phrase)]
    return list(dict.fromkeys(n for n in out if any(c.isalpha() for c in n)))


def _answer_in(text: str, answer: str) -> bool:
    return contains(text, answer)


def _lower_first(sentence: str) -> str:
    first = sentence.split(maxsplit=1)[0] if sentence.split() else ""
    if first.lower().strip(",") in LOWERABLE_OPENERS:
        return sentence[:1].lower() + sentence[1:]
    return sentence


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


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
             and not all(p in asked for p in _CONJOINED.split(n)[1:] or [n + " "])]
    names = sorted({*names, record.answer.strip()}, key=len, reverse=True)
    spans: list[tuple[int, int]] = []
    for name in names:
        if len(norm(name)) < 2:
            continue
        for m in _mentions(text, name):
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


_WORD_GAP = r"(?:(?!(?:" + "|".join(sorted(BINDING_STOPS)) + r")\b)[\w'-]+\s+){0,4}?"


def _kind(text: str, name: str, kinds: frozenset[str]) -> str | None:
    """The kind noun the text binds `name` to ("the band Creed", "Creed is an American rock
    band", "Creed, a band"), when exactly one of `kinds` is bound and no other word of that
    kind appears in the text (so "the band" can mean only this one)."""
    n = re.escape(name)
    found = set()
    for kind in kinds:
        k = re.escape(kind)
        patterns = (rf"\b{k}\s+{n}(?![\w])",
                    rf"(?<![\w]){n}\s+(?:is|was)\s+(?:an?|the)\s+{_WORD_GAP}{k}\b",
                    rf"(?<![\w]){n},\s+(?:an?|the)\s+{_WORD_GAP}{k}\b")
        if any(re.search(p, text, re.IGNORECASE) for p in patterns):
            found.add(kind)
    if len(found) != 1:
        return None
    kind = found.pop()
    if len(re.findall(rf"\b{re.escape(kind)}(?:s|es)?\b", text, re.IGNORECASE)) != 1:
        return None
    return kind


def _candidates(record: QARecord) -> list[str]:
    """Names written in two sentences or more, longest first, none of them the answer."""
    text = record.long_answer
    seen: list[str] = []
    for sentence in split_sentences(text):
        for phrase in capitalized_phrases(sentence):
            words = phrase.split()
            while words and words[0].lower() in ("the", "a", "an", *CONCLUDING_WORDS):
                words.pop(0)
            name = " ".join(words)
            if len(norm(name)) < 3 or name in seen or not any(c.islower() for c in name):
                continue
            if contains(name, record.answer) or contains(record.answer, name):
                continue
            if sum(bool(_mentions(s, name)) for s in split_sentences(text)) >= 2:
                seen.append(name)
    return sorted(seen, key=len, reverse=True)


def _second_mention(record: QARecord, name: str) -> tuple[int, int] | None:
    """The span of `name`'s first mention in a later sentence than its first, outside a
    conclusion and outside quotes."""
    text = record.long_answer
    sentences = split_sentences(text)
    first = next(i for i, s in enumerate(sentences) if _mentions(s, name))
    offset = 0
    for i, sentence in enumerate(sentences):
        at = text.index(sentence, offset)
        offset = at + len(sentence)
        if i <= first or _concludes(sentence):
            continue
        for m in _mentions(sentence, name):
            around = sentence[max(0, m.start() - 1):m.end() + 1]
            if any(q in around for q in "\"“”*"):
                continue
            return at + m.start(), at + m.end()
    return None


def description(record: QARecord, rng: random.Random) -> str:
    """A later mention of a name replaced by "the N", where the text binds the name to
    the kind noun N and writes no other N."""
    text = record.long_answer
    for name in _candidates(record):
        kind = _kind(text, name, DESCRIPTOR_NOUNS)
        if kind is None:
            continue
        span = _second_mention(record, name)
        if span is None:
            continue
        start, end = span
        words = f"the {kind}"
        return text[:start] + (_upper_first(words) if _opens_sentence(text, start) else words) + text[end:]
    raise Skip("no name written twice whose kind the text states once")


_POSSESSIVE = re.compile(r"^['’]s\b")


def pronoun(record: QARecord, rng: random.Random) -> str:
    """A sentence that opens with a name written in the sentence before starts with a
    pronoun instead ("He", "She", "It"; "His", "Her", "Its" for "X's"), where that sentence
    opens with the name or writes no other, and only where the text fixes the name's gender
    or number: a gendered noun bound to it ("X is an American actress") or a kind of thing
    ("the film X"). Anything less sure is skipped."""
    text = record.long_answer
    sentences = split_sentences(text)
    unsure = False
    for name in _candidates(record):
        kind = _kind(text, name, FEMALE_NOUNS | MALE_NOUNS | THING_KINDS)
        for i in range(1, len(sentences)):
            prev, cur = sentences[i - 1], sentences[i]
            if not _starts_with(cur, name) or _concludes(cur) or not _only_antecedent(prev, name):
                continue
            if kind is None:
                unsure = True
                continue
            subject, owner = (("She", "Her") if kind in FEMALE_NOUNS else
                              ("He", "His") if kind in MALE_NOUNS else ("It", "Its"))
            rest = cur[len(name):]
            possessive = _POSSESSIVE.match(rest)
            new = owner + rest[possessive.end():] if possessive else subject + rest
            at = _sentence_at(text, sentences, i)
            return text[:at] + new + text[at + len(cur):]
    raise Skip("gender or number not safely known" if unsure
               else "no sentence opens with a name the sentence before writes alone")


def _only_antecedent(sentence: str, name: str) -> bool:
    """Whether `name` is the subject of `sentence` or the only name it writes."""
    if _starts_with(sentence, name):
        return True
    if not _mentions(sentence, name):
        return False
    others = [p for p in capitalized_phrases(sentence)
              if p.split()[0].lower() not in _OPENERS and not contains(name, p)]
    return not others


def _starts_with(sentence: str, name: str) -> bool:
    return any(m.start() == 0 for m in _mentions(sentence, name))


def _sentence_at(text: str, sentences: list[str], i: int) -> int:
    offset = 0
    for j, sentence in enumerate(sentences):
        at = text.index(sentence, offset)
        if j == i:
            return at
        offset = at + len(sentence)
    raise ValueError(i)


def answer_appended(record: QARecord, rng: random.Random) -> str:
    """"So the answer is: X." (or a kin phrasing) appended to an answer that does not end so."""
    sentences = split_sentences(record.long_answer)
    if sentences and _concludes(sentences[-1]):
        raise Skip("already ends by stating the answer")
    if not record.answer.strip():
        raise Skip("no short answer")
    ending = rng.choice(CONCLUDING).format(answer=record.answer.strip().rstrip("."))
    return f"{record.long_answer.strip()} {ending}"


def answer_removed(record: QARecord, rng: random.Random) -> str:
    """The closing "So the answer is: X." removed, where the rest still writes the answer."""
    sentences = split_sentences(record.long_answer)
    if len(sentences) < 2 or not _concludes(sentences[-1]):
        raise Skip("no closing sentence that states the answer")
    rest = " ".join(sentences[:-1])
    if not _answer_in(rest, record.answer):
        raise Skip("the closing sentence is the only one that writes the answer")
    return rest


def reorder(record: QARecord, rng: random.Random) -> str:
    """A sentence that names neither the answer nor a name of the question, leans on no
    other and is leant on by none, moved to another place before the first sentence that
    draws a conclusion ("So …"). Order
    states nothing: with no reference to capture or lose, the label stands."""
    sentences = split_sentences(record.long_answer)
    body = next((i for i, s in enumerate(sentences) if _draws(s)), len(sentences))
    asked = asked_names(record.question)
    movable = [i for i in range(body)
               if not _answer_in(sentences[i], record.answer)
               and not any(contains(sentences[i], n) for n in asked)
               and not _refers(sentences[i])
               and not (i + 1 < len(sentences) and _refers(sentences[i + 1]))]
    if body < 2:
        raise Skip("fewer than two sentences before the conclusion")
    rng.shuffle(movable)
    for i in movable:
        rest = [s for j, s in enumerate(sentences) if j != i]
        places = [j for j in range(body) if j != i
                  and not (j < len(rest) and _refers(rest[j]))]
        if places:
            j = rng.choice(places)
            return " ".join([*rest[:j], sentences[i], *rest[j:]])
    raise Skip("no sentence off the question's names and the answer can move safely")


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
    before, after = _answer_in(old, record.answer), _answer_in(new, record.answer)
    if before and not after:
        return "the short answer is no longer written"
    if after and not before and transform not in _ADDS_ANSWER:
        return "the short answer is written where it was not"
    for name in asked_names(record.question):
        if len(_CONJOINED.split(name)) > 1:
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
