"""What one call sends and what comes back (docs/llm-servers.md): the request and reply types,
a reply read as JSON against its model or the reason it is not, and what a failed call says
(whether to retry, how long the server asks to wait, its body redacted for a message).
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from functools import cache
from typing import Any

from pydantic import BaseModel, ValidationError

from ..errors import LogicscoreError
from .prompts import Prompt
from .redact import redact
from .transport import BodyRefused

FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)
BODY_SHOWN = 300  # characters of an error body quoted in a message
TOO_DEEP = ("the LLM endpoint's reply is JSON nested too deeply to read (no reply schema nests "
             "that far); is the server or the model misbehaving?")


@dataclass(frozen=True)
class Request:
    """One call: the prompt (system message), the user message and the reply's model."""

    prompt: Prompt
    user: str
    reply: type[BaseModel]
    label: str  # "record <id>", for error messages


@dataclass(frozen=True)
class TextRequest:
    """One free-text call: the user message, the hash of the prompt it was made from, a label."""

    user: str
    prompt_sha: str
    label: str


@dataclass(frozen=True)
class ChatReply:
    """A free-text reply or its typed error, how long it took, and whether the cache gave it."""

    text: str | None = None
    error: LogicscoreError | None = None
    latency_ms: float = 0.0
    cached: bool = False


class Invalid(Exception):
    """A reply that is not JSON or not valid against the reply model."""


class TooDeep(Exception):
    """A reply nested past the interpreter's recursion limit."""


def ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 1)


@cache
def json_schema(model: type[BaseModel]) -> dict:
    return model.model_json_schema()


def transient(exc: BaseException) -> bool:
    import openai

    if isinstance(exc, openai.APIStatusError):
        return exc.status_code == 429 or exc.status_code >= 500
    if isinstance(exc, openai.APIConnectionError):  # includes APITimeoutError
        return not isinstance(exc.__cause__, BodyRefused)
    return False


def attempts(made: int) -> str:
    return f"{made} attempt{'s' if made != 1 else ''}"


def retry_after(exc: BaseException | None) -> float | None:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            return max(0.0, float(value) * scale)
        except ValueError:
            return None  # an HTTP date: fall back to backoff
    return None


def body_of(exc: Any) -> str:
    try:
        text = exc.response.text
    except Exception:  # noqa: BLE001 - a body that cannot be read says nothing more
        text = str(exc)
    return redact(" ".join(text.split()))[:BODY_SHOWN]


def accept(text: str | None, model: type[BaseModel]) -> BaseModel:
    if not text or not text.strip():
        raise Invalid("the reply is empty")
    fenced = FENCE.match(text)
    try:
        # Not strict: a line break or tab written as it is inside a string (small models
        # under llama.cpp's grammar do) is read as that character, not refused.
        data = json.loads(fenced.group(1) if fenced else text, strict=False)
    except json.JSONDecodeError as exc:
        raise Invalid(f"not JSON: {exc.msg} at character {exc.pos}") from None
    except RecursionError:  # no schema nests that deep: not sent back in a repair call
        raise TooDeep() from None
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(top level)"
        raise Invalid(f"{exc.error_count()} schema error(s), first at {where}: {first['msg']}") from None


def repair_note(error: Invalid, model: type[BaseModel]) -> str:
    schema = json.dumps(json_schema(model), separators=(",", ":"))
    return (f"Your reply could not be used: {error}. Reply again with one JSON object only, "
            f"valid against this JSON schema: {schema}")


def run_sync(coro: Any) -> Any:
    """Run `coro` to the end from sync code, also when the caller is inside an event loop."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()
