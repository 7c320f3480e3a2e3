"""How often the completeness verdict flips when a labelled answer is restyled (docs/styles.md).

    records, _ = bench.load(open("answers.jsonl", "rb"))   # labelled answers
    report = invariance.run(records, Auditor(timing=False), seed=0)

Each decided labelled answer (complete or incomplete; ambiguous ones are left out) is
rewritten by every transform of `perturb.styles`; a rewrite states what the original
states, so it keeps the original's label. The auditor reads the original and each built
rewrite. Measured, per transform, per group (all, each source, each source's model and
dataset) and per label: on labelled-complete answers, the share of rewrites whose verdict
differs from the original's (a flip either way); on labelled-incomplete ones, the share of
rewrites that became complete where the original was not. Rewrites not built are counted
by reason, never dropped. An errored audit of a rewrite counts as a flip.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from . import labelled
from ..models import AuditResult
from .perturb import styles

__all__ = ["StyleReport", "run", "groups", "render", "render_markdown", "ALL", "ALL_TRANSFORMS"]

ALL = "all"
ALL_TRANSFORMS = "all transforms"
_LABELS = ("complete", "incomplete")


def groups(record: dict) -> list[str]:
    """The groups a record is counted in: all, its source (the id's prefix before ":"),
    its source's model and dataset when the record names them."""
    rid = str(record.get("id", ""))
    source = rid.split(":", 1)[0] if ":" in rid else "unnamed"
    out = [ALL, source]
    for name in ("model", "dataset"):
        if isinstance(record.get(name), str) and record[name]:
            out.append(f"{source} / {record[name]}")
    return out


@dataclass
class _Cell:
    n: int = 0            # labelled answers of this label in the group
    rewritten: int = 0    # rewrites built and audited
    flips: int = 0        # verdict differs from the original's (errors included)
    became_complete: int = 0
    skipped: Counter = field(default_factory=Counter)

    def to_json_dict(self, label: str) -> dict[str, Any]:
        out: dict[str, Any] = {
            "n": self.n, "rewritten": self.rewritten, "skipped": sum(self.skipped.values()),
            "flips": self.flips, "flip_rate": _ratio(self.flips, self.rewritten)}
        if label == "incomplete":
            out["became_complete"] = self.became_complete
            out["became_complete_rate"] = _ratio(self.became_complete, self.rewritten)
        out["skipped_by_reason"] = dict(sorted(self.skipped.items()))
        return out


def _ratio(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


@dataclass
class StyleReport:
    """Per transform ("all transforms" first), group and label: counts and rates."""

    table: dict[str, dict[str, dict[str, dict[str, Any]]]]
    flipped: list[dict[str, Any]]
    n: int
    ambiguous: int
    seed: int
    errors: int = 0
    signature: str | None = None
    rejected: list[Any] = field(default_factory=list)

    def to_json_dict(self) -> dict[str, Any]:
        skipped = {"input_errors": [r.to_json_dict() for r in self.rejected]} if self.rejected else {}
        return {"kind": "styles", "n": self.n, "ambiguous": self.ambiguous, "seed": self.seed,
                "errors": self.errors, "signature": self.signature,
                "transforms": list(styles.TRANSFORMS), "by_transform": self.table,
                "flipped": self.flipped, **skipped}

    def headline(self) -> dict[str, float | None]:
        """The two figures with a target: complete answers' flip rate, incomplete answers'
        became-complete rate, over all transforms and groups."""
        row = self.table[ALL_TRANSFORMS][ALL]
        return {"complete_flip_rate": row["complete"]["flip_rate"],
                "incomplete_became_complete_rate": row["incomplete"]["became_complete_rate"]}


def _verdict(result: AuditResult | dict) -> bool | str | None:
    """True or False for a decided record, "unverified" for one the offline verdict left
    undecided (a move to or from it is a flip too), None for an error."""
    if isinstance(result, dict):
        result = AuditResult.model_validate(result)
    if result.status != "ok" or result.scores is None:
        return None
    if result.scores.completeness is None:
        return "unverified"
    return bool(result.scores.completeness)


def run(records: Iterable[dict], auditor: Any, *, seed: int = 0,
        transforms: tuple[str, ...] | None = None, rejected: Iterable[Any] = ()) -> StyleReport:
    """Restyle each decided labelled record, audit originals and rewrites, count flips.

    Args:
        records: labelled records (`labelled.is_labelled`); labels are stripped first.
        auditor: anything with `audit_many(Iterable[QARecord])`.
        seed: picks phrasings and places; the same seed gives the same rewrites.
        transforms: names from `perturb.styles.TRANSFORMS` (default: all, in that order).
        rejected: the lines `bench.load` could not use, reported beside the figures.
    """
    names = tuple(transforms or styles.TRANSFORMS)
    unknown = [t for t in names if t not in styles.TRANSFORMS]
    if unknown:
        raise ValueError(f"unknown transform(s) {', '.join(unknown)}; known: {', '.join(styles.TRANSFORMS)}")
    records = list(records)
    decided = [r for r in records if r[labelled.LABEL] in _LABELS]
    inputs = [labelled.strip_labels(r) for r in decided]
    rewrites = [styles.restyle(record, seed, names) for record in inputs]
    built = [w.record for copies in rewrites for w in copies if w.record is not None]
    results = list(auditor.audit_many([*inputs, *built]))
    if len(results) != len(inputs) + len(built):
        raise ValueError(f"{len(results)} results for {len(inputs) + len(built)} records")
    before = [_verdict(r) for r in results[:len(inputs)]]
    after = iter(_verdict(r) for r in results[len(inputs):])

    cells: dict[tuple[str, str, str], _Cell] = {}

    def cell(transform: str, group: str, label: str) -> _Cell:
        return cells.setdefault((transform, group, label), _Cell())

    flipped: list[dict[str, Any]] = []
    errors = sum(v is None for v in before)
    for record, was, copies in zip(decided, before, rewrites):
        label = record[labelled.LABEL]
        keys = groups(record)
        for copy in copies:
            now = next(after) if copy.record is not None else None
            errors += copy.record is not None and now is None
            flip = copy.record is not None and (now is None or now != was)
            if flip:
                flipped.append({"id": str(record.get("id", "")), "transform": copy.transform,
                                "label": label, "before": was, "after": now,
                                "long_answer": copy.record.long_answer if copy.record else None})
            for transform in (ALL_TRANSFORMS, copy.transform):
                for group in keys:
                    c = cell(transform, group, label)
                    if copy.record is None:
                        c.skipped[f"{copy.transform}: {copy.skip}" if transform == ALL_TRANSFORMS
                                  else copy.skip] += 1
                        continue
                    c.rewritten += 1
                    c.flips += flip
                    c.became_complete += was is not True and was is not None and now is True
        for transform in (ALL_TRANSFORMS, *names):
            for group in keys:
                cell(transform, group, label).n += 1

    group_order = list(dict.fromkeys(g for r in decided for g in groups(r)))
    group_order = [ALL, *sorted(g for g in group_order if g != ALL)]
    table = {t: {g: {lab: cells.get((t, g, lab), _Cell()).to_json_dict(lab) for lab in _LABELS}
                 for g in group_order if any((t, g, lab) in cells for lab in _LABELS)}
             for t in (ALL_TRANSFORMS, *names)}
    return StyleReport(table, flipped, len(records),
                       sum(r[labelled.LABEL] == "ambiguous" for r in records), seed, errors,
                       getattr(auditor, "signature", None), list(rejected))


# -- rendering ---------------------------------------------------------------------------

def _pct(num: int, den: int) -> str:
    return "—" if not den else f"{100 * num / den:.1f}% ({num}/{den})"


def _rows(report: StyleReport) -> list[tuple[str, str, str, str, str, str]]:
    """transform, group, n complete, complete flips, n incomplete, became complete."""
    rows = []
    for transform, by_group in report.table.items():
        for group, row in by_group.items():
            com, inc = row["complete"], row["incomplete"]
            rows.append((transform, group,
                         f"{com['n']} ({com['skipped']} skipped)", _pct(com["flips"], com["rewritten"]),
                         f"{inc['n']} ({inc['skipped']} skipped)",
                         _pct(inc["became_complete"], inc["rewritten"])))
    return rows


_HEADERS = ("transform", "group", "complete: n", "complete: flipped",
            "incomplete: n", "incomplete: became complete")


def _footer(report: StyleReport) -> str:
    head = report.headline()
    text = (f"{report.n} labelled answers, {report.ambiguous} ambiguous (left out), seed {report.seed}, "
            f"{report.errors} errored audits; targets: ≤ 3% of complete rewrites flip "
            f"(now {_rate(head['complete_flip_rate'])}), ≤ 3% of incomplete rewrites become complete "
            f"(now {_rate(head['incomplete_became_complete_rate'])}); signature `{report.signature}`")
    if report.rejected:
        text += f"\n{len(report.rejected)} lines left out; first: {report.rejected[0].error.message}"
    return text


def _rate(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f}%"


def render_markdown(report: StyleReport) -> str:
    """The transform × group × label table as markdown, with the skip reasons beneath."""
    lines = ["| " + " | ".join(_HEADERS) + " |", "|---|---|---:|---:|---:|---:|"]
    lines += ["| " + " | ".join(row) + " |" for row in _rows(report)]
    lines += ["", "| transform | skipped (all groups) | reason |", "|---|---:|---|"]
    for transform, by_group in report.table.items():
        if transform == ALL_TRANSFORMS:
            continue
        reasons: Counter = Counter()
        for lab in _LABELS:
            reasons.update(by_group.get(ALL, {}).get(lab, {}).get("skipped_by_reason", {}))
        lines += [f"| {transform} | {n} | {why} |" for why, n in sorted(reasons.items())]
    return "\n".join([*lines, "", _footer(report)])


def render(report: StyleReport):
    """The same table for a terminal (rich)."""
    from rich.table import Table

    table = Table(title="logicscore bench --styles (verdict flips on restyled answers)",
                  caption=_footer(report))
    for col in _HEADERS:
        table.add_column(col, justify="left" if col in ("transform", "group") else "right")
    last = None
    for row in _rows(report):
        table.add_row(row[0] if row[0] != last else "", *row[1:],
                      style="bold" if row[1] == ALL else None)
        last = row[0]
    return table
