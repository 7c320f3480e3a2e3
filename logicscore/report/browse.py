"""Every record of a run, packed for the HTML report's record browser.

Two payloads travel inside the page (docs/report-browser.md):

- the *rows*: one JSON object of columns (ids, category, question type, verdict, scores,
  signals, kept input fields, change against a baseline), parsed when the page opens, which
  the table filters, sorts and counts;
- the *details*: one JSON line per record, read only when a record is opened or searched.
  A line is `[searchable strings, details]`; the page finds a line by the lengths given in
  the rows, so it never parses the lines it does not show.

The JSON has `<`, `>` and `&` written as \\u escapes, so no record could end a <script>
element or open a comment even as plain text; in the page both payloads are gzipped and in
base64 (a fifth to a tenth of the JSON's size, parsed by the browser's own inflater), whose
alphabet holds neither.
"""

from __future__ import annotations

import base64
import gzip
import json
from dataclasses import dataclass, field
from typing import Any

from ..models import AuditResult
from .aggregate import category
from .failing import unverified_reason
from .chaingraph import gaps_of, layout

# `unverified` last, so the other categories keep the numbers the page has always used.
CATEGORIES = ("complete", "broken", "circular", "deviated", "error", "unverified")
VERDICTS = ("entailed", "contradicted", "underdetermined")
# Kept input fields shown as columns and filters: the first this many keys seen.
FIELDS = 12
# A kept value longer than this is cut in the table and its filter (in full in the record view,
# up to DETAIL_VALUE).
CELL_VALUE, DETAIL_VALUE = 120, 2000
FLAGS = (("negated", 1), ("hedged", 2), ("conclusion", 4))
ROLES = ("chain", "redundant", "no_proposition")


@dataclass
class Baseline:
    """What moved against an earlier run (built from the `diff` of the two runs)."""

    name: str
    same_signature: bool
    deltas: list[tuple[str, float | None, float | None, float | None]]
    transitions: list[tuple[str, str, int]]
    # (id, input line) of a record of this run → its category in the baseline
    moved: dict[tuple[str | None, int | None], str]
    only_new: set[tuple[str | None, int | None]]
    only_old: int


def script_json(value: Any) -> str:
    """`value` as compact JSON that is inert inside a <script> element."""
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: \u-escape everything instead
        text = json.dumps(value, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def packed(text: str) -> str:
    """`text` gzipped (no timestamp, so the same text gives the same bytes) and in base64,
    whose alphabet cannot end a <script> element."""
    return base64.b64encode(gzip.compress(text.encode("utf-8"), compresslevel=6, mtime=0)).decode("ascii")


def _units(text: str) -> int:
    # JavaScript indexes strings in UTF-16 code units.
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _kept(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True, ensure_ascii=False)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass
class RecordIndex:
    """Feed results with `add`; `rows()` and `details()` give the two payloads."""

    baseline: Baseline | None = None
    ids: list[str | None] = field(default_factory=list)
    cat: list[int] = field(default_factory=list)
    qtype: list[int] = field(default_factory=list)
    verdict: list[int] = field(default_factory=list)
    scores: list[list[float | None] | None] = field(default_factory=list)
    signals: list[list[int]] = field(default_factory=list)
    hops: list[int | None] = field(default_factory=list)
    signature: list[int] = field(default_factory=list)
    change: list[int] = field(default_factory=list)
    kept: dict[str, list[int]] = field(default_factory=dict)
    # vocabularies, in first-seen order
    qtypes: dict[str, int] = field(default_factory=dict)
    kinds: dict[str, int] = field(default_factory=dict)
    signatures: dict[str, int] = field(default_factory=dict)
    values: dict[str, dict[str, int]] = field(default_factory=dict)
    changes: dict[str, int] = field(default_factory=lambda: {"unchanged": 0, "new in this run": 1})
    lines: list[str] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)
    heads: list[int] = field(default_factory=list)

    def add(self, result: AuditResult) -> None:
        n = len(self.ids)
        kind = category(result)
        self.ids.append(result.id)
        self.cat.append(CATEGORIES.index(kind))
        self.qtype.append(self.qtypes.setdefault(result.question_type or "-", len(self.qtypes)))
        self.verdict.append(VERDICTS.index(result.determinateness) if result.determinateness else -1)
        s = result.scores
        self.scores.append(None if s is None else [s.completeness, round(s.conciseness, 4),
                                                   s.determinateness, round(s.partial_completeness, 4)])
        sigs = result.diagnosis.signals if result.diagnosis else []
        self.signals.append(sorted({self.kinds.setdefault(g.kind, len(self.kinds)) for g in sigs}))
        self.hops.append(result.meta.hops)
        self.signature.append(self.signatures.setdefault(result.meta.signature, len(self.signatures)))
        self.change.append(self._change(result, kind))
        record = result.meta.record
        for name in record:
            if name not in self.kept and len(self.kept) < FIELDS:
                self.kept[name] = [-1] * n
                self.values[name] = {}
        for name, column in self.kept.items():
            if name in record:
                vocab = self.values[name]
                column.append(vocab.setdefault(_cut(_kept(record[name]), CELL_VALUE), len(vocab)))
            else:
                column.append(-1)
        head, rest = _detail(result)
        head_json, line = script_json(head), script_json(rest)
        self.lines.append(f"[{head_json},{line}]")
        self.heads.append(_units(head_json))
        self.lengths.append(_units(self.lines[-1]))

    def _change(self, result: AuditResult, kind: str) -> int:
        if self.baseline is None:
            return 0
        key = (result.id, result.meta.line)
        if key in self.baseline.only_new:
            return 1
        old = self.baseline.moved.get(key)
        if old is None or old == kind:
            return 0
        return self.changes.setdefault(f"{old} → {kind}", len(self.changes))

    def rows(self) -> str:
        return packed(self.rows_json())

    def details(self) -> str:
        return packed(self.details_json())

    def rows_json(self) -> str:
        return script_json({
            "n": len(self.ids), "id": self.ids, "cat": self.cat, "qt": list(self.qtypes),
            "q": self.qtype, "v": self.verdict, "s": self.scores, "sg": self.signals,
            "kinds": list(self.kinds), "hops": self.hops, "sn": self.signature,
            "signatures": list(self.signatures),
            "fields": [[name, list(self.values[name]), col] for name, col in self.kept.items()],
            "chg": self.change if self.baseline else None, "changes": list(self.changes),
            "len": self.lengths, "head": self.heads})

    def details_json(self) -> str:
        return "\n".join(self.lines)


