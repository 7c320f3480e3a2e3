"""Completeness by type: comparison and yes/no questions (docs/metrics.md).

A comparison or yes/no question is no chain from one question entity to the answer: it
compares sides. Each side (a compared entity) must be tied to a value of the compared
attribute by the long answer's own statements, and those values must select the answer
given: the earlier date, the larger count, the option the other side is said not to be,
"no" when one side lacks the property. A comparison whose answer is a value both sides
share ("What country are both A and B in?") is the every-anchor chain (docs/metrics.md)
and keeps it.

This is the work of the `sides` completeness stage (`logicscore.pipeline.complete`), which completes
comparison and yes/no questions: it gets the sides already linked and chosen (the linking
step) and hands on `flow.Sides`, whose verdict a rules judge takes.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from ..formats.conclusion import sentence_spans
from .text.clean import strip_citations
from .flow import Chain, Linked, Sides
from ..lexicon.questions import (
    AMOUNT_WORDS,
    ATTRIBUTE_RELATIONS,
    COMPARATIVE_WORDS,
    DEGREE_WORDS,
    DIFFERENT_WORDS,
    GUESS_WORDS,
    HIGH_WORDS,
    LOW_WORDS,
    NO_WORDS,
    NUMERIC_ATTRIBUTE_WORDS,
    PARALLEL_WORDS,
    YES_WORDS,
)
from ..lexicon.numbers import COUNT_WORDS, ORDINAL_WORDS
from ..lexicon.pronouns import PRONOUNS
from ..lexicon.text import crude_stem, stem
from ..models import (
    LITERAL_KINDS,
    Diagnosis,
    Gap,
    Proposition,
    QARecord,
    QuestionEntity,
    Side,
    Signal,
    Verdict,
)
from ..lexicon.stop_words import PHRASE_STOP_WORDS
from .text.phrases import CONCLUDING, words as _words
from .text.values import number

_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)")
_AUX = r"(?:is|was|are|were|does|did|do|has|had|have)"
# An aside between a side and its predicate: "B, on the other hand, is …".
_ASIDE = r"(?:\s*,[^,.]{1,40},|\s*\([^()]{0,80}\))?"
# What the long answer says of a side beyond the propositions: the value elided ("B is
# not.", "A was born in 1950, B in 1962") or a predicate no proposition holds ("A is a
# film director": a description, no entity). Tried in order; the first that matches wins.
ELLIPSES: tuple[tuple[str, re.Pattern[str]], ...] = (
    # "A: born in 1950.": a list item or heading labelled with the side.
    ("labelled", re.compile(r"^\s*:\s+[^.!?;]*\w")),
    ("negated_copula", re.compile(rf"^{_ASIDE}\s*{_AUX}\s+(?:not|n['’]t|never)\b", re.I)),
    ("bare_value", re.compile(
        r"^,?\s+(?:in|on|with|at)\s+(?:[A-Z][a-z]+\s+)?\d[\d,.]*(?:\s*(?:million|billion|thousand))?\b")),
    ("predicate", re.compile(rf"^{_ASIDE}\s*(?:{_AUX}|[a-z]+ed|[a-z]+s)\s+[^.!?;]*\w", re.I)),
)
_NEGATED_ELLIPSES = frozenset({"negated_copula"})
_NUMBER_SAID = re.compile(rf"\d|\b(?:{'|'.join(ORDINAL_WORDS[1:] + tuple(sorted(COUNT_WORDS)))})\b", re.I)
# Every word of an attribute's relations, which names that attribute in a question too.
_RELATION_WORDS = frozenset(r for v in ATTRIBUTE_RELATIONS.values() for r in v.split())
# A count or year written in digits, or a count word ("six victories").
_COUNT = re.compile(rf"\b\d[\d,]*(?:\.\d+)?\b|\b(?:{'|'.join(sorted(COUNT_WORDS))})\b", re.I)
_BEFORE_AFTER = re.compile(r"\b(?:before|after)\s+or\s+(?:before|after)\b", re.I)


@dataclass
class _SideFacts:
    q: QuestionEntity
    props: list[Proposition] = field(default_factory=list)
    literal: str | None = None
    ellipsis: str | None = None
    ellipsis_text: str = ""
    # Some date or number is stated of the side, whether or not it is the compared one.
    any_literal: bool = False
    # The value read from a sentence naming this side alone (`_clause_literal`).
    clause_value: str | None = None

    @property
    def established(self) -> bool:
        return bool(self.props) or self.ellipsis is not None

    @property
    def negated(self) -> bool:
        if self.ellipsis in _NEGATED_ELLIPSES and not self.props:
            return True
        return bool(self.props) and all(p.negated for p in self.props)


def audit_sides(qtype: str, record: QARecord, linked: Linked, result: Chain,
                sides: list[QuestionEntity], chosen: list[int]) -> Sides:
    """Completeness, sides and the verdict they select for a comparison or yes/no answer.

    Args:
        qtype: `comparison` or `yesno`.
        record: the record (question, short and long answer).
        linked: its linked propositions, entities and question entities.
        result: the chain analysis, kept for a shared-value comparison.
        sides: the compared question entities, linked (`flow.Reading.sides`).
        chosen: the indices of the sides the short answer names.
    """
    if qtype == "comparison" and not chosen and not _BEFORE_AFTER.search(record.question):
        return _shared(record, linked, result, sides)
    asked = set(_WORD.findall(record.question.lower()))
    facts = _facts(record, linked, sides, choice=qtype == "comparison", parallel=bool(asked & PARALLEL_WORDS))
    if qtype == "comparison" and _guessed(record, facts):
        for f in facts:  # what is said of each side is no value of the compared attribute
            f.props, f.ellipsis = [], None
    if asked & (COMPARATIVE_WORDS - DEGREE_WORDS):
        for f in facts:
            _magnitude_needs_a_literal(record.long_answer, linked, f)
    expected = _expected(qtype, record, linked, facts)
    return _assemble(record, linked, result, facts, expected, chosen, qtype)


def _magnitude_needs_a_literal(text: str, linked: Linked, f: _SideFacts) -> None:
    """Rule `magnitude_needs_a_literal`: "which formed first": a side is tied to the compared
    value by a number (a date, "the 23rd-highest") in what is said of it, or through an entity
    the text says more of (its director, born in 1931); "B is a folk band from H" is neither."""
    ends = {_value_of(p, f.q.entity) for p in f.props}
    onward = any(q not in f.props and not q.conclusion and {q.subject_entity, q.object_entity} & ends
                 for q in linked.propositions)
    said = " ".join(text[p.span[0]:p.span[1]] for p in f.props)
    if f.props and not (f.literal or f.any_literal or onward or _NUMBER_SAID.search(said)) and f.q.entity:
        f.props = []
        _ellipsis(text, linked, f.q.entity, f)
        if f.ellipsis == "predicate" and not _NUMBER_SAID.search(f.ellipsis_text):
            f.ellipsis, f.ellipsis_text = None, ""


def _shared(record: QARecord, linked: Linked, result: Chain, sides: list[QuestionEntity]) -> Sides:
    """A value both sides share: each side chained to the answer, or said to be it in a
    clause of its own ("A is a football player." for "What are both A and B?"). The sides
    select a verdict only when they complete what the chain did not."""
    reached = set(result.reached)
    wanted = [w for w in _words(record.answer) if w not in PHRASE_STOP_WORDS]
    out, ids = [], []
    for q in sides:
        # A side chained to the answer needs no clause saying it is the answer.
        ok = q.entity in reached or _says_answer(record.long_answer, linked, q, wanted)
        out.append(Side(name=q.name, entity=q.entity, established=ok,
                        values=[record.answer] if ok else []))
        ids += [q.entity] if ok and q.entity else []
    if result.complete or not sides:
        return Sides(result, None, out)
    if missing := [s for s in out if not s.established]:  # the gap is the side never tied to it
        gaps = [Gap(from_=s.name, to=record.answer, anchor=s.name) for s in missing]
        diagnosis = result.diagnosis.model_copy(update={"gap": gaps[0], "gaps": gaps})
        share = round(1 - len(missing) / len(out), 4)
        return Sides(replace(result, diagnosis=diagnosis, partial_completeness=share), None, out)
    counted = [p.id for p in linked.propositions if not p.conclusion]
    done = replace(result, complete=True, partial_completeness=1.0, reached=ids,
                   diagnosis=Diagnosis(redundant=counted), chain=[], best_partial=[])
    return Sides(done, "entailed", out)


def _says_answer(text: str, linked: Linked, side: QuestionEntity, wanted: list[str]) -> bool:
    """The side's own clause holds every word of the answer (`wanted`), either stem."""
    if not wanted or not side.entity:
        return False
    clause = _own_clause(text, linked, side.entity)
    # Both stems: the crude one meets "directed" and "director", the light one "dogs" and "dog".
    forms = {f(w) for w in _words(clause) for f in (crude_stem, stem)}
    return all({crude_stem(w), stem(w)} & forms for w in wanted)


