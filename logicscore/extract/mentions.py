"""Entity mentions and citation markers of a long answer, for the rules extractor."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any

from ..lexicon.dates import MONTH_PATTERN
from ..lexicon.function_words import CONNECTORS
from ..lexicon.generic import GENERIC_WORDS, is_generic
from ..lexicon.kinds import DESCRIPTOR_NOUNS
from ..lexicon.names import ARTICLES, RELATIONAL
from ..lexicon.numbers import MENTION_NUMBER_WORDS
from ..normalize import coref
from ..question.forms import proper_runs

CITATION = re.compile(
    r"[ \t]*\[(?:(?P<ids>(?:doc\s*)?\d+(?:\s*[,;]\s*(?:doc\s*)?\d+)*)\]|doc\]\s*<(?P<s>s\d+)>)",
    re.I,
)
_NOISE = re.compile(
    CITATION.pattern
    # A markdown link keeps its text and loses the target: "[John Smith](https://…)".
    + r"|\[(?P<ltext>[^\[\]\n]{1,300})\]\((?P<url>[^()\s]{0,2000})\)"
    r"|(?P<ent>&(?:[A-Za-z][A-Za-z0-9]{1,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});)"
    r"|(?P<inv>[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff])"
    r"|(?P<brk>[\x0b\x0c\x85\u2028\u2029])"
    r"|(?P<tag><!--.*?-->|<(?P<blk>script|style)\b.*?</(?P=blk)\s*>|</?[A-Za-z][^<>]{0,200}>)"
    r"|\x1b\[[0-9;?]*[A-Za-z]|[\x00-\x08\x0e-\x1f\x7f]"
    r"|(?m:^[ \t]*(?:#{1,6}[ \t]+|(?:[-*_][ \t]*){3,}$))",
    re.I | re.S,
)
_BLOCK_TAG = re.compile(r"</?(?:p|div|br|li|ul|ol|h[1-6]|tr|td|th|table|blockquote|pre)\b", re.I)
# Whole dates: NER often drops the day inside a "(1 March 1943 – 4 May 2012)" range.
_DATE = re.compile(r"\b(?:\d{1,2}\s+%s,?\s+\d{3,4}|%s\s+\d{1,2},\s+\d{3,4})\b"
                   % (MONTH_PATTERN, MONTH_PATTERN))
# A span of years written as one word, which NER often leaves untagged: "(1505–1572)".
_YEARS = re.compile(r"(?<![\w.,–-])\d{3,4}[–-]\d{2,4}(?![\w.,–-]*\d)")
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


@dataclass(frozen=True, slots=True)
class Placed:
    """A mention found in the parse: its token span [start, end), the source's priority
    (0: a question or answer string, 1: quotes and dates, 2: NER, 3: proper-noun runs), and
    the argument it becomes."""

    start: int
    end: int
    priority: int
    arg: Arg


def strip_citations(text: str) -> tuple[str, list[int], list[tuple[int, list[str]]]]:
    """Remove citation markers and invisible noise; return the clean text, clean→original
    offsets, and the markers as (offset in the clean text, ids).

    Markers: `[Doc1]`, `[1]`, `[1, 2]`, `[doc]<s3>`. Noise a reader does not see (control
    and zero-width characters, bidi marks, soft hyphens, ANSI escapes, HTML tags, markdown
    heading and rule marks) is dropped or becomes a space, so it cannot split names or sentences.
    """
    parts: list[str] = []
    # offsets[i] is where clean character i sits in the original text (one past the end too).
    offsets: list[int] = []
    markers: list[tuple[int, list[str]]] = []
    pos = 0
    for m in _NOISE.finditer(text):
        parts.append(text[pos:m.start()])
        offsets.extend(range(pos, m.start()))
        if m.group("ltext"):
            parts.append(m.group("ltext"))
            offsets.extend(range(m.start("ltext"), m.end("ltext")))
        elif m.group("ids") or m.group("s"):
            ids = [m.group("s")] if m.group("s") else [
                i.strip() for i in re.split(r"[,;]", m.group("ids"))]
            markers.append((len(offsets), ids))
        else:
            gap = _gap(text, m)
            parts.append(gap)
            offsets.extend([m.start()] * len(gap))
        pos = m.end()
    parts.append(text[pos:])
    offsets.extend(range(pos, len(text) + 1))
    return "".join(parts), offsets, markers


def _gap(text: str, m: re.Match) -> str:
    """What replaces a piece of noise: nothing inside a word, else a space or line break."""
    if m.group("brk"):
        return "\n"
    if m.group("ent"):
        char = html.unescape(m.group("ent"))
        # A lone unknown entity stays as written; spacing entities become a plain space.
        return " " if char.isspace() else char
    if m.group("inv"):
        return ""
    joined = text[m.start() - 1:m.start()].isalnum() and text[m.end():m.end() + 1].isalnum()
    block = m.group("tag") and _BLOCK_TAG.match(m.group("tag"))
    return " " if joined or block else ""


def find_mentions(doc: Any, hints: list[str], make_doc: Any,
                  answers: tuple[str, ...] = ()) -> list[Placed]:
    """Entity mentions placed on the parse, overlaps resolved, in token order.

    `hints` are question-entity strings and `answers` the short answer: both are kept whole
    ahead of NER, which cuts "1 March 2012" to "March 2012" or swallows "São Paulo" into
    "Governor of São Paulo". A question hint inside a longer proper name ("Mach" in
    "Ernst Mach") is not that entity; the answer is carved out of one, since the chain
    must end at it ("Harvard" in "Harvard College").
    """
    found: list[tuple[int, int, int, str]] = []
    found += [(s, e, 0, "") for s, e in _phrase_hits(doc, hints, make_doc, carve=False)]
    found += [(s, e, 0, "") for s, e in _phrase_hits(doc, list(answers), make_doc, carve=True)]
    for m in re.finditer(r"\"([^\"]{2,120})\"|“([^”]{2,120})”", doc.text):
        g = 1 if m.group(1) else 2
        span = doc.char_span(m.start(g), m.end(g), alignment_mode="contract")
        if span is not None and len(span):
            found.append((span.start, span.end, 1, ""))
            nick = _nickname_name(doc, span)
            if nick:
                found.append((span.start, nick, 1, "PERSON"))
    for m in (*_DATE.finditer(doc.text), *_YEARS.finditer(doc.text)):
        span = doc.char_span(m.start(), m.end(), alignment_mode="contract")
        if span is not None and len(span):
            found.append((span.start, span.end, 1, "DATE"))
    for ent in doc.ents:
        keep = ent.label_ not in ("ORDINAL", "NORP", "LANGUAGE") and (
            ent.label_ not in ("DATE", "TIME", "CARDINAL", "QUANTITY", "MONEY", "PERCENT")
            or any(t.like_num and any(ch.isdigit() for ch in t.text) for t in ent))
        if keep:
            found.extend((s, e, 2, ent.label_) for s, e in _split_at_verbs(ent))
    for start, end, _ in proper_runs(doc):
        span = doc.char_span(start, end, alignment_mode="contract")
        if span is not None and len(span):
            found.append((span.start, span.end, 3, ""))
    labels = {(e.start, e.end): e.label_ for e in doc.ents}
    taken = [False] * len(doc)
    out: list[Placed] = []
    for s, e, prio, label in sorted(found, key=lambda f: (f[2] > 0, -(f[1] - f[0]), f[2], f[0])):
        while s < e and prio > 0 and (doc[s].lower_ in ARTICLES or _loose(doc[s])):
            s += 1
        while e > s and (_loose(doc[e - 1]) or prio > 0 and doc[e - 1].tag_ == "POS"):
            e -= 1  # "December 18, 1904 –": dangling punctuation from NER; "Faequin's"
        if prio > 0:
            s = _trim_modifiers(doc, s, e)
        if s >= e or any(taken[s:e]):
            continue
        for i in range(s, e):
            taken[i] = True
        label = label or labels.get((s, e)) or _overlapping_label(doc, s, e)
        span = doc[s:e]
        arg = Arg(span.text, span.root.i, span.start_char, KIND.get(label, "other"),
                   end=span.end_char)
        out.append(Placed(s, e, prio, arg))
    return sorted(out, key=lambda m: m.start)


def _split_at_verbs(ent: Any) -> list[tuple[int, int]]:
    """NER spans running over a lowercase verb are two names and a clause ("Gildodor
    featured Saren Selett", "Lutathas is Kesard"): keep the pieces around the verbs."""
    pieces: list[tuple[int, int]] = []
    start = ent.start
    for tok in ent:
        if tok.is_lower and tok.pos_ in ("VERB", "AUX"):
            if tok.i > start:
                pieces.append((start, tok.i))
            start = tok.i + 1
    if start < ent.end:
        pieces.append((start, ent.end))
    return pieces


# Entity types that are no name: an answer inside one ("1970s" in "the 1970s") is still it.
_NOT_NAMES = frozenset({"", "NORP", "LANGUAGE", "DATE", "TIME", "CARDINAL", "ORDINAL",
                        "QUANTITY", "MONEY", "PERCENT"})


def _phrase_hits(doc: Any, phrases: list[str], make_doc: Any,
                 carve: bool) -> list[tuple[int, int]]:
    """Token spans where `phrases` occur: case-insensitive, except for short or all-capital
    ones ("US" must not match the pronoun "us")."""
    from spacy.lang.en.stop_words import STOP_WORDS as _STOP_WORDS
    from spacy.matcher import PhraseMatcher

    # "Inception (film)" is written "Inception" in most answers.
    variants = {h.strip() for h in phrases}
    variants |= {re.sub(r"\s*\([^)]*\)\s*$", "", h).strip() for h in phrases}
    # "Thelma and Louise" is also written "Thelma & Louise".
    variants |= {re.sub(r" and ", " & ", v) for v in variants} | {
        v.replace(" & ", " and ") for v in variants}
    # A short answer such as "a" or "it" would match every article or pronoun. The stop
    # list is asked directly: whether the vocab has met a word depends on earlier texts.
    # Number words are stop words to spaCy, yet "five" is a fine answer.
    variants = {v for v in variants if any(ch.isalnum() for ch in v) and not all(
        w in _STOP_WORDS and w not in MENTION_NUMBER_WORDS for w in v.lower().split())}
    if not variants:
        return []
    exact = sorted(v for v in variants if len(v) <= 3 or v.isupper())
    loose = sorted(v for v in variants if v not in exact)
    hits: list[tuple[int, int]] = []
    for attr, group in (("ORTH", exact), ("LOWER", loose)):
        if group:
            matcher = PhraseMatcher(doc.vocab, attr=attr)
            matcher.add("HINT", [make_doc(v) for v in group])
            hits += [(s, e) for _, s, e in matcher(doc)]
    generic = {v.lower() for v in variants if is_generic(v)}
    out = []
    for s, e in sorted(set(hits)):
        if carve:
            # A nationality answer inside a name NER reads as one organisation or place is
            # not that answer ("American" in "American Airlines"); "a French Duchess" is.
            ent = doc[s].ent_type_
            if doc[s:e].text.lower() in generic and ent not in _NOT_NAMES and (
                    doc[max(s - 1, 0)].ent_type_ == ent and s > 0
                    or e < len(doc) and doc[e].ent_type_ == ent and doc[e].ent_iob_ == "I"):
                continue
        elif _name_part(doc, s - 1) or _name_part(doc, e):
            continue  # a question entity inside a longer name is not that entity ("Mach")
        out.append((s, e))
    return out


def _nickname_name(doc: Any, span: Any) -> int:
    """End token of the name a quoted nickname goes by, or 0: in 'Naftuli "Nathan" Hertz
    Juran' the person is called "Nathan Hertz Juran" (then "Nathan Juran", "Nathan H. Juran")."""
    close = span.end
    if (len(span) != 1 or not _name_part(doc, span.start) or not _name_part(doc, span.start - 2)
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




def _trim_modifiers(doc: Any, s: int, e: int) -> int:
    """Skip leading words that describe the name rather than belong to it: "the Jewish Mack",
    "geographer Henri Coudreau", "American ColumbiaColor Western"."""
    while e - s >= 2:
        tok = doc[s]
        nxt = doc[s + 1]
        if tok.lower_ in RELATIONAL and nxt.lower_ == "of" and e - s >= 3 \
                and doc[s + 2].text[:1].isupper():
            s += 2  # "Widow of David Nevins", "CEO of Bank of America": the name follows
            continue
        if not (nxt.text[:1].isupper() or nxt.like_num):
            break
        if (tok.text.lower() in GENERIC_WORDS and not tok.text.isupper()
                and tok.ent_type_ in ("NORP", "LANGUAGE", "")):
            s += 1  # a nationality before a name; "American Airlines" is one ORG for NER
        elif tok.is_lower and tok.is_alpha and tok.lower_ not in CONNECTORS:
            s += 1  # a lowercase role noun NER pulled into a person's span
        else:
            break
    return s


def _loose(tok: Any) -> bool:
    return tok.is_punct and tok.text not in (")", ".") or tok.is_space


def _overlapping_label(doc: Any, s: int, e: int) -> str:
    best = ""
    width = 0
    for ent in doc.ents:
        overlap = min(e, ent.end) - max(s, ent.start)
        if overlap > width:
            best, width = ent.label_, overlap
    return best


def descriptors(doc: Any, start: int, end: int, lemma: Any) -> tuple[str, ...]:
    """Descriptor nouns seen with a mention: "the film Inception", "Inception, a film …"."""
    root = doc[start:end].root
    nouns = [c for c in root.children if c.dep_ in ("compound", "appos") and c.pos_ == "NOUN"
             and not start <= c.i < end]
    if root.dep_ in ("appos", "compound") and root.head.pos_ == "NOUN":
        nouns.append(root.head)
    words = {lemma(n).lower() for n in nouns}
    return tuple(sorted(w for w in words if w in DESCRIPTOR_NOUNS))


def top_token(doc: Any, root: Any, arg_at: dict[int, Arg]) -> Any:
    """Climb from a mention to its descriptor noun ("the film [Inception]") when bare."""
    head = root.head
    if (root.dep_ in ("appos", "compound") and head.pos_ == "NOUN" and head.i not in arg_at
            and not any(c.dep_ in ("prep", "relcl", "acl", "poss") for c in head.children)):
        return head
    return root
