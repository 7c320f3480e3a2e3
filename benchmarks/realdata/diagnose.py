"""Why a case was scored wrong, and what the extractor made of the gold evidence.

Every function here names a cause for people fixing the extractor; none of it scores.
Causes are checked in a fixed order, so the same result always gets the same cause.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable

# Beside the public API, the pipeline's answer equality and name analysis (not public): the
# evidence-pair figures match names the way the auditor does, not by a copy that could drift.
from logicscore import AuditResult, Entity, Proposition
from logicscore.pipeline.normalize.entities import normalize, same_answer
from logicscore.pipeline.text.mentions import analyze
from logicscore.formats.text import contains, display_title, has_pronoun, norm, similar_names

from .cases import Case

FUZZY = 85.0


class View:
    """One audited case, indexed: propositions per line, entities by id, components."""

    def __init__(self, case: Case, result: AuditResult):
        self.case, self.result = case, result
        self.entities = {e.id: e for e in result.entities}
        starts = [s for s, _ in case.offsets()]
        self.by_line: list[list[Proposition]] = [[] for _ in case.lines]
        for p in result.propositions:
            self.by_line[max(0, bisect_right(starts, p.span[0]) - 1)].append(p)
        self._matches: dict[str, set[str]] = {}
        self.parent: dict[str, str] = {}
        for p in self.edges():
            self._union(p.subject_entity, p.object_entity)

    def edges(self) -> Iterable[Proposition]:
        return (p for p in self.result.propositions
                if not p.negated and not p.conclusion and p.subject_entity and p.object_entity
                and p.subject_entity != p.object_entity)

    def _find(self, x: str) -> str:
        while self.parent.get(x, x) != x:
            x = self.parent[x]
        return x

    def _union(self, a: str, b: str) -> None:
        ra, rb = self._find(a), self._find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)

    def component(self, entity: str | None) -> set[str]:
        if entity is None:
            return set()
        root = self._find(entity)
        return {e for e in self.entities if self._find(e) == root}

    def name(self, entity: str | None) -> str:
        return self.entities[entity].name if entity in self.entities else "—"

    def matching(self, text: str, lenient: bool = False) -> set[str]:
        """Entities with a mention or name matching `text` under `named_alike` (`lenient`:
        also bare word containment ignoring numbers, or same first and last word)."""
        key = f"{lenient}|{text}"
        if key not in self._matches:
            self._matches[key] = {e.id for e in self.result.entities
                                  if _entity_matches(e, text, lenient)}
        return self._matches[key]

    def line_props(self, index: int) -> list[str]:
        return [describe(p, self) for p in self.by_line[index]]


def _entity_matches(entity: Entity, text: str, lenient: bool = False) -> bool:
    forms = [entity.name] + [m.text for m in entity.mentions if not m.reason.startswith("coref")]
    if any(named_alike(text, form) for form in forms):
        return True
    return lenient and any(_loosely_same(text, form) for form in forms)


def named_alike(gold: str, form: str) -> bool:
    """The evidence-pair matcher: the pipeline's answer equality (`same_answer`: normalized
    keys, descriptors, fuzzy) or one normalized name inside the other on word boundaries
    with the same regnal and ordinal numbers. Gold labels are Wikidata names, often longer
    ("Hermann II of Hesse") or shorter than the text's; "Henry I" never matches "Henry II".
    A label's comma epithet ("Thomas Cochrane, 8th Earl of Dundonald") may be missing from a
    text name that carries no numbers of its own."""
    if same_answer(gold, form, FUZZY):
        return True
    a, b = analyze(gold), analyze(form)
    if "," in gold and not b.markers:
        a = analyze(gold.split(",")[0])
    if not a.tokens or not b.tokens or a.markers != b.markers:
        return False
    short, long = (a.tokens, b.tokens) if len(a.tokens) <= len(b.tokens) else (b.tokens, a.tokens)
    return any(long[i:i + len(short)] == short for i in range(len(long) - len(short) + 1))


def _loosely_same(gold: str, form: str) -> bool:
    """Gold labels are Wikidata names ("Hermann II of Hesse") where text says "Hermann II"."""
    a, b = normalize(gold).split(), normalize(form).split()
    if not a or not b:
        return False
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    if any(long[i:i + len(short)] == short for i in range(len(long) - len(short) + 1)):
        return True
    return len(a) >= 2 and len(b) >= 2 and a[0] == b[0] and a[-1] == b[-1]


def describe(p: Proposition, view: View) -> str:
    """`P3 Timber Falls —direct by→ Tony Giglio [Timber Falls → Tony Giglio, acl]`: the
    proposition as written, then the entities it was linked to and the rule that made it."""
    flags = "".join(f", {f}" for f, on in (("negated", p.negated), ("conclusion", p.conclusion)) if on)
    return (f"{p.id} {p.subject} —{p.relation}→ {p.object} "
            f"[{view.name(p.subject_entity)} → {view.name(p.object_entity)}, {p.pattern}{flags}]")


def _title_entity(view: View, index: int) -> str | None:
    line = view.case.lines[index]
    if not line.prefixed or not line.title:
        return None
    start = view.case.offsets()[index][0]
    end = start + len(display_title(line.title))
    for e in view.result.entities:
        if any(m.span and m.span[0] < end and m.span[1] > start for m in e.mentions):
            return e.id
    return ""  # the title is no mention at all


def _line_problem(view: View, index: int) -> tuple[str, str] | None:
    """What is wrong with one gold line, if anything the extractor should fix."""
    line, props = view.case.lines[index], view.by_line[index]
    if not props:
        return "sentence yields no proposition", line.text
    title = _title_entity(view, index)
    if title == "" or (title and not any(title in (p.subject_entity, p.object_entity) for p in props)):
        return "title prefix not linked", f"{line.text!r}: nothing links {display_title(line.title or '')!r}"
    if has_pronoun(line.text.split(": ", 1)[-1]):
        resolved = [r for p in props for r in p.resolutions]
        if not resolved:
            return "coreference (pronoun unresolved)", line.text
        subject = display_title(line.title or "")
        wrong = [r for r in resolved if subject and not similar_names(r.to, subject)]
        if wrong and not any(similar_names(r.to, subject) for r in resolved):
            return ("coreference (wrong antecedent)",
                    f"{wrong[0].text!r} → {wrong[0].to!r}, expected {subject!r}")
    return None


def _fuzzy_miss(view: View, side: set[str]) -> tuple[str, str] | None:
    for a in sorted(side):
        for b in sorted(view.entities):
            if b not in side and similar_names(view.name(a), view.name(b)):
                wa, wb = set(norm(view.name(a)).split()), set(norm(view.name(b)).split())
                kind = "one name inside the other" if wa <= wb or wb <= wa else "spelling variant"
                return f"names not merged ({kind})", f"{view.name(a)!r} ≠ {view.name(b)!r}"
    return None


def why_incomplete(case: Case, result: AuditResult) -> tuple[str, str]:
    """The cause of a false "incomplete" on an answer that should be complete."""
    if result.status == "error":
        return "pipeline error", result.error.message if result.error else ""
    view = View(case, result)
    text = case.long_answer
    if result.answer_entity is None:
        if contains(text, case.answer):
            return _covering(view, case.answer)
        return "answer not stated verbatim", case.answer
    answer_id = next((e.id for e in result.entities if e.name == result.answer_entity), None)
    if result.diagnosis and result.diagnosis.answer_absent:
        return "answer mentioned but in no proposition", _line_of(view, answer_id)
    if not result.question_entities:
        return "no question entity detected", case.question
    anchors = [q for q in result.question_entities if q.anchor]
    split = _split_anchors(case.question, anchors)
    if split and any(not q.reached for q in anchors):
        return "question entity split into pieces", split
    unmatched = [q for q in anchors if q.entity is None]
    if unmatched:
        names = ", ".join(repr(q.name) for q in unmatched)
        if any(contains(text, q.name) for q in unmatched):
            return "question entity in text but not matched", names
        if any(contains(case.source, q.name) for q in unmatched):
            return "question entity only in unselected source sentences (case construction)", names
        return "question entity not in LA text", names
    unreached = [q for q in anchors if not q.reached]
    question_side = view.component(unreached[0].entity) if unreached else set()
    for side in (question_side, view.component(answer_id)):
        miss = _fuzzy_miss(view, side)
        if miss:
            return miss
    for index, line in enumerate(case.lines):
        if line.role == "gold":
            problem = _line_problem(view, index)
            if problem:
                return problem
    gap = result.diagnosis.gap if result.diagnosis else None
    return "no bridge", gap.describe() if gap else "no gap reported"


def _covering(view: View, answer: str) -> tuple[str, str]:
    """How the mentions at the answer's place in the text fail to be the answer."""
    text = view.case.long_answer
    start = text.casefold().find(answer.casefold())
    if start < 0:
        return "answer in text but no mention matches it", f"{answer!r} (found only after normalization)"
    end = start + len(answer)
    spans = sorted({(m.span[0], m.span[1], m.text) for e in view.result.entities for m in e.mentions
                    if m.span and m.span[0] < end and m.span[1] > start})
    names = [t for _, _, t in spans]
    detail = f"{answer!r}; mentions there: {names or 'none'}"
    if not spans:
        return "answer not a mention (common noun, number)", detail
    if len(spans) > 1:
        return "answer split across mentions", detail
    if spans[0][0] <= start and spans[0][1] >= end:
        return "answer inside a longer mention", detail
    return "answer mention truncated", detail


