"""Entity mentions of a long answer, for the rules extractor: where they come from
(`SOURCES`); how each proposed span is narrowed is in `trims`."""

from __future__ import annotations

import functools
import re
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...lexicon.dates import MONTH_PATTERN, MONTH_WORDS
from ...lexicon.generic import is_generic
from ...lexicon.names import ARTICLES, is_title_words
from ...lexicon.numbers import MENTION_NUMBER_WORDS
from ...models import LITERAL_KINDS
from ...parsing.loader import doc_text, token_bounds
from ..text import coref
from ..text.question_forms import proper_runs
from .phrases import may_occur, occurrences, phrase_ids, word_ids
from .trims import trim

# Whole dates: NER often drops the day inside a "(1 March 1943 – 4 May 2012)" range.
# Both start with a digit or a month's capital: a lookahead on those skips other text fast.
_DATE = re.compile(r"(?=[\d%s])\b(?:\d{1,2}\s+%s,?\s+\d{3,4}|%s\s+\d{1,2},\s+\d{3,4})\b"
                   % ("".join(sorted({m[0].upper() for m in MONTH_WORDS})), MONTH_PATTERN, MONTH_PATTERN))
# A span of years written as one word, which NER often leaves untagged: "(1505–1572)".
_YEARS = re.compile(r"(?=\d)(?<![\w.,–-])\d{3,4}[–-]\d{2,4}(?![\w.,–-]*\d)")
_QUOTED = re.compile(r"\"([^\"]{2,120})\"|“([^”]{2,120})”")
# The stop of an abbreviation ending a quoted title: "F.A.M.E.", "Jr.", "St." (`_closing_stop`).
_OWN_STOP = re.compile(r"\.\w+\.$|\b[A-Z][a-z]?\.$")
KIND = {
    "PERSON": "person", "GPE": "place", "LOC": "place", "FAC": "place", "ORG": "org",
    "WORK_OF_ART": "work", "DATE": "date", "TIME": "date", "CARDINAL": "number",
    "QUANTITY": "number", "MONEY": "number", "PERCENT": "number",
}


@dataclass
class Arg:
    """A proposition argument: an entity mention, or a reference coref resolved."""

    text: str
    top: int  # token standing for the argument in the dependency tree
    start: int  # char offset in the cleaned text
    kind: str = "other"
    resolution: coref.Resolved | None = None
    end: int = 0


@dataclass(slots=True)  # not frozen: one per mention, and frozen fields cost 3x to set
class Placed:
    """A mention found in the parse: its token span [start, end), the source's priority
    (0: a question or answer string, 1: quotes and dates, 2: NER, 3: proper-noun runs), the
    argument it becomes and the span's root token (found once: the kinds and the
    coreference read it again)."""

    start: int
    end: int
    priority: int
    arg: Arg
    root: int


@dataclass(frozen=True, slots=True)
class Wanted:
    """What the record asks the mentions to keep whole: question-entity strings (`hints`),
    the short answer, and the tokenizer their phrase patterns are made with."""

    hints: list[str]
    answers: tuple[str, ...]
    make_doc: Any


@dataclass(frozen=True, slots=True)
class Parse:
    """A Doc read once for every source and trim: each `doc[i]`, `doc.text` or `doc.ents`
    builds new Python objects, so `find_mentions` makes its tokens, text and entities once."""

    doc: Any
    tokens: list[Any]
    text: str
    ents: tuple[Any, ...]
    starts: list[int]  # each token's first character
    ends: list[int]  # and the character after its last

    @classmethod
    def of(cls, doc: Any) -> Parse:
        starts, ends = token_bounds(doc)
        return cls(doc, list(doc), doc_text(doc), tuple(doc.ents), starts, ends)

    def span(self, start: int, end: int) -> tuple[int, int] | None:
        """The tokens wholly inside characters [start, end), as `doc.char_span(start, end,
        alignment_mode="contract")` finds them, or None when there are none. Most spans
        proposed start and end on token edges: two bisections find those, without a Span."""
        starts, ends = self.starts, self.ends
        s, e = bisect_left(starts, start), bisect_left(ends, end) + 1
        if s < e <= len(starts) and starts[s] == start and ends[e - 1] == end:
            return s, e
        span = self.doc.char_span(start, end, alignment_mode="contract")
        return (span.start, span.end) if span is not None and len(span) else None


