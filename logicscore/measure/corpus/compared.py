"""Seeded comparison and yes/no cases with gold labels (docs/metrics.md, docs/measurements.md).

Each case compares two invented entities by one attribute (a year, a country). Its kind
says what the long answer does: states both sides (`both_sides`), drops one side
(`side_dropped`: incomplete, the gap that side), concludes against the stated values
(`contradicted`), or adds a third entity's value beside the compared ones (`distractor`:
complete, less concise). One `random.Random` per case, as in the bridge corpus.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .names import NameBook

KINDS = ("both_sides", "side_dropped", "contradicted", "distractor")
GAP_TO = "its compared value"


@dataclass(frozen=True)
class Attribute:
    """A compared attribute: who has it, how a sentence states it, how questions ask it."""

    name: str
    etype: str
    stated: str          # "{S} was born in {V}."
    elided: str          # "{S} in {V}" (second side of "A was born in 1931, B in 1958.")
    low: str             # "Who was born first, {A} or {B}?"
    high: str            # "Who was born later, {A} or {B}?"
    before: str          # "Was {A} born before {B}?"
    conclusion: str      # "So {X} was born first." / "So {X} was born later."


YEARS = (
    Attribute("born", "person", "{S} was born in {V}.", "{S} in {V}",
              "Who was born first, {A} or {B}?", "Who was born later, {A} or {B}?",
              "Was {A} born before {B}?", "So {X} was born {W}."),
    Attribute("released", "film", "{S} was released in {V}.", "{S} in {V}",
              "Which film came out first, {A} or {B}?", "Which film was released later, {A} or {B}?",
              "Was {A} released before {B}?", "So {X} came out {W}."),
    Attribute("founded", "company", "{S} was founded in {V}.", "{S} in {V}",
              "Which company was founded first, {A} or {B}?",
              "Which company was founded later, {A} or {B}?",
              "Was {A} founded before {B}?", "So {X} was founded {W}."),
)


def generate(seed: int, n: int) -> list[dict]:
    """`n` cases; case `idx` draws from its own `random.Random`, apart from the bridge cases'."""
    return [case(random.Random(seed * 1_000_003 + 50_000_000 + idx), seed, idx) for idx in range(n)]


def case(rng: random.Random, seed: int, idx: int) -> dict:
    """One gold-labelled comparison or yes/no record."""
    kind = rng.choice(KINDS)
    attr = rng.choice(YEARS)
    if rng.random() < 0.35:
        return _country_case(rng, seed, idx, kind)
    book = NameBook(rng)
    a, b, c = (book.new(attr.etype)[0] for _ in range(3))
    va, vb = sorted(rng.sample(range(1900, 2020), 2))
    if rng.random() < 0.5:
        va, vb = vb, va
    vc = rng.choice([y for y in range(1900, 2020) if y not in (va, vb)])
    yesno = rng.random() < 0.3
    low = rng.random() < 0.5 or yesno
    earlier = a if va < vb else b
    later = b if earlier == a else a
    truth = earlier if low else later
    word = "first" if low else "later"
    if yesno:
        question = attr.before.format(A=a, B=b)
        right = "Yes" if va < vb else "No"
        answer = right if kind != "contradicted" else ("No" if right == "Yes" else "Yes")
        ending = f"So {'yes' if answer == 'Yes' else 'no'}."
    else:
        question = (attr.low if low else attr.high).format(A=a, B=b)
        answer = truth if kind != "contradicted" else (later if truth == earlier else earlier)
        ending = attr.conclusion.format(X=answer, W=word)
    sides = [(a, attr.stated.format(S=a, V=va)), (b, attr.stated.format(S=b, V=vb))]
    elided = kind == "both_sides" and rng.random() < 0.3
    dropped = None
    if kind == "side_dropped":
        dropped = rng.choice((a, b))
        sides = [s for s in sides if s[0] != dropped]
    lines = [text for _, text in sides]
    if elided:
        lines = [attr.stated.format(S=a, V=va)[:-1] + ", " + attr.elided.format(S=b, V=vb) + "."]
    if kind == "distractor":
        lines.insert(rng.randrange(len(lines) + 1), attr.stated.format(S=c, V=vc))
    if rng.random() < 0.5:
        lines.reverse()
    return _record(seed, idx, kind, "yesno" if yesno else "comparison", question, answer,
                   " ".join(lines + [ending]), a, dropped, None if elided else _concise(kind, lines),
                   ["elided"] if elided else [])


def _country_case(rng: random.Random, seed: int, idx: int, kind: str) -> dict:
    """"Are A and B both from C?": yes when both are, no when one is said not to be."""
    book = NameBook(rng)
    a, b, c = (book.new("person")[0] for _ in range(3))
    home, other = book.new("country")[0], book.new("country")[0]
    both = rng.random() < 0.5
    question = f"Are {a} and {b} both from {home}?"
    right = "Yes" if both else "No"
    answer = right if kind != "contradicted" else ("No" if both else "Yes")
    if kind == "contradicted" and both:  # "yes" against a side said not to be from there
        both, answer = False, "Yes"
    second = f"{b} is also from {home}." if both else f"{b} is not from {home}."
    lines = [f"{a} is from {home}.", second]
    dropped = None
    if kind == "side_dropped":
        dropped = b
        lines = lines[:1]
    if kind == "distractor":
        lines.insert(rng.randrange(len(lines) + 1), f"{c} is from {other}.")
    ending = (f"So {a} and {b} are both from {home}." if answer == "Yes"
              else f"So {a} and {b} are not both from {home}.")
    return _record(seed, idx, kind, "yesno", question, answer, " ".join(lines + [ending]), a,
                   dropped, _concise(kind, lines), ["country"])


def _concise(kind: str, lines: list[str]) -> float:
    """One proposition a line; the two sides' are the ones needed (0 when incomplete)."""
    return round(2 / len(lines), 6) if kind in ("both_sides", "distractor") else 0.0


def _record(seed: int, idx: int, kind: str, qtype: str, question: str, answer: str,
            long_answer: str, first: str, dropped: str | None, conciseness: float | None,
            tags: list[str]) -> dict:
    complete = kind in ("both_sides", "distractor")
    verdict = {"side_dropped": "underdetermined", "contradicted": "contradicted"}.get(kind, "entailed")
    gold = {
        "question_type": qtype,
        "question_entity": first,
        "answer_entity": answer,
        "completeness": int(complete),
        "conciseness": conciseness,
        "failure": None if complete else "broken",
        "answer_absent": False,
        "gap": {"from": dropped, "to": GAP_TO} if dropped else None,
        "chain": [],
        "determinateness": verdict,
        "signals": ["conclusion_mismatch"] if kind == "contradicted" else [],
        "redundant": [],
        "perturbation": kind,
        "dropped_side": dropped,
    }
    return {
        "id": f"fv{seed}-q{idx:04d}",
        "question": question,
        "answer": answer,
        "long_answer": long_answer,
        "meta": {"gold": gold, "variants": [kind, qtype, *tags], "seed": seed},
    }
