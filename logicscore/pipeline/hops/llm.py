"""`--hops llm`: one call per record asks the model for the question's hops and, per hop, the
sentence of the long answer that states it (prompts/hops.v1.md); the tool then checks what
the text can show (`verify`). The call goes through the endpoint the LLM stages share: its
cache, call budget, structured-output negotiation and concurrency.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from ...config import default
from ...llm.endpoint import Endpoint, Request
from ...llm.prompts import delimit
from ...llm.stage import PromptedStage
from ...models import QARecord
from ..flow import Hops, Linked, Reading
from . import ProposedHop, verify, yields_answer


class HopsReply(BaseModel):
    """The reply schema, a contract (docs/llm.md): the hops, and whether the short answer is
    what the last one yields. Extra fields are ignored; missing ones take their defaults."""

    model_config = ConfigDict(extra="ignore")

    hops: list[ProposedHop]
    answer_follows: bool | None = None


class LLMHops(PromptedStage):
    """The question's hops as a model reads them, each verified against the long answer."""

    name: ClassVar[str] = "llm"
    requires: ClassVar[tuple[str, ...]] = ("llm",)

    class Config(BaseModel):
        model_config = ConfigDict(extra="forbid")
        prompt: str = Field("hops.v1.md", description="prompt file in prompts/")
        fuzzy_threshold: float = Field(default("fuzzy_threshold"), ge=0, le=100,
                                       description="name similarity (0-100) that counts as the same")

    def __init__(self, config: LLMHops.Config | None = None, llm: Endpoint | None = None):
        super().__init__(config or self.Config(), llm)

    def request(self, record: QARecord) -> Request:
        # The question and the long answer verbatim: a replay server matches on them.
        user = delimit(question=record.question, short_answer=record.answer,
                       long_answer=record.long_answer)
        return Request(self.prompt, user, HopsReply, f"record {record.id}")

    def read_hops(self, record: QARecord, linked: Linked, reading: Reading,
                  sentences: list[tuple[int, int]]) -> Hops:
        reply = self.reply(record, HopsReply)
        t = self.config.fuzzy_threshold
        hops = verify(reply.hops, record, linked, reading, sentences, t)
        follows = reply.answer_follows
        if follows and hops and hops[-1].stated:
            # The model judges the relation; the tool checks the name it lands on.
            follows = yields_answer(hops[-1], record.answer, record.long_answer, linked, t)
        return Hops(stage=self.name, hops=hops, answer_follows=follows)

    def signature(self) -> list[tuple[str, object]]:
        return [("hops", "llm"), ("model", self.llm.model_id()), ("hops_prompt", self.prompt.sha),
                ("structured", self.llm.structured_mode()), ("temp", 0)]
