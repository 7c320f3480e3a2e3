"""Rule `described_bridge`: completeness for a question that names no anchor (docs/metrics.md).

"By how many votes did the person the organizers wanted to arrest survive impeachment?"
names nothing a chain could start from: its entities are descriptions. Such an answer is
complete when it names a bridge, says of that bridge what the question describes, and
chains the bridge to the answer: "The person the organizers wanted to arrest is Dan Roe.
Dan Roe survived impeachment by 57-43." A whole-question restatement with the answer filled
in names no bridge, so it stays incomplete.

A bridge is tied to the description by a sentence that names it, does not name the answer
(the tie is a hop of its own, before the hop into the answer) and shares at least
`TIE_WORDS` content words with the question, not counting the words of the bridge's own
name, of the answer or of the hop into the answer (a bridge called "Central Catalan" is not
tied to a question about Catalan by its name, nor "Dan Roe survived impeachment" to "who
survived impeachment" by the asked relation). Only what a sentence says before a concluding "so", "therefore" counts:
a conclusion restating the question ties nothing.
"""

from __future__ import annotations

import re

from ..formats.conclusion import sentence_spans
from ..models import LITERAL_KINDS, Entity, QARecord
from .flow import Linked
from .text.phrases import CONCLUDING, content_stems, question_stems

TIE_WORDS = 3


def _stated(text: str) -> list[tuple[int, int, str]]:
    """Each sentence's span and what it states before any concluding word."""
    out = []
    for lo, hi in sentence_spans(text):
        body = text[lo:hi]
        cut = CONCLUDING.search(body)
        out.append((lo, hi, body[:cut.start()] if cut else body))
    return out


def _named(e: Entity) -> re.Pattern[str] | None:
    """Any of an entity's written forms, in any case ("the casino game of craps. Craps is …")."""
    forms = sorted({m.text for m in e.mentions if m.text.strip()})
    if not forms:
        return None
    return re.compile("|".join(rf"(?<!\w){re.escape(f)}(?!\w)" for f in forms), re.I)


def described_bridge(record: QARecord, linked: Linked) -> str | None:
    """The named entity the long answer ties to the question's description, most words
    shared first, then earliest; None when the question names an anchor or nothing is tied."""
    if any(q.anchor for q in linked.question) or linked.answer_entity is None:
        return None
    asked = question_stems(record.question)
    names = {e.id: e.name for e in linked.entities}
    answer = content_stems(record.answer) | content_stems(names.get(linked.answer_entity, ""))
    # The hop into the answer repeats the question's asked relation ("survived the recall by
    # 41-9"): those words describe the answer, not the bridge.
    answer |= {s for p in linked.propositions if linked.answer_entity in (p.subject_entity, p.object_entity)
               for s in content_stems(p.relation)}
    stated = [(lo, hi, content_stems(said)) for lo, hi, said in _stated(record.long_answer)]
    answer_named = next((_named(e) for e in linked.entities if e.id == linked.answer_entity), None)
    best: tuple[int, int, str] | None = None
    for e in linked.entities:
        if e.id == linked.answer_entity or e.kind in LITERAL_KINDS:
            continue
        own = answer | {s for m in e.mentions for s in content_stems(m.text)}
        named = _named(e)
        for lo, hi, said in stated:
            if answer_named is not None and answer_named.search(record.long_answer, lo, hi):
                continue
            found = named.search(record.long_answer, lo, hi) if named is not None else None
            if found is None:
                continue
            shared = len((said & asked) - own)
            if shared >= TIE_WORDS and (best is None or (shared, -found.start()) > best[:2]):
                best = (shared, -found.start(), e.id)
    return best[2] if best else None
