"""The transforms that touch how an answer's sentences refer to one another: a later
mention as a description or a pronoun, and sentences moved (docs/styles.md). Each changes a
reference only where the text makes the referent sure, and raises `Skip` otherwise.

Also the fixed-text readings every restyling transform shares: where a name is written
whole, whether a sentence leans on another, the question's names, the closing conclusion.
They read the answer as fixed text (`perturb.text`), never through the stages under test.
"""

from __future__ import annotations

import random
import re

from ...lexicon.function_words import QUESTION_OPENERS, SENTENCE_CONJUNCTIONS
from ...lexicon.kinds import DESCRIPTOR_NOUNS
from ...lexicon.names import ARTICLES
from ...lexicon.pronouns import DEMONSTRATIVES, STANDING_PRONOUNS
from ...lexicon.questions import AUXILIARIES, CONCLUDING_WORDS
from ...lexicon.styles import BINDING_STOPS, FEMALE_NOUNS, LOWERABLE_OPENERS, MALE_NOUNS, THING_KINDS
from ...models import QARecord
from .text import capitalized_phrases, contains, norm, question_names, split_sentences

__all__ = ["Skip", "asked_names", "mentions", "concludes", "answer_in", "opens_sentence",
           "CONJOINED", "description", "pronoun", "reorder"]


class Skip(Exception):
    """A transform that does not apply to this answer, or might change what it states."""




# -- reading fixed text ----------------------------------------------------------------------

_REFERRING = STANDING_PRONOUNS | DEMONSTRATIVES
# Capitalised words that open a sentence without being part of the name after them.
_OPENERS = LOWERABLE_OPENERS | CONCLUDING_WORDS | SENTENCE_CONJUNCTIONS
CONJOINED = re.compile(r"\s+(?:and|or)\s+")
_QUESTION_WORDS = QUESTION_OPENERS | AUXILIARIES
_ARTICLES_OR_CONCLUDING = ARTICLES | CONCLUDING_WORDS
_CONCLUSION = re.compile(r"^(?:so|therefore|thus|hence),?\s+the\s+(?:final\s+)?answer\s+is\b",
                         re.IGNORECASE)


def concludes(sentence: str) -> bool:
    return bool(_CONCLUSION.match(sentence.strip()))


def _draws(sentence: str) -> bool:
    """Whether a sentence draws a conclusion ("So …", "Thus, …"): it stays after the body."""
    return norm(sentence).split()[:1] in ([w] for w in CONCLUDING_WORDS)


def mentions(text: str, name: str) -> list[re.Match]:
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


def opens_sentence(text: str, at: int) -> bool:
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


def answer_in(text: str, answer: str) -> bool:
    return contains(text, answer)


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


# -- descriptions and pronouns ------------------------------------------------------------------

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
            while words and words[0].lower() in _ARTICLES_OR_CONCLUDING:
                words.pop(0)
            name = " ".join(words)
            if len(norm(name)) < 3 or name in seen or not any(c.islower() for c in name):
                continue
            if contains(name, record.answer) or contains(record.answer, name):
                continue
            if sum(bool(mentions(s, name)) for s in split_sentences(text)) >= 2:
                seen.append(name)
    return sorted(seen, key=len, reverse=True)


def _second_mention(record: QARecord, name: str) -> tuple[int, int] | None:
    """The span of `name`'s first mention in a later sentence than its first, outside a
    conclusion and outside quotes."""
    text = record.long_answer
    sentences = split_sentences(text)
    first = next(i for i, s in enumerate(sentences) if mentions(s, name))
    offset = 0
    for i, sentence in enumerate(sentences):
        at = text.index(sentence, offset)
        offset = at + len(sentence)
        if i <= first or concludes(sentence):
            continue
        for m in mentions(sentence, name):
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
        return text[:start] + (_upper_first(words) if opens_sentence(text, start) else words) + text[end:]
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
            if not _starts_with(cur, name) or concludes(cur) or not _only_antecedent(prev, name):
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
    if not mentions(sentence, name):
        return False
    others = [p for p in capitalized_phrases(sentence)
              if p.split()[0].lower() not in _OPENERS and not contains(name, p)]
    return not others


def _starts_with(sentence: str, name: str) -> bool:
    return any(m.start() == 0 for m in mentions(sentence, name))


def _sentence_at(text: str, sentences: list[str], i: int) -> int:
    offset = 0
    for j, sentence in enumerate(sentences):
        at = text.index(sentence, offset)
        if j == i:
            return at
        offset = at + len(sentence)
    raise ValueError(i)


# -- order -------------------------------------------------------------------------------------

def reorder(record: QARecord, rng: random.Random) -> str:
    """A sentence that names neither the answer nor a name of the question, leans on no
    other and is leant on by none, moved to another place before the first sentence that
    draws a conclusion ("So …"). Order
    states nothing: with no reference to capture or lose, the label stands."""
    sentences = split_sentences(record.long_answer)
    body = next((i for i, s in enumerate(sentences) if _draws(s)), len(sentences))
    asked = asked_names(record.question)
    movable = [i for i in range(body)
               if not answer_in(sentences[i], record.answer)
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

