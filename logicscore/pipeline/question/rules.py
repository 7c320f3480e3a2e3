"""The rules that read a question on its own (docs/metrics.md), as ordered, named tables.

A question's candidates come from `SOURCES`, in order; each goes through `STEPS`, in order
(a step may move a candidate's ends or drop it); `KEPT_SOURCES` name whole things that win
every overlap. Of the candidates left, one that any of `GENERIC_RULES` holds for constrains
the answer but is no anchor. Each rule is a row of `tests/test_question_rules.py`.
"""

from __future__ import annotations

import contextlib
import re
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...lexicon.dates import CALENDAR_WORDS
from ...lexicon.function_words import CONNECTORS, TITLE_CONNECTORS, WH_WORDS
from ...lexicon.generic import DEMONYMS, is_generic
from ...lexicon.kinds import PERSON_NOUNS, WORK_NOUNS
from ...lexicon.names import ARTICLES, EPITHET, PARENTHESIS, PERSON_TITLES, ROYAL_TITLES
from ...parsing.loader import doc_text, sentence_start
from ..text.question_forms import CAPITAL_OR_DIGIT, NAME_START, Candidate, is_proper, proper_runs, token_end


@dataclass(frozen=True)
class Rule:
    """One named rule: a source (doc → candidates), a step (doc, candidate → candidate or
    None) or a generic test (doc, candidate, name → bool)."""

    name: str
    apply: Callable[..., Any]


_COMPARE = re.compile(r",\s*(?P<a>[^,]+?)\s+or\s+(?P<b>[^?]+?)[\s?.]*$")
_QUOTED = re.compile(r"\"([^\"]{2,120})\"|“([^”]{2,120})”|‘([^’]{2,120})’")
_LEADING = re.compile(r"^(?:(?:which|what|whose|the|a|an)\s+)+", re.I)
_POSSESSIVE = re.compile(r"(?:'s|’s|')$")
_ABBREVIATION = re.compile(r"^(?:[A-Z]\.){2,}$")
_LOWER_HEAD = re.compile(r"^(?:[a-z][\w-]*\s+)+")
_LOWER_TAIL = re.compile(r"(?:(?:'s|’s)?\s+[a-z][\w-]*)+$")
# A model or series number continues the name before it; a year is an edition, not a name.
_MODEL_NUMBER = re.compile(r" (?!1\d{3}\b|20\d{2}\b)\d{1,4}\b(?![.,:]?\d|%| ?-)")
# A name ending on a connector word ("… of") keeps its lowercase tail.
_CONNECTOR_ENDS = tuple(sorted(f" {w}" for w in CONNECTORS))
GENERIC_LABELS = frozenset({"NORP", "LANGUAGE"})
# A rank, office or role written alone ("Captain", "the Senator", "Actress and daughter of …")
# says what someone is, not who. A monarch's title alone also names bands and ships.
ROLE_WORDS = (PERSON_TITLES | PERSON_NOUNS) - ROYAL_TITLES


# Sources: where candidates come from.

def quoted(doc: Any) -> list[Candidate]:
    """A quoted span, whole, whatever its case."""
    return [Candidate(m.start(g), m.end(g), "QUOTE") for m in _QUOTED.finditer(doc_text(doc))
            for g in [next(i for i in (1, 2, 3) if m.group(i))]]


def entities(doc: Any) -> list[Candidate]:
    """The named entities, ordinals aside, "X or Y" (and "two-word name and two-word name")
    inside one split in two. A capitalised
    date or number that is no calendar word is a name ending in a digit."""
    found: list[Candidate] = []
    for ent in doc.ents:
        if ent.label_ == "ORDINAL":
            continue
        label = ent.label_
        if label in ("DATE", "CARDINAL") and ent[0].is_title and ent[0].lower_ not in CALENDAR_WORDS:
            label = "RELABELLED"
        found.extend(_split_or(ent, label))
    return found


