"""Backward chaining and the failure taxonomy (docs/metrics.md).

The graph is undirected: entities are nodes and every non-negated, non-conclusion
proposition is an edge. Pmin is a shortest chain (one anchor: BFS) or a minimum Steiner
tree (several anchors). Literal entities (dates, numbers) may end a chain; they bridge one
only when no chain without literal bridges exists.
"""

from __future__ import annotations

from .flow import Chain
from .graph import (Graph, bfs, component, forced_tree, parallel_swap, path_to, separating_edges,
                    shortest_paths, steiner)
from ..models import LITERAL_KINDS, Diagnosis, Entity, Gap, Proposition, QuestionEntity
from .text.phrases import content_stems, restates_question


class _Ctx:
    """Shared lookups for one analysis."""

    def __init__(self, props: list[Proposition], entities: list[Entity],
                 skipped: frozenset[int] = frozenset()):
        self.props = props
        self.rank = {e.id: i for i, e in enumerate(entities)}
        self.names = {e.id: e.name for e in entities}
        self.mentions = {e.id: e.mentions for e in entities}
        self.literal = {e.id for e in entities if e.kind in LITERAL_KINDS}
        edges, self.counted = [], []
        self.mentioned: set[str] = set()
        for i, p in enumerate(props):
            u, v = p.subject_entity, p.object_entity
            if u is not None:
                self.mentioned.add(u)
            if v is not None:
                self.mentioned.add(v)
            if p.conclusion or i in skipped:
                continue
            self.counted.append(i)
            if not p.negated and u and v and u != v:
                edges.append((i, u, v))
        self.g = Graph(edges)

    def ids(self, edges: list[int]) -> list[str]:
        return [self.props[e].id for e in edges]

    def no_literal(self, x: str) -> bool:
        return x not in self.literal


def refused(result: Chain) -> Chain:
    """The analysis of an answer that refuses: no chain reaches an answer it never gives,
    whatever the long answer's other sentences connect; the answer is absent, no gap is."""
    diagnosis = result.diagnosis.model_copy(update={
        "failure": "broken", "gap": None, "gaps": [], "answer_absent": True})
    return Chain(reached=result.reached, diagnosis=diagnosis,
                       unmatched_anchors=result.unmatched_anchors, conclusions=result.conclusions)


def mismatched(result: Chain, anchor: str, answer: str) -> Chain:
    """The analysis of a chain that reaches every anchor but states a hop with another
    relation than the question asks (`hops.kin_mismatch`): incomplete, broken between the
    anchor and the answer, with the stated chain kept as the best partial one."""
    gap = Gap(from_=anchor, to=answer, anchor=anchor)
    diagnosis = result.diagnosis.model_copy(update={"failure": "broken", "gap": gap, "gaps": [gap]})
    k = len(result.chain)
    return Chain(reached=result.reached, diagnosis=diagnosis, unmatched_anchors=result.unmatched_anchors,
                 conclusions=result.conclusions, best_partial=list(result.chain),
                 partial_completeness=round(k / (k + 1), 4), conciseness_partial=result.conciseness_partial,
                 fallback=result.fallback)


