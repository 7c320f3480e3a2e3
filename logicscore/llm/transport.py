"""The HTTP client under the OpenAI client: each call bounded in time, each body in bytes.

A call may take `timeout` seconds in all, from sending the request to the body's last byte
(httpx's own timeouts bound each read, so a body dripped a byte at a time would never trip
them). The clock starts when the request is sent, not while the client builds it.

The body is read as a stream and capped after content decoding, so a small compressed body
that inflates past the cap (a gzip bomb) stops there like a large plain one. Only identity,
gzip and deflate are asked for and accepted: a decoder whose output per chunk has no useful
bound (stacked encodings, brotli) is refused instead of run.
"""

from __future__ import annotations

import asyncio
from typing import Any

ACCEPTED_ENCODINGS = ("identity", "gzip", "deflate")
_ENDS = "logicscore_ends"  # the request's extension key: the loop time its call must end by


class BodyRefused(Exception):
    """A response body over the cap or in an encoding that is not accepted."""


def client(max_body_bytes: int, timeout: float) -> Any:
    """An `httpx.AsyncClient` whose calls end within `timeout` s and `max_body_bytes`."""
    import httpx

    class Bounded(httpx.AsyncHTTPTransport):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            ends = asyncio.get_running_loop().time() + timeout
            request.extensions[_ENDS] = ends
            try:
                async with asyncio.timeout_at(ends):
                    return await super().handle_async_request(request)
            except TimeoutError:
                raise httpx.ReadTimeout(f"no reply within {timeout:g} s", request=request) from None

    async def capped(response: httpx.Response) -> None:
        encodings = [e.strip().lower() for e in response.headers.get("content-encoding", "").split(",")
                     if e.strip()]
        if len(encodings) > 1 or any(e not in ACCEPTED_ENCODINGS for e in encodings):
            await response.aclose()
            raise BodyRefused(f"the reply's content-encoding {', '.join(encodings)!r} is not one of "
                              f"{', '.join(ACCEPTED_ENCODINGS)}")
        chunks, size = [], 0
        try:
            async with asyncio.timeout_at(response.request.extensions.get(_ENDS)):
                async for chunk in response.aiter_bytes():
                    size += len(chunk)
                    if size > max_body_bytes:
                        await response.aclose()
                        raise BodyRefused(f"the reply is over the cap of {max_body_bytes:,} bytes; "
                                          "raise --llm-max-bytes if the server is trusted")
                    chunks.append(chunk)
        except TimeoutError:
            await response.aclose()
            raise httpx.ReadTimeout(f"the reply's body took over {timeout:g} s",
                                    request=response.request) from None
        # The body, read once within the cap: httpx's later read returns it as it is.
        response._content = b"".join(chunks)

    # What httpcore imports on its first connection, imported now: off the first call's clock.
    import anyio._backends._asyncio  # noqa: F401
    import httpcore._backends.anyio  # noqa: F401

    return httpx.AsyncClient(transport=Bounded(), timeout=timeout, follow_redirects=False,
                             headers={"Accept-Encoding": ", ".join(ACCEPTED_ENCODINGS[1:])},
                             event_hooks={"response": [capped]})