def _split_or(span: Any, label: str) -> list[Candidate]:
    """`span` split at each "or", and at each "and" between names of two or more words the
    second of which opens with no article ("Tarn Hospital and Osk Hospital"; not "Moss and
    the Tide", nor "Brask and Moe", which may be one firm's name)."""
    low = doc_text(span.doc)[span.start_char:span.end_char].lower()
    if "or" not in low and " and " not in low:
        return [Candidate(span.start_char, span.end_char, label)]  # most: nothing to split on
    cuts = [tok for tok in span if tok.lower_ == "or" and tok.i > span.start]
    ands = [tok for tok in span if tok.lower_ == "and" and span.start < tok.i < span.end - 1]
    if ands and not cuts:
        bounds = [span.start, *[t.i for t in ands], span.end]
        sides = [span.doc[a + (a != span.start):b] for a, b in zip(bounds, bounds[1:])]
        if all(sum(not t.is_lower and not t.is_punct for t in p) >= 2 for p in sides) and not any(
                p[0].lower_ in ARTICLES for p in sides[1:]):
            cuts = ands
    parts: list[Candidate] = []
    start = span.start
    for tok in cuts:
        if tok.i > start:
            parts.append(Candidate(span.doc[start].idx, token_end(span.doc[tok.i - 1]), label))
        start = tok.i + 1
    if start < span.end:
        parts.append(Candidate(span.doc[start].idx, token_end(span.doc[span.end - 1]), label))
    return parts


def title_runs(doc: Any) -> list[Candidate]:
    """Two or more capitalised words mid-sentence, none of them a proper noun to the
    tagger, still name something (a song or a film)."""
    out: list[Candidate] = []
    run: list[Any] = []
    for tok in [*doc, None]:
        # Capitalised, mid-sentence (asked last: the dearest read), no "I" nor wh-word.
        if tok is not None and tok.is_title and tok.text != "I" and (
                tok.lower_ not in WH_WORDS and tok.i != sentence_start(tok)):
            run.append(tok)
            continue
        if len(run) >= 2 and not any(is_proper(t) for t in run):
            out.append(Candidate(run[0].idx, token_end(run[-1]), "PROPN"))
        run = []
    return out


def wh_names(doc: Any) -> list[Candidate]:
    """A capitalised wh-word right after a capitalised word mid-sentence, or after a first
    "The", is part of a name ("a song by The Who", "an episode of Doctor Who"): a wh-word
    that asks is written lowercase there."""
    out: list[Candidate] = []
    before = None  # the token before `tok`
    for tok in doc:
        if (tok.is_title and tok.lower_ in WH_WORDS and before is not None and before.is_title
                and (before.i != before.sent.start or before.lower_ == "the")):
            out.append(Candidate(before.idx, token_end(tok), "PROPN"))
        before = tok
    return out


def work_titles(doc: Any) -> list[Candidate]:
    """After a work noun ("film", "song"), a capitalised run is a title even when the
    tagger calls its words pronouns or prepositions."""
    out: list[Candidate] = []
    toks = list(doc)
    for i, tok in enumerate(toks[:-1]):
        # (The next token's flags first: cheaper to read than this one's lowercase form.)
        if not (toks[i + 1].is_title or toks[i + 1].like_num) or tok.lower_ not in WORK_NOUNS:
            continue
        j = i + 1
        while j < len(toks) and (toks[j].is_title or toks[j].like_num or toks[j].is_upper
                                 or toks[j].lower_ in TITLE_CONNECTORS or toks[j].text in ("'", "’", "'s", "’s")):
            j += 1
        while j > i + 1 and (toks[j - 1].lower_ in TITLE_CONNECTORS or toks[j - 1].is_punct):
            j -= 1
        if j > i + 1:
            out.append(Candidate(toks[i + 1].idx, token_end(toks[j - 1]), "TITLE"))
    return out


def conjoined_words(doc: Any) -> list[Candidate]:
    """A capitalised word mid-question joined by "and"/"or" to a capitalised name is a name
    too, whatever the tagger calls it ("Are Afterwards and The Long Hall from one country?")."""
    toks = list(doc)
    out: list[Candidate] = []
    for i, tok in enumerate(toks[:-2]):
        if not tok.is_title or tok.i == sentence_start(tok) or tok.lower_ in WH_WORDS or tok.text == "I":
            continue
        if i > 0 and (toks[i - 1].is_title and toks[i - 1].i != sentence_start(toks[i - 1])):
            continue  # the last word of a longer capitalised run: the other sources' job
        if toks[i + 1].lower_ not in ("and", "or"):
            continue
        j = i + 2
        if j < len(toks) - 1 and toks[j].lower_ in ARTICLES and toks[j].is_title:
            j += 1
        if toks[j].is_title:
            out.append(Candidate(tok.idx, token_end(tok), "CONJOINED"))
    return out


