"""The API key, and the credentials of the endpoint's URL, kept out of everything the LLM path
keeps or shows.

A server may echo the key (in an error body, or inside a reply the model wrote), whole or in
part, and not always as it was sent: base64-encoded (a Basic header, a token dump), reversed,
or cut in groups with spaces or dashes between them. Every string that comes back from the
endpoint passes through `redact` before it is cut short, parsed, cached, written into a
record or put in a message: any run of text that matches a piece of at least `FRAGMENT`
letters and digits of one of those forms of the key, read across separators of up to
`MAX_GAP` other characters, becomes `MASK`. The `Authorization` header the client sends is
`Bearer <key>`, so masking the key masks it too.

A password or token written in `--base-url` (`http://user:pw@host/v1`, `…/v1?api-key=T`)
is registered by the endpoint (`remember_url`) and masked the same way, and `shown_url` is the
only form of the URL a message quotes.
"""

from __future__ import annotations

import base64
import os
import re
from bisect import bisect_right
from functools import cache
from urllib.parse import parse_qsl, urlsplit, urlunsplit

KEY_ENV = "OPENAI_API_KEY"
FRAGMENT = 7  # shorter pieces are too common in ordinary text to hide
MASK = "***"
MAX_GAP = 3  # separator characters read through between two pieces ("sk-ab cdefg hijkl")
_RUN = re.compile(r"[A-Za-z0-9]+")
_EXTRA: set[str] = set()  # credentials of the endpoint URLs in use
# Query parameters that carry a credential (`api-key`, `access_token`, `sig`, …); others
# (`api-version=2024-02-01`) are masked only where the URL is shown, not in every reply.
_CREDENTIAL = re.compile(r"key|token|secret|pass|sig|auth|cred|session", re.IGNORECASE)


def remember_url(url: str | None) -> None:
    """Mask the password and the credential query values of `url` from now on, wherever they
    appear."""
    if not url:
        return
    try:
        parts = urlsplit(url)
        found = [parts.password or "", *(value for name, value in parse_qsl(parts.query)
                                          if _CREDENTIAL.search(name))]
    except ValueError:
        return
    # A shorter one is masked only where the URL is shown: masked in every reply, "text" or
    # "name" would break the JSON the model wrote.
    _EXTRA.update(s for s in found if len(_flat(s)) >= FRAGMENT)


def shown_url(url: str | None) -> str:
    """`url` as a message may quote it: no user or password, each query value masked."""
    if not url:
        return "api.openai.com"
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        if parts.port is not None:
            host = f"{host}:{parts.port}"
        query = "&".join(f"{name}={MASK}" for name, _ in parse_qsl(parts.query, keep_blank_values=True))
        return urlunsplit((parts.scheme, host, parts.path, query, ""))
    except ValueError:
        return MASK


def redact(text: str) -> str:
    """`text` with every piece of a secret's forms of `FRAGMENT` or more characters masked."""
    key = os.environ.get(KEY_ENV) or ""
    secrets = tuple(sorted({key, *_EXTRA} - {""}))
    if not text or not secrets:
        return text
    long = tuple(s for s in secrets if len(_flat(s)) >= FRAGMENT)
    if not long:
        return text
    # First the pieces as written (separators of the key included: "test-4f"), then the
    # pieces of every form, read across separators.
    text = _masked(text, _found(text, _raw_grams(long)), None)
    flat, flat_starts, text_starts = _flatten(text)
    return _masked(text, _found(flat, _grams(long)), (flat_starts, text_starts))


def _masked(text: str, spans: list[tuple[int, int]], where: tuple[list[int], list[int]] | None) -> str:
    """`text` with each span (of `text`, or of its flat form when `where` maps it back) masked."""
    if not spans:
        return text
    out: list[str] = []
    at = 0
    for start, end in spans:
        begin, finish = (start, end) if where is None else (
            _to_text(start, *where), _to_text(end - 1, *where) + 1)
        out += [text[at:max(begin, at)], MASK]
        at = max(finish, at)
    out.append(text[at:])
    return "".join(out)


def _flat(text: str) -> str:
    return "".join(_RUN.findall(text))


def _flatten(text: str) -> tuple[str, list[int], list[int]]:
    """The letters and digits of `text` run together, a NUL where more than `MAX_GAP` other
    characters part them; with where each run starts in the flat text and in `text`."""
    pieces: list[str] = []
    flat_starts: list[int] = []
    text_starts: list[int] = []
    size, last_end = 0, None
    for run in _RUN.finditer(text):
        if last_end is not None and run.start() - last_end > MAX_GAP:
            pieces.append("\0")
            size += 1
        flat_starts.append(size)
        text_starts.append(run.start())
        pieces.append(run.group())
        size += len(run.group())
        last_end = run.end()
    return "".join(pieces), flat_starts, text_starts


def _to_text(position: int, flat_starts: list[int], text_starts: list[int]) -> int:
    k = bisect_right(flat_starts, position) - 1
    return text_starts[k] + position - flat_starts[k]


def _found(flat: str, grams: frozenset[str]) -> list[tuple[int, int]]:
    """Spans of `flat` covered by the grams, each run of overlapping pieces as one span."""
    spans: list[tuple[int, int]] = []
    for found in _pattern(grams).finditer(flat):
        start, end = found.span()
        if spans and start <= spans[-1][1]:
            start = spans[-1][0]
            spans.pop()
        # A match is one piece; the run of the secret around it may go on either side.
        while start > 0 and flat[start - 1:start - 1 + FRAGMENT] in grams:
            start -= 1
        while end < len(flat) and flat[end + 1 - FRAGMENT:end + 1] in grams:
            end += 1
        if spans and start <= spans[-1][1]:
            start = min(start, spans[-1][0])
            spans.pop()
        spans.append((start, end))
    return spans


@cache
def _pattern(grams: frozenset[str]) -> re.Pattern[str]:
    return re.compile("|".join(re.escape(g) for g in sorted(grams)))


@cache
def _raw_grams(secrets: tuple[str, ...]) -> frozenset[str]:
    return frozenset(s[i:i + FRAGMENT] for s in secrets for i in range(len(s) - FRAGMENT + 1))


@cache
def _grams(secrets: tuple[str, ...]) -> frozenset[str]:
    """Every `FRAGMENT`-long piece of the letters and digits of each secret's forms."""
    grams: set[str] = set()
    for secret in secrets:
        for form in _forms(secret):
            flat = _flat(form)
            grams.update(flat[i:i + FRAGMENT] for i in range(len(flat) - FRAGMENT + 1))
    return frozenset(grams)


def _forms(secret: str) -> list[str]:
    """The secret, reversed, and base64-encoded at each of the three byte alignments it may
    take inside longer encoded text (the characters that depend on what surrounds it left
    out); URL-safe base64 differs only in separators, which are read through."""
    data = secret.encode("utf-8")
    forms = [secret, secret[::-1]]
    for shift in range(3):
        encoded = base64.b64encode(b"\0" * shift + data).decode("ascii").rstrip("=")
        head = 4 if shift else 0
        forms.append(encoded[head:len(encoded) - 3])
    return forms