def analyze(
    propositions: list[Proposition],
    answer_entity: str | None,
    question: list[QuestionEntity],
    *,
    entities: list[Entity],
    max_alternatives: int = 16,
    answer_text: str | None = None,
    question_text: str | None = None,
    restated: frozenset[int] = frozenset(),
) -> Chain:
    """Find the minimal chain from the question entities to the answer, or diagnose why none.

    Args:
        propositions: linked propositions (`subject_entity`/`object_entity` set).
        answer_entity: entity id of the short answer, or None when LA never names it.
        question: question entities with `.entity` and `.anchor` set.
        entities: the linked entities (names and kinds).
        max_alternatives: cap on the other minimal chains reported.
        answer_text: the short answer, named in the gap when it matched no entity.
        question_text: the question Q; a proposition restating it with the answer filled
            in makes an incomplete answer circular.
        restated: indices of propositions that restate a relation the question asks with
            the answer filled in (`hops.restated_kin`): like conclusions, they bridge nothing.
    Returns:
        a `Chain`; `chain` is ordered from the question side to the answer.
    """
    q_ids = {q.entity for q in question if q.entity}
    skipped = bypassing(propositions, answer_entity, q_ids, entities) | restated
    ctx = _Ctx(propositions, entities, skipped)
    mentioned = ctx.mentioned
    anchors = list(dict.fromkeys(q.entity for q in question if q.anchor and q.entity))
    unmatched = list(dict.fromkeys(q.name for q in question if q.anchor and not q.entity))
    fallback = not any(q.anchor for q in question)
    targets = list(dict.fromkeys(q.entity for q in question if q.entity)) if fallback else anchors
    answer_absent = answer_entity is None or answer_entity not in mentioned
    comp = component(ctx.g, answer_entity) if answer_entity and not answer_absent else {}
    reached = list(dict.fromkeys(q.entity for q in question if q.entity and q.entity in comp))
    result = Chain(
        reached=reached, diagnosis=Diagnosis(answer_absent=answer_absent), fallback=fallback,
        unmatched_anchors=unmatched,
        conclusions=[p.id for i, p in enumerate(propositions) if p.conclusion or i in skipped],
    )
    if fallback:
        complete = any(t in comp for t in targets)
    else:
        complete = not unmatched and all(t in comp for t in targets)
    if answer_entity and not answer_absent and complete:
        _fill_complete(ctx, result, answer_entity, targets, fallback, max_alternatives, comp)
    else:
        _fill_incomplete(ctx, result, answer_entity, question, comp, mentioned, answer_text,
                         question_text)
    n = len(ctx.counted)
    result.conciseness_partial = round(len(result.best_partial) / n, 4) if n else 0.0
    return result


def bypassing(props: list[Proposition], answer: str | None, question: set[str],
              entities: list[Entity]) -> frozenset[int]:
    """The claims of a concluding sentence that join the answer straight to a question entity
    the body had already chained to a bridge of its own: "'Tarn Fair' is a parody of that
    song. So the other singer associated with 'Tarn Fair' is Ilo Vask" skips the hop the
    question asks about (who wrote the song) and states its result with the question's
    description filled in. Such a claim bridges nothing, like the conclusion it is (docs/metrics.md).
    A question entity the body never develops is the conclusion's own to reach: "The
    largest city in Brask County is Osk. So Route 9 ends in Osk." A conclusion that speaks of
    the bridge, by name or by its kind ("won the Velmar Prize … Therefore, the award that R
    received was first given in 1931"), goes through it and bridges as its claims say.
    """
    concluding = {p.sentence for p in props if p.conclusion}
    if answer is None or not concluding:
        return frozenset()
    names = {e.id: e.name for e in entities}
    literal = {e.id for e in entities if e.kind in LITERAL_KINDS}
    body: dict[str, set[str]] = {}
    for p in props:
        u, v = p.subject_entity, p.object_entity
        if p.sentence not in concluding and not p.negated and u and v and u != v:
            body.setdefault(u, set()).add(v)
            body.setdefault(v, set()).add(u)
    out = set()
    for i, p in enumerate(props):
        if p.sentence not in concluding or p.conclusion or p.negated:
            continue
        if answer not in (p.subject_entity, p.object_entity):
            continue
        other = p.object_entity if p.subject_entity == answer else p.subject_entity
        if other not in question:
            continue
        bridges = [b for b in body.get(other, ()) if b not in question and b != answer
                   and b not in literal]
        said = content_stems(p.text)
        own = content_stems(names.get(other, ""))
        if bridges and not any((content_stems(names.get(b, "")) - own) & said for b in bridges):
            out.add(i)
    return frozenset(out)


def _fill_complete(ctx: _Ctx, result: Chain, answer: str, targets: list[str],
                   fallback: bool, cap: int, comp: dict[str, int]) -> None:
    """Pmin, its alternatives and the redundant propositions of a complete answer."""
    result.complete = True
    result.partial_completeness = 1.0
    ends = [t for t in targets if t != answer]
    if fallback or len(ends) == 1:
        # With no literal in the answer's component, its BFS distances are the search's.
        known = None if ctx.literal & comp.keys() else comp
        found = (shortest_paths(ctx.g, answer, ends, ctx.no_literal, cap, known)
                 or shortest_paths(ctx.g, answer, ends, lambda _: True, cap))
        # No `found` only when the answer is itself the question entity: nothing to chain.
        trees, on_chain = found if found else ([[]], set())
    else:
        tree = (steiner(ctx.g, answer, ends, ctx.no_literal)
                or steiner(ctx.g, answer, ends, lambda _: True) or [])
        trees = [tree] + _alternative_trees(ctx, answer, ends, tree, cap)
        on_chain = {e for t in trees for e in t}
    # A tree that differs from the first by one parallel edge has its depths.
    first = set(trees[0])
    depth = _depths(ctx, answer, trees[0])
    ordered = [_order(ctx, answer, t, depth if not k or _parallel_twin(ctx, first, t) else None)
               for k, t in enumerate(trees)]
    result.chain = ctx.ids(ordered[0])
    result.entity_path = _entity_path(ctx, ordered[0], answer)
    result.alternatives = [ctx.ids(t) for t in ordered[1:cap + 1]]
    result.best_partial = list(result.chain)
    result.diagnosis.redundant = [ctx.props[i].id for i in ctx.counted if i not in on_chain]


