"""Perturbations: which links a long answer keeps, what is added, and the expected verdicts.

Each returns a `Draft`; `labels.label` then derives completeness, chain, failure and gap from
the links actually written, and the caller checks that they match `intended`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .build import Case, Rejected, arrange
from .labels import Link
from .render import Unit
from .schema import BY_NAME, incident, other_types

# perturbation → weight; the failure classes come out near 47% complete, 30% broken,
# 12% circular, 11% deviated.
WEIGHTS = {
    "complete": 14, "redundant": 10, "hedged": 9, "contradiction": 9, "negation": 5,
    "broken": 17, "answer_absent": 6, "asserted_without_derivation": 7, "circular": 12, "deviated": 11,
}


@dataclass
class Draft:
    units: list[Unit]
    intended: str                    # complete | broken | circular | deviated
    verdict: str                     # determinateness gold when complete / incomplete
    signals: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    dropped: int | None = None


def _insert(rng: random.Random, units: list[Unit], unit: Unit, after: int = -1) -> None:
    """Put `unit` at a random position after index `after`."""
    units.insert(rng.randint(after + 1, len(units)), unit)


def _index_of(units: list[Unit], link: Link) -> int:
    return next(i for i, u in enumerate(units) if any(lk.id == link.id for lk in u.links))


def _base(rng: random.Random, case: Case, keep: list[Link]) -> tuple[list[Unit], list[str]]:
    forward = rng.random() < 0.6
    units, fork_first = arrange(rng, case, keep, forward)
    tags = ["order_forward" if forward else "order_backward"]
    if fork_first:
        tags.append("fork_first")
    if any(lk.role == "detour" for lk in keep):
        tags.append("fork_detour")
    return units, tags


def _all(case: Case) -> list[Link]:
    return case.chain + [lk for i in sorted(case.forks) for lk in case.forks[i]]


def complete(rng: random.Random, case: Case, kind: str) -> Draft:
    world, n, verdict, signals = case.world, len(case.chain), "entailed", []
    if kind == "hedged":    # before arranging: a hedged link stays a sentence of its own
        rng.choice(case.chain).hedged = True
        signals.append("hedged_on_chain")
    units, tags = _base(rng, case, _all(case))
    if kind == "redundant":
        for _ in range(rng.randint(2, 3)):
            eid = rng.randint(0, n)
            _insert(rng, units, Unit("single", [world.attach(eid, case.families[eid], "extra")]))
    elif kind == "contradiction":
        lk, final = _contradiction(rng, case)
        _insert(rng, units, Unit("single", [lk]), _index_of(units, case.chain[lk.hop - 1]))
        verdict = "contradicted" if final else "entailed"
        tags.append("contradiction_final" if final else "contradiction_inner")
        signals.append("contradiction")
    elif kind == "negation":
        gold = case.chain[-1]
        neg = Link(len(world.links), gold.rel, gold.s, gold.o, "neg", n, negated=True)
        world.links.append(neg)
        _insert(rng, units, Unit("single", [neg]), _index_of(units, gold))
        verdict = "contradicted"
        signals.append("contradiction")
    return Draft(units, "complete", verdict, signals, tags)


def _contradiction(rng: random.Random, case: Case) -> tuple[Link, bool]:
    """A second value for a functional relation on the chain; final=True when it competes
    with the answer itself (the last bridge gets another value), which contradicts SA."""
    world, n, options = case.world, len(case.chain), []
    for lk in case.chain:
        rel = BY_NAME[lk.rel]
        for side in ("s", "o"):
            if side not in rel.key:
                continue
            key = lk.s if side == "s" else lk.o
            # key on the question side of the final hop: the new value competes with SA.
            final = lk.hop == n and key == n - 1
            inner = key == lk.hop        # key on the answer side: e(i) gets a second e(i-1)
            if final or inner:
                options.append((lk, side, key, final))
    if not options:
        raise Rejected("no functional link on the chain")
    finals = [o for o in options if o[3]]
    lk, side, key, final = rng.choice(finals) if finals and rng.random() < 0.5 else rng.choice(options)
    value_type = world.ents[lk.o if side == "s" else lk.s].type
    value = world.ent(value_type)
    s, o = (key, value) if side == "s" else (value, key)
    new = world.link(BY_NAME[lk.rel], s, o, "contra", lk.hop, force=True)
    return new, final


def broken(rng: random.Random, case: Case, kind: str) -> Draft:
    """Drop hop k; forks beside the gap go, so each side's frontier is unambiguous."""
    n = len(case.chain)
    if n < 2:
        raise Rejected("one hop cannot break and keep both ends")
    if kind == "answer_absent":
        k = n
    else:
        # Dropping hop 1 of a longer chain leaves no question entity: that is *deviated*.
        k = rng.randint(2, n - 1) if n >= 3 else 1
    keep = [lk for lk in case.chain if lk.hop != k]
    for i in sorted(case.forks):
        if k - 2 <= i <= k + 1:
            continue
        # Detours would close loops (circular) or bridge the gap; keep their first half.
        keep += [lk for lk in case.forks[i] if lk.role == "fork"]
    units, tags = _base(rng, case, keep)
    verdict, signals = "underdetermined", []
    if kind == "asserted_without_derivation":
        units.append(Unit("conclusion", [], answer=case.answer))
        verdict = "entailed"
        signals.append("asserted_without_derivation")
    return Draft(units, "broken", verdict, signals, tags, dropped=k)


