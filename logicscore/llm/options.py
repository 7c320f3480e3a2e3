"""The LLM endpoint's options, apart from the client: the CLI reads their defaults at start-up,
before anything decides the LLM path is used, and must not pay for the client's imports."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class EndpointConfig(BaseModel):
    """Options of the endpoint the LLM stages share (`AuditorConfig.llm`)."""

    model_config = ConfigDict(extra="forbid")

    base_url: str | None = Field(None, description="OpenAI-compatible base URL (None: OpenAI's)")
    model: str | None = Field(None, description="model id, as the server names it")
    timeout: float = Field(60.0, gt=0, description="seconds one HTTP call may take")
    retries: int = Field(3, ge=0, description="retries of a call after 429, 5xx, timeout or no connection")
    max_retry_wait: float = Field(60.0, ge=0, description="longest wait between retries (seconds)")
    concurrency: int = Field(4, ge=1, description="calls in flight at once within a batch")
    max_calls: int | None = Field(None, ge=0, description="hard budget of HTTP calls per run")
    cache: bool = Field(True, description="read and write the answer cache")
    cache_dir: str | None = Field(None, description="cache folder (default ~/.cache/logicscore/llm)")
    offline: bool = Field(False, description="never call: a cache miss is an LLMError")