def _detail(result: AuditResult) -> tuple[list, dict[str, Any]]:
    """(the strings search reads, everything else the record view shows)."""
    with_text = [s for s in result.sentences if s.text is not None]
    props = result.propositions
    head: list = [result.id or "", result.question or "", result.answer or "", result.gold_answer or "",
                  [s.text or "" for s in result.sentences],
                  [] if with_text else [p.text for p in props]]
    rest: dict[str, Any] = {"line": result.meta.line}
    if result.error is not None or result.diagnosis is None:
        err = result.error
        rest["err"] = [err.type, err.message] if err else ["RuntimeError", "no diagnosis"]
    kept = result.meta.record
    if kept:
        rest["k"] = [[k, _cut(_kept(v), DETAIL_VALUE)] for k, v in kept.items()]
    if result.diagnosis is None:
        return head, rest
    diag = result.diagnosis
    chain, redundant = set(result.chain), set(diag.redundant)
    rest["qe"] = [[q.name, int(q.anchor), int(q.reached)] for q in result.question_entities]
    rest["ae"] = result.answer_entity
    rest["sen"] = [[ROLES.index(s.role), s.propositions] for s in result.sentences]
    rest["p"] = [[p.id, p.subject, p.relation, p.object, p.sentence,
                  sum(bit for name, bit in FLAGS if getattr(p, name)),
                  2 if p.id in chain else 1 if p.id in redundant else 0, p.citations] for p in props]
    rest["chain"] = result.chain
    if result.alternatives:
        rest["alt"] = result.alternatives
    rest["gap"] = [[g.from_, g.to] for g in gaps_of(result)]
    rest["absent"] = int(diag.answer_absent)
    rest["sig"] = [[g.kind, g.severity, g.message] for g in diag.signals]
    undecided = unverified_reason(result)
    if undecided is not None:
        rest["unv"] = undecided
    if result.sides:
        rest["sides"] = [[s.name, int(s.established), s.values, s.propositions, int(s.negated)]
                         for s in result.sides]
    if result.grounding is not None:
        from ..pipeline.ground import describe

        by_id = {p.id: p for p in props}
        rest["ground"] = [[row.status, describe(row, by_id.get(row.proposition)), row.citations,
                           row.supported_by] for row in result.grounding]
        if result.scores is not None:
            rest["grounded"] = result.scores.grounded_chain
    if result.hops is not None:
        hc = result.hops
        rest["hops"] = [hc.stage, [[h.index, h.asks, h.input, h.result, int(h.stated), h.check, h.sentence, h.why]
                                   for h in hc.hops],
                        None if hc.answer_follows is None else int(hc.answer_follows),
                        int(hc.anchors_written), int(hc.complete)]
    rest["g"] = layout(result)
    return head, rest
