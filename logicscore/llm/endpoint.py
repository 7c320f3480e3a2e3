"""One OpenAI-compatible endpoint: structured output, bounded retries, a call budget, batches.

A reply is accepted only when it parses as JSON and validates against the request's
pydantic model. How the server is asked for that JSON is negotiated (structured.py): the
first way it does not refuse is kept for the run and in the cache. A reply cut at the token
limit keeps the array items it finished when its model allows (salvage.py). An invalid reply
gets one repair call; a second invalid one is a `ParseError`. `chat` makes free-text calls (no
response format, nothing validated) for a caller that parses the reply itself, through the
same cache, retries, budget and concurrency. HTTP 429 and 5xx are retried with backoff,
waiting what `Retry-After` says.

Bounds (docs/llm-servers.md): one call may take `timeout` seconds in all, a slow body
included; all the calls of one record (retries, waits, repairs) share `deadline` seconds,
and a wait the server asks for past what is left ends the record; a reply body is read as a
stream up to `max_body_bytes` (after decompression), past that it is an `LLMError` and is
never sent back in a repair call.

The key comes only from `OPENAI_API_KEY` and is handed to the client and nowhere else. A
server may echo it: every string from the endpoint is redacted (redact.py) before it is
cut, parsed, cached, written into a record or put in a message.
"""

from __future__ import annotations

import os
import random
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from ..errors import ConfigError, LLMError, LogicscoreError, ParseError, Timeout
from . import salvage, structured
from .cache import AnswerCache, default_dir, endpoint_key, key
from .options import EndpointConfig
from .redact import KEY_ENV, redact, remember_url, shown_url
from .replies import (TOO_DEEP, ChatReply, Invalid, Request, TextRequest, TooDeep, accept, attempts,
                      body_of, json_schema, ms, repair_note, retry_after, run_sync, transient)
from .transport import BodyRefused

# Servers that need no key (vLLM, Ollama, llama.cpp) still get a bearer token from the client.
NO_KEY = "unused"
class _Refused(Exception):
    """The server refused the way structured output was asked for."""

    def __init__(self, status: int, body: str):
        super().__init__(status, body)
        self.status, self.body = status, body


class _DeadlineHit(Exception):
    """The record's `deadline` ran out during a call."""


