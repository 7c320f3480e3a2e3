"""`assess`: ask the QA prompt under test each question, then audit the replies it gets.

The agent under test is an OpenAI-compatible endpoint and a prompt file. The file is the
whole user message, with `{question}` (the only placeholder; other braces stay as written)
replaced by the question. The reply must end with its short answer, in one of two forms:

- a JSON object (bare or in a ```json fence) with `answer` and, optionally, `reasoning`
  (or `long_answer`): the short answer is `answer`, the long answer `reasoning`;
- free text whose last line of the form `Answer: X` (also `Final answer:`, `**Answer:**`,
  any case) gives the short answer X; the long answer is the text before that line.

A reply without either is a `ParseError` record (the reply is kept in `meta.agent.reply`);
a call that runs out of time or retries is a `Timeout` or `LLMError` record. Every question
line yields one record, in order, audited by the caller's `Auditor`; `meta.agent` holds the
model, the prompt's sha256, the answer, the latency and the agent signature.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ..auditor import Auditor
from ..errors import ConfigError, InputError, LogicscoreError, ParseError
from ..formats.reply import final_answer
from ..io import InputLine, decode_line, iter_raw, record_id, to_record
from ..llm.endpoint import ChatReply, Endpoint, TextRequest
from ..models import AgentMeta, AuditResult
from ..signature import Signature

PLACEHOLDER = "{question}"
# Bumped when the reply parser changes what it accepts: the agent signature carries it.
PARSER = "answer.v1"
# Fields the agent supplies, so a question file may not map them.
AGENT_FIELDS = ("answer", "long_answer")
MAX_KEPT_REPLY = 2000
_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)
_REASONING_KEYS = ("reasoning", "long_answer")


@dataclass(frozen=True)
class AgentPrompt:
    """The QA prompt under test: its file name, text and full sha256."""

    name: str
    text: str
    sha256: str

    @classmethod
    def from_file(cls, path: Path) -> AgentPrompt:
        """Read a prompt file; `ConfigError` when it is unreadable or has no placeholder."""
        from ..errors import InputError
        from ..io import read_whole

        try:
            data = read_whole(path, f"prompt file {path}")
            text = data.decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"cannot read prompt file {path}: {exc}") from None
        except InputError as exc:
            raise ConfigError(exc.message) from None
        if PLACEHOLDER not in text:
            raise ConfigError(f"prompt file {path} has no {PLACEHOLDER} placeholder; put it where "
                              "the question goes")
        return cls(name=path.name, text=text, sha256=hashlib.sha256(data).hexdigest())

    def render(self, question: str) -> str:
        return self.text.replace(PLACEHOLDER, question)


@dataclass(frozen=True)
class Parsed:
    answer: str
    long_answer: str


def parse_reply(text: str) -> Parsed:
    """The short and long answer of a reply (see the module docstring); `ParseError` if none."""
    data = _json_object(text)
    if data is not None:
        answer = data.get("answer")
        if isinstance(answer, (str, int, float)) and not isinstance(answer, bool) and str(answer).strip():
            reasoning = next((data[k] for k in _REASONING_KEYS if isinstance(data.get(k), str)), "")
            return Parsed(str(answer).strip(), reasoning.strip() or str(answer).strip())
        raise ParseError("the reply is a JSON object without a non-empty \"answer\" field")
    found = final_answer(text)
    if found is not None:
        return Parsed(*found)
    raise ParseError("no short answer in the reply: end it with a line \"Answer: ...\" or reply "
                     "with a JSON object {\"reasoning\": ..., \"answer\": ...}")


def _json_object(text: str) -> dict[str, Any] | None:
    fenced = _FENCE.match(text)
    body = (fenced.group(1) if fenced else text).strip()
    if not body.startswith("{"):
        return None
    try:
        data = json.loads(body)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def read_questions(source: IO[bytes], mapping: dict[str, str] | None = None,
                   skip: set[int] | None = None) -> Iterator[InputLine]:
    """One `InputLine` per question line: `id`, `question`, optional gold fields and `meta`.

    The record's answer fields are empty until the agent fills them.
    """
    mapping = mapping or {}
    taken = [f for f in AGENT_FIELDS if f in mapping]
    if taken:
        raise ConfigError(f"--map {taken[0]}=...: assess gets {taken[0]} from the agent's reply")
    for number, raw in iter_raw(source):
        if number in (skip or ()):
            continue
        obj, error = decode_line(raw, number)
        if error is None and not isinstance(obj, dict):
            error = InputError(f"line {number}: expected a JSON object, got {type(obj).__name__}",
                               line=number)
        if error is not None:
            yield InputLine(number, error=error, id=record_id(obj, mapping))
            continue
        try:
            # Blank agent fields, so the aliases never read an answer from the question line.
            record = to_record({**obj, **dict.fromkeys(AGENT_FIELDS, "")}, number, mapping)
        except InputError as exc:
            yield InputLine(number, error=exc, id=record_id(obj, mapping))
            continue
        yield InputLine(number, record=record)


def agent_signature(prompt: AgentPrompt, endpoint: Endpoint) -> str:
    """What made the answers: model, prompt hash, temperature and reply parser."""
    return Signature([("agent", endpoint.model_id()), ("agent_prompt", prompt.sha256[:12]),
                      ("agent_temp", 0), ("agent_parser", PARSER)]).format()


def assess(questions: Iterable[InputLine], prompt: AgentPrompt, endpoint: Endpoint,
           auditor: Auditor, window: int | None = None) -> Iterator[AuditResult]:
    """Ask, parse and audit each question; one result per line, in order.

    Args:
        questions: lines from `read_questions`.
        prompt: the prompt under test.
        endpoint: the agent's endpoint (its timeout, retries, budget, cache and concurrency).
        auditor: audits the replies (rules or LLM path).
        window: questions sent at once (default: four per concurrent call).
    Raises:
        ConfigError: no model, or no key for OpenAI (before any call).
    """
    signature = agent_signature(prompt, endpoint)
    size = window or 4 * endpoint.config.concurrency
    batch: list[InputLine] = []
    for line in questions:
        batch.append(line)
        if len(batch) == size:
            yield from _assess_window(batch, prompt, endpoint, auditor, signature)
            batch = []
    if batch:
        yield from _assess_window(batch, prompt, endpoint, auditor, signature)


def _assess_window(lines: list[InputLine], prompt: AgentPrompt, endpoint: Endpoint,
                   auditor: Auditor, signature: str) -> Iterator[AuditResult]:
    asked = [(line, line.record) for line in lines if line.record is not None]
    replies = endpoint.chat([TextRequest(prompt.render(record.question), prompt.sha256, f"record {line.id}")
                             for line, record in asked])
    outcomes: dict[int, tuple[ChatReply, Parsed | LogicscoreError]] = {}
    answered = []
    for (line, record), reply in zip(asked, replies, strict=True):
        try:
            parsed = reply.error or parse_reply(reply.text or "")
        except ParseError as exc:
            parsed = exc
        outcomes[line.number] = (reply, parsed)
        if isinstance(parsed, Parsed):
            answered.append(InputLine(line.number, record=record.model_copy(update={
                "answer": parsed.answer, "long_answer": parsed.long_answer})))
    audited = auditor.audit_many(answered)
    timing = auditor.config.timing
    for line in lines:
        if line.record is None:
            yield next(iter(auditor.audit_many([line])))  # the InputError record, as `score` writes it
            continue
        reply, outcome = outcomes[line.number]
        meta = AgentMeta(model=endpoint.model_id(), prompt_sha256=prompt.sha256, signature=signature,
                         latency_ms=reply.latency_ms if timing else None, cached=reply.cached)
        if isinstance(outcome, Parsed):
            result = next(audited)
            meta = meta.model_copy(update={"answer": outcome.answer, "long_answer": outcome.long_answer})
        else:
            if isinstance(outcome, ParseError):
                outcome = ParseError(f"record {line.id}: {outcome.message}", line=line.number)
                meta = meta.model_copy(update={"reply": _clip(reply.text or "")})
            result = auditor.error_result(line.id, outcome, time.perf_counter(), line=line.number,
                                          meta=line.record.meta)
            # The question asked stays readable; the agent gave no answer to show.
            result = result.model_copy(update={"question": line.record.question,
                                               "gold_answer": line.record.gold_answer})
        yield result.model_copy(update={"meta": result.meta.model_copy(update={"agent": meta})})


def _clip(text: str) -> str:
    return text if len(text) <= MAX_KEPT_REPLY else text[:MAX_KEPT_REPLY] + "…"
