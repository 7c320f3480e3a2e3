"""Fixed text helpers for perturbations with known labels (SPEC §8).

These are deliberately independent of `logicscore.normalize`: the labels a perturbation
claims must not change when the pipeline under test changes. They read only the lexicon's
fixed text key and word lists. The real-data harness (`benchmarks/realdata/`) builds its
cases with the same helpers.
"""

from __future__ import annotations

import re

from ..lexicon.function_words import QUESTION_LEADING, QUESTION_OPENERS
from ..lexicon.names import ARTICLES, PHRASE_PARTICLES
from ..lexicon.sentences import ABBREVIATIONS
from ..lexicon.text import key

__all__ = ["norm", "contains", "contains_any", "names_alone", "capitalized_phrases",
           "split_sentences", "question_names", "cut", "removal_noise"]

# Where a paragraph splits into sentences: end punctuation, space, a capital/digit/quote.
_SPLIT = re.compile(r"[.!?][\"'”’)]?(?=\s+[\"'“(]?[A-Z0-9])")
_INITIALS = re.compile(r"^(?:[a-z]\.)*[a-z]$")
_CAP_ARTICLES = frozenset({"The", "A", "An"})
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_JOINERS = ARTICLES - {"an"} | PHRASE_PARTICLES | frozenset({"of", "and", "on"})


def norm(text: str) -> str:
    """Accent-free, casefolded words joined by single spaces (punctuation dropped): the text
    key, with "&" read as punctuation as the cases were built."""
    return key(text.replace("&", " "))


def contains(haystack: str, needle: str) -> bool:
    """Word-bounded containment of `needle` in `haystack`, both normalized."""
    n = norm(needle)
    return bool(n) and f" {n} " in f" {norm(haystack)} "


def contains_any(haystack: str, needles: list[str]) -> bool:
    """`contains` for several needles, normalizing the haystack once."""
    padded = f" {norm(haystack)} "
    return any(n and f" {n} " in padded for n in map(norm, needles))


def names_alone(text: str, name: str) -> bool:
    """Whether `text` names `name` as a whole proper name, not inside a longer one.

    "James Charles Mathew" does not name "Charles Mathew": the run of capitalised words
    around the match is longer than the name.
    """
    target = norm(name).split()
    if not target:
        return False
    words = list(_WORD.finditer(text))
    keys = [norm(w.group()) for w in words]
    n = len(target)
    for i in range(len(words) - n + 1):
        if keys[i:i + n] != target:
            continue
        before = i > 0 and text[words[i - 1].end():words[i].start()].isspace() \
            and words[i - 1].group()[:1].isupper() and words[i - 1].group() not in _CAP_ARTICLES
        after = i + n < len(words) and text[words[i + n - 1].end():words[i + n].start()].isspace() \
            and words[i + n].group()[:1].isupper()
        if not before and not after:
            return True
    return False


def split_sentences(paragraph: str) -> list[str]:
    """Split a paragraph into sentences; abbreviations and initials do not end one."""
    pieces: list[str] = []
    start = 0
    for match in _SPLIT.finditer(paragraph):
        head = paragraph[start:match.end()].rstrip("\"'”’)").rstrip(".!?").split()
        last_word = head[-1].lower() if head else ""
        if last_word in ABBREVIATIONS or _INITIALS.match(last_word):
            continue
        pieces.append(paragraph[start:match.end()].strip())
        start = match.end()
    pieces.append(paragraph[start:].strip())
    return [p for p in pieces if p]


def capitalized_phrases(text: str) -> list[str]:
    """Runs of capitalized words (or numbers), lower-case joiners inside ("Miracle on 34th
    Street"), split at punctuation: the names a properly cased question writes."""
    phrases: list[str] = []
    run: list[re.Match] = []

    def close() -> None:
        while run and not (run[-1].group()[:1].isupper() or run[-1].group()[:1].isdigit()):
            run.pop()
        if run:
            phrases.append(text[run[0].start():run[-1].end()])
        run.clear()

    for match in _WORD.finditer(text):
        word = match.group()
        if run and text[run[-1].end():match.start()] not in (" ", "-"):
            close()
        if word[:1].isupper() or word[:1].isdigit() or (run and word in _JOINERS):
            run.append(match)
        else:
            close()
    close()
    return phrases


def question_names(question: str) -> list[str]:
    """The question's capitalised names, "X and Y" runs also as X and Y; numbers ("11-1")
    constrain an answer but name nothing."""
    out = []
    # "Tim Russert (Talk Show)": a disambiguator, not a name of its own.
    question = re.sub(r"\([^()]*\)", " ", question)
    for phrase in capitalized_phrases(question):
        opening = question.lstrip().startswith(phrase)
        words = phrase.split()
        while len(words) > 1 and words[0].lower() in QUESTION_LEADING:
            words.pop(0)  # "In True Grit, who …" names True Grit
        phrase = " ".join(words)
        if (opening and words[0].lower() in QUESTION_OPENERS) or not any(c.isalpha() for c in phrase):
            continue  # "Which American actor": the wh-phrase; inside: "on How I Met Your Mother"
        out.append(phrase)
        # "Barney on How I Met Your Mother": two names joined like "Miracle on 34th Street".
        out += [p for p in re.split(r"\s+(?:and|or|on)\s+", phrase) if p != phrase]
    return out


def cut(text: str, name: str) -> bool:
    """Whether `text` no longer writes `name`, a name sure to be an anchor: two words or more
    once a leading figure goes ("39th Vice President of the United States" is a
    description; "English", "Catholic" may be nationalities, never required chain ends)."""
    words = name.split()
    while words and any(c.isdigit() for c in words[0]):
        words.pop(0)
    return len(words) >= 2 and not contains(text, " ".join(words))


def removal_noise(question: str, answer: str, before: str, after: str,
                  subjects: list[str] | tuple[str, ...] = ()) -> str:
    """Why an "incomplete" label for `after` (`before` with sentences removed) may be wrong
    ("" when it is sound).

    A removal that leaves a name of the question unwritten cuts that anchor off for sure
    (`cut`). Otherwise the chain may survive legitimately when what remains still names
    the removed part's subject (`subjects`), or when every name of the question `before`
    writes is still written beside the answer: then no named anchor lost its support
    ("Which river system in Chilhowie, Virginia …" kept by "… the Holston River Valley near
    Chilhowie, Virginia").
    """
    asked = [n for n in question_names(question) if contains(before, n)]
    if any(cut(after, n) for n in asked):
        return ""
    if any(names_alone(after, name) for name in subjects):
        return "removed hop's subject still named"
    if asked and all(contains(after, n) for n in asked) and contains(after, answer):
        return "every question name still written beside the answer"
    return ""