class Endpoint:
    """The endpoint, its cache and its call counter, shared by every LLM stage of an Auditor."""

    def __init__(self, config: EndpointConfig, timeout_flag: str = "--llm-timeout"):
        self.config = config
        self.timeout_flag = timeout_flag  # the flag a Timeout message tells the user to raise
        self.calls = 0  # HTTP calls made, retries and repairs included
        self.tokens = {"prompt": 0, "completion": 0}  # as the server counted them
        # The structured-output mode to ask in, and whether the server has taken it.
        fixed = config.structured != structured.AUTO
        self.mode: str = config.structured if fixed else structured.MODES[0]
        self.settled = fixed
        self._recalled = fixed
        self._spent: dict[str, float] = {}  # seconds the calls of each record have taken
        directory = Path(config.cache_dir) if config.cache_dir else default_dir()
        self.cache = AnswerCache(directory) if config.cache else None
        self._cache_checked = False
        remember_url(config.base_url)  # a password or token in it is masked like the key

    def model_id(self) -> str:
        """The configured model; `ConfigError` when a run could not call (no model, no key).

        The stages' signatures ask for it, so the CLI reports both before reading a record.
        """
        if not self.config.model:
            raise ConfigError("the LLM path needs a model: pass --model (e.g. --model gpt-4o-mini)")
        if self.config.base_url is None and not self.config.offline and not os.environ.get(KEY_ENV):
            raise ConfigError(f"set {KEY_ENV} to call OpenAI, or pass --base-url for a local server")
        if self.cache is not None and not self._cache_checked:
            self.cache.check()
            self._cache_checked = True
        return self.config.model

    def structured_mode(self) -> str:
        """The mode for the signature: the one fixed or found to work, else "auto"."""
        self._recall()
        return self.mode if self.settled else structured.AUTO

    def _recall(self) -> None:
        """Take the mode an earlier run found for this endpoint and model from the cache."""
        if self._recalled:
            return
        self._recalled = True
        if self.cache is None or not self.config.model:
            return
        found = self.cache.get_meta(endpoint_key(self.config.base_url, self.config.model))
        mode = (found or {}).get("structured")
        if mode in structured.MODES:
            self.mode, self.settled = mode, True

    def adopt(self, mode: str) -> bool:
        """Take `mode` as the one the server takes (records scored with it are being resumed)."""
        if self.settled or mode not in structured.MODES:
            return False
        self.mode, self.settled = mode, True
        return True

    def _remember(self) -> None:
        if self.cache is not None and self.config.structured == structured.AUTO:
            self.cache.put_meta(endpoint_key(self.config.base_url, self.model_id()),
                                {"structured": self.mode})

    def cached(self, request: Request) -> BaseModel | None:
        """The cached, still valid reply to `request`, or None."""
        if self.cache is None:
            return None
        stored = self.cache.get(key(self.model_id(), request.prompt.sha, request.user))
        if stored is None:
            return None
        try:
            return salvage.restored(stored, request.reply)
        except ValueError:
            return None  # written by an older reply model: ask again

    def run(self, requests: list[Request]) -> list[BaseModel | LogicscoreError]:
        """Each request's validated reply, or its typed error, in order (never raises those)."""
        self.model_id()
        return run_sync(self._run_all(requests))

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

        self._recall()
        client = self._client()
        gate = asyncio.Semaphore(self.config.concurrency)

        async def one(i: int) -> None:
            async with gate:
                try:
                    results[i] = await self._complete(client, requests[i])
                except LogicscoreError as exc:
                    results[i] = exc

        try:
            # Until the server has taken a mode, calls one at a time find it, so a batch
            # does not pay each refusal once per request; a request that failed otherwise
            # (no connection, a timeout) says nothing of the mode, and the rest go at once.
            while todo and not self.settled:
                before = self.mode
                await one(todo.pop(0))
                if not self.settled and self.mode == before:
                    break
            await asyncio.gather(*(one(i) for i in todo))
        finally:
            await client.close()
        return results

    def _client(self) -> Any:
        import openai

        from .transport import client

        api_key = os.environ.get(KEY_ENV)
        made = openai.AsyncOpenAI(api_key=api_key or NO_KEY, base_url=self.config.base_url,
                                  timeout=self.config.timeout, max_retries=0,
                                  http_client=client(self.config.max_body_bytes, self.config.timeout))
        # The client imports and builds its response models on first use; that is done here,
        # off the clock of the first record's calls (seconds on a busy machine).
        from openai.types.chat import ChatCompletion

        made.chat.completions  # noqa: B018
        ChatCompletion.model_validate({"id": "", "object": "chat.completion", "created": 0, "model": "",
                                       "choices": [{"index": 0, "finish_reason": "stop",
                                                    "message": {"role": "assistant", "content": ""}}]})
        return made

    def _deadline(self, label: str) -> float | None:
        """The monotonic time the calls of `label` must end by (None: no deadline)."""
        if self.config.deadline is None:
            return None
        left = self.config.deadline - self._spent.get(label, 0.0)
        if left <= 0:
            raise Timeout(f"{label}: its {self.config.deadline:g} s for LLM calls were spent by "
                          "earlier calls; raise --timeout")
        return time.monotonic() + left

    async def _complete(self, client: Any, request: Request) -> BaseModel:
        started = time.monotonic()
        try:
            reply = await self._ask_valid(client, request, self._deadline(request.label))
        finally:
            self._spent[request.label] = self._spent.get(request.label, 0.0) + time.monotonic() - started
        if self.cache is not None:
            self.cache.put(key(self.model_id(), request.prompt.sha, request.user), salvage.stored(reply))
        return reply

    async def _ask_valid(self, client: Any, request: Request, end: float | None) -> BaseModel:
        try:
            return await self._ask_repaired(client, request, end)
        except TooDeep:
            raise LLMError(f"{request.label}: {TOO_DEEP}", status=200) from None

    async def _ask_repaired(self, client: Any, request: Request, end: float | None) -> BaseModel:
        messages = [{"role": "system", "content": request.prompt.text},
                    {"role": "user", "content": request.user}]
        text, finish = await self._ask(client, messages, request, end)
        try:
            return self._accept(text, finish, request.reply)
        except Invalid as first:
            messages += [{"role": "assistant", "content": text or ""},
                         {"role": "user", "content": repair_note(first, request.reply)}]
            text, finish = await self._ask(client, messages, request, end)
            try:
                return self._accept(text, finish, request.reply)
            except Invalid as second:
                raise ParseError(redact(
                    f"{request.label}: the model's reply is not valid {request.reply.__name__} JSON "
                    f"after one repair attempt ({second}); try a larger model")) from None

    def _accept(self, text: str | None, finish: str | None, model: type[BaseModel]) -> BaseModel:
        """The reply valid against `model`; one cut at the token limit, what it finished."""
        try:
            return accept(text, model)
        except Invalid:
            if finish != "length" or not text:
                raise
            kept = salvage.salvage(text, model, self.config.max_tokens)
            if kept is None:
                raise
            return kept

    async def _ask(self, client: Any, messages: list[dict], request: Request,
                   end: float | None) -> tuple[str | None, str | None]:
        """One completion (its text and why it ended) in the current mode; a refused mode
        moves on to the next one."""
        while True:
            mode = self.mode
            fields = structured.fields(mode, request.reply.__name__, json_schema(request.reply))
            try:
                said = await self._send(client, messages, fields, request.label, end,
                                        negotiating=not self.settled)
            except _Refused as refusal:
                if self.mode != mode:  # another request moved on meanwhile
                    continue
                following = structured.following(mode)
                if following is None:
                    raise LLMError(f"{request.label}: the LLM endpoint refused every way of asking for "
                                   f"JSON ({', '.join(structured.MODES)}); last: HTTP {refusal.status}: "
                                   f"{refusal.body}", status=refusal.status) from None
                self.mode = following
                continue
            if not self.settled and self.mode == mode:
                self.settled = True
                self._remember()
            return said

    async def _send(self, client: Any, messages: list[dict], fields: dict, label: str,
                    end: float | None, negotiating: bool = False) -> tuple[str | None, str | None]:
        import openai
        from tenacity import AsyncRetrying, retry_if_exception, stop_after_attempt
        from tenacity.stop import stop_base

        class past_deadline(stop_base):
            def __call__(self, state: Any) -> bool:
                # tenacity works out the wait before asking whether to stop.
                return end is not None and time.monotonic() + state.upcoming_sleep >= end

        retrying = AsyncRetrying(stop=stop_after_attempt(self.config.retries + 1) | past_deadline(),
                                 retry=retry_if_exception(transient), wait=self._wait, reraise=True)
        made = 0
        try:
            async for attempt in retrying:
                with attempt:
                    made = attempt.retry_state.attempt_number
                    return await self._post(client, messages, fields, label, end, negotiating)
        except (_DeadlineHit, openai.APITimeoutError) as exc:
            if isinstance(exc, _DeadlineHit) or (end is not None and time.monotonic() >= end - 0.05):
                raise Timeout(f"{label}: the LLM calls of this record ran past its "
                              f"{self.config.deadline:g} s ({attempts(made)}); raise --timeout") from None
            raise Timeout(f"{label}: the LLM endpoint did not answer within {self.config.timeout:g} s "
                          f"({attempts(made)}); raise {self.timeout_flag}") from None
        except openai.APIStatusError as exc:
            asked = retry_after(exc)
            why = ""
            if end is not None and asked is not None and made <= self.config.retries and transient(exc):
                why = (f"; it asked to wait {asked:g} s, more than the {max(0.0, end - time.monotonic()):.1f} s "
                       "left of the record's time (--timeout)")
            raise LLMError(f"{label}: the LLM endpoint answered HTTP {exc.status_code} after "
                           f"{attempts(made)}: {body_of(exc)}{why}", status=exc.status_code) from None
        except openai.APIConnectionError as exc:
            if isinstance(exc.__cause__, BodyRefused):
                raise LLMError(f"{label}: {exc.__cause__}") from None
            raise LLMError(f"{label}: could not connect to the LLM endpoint at "
                           f"{shown_url(self.config.base_url)} ({attempts(made)}); is the server "
                           "running? check --base-url") from None
        return None, None  # unreachable: the loop returns or raises

    async def _post(self, client: Any, messages: list[dict], fields: dict, label: str,
                    end: float | None, negotiating: bool) -> tuple[str | None, str | None]:
        """The reply's text and its `finish_reason` ("length": cut at the token limit)."""
        import asyncio

        import openai

        budget = self.config.max_calls
        if budget is not None and self.calls >= budget:
            raise LLMError(f"the budget of {budget} LLM calls is spent; raise --max-calls "
                           "or rerun with --resume")
        # One call's own time is bounded in the transport; the record's here.
        limit = None if end is None else end - time.monotonic()
        if limit is not None and limit <= 0:
            raise _DeadlineHit()
        self.calls += 1
        if self.config.max_tokens is not None:
            fields = {**fields, "max_tokens": self.config.max_tokens}
        try:
            response = await asyncio.wait_for(client.chat.completions.create(
                model=self.model_id(), messages=messages, temperature=0, **fields), limit)
        except TimeoutError:
            raise _DeadlineHit() from None
        except openai.APIStatusError as exc:
            if negotiating and structured.refused(exc.status_code, body_of(exc)):
                raise _Refused(exc.status_code, body_of(exc)) from None
            raise
        except RecursionError:
            raise LLMError(f"{label}: {TOO_DEEP}", status=200) from None
        except (ValueError, TypeError) as exc:  # a 200 whose body is not JSON
            raise LLMError(f"{label}: the LLM endpoint answered with a body that is not JSON "
                           f"({type(exc).__name__}); is --base-url an OpenAI-compatible server?",
                           status=200) from None
        choices = getattr(response, "choices", None)
        if not choices:
            raise LLMError(f"{label}: the LLM endpoint answered without a completion (an empty or "
                           "non-JSON body, or no choices); is --base-url an OpenAI-compatible server?",
                           status=200)
        usage = getattr(response, "usage", None)
        for name in ("prompt", "completion"):
            count = getattr(usage, f"{name}_tokens", None)
            if isinstance(count, int):
                self.tokens[name] += count
        content = choices[0].message.content
        return None if content is None else redact(content), getattr(choices[0], "finish_reason", None)

    def chat(self, requests: list[TextRequest]) -> list[ChatReply]:
        """Each request's free-text reply (an empty reply is ""), or its typed error, in order."""
        self.model_id()
        return run_sync(self._chat_all(requests))

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
                    said, _ = await self._send(client, [{"role": "user", "content": request.user}],
                                               {}, request.label, self._deadline(request.label))
                    text = said or ""
                except LogicscoreError as exc:
                    results[i] = ChatReply(error=exc, latency_ms=ms(start))
                    return
                finally:
                    self._spent[request.label] = (self._spent.get(request.label, 0.0)
                                                  + time.perf_counter() - start)
                results[i] = ChatReply(text=text, latency_ms=ms(start))
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
                return ChatReply(text=stored["text"], latency_ms=ms(start), cached=True)
        if self.config.offline:
            return ChatReply(error=LLMError(f"{request.label}: no cached answer and --offline is set; "
                                            "run once without --offline to record it"))
        return None

    def _wait(self, state: Any) -> float:
        """`Retry-After` when the server sends it, else exponential backoff with jitter."""
        exc = state.outcome.exception()
        after = retry_after(exc)
        if after is None:
            after = 0.5 * 2 ** (state.attempt_number - 1) + random.uniform(0, 0.25)
        return min(after, self.config.max_retry_wait)


def estimate(endpoint: Endpoint, requests: list[Request]) -> dict[str, int]:
    """Calls and input tokens a run of `requests` would make (about 4 characters per token)."""
    misses = [r for r in requests if endpoint.cached(r) is None]
    cached = len(requests) - len(misses)
    chars = sum(len(r.prompt.text) + len(r.user) for r in misses)
    return {"requests": len(requests), "cached": cached, "calls": len(misses),
            "input_tokens": (chars + 3) // 4}