def _line_of(view: View, entity: str | None) -> str:
    mentions = view.entities[entity].mentions if entity in view.entities else []
    starts = [s for s, _ in view.case.offsets()]
    for m in mentions:
        if m.span:
            index = max(0, bisect_right(starts, m.span[0]) - 1)
            props = view.line_props(index)
            return f"{view.case.lines[index].text!r} → {props or 'no proposition'}"
    return ""


def _split_anchors(question: str, anchors: list) -> str:
    """Two anchors with only capitalised words or punctuation between them: one name cut up."""
    placed = sorted((question.find(q.name), q.name) for q in anchors if question.find(q.name) >= 0)
    for (a, name_a), (b, name_b) in zip(placed, placed[1:]):
        between = question[a + len(name_a):b]
        if a + len(name_a) <= b and not any(w[:1].islower() for w in between.split()):
            return f"{name_a!r} + {name_b!r} in {question[a:b + len(name_b)]!r}"
    return ""


def why_complete(case: Case, result: AuditResult) -> tuple[str, str]:
    """The cause of a false "complete" on a hop-removed or hop-replaced answer."""
    view = View(case, result)
    if case.noisy:
        return f"label noise: {case.noise}", case.long_answer[:160]
    anchors = [q for q in result.question_entities if q.anchor]
    if not anchors:
        names = ", ".join(q.name for q in result.question_entities) or "none"
        return "no anchor (any-entity fallback)", f"question entities: {names}"
    chain = set(result.chain)
    for index, line in enumerate(case.lines):
        used = [p for p in view.by_line[index] if p.id in chain]
        if line.role == "foreign" and used:
            return "foreign sentence bridged", describe(used[0], view)
    text = case.long_answer
    for q in anchors:
        entity = view.entities.get(q.entity or "")
        if entity is None:
            continue
        for m in entity.mentions:
            if m.span and _embedded(text, m.span):
                return ("question entity matched inside a longer name",
                        f"{q.name!r} matched {m.text!r} in {_around(text, m.span)!r}")
        odd = [m for m in entity.mentions if m.reason.startswith(("fuzzy", "containment", "surname"))]
        if odd:
            return "question entity merged by alias/fuzzy", f"{q.name!r} ~ {odd[0].text!r} ({odd[0].reason})"
    return "question entity named in remaining text", ", ".join(q.name for q in anchors)


