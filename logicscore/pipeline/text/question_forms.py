"""Written forms of a name in a parsed text: proper-noun runs, roles and awards, overlap
resolution. The lowest layer of `logicscore.pipeline.question`; other stages may use it too."""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from ...lexicon.function_words import CONNECTORS, TITLE_CONNECTORS, WH_WORDS
from ...lexicon.kinds import WORK_NOUNS
from ...parsing.loader import sentence_start, unknown_word

# A word that may start a name: a capital or digit, perhaps after an opening quote or bracket.
NAME_START = re.compile(r"[\"“‘'(]?[A-Z0-9]")
CAPITAL_OR_DIGIT = re.compile(r"[A-Z0-9]")

# Words that join or open a name but never end one.
JOINING_WORDS = CONNECTORS | TITLE_CONNECTORS | WH_WORDS


class Candidate(NamedTuple):
    """A span of the question that may name something, in character offsets.

    `label` says where it came from: a spaCy entity label, or the rule that found it
    ("QUOTE", "PROPN", "TITLE", "COMPARE", "RELABELLED"; read against the answer:
    "CONTEXT", "CASED", "REST"). Candidates sort in text order; stages outside the
    package read a proper run as (start, end, label). A named tuple: the rules make and
    compare thousands of candidates, which a tuple's C methods do cheaply.
    """

    start: int
    end: int
    label: str

    @property
    def quoted(self) -> bool:
        return self.label == "QUOTE"

    def overlaps(self, other: Candidate) -> bool:
        return self.start < other.end and other.start < self.end

    def within(self, start: int, end: int) -> bool:
        return start <= self.start and self.end <= end

    def moved(self, start: int | None = None, end: int | None = None) -> Candidate:
        """The same candidate with other offsets."""
        return Candidate(self.start if start is None else start,
                         self.end if end is None else end, self.label)

    @property
    def width(self) -> int:
        return self.end - self.start


def token_end(tok: Any) -> int:
    """The character offset just after `tok`."""
    return tok.idx + len(tok)


def longest_first(spans: list[Candidate], kept: list[Candidate] | None = None) -> list[Candidate]:
    """`kept` and, longest (then leftmost) first, each span overlapping none taken before,
    in text order."""
    kept = list(kept or [])
    for s in sorted(spans, key=lambda s: (-s.width, s.start)):
        start, end = s.start, s.end
        if not any(start < k.end and k.start < end for k in kept):  # `overlaps`, inline
            kept.append(s)
    return sorted(kept)


def proper_runs(doc: Any) -> list[Candidate]:
    """Runs of proper nouns (inner of/de/la/von allowed), labelled "PROPN"."""
    runs: list[Candidate] = []
    toks = list(doc)
    proper = [is_proper(t) for t in toks]  # asked of most tokens twice below: read once
    i = 0
    while i < len(toks):
        if not proper[i]:
            i += 1
            continue
        # After "film"/"song" a title may hold lowercase words: "film Sleepless in Seattle".
        before = toks[i - 2:i] if i > 1 else toks[:i]
        titled = any(t.lower_ in WORK_NOUNS for t in before) and (
            i == 0 or toks[i - 1].lower_ in WORK_NOUNS or toks[i - 1].pos_ == "DET")
        inner = TITLE_CONNECTORS if titled else CONNECTORS
        j = i + 1
        while j < len(toks):
            if proper[j]:
                j += 1
                continue
            # "of", "of the" between proper nouns: "Bank of the United States".
            k = j
            # A lowercase verb ends a title: "the film Kamamar is Mana Norling".
            while k < len(toks) and k - j < 2 and (toks[k].lower_ in inner or (
                    k > j and toks[k].lower_ == "the")) and not (
                    toks[k].is_lower and toks[k].pos_ in ("VERB", "AUX")):
                k += 1
            if k > j and k < len(toks) and proper[k]:
                j = k
            else:
                break
        runs.append(Candidate(toks[i].idx, token_end(toks[j - 1]), "PROPN"))
        i = j
    return runs


