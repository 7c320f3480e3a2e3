"""What changed between two runs of the same questions: metric deltas and records that moved.

Records are matched by id; an id that occurs more than once in a run is matched by its input
line (`meta.line`), then by order of occurrence. Only a compact entry per record is kept, so a
diff of large runs holds ids and categories, not whole results.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..models import AuditResult
from .aggregate import METRICS, UNVERIFIED, Aggregate, category
from .browse import Baseline
from ..signature import differences


@dataclass(frozen=True)
class Entry:
    id: str | None
    line: int | None
    category: str


@dataclass(frozen=True)
class Move:
    id: str | None
    line: int | None
    old: str
    new: str


@dataclass
class DiffResult:
    old: Aggregate
    new: Aggregate
    moves: list[Move]
    transitions: Counter
    only_old: list[Entry] = field(default_factory=list)
    only_new: list[Entry] = field(default_factory=list)

    @property
    def matched(self) -> int:
        return sum(self.transitions.values())

    @property
    def same_signature(self) -> bool:
        return self.old.signature_list() == self.new.signature_list()

    def deltas(self) -> list[tuple[str, float | None, float | None, float | None]]:
        """(metric, old mean, new mean, new - old) for every metric."""
        out = []
        for m in METRICS:
            a, b = self.old.mean(m), self.new.mean(m)
            out.append((m, a, b, None if a is None or b is None else b - a))
        return out

    def unverified_moves(self) -> list[Move]:
        """The records that changed between decided and unverified, either way."""
        return [m for m in self.moves if UNVERIFIED in (m.old, m.new) and "error" not in (m.old, m.new)]

    def baseline(self, name: str) -> Baseline:
        """What the HTML report of the new run shows of this diff."""
        moves = {(m.id, m.line): m.old for m in self.moves}
        return Baseline(name, self.same_signature, self.deltas(),
                        [(a, b, n) for (a, b), n in sorted(self.transitions.items())], moves,
                        {(e.id, e.line) for e in self.only_new}, len(self.only_old))

    def to_json_dict(self) -> dict:
        return {"old_signatures": self.old.signature_list(), "new_signatures": self.new.signature_list(),
                "matched": self.matched,
                "deltas": [{"metric": m, "old": a, "new": b, "delta": d} for m, a, b, d in self.deltas()],
                "moves": [vars(m) for m in self.moves],
                "only_old": [e.id for e in self.only_old], "only_new": [e.id for e in self.only_new],
                **self._unverified_json()}

    def _unverified_json(self) -> dict:
        # Only diffs that involve unverified records say so: the others keep their bytes.
        if not (self.old.unverified or self.new.unverified):
            return {}
        return {"unverified": {"old": self.old.unverified, "new": self.new.unverified},
                "unverified_moves": [vars(m) for m in self.unverified_moves()]}


def _index(results: Iterable[AuditResult], agg: Aggregate) -> dict[str | None, list[Entry]]:
    by_id: dict[str | None, list[Entry]] = {}
    for result in results:
        agg.add(result)
        by_id.setdefault(result.id, []).append(Entry(result.id, result.meta.line, category(result)))
    return by_id


def _pair(old: list[Entry], new: list[Entry]):
    """Pairs of one id's entries: alone with alone, else same line, else in order of occurrence."""
    if len(old) == 1 and len(new) == 1:
        return [(old[0], new[0])], [], []
    lines = {e.line: e for e in new if e.line is not None}
    pairs, rest_old = [], []
    for e in old:
        match = lines.pop(e.line, None) if e.line is not None else None
        (pairs.append((e, match)) if match else rest_old.append(e))
    used = {id(b) for _, b in pairs}
    rest_new = [e for e in new if id(e) not in used]
    k = min(len(rest_old), len(rest_new))
    pairs += list(zip(rest_old[:k], rest_new[:k]))
    return pairs, rest_old[k:], rest_new[k:]


def diff(old: Iterable[AuditResult], new: Iterable[AuditResult]) -> DiffResult:
    """Compare two runs; moves are listed in the new run's order."""
    old_agg, new_agg = Aggregate(), Aggregate()
    old_ids = _index(old, old_agg)
    new_ids = _index(new, new_agg)
    transitions: Counter[tuple[str, str]] = Counter()
    moves, only_old, only_new = [], [], []
    for key, entries in new_ids.items():
        pairs, lost, added = _pair(old_ids.get(key, []), entries)
        only_old += lost
        only_new += added
        for a, b in sorted(pairs, key=lambda ab: (ab[1].line or 0)):
            transitions[(a.category, b.category)] += 1
            if a.category != b.category:
                moves.append(Move(b.id, b.line, a.category, b.category))
    for key, entries in old_ids.items():
        if key not in new_ids:
            only_old += entries
    return DiffResult(old_agg, new_agg, moves, transitions, only_old, only_new)


def render(result: DiffResult):
    """Rich renderables: signatures, metric deltas, the transition table and every move."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    from ..inert import terminal

    def sigs(run) -> str:
        return terminal(" ; ".join(run.signature_list()))

    parts: list = []
    if not result.same_signature:
        old, new = result.old.signature_list(), result.new.signature_list()
        keys = f" ({terminal('; '.join(differences(old[0], new[0])))})" if len(old) == len(new) == 1 else ""
        parts.append(Text(f"signatures differ{keys}: deltas mix changed settings with changed answers\n"
                          f"  old: {sigs(result.old)}\n"
                          f"  new: {sigs(result.new)}", style="bold red"))
    else:
        parts.append(Text(f"signature: {sigs(result.new)}", style="dim"))
    deltas = Table(title=f"{result.matched} records matched", title_justify="left")
    for col in ("metric", "old", "new", "delta"):
        deltas.add_column(col, justify="left" if col == "metric" else "right")
    for m, a, b, d in result.deltas():
        deltas.add_row(m, *("-" if x is None else f"{x:.4f}" for x in (a, b)),
                       "-" if d is None else f"{d:+.4f}")
    parts.append(deltas)
    if result.old.unverified or result.new.unverified:
        changed = result.unverified_moves()
        parts.append(Text(f"unverified records (left out of the completeness and conciseness means): "
                          f"old {result.old.unverified}, new {result.new.unverified}; "
                          f"{len(changed)} changed between decided and unverified"
                          + "".join(f"\n  {terminal(str(m.id))}: {m.old} → {m.new}" for m in changed)))
    moved = Table(title=f"{len(result.moves)} records changed category", title_justify="left")
    for col in ("id", "line", "old", "new"):
        moved.add_column(col)
    for mv in result.moves:
        moved.add_row(*(Text(terminal(cell)) for cell in (mv.id, mv.line or "-", mv.old, mv.new)))
    parts.append(moved)
    if result.only_old or result.only_new:
        parts.append(Text(f"only in old: {len(result.only_old)}  only in new: {len(result.only_new)}"))
    return Group(*parts)
