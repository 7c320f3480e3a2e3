"""The hop step (docs/architecture.md, "The stage flow"): the hop stage reads the question's hops
and the completeness verdict is decided from them: offline (`rules`) only what the text shows,
with `--escalate` the model's hop check for what it leaves unverified; otherwise from the hops
and anchors (`llm`, `given`)."""

from __future__ import annotations

from ..formats.conclusion import sentence_spans
from ..models import CompletenessVerdict
from ..pipeline.flow import Draft, HopReader
from ..pipeline.offline import decide as decide_offline
from ..pipeline.hops.verdict import decide as decide_by_hops


def check_hops(hop_stage: HopReader, escalation: HopReader | None, draft: Draft) -> None:
    """Set the draft's hops, hop check and completed analysis."""
    assert draft.extraction is not None
    spans = sorted(draft.extraction.sentences or []) or sentence_spans(draft.record.long_answer)
    draft.hops = hop_stage.read_hops(draft.record, draft.linked, draft.reading, spans)
    if getattr(hop_stage, "offline", False):  # decides only what the text shows
        chain = draft.completed
        draft.completed, draft.hop_check = decide_offline(
            chain, draft.hops, draft.linked, draft.reading, draft.record, spans,
            abstained=draft.abstained)
        if escalation is not None and draft.completed.result.undecided:
            # What the rules cannot tell, the model's hop check decides (one call).
            draft.hops = escalation.read_hops(draft.record, draft.linked, draft.reading, spans)
            draft.completed, draft.hop_check = decide_by_hops(
                chain, draft.hops, draft.linked, draft.reading, draft.record.question,
                draft.record.long_answer, abstained=draft.abstained)
    else:
        draft.completed, draft.hop_check = decide_by_hops(
            draft.completed, draft.hops, draft.linked, draft.reading, draft.record.question,
            draft.record.long_answer, abstained=draft.abstained)


def verdict_of(completeness: int | None) -> CompletenessVerdict:
    """The three-way completeness verdict of a run with a hop stage (docs/metrics.md)."""
    return "unverified" if completeness is None else "complete" if completeness else "incomplete"