_PREV = re.compile(r"(\S+) $")
_NEXT = re.compile(r" (\S+)")
_CAPITAL_FUNCTION = frozenset(
    "The A An In On At Of By For And But From To With His Her Its Their Born".split())


def _embedded(text: str, span: tuple[int, int]) -> bool:
    """Whether a mention sits inside a longer run of capitalised words ("James [Charles Mathew]")."""
    before, after = _PREV.search(text[:span[0]]), _NEXT.match(text[span[1]:])
    prev_word = before.group(1) if before else ""
    next_word = after.group(1) if after else ""
    prev_cap = prev_word[:1].isupper() and prev_word[-1:].isalnum() and prev_word not in _CAPITAL_FUNCTION
    return prev_cap or next_word[:1].isupper()


def _around(text: str, span: tuple[int, int], width: int = 30) -> str:
    return text[max(0, span[0] - width):span[1] + width]


def why_padding_broke(case: Case, result: AuditResult, gold: AuditResult) -> tuple[str, str]:
    """Why adding distractor sentences turned a complete answer incomplete."""
    if result.status == "error":
        return "pipeline error", result.error.message if result.error else ""
    if result.answer_entity is None:
        return "answer lost after padding", case.answer
    before = {(r.text, r.to) for p in gold.propositions for r in p.resolutions}
    after = {(r.text, r.to) for p in result.propositions for r in p.resolutions}
    changed = sorted(after - before)
    if changed:
        return "coreference captured by distractor", f"{changed[0][0]!r} → {changed[0][1]!r}"
    if any(q.anchor and q.entity is None for q in result.question_entities):
        return "question entity lost after padding", ""
    gap = result.diagnosis.gap if result.diagnosis else None
    return "chain broken by padding (other)", gap.describe() if gap else ""