@dataclass(slots=True)  # not frozen, as `Placed`: one per span proposed
class Found:
    """A span one source proposes, before overlaps are resolved: token span, the source's
    priority (as `Placed`) and the NER label it came with, if any."""

    start: int
    end: int
    priority: int
    label: str = ""


def question_hints(p: Parse, wanted: Wanted) -> list[Found]:
    """Question entities, kept whole ahead of NER; one inside a longer proper name is not
    that entity."""
    return [Found(s, e, 0) for s, e in _phrase_hits(p.doc, wanted.hints, wanted.make_doc, False)]


def short_answers(p: Parse, wanted: Wanted) -> list[Found]:
    """The short answer, kept whole and carved out of a longer name: the chain must end at it."""
    return [Found(s, e, 0)
            for s, e in _phrase_hits(p.doc, list(wanted.answers), wanted.make_doc, True)]


def quoted(p: Parse, wanted: Wanted) -> list[Found]:
    """A quoted title, and the name a quoted nickname goes by."""
    out: list[Found] = []
    for m in _QUOTED.finditer(p.text):
        g = 1 if m.group(1) else 2
        end = m.end(g) - _closing_stop(m.group(g))
        span = p.span(m.start(g), end)
        if span is not None:
            out.append(Found(*span, 1))
            nick = _nickname_name(p.tokens, *span)
            if nick:
                out.append(Found(span[0], nick, 1, "PERSON"))
    return out


def _closing_stop(title: str) -> int:
    """1 when the quoted text ends with the sentence's comma or full stop, written inside the
    quotes ("… is \"Moonfall.\""), 0 for an abbreviation's own stop ("F.A.M.E.", "Jr.")."""
    if title.endswith(",") or (title.endswith(".") and not _OWN_STOP.search(title)):
        return 1
    return 0


def whole_dates(p: Parse, wanted: Wanted) -> list[Found]:
    """Full dates and year ranges, which NER cuts or leaves untagged."""
    out: list[Found] = []
    for m in (*_DATE.finditer(p.text), *_YEARS.finditer(p.text)):
        span = p.span(m.start(), m.end())
        if span is not None:
            out.append(Found(*span, 1, "DATE"))
    return out


def named_entities(p: Parse, wanted: Wanted) -> list[Found]:
    """NER spans, split at verbs; no nationalities, languages or ordinals, and a date or
    quantity only when it holds a digit."""
    out: list[Found] = []
    for ent in p.ents:
        label, tokens = ent.label_, p.tokens[ent.start:ent.end]
        keep = label not in ("ORDINAL", "NORP", "LANGUAGE") and (
            label not in ("DATE", "TIME", "CARDINAL", "QUANTITY", "MONEY", "PERCENT")
            or any(t.like_num and any(ch.isdigit() for ch in t.text) for t in tokens))
        if keep:
            out.extend(Found(s, e, 2, label) for s, e in _split_at_verbs(tokens, ent.start))
    return out


def proper_noun_runs(p: Parse, wanted: Wanted) -> list[Found]:
    """Runs of proper nouns NER missed."""
    out: list[Found] = []
    for start, end, _ in proper_runs(p.tokens):  # it reads the tokens in order, nothing else
        span = p.span(start, end)
        if span is not None:
            out.append(Found(*span, 3))
    return out


# Where mentions come from; on overlap the stronger priority, then the longer span, wins.
SOURCES: tuple[Callable[[Parse, Wanted], list[Found]], ...] = (
    question_hints, short_answers, quoted, whole_dates, named_entities, proper_noun_runs)


