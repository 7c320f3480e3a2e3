"""Every asked hop, not only every anchor (docs/questions-and-answers.md): the kin hops a
question asks, read as paths of one-generation steps, against the hops the chain states.

Two passes, each named and tested (tests/test_kin_hops.py):

- `restated_kin`: a claim that states the question's own multi-step kin term between two
  people ("X's paternal grandmother is Y") names no bridge the question describes (X's
  father); like a conclusion, it bridges nothing.
- `kin_mismatch`: the kin terms the chain states add up to another number of generations
  or of sibling and spouse steps than the question asks ("nephew" for "child", a mother's
  father's father for a maternal grandfather): the hop is not the one asked.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from ..lexicon.kin import COPULA_RELATIONS, KIN_FILLERS, KIN_STEPS, KIN_TERM, NOT_KIN_AFTER
from ..lexicon.relations import HOP_FAMILIES, IMPLIED_FAMILIES, ROLE_NOUNS
from ..lexicon.text import crude_stem
from ..models import Proposition

_WORD = re.compile(r"[^\W_]+")
_OF = re.compile(r"\s+of\b", re.I)
# A possessive name before the term, perhaps with one word between ("X's maternal …").
_POSSESSOR = re.compile(r"(?<!\bher)(?<!\bhis)(?<!\bits)(?<!\btheir)(?:'s|’s|s'|s’)\s+(?:[a-z-]+\s+)?$")


@dataclass(frozen=True)
class KinTerm:
    """One kin term written in a text: its words and its steps."""

    text: str
    steps: str

    @property
    def shape(self) -> Counter[str]:
        """Generations (parent and child steps alike: "A's son" is "B's father" read back),
        sibling and spouse steps: what a chain's terms must add up to."""
        return Counter("G" if s in "PC" else s for s in self.steps)


def kin_terms(text: str) -> list[KinTerm]:
    """The kin terms of `text`, in order; a capitalised one mid-text is part of a name
    ("Mother Teresa"), one before "company" names no person ("parent company")."""
    return [t for t, _ in _matches(text)]


def asked_kin(question: str) -> list[KinTerm]:
    """The kin hops a question asks, in the order it writes them: a kin term that relates
    to a named or described person ("the father of X", "X's paternal grandmother"), not
    one of a person the question has already described ("… with her mother")."""
    return [t for t, (start, end) in _matches(question)
            if _OF.match(question, end) or _POSSESSOR.search(question, 0, start)]


def _matches(text: str) -> list[tuple[KinTerm, tuple[int, int]]]:
    out = []
    for m in KIN_TERM.finditer(text):
        start, end = (m.start("term") if not m.group("great") else m.start()), m.end("term")
        if not text[start:end].islower() and start > 0 and text[start - 2:start] not in (". ", ""):
            continue
        if (m.group("after") or "").strip().lower() in NOT_KIN_AFTER:
            continue
        steps = KIN_STEPS[m.group("term").lower()]
        greats = m.group("great").lower().count("great")
        if greats and steps[0] * len(steps) == steps and steps[0] in "PC":
            steps += steps[0] * greats
        end += text[end:end + 1] == "s"  # a plural
        out.append((KinTerm(text[start:end], steps), (start, end)))
    return out


def _shape(terms: list[KinTerm]) -> Counter[str]:
    total: Counter[str] = Counter()
    for t in terms:
        total += t.shape
    return total


def restated_kin(props: list[Proposition], question: str) -> frozenset[int]:
    """Indices of claims stating the question's multi-step kin term as one hop."""
    asked = [t for t in asked_kin(question) if len(t.steps) > 1]
    if not asked:
        return frozenset()
    wanted = {t.steps for t in asked}
    out = set()
    for i, p in enumerate(props):
        terms = _claim_terms(p)
        if terms and all(t.steps in wanted for t in terms):
            out.add(i)
    return frozenset(out)


def _claim_terms(p: Proposition) -> list[KinTerm]:
    """The kin terms a claim states: those of its relation, or, when the relation only says
    "is", those of its sentence."""
    own = kin_terms(p.relation)
    if own:
        return own
    if p.relation.lower() in COPULA_RELATIONS:
        return _sentence_terms(p)
    return []


def _sentence_terms(p: Proposition) -> list[KinTerm]:
    """The kin terms of a claim's sentence written before the later of its two names ("The
    mother of X is Y", "X's grandfather is Y"): a term after both names is another claim's
    ("X ; 1634 – 1675) ruled under his mother")."""
    last = max(p.text.rfind(p.subject), p.text.rfind(p.object))
    return [t for t, (start, _) in _matches(p.text) if start < last]




