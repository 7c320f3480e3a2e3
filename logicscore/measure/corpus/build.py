"""Builds one case: a chain through the fictional world, forks, a perturbation, the text.

The chain runs e0 (the question's anchor) → e1 → … → en (the answer). Hop i is the link
between e(i-1) and e(i). A fork at hop i hangs off e(i): a dead end, or a detour back to
e(i-1) that is one proposition longer than the gold link; either is the trap that makes a
first-match search walking back from the answer take a wrong or longer path.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .labels import Link
from .names import NameBook
from .render import Ent, Unit, can_merge
from .schema import BY_NAME, TYPES, Rel, incident, other_types


class Rejected(Exception):
    """This draw cannot carry the requested perturbation; the caller re-draws."""


@dataclass
class World:
    rng: random.Random
    ents: list[Ent] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    functional: dict[tuple[str, str, int], int] = field(default_factory=dict)
    # Families each entity already takes part in: a second fork of the same family would
    # read as a contradiction ("capital of A", "located in B") or an ambiguity.
    used: dict[int, list[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.book = NameBook(self.rng)

    def ent(self, etype: str) -> int:
        full, first, last = self.book.new(etype)
        pronoun = self.rng.choice(("He", "She")) if etype == "person" else ""
        self.ents.append(Ent(len(self.ents), full, etype, first, last, pronoun))
        return len(self.ents) - 1

    def fits(self, rel: Rel, s: int, o: int) -> bool:
        """False when the link would give a functional relation a second value."""
        for side, key, val in (("s", s, o), ("o", o, s)):
            if side in rel.key and self.functional.get((rel.name, side, key), val) != val:
                return False
        return True

    def link(self, rel: Rel, s: int, o: int, role: str, hop: int = 0, force: bool = False) -> Link:
        if not force and not self.fits(rel, s, o):
            raise Rejected(f"{rel.name} would take a second value")
        for side, key, val in (("s", s, o), ("o", o, s)):
            if side in rel.key:
                self.functional.setdefault((rel.name, side, key), val)
        lk = Link(len(self.links), rel.name, s, o, role, hop)
        self.links.append(lk)
        for eid in (s, o):
            self.used.setdefault(eid, []).append(rel.family)
        return lk

    def attach(self, eid: int, banned: list[str], role: str, hop: int = 0) -> Link:
        """A fresh leaf linked to `eid` by a relation outside the `banned` families."""
        banned = banned + self.used.get(eid, [])
        opts = [(r, side) for r, side in incident(self.ents[eid].type) if r.family not in banned]
        self.rng.shuffle(opts)
        for rel, side in opts:
            other = self.ent(self.rng.choice(other_types(rel, side)))
            s, o = (eid, other) if side == "s" else (other, eid)
            if self.fits(rel, s, o):
                return self.link(rel, s, o, role, hop)
            self.ents.pop()
            self.book.names.pop()
        raise Rejected("no relation to attach")


@dataclass
class Case:
    world: World
    chain: list[Link]                 # hop i at index i-1
    forks: dict[int, list[Link]]      # hop → 1 link (dead end) or 2 (detour)
    families: list[list[str]]         # families touching each chain entity

    @property
    def answer(self) -> int:
        return len(self.chain)        # entity ids 0..n are the chain, in order


def draw_chain(rng: random.Random, n: int) -> Case:
    """A random walk over the schema, avoiding a family twice in a row (no U-turns)."""
    while True:
        types = [rng.choice(TYPES)]
        steps: list[tuple[Rel, str]] = []
        for _ in range(n):
            opts = [(r, side) for r, side in incident(types[-1])
                    if not steps or r.family != steps[-1][0].family]
            if not opts:
                break
            rel, side = rng.choice(opts)
            steps.append((rel, side))
            types.append(rng.choice(other_types(rel, side)))
        if len(steps) == n:
            break
    world = World(rng)
    for etype in types:
        world.ent(etype)
    chain = []
    for i, (rel, side) in enumerate(steps, start=1):
        s, o = (i - 1, i) if side == "s" else (i, i - 1)
        chain.append(world.link(rel, s, o, "chain", i))
    families: list[list[str]] = [[] for _ in types]
    for lk in chain:
        families[lk.s].append(BY_NAME[lk.rel].family)
        families[lk.o].append(BY_NAME[lk.rel].family)
    for i, _lk in enumerate(chain, start=1):
        # A person is called after what the question says they did next ("the actor born in").
        nxt = chain[i] if i < n else None
        if world.ents[i].type == "person" and nxt is not None and nxt.s == i:
            world.ents[i].role = BY_NAME[nxt.rel].role
    case = Case(world, chain, {}, families)
    for i in range(1, n + 1):
        case.forks[i] = _fork(case, i)
    return case


def _fork(case: Case, i: int) -> list[Link]:
    world, banned = case.world, case.families[i]
    if world.rng.random() < 0.35:
        try:
            return _detour(case, i)
        except Rejected:
            pass
    try:
        return [world.attach(i, banned, "fork", i)]
    except Rejected:
        return []


def _detour(case: Case, i: int) -> list[Link]:
    """e(i) – d – e(i-1): reaches the same place as hop i, one proposition longer."""
    world = case.world
    opts = []
    here, back_used = world.used.get(i, []), world.used.get(i - 1, [])
    for rel_a, side_a in incident(world.ents[i].type):
        if rel_a.family in here:
            continue
        for dtype in other_types(rel_a, side_a):
            for rel_b, side_b in incident(dtype):
                back = other_types(rel_b, side_b)
                if (world.ents[i - 1].type in back and rel_b.family != rel_a.family
                        and rel_b.family not in back_used):
                    opts.append((rel_a, side_a, dtype, rel_b, side_b))
    if not opts:
        raise Rejected("no detour")
    rel_a, side_a, dtype, rel_b, side_b = world.rng.choice(opts)
    d = world.ent(dtype)
    first = world.link(rel_a, *((i, d) if side_a == "s" else (d, i)), "fork", i)
    second = world.link(rel_b, *((d, i - 1) if side_b == "s" else (i - 1, d)), "detour", i)
    return [first, second]


def question(case: Case) -> str:
    """Nested descriptions from the anchor outwards: only e0 is named."""
    ents, desc = case.world.ents, case.world.ents[0].name
    for i, lk in enumerate(case.chain, start=1):
        rel = BY_NAME[lk.rel]
        last = i == len(case.chain)
        if lk.s == i:   # e(i) is the subject
            tmpl = rel.wh_s if last else rel.q_s
            desc = tmpl.replace("{O}", desc).replace("{NS}", ents[i].noun())
        else:
            tmpl = rel.wh_o if last else rel.q_o
            desc = tmpl.replace("{S}", desc)
    return desc


def arrange(rng: random.Random, case: Case, keep: list[Link], forward: bool) -> tuple[list[Unit], bool]:
    """Sentences in narrative order, each fork beside its hop's gold link by a coin.

    Returns the units and whether some fork precedes its gold link (the greedy trap).
    """
    kept = [lk.id for lk in keep]
    hops = range(1, len(case.chain) + 1)
    fork_first = False
    units: list[Unit] = []
    for i in (hops if forward else reversed(hops)):
        gold = [Unit("single", [lk]) for lk in case.chain[i - 1:i] if lk.id in kept]
        forks = [Unit("single", [lk]) for lk in case.forks.get(i, []) if lk.id in kept]
        if forks and gold and rng.random() < 0.5:
            units += forks + gold
            fork_first = True
        else:
            units += gold + forks
    return _merge_adjacent(rng, units), fork_first


def _merge_adjacent(rng: random.Random, units: list[Unit]) -> list[Unit]:
    """Fold two adjacent chain links sharing an entity into one two-clause sentence."""
    out: list[Unit] = []
    for unit in units:
        prev = out[-1] if out else None
        if (prev is not None and prev.kind == "single" and unit.kind == "single"
                and prev.links[0].role == unit.links[0].role == "chain"
                and not (prev.links[0].hedged or unit.links[0].hedged) and rng.random() < 0.5):
            a, b = prev.links[0], unit.links[0]
            shared = ({a.s, a.o} & {b.s, b.o})
            if len(shared) == 1:
                x = shared.pop()
                if can_merge(a, b, x):
                    out[-1] = Unit("merge", [a, b], shared=x)
                    continue
        out.append(unit)
    return out
