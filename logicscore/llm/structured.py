"""How a server is asked for JSON of one schema: the ways servers spell it, tried in order.

    schema         response_format {"type": "json_schema", ...}    (OpenAI, LM Studio, vLLM, Ollama >= 0.5)
    object-schema  response_format {"type": "json_object", "schema": ...}   (llama-cpp-python)
    vllm           extra body {"guided_json": schema}                (vLLM's guided decoding)
    ollama         extra body {"format": schema}                    (Ollama's own field)
    object         response_format {"type": "json_object"}          (JSON mode, shape unchecked)

In `auto`, a server is asked the first way; the next is tried only when the server refuses
the one before with an error that names it (`refused`). The way that worked is kept for the
endpoint and model (see docs/llm-servers.md).
"""

from __future__ import annotations

from typing import Any

AUTO = "auto"
MODES = ("schema", "object-schema", "vllm", "ollama", "object")
CHOICES = (AUTO, *MODES)
# Words of the errors servers give for a structured-output field they do not take.
_FIELD_WORDS = ("json_schema", "response_format", "schema", "json_object", "guided_json", "format")


def fields(mode: str, name: str, schema: dict) -> dict[str, Any]:
    """The keyword arguments of `chat.completions.create` that ask for `schema` the `mode` way."""
    if mode == "schema":
        return {"response_format": {"type": "json_schema", "json_schema": {"name": name, "schema": schema}}}
    if mode == "object-schema":
        return {"response_format": {"type": "json_object", "schema": schema}}
    if mode == "vllm":
        return {"extra_body": {"guided_json": schema}}
    if mode == "ollama":
        return {"extra_body": {"format": schema}}
    return {"response_format": {"type": "json_object"}}


def refused(status: int, body: str) -> bool:
    """Whether an HTTP error refuses the request's structured-output field.

    400 and 422 are how servers refuse a field they do not validate; llama-cpp-python
    answers 500 with its validation message, so a 5xx counts only when it names the field.
    """
    if status in (400, 422):
        return True
    return status >= 500 and any(w in body.lower() for w in _FIELD_WORDS)


def following(mode: str) -> str | None:
    """The mode tried after `mode` is refused, or None after the last."""
    at = MODES.index(mode)
    return MODES[at + 1] if at + 1 < len(MODES) else None