def comparison(doc: Any) -> list[Candidate]:
    """"…, X or Y?" names two whole things, even when they hold lowercase words or commas."""
    m = _COMPARE.search(doc_text(doc))
    if not m or not all(NAME_START.match(m.group(g)) for g in ("a", "b")):
        return []
    return [Candidate(m.start(g), m.end(g), "COMPARE") for g in ("a", "b")]


# Steps: each moves a candidate's ends or drops it.

def trim(doc: Any, cand: Candidate) -> Candidate | None:
    """Drop a leading wh-word or article and a trailing possessive; outside quotes, also
    the lowercase words at either end, which describe the name."""
    text, start, end = doc_text(doc), cand.start, cand.end
    m = _LEADING.match(text[start:end])
    if m and text[start + m.end():end].lower() not in WH_WORDS:  # "The Who" keeps its article
        start += m.end()
    m = _POSSESSIVE.search(text[start:end])
    if m:
        end -= len(m.group(0))
    if not cand.quoted and CAPITAL_OR_DIGIT.search(text, start, end):
        m = _LOWER_HEAD.match(text[start:end])
        if m:
            start += m.end()
        m = _LOWER_TAIL.search(text[start:end])
        if m and not text[start:end].endswith(_CONNECTOR_ENDS):
            end -= len(m.group(0))
    return cand.moved(start, end) if end > start else None


def model_number(doc: Any, cand: Candidate) -> Candidate:
    """A model or series number after a name is part of it; a year is not."""
    text = doc_text(doc)
    m = _MODEL_NUMBER.match(text, cand.end)
    if cand.quoted or not m or not text[cand.start:cand.end][-1:].isalpha():
        return cand
    return cand.moved(end=m.end())


def needs_capital(doc: Any, cand: Candidate) -> Candidate | None:
    """Lowercase words alone name no specific thing."""
    text = doc_text(doc)[cand.start:cand.end]
    if cand.quoted or any(map(str.isupper, text)) or any(map(str.isdigit, text)):
        return cand
    return None


def no_disambiguator(doc: Any, cand: Candidate) -> Candidate | None:
    """A parenthesis after a name says which one is meant; it names nothing itself."""
    inside = any(cand.within(a, b) for a, b in disambiguator_spans(doc_text(doc)))
    return None if inside else cand


def no_epithet(doc: Any, cand: Candidate) -> Candidate | None:
    """An epithet (", 2nd Earl of …") belongs to the name before it."""
    cut = any(cand.start < e and b < cand.end for b, e in epithet_spans(doc_text(doc)))
    return None if cut else cand


# A question's brackets and epithets, found once for all its candidates.

@lru_cache(maxsize=1024)
def disambiguator_spans(text: str) -> tuple[tuple[int, int], ...]:
    """The insides of `text`'s brackets after a name."""
    return tuple(m.span(1) for m in PARENTHESIS.finditer(text)) if "(" in text else ()


@lru_cache(maxsize=1024)
def epithet_spans(text: str) -> tuple[tuple[int, int], ...]:
    """The spans of `text`'s epithets (each opens on a comma)."""
    return tuple(m.span() for m in EPITHET.finditer(text)) if "," in text else ()


def no_bare_role(doc: Any, cand: Candidate) -> Candidate | None:
    """A rank, office or role word alone is no name, however it is capitalised."""
    text = doc_text(doc)[cand.start:cand.end].strip(" .")
    return None if not cand.quoted and text.lower() in ROLE_WORDS else cand


# Generic tests: a candidate any of them holds for is no anchor.

def people_or_language(doc: Any, cand: Candidate, name: str) -> bool:
    """A people or a language constrains the answer. After "The", the tagger reads a band
    as a people; a real people is a known word, which `generic_name` catches."""
    return cand.label in GENERIC_LABELS and doc_text(doc)[max(0, cand.start - 4):cand.start] != "The "


def generic_name(doc: Any, cand: Candidate, name: str) -> bool:
    """A nationality, a language, a year, a number, an ordinal (`is_generic`)."""
    return is_generic(name)


