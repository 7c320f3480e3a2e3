"""Names that contain another name the text uses on its own: a battle of a city is about
the city, a governor of a state about the state, a university's team is the university's.
The outer name states that relation, so it becomes a proposition; the two are never one
entity. `RULES` are tried in order and the first that finds a known inner name decides."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import replace

from ...lexicon.generic import LANGUAGE_PERIODS
from ...lexicon.names import GENERATIONS
from ..text.mentions import normalize
from .mentions import Arg

# "<Head> of <Name>": the head is a common or title word, the tail a name of its own.
_OF = re.compile(r"\s+(?:of|de)\s+(?:the\s+)?(?=[A-Z])")  # never a year: "War of 1812"
# A period of a language is a stage of that language.
_PERIOD = re.compile(r"^(?:%s)\s+(?=[A-Z]\w+$)" % "|".join(LANGUAGE_PERIODS))
# A maker's name before a known name of two words or more.
_MAKER = re.compile(r"^[A-Z][\w&.-]*\s+(?=[A-Z]\S*\s+\S)")


def nested(args: Iterable[Arg], known: set[str]) -> list[tuple[Arg, Arg]]:
    """(outer, inner) for each argument holding a name in `known` (normalized names used
    elsewhere: other mentions, the question's entities, the answer): the first of `RULES`
    that finds one decides."""
    out = []
    for arg in args:
        if arg.resolution is not None:
            continue
        for rule in RULES:
            inner = rule(arg, known)
            if inner is not None:
                out.append((arg, inner))
                break
    return out


def _known_tail(arg: Arg, known: set[str], pattern: re.Pattern[str]) -> Arg | None:
    """The text after the first match of `pattern` whose rest is a known name of its own."""
    for m in pattern.finditer(arg.text):
        tail = arg.text[m.end():]
        key = normalize(tail)
        if key and key in known and key != normalize(arg.text):
            start = arg.start + m.end()
            return replace(arg, text=tail, start=start, end=start + len(tail))
    return None


def of_tail(arg: Arg, known: set[str]) -> Arg | None:
    """"X of Y" / "X de Y": the battle of a city, the governor of a state is about Y."""
    if "of" not in arg.text and "de" not in arg.text:
        return None  # what every match holds: most names are searched no further
    return _known_tail(arg, known, _OF)


def period_tail(arg: Arg, known: set[str]) -> Arg | None:
    """"Middle Y": a period of a known language is that language's."""
    if not arg.text.startswith(LANGUAGE_PERIODS):
        return None  # what every match starts with
    return _known_tail(arg, known, _PERIOD)


def maker_tail(arg: Arg, known: set[str]) -> Arg | None:
    """"Maker Y Z": a maker's name before a known product name; a person is nobody's."""
    return None if arg.kind == "person" else _known_tail(arg, known, _MAKER)


def head_name(arg: Arg, known: set[str]) -> Arg | None:
    """A known name heading a longer one: a state's senate, a university's team."""
    head = _head_name(arg.text, known, arg.kind != "person")
    return replace(arg, text=head, end=arg.start + len(head)) if head else None


RULES: tuple[Callable[[Arg, set[str]], Arg | None], ...] = (
    of_tail, period_tail, maker_tail, head_name)


def _head_name(text: str, known: set[str], thing: bool) -> str | None:
    """A known name of two words or more that starts a longer one. One word never (a
    city's name starting a person's), and a person's name only through "of" or before a
    generation (the text also writes "Name, Sr."): a person is nobody's."""
    words = text.split()
    for n in range(len(words) - 1, 1, -1):
        if not words[n][:1].isupper():
            continue
        head = " ".join(words[:n])
        suffix = all(w.lower().rstrip(".") in GENERATIONS for w in words[n:])
        if (thing or suffix or " of " in f" {head} ") and normalize(head) in known:
            return head
    return None
