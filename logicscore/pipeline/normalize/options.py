"""The compared sides of a comparison or yes/no question, linked to the answer's entities.

Part of the linking step (docs/architecture.md, "The stage flow"): the question step has
picked the sides among the question's entities (`question.types.pick_sides`); once the
linker has matched those, each option no mention matched is tied to the entity it names,
and the sides the short answer names are chosen. The completeness stage then reads
`flow.Reading.sides` and `.chosen` without linking again.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..flow import Linked
from ...models import LITERAL_KINDS, Entity, QARecord, QuestionEntity
from ...lexicon.stop_words import PHRASE_STOP_WORDS
from ..text.phrases import words

_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")


def link_sides(record: QARecord, linked: Linked, picked: list[QuestionEntity],
               same_answer: Callable[[str, str], bool]) -> tuple[list[QuestionEntity], list[int]]:
    """The `picked` sides linked, and the indices of those the short answer names
    (`same_answer`: the linker's answer equality)."""
    stated = {e for p in linked.propositions if not p.conclusion
              for e in (p.subject_entity, p.object_entity) if e}
    # The linker hands back each question entity under its own name, its entity set.
    by_name: dict[str, QuestionEntity] = {}
    for q in linked.question:
        by_name.setdefault(q.name, q)
    sides = linked_options([by_name.get(q.name, q) for q in picked], linked.entities, stated,
                           record.long_answer)
    chosen = [i for i, q in enumerate(sides) if (q.entity and q.entity == linked.answer_entity)
              or same_answer(q.name, record.answer)]
    if not chosen:  # "Edward Franklin Albee III" for the option "Edward Albee"
        chosen = [i for i, q in enumerate(sides) if overlaps(q.name, record.answer)]
    return sides, chosen


def overlaps(option: str, answer: str) -> bool:
    """The answer names the option: all the option's words are in it, or all of its in the option."""
    a, b = set(words(option)) - PHRASE_STOP_WORDS, set(words(answer)) - PHRASE_STOP_WORDS
    return bool(a and b) and (a <= b or b <= a)


# A qualifier after an option's name: "Manon by Massenet", "the Industrial Canal in
# Louisiana", "Parsifal (opera)".
_QUALIFIER = re.compile(r"\s+(?:by|of|from|in)\s+[A-Z][^()]*$|\s*\([^()]*\)\s*$")


def linked_options(sides: list[QuestionEntity], entities: list[Entity], stated: set[str],
                   text: str = "") -> list[QuestionEntity]:
    """`sides` with each option no mention matched, or matched only outside the `stated`
    entities (a concluding "So Edward Albee lived longer."), tied to the entity it names if
    one does; a side naming an entity an earlier side names is that side ("The Moon is Down"
    read once as an anchor, once as the option "Moon Is Down")."""
    out: list[QuestionEntity] = []
    taken = {q.entity for q in sides if q.entity}
    for q in sides:
        if q.entity not in stated and (found := option_entity(q.name, entities, taken, text)):
            q = q.model_copy(update={"entity": found})
            taken.add(found)
        if q.entity is None or q.entity not in {o.entity for o in out}:
            out.append(q)
    return out


def option_entity(name: str, entities: list[Entity], taken: set[str], text: str = "") -> str | None:
    """The entity an option names when no mention matched it whole: the one name with the
    option's words whatever their case, else the one that writes the option out ("Edward
    Albee" as "Edward Franklin Albee III", its words in order), else the one ending it, else
    the one mentioned inside the option written in `text`, else the option without its
    qualifier ("Manon by Massenet" as "Manon")."""
    live = [e for e in entities if e.kind not in LITERAL_KINDS and e.id not in taken]
    wanted = [w.lower() for w in _WORD.findall(name)]
    # Case aside first: a title-cased question writes "We'Re Going To Eat You".
    found = [e for e in live if [w.lower() for w in _WORD.findall(e.name)] == wanted]
    if len(found) == 1:
        return found[0].id
    if len(wanted) >= 2:
        found = [e for e in live if _in_order(wanted, [w.lower() for w in _WORD.findall(e.name)])]
        if len(found) == 1:
            return found[0].id
        # The text's name ends the option's: "Sir Robert Rankin, 1St Baronet" written "Robert
        # Rankin, 1st Baronet", a title or a leading word the text's reading left out.
        found = [e for e in live if 2 <= len(ws := [w.lower() for w in _WORD.findall(e.name)])
                 < len(wanted) and wanted[-len(ws):] == ws]
        if len(found) == 1:
            return found[0].id
    # The option written whole, a shorter mention inside it: "Else" in "Everyone Else is a
    # 2009 film", the reading having cut the title at the sentence's start.
    spans = [m.span() for m in re.finditer(re.escape(name), text, re.I)] if name.strip() else []
    found = [e for e in live if any(m.span and a <= m.span[0] and m.span[1] <= b
                                    for m in e.mentions for a, b in spans)]
    if len(found) == 1:
        return found[0].id
    head = _QUALIFIER.sub("", name)
    found = [e for e in live if head != name and e.name.lower() == head.strip().lower()]
    return found[0].id if len(found) == 1 else None


def _in_order(wanted: list[str], words: list[str]) -> bool:
    """All of `wanted` among the longer `words`, in order."""
    it = iter(words)
    return len(words) > len(wanted) and all(w in it for w in wanted)
