"""Citation markers and invisible noise taken out of a long answer, offsets kept."""

from __future__ import annotations

import html
import re

from ...lexicon.prose import FRAME

CITATION = re.compile(
    r"[ \t]*\[(?:(?P<ids>(?:doc\s*)?\d+(?:\s*[,;]\s*(?:doc\s*)?\d+)*)\]|doc\]\s*<(?P<s>s\d+)>)",
    re.I,
)
# Every piece of `_NOISE` starts with one of these characters (a space or tab may lead a
# citation, a heading or a list mark): a lookahead on them lets the scan step over plain
# text without trying each alternative at every character, about six times faster. An
# alternative added below that starts with another character must add it here.
_NOISE_START = (r"(?=[ \t\[&<#*_+•\d\-s\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069"
                r"\ufeff\x0b\x0c\x85\u2028\u2029\x00-\x08\x0e-\x1f\x7f])")
_NOISE_PATTERN = (
    CITATION.pattern
    # A markdown link keeps its text and loses the target: "[John Smith](https://…)".
    + r"|\[(?P<ltext>[^\[\]\n]{1,300})\]\((?P<url>[^()\s]{0,2000})\)"
    r"|(?P<ent>&(?:[A-Za-z][A-Za-z0-9]{1,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});)"
    r"|(?P<inv>[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff])"
    r"|(?P<brk>[\x0b\x0c\x85\u2028\u2029])"
    r"|(?P<tag><!--.*?-->|<(?P<blk>script|style)\b.*?</(?P=blk)\s*>|</?[A-Za-z][^<>]{0,200}>)"
    r"|\x1b\[[0-9;?]*[A-Za-z]|[\x00-\x08\x0e-\x1f\x7f]"
    # A heading is a sentence of its own, so its words never become the next line's
    # subject ("## Step 1" then "Tarn Osk starred …").
    r"|(?m:^[ \t]*#{1,6}[ \t]+(?P<htext>[^\n]*[^\s.!?:;,])[ \t]*$)"
    r"|(?m:^[ \t]*(?:#{1,6}[ \t]+|(?:[-*_][ \t]*){3,}$))"
    # Markdown list marks and emphasis: "- ", "1. ", "**Tarn Osk**", "*Moonfall*"; a numbered
    # step ("Step 2: …") is a list mark too, or "Step" becomes the line's subject.
    r"|(?P<mark>(?m:^[ \t]*(?:[-*+•]|\d{1,2}[.)]|step[ \t]+\d{1,2}[:.)])[ \t]+)|\*\*|(?<![\w*])\*(?=[^\s*])"
    r"|(?<=[^\s*])\*(?![\w*])|(?<!\w)__(?=\w)|(?<=\w)__(?!\w))"
)
_NOISE = re.compile(f"{_NOISE_START}(?:{_NOISE_PATTERN})", re.I | re.S)
_BLOCK_TAG = re.compile(r"</?(?:p|div|br|li|ul|ol|h[1-6]|tr|td|th|table|blockquote|pre)\b", re.I)


# The clean text, clean→original offsets, and the citation markers (offset, ids).
Stripped = tuple[str, list[int], list[tuple[int, list[str]]]]


def strip_citations(text: str) -> Stripped:
    """Remove citation markers and invisible noise; return the clean text, clean→original
    offsets, and the markers as (offset in the clean text, ids).

    Markers: `[Doc1]`, `[1]`, `[1, 2]`, `[doc]<s3>`. Noise a reader does not see (control
    and zero-width characters, bidi marks, soft hyphens, ANSI escapes, HTML tags, markdown
    heading and rule marks, list marks, bold and italics) is dropped or becomes a space, so it
    cannot split names or sentences; a heading line is dropped (it names a part, it claims
    nothing) and a list item opens a sentence.
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
        elif m.group("htext"):
            pass  # a heading ("## Step 1", "### Reasoning") names the part, not a claim
        elif m.group("mark") and _opens_item(text, m, parts):
            # A list item is a sentence even when the one before has no full stop; the
            # stop stands where the item's mark was.
            parts.append(". ")
            offsets.extend([m.start(), m.start()])
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


def _opens_item(text: str, m: re.Match, parts: list[str]) -> bool:
    """Whether `m` is a list mark at a line start after a line that ends without a stop."""
    before = "".join(parts[-3:]).rstrip()
    at_line_start = m.start() == 0 or "\n" in text[max(0, m.start() - 1):m.start() + 1] or \
        text[:m.start()].rstrip(" \t").endswith("\n")
    return bool(before) and at_line_start and before[-1] not in ".!?:;" and \
        m.group("mark").strip()[:1].lower() in "-*+•0123456789s"


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


# Where a sentence may open: the text's start, or after a stop or a line break.
_OPENING = re.compile(r"(?:^|(?<=[.!?:;])\s+|\n\s*)(?=\S)")


def strip_frames(stripped: Stripped) -> Stripped:
    """Take out the words that open a sentence by saying where its claim comes from ("From
    the context, I know that", "According to the passage,", "We know that"): the sentence
    states the same without them, and left in they become its subject or its verb. The word
    that then opens the sentence is capitalised, as it would be written there; offsets and
    markers keep pointing into the original text."""
    clean, offsets, markers = stripped
    cuts: list[tuple[int, int]] = []
    for opening in _OPENING.finditer(clean):
        m = FRAME.match(clean, opening.end())
        # A frame with nothing after it in the sentence frames nothing: it stays.
        if m and m.end() < len(clean) and clean[m.end()].isalnum():
            cuts.append((m.start(), m.end()))
    if not cuts:
        return stripped
    parts: list[str] = []
    kept: list[int] = []
    pos = 0
    for start, end in cuts:
        parts.append(clean[pos:start])
        kept.extend(range(pos, start))
        parts.append(clean[end].upper())
        kept.append(end)
        pos = end + 1
    parts.append(clean[pos:])
    kept.extend(range(pos, len(clean) + 1))
    new_at = {old: new for new, old in enumerate(kept)}
    moved = [(new_at.get(at, _next_kept(at, kept)), ids) for at, ids in markers]
    return "".join(parts), [offsets[i] for i in kept], moved


def _next_kept(at: int, kept: list[int]) -> int:
    """The clean offset of the first kept character at or after old offset `at`."""
    from bisect import bisect_left

    return bisect_left(kept, at)
