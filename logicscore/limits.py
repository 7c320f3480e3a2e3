"""Limits one audit runs under: a deadline per record, and the cyclic collector's pauses
(while one very long answer is audited, and while the model loads)."""

from __future__ import annotations

import gc
import re
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from .errors import Timeout


# A long answer's linking and chaining build a live set of millions of objects; the cyclic
# collector's passes over it made the time grow faster than the answer (×5.4 for ×4 at
# 20,000 propositions, ×4.6 without them). The collector rests while one such answer is
# audited (what it would free is freed once it runs again); shorter answers are untouched.
GC_PAUSE_CHARS = 100_000
_gc_lock = threading.Lock()
# Audits holding the pause; whether the collector was on before; its thresholds before.
_gc_held: list = [0, False, (700, 10, 10)]


@contextmanager
def gc_paused(active: bool) -> Iterator[None]:
    """No automatic collection inside the block (nested blocks count together).

    A zero first threshold stops automatic collection even once the collector is enabled
    again: srsly's `msgpack_loads`, which spaCy calls for each of a model's weight files,
    disables it and then enables it whatever it was, so `gc.disable()` alone would not
    hold through a model load.
    """
    if not active:
        yield
        return
    with _gc_lock:
        if _gc_held[0] == 0:
            _gc_held[1] = gc.isenabled()
            _gc_held[2] = gc.get_threshold()
            gc.disable()
            gc.set_threshold(0, *_gc_held[2][1:])
        _gc_held[0] += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_held[0] -= 1
            if _gc_held[0] == 0:
                gc.set_threshold(*_gc_held[2])
                (gc.enable if _gc_held[1] else gc.disable)()


# Where a sentence ends, as cheaply as a regular expression can see it before any parse:
# closing punctuation before a space or the end, or a line break before more text.
_SENTENCE_END = re.compile(r"[.!?\u2026\u3002\uff01\uff1f]+(?=\s|$)|\n+(?=\s*\S)")


def count_sentences(text: str, stop: int | None = None) -> int:
    """Sentences in `text` as its punctuation and line breaks mark them (a text without any
    is one), counting no further than one past `stop`: the size budget of a record."""
    count = end = 0
    for count, match in enumerate(_SENTENCE_END.finditer(text), start=1):
        end = match.end()
        if stop is not None and count > stop:
            return count
    return count + bool(text[end:].strip())  # a last sentence without its full stop


@contextmanager
def deadline(seconds: float | None, record_id: str):
    """Raise `Timeout` in the running code once `seconds` have passed (main thread, Unix)."""
    usable = (seconds is not None and hasattr(signal, "setitimer")
              and threading.current_thread() is threading.main_thread())
    if not usable or seconds is None:
        yield
        return

    def expire(signum, frame):
        raise Timeout(f"record {record_id}: took longer than {seconds:g} s; "
                      "raise the limit with --timeout")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextmanager
def model_loading() -> Iterator[None]:
    """No garbage collection while spaCy and its model load, then the loaded objects are
    left out of every later one. For processes logicscore owns (the CLI, `--workers`, the
    Ray engine's Scorer actors): in a library user's process the freeze would keep their
    garbage too.

    The load makes about 100,000 objects that live as long as the process and almost no
    garbage; the full collections it sets off would each walk all of them (tens of ms),
    and so would the next ones, for nothing. Frozen, they are never walked again.
    """
    with gc_paused(True):
        try:
            yield
        finally:
            gc.freeze()
