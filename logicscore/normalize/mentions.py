"""Mention normalization (SPEC §4.2): one comparable form per surface string.

Case is remembered while normalizing so that lowercase descriptor words ("the film
Inception") are told apart from capitalized parts of a name ("City of London").
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from ..lexicon.dates import MONTH_WORDS
from ..lexicon.kinds import DESCRIPTORS, LANDFORMS, ORG_SUFFIXES, POLITIES, TRAILING, WORK_TYPES
from ..lexicon.names import (ARTICLES, MENTION_HONORIFICS, PERSON_PARTICLES, PERSON_TITLES,
                             ROYAL_TITLES)
from ..lexicon.numbers import ORDINAL_WORDS
from ..lexicon.pronouns import PRONOUNS
from ..lexicon.text import fold

_ORDINAL_WORDS = {w: str(i) for i, w in enumerate(ORDINAL_WORDS[:11])}
_ROMAN = re.compile(r"^(?=[ivxlc]+$)c{0,3}(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")
# "&" is a word: "Thelma & Louise" is "Thelma and Louise".
_TOKEN = re.compile(r"\d+(?:st|nd|rd|th)\b|\d+(?:[.,]\d+)*|[^\W_]+|&", re.UNICODE)
_ORDINAL = re.compile(r"^(\d+)(?:st|nd|rd|th)$")
YEAR = re.compile(r"^(1\d{3}|20\d{2})s?$")
_MONTH_NAMES = frozenset(MONTH_WORDS)
DATE = re.compile(
    r"^(?:(?:in|on|c|circa|around|about)\s+)?(?:(?:\d{1,2}\s+)?(?:%s)(?:\s+\d{1,2})?(?:\s+\d{3,4})?"
    r"|\d{3,4}s?|\d{4}\s+\d{1,2}\s+\d{1,2}|\d{1,2}(?:st|nd|rd|th)?\s+century)(?:\s+(?:ad|bc|bce|ce))?$"
    % "|".join(MONTH_WORDS))
NUMBER = re.compile(
    r"^(?:about|around|over|under|nearly|approximately)?\s*\d+(?:[.,]\d+)*"
    r"(?:\s+(?:hundred|thousand|million|billion|trillion|percent|per cent|people|inhabitants|km|"
    r"kilometres|kilometers|miles|metres|meters|years|dollars|euros))*$")


@dataclass(frozen=True)
class Form:
    """A mention analysed once: normalized tokens, which were capitalized, display text."""

    key: str
    tokens: tuple[str, ...]
    caps: tuple[bool, ...]
    markers: frozenset[str]
    display: str
    person_hint: bool
    # A royal or noble title was stripped ("Prince Albert" → "Albert").
    titled: bool = False


def _mask(text: str) -> tuple[str, set[int]]:
    """Blank parentheticals, citation brackets and possessive 's, keeping offsets."""
    chars = list(text)
    for pattern in (r"\([^()]*\)", r"\[[^\[\]]*\]"):
        for m in re.finditer(pattern, text):
            chars[m.start():m.end()] = " " * (m.end() - m.start())
    # A parenthesis cut off by the sentence or the extractor runs to the end: "X (1935 – 2015".
    rest = "".join(chars)
    if "(" in rest and rest.index("(") > 0:
        at = rest.index("(")
        chars[at:] = " " * (len(chars) - at)
    possessive_ends: set[int] = set()
    for m in re.finditer(r"(?<=[^\W_])['’]s\b|(?<=s)['’](?=\s|$)", text):
        chars[m.start():m.end()] = " " * (m.end() - m.start())
        possessive_ends.add(m.start())
    return "".join(chars), possessive_ends