def _own_clause(text: str, linked: Linked, entity: str) -> str:
    """The first sentence naming `entity`, up to a concluding "so"."""
    for e in linked.entities:
        for m in e.mentions if e.id == entity else ():
            if not m.span or _after_marker(text, m.span[0]):
                continue
            end = _SENTENCE_END.search(text, m.span[1])
            clause = text[m.span[0]:end.start() if end else len(text)]
            stop = CONCLUDING.search(clause, 1)
            return clause[:stop.start()] if stop else clause
    return ""


def _guessed(record: QARecord, facts: list[_SideFacts]) -> bool:
    """A comparison of magnitudes ("which is larger") with no date or number stated for any
    side, concluded by a guess ("it is likely that B is larger")."""
    if _direction(record.question) is None or any(f.literal or f.any_literal for f in facts):
        return False
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", record.long_answer.strip()) if s]
    last = set(_words(sentences[-1])) if sentences else set()
    return bool(last & GUESS_WORDS)


def _facts(record: QARecord, linked: Linked, sides: list[QuestionEntity],
           choice: bool, parallel: bool = False) -> list[_SideFacts]:
    """What the long answer states of each side, outside its concluding clauses. A statement
    tying a side to another is no value of either in a choice, nor in a yes/no question that
    sets them in parallel unless it says they are one ("A is B")."""
    text = record.long_answer
    kinds = {e.id: e.kind for e in linked.entities}
    names = {e.id: e.name for e in linked.entities}
    ids = {q.entity for q in sides if q.entity}
    stating = [p for p in linked.propositions if not p.conclusion and not _concluding(text, p)]
    out = []
    for q in sides:
        facts = _SideFacts(q)
        if q.entity is not None:
            for p in stating:
                if q.entity not in (p.subject_entity, p.object_entity):
                    continue
                other = p.object_entity if p.subject_entity == q.entity else p.subject_entity
                if other == q.entity or (other in ids and (choice or (parallel and p.relation != "be"))):
                    continue
                facts.props.append(p)
                facts.any_literal |= kinds.get(other or "") in LITERAL_KINDS
            facts.literal = _compared_literal(record.question, stating, q.entity, ids, kinds, names)
            if not facts.props:
                _ellipsis(text, linked, q.entity, facts)
        out.append(facts)
    asked = set(_WORD.findall(record.question.lower()))
    if asked & AMOUNT_WORDS and not asked & ATTRIBUTE_RELATIONS.keys():
        # A count no proposition ties to a side, or one every side reaches through the same
        # bridge ("A … B. He scored 6 … 8"), selects nothing: a sentence naming one side may.
        reached = Counter(f.literal for f in out if f.literal)
        for f in out:
            if f.q.entity and f.established and (f.literal is None or reached[f.literal] > 1):
                said = _clause_literal(text, linked, f.q.entity, ids)
                if said is not None:
                    f.literal = f.clause_value = said
                    f.any_literal = True
    return out


