"""The `llm` judge (docs/metrics.md): one call with only Q and LA, "answer from this passage alone".

The model's answer is compared with the short answer after normalization and fuzzy match
(the linker's answer equality): the same answer is `entailed`, UNKNOWN `underdetermined`,
any other answer `contradicted`. It never sees the short answer or the propositions.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from .flow import Completed, Linked, Reading
from ..config import default
from ..models import QARecord, Verdict
from .text.mentions import same_answer
from ..llm.endpoint import Endpoint, Request
from ..llm.prompts import delimit
from ..llm.stage import PromptedStage

UNKNOWN = "unknown"


class PassageAnswer(BaseModel):
    """The reply of the determinateness call."""

    model_config = ConfigDict(extra="forbid")

    answer: str


class LLMJudge(PromptedStage):
    """Determinateness from the model's closed-book reading of the long answer."""

    name: ClassVar[str] = "llm"
    requires: ClassVar[tuple[str, ...]] = ("llm",)

    class Config(BaseModel):
        model_config = ConfigDict(extra="forbid")
        prompt: str = Field("judge.v1.md", description="prompt file in prompts/")
        fuzzy_threshold: float = Field(default("fuzzy_threshold"), ge=0, le=100,
                                       description="answer similarity (0-100) that counts as the same")

    def __init__(self, config: LLMJudge.Config | None = None, llm: Endpoint | None = None):
        super().__init__(config or self.Config(), llm)

    def request(self, record: QARecord) -> Request:
        user = delimit(question=record.question, passage=record.long_answer)
        return Request(self.prompt, user, PassageAnswer, f"record {record.id}")

    def judge(self, record: QARecord, linked: Linked, completed: Completed,
              reading: Reading) -> Verdict:
        # The model's reading is the verdict for every question type: a comparison's sides
        # inform the completeness only.
        return verdict(self.reply(record, PassageAnswer).answer, record.answer, self.config.fuzzy_threshold)

    def signature(self) -> list[tuple[str, object]]:
        return [("det", "llm"), ("model", self.llm.model_id()), ("det_prompt", self.prompt.sha),
                ("structured", self.llm.structured_mode()), ("temp", 0),
                ("max_tokens", self.llm.config.max_tokens)]


def verdict(passage_answer: str, short_answer: str, threshold: float) -> Verdict:
    """Compare the passage's answer with the short answer."""
    answer = passage_answer.strip().strip(".").strip()
    if not answer or answer.casefold() == UNKNOWN:
        return "underdetermined"
    return "entailed" if same_answer(answer, short_answer, threshold) else "contradicted"
