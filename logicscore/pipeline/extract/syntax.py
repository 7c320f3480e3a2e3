"""Cue patterns and small dependency-tree helpers of the rules extractor."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...lexicon.kinds import MEMBER_ROLES
from ...lexicon.prose import HEDGE_WORDS
from ...lexicon.relations import NAMING_VERBS
from .mentions import Arg

# Each alternative must hold a word of HEDGE_WORDS (logicscore/lexicon/prose.py): `cues` tries the pattern only on
# sentences holding one.
HEDGE = re.compile(
    r"\b(?:reportedly|allegedly|possibly|perhaps|rumou?red|supposedly|purportedly|presumably|"
    r"probably|likely|apparently|unconfirmed|(?:may|might|could) (?:have|be)|"
    r"unclear (?:whether|if)|it is (?:believed|thought|said|possible)|(?:is|are|was|were) "
    r"(?:said|believed|thought) to|not (?:entirely |completely |quite |totally |100% )?(?:sure|certain)|"
    r"uncertain|I (?:believe|think|guess|suspect)|if I (?:recall|remember) correctly)\b",
    re.I,
)
CONCLUSION = re.compile(
    r"^\W*(?:so|thus|therefore|hence|consequently|in conclusion|in summary|in short|"
    r"to conclude|to sum up|final answer)(?=[\s,:])|\bthe (?:final |correct |short )?answer "
    r"(?:is|would be|was|will be)\b|\banswer\s*:",
    re.I,
)
# "Title Words: body": capitalised words up to a colon (a paragraph title, not a cue).
HEADING = re.compile(r"^\W*(?:[A-Z0-9][\w'’.&-]*,?\s+){0,8}[A-Z0-9][\w'’.&-]*:\s")
ANSWER_IS = re.compile(r"\banswer(?: (?:is|would be|was|will be))?\s*:?\s*(?P<x>.+)$", re.I | re.S)

# Every HEDGE match holds one of these words, lowercased; CONCLUSION's and ANSWER_IS's
# matches past the sentence start hold "answer".
# The characters `re.I` matches to an ASCII letter whose `str.lower` is not that letter
# (every code point tried): a text holding one is searched with the patterns alone.
CASE_ODD = frozenset("\u0130\u0131\u017f")


@dataclass(frozen=True, slots=True)
class Cues:
    """What the cue patterns find in one sentence."""

    hedged: bool
    conclusion: re.Match[str] | None
    answer_is: re.Match[str] | None


def cues(text: str) -> Cues:
    """The cue patterns on `text`, each tried only where its words occur: a pattern search
    tries every position, a word is found by one `in`."""
    low = text.lower()
    odd = not CASE_ODD.isdisjoint(text)
    hedged = (odd or any(w in low for w in HEDGE_WORDS)) and HEDGE.search(text) is not None
    if odd or "answer" in low:
        return Cues(hedged, CONCLUSION.search(text), ANSWER_IS.search(text))
    return Cues(hedged, CONCLUSION.match(text), None)  # "So, …" opens the sentence


@dataclass(frozen=True, slots=True)
class Tree:
    """A Doc's parse as plain lists by token index, read once: each step of a walk over
    spaCy tokens builds a new Token object, and each label read decodes a string."""

    heads: list[int]
    deps: list[str]
    negated: frozenset[int]  # the tokens a "not" hangs from


def parse_tree(doc: Any) -> Tree:
    import numpy
    from spacy.attrs import DEP, HEAD

    # Both columns in one array. spaCy stores each head as an offset from its token, an
    # unsigned 64-bit number: as signed, added to the token indices, it is the head's index.
    columns = doc.to_array([HEAD, DEP])
    heads = (columns[:, 0].astype("int64") + numpy.arange(len(doc))).tolist()
    # Each label's string looked up once, not decoded per token as `Token.dep_` does.
    ids = columns[:, 1].tolist()
    strings = doc.vocab.strings
    label = {d: strings[d] for d in set(ids)}
    deps = [label[d] for d in ids]
    return Tree(heads, deps, frozenset([h for i, h in enumerate(heads)
                                        if deps[i] == "neg" and h != i]))


def lemma_by_token(lemma: Callable[[Any], str]) -> Callable[[Any], str]:
    """`lemma` remembered by token index, for one Doc: the rules ask a predicate's lemma
    once per argument, and spaCy decodes `lemma_` at each read."""
    seen: dict[int, str] = {}

    def cached(tok: Any) -> str:
        i = tok.i
        word = seen.get(i)
        if word is None:
            word = seen[i] = lemma(tok)
        return word

    return cached


def member_role(name: Any, noun: Any) -> bool:
    """Whether `noun` after a name is a place held in what it names: "a Monster Folk member"
    is one of the group's people, whom the text does not name. (The name's token may be the
    article a mention kept: "A Monster Folk".)"""
    word = noun.lower_
    return (name.dep_ in ("compound", "det") and name.head.i == noun.i and name.i < noun.i
            and (word in MEMBER_ROLES or word.removesuffix("s") in MEMBER_ROLES))


def causal(p: Any) -> bool:
    return p.dep_ == "advcl" and any(c.dep_ == "mark" and c.lower_ in ("because", "since")
                                     for c in p.children)


def misparsed_verb(tok: Any) -> bool:
    """A finite past verb parsed as an adjective of its object ("starred" in "X, which was
    directed by Y, starred Z"): the parser lost the clause, the verb still heads one."""
    if tok.dep_ != "amod" or tok.pos_ != "VERB" or tok.head.i <= tok.i or tok.i == 0:
        return False
    return tok.tag_ == "VBD" or (tok.doc[tok.i - 1].text == "," and tok.head.pos_ == "PROPN")


def join_headings(sents: list[Any], text: str) -> list[Any]:
    """Glue a "Title:" the parser split off back onto the sentence it introduces (`text`
    is the Doc's, which the spans' character offsets index)."""
    out: list[Any] = []
    for sent in sents:
        if out and out[-1].end == sent.start \
                and text[out[-1].start_char:out[-1].end_char].rstrip().endswith(":"):
            prev = out.pop()
            sent = prev.doc[prev.start:sent.end]
        out.append(sent)
    return out


def np_text(tok: Any, arg_at: dict[int, Arg]) -> str:
    if tok.i in arg_at:
        return arg_at[tok.i].text
    return tok.doc[tok.left_edge.i:tok.right_edge.i + 1].text


def descriptors(root: Any, start: int, end: int, lemma: Any) -> tuple[str, ...]:
    """Nouns seen with a mention of tokens [start, end), whose root token is `root`: "the
    film Inception", "Inception, a film …", "the Velmar Awards ceremony". Any common noun
    counts: a later "this ceremony" joins the mention its head was seen with (docs/coreference.md)."""
    nouns = [c for c in root.children if c.dep_ in ("compound", "appos") and c.pos_ == "NOUN"
             and not start <= c.i < end]
    if root.dep_ in ("appos", "compound") and root.head.pos_ == "NOUN":
        nouns.append(root.head)
    # A name whose first word modifies the noun ("the [38th Annual Velmar Awards] ceremony").
    last = root.doc[end - 1]
    if end - 1 != root.i and last.dep_ == "compound" and last.head.pos_ == "NOUN" and not start <= last.head.i < end:
        nouns.append(last.head)
    nouns.extend(_identified(root, lemma))
    return tuple(sorted({lemma(n).lower() for n in nouns}))


def _identified(root: Any, lemma: Any) -> list[Any]:
    """The noun a copula says the mention is, either way round: "the film … is Inception",
    "that player was Kim Lee", "Inception is a 2010 film" (an identity statement, so a later
    "the film" or "this player" points to the name)."""
    verb = root.head
    if root.dep_ not in ("attr", "nsubj") or verb.i == root.i or lemma(verb).lower() != "be":
        return []
    other = "nsubj" if root.dep_ == "attr" else "attr"
    return [c for c in verb.children if c.dep_ == other and c.pos_ == "NOUN"]


def top_token(doc: Any, root: Any, arg_at: dict[int, Arg]) -> Any:
    """Climb from a mention to its descriptor noun ("the film [Inception]") when bare."""
    head = root.head
    if (root.dep_ in ("appos", "compound") and head.pos_ == "NOUN" and head.i not in arg_at
            and not any(c.dep_ in ("prep", "relcl", "acl", "poss") for c in head.children)):
        return head
    return root


def naming_as_copula(doc: Any, lemma: Any) -> None:
    """Read "X's mother was named Rona" as "X's mother was Rona": a passive naming verb with a
    predicate name is an identity statement, as the copula is ("His son was called Dan Fry",
    "The band was renamed Grey Orchard"). Rewrites the parse in place, before any rule reads it."""
    for tok in doc:
        if tok.pos_ != "VERB" or lemma(tok).lower() not in NAMING_VERBS:
            continue
        subj = next((c for c in tok.children if c.dep_ == "nsubjpass"), None)
        name = next((c for c in tok.children if c.dep_ == "oprd"), None)
        if subj is None or name is None or not any(c.dep_ == "auxpass" for c in tok.children):
            continue
        subj.dep_, name.dep_ = "nsubj", "attr"
        tok.lemma_ = "be"