def _compared_literal(question: str, props: list[Proposition], side: str, sides: set[str],
                      kinds: Mapping[str, str], names: dict[str, str]) -> str | None:
    """The date or number compared for `side`: one stated of it or of an entity it is tied
    to ("A was directed by D. D died in 1961."), preferring one whose relation names the
    question's attribute ("died", "born"); None when that leaves a choice."""
    asked = [w for w in _words(question) if w not in PHRASE_STOP_WORDS]
    # The attribute's own words ("died", "older": born) outrank the rest: in "Which film has
    # the director who died later" a film's year, stated by "film", is not the one compared.
    attribute = {crude_stem(r) for w in asked for r in ATTRIBUTE_RELATIONS.get(w, w).split()
                 if w in ATTRIBUTE_RELATIONS or w in _RELATION_WORDS}
    wanted = {crude_stem(w) for w in asked} | attribute
    found: list[tuple[int, int, int, str]] = []
    frontier, seen = {side}, {side}
    for depth in range(2):
        nxt: set[str] = set()
        for p in props:
            if p.negated:
                continue
            for here, there in ((p.subject_entity, p.object_entity), (p.object_entity, p.subject_entity)):
                if here not in frontier or there is None or there in seen or there in sides:
                    continue
                if kinds.get(there) in LITERAL_KINDS:
                    stems = {crude_stem(w) for w in _words(p.relation)}
                    found.append((len(attribute & stems), len(wanted & stems), -depth, names[there]))
                else:
                    nxt.add(there)
        seen |= nxt
        frontier = nxt
    if not found:
        return None
    best = max(found)
    return best[3] if best[0] > 0 or (best[1] > 0 and not attribute) else None


