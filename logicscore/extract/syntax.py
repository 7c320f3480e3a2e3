"""Cue patterns and small dependency-tree helpers of the rules extractor."""

from __future__ import annotations

import re
from typing import Any

from ..lexicon.kinds import MEMBER_ROLES
from .mentions import Arg

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


def join_headings(sents: list[Any]) -> list[Any]:
    """Glue a "Title:" the parser split off back onto the sentence it introduces."""
    out: list[Any] = []
    for sent in sents:
        if out and out[-1].text.rstrip().endswith(":") and out[-1].end == sent.start:
            prev = out.pop()
            sent = prev.doc[prev.start:sent.end]
        out.append(sent)
    return out


def np_text(tok: Any, arg_at: dict[int, Arg]) -> str:
    if tok.i in arg_at:
        return arg_at[tok.i].text
    return tok.doc[tok.left_edge.i:tok.right_edge.i + 1].text