# Linking, the pronoun test and question matching analyse each mention text several times;
# a Form is immutable, so each text is analysed once (bounded, for long streams).
@functools.lru_cache(maxsize=1 << 16)
def analyze(text: str) -> Form:
    """Normalize `text`, remembering case so descriptors are told apart from names."""
    masked, possessive_ends = _mask(text)
    raw = [(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(masked)]
    if not raw:
        folded = fold(text).strip()
        return Form(folded, (folded,) if folded else (), (False,), frozenset(), text.strip(), False)
    all_lower = not any(c.isupper() for c in text)
    toks = ["and" if t == "&" else fold(t).replace(",", "") for t, _, _ in raw]
    caps = [t[0].isupper() for t, _, _ in raw]
    poss = [end in possessive_ends for _, _, end in raw]
    person_hint = any(t in PERSON_TITLES for t in toks[:-1])
    keep = list(range(len(raw)))
    titled = False

    def initial(i: int) -> bool:
        """A lone capital letter read as an initial ("A. J. Mintu", "A J Mintu"), not "a"."""
        tok, _, end = raw[i]
        if len(tok) != 1 or not tok.isupper():
            return False
        nxt = raw[i + 1][0] if i + 1 < len(raw) else ""
        return text[end:end + 1] == "." or (len(nxt) == 1 and nxt.isupper())

    def is_name(i: int) -> bool:
        if all_lower:
            return toks[i] not in DESCRIPTORS | MENTION_HONORIFICS | ARTICLES | {"of"}
        return caps[i] or toks[i][0].isdigit()

    changed = True
    while changed and len(keep) > 1:
        changed = False
        if toks[keep[0]] in ARTICLES and not initial(keep[0]):
            keep.pop(0)
            changed = True
            continue
        # The last descriptor or honorific that is followed by a name wraps that name.
        for pos in range(len(keep) - 2, -1, -1):
            i = keep[pos]
            descriptor = toks[i] in DESCRIPTORS and (not caps[i] or all_lower)
            honorific = toks[i] in MENTION_HONORIFICS
            # A possessive owns what follows, it does not title it: "The King's Speech".
            if not (descriptor or honorific) or poss[i]:
                continue
            nxt = pos + 1
            while descriptor and nxt < len(keep) - 1 and toks[keep[nxt]] in ("of", "the"):
                nxt += 1
            if toks[keep[nxt]] not in ("of", "the") and is_name(keep[nxt]):
                titled = titled or toks[i] in ROYAL_TITLES
                del keep[:nxt]
                changed = True
                break
        if changed:
            continue
        last, before = keep[-1], keep[-2]
        if toks[last] in TRAILING and not caps[last] and is_name(before) and not poss[before]:
            keep.pop()
            changed = True
    tokens: list[str] = []
    tcaps: list[bool] = []
    markers: set[str] = set()
    run: list[str] = []
    for pos, i in enumerate(keep):
        tok, start, end = raw[i]
        norm = toks[i]
        dotted = text[end:end + 1] == "."
        if _ORDINAL.match(norm) or norm in _ORDINAL_WORDS:
            markers.add("o:" + (_ORDINAL.match(norm).group(1) if _ORDINAL.match(norm)
                                else _ORDINAL_WORDS[norm]))
        elif norm[0].isdigit():
            markers.add("n:" + norm)
        elif (pos > 0 and tok.isupper() and _ROMAN.match(norm) and not dotted and not run
              and (pos == len(keep) - 1 or toks[keep[pos + 1]] in PERSON_PARTICLES | {"of"}
                   or text[end:end + 1] == ",")):  # "Gerhard VII, Duke of Jülich-Berg"
            markers.add("r:" + norm)
        elif pos > 0 and norm in ("jr", "sr") and caps[i]:
            markers.add("g:" + norm)  # "Fife Symington" is not "J. Fife Symington Jr."
        # Initials ("J. K.", "J.K.", "JK") collapse into one token so all spellings agree.
        if len(norm) == 1 and tok.isupper() and ("r:" + norm) not in markers:
            run.append(norm)
            person_hint = person_hint or dotted
            continue
        if run and tok == "s" and text[start - 1:start] == ".":
            run.append(norm)  # a plural abbreviation: "The V.I.P.s" is "The V.I.P.S"
            continue
        if run:
            tokens.append("".join(run))
            tcaps.append(True)
            run = []
        tokens.append(norm)
        tcaps.append(caps[i] or all_lower and is_name(i))
    if run:
        tokens.append("".join(run))
        tcaps.append(True)
    while len(tokens) > 1 and tokens[-1] in ORG_SUFFIXES and tcaps[-1]:
        tokens.pop()
        tcaps.pop()
        person_hint = False  # "F.C." has dots but names a club
    # "January 16, 1898" and "16 January 1898" are one date: day first.
    if (2 <= len(tokens) <= 3 and tokens[0] in _MONTH_NAMES and tokens[1].isdigit()
            and len(tokens[1]) <= 2 and all(t.isdigit() for t in tokens[2:])):
        tokens[0], tokens[1] = tokens[1], tokens[0]
        tcaps[0], tcaps[1] = tcaps[1], tcaps[0]
    display = text[raw[keep[0]][1]:raw[keep[-1]][2]].strip()
    return Form(" ".join(tokens), tuple(tokens), tuple(tcaps), frozenset(markers), display,
                 person_hint, titled)


def is_pronoun(text: str) -> bool:
    """A pronoun, unless written in capitals: "US" and "WHO" are names, "us" and "who" not."""
    letters = [c for c in text if c.isalpha()]
    return analyze(text).key in PRONOUNS and not (len(letters) >= 2 and all(c.isupper() for c in letters))


def loose_key(form: Form) -> str:
    """The key without a trailing work-type or landform word, whatever its case ("lego
    batman movie" → "lego batman", "Bansaan Island" → "bansaan"); for question and answer
    matching only."""
    if len(form.tokens) > 1 and form.tokens[-1] in WORK_TYPES | LANDFORMS:
        return " ".join(form.tokens[:-1])
    return form.key


def capitalized(text: str) -> str:
    """Every word capitalised: a question's "country Man" read as the title "Country Man"."""
    return re.sub(r"(?<![\w'’])(\w)", lambda m: m.group(1).upper(), text)


def normalize(text: str) -> str:
    """Normalize a mention for matching.

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
    """A name of two or more words ending the longer one ("Michael Eavis" in "Athelstan
    Joseph Michael Eavis"); a lone surname is never enough, and the extra words are names."""
    n = len(short.tokens)
    return (2 <= n < len(long.tokens) and long.tokens[-n:] == short.tokens
            and short.caps[0] and all(long.caps[:-n]))


def inner(short: Form, long: Form) -> bool:
    """Three or more words of a person's name inside the full one ("Juan Carlos Gumucio"
    in "Juan Carlos Gumucio Quiroga", "Pilar del Río" in "María del Pilar del Río Sánchez");
    the extra words are names or name particles."""
    n, m = len(short.tokens), len(long.tokens)
    if n < 3 or n >= m or not short.caps[0]:
        return False
    for start in range(m - n + 1):
        if long.tokens[start:start + n] == short.tokens:
            extra = [j for j in range(m) if not start <= j < start + n]
            return all(long.caps[j] or long.tokens[j] in PERSON_PARTICLES for j in extra)
    return False


def same_regnal(short: Form, long: Form) -> bool:
    """"Henry III" and "Henry III of England", "Niccolò III" and "Niccolò III d'Este": one
    regnal name with a territorial or family epithet."""
    n = len(short.tokens)
    return (2 <= n < len(long.tokens) and long.tokens[:n] == short.tokens
            and any(m.startswith("r:") for m in short.markers) and short.markers == long.markers
            and ("r:" + short.tokens[-1]) in short.markers
            and (long.tokens[n] == "of" or long.tokens[n] in PERSON_PARTICLES))


def _other_name(a: Form, b: Form) -> bool:
    """Names alike but for one word that is another name, not a misspelling of it: its first
    letter changed ("Munjong of Goryeo", "Sunjong of Goryeo": two kings) or a short word
    two letters apart ("Chiang Hsiao-wen", "Chiang Hsiao-wu": two brothers; "Jon" is "John")."""
    if len(a.tokens) != len(b.tokens) or len(a.tokens) < 2:
        return False
    differ = [(x, y) for x, y in zip(a.tokens, b.tokens) if x != y]
    if len(differ) != 1:
        return False
    x, y = differ[0]
    return x[1:] == y[1:] or max(len(x), len(y)) <= 4 and Levenshtein.distance(x, y) >= 2


def compare(a: Form, b: Form, threshold: float, persons: bool) -> tuple[int, float, str] | None:
    """How strongly two forms match: (level, score, reason), or None."""
    if not a.key or not b.key:
        return None
    if a.key == b.key:
        return (3, 100.0, "normalized")
    if a.markers and b.markers and a.markers != b.markers:
        return None  # "Henry I" vs "Henry II", "1st Earl" vs "3rd Earl"
    # A year may be an extra descriptor word ("the 2010 film Inception"); other numbers not.
    if all(m.startswith("n:") and YEAR.match(m[2:]) for m in a.markers ^ b.markers) and (
            contains(a, b) or contains(b, a)):
        return (2, 100.0, "containment")
    if persons and len(a.tokens) >= 2 and len(b.tokens) >= 2 and a.markers == b.markers:
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