def _clause_literal(text: str, linked: Linked, side: str, sides: set[str]) -> str | None:
    """Rule `one_side_one_number`, for a comparison of amounts ("more goals"; never of dates,
    where a side's own year is not its director's): the count a sentence states where it
    names this side and no other, outside its concluding clause ("In Formula One, he won 8
    races"; "B, where he took 6 wins"). A sentence with two numbers says nothing of which is
    compared; a number inside a side's own name ("Le Mans 24 Hours") is no value."""
    # Written names only: a pronoun resolved to a side may be resolved wrongly, and a name is
    # what says which side a sentence is about.
    spans = {e.id: [m.span for m in e.mentions
                    if m.span and text[m.span[0]:m.span[1]].lower() not in PRONOUNS]
             for e in linked.entities if e.id in sides}
    found: list[str] = []
    for lo, hi in sentence_spans(text):
        cut = next((m.start() for m in CONCLUDING.finditer(text, lo, hi) if m.start() > lo), hi)
        named = {e for e, ss in spans.items() for a, b in ss if lo <= a < cut}
        if named != {side}:
            continue
        body = list(text[lo:cut])
        for ss in spans.values():
            for a, b in ss:
                if lo <= a < cut:
                    body[a - lo:min(b, cut) - lo] = " " * (min(b, cut) - a)
        numbers = _COUNT.findall("".join(body))
        if len(numbers) == 1:
            found.append(numbers[0].strip())
    return found[0] if len(found) == 1 else None


def _concluding(text: str, p: Proposition) -> bool:
    """Whether `p` sits after "so", "therefore"… in its sentence: it draws the conclusion."""
    lo, hi = p.span
    at = text.find(p.subject, lo, hi)
    if at < 0:
        at = text.find(p.object, lo, hi)
    if at < 0:
        return False
    for m in CONCLUDING.finditer(text, lo, at + 1):
        if m.end() <= at and not _SENTENCE_END.search(text, m.end(), at):
            return True
    return False


def _ellipsis(text: str, linked: Linked, entity: str, facts: _SideFacts) -> None:
    """"B is not.", "A was born in 1950, B in 1962": a side whose value is elided."""
    for e in linked.entities:
        if e.id != entity:
            continue
        for m in e.mentions:
            if not m.span:
                continue
            # Read as the extractor reads: markup and citation marks around the name
            # ("**B** is not.", "B [2] is not.") are not words of the tail.
            tail = strip_citations(text[m.span[1]:m.span[1] + 60])[0]
            for name, pattern in ELLIPSES:
                found = pattern.match(tail)
                if found and not _after_marker(text, m.span[0]):
                    facts.ellipsis, facts.ellipsis_text = name, found.group(0).strip(" ,:")
                    if name == "bare_value":
                        facts.literal = facts.ellipsis_text
                    return


def _after_marker(text: str, at: int) -> bool:
    start = max(text.rfind(". ", 0, at), text.rfind("\n", 0, at), 0)
    return any(m.end() <= at for m in CONCLUDING.finditer(text, start, at + 1))


def _direction(question: str) -> str | None:
    for w in _WORD.findall(question.lower()):
        if w in LOW_WORDS:
            return "low"
        if w in HIGH_WORDS:
            return "high"
    return None


