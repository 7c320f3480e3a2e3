"""Fixed text helpers for reading dataset records: the adapters' gold long answers and the
real-data cases (docs/measurements.md).

These are deliberately independent of `logicscore.pipeline.normalize`: the answers a benchmark
measures must not change when the pipeline under test changes. They read only the
lexicon's fixed text key and word lists.
"""

from __future__ import annotations

import re

from rapidfuzz import fuzz

from logicscore.lexicon.function_words import LEADING_PREPOSITIONS, PHRASE_JOINERS
from logicscore.lexicon.names import ARTICLES, CAPITALISED_ARTICLES, PHRASE_PARTICLES
from logicscore.lexicon.pronouns import STANDING_PRONOUNS
from logicscore.lexicon.sentences import ABBREVIATIONS
from logicscore.lexicon.stop_words import STEP_STOP_WORDS
from logicscore.lexicon.text import key, word_stem

_TRAILING_PAREN = re.compile(r"\s*\([^()]*\)\s*$")
# Function words a sub-answer may carry that its sentence does not ("for Best Actress").
_LEADING_FUNCTION = ARTICLES | LEADING_PREPOSITIONS
_ENDS_SENTENCE = re.compile(r"[.!?][\"'”’)\]]*$")
# Where a paragraph splits into sentences: end punctuation, space, a capital/digit/quote.
_SPLIT = re.compile(r"[.!?][\"'”’)]?(?=\s+[\"'“(]?[A-Z0-9])")
_INITIALS = re.compile(r"^(?:[a-z]\.)*[a-z]$")
_PRONOUN_RE = re.compile(r"\b(" + "|".join(sorted(STANDING_PRONOUNS)) + r")\b",
                         re.IGNORECASE)


def norm(text: str) -> str:
    """Accent-free, casefolded words joined by single spaces (punctuation dropped): the text
    key, with "&" read as punctuation as the cases were built."""
    return key(text.replace("&", " "))


def display_title(title: str) -> str:
    """A paragraph title as an answer would write it: "Usher (musician)" → "Usher"."""
    stripped = _TRAILING_PAREN.sub("", title).strip()
    return stripped or title.strip()


def contains(haystack: str, needle: str) -> bool:
    """Word-bounded containment of `needle` in `haystack`, both normalized."""
    n = norm(needle)
    return bool(n) and f" {n} " in f" {norm(haystack)} "


def contains_any(haystack: str, needles: list[str]) -> bool:
    """`contains` for several needles, normalizing the haystack once."""
    padded = f" {norm(haystack)} "
    return any(n and f" {n} " in padded for n in map(norm, needles))


def _strip_leading(words: list[str], stop: frozenset[str]) -> list[str]:
    while len(words) > 1 and words[0] in stop:
        words = words[1:]
    return words


def names_subject(sentence: str, title: str) -> bool:
    """Whether a sentence names its paragraph's subject (else it needs a "Title: " prefix).

    The title counts, or its head before a comma ("Van Hook Township, Mountrail County"), and
    so does a person-style run from the first word to the last with up to three words between
    ("Henri Anatole Coudreau" names "Henri Coudreau"). A surname alone does not: the previous
    hop's namesake would capture it.
    """
    tokens = f" {' '.join(norm(sentence).split())} "
    plain = display_title(title)
    for name in dict.fromkeys((plain, plain.split(",")[0])):
        words = _strip_leading(norm(name).split(), ARTICLES)
        if not words:
            return True
        # Inside a longer name it is another thing: "Cass Pennant" does not name "Cass".
        if f" {' '.join(words)} " in tokens and names_alone(sentence, " ".join(words)):
            return True
        if len(words) >= 2 and _first_last_run(tokens.split(), words):
            return True
    return False


_REGNAL = re.compile(r"^(?:[ivx]+|\d+(?:st|nd|rd|th)?)$")


def _first_last_run(tokens: list[str], words: list[str]) -> bool:
    """First word, up to three more, last word; never across a regnal or ordinal number
    ("Jean II d'Estrées" is not "Jean d'Estrées")."""
    first, last = words[0], words[-1]
    for i, tok in enumerate(tokens):
        if tok != first:
            continue
        window = tokens[i + 1:i + len(words) + 3]
        if last in window:
            inner = window[:window.index(last)]
            if inner and not any(_REGNAL.match(t) and t not in words for t in inner):
                return True
    return False


_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


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
            and words[i - 1].group()[:1].isupper() and words[i - 1].group() not in CAPITALISED_ARTICLES
        after = i + n < len(words) and text[words[i + n - 1].end():words[i + n].start()].isspace() \
            and words[i + n].group()[:1].isupper()
        if not before and not after:
            return True
    return False


def finish(sentence: str) -> str:
    """Trimmed, with a full stop when the source sentence lacks end punctuation."""
    text = " ".join(sentence.split())
    if text and not _ENDS_SENTENCE.search(text):
        text += "."
    return text


def as_answer_line(sentence: str, title: str | None) -> tuple[str, bool]:
    """The sentence as an answer would write it, and whether a "Title: " prefix was added."""
    text = finish(sentence)
    if title is None or names_subject(text, title):
        return text, False
    return f"{display_title(title)}: {text}", True


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


def carries(sentence: str, answer: str) -> bool:
    """Whether a sentence states an answer string (exact words, then leading words dropped)."""
    if contains(sentence, answer):
        return True
    words = _strip_leading(norm(answer).split(), _LEADING_FUNCTION)
    return bool(words) and f" {' '.join(words)} " in f" {norm(sentence)} "


def closeness(sentence: str, answer: str) -> float:
    """Fuzzy score of an answer string inside a sentence (for sentences without it verbatim)."""
    return fuzz.partial_ratio(norm(answer), norm(sentence))


def has_pronoun(sentence: str) -> bool:
    return bool(_PRONOUN_RE.search(sentence))


def similar_names(a: str, b: str) -> bool:
    """Loose name similarity, used only to name a failure cause (never to score)."""
    na, nb = norm(a), norm(b)
    if not na or not nb or na == nb:
        return bool(na) and na == nb
    return fuzz.token_set_ratio(na, nb) >= 80 or fuzz.ratio(na, nb) >= 85


def _tokens(text: str) -> list[str]:
    """Normalized words, a run of single letters joined ("J.A.R.V.I.S." → "jarvis")."""
    out: list[str] = []
    run: list[str] = []
    for word in norm(text).split() + [""]:
        if len(word) == 1 and word.isalpha():
            run.append(word)
            continue
        if len(run) > 1:
            out.append("".join(run))
        run = []
        if word:
            out.append(word)
    return out


def content_words(text: str) -> set[str]:
    """Stemmed words beyond stop words and single letters (a possessive's "s" included)."""
    return {word_stem(w) for w in _tokens(text) if len(w) > 1 and w not in STEP_STOP_WORDS}


def names_entity(text: str, name: str) -> bool:
    """Whether `text` names `name`: as a paragraph subject would be named, or every content
    word of the name present (initials written either way: "A.P.J." / "APJ")."""
    if names_subject(text, name):
        return True
    words = content_words(name)
    return bool(words) and words <= content_words(text)


_JOINERS = ARTICLES - {"an"} | PHRASE_PARTICLES | PHRASE_JOINERS


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
