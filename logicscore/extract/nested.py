"""Names that contain another name the text uses on its own: "the Battle of New Orleans"
is about New Orleans, "the Governor of Vatican City" about Vatican City, "the University of
Mississippi Rebels" are the university's team. The outer name states that relation, so it
becomes a proposition; the two are never one entity."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from ..lexicon.names import GENERATIONS
from ..normalize.mentions import normalize
from .mentions import Arg

# "<Head> of <Name>": the head is a common or title word, the tail a name of its own.
_OF = re.compile(r"\s+(?:of|de)\s+(?:the\s+)?(?=[A-Z])")  # never a year: "War of 1812"
# "Medieval Latin" is a stage of Latin, "Old English" of English.
_PERIOD = re.compile(r"^(?:Old|Middle|Early|Late|Ancient|Classical|Medieval|Vulgar|Modern)\s+"
                     r"(?=[A-Z]\w+$)")
# "Sony PlayStation Portable": a maker's name before a known name of two words or more.
_MAKER = re.compile(r"^[A-Z][\w&.-]*\s+(?=[A-Z]\S*\s+\S)")


def nested(args: Iterable[Arg], known: set[str]) -> list[tuple[Arg, Arg]]:
    """(outer, inner) for each argument whose "of" tail, period-free ("Medieval Latin") or
    maker-free ("Sony PlayStation Portable") name, or whose head, is a name in `known`
    (normalized names used elsewhere: other mentions, the question's entities, the answer)."""
    out = []
    for arg in args:
        if arg.resolution is not None:
            continue
        maker = _MAKER.finditer(arg.text) if arg.kind != "person" else ()
        for m in (*_OF.finditer(arg.text), *_PERIOD.finditer(arg.text), *maker):
            tail = arg.text[m.end():]
            key = normalize(tail)
            if key and key in known and key != normalize(arg.text):
                start = arg.start + m.end()
                out.append((arg, replace(arg, text=tail, start=start, end=start + len(tail))))
                break
        else:
            head = _head_name(arg.text, known, arg.kind != "person")
            if head:
                out.append((arg, replace(arg, text=head, end=arg.start + len(head))))
    return out


def _head_name(text: str, known: set[str], thing: bool) -> str | None:
    """A known name of two words or more that starts a longer one: "University of
    Mississippi Rebels" is the university's team, the "South Carolina Senate" the state's.
    One word never ("Paris Hilton"), and a person's name only through "of" or before a
    generation ("Hector Macpherson Sr." where the text also writes "Hector Macpherson, Sr."):
    "Martin Luther King" is not Martin Luther's."""
    words = text.split()
    for n in range(len(words) - 1, 1, -1):
        head = " ".join(words[:n])
        suffix = all(w.lower().rstrip(".") in GENERATIONS for w in words[n:])
        if (thing or suffix or " of " in f" {head} ") and normalize(head) in known \
                and words[n][:1].isupper():
            return head
    return None
