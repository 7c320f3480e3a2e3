"""Mention matching (docs/architecture.md): how two forms of `forms.analyze` compare."""

from __future__ import annotations

import re

from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from ...lexicon.dates import MONTH_WORDS
from ...lexicon.kinds import LANDFORMS, POLITIES, WORK_TYPES
from ...lexicon.names import PERSON_PARTICLES
from ...lexicon.pronouns import PRONOUNS
from .forms import Form, analyze

YEAR = re.compile(r"^(1\d{3}|20\d{2})s?$")
DATE = re.compile(
    r"^(?:(?:in|on|c|circa|around|about)\s+)?(?:(?:\d{1,2}\s+)?(?:%s)(?:\s+\d{1,2})?(?:\s+\d{3,4})?"
    r"|\d{3,4}s?|\d{4}\s+\d{1,2}\s+\d{1,2}|\d{1,2}(?:st|nd|rd|th)?\s+century)(?:\s+(?:ad|bc|bce|ce))?$"
    % "|".join(MONTH_WORDS))
NUMBER = re.compile(
    r"^(?:about|around|over|under|nearly|approximately)?\s*\d+(?:[.,]\d+)*"
    r"(?:\s+(?:hundred|thousand|million|billion|trillion|percent|per cent|people|inhabitants|km|"
    r"kilometres|kilometers|miles|metres|meters|years|dollars|euros))*$")


def is_pronoun(text: str) -> bool:
    """A pronoun, unless written in capitals: "US" and "WHO" are names, "us" and "who" not."""
    if analyze(text).key not in PRONOUNS:
        return False
    letters = [c for c in text if c.isalpha()]
    return not (len(letters) >= 2 and all(c.isupper() for c in letters))


def loose_key(form: Form) -> str:
    """The key without a trailing work-type or landform word, whatever its case ("lego
    batman movie" → "lego batman", "Bansaan Island" → "bansaan"); for question and answer
    matching only."""
    if len(form.tokens) > 1 and form.tokens[-1] in WORK_TYPES | LANDFORMS:
        return " ".join(form.tokens[:-1])
    return form.key


_WORD_START = re.compile(r"(?<![\w'’])(\w)")


def capitalized(text: str) -> str:
    """Every word capitalised: a question's "country Man" read as the title "Country Man"."""
    return _WORD_START.sub(lambda m: m.group(1).upper(), text)


def normalize(text: str) -> str:
    """Normalize a mention for matching: the key of its `analyze` form.

    Not `lexicon.text.key`: the form reads the words (drops articles, descriptors, legal
    forms; joins initials; keeps "1.5" one word) and folds each with `lexicon.text.fold`.

    Args:
        text: a surface form ("the film Inception", "J. K. Rowling's").
    Returns:
        accent-free, casefolded, punctuation-folded key ("inception", "jk rowling").
    """
    return analyze(text).key


def contains(short: Form, long: Form) -> bool:
    """Word-boundary containment where every extra word is a lowercase descriptor or a year."""
    n, m = len(short.tokens), len(long.tokens)
    if n == 0 or n >= m:
        return False
    for start in range(m - n + 1):
        if long.tokens[start:start + n] != short.tokens:
            continue
        extras = [j for j in range(m) if not start <= j < start + n]
        if all((not long.caps[j] and not long.tokens[j][0].isdigit()) or YEAR.match(long.tokens[j])
               for j in extras):
            return True
    return False


def tail(short: Form, long: Form) -> bool:
    """A name of two or more words ending the longer one (a person's usual name inside the
    full one); a lone surname is never enough, and the extra words are names."""
    n = len(short.tokens)
    return (2 <= n < len(long.tokens) and long.tokens[-n:] == short.tokens
            and short.caps[0] and all(long.caps[:-n]))


def inner(short: Form, long: Form) -> bool:
    """Three or more words of a person's name inside the full one (names that add a second
    surname or a particle-joined given name); the extra words are names or particles."""
    n, m = len(short.tokens), len(long.tokens)
    if n < 3 or n >= m or not short.caps[0]:
        return False
    for start in range(m - n + 1):
        if long.tokens[start:start + n] == short.tokens:
            extra = [j for j in range(m) if not start <= j < start + n]
            return all(long.caps[j] or long.tokens[j] in PERSON_PARTICLES for j in extra)
    return False