def why_concise_kept(case: Case, result: AuditResult, gold: AuditResult) -> tuple[str, str]:
    """Why padding did not lower conciseness on a still-complete answer."""
    view = View(case, result)
    padded = [i for i, line in enumerate(case.lines) if line.role == "distractor"]
    if not any(view.by_line[i] for i in padded):
        return "distractor yields no proposition", case.lines[padded[0]].text if padded else ""
    chain = set(result.chain)
    on_chain = [p for i in padded for p in view.by_line[i] if p.id in chain]
    if on_chain:
        return "distractor on the chain", describe(on_chain[0], view)
    if len(result.chain) > len(gold.chain):
        return "chain grew after padding", f"{len(gold.chain)} → {len(result.chain)} propositions"
    return "other", ""


def evidence_pairs(case: Case, result: AuditResult, view: View | None = None) -> list[dict]:
    """Per gold 2Wiki triple: is some proposition linking its subject and object entities?"""
    if result.status == "error":
        return [{"triple": list(t), "found": False, "found_lenient": False, "connected": False,
                 "cause": "pipeline error"} for t in case.evidences]
    view = view or View(case, result)
    out = []
    for triple in case.evidences:
        row = {"triple": list(triple)}
        for lenient in (False, True):
            subj, obj = view.matching(triple[0], lenient), view.matching(triple[2], lenient)
            found = any((p.subject_entity in subj and p.object_entity in obj)
                        or (p.subject_entity in obj and p.object_entity in subj) for p in view.edges())
            if not lenient:
                connected = any(view.component(s) & obj for s in subj)
                cause = None if found else (
                    "subject not found" if not subj else "object not found" if not obj
                    else "linked only through other entities" if connected
                    else "no proposition links them")
                row.update(found=found, connected=connected, cause=cause)
            else:
                row["found_lenient"] = found
                if found and not row["found"]:
                    row["cause"] = f"{row['cause']} (found with lenient name matching)"
        out.append(row)
    return out


def bridge_precision(case: Case, result: AuditResult, view: View | None = None) -> tuple[int, int]:
    """(good, total) chain propositions whose two entities are gold endpoints, Q or A."""
    view = view or View(case, result)
    names = [x for t in case.evidences for x in (t[0], t[2])] + [case.answer]
    names += [q.name for q in result.question_entities]
    ok = set().union(*(view.matching(n) for n in names)) if names else set()
    props = {p.id: p for p in result.propositions}
    chain = [props[c] for c in result.chain if c in props]
    good = sum(1 for p in chain if p.subject_entity in ok and p.object_entity in ok)
    return good, len(chain)
