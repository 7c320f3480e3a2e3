"""The rules that read a question on its own (SPEC §4.3): where candidate names come from
and which of them are kept."""

from __future__ import annotations

import re
from typing import Any

from ..lexicon.dates import CALENDAR_WORDS
from ..lexicon.function_words import CONNECTORS, TITLE_CONNECTORS, WH_WORDS
from ..lexicon.kinds import WORK_NOUNS
from ..lexicon.names import EPITHET, PARENTHESIS
from .forms import is_proper, longest_first, proper_runs, token_end

_COMPARE = re.compile(r",\s*(?P<a>[^,]+?)\s+or\s+(?P<b>[^?]+?)[\s?.]*$")
_NAME_START = re.compile(r"^[\"“‘'(]?[A-Z0-9]")
_QUOTED = re.compile(r"\"([^\"]{2,120})\"|“([^”]{2,120})”|‘([^’]{2,120})’")
_SKIP_LABELS = frozenset({"ORDINAL"})
GENERIC_LABELS = frozenset({"NORP", "LANGUAGE"})


def wh_phrases(doc: Any) -> list[tuple[int, int]]:
    """Character spans of "what/which … noun" phrases."""
    return [(t.idx, token_end(t.head)) for t in doc
            if t.lower_ in ("what", "which") and t.dep_ == "det" and t.head.i > t.i]


def candidates(doc: Any) -> list[tuple[int, int, str]]:
    """Character spans with a label, overlaps resolved longest-first, in text order."""
    text = doc.text
    found: list[tuple[int, int, str]] = []
    for m in _QUOTED.finditer(text):
        g = next(i for i in (1, 2, 3) if m.group(i))
        found.append((m.start(g), m.end(g), "QUOTE"))
    for ent in doc.ents:
        if ent.label_ in _SKIP_LABELS:
            continue
        label = ent.label_
        # Band names ending in a digit get tagged DATE/CARDINAL ("Maroon 5").
        if label in ("DATE", "CARDINAL") and ent[0].is_title and ent[0].lower_ not in CALENDAR_WORDS:
            label = "RELABELLED"
        found.extend(_split_or(ent, label))
    found.extend(proper_runs(doc))
    found.extend(_title_runs(doc))
    found.extend(_work_titles(doc))
    found = [s for s in (_trim(doc, s) for s in found) if s is not None]
    found = [_numbered(text, s) for s in found]
    # Lowercase words alone ("year", "god", "third season") name no specific thing.
    found = [s for s in found if s[2] == "QUOTE" or any(
        ch.isupper() or ch.isdigit() for ch in text[s[0]:s[1]])]
    # "Bill Patterson (Racing Driver)": the parenthesis says which one; it is not an entity.
    found = [s for s in found if not _disambiguator(text, s)]
    epithets = [m.span() for m in EPITHET.finditer(text)]
    found = [s for s in found if not any(s[0] < e and b < s[1] for b, e in epithets)]
    # "…, X or Y?" names two whole things, even when they contain lowercase or commas.
    compared = [s for s in (_trim(doc, s) for s in _comparison(text)) if s is not None]
    return longest_first(found, compared)


def _disambiguator(text: str, span: tuple[int, int, str]) -> bool:
    return any(m.start(1) <= span[0] and span[1] <= m.end(1) for m in PARENTHESIS.finditer(text))


# A model or series number continues the name before it ("BAe 146", "Super Bowl 50"); a
# year does not ("Wimbledon 2010" is the 2010 edition of Wimbledon).
_MODEL_NUMBER = re.compile(r" (?!1\d{3}\b|20\d{2}\b)\d{1,4}\b(?![.,:]?\d|%| ?-)")


def _numbered(text: str, span: tuple[int, int, str]) -> tuple[int, int, str]:
    start, end, label = span
    m = _MODEL_NUMBER.match(text, end)
    if label == "QUOTE" or not m or not text[start:end][-1:].isalpha():
        return span
    return (start, m.end(), label)


