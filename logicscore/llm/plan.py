"""`--estimate`: the calls and input tokens a run would make, counted without making them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .endpoint import estimate as _estimate


def estimate(auditor: Any, items: Iterable[Any]) -> dict[str, int]:
    """What auditing `items` (records or `io.InputLine`s) would cost on `auditor`'s endpoint.

    Returns:
        records (readable ones), requests (LLM calls the run needs), cached (answered from
        the cache), calls (left to make; a retry or a repair adds to it) and input_tokens
        (of those calls, at about 4 characters per token). With the LLM grounder, also
        grounding_calls_at_most: a grounding request holds the record's chain, known only once
        the record is audited, so the grounder's calls are bounded, not counted: at most one
        per record with documents (none for a record whose chain cites no document).
    """
    records = []
    for item in items:
        record = getattr(item, "record", item)
        if record is not None:
            records.append(record)
    # The hop stage's call (`--hops llm`) is one per record, as the extractor's and judge's are.
    stages: list[Any] = [s for s in (auditor.extractor, auditor.judge, getattr(auditor, "hop_stage", None))
                         if hasattr(s, "request")]
    requests = [stage.request(r) for stage in stages for r in records]
    plan = {"records": len(records), **_estimate(auditor.llm, requests)}
    if hasattr(getattr(auditor, "grounder", None), "grounding_request"):
        plan["grounding_calls_at_most"] = sum(1 for r in records if r.documents is not None)
    return plan
