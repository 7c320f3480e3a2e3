"""One OpenAI-compatible endpoint: structured output, bounded retries, a call budget, batches.

A reply is accepted only when it parses as JSON and validates against the request's
pydantic model. The request asks for a JSON-schema response format first; a server that
rejects it (HTTP 400/422, or an error naming the schema) is asked in JSON mode from then
on. An invalid reply gets one repair call; a second invalid one is a `ParseError`. `chat`
makes free-text calls (no response format, nothing validated) for a caller that parses the
reply itself, through the same cache, retries, budget and concurrency. HTTP
429 and 5xx are retried with backoff, waiting what `Retry-After` says; a call that runs past
`timeout` is a `Timeout`; other failures are an `LLMError` with the status code.

The key comes only from `OPENAI_API_KEY`, is handed to the client and nowhere else: not to
the cache, the signature, a log line or an error message (messages are scrubbed of it).
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from ..errors import ConfigError, LLMError, LogicscoreError, ParseError, Timeout
from .cache import AnswerCache, default_dir, key
from .options import EndpointConfig
from .prompts import Prompt

KEY_ENV = "OPENAI_API_KEY"
# Servers that need no key (vLLM, Ollama, llama.cpp) still get a bearer token from the client.
NO_KEY = "unused"
_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)
_SCHEMA_WORDS = ("json_schema", "response_format", "schema")


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


class _Invalid(Exception):
    """A reply that is not JSON or not valid against the reply model."""


class _SchemaRejected(Exception):
    """The server refused the JSON-schema response format."""


class Endpoint:
    """The endpoint, its cache and its call counter, shared by every LLM stage of an Auditor."""

    def __init__(self, config: EndpointConfig, timeout_flag: str = "--llm-timeout"):
        self.config = config
        self.timeout_flag = timeout_flag  # the flag a Timeout message tells the user to raise
        self.calls = 0  # HTTP calls made, retries and repairs included
        self.json_schema: bool | None = None  # unknown until the server has answered once
        directory = Path(config.cache_dir) if config.cache_dir else default_dir()
        self.cache = AnswerCache(directory) if config.cache else None

    def model_id(self) -> str:
        """The configured model; `ConfigError` when a run could not call (no model, no key).

        The stages' signatures ask for it, so the CLI reports both before reading a record.
        """
        if not self.config.model:
            raise ConfigError("the LLM path needs a model: pass --model (e.g. --model gpt-4o-mini)")
        if self.config.base_url is None and not self.config.offline and not os.environ.get(KEY_ENV):
            raise ConfigError(f"set {KEY_ENV} to call OpenAI, or pass --base-url for a local server")
        return self.config.model

    def cached(self, request: Request) -> BaseModel | None:
        """The cached, still valid reply to `request`, or None."""
        if self.cache is None:
            return None
        stored = self.cache.get(key(self.model_id(), request.prompt.sha, request.user))
        if stored is None:
            return None
        try:
            return request.reply.model_validate(stored)
        except ValidationError:
            return None  # written by an older reply model: ask again

    def run(self, requests: list[Request]) -> list[BaseModel | LogicscoreError]:
        """Each request's validated reply, or its typed error, in order (never raises those)."""
        self.model_id()
        return _run_sync(self._run_all(requests))

    async def _run_all(self, requests: list[Request]) -> list[BaseModel | LogicscoreError]:
        results: list[Any] = [self.cached(r) for r in requests]
        todo = [i for i, r in enumerate(results) if r is None]
        if self.config.offline:
            for i in todo:
                results[i] = LLMError(f"{requests[i].label}: no cached answer and --offline is set; "
                                      "run once without --offline to record it")
            return results
        if not todo:
            return results
        import asyncio  # here, not at the top: the rules path builds an Endpoint and never calls it

        client = self._client()
        gate = asyncio.Semaphore(self.config.concurrency)

        async def one(i: int) -> None:
            async with gate:
                try:
                    results[i] = await self._complete(client, requests[i])
                except LogicscoreError as exc:
                    results[i] = exc

        try:
            # Until the server has answered, nobody knows whether it takes a JSON schema:
            # one call finds out, so a batch does not pay the fallback once per request.
            if self.json_schema is None:
                await one(todo.pop(0))
            await asyncio.gather(*(one(i) for i in todo))
        finally:
            await client.close()
        return results

    def _client(self) -> Any:
        import openai

        api_key = os.environ.get(KEY_ENV)
        return openai.AsyncOpenAI(api_key=api_key or NO_KEY, base_url=self.config.base_url,
                                  timeout=self.config.timeout, max_retries=0)

    async def _complete(self, client: Any, request: Request) -> BaseModel:
        messages = [{"role": "system", "content": request.prompt.text},
                    {"role": "user", "content": request.user}]
        text = await self._ask(client, messages, request)
        try:
            reply = _accept(text, request.reply)
        except _Invalid as first:
            messages += [{"role": "assistant", "content": text or ""},
                         {"role": "user", "content": _repair_note(first, request.reply)}]
            text = await self._ask(client, messages, request)
            try:
                reply = _accept(text, request.reply)
            except _Invalid as second:
                raise ParseError(_scrub(
                    f"{request.label}: the model's reply is not valid {request.reply.__name__} JSON "
                    f"after one repair attempt ({second}); try a larger model")) from None
        if self.cache is not None:
            self.cache.put(key(self.model_id(), request.prompt.sha, request.user),
                           reply.model_dump(mode="json"))
        return reply

    async def _ask(self, client: Any, messages: list[dict], request: Request) -> str | None:
        """One completion, in JSON-schema format while the server accepts it, else JSON mode."""
        if self.json_schema is not False:
            schema = {"type": "json_schema", "json_schema": {
                "name": request.reply.__name__, "schema": _schema(request.reply)}}
            try:
                text = await self._send(client, messages, schema, request.label)
            except _SchemaRejected:
                self.json_schema = False
            else:
                self.json_schema = True
                return text
        return await self._send(client, messages, {"type": "json_object"}, request.label)

    async def _send(self, client: Any, messages: list[dict], fmt: dict | None, label: str) -> str | None:
        import openai
        from tenacity import AsyncRetrying, retry_if_exception, stop_after_attempt

        retrying = AsyncRetrying(stop=stop_after_attempt(self.config.retries + 1),
                                 retry=retry_if_exception(_transient), wait=self._wait, reraise=True)
        try:
            async for attempt in retrying:
                with attempt:
                    return await self._post(client, messages, fmt)
        except openai.APITimeoutError:
            raise Timeout(f"{label}: the LLM endpoint did not answer within {self.config.timeout:g} s "
                          f"({self.config.retries + 1} attempts); raise {self.timeout_flag}") from None
        except openai.APIStatusError as exc:
            raise LLMError(_scrub(f"{label}: the LLM endpoint answered HTTP {exc.status_code} after "
                                  f"{self.config.retries + 1} attempts: {_body(exc)}"),
                           status=exc.status_code) from None
        except openai.APIConnectionError:
            raise LLMError(f"{label}: could not connect to the LLM endpoint at "
                           f"{self.config.base_url or 'api.openai.com'}; is the server running? "
                           "check --base-url") from None
        return None  # unreachable: the loop returns or raises

    async def _post(self, client: Any, messages: list[dict], fmt: dict | None) -> str | None:
        import openai

        budget = self.config.max_calls
        if budget is not None and self.calls >= budget:
            raise LLMError(f"the budget of {budget} LLM calls is spent; raise --max-calls "
                           "or rerun with --resume")
        self.calls += 1
        extra = {} if fmt is None else {"response_format": fmt}
        try:
            response = await client.chat.completions.create(
                model=self.model_id(), messages=messages, temperature=0, **extra)
        except openai.APIStatusError as exc:
            if fmt is not None and fmt["type"] == "json_schema" and _rejects_schema(exc):
                raise _SchemaRejected() from None
            raise
        choices = getattr(response, "choices", None) or []
        return choices[0].message.content if choices else None

    def chat(self, requests: list[TextRequest]) -> list[ChatReply]:
        """Each request's free-text reply (an empty reply is ""), or its typed error, in order."""
        self.model_id()
        return _run_sync(self._chat_all(requests))

    async def _chat_all(self, requests: list[TextRequest]) -> list[ChatReply]:
        results: list[ChatReply | None] = [self._cached_text(r) for r in requests]
        todo = [i for i, r in enumerate(results) if r is None]
        if not todo:
            return [r for r in results if r is not None]
        import asyncio  # here, not at the top: the rules path builds an Endpoint and never calls it

        client = self._client()
        gate = asyncio.Semaphore(self.config.concurrency)

        async def one(i: int) -> None:
            request = requests[i]
            async with gate:
                start = time.perf_counter()
                try:
                    text = await self._send(client, [{"role": "user", "content": request.user}],
                                            None, request.label) or ""
                except LogicscoreError as exc:
                    results[i] = ChatReply(error=exc, latency_ms=_ms(start))
                    return
                results[i] = ChatReply(text=text, latency_ms=_ms(start))
                if self.cache is not None:
                    self.cache.put(key(self.model_id(), request.prompt_sha, request.user), {"text": text})

        try:
            await asyncio.gather(*(one(i) for i in todo))
        finally:
            await client.close()
        return [r for r in results if r is not None]

    def _cached_text(self, request: TextRequest) -> ChatReply | None:
        """The cached reply, an offline miss as its LLMError, or None (to be called)."""
        start = time.perf_counter()
        if self.cache is not None:
            stored = self.cache.get(key(self.model_id(), request.prompt_sha, request.user))
            if isinstance(stored, dict) and isinstance(stored.get("text"), str):
                return ChatReply(text=stored["text"], latency_ms=_ms(start), cached=True)
        if self.config.offline:
            return ChatReply(error=LLMError(f"{request.label}: no cached answer and --offline is set; "
                                            "run once without --offline to record it"))
        return None

    def _wait(self, state: Any) -> float:
        """`Retry-After` when the server sends it, else exponential backoff with jitter."""
        exc = state.outcome.exception()
        after = _retry_after(exc)
        if after is None:
            after = 0.5 * 2 ** (state.attempt_number - 1) + random.uniform(0, 0.25)
        return min(after, self.config.max_retry_wait)


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 1)


