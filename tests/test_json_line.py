"""`AuditResult.to_json` writes the line pydantic-core gives only where it is the line the
dumped dict and `json.dumps` give: these hold the two against each other at the edges."""

from __future__ import annotations

import json
import math
import random
import struct

import pydantic_core
import pytest

from logicscore.io import ResultWriter
from logicscore.models import AgentMeta, AuditResult, Proposition, ResultMeta, Scores

TINY = [1e-5, 1.5e-5, 9.9e-5, 1e-9, 1.2e-7, -3e-6, 5e-324, 1e-10, 1e-300]
HUGE = [1e15, 9999999999999998.0, 1e16, 1.5e16, 1e17, 1e22, 1e300, 1.7976931348623157e308]
PLAIN = [0.0, -0.0, 1e-4, 0.00010000000000000002, 0.1, 1 / 3, 2 / 3, 0.5, 1.0, 123.4, 12.0]
ODD = [math.inf, -math.inf, math.nan]


def _result(x: float | None = 0.5, text: str = "A is B.", record: dict | None = None,
            agent: bool = False) -> AuditResult:
    scores = Scores(completeness=1, conciseness=x if x is not None else 1.0, determinateness=1,
                    partial_completeness=x if x is not None else 1.0, conciseness_partial=0.25,
                    grounded_chain=x)
    prop = Proposition(id="P1", text=text, subject=text[:3], relation="is", object=text[-3:])
    meta = ResultMeta(signature="sig", latency_ms=x, line=3, record=record or {},
                      agent=AgentMeta(model="m", prompt_sha256="0" * 64, signature="s",
                                      latency_ms=x, answer=text) if agent else None)
    return AuditResult(id=text, scores=scores, propositions=[prop], meta=meta)


def _both(result: AuditResult) -> tuple[str | type, str | type]:
    def run(f):
        try:
            return f()
        except (ValueError, TypeError) as exc:
            return type(exc)
    return run(result.to_json), run(result._dumped_json)


@pytest.mark.parametrize("x", [None, *TINY, *HUGE, *PLAIN, *ODD, *(-v for v in TINY + HUGE)])
@pytest.mark.parametrize("agent", [False, True])
def test_every_float_field_writes_the_dumped_bytes(x, agent):
    new, old = _both(_result(x, agent=agent))
    assert new == old
    new, old = _both(_result(0.5, record={"score": x, "nested": [{"v": x}], "n": 2 ** 70}))
    assert new == old


@pytest.mark.parametrize("text", [
    "line\u2028separator\u2029paragraph\x85next", "é Zoë 東京 🙂 \x7f", "tab\tnew\nline\r\x00\x1f\"\\",
    "lone \ud800 surrogate", "\udfff", "paired 🙂 \U0010ffff", "text with 1e-5 in it", "0.00001 written",
])
def test_strings_write_the_dumped_bytes(text):
    for result in (_result(text=text), _result(record={text: text, "k": [text]}, text="x" * 9),
                   _result(text=text, agent=True)):
        new, old = _both(result)
        assert new == old


def test_a_lone_surrogate_still_reaches_the_writer_as_one_error_line(tmp_path):
    path = tmp_path / "out.jsonl"
    with path.open("w", encoding="utf-8") as fh:
        ResultWriter(fh).write(_result(text="bad \ud800 id"))
    (line,) = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(line)["status"] == "error"


def test_random_floats_format_alike_outside_the_tiny_range():
    """The float digits pydantic-core writes are json's for every magnitude but below 1e-4."""
    rng = random.Random(7)
    floats = [struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0] for _ in range(200_000)]
    floats += [rng.random() * 10 ** rng.randint(-4, 20) for _ in range(100_000)]
    floats = [f for f in floats if math.isfinite(f) and (f == 0 or abs(f) >= 1e-4)]
    assert pydantic_core.to_json(floats).decode() == json.dumps(floats, separators=(",", ":"))


def test_every_code_point_is_escaped_alike():
    text = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000)
    assert pydantic_core.to_json(text).decode() == json.dumps(text, ensure_ascii=False)
