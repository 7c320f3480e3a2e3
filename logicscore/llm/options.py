"""The LLM endpoint's options, apart from the client: the CLI reads their defaults at start-up,
before anything decides the LLM path is used, and must not pay for the client's imports."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Structured = Literal["auto", "schema", "object-schema", "vllm", "ollama", "object"]


class EndpointConfig(BaseModel):
    """Options of the endpoint the LLM stages share (`AuditorConfig.llm`)."""

    model_config = ConfigDict(extra="forbid")

    base_url: str | None = Field(None, description="OpenAI-compatible base URL (None: OpenAI's)")
    model: str | None = Field(None, description="model id, as the server names it")
    timeout: float = Field(60.0, gt=0, description="seconds one HTTP call may take")
    deadline: float | None = Field(None, gt=0, description="seconds all the calls of one record may "
                                   "take, retries, waits and repairs included (None: the Auditor's "
                                   "timeout)")
    retries: int = Field(3, ge=0, description="retries of a call after 429, 5xx, timeout or no connection")
    max_retry_wait: float = Field(60.0, ge=0, description="longest wait between retries (seconds)")
    max_body_bytes: int = Field(4 * 1024 * 1024, ge=1024, description="largest reply body read, "
                                "after decompression (bytes); a larger one is an LLMError")
    max_tokens: int | None = Field(None, ge=1, description="most tokens one reply may have (None: the "
                                   "server's limit); bounds a small model that loops in its JSON")
    structured: Structured = Field("auto", description="how the server is asked for JSON of the "
                                   "reply's schema (auto: negotiated, see docs/llm-servers.md)")
    concurrency: int = Field(4, ge=1, description="calls in flight at once within a batch")
    max_calls: int | None = Field(None, ge=0, description="hard budget of HTTP calls per run")
    cache: bool = Field(True, description="read and write the answer cache")
    cache_dir: str | None = Field(None, description="cache folder (default ~/.cache/logicscore/llm)")
    offline: bool = Field(False, description="never call: a cache miss is an LLMError")