def circular(rng: random.Random, case: Case) -> Draft:
    """The answer side of the chain, never reaching e0, plus a loop back onto itself."""
    world, n = case.world, len(case.chain)
    j = rng.randint(1, n - 1) if n >= 2 else 0
    keep = [lk for lk in case.chain if lk.hop > j] if n >= 2 else []
    keep += [lk for i in sorted(case.forks) if i > j for lk in case.forks[i] if lk.role == "fork"]
    if n < 2:   # the only hop touches e0: loop on a fresh link instead
        keep.append(world.attach(case.answer, case.families[case.answer], "loop"))
    units, tags = _base(rng, case, [lk for lk in keep if lk.role != "loop"])
    loops = [lk for lk in keep if lk.role == "loop"]
    units = [Unit("single", [lk]) for lk in loops] + units
    target = case.chain[-1] if n >= 2 else loops[0]
    triangle = n >= 2 and rng.random() < 0.4 and _triangle(rng, case, units)
    if triangle:
        tags.append("loop_through_answer")
    else:
        copy = Link(len(world.links), target.rel, target.s, target.o, "restate", target.hop)
        world.links.append(copy)
        at = _index_of(units, target)
        if units[at].kind == "single" and rng.random() < 0.5:
            units[at] = Unit("because", [target, copy])      # "A because A"
            tags.append("mutual_support")
        else:
            _insert(rng, units, Unit("restate", [copy]), at)
            tags.append("restated_link")
    return _conclude(rng, case, Draft(units, "circular", "underdetermined", [], tags))


def _triangle(rng: random.Random, case: Case, units: list[Unit]) -> bool:
    """SA – x – e(n-1) – SA: a cycle through the answer entity."""
    world, a, b = case.world, case.answer, case.answer - 1
    opts = []
    for rel_a, side_a in incident(world.ents[a].type):
        for xtype in other_types(rel_a, side_a):
            for rel_b, side_b in incident(xtype):
                if (world.ents[b].type in other_types(rel_b, side_b)
                        and rel_a.family not in case.families[a]
                        and rel_b.family not in case.families[b] and rel_a.family != rel_b.family):
                    opts.append((rel_a, side_a, xtype, rel_b, side_b))
    if not opts:
        return False
    rel_a, side_a, xtype, rel_b, side_b = rng.choice(opts)
    x = world.ent(xtype)
    try:
        one = world.link(rel_a, *((a, x) if side_a == "s" else (x, a)), "loop")
        two = world.link(rel_b, *((x, b) if side_b == "s" else (b, x)), "loop")
    except Rejected:
        return False
    units += [Unit("single", [one]), Unit("single", [two])]
    return True  # tagged by the caller


def deviated(rng: random.Random, case: Case) -> Draft:
    """The answer, then two or three hops into entities the question never mentions."""
    world, cur, used = case.world, case.answer, list(case.families[case.answer])
    units: list[Unit] = []
    for _ in range(rng.randint(2, 3)):
        lk = world.attach(cur, used, "off")
        units.append(Unit("single", [lk]))
        cur = lk.o if lk.s == cur else lk.s
        used = [BY_NAME[lk.rel].family]
    tags: list[str] = []
    fork = [lk for lk in case.forks.get(len(case.chain), []) if lk.role == "fork"]
    if fork and rng.random() < 0.5:
        _insert(rng, units, Unit("single", fork[:1]))
    return _conclude(rng, case, Draft(units, "deviated", "underdetermined", [], tags))


def _conclude(rng: random.Random, case: Case, draft: Draft) -> Draft:
    if rng.random() < 0.3:
        draft.units.append(Unit("conclusion", [], answer=case.answer))
        draft.verdict = "entailed"
        draft.signals.append("asserted_without_derivation")
    return draft


def build(rng: random.Random, case: Case, kind: str) -> Draft:
    if kind in ("complete", "redundant", "hedged", "contradiction", "negation"):
        return complete(rng, case, kind)
    if kind in ("broken", "answer_absent", "asserted_without_derivation"):
        return broken(rng, case, kind)
    if kind == "circular":
        return circular(rng, case)
    return deviated(rng, case)
