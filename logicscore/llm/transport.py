"""The HTTP client under the OpenAI client: every response body read as a stream, capped.

The cap counts the bytes after content decoding, so a small compressed body that inflates
past it (a gzip bomb) stops at the cap like a large plain one. Only identity, gzip and
deflate are asked for and accepted: a decoder whose output per chunk has no useful bound
(stacked encodings, brotli) is refused instead of run.
"""

from __future__ import annotations

from typing import Any

ACCEPTED_ENCODINGS = ("identity", "gzip", "deflate")


class BodyRefused(Exception):
    """A response body over the cap or in an encoding that is not accepted."""


def client(max_body_bytes: int, timeout: float) -> Any:
    """An `httpx.AsyncClient` that reads each response within `max_body_bytes`."""
    import httpx

    async def capped(response: httpx.Response) -> None:
        encodings = [e.strip().lower() for e in response.headers.get("content-encoding", "").split(",")
                     if e.strip()]
        if len(encodings) > 1 or any(e not in ACCEPTED_ENCODINGS for e in encodings):
            await response.aclose()
            raise BodyRefused(f"the reply's content-encoding {', '.join(encodings)!r} is not one of "
                              f"{', '.join(ACCEPTED_ENCODINGS)}")
        chunks, size = [], 0
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if size > max_body_bytes:
                await response.aclose()
                raise BodyRefused(f"the reply is over the cap of {max_body_bytes:,} bytes; "
                                  "raise --llm-max-bytes if the server is trusted")
            chunks.append(chunk)
        # The body, read once within the cap: httpx's later read returns it as it is.
        response._content = b"".join(chunks)

    return httpx.AsyncClient(timeout=timeout, follow_redirects=False,
                             headers={"Accept-Encoding": ", ".join(ACCEPTED_ENCODINGS[1:])},
                             event_hooks={"response": [capped]})