def is_proper(tok: Any) -> bool:
    """Whether `tok` is a word of a name: a proper noun, an unknown word, or a capitalised
    noun where a name stands."""
    pos = tok.pos_
    if pos != "PROPN" and (tok.is_lower or tok.is_punct or tok.is_digit or not (
            tok.is_title or tok.text[:1].isupper())):
        # Most words: neither a proper noun nor capitalised, so neither an unknown word
        # (which opens on a capital) nor a capitalised noun. A lowercase word, a mark or
        # digits is none by its flags, read before its text (the dearer read).
        return False
    tag = tok.tag_
    if tag in ("WDT", "WP", "WP$", "WRB") or tok.lower_ in WH_WORDS:
        return False
    if pos == "PROPN":
        return tag == "NNP" or tok.i != sentence_start(tok)
    if unknown_word(tok):
        return True  # an invented or foreign name, whatever the tagger made of it
    if not tok.is_title or pos not in ("NOUN", "ADJ", "X"):
        return False
    if tok.i != sentence_start(tok):
        return True  # capitalised mid-sentence words the tagger called NOUN are mostly names
    # A sentence-initial singular subject without a determiner: "Inception was directed…".
    return (tok.tag_ == "NN" and tok.dep_ in ("nsubj", "nsubjpass")
            and not any(c.dep_ == "det" for c in tok.children))


_ROLE_BEFORE = r"(?:play(?:s|ed|ing)?|voic(?:es|ed|ing)|portray(?:s|ed|ing)?|w[io]ns?|winning)"
_CASTING = re.compile(r"\b(?:play|voice|portray|actor|actress|character|role|cast)", re.I)
# What every role pattern opens with: a question without it needs no pattern built.
_ROLE_WORD = re.compile(rf"\b{_ROLE_BEFORE}\s", re.I)
# The parts of the two patterns around the name, compiled once; the name is compared in
# place, where a pattern holding it would be compiled anew for each name.
_ROLE_THEN = re.compile(rf"\b{_ROLE_BEFORE}\s+", re.I)
_ARTICLE_THEN = re.compile(r"(?:an?|the)\s+", re.I)
_IN_WORK = re.compile(r"(?:['’]s\s+\w+)?\s+(?:in|on)\s+(?:the\s+)?[\"“]?[A-Z]")
_BOUNDARY = re.compile(r"\b")


def role_name(question: str, name: str) -> bool:
    """Whether the question uses `name` as a role or an award: "who played Scarlett in Gone
    with the Wind", "the actor of Ethan in A Dog's Purpose", "Nim's actress in …", "win a Tony"."""
    if not question or not name:
        return False
    if _ROLE_WORD.search(question) and _after_role(question, name):
        return True
    # "X in <Work>" is a role only in a question about casting, not "born in Paris in France".
    return bool(_CASTING.search(question) and any(
        _BOUNDARY.match(question, at) and _IN_WORK.match(question, at + len(name))
        for at in _places(question, name)))


def _after_role(question: str, name: str) -> bool:
    """`name`, in any case, after a role word and maybe an article, ending a word there:
    `\\b<role word>\\s+(?:an?\\s+|the\\s+)?<name>\\b`, case-blind. Read in place for ASCII
    text (whose case `str.lower` folds as the pattern does) and a name opening on no space."""
    if not (name.isascii() and question.isascii()) or not name[:1].strip():
        return bool(re.search(rf"\b{_ROLE_BEFORE}\s+(?:an?\s+|the\s+)?{re.escape(name)}\b",
                              question, re.I))
    low, n = name.lower(), len(name)
    for m in _ROLE_THEN.finditer(question):
        article = _ARTICLE_THEN.match(question, m.end())
        for at in (m.end(), *((article.end(),) if article else ())):
            if question[at:at + n].lower() == low and _BOUNDARY.match(question, at + n):
                return True
    return False


def _places(text: str, part: str) -> list[int]:
    """Every offset where `text` holds `part`, overlapping ones too."""
    out, at = [], text.find(part)
    while at >= 0:
        out.append(at)
        at = text.find(part, at + 1)
    return out
