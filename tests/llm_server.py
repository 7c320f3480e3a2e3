"""A real HTTP server on 127.0.0.1 speaking the OpenAI chat-completions protocol, for tests.

Answers are scripted per call kind ("extract" for the decomposition prompt, and for any
other prompt such as an `assess` agent's, "judge" for the determinateness prompt, "ground"
for the grounding prompt) by a
function of the parsed user message (a string is sent as free text); faults are queued and
served first. Every call is recorded (path, headers, body) so tests can count and inspect.
"""

from __future__ import annotations

import json
import re
import threading
import time
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
                 ground: Callable[[dict], Any] | None = None):
        self.extract, self.judge = extract, judge or (lambda parts: {"answer": "UNKNOWN"})
        self.ground = ground or (lambda parts: {"hops": []})
        self.latency = latency
        self.reject_json_schema = reject_json_schema
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

    def respond(self, body: dict, headers: dict[str, str]) -> tuple[int, dict, str, float]:
        system = body["messages"][0]["content"]
        kind = ("judge" if "from one passage alone" in system
                else "ground" if "support the claims of an answer" in system else "extract")
        with self.lock:
            self.calls.append(Call(kind, body, headers, time.monotonic()))
        fault = self._next_fault(kind)
        if fault is not None and fault.status != 200:
            return fault.status, fault.headers, fault.body or '{"error": {"message": "scripted"}}', fault.delay
        if self.reject_json_schema and body.get("response_format", {}).get("type") == "json_schema":
            return 500, {}, '{"error": {"message": "json_schema response_format is not supported"}}', 0.0
        user = next(m["content"] for m in body["messages"] if m["role"] == "user")
        parts = {k: v for k, v in _PART.findall(user)}
        if fault is not None and fault.body is not None:
            content = fault.body
        else:
            reply = {"judge": self.judge, "ground": self.ground}.get(kind, self.extract)(parts)
            # A string is a free-text reply (the agent under test of `assess`), sent as it is.
            content = reply if isinstance(reply, str) else json.dumps(reply)
        delay = self.latency + (fault.delay if fault is not None else 0.0)
        return 200, {}, json.dumps(_completion(body.get("model", "m"), content)), delay

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            # Headers and body go out as two writes; with Nagle on, the client's delayed ACK
            # adds 40 ms to every call.
            disable_nagle_algorithm = True

            def do_POST(self):
                length = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(length))
                status, headers, text, delay = server.respond(body, dict(self.headers))
                time.sleep(delay)
                data = text.encode()
                try:
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    for k, v in headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a scripted hang past its timeout)

            def log_message(self, *args):
                pass

        return Handler


class _Server(ThreadingHTTPServer):
    # The default backlog of 5 drops connections beyond it under concurrency, and the
    # client's SYN retry then adds a second to the call.
    request_queue_size = 128


def _completion(model: str, content: str) -> dict:
    return {"id": "chatcmpl-test", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
