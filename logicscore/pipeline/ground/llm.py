"""The `llm` grounder: one entailment call per answer for all its cited chain hops.

The call sees each hop (its triple, its sentence, the ids it cites) and only the documents
cited; it returns, per hop, the cited documents that state it. An id the hop does not cite
is dropped from the reply, so the model cannot ground a hop in a document it never cited.
Hops that cite nothing, or only ids no document has, are decided without a call.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from ..flow import Chain, Linked
from ...errors import LogicscoreError
from ...llm.endpoint import Endpoint, Request
from ...llm.prompts import delimit
from ...llm.stage import PromptedStage
from ...models import HopGrounding, QARecord
from . import ChainLink, chain_hops, status


class HopSupport(BaseModel):
    model_config = ConfigDict(extra="forbid")

    hop: int
    supported_by: list[str] = Field(default_factory=list)


class Support(BaseModel):
    """The reply of the grounding call."""

    model_config = ConfigDict(extra="forbid")

    hops: list[HopSupport]


class LLMGrounder(PromptedStage):
    """Chain hops against their cited documents, judged by the model in one call."""

    name: ClassVar[str] = "llm"
    requires: ClassVar[tuple[str, ...]] = ("llm",)

    class Config(BaseModel):
        model_config = ConfigDict(extra="forbid")
        prompt: str = Field("ground.v1.md", description="prompt file in prompts/")

    def __init__(self, config: LLMGrounder.Config | None = None, llm: Endpoint | None = None):
        super().__init__(config or self.Config(), llm)

    def ground(self, record: QARecord, linked: Linked, result: Chain) -> list[HopGrounding]:
        hops = chain_hops(record, linked, result)
        asked = [h for h in hops if h.cited]
        found: dict[int, set[str]] = {}
        if asked:
            request = self.grounding_request(record, asked)
            answer = self._ready.pop(request.user, None)  # made ahead by prepare_chains
            if answer is None:
                answer = self.llm.run([request])[0]
            if isinstance(answer, LogicscoreError):
                raise answer
            assert isinstance(answer, Support)  # the endpoint validated it against this schema
            for row in answer.hops:
                found.setdefault(row.hop, set()).update(row.supported_by)
        return [status(h, [d for d, _ in h.cited if d in found.get(h.index, ())]) for h in hops]

    def prepare_chains(self, rows: list[tuple[QARecord, Linked, Chain]]) -> None:
        """Make a window's grounding calls at once, as the other LLM stages' `prepare` does:
        a grounding request holds the record's chain, so it can only be made once the rest of
        the record is audited (docs/architecture.md)."""
        requests = []
        for record, linked, result in rows:
            asked = [h for h in chain_hops(record, linked, result) if h.cited]
            if asked:
                requests.append(self.grounding_request(record, asked))
        self._ready = {q.user: reply for q, reply in zip(requests, self.llm.run(requests))}

    def grounding_request(self, record: QARecord, hops: list[ChainLink]) -> Request:
        docs = dict(d for h in hops for d in h.cited)
        claims = "\n".join(
            f"{h.index}. {p.subject} | {p.relation} | {p.object} — sentence: {p.text} — cites: "
            f"{', '.join(d for d, _ in h.cited)}" for h in hops for p in [h.proposition])
        documents = "\n".join(f"[{doc_id}] {text}" for doc_id, text in docs.items())
        return Request(self.prompt, delimit(hops=claims, documents=documents), Support,
                       f"record {record.id}")

    def signature(self) -> list[tuple[str, object]]:
        return [("ground", "llm"), ("model", self.llm.model_id()), ("ground_prompt", self.prompt.sha),
                ("structured", self.llm.structured_mode()), ("temp", 0),
                ("max_tokens", self.llm.config.max_tokens)]