def _alternative_trees(ctx: _Ctx, answer: str, ends: list[str], tree: list[int], cap: int) -> list[list[int]]:
    """Other minimum trees, found by re-solving without one tree edge (not exhaustive)."""
    seen = {frozenset(tree)}
    out: list[list[int]] = []
    # Without one of these no tree connects the anchors at all: nothing to re-solve.
    needed = separating_edges(ctx.g, answer, ends)
    # A restated link is a parallel edge: swapping it into a forced tree needs no search.
    forced = bool(tree) and forced_tree(ctx.g, answer, ends, ctx.no_literal) == tree
    for e in sorted(tree):
        if len(out) >= cap:
            break
        if e in needed:
            continue
        alt = parallel_swap(ctx.g, tree, forced, e)
        if alt is None:
            g = ctx.g.without({e})
            alt = steiner(g, answer, ends, ctx.no_literal) or steiner(g, answer, ends, lambda _: True)
        if alt is not None and len(alt) == len(tree) and frozenset(alt) not in seen:
            seen.add(frozenset(alt))
            out.append(alt)
    return out


def _depths(ctx: _Ctx, answer: str, edges: list[int]) -> dict[str, int]:
    depth, _ = bfs(Graph((e, *ctx.g.ends[e]) for e in edges), [answer], lambda _: True)
    return depth


def _parallel_twin(ctx: _Ctx, first: set[int], edges: list[int]) -> bool:
    """`edges` is the tree `first` with one edge swapped for a parallel one."""
    diff = first.symmetric_difference(edges)
    return len(diff) == 2 and len({frozenset(ctx.g.ends[e]) for e in diff}) == 1


def _order(ctx: _Ctx, answer: str, edges: list[int], depth: dict[str, int] | None = None) -> list[int]:
    """Tree edges ordered from the question side (deepest first) to the answer; `depth`
    is the BFS depth from the answer along these edges, when known."""
    if not edges:
        return []
    if depth is None:
        depth = _depths(ctx, answer, edges)
    ends = ctx.g.ends
    return sorted(edges, key=lambda e: (-max(depth.get(ends[e][0], 0), depth.get(ends[e][1], 0)), e))


def _entity_path(ctx: _Ctx, edges: list[int], answer: str) -> list[str]:
    """Entity ids along ordered chain edges, question side first, answer last."""
    path, node = [answer], answer
    for e in reversed(edges):
        u, v = ctx.g.ends[e]
        if node not in (u, v):  # a tree, not a path: list nodes deepest first
            depth, _ = bfs(Graph((x, *ctx.g.ends[x]) for x in edges), [answer], lambda _: True)
            return sorted(depth, key=lambda n: (-depth[n], ctx.rank.get(n, 0)))
        node = v if u == node else u
        path.insert(0, node)
    return path


def _frontier(ctx: _Ctx, start: str, exclude: frozenset[str] | set[str] = frozenset()) -> tuple[str, list[int]]:
    """The farthest non-literal entity from `start` in its component, and the path to it."""
    dist, parent = bfs(ctx.g, [start], lambda _: True)
    best = start
    for node, d in dist.items():
        if node in ctx.literal or node in exclude:
            continue
        if (d, -ctx.rank.get(node, 0)) > (dist[best], -ctx.rank.get(best, 0)):
            best = node
    return best, list(reversed(path_to(parent, best)))