def find_mentions(doc: Any, hints: list[str], make_doc: Any,
                  answers: tuple[str, ...] = ()) -> list[Placed]:
    """Entity mentions placed on the parse, overlaps resolved, in token order.

    `hints` are question-entity strings and `answers` the short answer: both are kept whole
    ahead of NER, which cuts a full date to its month and year or swallows a place into
    the title of its governor (see `SOURCES`); each span is then trimmed by `trims.TRIMS`.
    """
    p = Parse.of(doc)
    wanted = Wanted(hints, answers, make_doc)
    found = [f for source in SOURCES for f in source(p, wanted)]
    ents = [(e.start, e.end, e.label_) for e in p.ents]
    labels = {(s, e): label for s, e, label in ents}
    taken = [False] * len(doc)
    out: list[Placed] = []
    for f in sorted(found, key=lambda f: (f.priority > 0, f.start - f.end, f.priority, f.start)):
        if all(taken[f.start:f.end]):
            continue  # trimming only narrows a span: it would be taken (or empty) still
        s, e = trim(p.tokens, f.start, f.end, f.priority)
        if s >= e or any(taken[s:e]):
            continue
        for i in range(s, e):
            taken[i] = True
        label = f.label or labels.get((s, e)) or _overlapping_label(ents, s, e)
        out.append(_placed(p, s, e, f.priority, KIND.get(label, "other")))
    out += _written_again(p, out, taken)
    return sorted(out, key=lambda m: m.start)


def _placed(p: Parse, s: int, e: int, priority: int, kind: str) -> Placed:
    """The mention of the tokens [s, e): a span's text is the doc's text between its ends,
    and the argument stands in the tree at the span's root."""
    start, end = p.starts[s], p.ends[e - 1]
    root = s if e - s == 1 else p.doc[s:e].root.i  # one token is its span's root
    return Placed(s, e, priority, Arg(p.text[start:end], root, start, kind, end=end), root)


def _written_again(p: Parse, found: list[Placed], taken: list[bool]) -> list[Placed]:
    """A capitalised name of two words or more, written again where no source found it
    ("… album, Speak Now. Speak Now was released …"), is the same mention again."""
    out: list[Placed] = []
    names = {m.arg.text: m for m in found if m.end - m.start >= 2
             and p.tokens[m.start].is_title and m.arg.kind not in LITERAL_KINDS}
    if not names:
        return out
    # A span's text starts with its first word's: only tokens starting with a name's first
    # character are tried, in text order (a token is never empty).
    firsts = {text[0] for text in names}
    at: dict[str, list[int]] = {}
    for i, start in enumerate(p.starts):
        first = p.text[start]
        if first in firsts:
            at.setdefault(first, []).append(i)
    last = len(p.starts)
    for text, m in names.items():
        n = m.end - m.start
        for i in at.get(text[0], ()):
            if i > last - n:
                break
            if (not any(taken[i:i + n])
                    and p.text[p.starts[i]:p.ends[i + n - 1]] == text):
                taken[i:i + n] = [True] * n
                out.append(_placed(p, i, i + n, m.priority, m.arg.kind))
    return out


def _split_at_verbs(tokens: list[Any], start: int) -> list[tuple[int, int]]:
    """NER spans running over a lowercase verb are two names and a clause ("Gildodor
    featured Saren Selett", "Lutathas is Kesard"): keep the pieces around the verbs.
    `tokens` are the span's, the first at index `start`."""
    pieces: list[tuple[int, int]] = []
    end = start + len(tokens)
    for tok in tokens:
        if tok.is_lower and tok.pos_ in ("VERB", "AUX"):
            if tok.i > start:
                pieces.append((start, tok.i))
            start = tok.i + 1
    if start < end:
        pieces.append((start, end))
    return pieces


# Entity types that are no name: an answer inside one ("1970s" in "the 1970s") is still it.
_NOT_NAMES = frozenset({"", "NORP", "LANGUAGE", "DATE", "TIME", "CARDINAL", "ORDINAL",
                        "QUANTITY", "MONEY", "PERCENT"})


_OPEN_ABBREVIATION = re.compile(r"(?:^|\s)(?:[A-Za-z]\.)+[A-Za-z]$")


_DISAMBIGUATED = re.compile(r"\s*\([^)]*\)\s*$")


