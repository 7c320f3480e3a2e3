"""Measuring the auditor on real multi-hop QA data (docs/measurements.md; run by `scripts/eval_real.py`,
cases written for `logicscore bench` by `scripts/real_cases.py`).

    from benchmarks.realdata import evaluate, locate_data
    report = evaluate(locate_data(), ["2wiki"], limit=50)

`datasets` reads the records into items, `cases` builds labelled long answers from them,
`measure` audits and summarizes, `diagnose` names failure causes, `render` draws tables.
Heavy imports (spaCy through the Auditor, rich) happen only when used.
"""

from __future__ import annotations

from .cases import KINDS, LABELS, Case, Hop, Item, Line, make_cases
from .datasets import DATASETS, DataNotFound, load_items, locate_data, resolve_name
from .measure import TARGETS, evaluate

__all__ = [
    "DATASETS", "KINDS", "LABELS", "TARGETS", "Case", "DataNotFound", "Hop", "Item", "Line",
    "evaluate", "load_items", "locate_data", "make_cases", "resolve_name",
]
