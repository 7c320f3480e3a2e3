"""Comparison and yes/no questions measured by type (docs/metrics.md).

The comparison family (2Wiki `comparison` and `bridge_comparison`, HotpotQA `comparison`
and its yes/no answers) gets two kinds of case from the gold sentences: the gold answer
(complete) and the gold answer with one side's evidence removed, every hop whose paragraph
is that compared entity's (incomplete, the gap naming that side). Measured: the question
type read, completeness of each kind, and whether the gap names the removed side.
"""

from __future__ import annotations

from logicscore import AuditResult
from logicscore.formats.text import contains, display_title, norm

from .cases import Case, Item, _case

# (dataset, harness question type): the types whose questions compare named sides.
FAMILY = frozenset({
    ("2wikimultihopqa", "comparison"), ("2wikimultihopqa", "bridge_comparison"),
    ("hotpotqa", "comparison"), ("hotpotqa", "yes/no"),
})
SIDED = frozenset({"comparison", "yesno"})
SIDE_REMOVED = "side_removed"


def in_family(item: Item) -> bool:
    return (item.dataset, item.qtype) in FAMILY


def sides(item: Item) -> list[str]:
    """The hop titles the question names: the compared entities, in hop order."""
    return list(dict.fromkeys(h.title for h in item.hops
                              if contains(item.question, display_title(h.title))))


def side_cases(item: Item) -> list[tuple[Case, str | None]]:
    """The gold case, and one case without the first side's hops (when two sides are named);
    each with the side whose evidence is missing (None for gold)."""
    gold = _case(item, "gold", item.gold_lines())
    out: list[tuple[Case, str | None]] = [(gold, None)]
    named = sides(item)
    if len(named) >= 2:
        side = named[0]
        kept = [line for hop in item.hops if hop.title != side for line in hop.lines]
        case = _case(item, SIDE_REMOVED, kept)
        out.append((case, display_title(side)))
    return out


def _names_side(result: AuditResult, side: str) -> bool:
    gap = result.diagnosis.gap if result.diagnosis else None
    if gap is None:
        return False
    wanted = norm(side)
    for text in (gap.anchor, gap.from_):
        got = norm(text or "")
        if got and (got in wanted or wanted in got):
            return True
    return False


def _share(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


def summarize(rows: list[tuple[Case, str | None, AuditResult]]) -> dict:
    """Counts and shares per dataset and overall: type match, gold complete, side removed
    incomplete, gap naming the removed side."""
    out: dict[str, dict] = {}
    for scope in sorted({c.dataset for c, _, _ in rows}) + ["all"]:
        sel = [(c, s, r) for c, s, r in rows if scope in ("all", c.dataset)]
        gold = [r for c, s, r in sel if s is None and r.status == "ok"]
        removed = [(s, r) for c, s, r in sel if s is not None and r.status == "ok"]
        typed = sum(r.question_type in SIDED for r in gold)
        complete = sum(r.scores is not None and r.scores.completeness == 1 for r in gold)
        missing = [(s, r) for s, r in removed if r.scores is not None and r.scores.completeness == 0]
        named = sum(_names_side(r, s) for s, r in missing)
        out[scope] = {
            "items": len(gold), "side_removed_cases": len(removed),
            "errors": sum(r.status != "ok" for _, _, r in sel),
            "type_match": _share(typed, len(gold)),
            "gold_complete": _share(complete, len(gold)),
            "side_removed_incomplete": _share(len(missing), len(removed)),
            "gap_names_side": _share(named, len(missing)),
        }
    return out


def misses(rows: list[tuple[Case, str | None, AuditResult]], limit: int = 5) -> list[dict]:
    """A few misses of each kind, for reading."""
    out: list[dict] = []
    for case, side, r in rows:
        if r.status != "ok" or r.scores is None:
            continue
        if side is None and r.scores.completeness == 1 and r.question_type in SIDED:
            continue
        if side is not None and r.scores.completeness == 0 and _names_side(r, side):
            continue
        gap = r.diagnosis.gap if r.diagnosis else None
        out.append({"id": case.id, "question": case.question, "answer": case.answer,
                    "type": r.question_type, "removed": side, "complete": r.scores.completeness,
                    "gap": gap.anchor if gap else None,
                    "sides": [(s.name, s.established, s.values[:2]) for s in r.sides]})
    kinds: dict[str, int] = {}
    picked = []
    for row in out:
        key = "gold" if row["removed"] is None else SIDE_REMOVED
        if kinds.get(key, 0) < limit:
            kinds[key] = kinds.get(key, 0) + 1
            picked.append(row)
    return picked
