"""Measure the auditor on labelled real answers, the second kind of gold `bench` reads (docs/measurements.md).

    records, _ = bench.load(open("answers.jsonl", "rb"))   # records carry label_completeness
    report = labelled.run(records, Auditor(extractor="rules", timing=False))

A labelled record is an input record plus `label_*` fields written by a person reading the
long answer: `label_completeness` (complete / incomplete / ambiguous) and, when present,
`label_question_type`. Labels are stripped before the auditor sees a record. Measured:
recall on complete, specificity on incomplete, balanced accuracy, overall and per question
type; ambiguous records are counted apart; an errored result is a wrong prediction. Beside
them, each labelled-complete answer loses a body sentence (with the sentences that restate
its names, `perturb.build.drop_body`) and, where that "incomplete" label is sound, the share
the auditor flags incomplete.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..models import AuditResult, QARecord
from .perturb import build

__all__ = ["LABEL", "LabelledReport", "is_labelled", "label_problem", "strip_labels", "run",
           "measure", "removal", "answer_mentioned", "names_mentioned", "render", "render_markdown"]

LABEL = "label_completeness"
TYPE = "label_question_type"
LABELS = ("complete", "incomplete", "ambiguous")
_PREFIX = "label_"
_INPUT_FIELDS = frozenset(QARecord.model_fields) - {"meta", "gold_answer"}


def is_labelled(record: Any) -> bool:
    """A record of this kind names its completeness label at the top level."""
    return isinstance(record, dict) and LABEL in record


def label_problem(record: dict) -> str | None:
    """Why `record` is not a usable labelled record (None when it is one)."""
    for name in ("question", "answer", "long_answer"):
        if not isinstance(record.get(name), str):
            return f"{name} must be a string"
    if record.get(LABEL) not in LABELS:
        return f"{LABEL} must be one of {', '.join(LABELS)}"
    if record.get(TYPE) is not None and not isinstance(record.get(TYPE), str):
        return f"{TYPE} must be a string"
    if record.get("meta") is not None and not isinstance(record.get("meta"), dict):
        return "meta must be an object"
    return None


def strip_labels(record: dict) -> QARecord:
    """The auditor's input: every `label_*` field dropped, and the gold short answer too (it is
    a label as much as the completeness is); fields an input record does not know go to meta."""
    meta = dict(record.get("meta") or {})
    fields: dict[str, Any] = {}
    for name, value in record.items():
        if name.startswith(_PREFIX) or name in ("meta", "gold_answer"):
            continue
        if name in _INPUT_FIELDS:
            fields[name] = value
        else:
            meta[name] = value
    fields.setdefault("id", str(record.get("id", "")))
    return QARecord(**fields, meta=meta)


# -- baselines ---------------------------------------------------------------------------

def answer_mentioned(record: dict) -> bool:
    """Complete iff the short answer (without a final period) is written in the long answer."""
    return record["answer"].casefold().strip(" .") in record["long_answer"].casefold()


_CAPITALISED = re.compile(r"\b[A-Z][\w'-]*")


def names_mentioned(record: dict) -> bool:
    """Complete iff every capitalised word of the question is written in the long answer, and
    the answer is. The question's first capitalised word is skipped: it is the wh-word or is
    capitalised only by its position."""
    text = record["long_answer"].casefold()
    words = _CAPITALISED.findall(record["question"])[1:]
    return all(w.casefold() in text for w in words) and answer_mentioned(record)


BASELINES = {"answer_mentioned": answer_mentioned, "names_mentioned": names_mentioned}


# -- measures ----------------------------------------------------------------------------

def _ratio(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


def measure(pairs: list[tuple[bool, bool | None]]) -> dict[str, Any]:
    """Two numbers per source (issue 40): the share of records decided, and recall on
    complete, specificity on incomplete and their mean over the decided ones, for (gold
    complete, predicted complete) pairs. A None prediction (unverified) is undecided: it
    lowers `decided_share`, never the accuracy."""
    pos = [p for g, p in pairs if g and p is not None]
    neg = [p for g, p in pairs if not g and p is not None]
    tp, tn = sum(p is True for p in pos), sum(p is False for p in neg)
    recall, specificity = _ratio(tp, len(pos)), _ratio(tn, len(neg))
    balanced = None if recall is None or specificity is None else round((recall + specificity) / 2, 4)
    return {"n": len(pairs), "complete": sum(g for g, _ in pairs), "incomplete": sum(not g for g, _ in pairs),
            "recall": recall, "recall_hits": tp, "specificity": specificity,
            "specificity_hits": tn,
            "balanced_accuracy": balanced,
            "decided_share": _ratio(len(pos) + len(neg), len(pairs))}


def _sliced(records: list[dict], predicted: list[bool | str | None]) -> dict[str, Any]:
    """`measure` over the labelled records, overall and per question type (sorted). An errored
    prediction is wrong whatever the label; an unverified one (None) is undecided."""
    labelled = [(r, p) for r, p in zip(records, predicted) if r[LABEL] != "ambiguous"]

    def pairs(rows):
        return [(r[LABEL] == "complete", r[LABEL] != "complete" if p == ERRORED else p) for r, p in rows]

    out = {"all": measure(pairs(labelled))}
    for kind in sorted({r[TYPE] for r, _ in labelled if isinstance(r.get(TYPE), str)}):
        out[kind] = measure(pairs([(r, p) for r, p in labelled if r.get(TYPE) == kind]))
    return out


ERRORED = "errored"


def _predicted(result: AuditResult | dict) -> bool | str | None:
    """Complete or not; `ERRORED` for an errored record, None for an unverified one."""
    if isinstance(result, dict):
        result = AuditResult.model_validate(result)
    if result.status != "ok" or result.scores is None:
        return ERRORED
    if result.scores.completeness is None:
        return None
    return bool(result.scores.completeness)


@dataclass
class LabelledReport:
    auditor: dict[str, Any]
    baselines: dict[str, dict[str, Any]]
    n: int
    ambiguous: int
    errors: int = 0
    signature: str | None = None
    rejected: list[Any] = field(default_factory=list)
    # Body sentence removed from labelled-complete answers: per question type, and discards.
    removal: dict[str, Any] | None = None

    def to_json_dict(self) -> dict[str, Any]:
        skipped = {"input_errors": [r.to_json_dict() for r in self.rejected]} if self.rejected else {}
        removal = {"body_sentence_removed": self.removal} if self.removal is not None else {}
        return {"kind": "labelled", "n": self.n, "ambiguous": self.ambiguous, "errors": self.errors,
                "signature": self.signature, "by_question_type": self.auditor,
                "baselines": self.baselines, **removal, **skipped}


def _flagged(rows: list[tuple[build.Perturbation, bool]]) -> dict[str, Any]:
    sound = [hit for copy, hit in rows if copy.sound]
    return {"built": sum(copy.record is not None for copy, _ in rows), "sound": len(sound),
            "flagged": sum(sound), "share": _ratio(sum(sound), len(sound))}


def removal(records: list[dict], auditor: Any) -> dict[str, Any]:
    """Each labelled-complete answer with a body sentence removed (`build.drop_body`); where
    the "incomplete" label is sound, whether the auditor flags it incomplete (an errored
    result is not flagged). Per question type, with why copies were not used."""
    bases = [r for r in records if r[LABEL] == "complete"]
    copies = [build.drop_body(build.Answer.of(strip_labels(r))) for r in bases]
    audited = iter(auditor.audit_many(c.record for c in copies if c.sound and c.record))
    hits = [c.sound and _predicted(next(audited)) is False for c in copies]
    rows = list(zip(copies, hits))
    out: dict[str, Any] = {"all": _flagged(rows)}
    for kind in sorted({r[TYPE] for r in bases if isinstance(r.get(TYPE), str)}):
        out[kind] = _flagged([row for r, row in zip(bases, rows) if r.get(TYPE) == kind])
    out["discarded"] = dict(sorted(Counter(c.discard for c in copies
                                           if c.record is not None and c.discard).items()))
    out["not_built"] = dict(sorted(Counter(c.discard for c in copies if c.record is None).items()))
    return out


def run(records: list[dict], auditor: Any = None, *,
        results: Iterable[AuditResult | dict] | None = None,
        rejected: Iterable[Any] = ()) -> LabelledReport:
    """Audit labelled `records` (or take precomputed `results`, aligned) and measure them.

    Args:
        records: labelled records (`is_labelled`); labels are stripped before auditing.
        auditor: anything with `audit_many(Iterable[QARecord])`.
        results: predictions already made, one per record in order.
        rejected: the lines `bench.load` could not use, reported beside the measures.
    """
    records = list(records)
    if results is None:
        if auditor is None:
            raise ValueError("labelled.run needs an auditor or precomputed results")
        results = auditor.audit_many(strip_labels(r) for r in records)
    predicted = [_predicted(r) for r in results]
    if len(predicted) != len(records):
        raise ValueError(f"{len(predicted)} results for {len(records)} records")
    baselines = {name: _sliced(records, [fn(r) for r in records]) for name, fn in BASELINES.items()}
    return LabelledReport(_sliced(records, predicted), baselines, len(records),
                          sum(r[LABEL] == "ambiguous" for r in records),
                          sum(p == ERRORED for p in predicted),
                          getattr(auditor, "signature", None) if auditor is not None else None,
                          list(rejected), removal(records, auditor) if auditor is not None else None)


# -- rendering ---------------------------------------------------------------------------

_COLUMNS = ("recall", "specificity", "balanced_accuracy")


def _cell(row: dict[str, Any], key: str) -> str:
    value = row.get(key)
    if value is None:
        return "—"
    if row.get("decided_share", 1.0) != 1.0 and key in ("recall", "specificity"):
        return f"{value:.3f}"  # over the decided records: the counts below would mislead
    if key == "recall":
        return f"{value:.3f} ({row['recall_hits']}/{row['complete']})"
    if key == "specificity":
        return f"{value:.3f} ({row['specificity_hits']}/{row['incomplete']})"
    if key == "decided_share":
        return f"{value:.3f}" if value < 1 else "all"
    return f"{value:.3f}"


def _columns(report: LabelledReport) -> tuple[str, ...]:
    """The measures shown; the decided share only when some prediction was undecided, so
    tables of runs that decide every record keep their bytes."""
    undecided = any(row.get("decided_share") not in (None, 1.0) for row in report.auditor.values())
    return (*_COLUMNS, "decided_share") if undecided else _COLUMNS


def _rows(report: LabelledReport) -> list[tuple[str, str, dict[str, Any]]]:
    rows = []
    for kind, row in report.auditor.items():
        rows.append((kind, "logicscore", row))
        rows += [("", name, base[kind]) for name, base in report.baselines.items()]
    return rows


def _footer(report: LabelledReport) -> str:
    text = (f"{report.n} labelled answers, {report.ambiguous} ambiguous (left out), "
            f"{report.errors} errored; signature `{report.signature}`")
    if report.rejected:
        text += f"\n{len(report.rejected)} lines left out; first: {report.rejected[0].error.message}"
    return text


def _removal_rows(report: LabelledReport) -> list[tuple[str, str, str]]:
    rows = []
    for kind, row in (report.removal or {}).items():
        if kind not in ("discarded", "not_built"):
            share = "—" if row["share"] is None else f"{row['share']:.3f} ({row['flagged']}/{row['sound']})"
            rows.append((kind, share, f"{row['sound']}/{row['built']}"))
    return rows


def _discards(report: LabelledReport) -> str:
    removal = report.removal or {}
    said = [f"{what}: " + ("; ".join(f"{why} ({n})" for why, n in removal.get(key, {}).items()) or "none")
            for what, key in (("discarded, label not sound", "discarded"), ("not built", "not_built"))]
    return "; ".join(said)


def render_markdown(report: LabelledReport) -> str:
    """Per question type: the auditor's measures with the baselines beneath, as markdown."""
    columns = _columns(report)
    decided = " | decided share |" if len(columns) > len(_COLUMNS) else " |"
    lines = ["| question type | predictor | recall on complete | specificity on incomplete "
             "| balanced accuracy" + decided, "|---|---|---:|---:|---:|" + "---:|" * (len(columns) - 3)]
    for kind, name, row in _rows(report):
        bold = "**" if name == "logicscore" else ""
        lines.append(f"| {kind} | {bold}{name}{bold} | "
                     + " | ".join(_cell(row, k) for k in columns) + " |")
    if report.removal is not None:
        lines += ["", "| question type | body sentence removed → flagged incomplete | sound / built |",
                  "|---|---:|---:|"]
        lines += [f"| {kind} | {share} | {kept} |" for kind, share, kept in _removal_rows(report)]
        lines += ["", f"Body sentence removal {_discards(report)}"]
    return "\n".join([*lines, "", _footer(report)])


def render(report: LabelledReport):
    """The same table for a terminal (rich)."""
    from rich.console import Group
    from rich.table import Table

    table = Table(title="logicscore bench (labelled answers)", caption=_footer(report))
    columns = _columns(report)
    for col in ("question type", "predictor", *columns):
        table.add_column(col, justify="right" if col in columns else "left")
    for kind, name, row in _rows(report):
        table.add_row(kind, name, *(_cell(row, k) for k in columns),
                      style="bold" if name == "logicscore" else None)
    if report.removal is None:
        return table
    removed = Table(title="body sentence removed (labelled-complete answers)",
                    caption=_discards(report))
    for col in ("question type", "flagged incomplete", "sound / built"):
        removed.add_column(col, justify="left" if col == "question type" else "right")
    for row3 in _removal_rows(report):
        removed.add_row(*row3)
    return Group(table, removed)
