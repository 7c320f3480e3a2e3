"""A real HTTP server on 127.0.0.1 speaking the OpenAI chat-completions protocol, for tests.

Answers are scripted per call kind ("extract" for the decomposition prompt, and for any
other prompt such as an `assess` agent's, "judge" for the determinateness prompt, "ground"
for the grounding prompt) by a
function of the parsed user message (a string is sent as free text); faults are queued and
served first. Every call is recorded (path, headers, body) so tests can count and inspect.

`family` makes the server take and refuse structured-output requests as one kind of local
server does (FAMILIES, with the error each answers); a fault can also drip its body, pad it
to any size (streamed, never held whole), gzip it, or echo the request's Authorization value.
`chars_per_token` makes the server honour `max_tokens` as a real one does: a reply longer
than that many tokens is cut there, mid-JSON, with `finish_reason: "length"`.
"""

from __future__ import annotations

import json
import re
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

_PART = re.compile(r"<(question|short_answer|long_answer|passage|hops|documents)>\n(.*?)\n</\1>", re.DOTALL)


@dataclass
class Fault:
    """One scripted misbehaviour, served to the next matching call."""

    status: int = 200
    body: str | None = None          # raw reply content (200) or error body (other statuses)
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0               # seconds before answering (a hang when past the timeout)
    kind: str | None = None          # "extract", "judge" or None for either
    drip: float = 0.0                # seconds between the bytes of the body (a slow body)
    pad_to: int = 0                  # a 200 body padded to this many bytes, sent in chunks
    gzip: bool = False               # the body sent gzip-compressed (with pad_to: a gzip bomb)
    raw: bool = False                # the body sent as it is, not wrapped in a completion
    finish: str = "stop"             # the completion's finish_reason ("length": cut at the limit)


# How each server family answers each way of asking for structured output: None takes it
# (and constrains the reply to the schema), else (status, error body) as that server words it.
def _openai_error(message: str) -> str:
    return json.dumps({"error": {"message": message, "type": "invalid_request_error"}})


def _pydantic_error(kind: str, loc: tuple, msg: str) -> str:
    return str([{"type": kind, "loc": ("body", *loc), "msg": msg}])


_LITERAL = _pydantic_error("literal_error", ("response_format", "type"),
                           "Input should be 'text' or 'json_object'")


def _vllm_error(message: str) -> str:
    return json.dumps({"object": "error", "message": message, "type": "BadRequestError",
                       "param": None, "code": 400})


_LMSTUDIO = json.dumps({"error": "'response_format.type' must be 'json_schema'"})
FAMILIES: dict[str, dict[str, tuple[int, str] | None]] = {
    # OpenAI itself, and vLLM and Ollama releases that take the JSON-schema format.
    "openai": {"schema": None, "object-schema": None,
               "vllm": (400, _openai_error("Unrecognized request argument supplied: guided_json")),
               "ollama": (400, _openai_error("Unrecognized request argument supplied: format")),
               "object": None},
    # LM Studio: JSON schema only; any other response_format type is a 400.
    "lmstudio": {"schema": None, "object-schema": (400, _LMSTUDIO), "vllm": None, "ollama": None,
                 "object": (400, _LMSTUDIO)},
    # llama-cpp-python's server: its request model takes 'text' or 'json_object' (with an
    # optional schema) and answers a validation failure with HTTP 500.
    "llama-cpp-python": {"schema": (500, json.dumps({"error": {"message": _LITERAL,
                                                               "type": "internal_server_error"}})),
                         "object-schema": None, "vllm": None, "ollama": None, "object": None},
    # vLLM before the JSON-schema format: response_format type 'text' or 'json_object', no
    # other keys; guided decoding through `guided_json`.
    "vllm": {"schema": (400, _vllm_error(_LITERAL)),
             "object-schema": (400, _vllm_error(_pydantic_error(
                 "extra_forbidden", ("response_format", "schema"), "Extra inputs are not permitted"))),
             "vllm": None,
             "ollama": (400, _vllm_error(_pydantic_error(
                 "extra_forbidden", ("format",), "Extra inputs are not permitted"))),
             "object": None},
    # An Ollama that takes a schema only in its own `format` field.
    "ollama": {"schema": (400, _openai_error("invalid response_format type: json_schema")),
               "object-schema": (400, _openai_error("response_format: unknown field schema")),
               "vllm": (400, _openai_error("unknown field guided_json")),
               "ollama": None, "object": None},
    # A server with JSON mode only: every field carrying a schema is refused.
    "json-mode": {"schema": (400, _openai_error("response_format json_schema is not supported")),
                  "object-schema": (400, _openai_error("response_format.schema is not supported")),
                  "vllm": (400, _openai_error("Unrecognized request argument supplied: guided_json")),
                  "ollama": (400, _openai_error("Unrecognized request argument supplied: format")),
                  "object": None},
}


def mode_of(body: dict) -> str | None:
    """The structured-output mode a request asks in (None: free text)."""
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        return "schema"
    if fmt.get("type") == "json_object":
        return "object-schema" if "schema" in fmt else "object"
    if "guided_json" in body:
        return "vllm"
    if "format" in body:
        return "ollama"
    return None


@dataclass
class Call:
    kind: str
    body: dict
    headers: dict[str, str]
    at: float


