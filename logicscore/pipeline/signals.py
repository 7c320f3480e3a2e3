"""Signals of the chain from the reasoning-trace verification literature (docs/metrics.md), in
a fixed order.

Every kind, these and those other stages emit, is declared in the signal catalogue
(`logicscore/lexicon/signals.py`) with its severities and meaning."""

from __future__ import annotations

from collections.abc import Mapping

from .flow import Chain, Linked
from .text.relation_reading import reading, role_key
from ..models import LITERAL_KINDS, Proposition, Signal, Verdict


# Pairs compared per group of propositions sharing an entity and a relation: enough for any
# real answer, and what keeps an adversarial hub (one entity linked to thousands) linear.
MAX_PAIRS_PER_GROUP = 64


def contradictions(linked: Linked) -> list[Signal]:
    """The contradiction signals of a linked answer (p and not-p, two values of one relation)."""
    return _contradictions(linked.propositions, {e.id: e.kind for e in linked.entities})


def _contradictions(props: list[Proposition], kinds: Mapping[str, str]) -> list[Signal]:
    """p and not-p on the same pair, or two values of a functional relation for one entity.

    Propositions are grouped by (entity, relation role) first, so only candidates that
    could conflict are compared: linear in the number of propositions, not quadratic.
    """
    live = [p for p in props if not p.conclusion and p.subject_entity and p.object_entity]
    found: dict[tuple[str, str], Signal] = {}

    by_claim: dict[tuple, list[Proposition]] = {}
    for p in live:
        assert p.subject_entity and p.object_entity  # `live` keeps linked propositions only
        # Keyed on one fixed end of the pair, so "A directed B" and "B was not directed by A" meet.
        ref = min(p.subject_entity, p.object_entity)
        key = role_key(p, ref)
        if key is not None:
            pair = frozenset((p.subject_entity, p.object_entity))
            by_claim.setdefault((pair, key), []).append(p)
    for group in by_claim.values():
        for p, q in _pairs(group):
            if p.negated != q.negated:
                found.setdefault((p.id, q.id), Signal(
                    kind="contradiction", severity="hard", propositions=[p.id, q.id],
                    message=f"{p.id} and {q.id} assert and deny the same claim"))

    positive = [p for p in live if not p.negated]
    linked = {frozenset((p.subject_entity, p.object_entity)) for p in positive}
    by_role: dict[tuple, list[Proposition]] = {}
    for p in positive:
        assert p.subject_entity and p.object_entity
        for entity in dict.fromkeys((p.subject_entity, p.object_entity)):
            key, one_value = reading(p, entity)
            if key is not None and one_value:
                by_role.setdefault((entity, key), []).append(p)
    for (entity, _), group in by_role.items():
        for p, q in _pairs(group):
            a = p.object_entity if p.subject_entity == entity else p.subject_entity
            b = q.object_entity if q.subject_entity == entity else q.subject_entity
            if a in (b, entity) or b == entity or (p.id, q.id) in found:
                continue
            if (kinds.get(a) in LITERAL_KINDS) != (kinds.get(b) in LITERAL_KINDS):
                continue  # "born in Springfield" and "born on 1970" are two facts
            if frozenset((a, b)) in linked:
                continue  # "born in Springfield" / "born in Illinois" with Springfield in Illinois
            if p.span != (0, 0) and q.span != (0, 0) and p.sentence == q.sentence:
                # One sentence giving a relation two values narrows it ("headquartered in the
                # Courthouse in Lausanne in the canton of Vaud"); it does not deny itself.
                continue
            found[(p.id, q.id)] = Signal(
                kind="contradiction", severity="hard", propositions=[p.id, q.id],
                message=f"{p.id} and {q.id} give two values for '{p.relation}'")
    if not found:
        return []  # the common case: nothing to put in text order
    order = {p.id: i for i, p in enumerate(live)}
    return [found[k] for k in sorted(found, key=lambda k: (order[k[0]], order[k[1]]))]


def _pairs(group: list[Proposition]):
    """Ordered pairs (earlier, later) within a group, at most MAX_PAIRS_PER_GROUP of them."""
    count = 0
    for i, p in enumerate(group):
        for q in group[i + 1:]:
            if count >= MAX_PAIRS_PER_GROUP:
                return
            count += 1
            yield p, q


def collect_signals(linked: Linked, result: Chain, verdict: Verdict,
                    hops: int | None) -> list[Signal]:
    """Signals for one record, in a fixed kind order.

    Args:
        linked: linked propositions and entities.
        result: the chain analysis.
        verdict: the determinateness verdict.
        hops: the expected hop count, when the record gives one.
    Returns:
        contradiction, asserted_without_derivation, hedged_on_chain, shortcut,
        side_anchor_unreached, anchor_not_found, no_anchor, redundant signals, in that order.
    """
    props = linked.propositions
    kinds = {e.id: e.kind for e in linked.entities}
    out = _contradictions(props, kinds)
    if verdict == "entailed" and not result.complete:
        out.append(Signal(
            kind="asserted_without_derivation", severity="hard", propositions=list(result.conclusions),
            message="the answer is asserted but no complete chain derives it"))
    pmin = set(result.chain)
    near = {pid for alt in result.alternatives for pid in alt} | set(result.best_partial)
    hard = [p.id for p in props if p.hedged and p.id in pmin]
    soft = [p.id for p in props if p.hedged and p.id in near - pmin]
    if hard:
        out.append(Signal(kind="hedged_on_chain", severity="hard", propositions=hard,
                          message=f"the minimal chain rests on hedged claims: {', '.join(hard)}"))
    if soft:
        out.append(Signal(kind="hedged_on_chain", severity="soft", propositions=soft,
                          message=f"hedged claims on an alternative or partial chain: {', '.join(soft)}"))
    if hops is not None and result.complete and len(result.chain) < hops:
        out.append(Signal(
            kind="shortcut", severity="soft", propositions=list(result.chain),
            message=f"the chain has {len(result.chain)} step(s) but the question needs {hops}"))
    anchors = [q.entity for q in linked.question if q.anchor and q.entity]
    if (not result.complete and result.unmatched_anchors and anchors
            and all(a in result.reached for a in anchors)):
        # Every anchor the answer writes is connected; what is missing is a name it never
        # writes ("the company based in Fox Park"), not a hop on the way to the answer.
        out.append(Signal(
            kind="side_anchor_unreached", severity="soft",
            message="the chain reaches every anchor the answer writes; never written: "
                    + ", ".join(result.unmatched_anchors)))
    if result.unmatched_anchors:
        names = ", ".join(result.unmatched_anchors)
        out.append(Signal(kind="anchor_not_found", severity="info",
                          message=f"question entities never named in the answer: {names}"))
    if result.fallback:
        out.append(Signal(
            kind="no_anchor", severity="info",
            message="the question names no specific entity; completeness means reaching one of its "
                    "entities, or a named bridge the answer ties to its description"))
    if result.diagnosis.redundant:
        out.append(Signal(
            kind="redundant", severity="info", propositions=list(result.diagnosis.redundant),
            message=f"not on any minimal chain: {', '.join(result.diagnosis.redundant)}"))
    return out
