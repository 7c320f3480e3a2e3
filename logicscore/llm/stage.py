"""What the LLM stages share: a prompt, the endpoint, and replies made ahead for a window.

`prepare` makes a window's calls at once (the endpoint bounds their concurrency); `reply`
takes the record's prepared answer, or calls for a record that was never prepared, and raises
the record's own typed error.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

from ..errors import LogicscoreError
from ..models import QARecord
from .endpoint import Endpoint, EndpointConfig, Request
from .prompts import load

Reply = TypeVar("Reply", bound=BaseModel)


class PromptedStage:
    """Base of the LLM extractor and judge; subclasses say what one record's request is."""

    config: Any

    def __init__(self, config: Any, llm: Endpoint | None = None):
        self.config = config
        self.llm = llm if llm is not None else Endpoint(EndpointConfig())
        self.prompt = load(self.config.prompt)
        self._ready: dict[str, object] = {}

    def request(self, record: QARecord) -> Request:
        raise NotImplementedError

    def prepare(self, records: list[QARecord]) -> None:
        """Make the calls of a window of records at once (bounded by the endpoint's concurrency)."""
        requests = [self.request(r) for r in records]
        self._ready = {q.user: reply for q, reply in zip(requests, self.llm.run(requests))}

    def reply(self, record: QARecord, schema: type[Reply]) -> Reply:
        request = self.request(record)
        answer = self._ready.pop(request.user, None)
        if answer is None:
            answer = self.llm.run([request])[0]
        if isinstance(answer, LogicscoreError):
            raise answer
        if not isinstance(answer, schema):  # the endpoint validated it against this schema
            raise TypeError(f"expected a {schema.__name__}, got {type(answer).__name__}")
        return answer