def _title_runs(doc: Any) -> list[tuple[int, int, str]]:
    """Two or more capitalised words mid-sentence, none of them a proper noun to the
    tagger, still name something: "the Oh Yeah performer", "sang Let It Be"."""
    def capital(tok: Any) -> bool:
        return tok.is_title and tok.i != tok.sent.start and tok.text != "I" \
            and tok.lower_ not in WH_WORDS

    out: list[tuple[int, int, str]] = []
    run: list[Any] = []
    for tok in [*doc, None]:
        if tok is not None and capital(tok):
            run.append(tok)
            continue
        if len(run) >= 2 and not any(is_proper(t) for t in run):
            out.append((run[0].idx, token_end(run[-1]), "PROPN"))
        run = []
    return out


def _work_titles(doc: Any) -> list[tuple[int, int, str]]:
    """ "film Everything I Like", "song In Heaven": after a work noun, a capitalised run is a
    title even when the tagger calls its words pronouns or prepositions."""
    out: list[tuple[int, int, str]] = []
    toks = list(doc)
    for i, tok in enumerate(toks[:-1]):
        if tok.lower_ not in WORK_NOUNS or not (toks[i + 1].is_title or toks[i + 1].like_num):
            continue
        j = i + 1
        while j < len(toks) and (toks[j].is_title or toks[j].like_num or toks[j].is_upper
                                 or toks[j].lower_ in TITLE_CONNECTORS or toks[j].text in ("'", "’", "'s", "’s")):
            j += 1
        while j > i + 1 and (toks[j - 1].lower_ in TITLE_CONNECTORS or toks[j - 1].is_punct):
            j -= 1
        if j > i + 1:
            out.append((toks[i + 1].idx, token_end(toks[j - 1]), "TITLE"))
    return out


def _comparison(text: str) -> list[tuple[int, int, str]]:
    m = _COMPARE.search(text)
    if not m or not all(_NAME_START.match(m.group(g)) for g in ("a", "b")):
        return []
    return [(m.start("a"), m.end("a"), "COMPARE"), (m.start("b"), m.end("b"), "COMPARE")]


def _split_or(span: Any, label: str) -> list[tuple[int, int, str]]:
    """'X or Y' inside one span names two things (comparison questions)."""
    parts: list[tuple[int, int, str]] = []
    start = span.start
    for tok in span:
        if tok.lower_ == "or":
            if tok.i > start:
                parts.append((span.doc[start].idx, token_end(span.doc[tok.i - 1]), label))
            start = tok.i + 1
    if start < span.end:
        parts.append((span.doc[start].idx, token_end(span.doc[span.end - 1]), label))
    return parts


def _trim(doc: Any, span: tuple[int, int, str]) -> tuple[int, int, str] | None:
    """Drop a leading wh-word or article and a trailing possessive from a span."""
    start, end, label = span
    text = doc.text[start:end]
    m = re.match(r"^(?:(?:which|what|whose|the|a|an)\s+)+", text, re.I)
    if m:
        start += m.end()
    m = re.search(r"(?:'s|’s|')$", doc.text[start:end])
    if m:
        end -= len(m.group(0))
    if label != "QUOTE" and re.search(r"[A-Z0-9]", doc.text[start:end]):
        # Lowercase words at either end describe the name: "song Cry", "Lego Batman movie",
        # "Beyonce's first".
        m = re.match(r"^(?:[a-z][\w-]*\s+)+", doc.text[start:end])
        if m:
            start += m.end()
        m = re.search(r"(?:(?:'s|’s)?\s+[a-z][\w-]*)+$", doc.text[start:end])
        if m and not doc.text[start:end].endswith(tuple(f" {w}" for w in CONNECTORS)):
            end -= len(m.group(0))
    return (start, end, label) if end > start else None


def clean(name: str) -> str:
    if name.count("(") > name.count(")"):
        name = name[:name.rindex("(")]  # "Euphoria (Usher Song" cut by the tokenizer
    return name.strip().strip(",;:?!").strip()