def _pure_kin(relation: str) -> bool:
    """The relation says a kin hop and nothing else ("mother of", "have nephew name")."""
    return all(w in KIN_FILLERS or w.rstrip("s") in KIN_STEPS or w in KIN_STEPS
               for w in relation.lower().replace("-", " ").split())


def kin_mismatch(props: list[Proposition], chain: list[str], question: str) -> KinTerm | None:
    """The asked kin term the chain's kin terms do not add up to, or None (no kin asked, no
    kin stated on the chain, or they agree). Only the terms of the chain's relations count
    (in dense prose a sentence holds other claims' kin terms), each sentence's once."""
    asked = asked_kin(question)
    if not asked:
        return None
    on_chain = set(chain)
    by_sentence: dict[int, list[KinTerm]] = {}
    for p in props:
        if p.id not in on_chain:
            continue
        own = kin_terms(p.relation)
        if own and not _pure_kin(p.relation):
            return None  # "appear as mother", "take daughter": kin words, no kin hop to count
        if own:
            by_sentence.setdefault(p.sentence, [])
            for t in own:
                if t not in by_sentence[p.sentence]:
                    by_sentence[p.sentence].append(t)
    stated = [t for terms in by_sentence.values() for t in terms]
    if not stated or _shape(stated) == _shape(asked):
        return None
    return asked[0] if len(asked) == 1 else KinTerm(" / ".join(t.text for t in asked),
                                                     "".join(t.steps for t in asked))


# Relation families of one hop (`HOP_FAMILIES`), read as crude stems.

def _stems(text: str) -> list[str]:
    return [crude_stem(w) for w in _WORD.findall(text.lower().replace("-", " "))]


def _phrase_stems(table: dict[str, tuple[str, ...]]) -> dict[str, list[tuple[str, ...]]]:
    return {name: [tuple(_stems(p)) for p in phrases] for name, phrases in table.items()}


_FAMILY_STEMS = _phrase_stems(HOP_FAMILIES)
_ROLES = frozenset(ROLE_NOUNS)


def _holds(stems: list[str], phrase: tuple[str, ...]) -> int | None:
    """Where `phrase` starts in `stems`, or None."""
    n = len(phrase)
    return next((i for i in range(len(stems) - n + 1) if tuple(stems[i:i + n]) == phrase), None)


def families(text: str) -> set[str]:
    """The hop families a text states."""
    stems = _stems(text)
    return {name for name, phrases in _FAMILY_STEMS.items()
            if any(_holds(stems, p) is not None for p in phrases)}


def asked_families(question: str) -> set[str]:
    """The hop families a question asks; one that a number or year follows ("founded in
    1901") constrains the answer by a value, and a role noun asks a hop only as "the N of
    X" or "X's N": neither is a hop to chain."""
    low = question.lower().replace("-", " ").replace("’", "'")
    words = _WORD.findall(low)
    stems = [crude_stem(w) for w in words]
    out = set()
    for name, phrases in _FAMILY_STEMS.items():
        for p in phrases:
            at = _holds(stems, p)
            if at is None:
                continue
            after = words[at + len(p):at + len(p) + 3]
            if any(w.isdigit() for w in after):
                continue
            role = " ".join(words[at:at + len(p)]).removesuffix("s") in _ROLES
            if role and after[:1] != ["of"] and not (at >= 1 and words[at - 1] == "s"):
                continue
            out.add(name)
    return out


def family_mismatch(props: list[Proposition], chain: list[str], question: str) -> str | None:
    """The asked relation a chain never states, or None. When every hop states a known family and
    the chain has fewer hops than the question asks relations, an asked family none of its
    sentences writes is a hop not taken ("the employer of X part of" answered by X's
    employer alone). A chain with as many hops as asked may word one otherwise ("written by"
    for "composer"): it is left alone."""
    asked = asked_families(question)
    if not asked:
        return None
    on_chain = set(chain)
    hops = [p for p in props if p.id in on_chain]
    if not hops:
        return None
    stated = [families(p.relation) for p in hops]
    if all(stated) and len(hops) < len(asked):  # a hop is missing, not one reworded
        # A sentence may state a hop its claims fold away ("The founder of X, Y, was born
        # in Z" read as "X born in Z"): what the chain's sentences write counts as stated.
        written = set().union(*stated, *(families(p.text) for p in hops))
        missing = asked - written - IMPLIED_FAMILIES
        if missing:
            return sorted(missing)[0]
    return None