def same_regnal(short: Form, long: Form) -> bool:
    """A regnal name and the same name with a territorial or family epithet ("of" or a
    particle after the regnal number): one ruler."""
    n = len(short.tokens)
    return (2 <= n < len(long.tokens) and long.tokens[:n] == short.tokens
            and any(m.startswith("r:") for m in short.markers) and short.markers == long.markers
            and ("r:" + short.tokens[-1]) in short.markers
            and (long.tokens[n] == "of" or long.tokens[n] in PERSON_PARTICLES))


def _other_name(a: Form, b: Form) -> bool:
    """Names alike but for one word that is another name, not a misspelling of it: its first
    letter changed (two rulers of one house) or a short word two letters apart (siblings'
    names; one letter apart is a spelling)."""
    if len(a.tokens) != len(b.tokens) or len(a.tokens) < 2:
        return False
    differ = [(x, y) for x, y in zip(a.tokens, b.tokens) if x != y]
    if len(differ) != 1:
        return False
    x, y = differ[0]
    return x[1:] == y[1:] or (max(len(x), len(y)) <= 4 and Levenshtein.distance(x, y) >= 2)


def reads_persons(a: Form, b: Form) -> bool:
    """Whether `compare` reads its `persons` flag for these two forms: two names of two or
    more words with the same markers (the person rules: first and last name, tail, inner)."""
    return len(a.tokens) >= 2 and len(b.tokens) >= 2 and a.markers == b.markers


def compare(a: Form, b: Form, threshold: float, persons: bool) -> tuple[int, float, str] | None:
    """How strongly two forms match: (level, score, reason), or None."""
    if not a.key or not b.key:
        return None
    if a.key == b.key:
        return (3, 100.0, "normalized")
    if a.markers and b.markers and a.markers != b.markers:
        return None  # another regnal number, ordinal or number: another one
    # A year may be an extra descriptor word ("the 2010 film Inception"); other numbers not.
    if all(m.startswith("n:") and YEAR.match(m[2:]) for m in a.markers ^ b.markers) and (
            contains(a, b) or contains(b, a)):
        return (2, 100.0, "containment")
    if persons and reads_persons(a, b):
        if a.tokens[0] == b.tokens[0] and a.tokens[-1] == b.tokens[-1]:
            return (2, 100.0, "same first and last name")
        if tail(a, b) or tail(b, a):
            return (2, 99.0, "end of the full name")
        if inner(a, b) or inner(b, a):
            return (2, 98.0, "part of the full name")
    short, long = (a, b) if len(a.tokens) <= len(b.tokens) else (b, a)
    if (len(short.tokens) == 1 and len(long.tokens) == 2 and not a.markers and not b.markers
            and long.tokens[0] == short.tokens[0] and long.tokens[1] in POLITIES and short.caps[0]):
        return (1, 100.0, "adjective of the polity")
    if same_regnal(a, b) or same_regnal(b, a):
        return (2, 100.0, "regnal name with epithet")
    if a.markers != b.markers or min(len(a.key), len(b.key)) < 4:
        return None
    if _other_name(a, b):
        return None
    ratio = fuzz.ratio(a.key, b.key)
    if ratio >= min(100.0, threshold + 7):
        return (1, ratio, f"fuzzy {int(ratio)}")
    sa, sb = set(a.tokens), set(b.tokens)
    if sa < sb or sb < sa:
        return None  # one adds whole words to the other: containment's job ("Paris Hilton")
    if abs(len(a.tokens) - len(b.tokens)) <= 1 and ratio >= threshold - 5:
        tsr = fuzz.token_set_ratio(a.key, b.key)
        if tsr >= threshold:
            return (1, tsr, f"fuzzy {int(tsr)}")
    return None


def same_answer(a: str, b: str, threshold: float) -> bool:
    """Lenient answer equality.

    Args:
        a: one answer string.
        b: the other.
        threshold: rapidfuzz ratio (0–100) at which two answers count as equal.
    Returns:
        True when normalized keys are equal, one is the other plus descriptors, or the
        fuzzy ratio reaches `threshold` with no conflicting numbers or ordinals.
    """
    fa, fb = analyze(a), analyze(b)
    if fa.key == fb.key:
        return fa.key != "" or a.strip().casefold() == b.strip().casefold()
    if fa.markers != fb.markers:
        return False
    return contains(fa, fb) or contains(fb, fa) or fuzz.ratio(fa.key, fb.key) >= threshold