def _expected(qtype: str, record: QARecord, linked: Linked, facts: list[_SideFacts]) -> object:
    """What the stated values select: a side's index (comparison), "yes"/"no", or None."""
    if not all(f.established for f in facts) or len(facts) < 2:
        return None
    words = set(_WORD.findall(record.question.lower()))
    values = [number(f.literal) if f.literal else None for f in facts]
    direction = _direction(record.question)
    if all(v is not None for v in values):
        nums = [v for v in values if v is not None]
        if _BEFORE_AFTER.search(record.question) and len(nums) == 2 and nums[0] != nums[1]:
            return "after" if nums[0] > nums[1] else "before"
        if direction and len(set(nums)) == len(nums):
            pick = min if direction == "low" else max
            best = nums.index(pick(nums))
            return best if qtype == "comparison" else ("yes" if best == 0 else "no")
        numeric = bool(words & NUMERIC_ATTRIBUTE_WORDS)
        if qtype == "yesno" and numeric and ("same" in words or words & DIFFERENT_WORDS):
            same = len(set(nums)) == 1
            return "yes" if same != bool(words & DIFFERENT_WORDS) else "no"
    negated = [f.negated for f in facts]
    if qtype == "comparison" and negated.count(False) == 1:
        return negated.index(False)
    if qtype == "yesno" and "both" in words and any(negated):
        return "no"
    return None


def _answer_word(answer: str) -> str | None:
    word = answer.strip(" .!").lower()
    if word in ("before", "after"):
        return word
    return "yes" if word in YES_WORDS else "no" if word in NO_WORDS else None


def _assemble(record: QARecord, linked: Linked, base: Chain, facts: list[_SideFacts],
              expected: object, chosen: list[int], qtype: str) -> Sides:
    """The `Chain`, verdict, sides and signals from each side's facts."""
    names = {e.id: e.name for e in linked.entities}
    kinds = {e.id: e.kind for e in linked.entities}
    chain: list[str] = []
    sides = []
    for f in facts:
        own = [p for p in f.props if _value_of(p, f.q.entity) in names
               and kinds.get(_value_of(p, f.q.entity) or "") in LITERAL_KINDS] or f.props
        chain.extend(p.id for p in own[:1] if p.id not in chain)
        values = [names.get(_value_of(p, f.q.entity) or "", "") for p in f.props]
        if f.ellipsis:
            values.append(f.ellipsis_text)
        if f.clause_value:
            values.append(f.clause_value)
        sides.append(Side(name=f.q.name, entity=f.q.entity, established=f.established,
                          values=[v for v in dict.fromkeys(values) if v],
                          propositions=[p.id for p in f.props], negated=f.negated))
    missing = [f for f in facts if not f.established]
    # A proposition of the concluding clause restates the answer: like a conclusion, not in |P|.
    concluding = [p.id for p in linked.propositions
                  if p.conclusion or _concluding(record.long_answer, p)]
    counted = [p.id for p in linked.propositions if p.id not in concluding]
    given = (chosen[0] if chosen else None) if qtype == "comparison" and chosen else _answer_word(record.answer)
    signals: list[Signal] = []
    diagnosis = Diagnosis(answer_absent=False)
    verdict: Verdict = "entailed"
    if missing:
        verdict = "underdetermined"
        diagnosis.failure = "broken"
        diagnosis.gaps = [Gap(from_=f.q.name, to="its compared value", anchor=f.q.name)
                          for f in missing]
        diagnosis.gap = diagnosis.gaps[0]
    elif expected is not None and given is not None and expected != given:
        verdict = "contradicted"
        stated = "; ".join(f"{s.name}: {', '.join(s.values) or 'not'}" for s in sides)
        signals.append(Signal(kind="conclusion_mismatch", severity="hard",
                              propositions=list(base.conclusions),
                              message=f"the stated values ({stated}) do not select {record.answer}"))
    complete = not missing and verdict == "entailed"
    if complete:
        diagnosis.redundant = [pid for pid in counted if pid not in chain]
    result = replace(
        base, chain=chain if complete else [], entity_path=[], alternatives=[],
        reached=[f.q.entity for f in facts if f.established and f.q.entity],
        complete=complete, diagnosis=diagnosis, fallback=False,
        partial_completeness=round(sum(f.established for f in facts) / len(facts), 4) if facts else 0.0,
        best_partial=chain,
        conciseness_partial=round(len(chain) / len(counted), 4) if counted else 0.0,
        conclusions=concluding,
        unmatched_anchors=[f.q.name for f in facts if f.q.entity is None])
    return Sides(result, verdict, sides, signals)


def _value_of(p: Proposition, entity: str | None) -> str | None:
    return p.object_entity if p.subject_entity == entity else p.subject_entity