@cache
def _schema(model: type[BaseModel]) -> dict:
    return model.model_json_schema()


def _transient(exc: BaseException) -> bool:
    import openai

    if isinstance(exc, openai.APIStatusError):
        return exc.status_code == 429 or exc.status_code >= 500
    return isinstance(exc, openai.APIConnectionError)  # includes APITimeoutError


def _rejects_schema(exc: Any) -> bool:
    if exc.status_code in (400, 422):
        return True
    return exc.status_code >= 500 and any(w in _body(exc).lower() for w in _SCHEMA_WORDS)


def _retry_after(exc: BaseException | None) -> float | None:
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


def _body(exc: Any) -> str:
    try:
        text = exc.response.text
    except Exception:  # noqa: BLE001 - a body that cannot be read says nothing more
        text = str(exc)
    return " ".join(text.split())[:300]


def _accept(text: str | None, model: type[BaseModel]) -> BaseModel:
    if not text or not text.strip():
        raise _Invalid("the reply is empty")
    fenced = _FENCE.match(text)
    try:
        data = json.loads(fenced.group(1) if fenced else text)
    except json.JSONDecodeError as exc:
        raise _Invalid(f"not JSON: {exc.msg} at character {exc.pos}") from None
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(top level)"
        raise _Invalid(f"{exc.error_count()} schema error(s), first at {where}: {first['msg']}") from None


def _repair_note(error: _Invalid, model: type[BaseModel]) -> str:
    schema = json.dumps(_schema(model), separators=(",", ":"))
    return (f"Your reply could not be used: {error}. Reply again with one JSON object only, "
            f"valid against this JSON schema: {schema}")


def _scrub(message: str) -> str:
    secret = os.environ.get(KEY_ENV)
    return message.replace(secret, "***") if secret and len(secret) >= 4 else message


def _run_sync(coro: Any) -> Any:
    """Run `coro` to the end from sync code, also when the caller is inside an event loop."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()


def estimate(endpoint: Endpoint, requests: list[Request]) -> dict[str, int]:
    """Calls and input tokens a run of `requests` would make (about 4 characters per token)."""
    misses = [r for r in requests if endpoint.cached(r) is None]
    cached = len(requests) - len(misses)
    chars = sum(len(r.prompt.text) + len(r.user) for r in misses)
    return {"requests": len(requests), "cached": cached, "calls": len(misses),
            "input_tokens": (chars + 3) // 4}
