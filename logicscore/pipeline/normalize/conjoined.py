"""Pass `conjoined_arguments`: a claim of "A and B" is a claim of A and a claim of B
(docs/coreference.md).

"Alternative rock is a genre that both bands, Breaking Benjamin and Foals, share" gives one
argument, "Breaking Benjamin and Foals", that no entity of its own stands for; the answer
names each band elsewhere. When every part of a conjoined argument is written on its own
somewhere else in the long answer, the claim is split into one per part, so each part
chains as the text says it. A name with "and" in it ("Simon and Garfunkel", "Procter and
Gamble") keeps its claim whole: its parts are never written alone.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..flow import Extraction
from ...models import Proposition

# "A and B", "A, B and C", "A, B, and C", "both A and B".
_PARTS = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+")
_BOTH = re.compile(r"^(?:both|the)\s+", re.I)


def _parts(text: str, known: set[str]) -> list[str] | None:
    """The parts of a conjoined argument when each is written alone elsewhere, else None."""
    if " and " not in text:
        return None
    parts = [p.strip() for p in _PARTS.split(_BOTH.sub("", text.strip())) if p.strip()]
    if len(parts) < 2 or not all(p.casefold() in known for p in parts):
        return None
    return parts


def split_conjoined(extraction: Extraction) -> Extraction:
    """Each claim whose subject or object is a conjunction of names the answer writes alone,
    split into one claim per name; ids renumbered in order when any claim was split."""
    props = extraction.propositions
    known = {m.text.casefold() for m in extraction.mentions}
    known |= {a.casefold() for p in props for a in (p.subject, p.object) if " and " not in a}
    out: list[Proposition] = []
    split: set[str] = set()
    for p in props:
        subjects = _parts(p.subject, known) or [p.subject]
        objects = _parts(p.object, known) or [p.object]
        if len(subjects) == 1 and len(objects) == 1:
            out.append(p)
            continue
        split |= {a for a, parts in ((p.subject, subjects), (p.object, objects)) if len(parts) > 1}
        out.extend(p.model_copy(update={"subject": s, "object": o}) for s in subjects for o in objects)
    if not split:
        return extraction
    renumbered = [p.model_copy(update={"id": f"P{k + 1}"}) for k, p in enumerate(out)]
    # The conjunction itself is no entity: its parts are.
    mentions = [m for m in extraction.mentions if m.text not in split]
    return replace(extraction, propositions=renumbered, mentions=mentions)
