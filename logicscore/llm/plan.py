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
        (of those calls, at about 4 characters per token).
    """
    records = []
    for item in items:
        record = getattr(item, "record", item)
        if record is not None:
            records.append(record)
    stages = [s for s in (auditor.extractor, auditor.judge) if hasattr(s, "request")]
    requests = [stage.request(r) for stage in stages for r in records]
    return {"records": len(records), **_estimate(auditor.llm, requests)}