def described_person(doc: Any, cand: Candidate, name: str) -> bool:
    """A nationality and a role, capitalised ("the American Basketball Player who …"),
    describe a person the question does not name."""
    words = name.lower().split()
    return len(words) > 1 and words[0] in DEMONYMS and words[-1] in PERSON_NOUNS


def describing_adjectives(doc: Any, cand: Candidate, name: str) -> bool:
    """Capitalised adjectives before a lowercase noun ("Ancient Velmoran religion", "the
    Vice Presidential debate") describe a kind of thing; they name none."""
    toks = [t for t in doc if cand.start <= t.idx < cand.end]
    if cand.quoted or not toks or not all(t.pos_ == "ADJ" or t.lower_ in DEMONYMS for t in toks):
        return False
    last = toks[-1]
    return last.dep_ in ("amod", "compound") and last.head.i > last.i and last.head.is_lower and (
        last.head.pos_ == "NOUN")


def asked_for(doc: Any, cand: Candidate, name: str) -> bool:
    """A name inside "what/which … noun" describes what is asked for; it is no chain end."""
    return any(cand.within(a, b) for a, b in wh_phrases(doc))


_WH_PHRASES: weakref.WeakKeyDictionary[Any, tuple[tuple[int, int], ...]] = weakref.WeakKeyDictionary()


def wh_phrases(doc: Any) -> tuple[tuple[int, int], ...]:
    """Character spans of "what/which … noun" phrases: as parsed, and, where the parse
    misses one ("in which US city"), a wh-word, capitalised words and a lowercase noun.
    Read once per Doc: `asked_for` asks it of every candidate."""
    try:
        return _WH_PHRASES[doc]
    except (KeyError, TypeError):  # not read yet, or no weak reference to it
        pass
    spans = _wh_phrases(doc)
    with contextlib.suppress(TypeError):  # read once per Doc: the context manager is no cost here
        _WH_PHRASES[doc] = spans
    return spans


def _wh_phrases(doc: Any) -> tuple[tuple[int, int], ...]:
    toks = list(doc)
    asking = [i for i, t in enumerate(toks) if t.lower_ in ("what", "which")]  # read once for both
    spans = [(t.idx, token_end(t.head)) for t in map(toks.__getitem__, asking)
             if t.dep_ == "det" and t.head.i > t.i]
    for i in asking:
        tok = toks[i]
        # Mid-question, a capitalised "What" opens a title ("… of What We Say When …").
        if i > 0 and not tok.is_lower:
            continue
        j = i + 1
        while j < len(toks) and (toks[j].is_title or toks[j].is_upper) and (
                toks[j].is_alpha or _ABBREVIATION.match(toks[j].text)):
            j += 1
        if j > i + 1 and j < len(toks) and toks[j].is_lower and toks[j].pos_ == "NOUN":
            spans.append((tok.idx, token_end(toks[j])))
    return tuple(spans)


SOURCES: tuple[Rule, ...] = (
    Rule("quoted", quoted),
    Rule("entities", entities),
    Rule("proper_runs", proper_runs),
    Rule("title_runs", title_runs),
    Rule("wh_names", wh_names),
    Rule("work_titles", work_titles),
    Rule("conjoined_words", conjoined_words),
)
_TRIM = Rule("trim", trim)
STEPS: tuple[Rule, ...] = (
    _TRIM,
    Rule("model_number", model_number),
    Rule("needs_capital", needs_capital),
    Rule("no_disambiguator", no_disambiguator),
    Rule("no_epithet", no_epithet),
    Rule("no_bare_role", no_bare_role),
)
# Found first and trimmed only: they win every overlap.
KEPT_SOURCES: tuple[Rule, ...] = (Rule("comparison", comparison),)
KEPT_STEPS: tuple[Rule, ...] = (_TRIM,)
GENERIC_RULES: tuple[Rule, ...] = (
    Rule("people_or_language", people_or_language),
    Rule("generic_name", generic_name),
    Rule("described_person", described_person),
    Rule("describing_adjectives", describing_adjectives),
    Rule("asked_for", asked_for),
)


def clean(name: str) -> str:
    """`name` without end punctuation or an unclosed bracket the tokenizer cut off."""
    if name.count("(") > name.count(")"):
        name = name[:name.rindex("(")]
    return name.strip().strip(",;:?!").strip()