@functools.lru_cache(maxsize=4096)
def _variants(phrase: str) -> frozenset[str]:
    """The ways a question entity or answer string may be written in the answer (each
    string's own: `_phrase_hits` takes the union of its phrases')."""
    from spacy.lang.en.stop_words import STOP_WORDS as _STOP_WORDS

    variants = {phrase.strip()}
    # Each rewriting below needs one of these in the string; most strings hold none.
    if "(" in phrase or "&" in phrase or " and " in phrase or "." in phrase:
        # "Inception (film)" is written "Inception" in most answers.
        variants.add(_DISAMBIGUATED.sub("", phrase).strip())
        # "Thelma and Louise" is also written "Thelma & Louise".
        variants |= {v.replace(" and ", " & ") for v in variants} | {
            v.replace(" & ", " and ") for v in variants}
        # A question drops an abbreviation's last stop before its own words ("in
        # Washington, D.C that …"); the answer writes it.
        variants |= {v + "." for v in variants if _OPEN_ABBREVIATION.search(v)}
    # A short answer such as "a" or "it" would match every article or pronoun (the stop list
    # is asked directly: what the vocab has met depends on earlier texts); a number word
    # ("five") or a title of three capitalised words or more ("When Can I Go") is kept.
    return frozenset(v for v in variants if any(ch.isalnum() for ch in v) and (is_title_words(v) or not all(
        w in _STOP_WORDS and w not in MENTION_NUMBER_WORDS for w in v.lower().split())))


def _generic_variants(phrase: str) -> frozenset[str]:
    """The variants of `phrase` that constrain but name no one thing (`is_generic`), folded
    (both are remembered already; this is asked only inside a same-type name)."""
    return frozenset(v.lower() for v in _variants(phrase) if is_generic(v))


def _phrase_hits(doc: Any, phrases: list[str], make_doc: Any,
                 carve: bool) -> list[tuple[int, int]]:
    """Token spans where `phrases` occur: case-insensitive, except for short or all-capital
    ones ("US" must not match the pronoun "us")."""
    variants: set[str] = set().union(*(_variants(h) for h in phrases))
    if not variants:
        return []
    # Only the variants written somewhere in the text, case aside, are tokenized.
    variants = {v for v in variants if may_occur(doc, v)}
    exact = sorted(v for v in variants if len(v) <= 3 or v.isupper())
    loose = sorted(v for v in variants if v not in exact)
    hits: list[tuple[int, int]] = []
    for column, group in ((0, exact), (1, loose)):
        if group:
            words = word_ids(doc, column)
            hits += occurrences(words, [phrase_ids(make_doc, v)[column] for v in group])
    generic: set[str] | None = None  # the generic variants, read only to carve
    out = []
    for s, e in sorted(set(hits)):
        if carve:
            # A nationality answer inside a name NER reads as one organisation or place is
            # not that answer (an airline named for its country); before a plain noun it is.
            # The generic variants are found only for a hit inside such a name.
            ent = doc[s].ent_type_
            if ent not in _NOT_NAMES and (
                    (doc[max(s - 1, 0)].ent_type_ == ent and s > 0)
                    or (e < len(doc) and doc[e].ent_type_ == ent and doc[e].ent_iob_ == "I")):
                if generic is None:
                    generic = set().union(*(_generic_variants(h) for h in phrases))
                if doc[s:e].text.lower() in generic:
                    continue
        elif ((s > 0 and not doc[s].is_sent_start and not doc[s - 1].text.endswith(".")
               and _name_part(doc, s - 1))
              or (e < len(doc) and not doc[e].is_sent_start and _name_part(doc, e))):
            # A question entity inside a longer name is not that entity ("Mach"); a name
            # never runs on across a sentence's end, which an abbreviation's stop may be
            # and the parser may miss ("… in Washington, D.C. Providence Hospital is …").
            continue
        out.append((s, e))
    return out


def _nickname_name(doc: Any, start: int, close: int) -> int:  # doc: the Doc or its token list
    """End token of the name a quoted nickname (tokens [start, close)) goes by, or 0: a
    person written 'Given "Nick" Middle Last' is called by the nickname and the names after it."""
    if (close - start != 1 or not _name_part(doc, start) or not _name_part(doc, start - 2)
            or close >= len(doc) or not doc[close].is_quote):
        return 0
    end = close + 1
    while _name_part(doc, end):
        end += 1
    return end if end > close + 1 else 0


def _name_part(doc: Any, i: int) -> bool:
    """Whether token i is a capitalised word continuing a proper name."""
    if i < 0 or i >= len(doc):
        return False
    tok = doc[i]
    return tok.is_title and tok.pos_ == "PROPN" and tok.lower_ not in ARTICLES


def _overlapping_label(ents: list[tuple[int, int, str]], s: int, e: int) -> str:
    best = ""
    width = 0
    for start, end, label in ents:
        overlap = min(e, end) - max(s, start)
        if overlap > width:
            best, width = label, overlap
    return best