class FakeLLM:
    """The scripted server. `extract(parts)` and `judge(parts)` return the reply objects."""

    def __init__(self, extract: Callable[[dict], Any], judge: Callable[[dict], Any] | None = None,
                 latency: float = 0.0, reject_json_schema: bool = False,
                 ground: Callable[[dict], Any] | None = None, family: str | None = None,
                 chars_per_token: int | None = None, hops: Callable[[dict], Any] | None = None):
        self.extract, self.judge = extract, judge or (lambda parts: {"answer": "UNKNOWN"})
        self.hops = hops or (lambda parts: {"hops": [], "answer_follows": False})
        self.ground = ground or (lambda parts: {"hops": []})
        self.latency = latency
        self.reject_json_schema = reject_json_schema
        self.family = FAMILIES[family] if family else None
        self.chars_per_token = chars_per_token
        self.faults: list[Fault] = []
        self.calls: list[Call] = []
        self.lock = threading.Lock()
        self.httpd = _Server(("127.0.0.1", 0), self._handler())
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def count(self, kind: str | None = None) -> int:
        return sum(1 for c in self.calls if kind in (None, c.kind))

    def __enter__(self) -> Self:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def _next_fault(self, kind: str) -> Fault | None:
        with self.lock:
            for i, f in enumerate(self.faults):
                if f.kind in (None, kind):
                    return self.faults.pop(i)
        return None

    def modes(self) -> list[str | None]:
        """The structured-output mode of every call, in order."""
        return [mode_of(c.body) for c in self.calls]

    def respond(self, body: dict, headers: dict[str, str]) -> tuple[int, dict, str, float, Fault | None]:
        system = body["messages"][0]["content"]
        kind = ("judge" if "from one passage alone" in system
                else "ground" if "support the claims of an answer" in system
                else "hops" if "hop by hop" in system else "extract")
        with self.lock:
            self.calls.append(Call(kind, body, headers, time.monotonic()))
        fault = self._next_fault(kind)
        auth = headers.get("Authorization", headers.get("authorization", ""))
        if fault is not None and fault.status != 200:
            text = (fault.body or '{"error": {"message": "scripted"}}').replace("{auth}", auth)
            return fault.status, fault.headers, text, fault.delay, fault
        if self.reject_json_schema and body.get("response_format", {}).get("type") == "json_schema":
            return 500, {}, '{"error": {"message": "json_schema response_format is not supported"}}', 0.0, None
        mode = mode_of(body)
        if self.family is not None and mode is not None and self.family[mode] is not None:
            status, text = self.family[mode]
            return status, {}, text, 0.0, None
        user = next(m["content"] for m in body["messages"] if m["role"] == "user")
        parts = {k: v for k, v in _PART.findall(user)}
        if fault is not None and fault.raw:
            return 200, fault.headers, (fault.body or "").replace("{auth}", auth), fault.delay, fault
        if fault is not None and fault.body is not None:
            content = fault.body.replace("{auth}", auth)
        else:
            reply = {"judge": self.judge, "ground": self.ground, "hops": self.hops}.get(kind, self.extract)(parts)
            # A string is a free-text reply (the agent under test of `assess`), sent as it is.
            content = reply if isinstance(reply, str) else json.dumps(reply)
        delay = self.latency + (fault.delay if fault is not None else 0.0)
        headers = fault.headers if fault is not None else {}
        finish = fault.finish if fault is not None else "stop"
        limit = body.get("max_tokens")
        if self.chars_per_token and limit is not None and len(content) > limit * self.chars_per_token:
            content, finish = content[:limit * self.chars_per_token], "length"
        return 200, headers, json.dumps(_completion(body.get("model", "m"), content, finish)), delay, fault

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            # Headers and body go out as two writes; with Nagle on, the client's delayed ACK
            # adds 40 ms to every call.
            disable_nagle_algorithm = True

            def do_POST(self):
                length = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(length))
                status, headers, text, delay, fault = server.respond(body, dict(self.headers))
                time.sleep(delay)
                chunks = _body(text.encode(), fault)
                try:
                    self.send_response(status)
                    if status != 204:
                        self.send_header("content-type", "application/json")
                    if fault is not None and fault.gzip:
                        self.send_header("content-encoding", "gzip")
                    streamed = fault is not None and (fault.drip or fault.pad_to or fault.gzip)
                    if streamed:  # no length known ahead: the body ends when the connection does
                        self.send_header("connection", "close")
                        self.close_connection = True
                    else:
                        self.send_header("content-length", str(len(text.encode())))
                    for k, v in headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    for chunk in chunks:
                        self.wfile.write(chunk)
                        if fault is not None and fault.drip:
                            self.wfile.flush()
                            time.sleep(fault.drip)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a scripted hang past its timeout)

            def log_message(self, *args):
                pass

        return Handler


def _body(data: bytes, fault: Fault | None):
    """The body's chunks: as it is, one byte at a time (drip), padded, and/or gzipped."""
    if fault is not None and fault.drip:
        yield from (data[i:i + 1] for i in range(len(data)))
        return
    if fault is None or not (fault.pad_to or fault.gzip):
        yield data
        return
    plain = _padded(data, fault.pad_to) if fault.pad_to else iter([data])
    if not fault.gzip:
        yield from plain
        return
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: the gzip container
    for piece in plain:
        out = packer.compress(piece)
        if out:
            yield out
    yield packer.flush()


def _padded(data: bytes, size: int):
    """`data` (a completion) with spaces before its closing brace up to `size` bytes."""
    head, tail = data[:-1], data[-1:]
    yield head
    left, block = size - len(data), b" " * (1 << 20)
    while left > 0:
        yield block[:min(left, len(block))]
        left -= len(block)
    yield tail


class _Server(ThreadingHTTPServer):
    # The default backlog of 5 drops connections beyond it under concurrency, and the
    # client's SYN retry then adds a second to the call.
    request_queue_size = 128


def _completion(model: str, content: str, finish: str = "stop") -> dict:
    return {"id": "chatcmpl-test", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "finish_reason": finish,
                         "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
