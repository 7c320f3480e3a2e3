"""The compared sides of a comparison or yes/no question, linked to the answer's entities.

Part of the linking step (docs/architecture.md, "The stage flow"): once the linker has
matched the question's entities, the sides are picked among them, each option no mention
matched is tied to the entity it names, and the sides the short answer names are chosen.
The completeness stage then reads `flow.Reading.sides` and `.chosen` without linking again.
"""

from __future__ import annotations

from collections.abc import Callable

from ..flow import Linked
from ..models import QARecord, QuestionEntity
from ..question.types import linked_options, pick_sides
from .phrases import STOP, words


def link_sides(record: QARecord, linked: Linked,
               same_answer: Callable[[str, str], bool]) -> tuple[list[QuestionEntity], list[int]]:
    """The linked sides and the indices of those the short answer names (`same_answer`: the
    linker's answer equality)."""
    stated = {e for p in linked.propositions if not p.conclusion
              for e in (p.subject_entity, p.object_entity) if e}
    sides = linked_options(pick_sides(record.question, linked.question), linked.entities, stated,
                           record.long_answer)
    chosen = [i for i, q in enumerate(sides) if (q.entity and q.entity == linked.answer_entity)
              or same_answer(q.name, record.answer)]
    if not chosen:  # "Edward Franklin Albee III" for the option "Edward Albee"
        chosen = [i for i, q in enumerate(sides) if overlaps(q.name, record.answer)]
    return sides, chosen


def overlaps(option: str, answer: str) -> bool:
    """The answer names the option: all the option's words are in it, or all of its in the option."""
    a, b = set(words(option)) - STOP, set(words(answer)) - STOP
    return bool(a and b) and (a <= b or b <= a)