def _fill_incomplete(ctx: _Ctx, result: Chain, answer: str | None,
                     question: list[QuestionEntity], comp: dict[str, int],
                     mentioned: set[str], answer_text: str | None,
                     question_text: str | None = None) -> None:
    """Failure type, gaps and the best partial chain of an incomplete answer."""
    q_ids = {q.entity for q in question if q.entity}
    diagnosis = result.diagnosis
    if diagnosis.answer_absent:
        diagnosis.failure = "broken"
    elif not q_ids & set(comp) and _circular(ctx, answer, comp, question_text):
        diagnosis.failure = "circular"
    elif not q_ids & mentioned and max(comp.values(), default=0) >= 2:
        diagnosis.failure = "deviated"
    else:
        diagnosis.failure = "broken"
    # Answer side: the path from the answer to its frontier plus paths to reached anchors.
    a_side: list[int] = []
    to_name = answer_text or "the answer"
    if answer and not diagnosis.answer_absent:
        a_front, a_path = _frontier(ctx, answer)
        to_name = ctx.names.get(a_front, to_name)
        keep = [a_front] + [t for t in result.reached if t != answer]
        a_side = steiner(ctx.g, answer, keep, lambda _: True) or a_path
    elif answer:
        to_name = ctx.names.get(answer, to_name)
    # Question side: one gap per unreached anchor (or the first question entity on fallback).
    wanted = [q for q in question if q.anchor] if not result.fallback else question[:1]
    q_side: list[int] = []
    components: list[set[str]] = []
    missing = 0
    for q in wanted:
        if q.entity and q.entity in comp:
            continue
        if q.entity is None:
            missing += 1
            diagnosis.gaps.append(Gap(from_=q.name, to=to_name, anchor=q.name))
            continue
        front, path = _frontier(ctx, q.entity)
        own = set(component(ctx.g, q.entity))
        if not any(own == c for c in components):
            components.append(own)
            q_side.extend(e for e in path if e not in q_side)
        diagnosis.gaps.append(Gap(from_=ctx.names.get(front, q.name), to=to_name, anchor=q.name))
    diagnosis.gap = diagnosis.gaps[0] if diagnosis.gaps else None
    partial = q_side + [e for e in _order(ctx, answer, a_side) if e not in q_side] if answer else q_side
    result.best_partial = ctx.ids(partial)
    # Each missing link joins two components: the answer's plus every unreached one.
    m = max(1, len(components) + missing)
    k = len(partial)
    result.partial_completeness = round(k / (k + m), 4)


def _circular(ctx: _Ctx, answer: str | None, comp: dict[str, int], question_text: str | None) -> bool:
    """The answer's component loops back on itself (docs/metrics.md).

    A cycle anywhere in the component (a triangle through the answer, a link restated as
    mutual support), an entity linked to itself, or a proposition restating the question
    with the answer filled in. Parallel propositions from one clause are extraction
    redundancy, not a loop: they count once unless the sentence names both ends twice
    ("A is married to B because B's spouse is A").
    """
    nodes = set(comp)
    kept: dict[tuple[str, ...], list[Proposition]] = {}
    for e, (u, v) in ctx.g.ends.items():
        if u not in nodes:
            continue
        same = kept.setdefault(tuple(sorted((u, v))), [])
        if not any(_one_assertion(ctx, q, ctx.props[e]) for q in same):
            same.append(ctx.props[e])
    claims = sum(len(v) for v in kept.values())
    for p in ctx.props:
        if (not p.negated and not p.conclusion and p.subject_entity in nodes
                and p.subject_entity == p.object_entity):
            return True
    if claims > len(nodes) - 1:
        return True
    if question_text:
        for p in ctx.props:
            if p.negated or p.conclusion or answer not in (p.subject_entity, p.object_entity):
                continue
            other = p.object if p.subject_entity == answer else p.subject
            if restates_question(other, question_text):
                return True
    return False


def _one_assertion(ctx: _Ctx, p: Proposition, q: Proposition) -> bool:
    """Whether two propositions on one pair come from a single assertion (one clause)."""
    if p.sentence != q.sentence:
        return False
    if p.span != q.span and (p.span[1] <= q.span[0] or q.span[1] <= p.span[0]):
        return False                      # clause spans that do not overlap: two claims
    lo, hi = min(p.span[0], q.span[0]), max(p.span[1], q.span[1])
    for ent in {p.subject_entity, p.object_entity}:
        named = ctx.mentions.get(ent, ()) if ent is not None else ()
        inside = {m.span for m in named if m.span and lo <= m.span[0] < hi}
        if len(inside) < 2:
            return True
    return False                          # both ends named twice: restated within the sentence
