"""Gold labels computed from the generated links with docs/metrics.md applied literally.

The generator knows which entity each mention denotes, so it can run the method on the true
graph: this is the reference an auditor's labels are compared with. Every label is derived
here, never asserted by the perturbation that built the case, so a perturbation that happens
to fall in another class (a "broken" case whose question entity vanished is *deviated* by
§4.5) is labelled by the taxonomy, and the builder re-draws it.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass


@dataclass
class Link:
    """One proposition of the long answer, in entity ids."""

    id: int
    rel: str
    s: int
    o: int
    role: str               # chain | fork | detour | extra | contra | neg | restate | loop | off
    hop: int = 0
    negated: bool = False
    hedged: bool = False


@dataclass
class Labels:
    complete: bool
    chain: list[int]                  # link ids from the question side to the answer
    failure: str | None
    answer_absent: bool
    gap: tuple[int, int] | None       # (question-side frontier, answer-side frontier)


def _adjacency(links: list[Link]) -> dict[int, list[tuple[int, int]]]:
    adj: dict[int, list[tuple[int, int]]] = {}
    for link in links:
        if link.negated:        # a negated proposition is no bridge (§4.4)
            continue
        adj.setdefault(link.s, []).append((link.o, link.id))
        adj.setdefault(link.o, []).append((link.s, link.id))
    return adj


def _bfs(adj: dict[int, list[tuple[int, int]]], start: int) -> tuple[dict[int, int], dict[int, int]]:
    """Distances from `start`, and how many shortest paths reach each node."""
    dist, ways = {start: 0}, {start: 1}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for nxt, _ in adj.get(node, []):
            if nxt not in dist:
                dist[nxt] = dist[node] + 1
                ways[nxt] = ways[node]
                queue.append(nxt)
            elif dist[nxt] == dist[node] + 1:
                ways[nxt] += ways[node]
    return dist, ways


def _path(adj: dict[int, list[tuple[int, int]]], dist: dict[int, int], end: int) -> list[int]:
    """Link ids of the (unique) shortest path from the BFS root to `end`, root side last."""
    out, node = [], end
    while dist[node] > 0:
        for prev, lid in adj[node]:
            if dist.get(prev) == dist[node] - 1:
                out.append(lid)
                node = prev
                break
    return out


def _farthest(dist: dict[int, int], root: int) -> int:
    top = max(dist.values())
    far = [n for n, d in dist.items() if d == top]
    if len(far) != 1:
        raise AmbiguousLabel(f"{len(far)} frontier candidates at distance {top} from {root}")
    return far[0]


class AmbiguousLabel(ValueError):
    """The structure admits more than one gold label; the builder re-draws the case."""


def label(links: list[Link], question: int, answer: int) -> Labels:
    """Apply completeness, shortest chain and the failure taxonomy to the true graph."""
    adj = _adjacency(links)
    answer_absent = answer not in adj
    dist, ways = _bfs(adj, answer) if not answer_absent else ({answer: 0}, {answer: 1})
    if question in dist:
        if ways[question] != 1:
            raise AmbiguousLabel("more than one shortest chain")
        chain = _path(adj, dist, question)       # from the question side to the answer
        return Labels(True, chain, None, False, None)
    comp = list(dist)
    edges = sum(1 for lk in links if not lk.negated and lk.s in dist)
    if not answer_absent and edges > len(comp) - 1:
        # The answer's component has a cycle (parallel restatements count): circular.
        return Labels(False, [], "circular", False, None)
    if question not in adj and max(dist.values()) >= 2:
        return Labels(False, [], "deviated", False, None)
    qdist, _ = _bfs(adj, question) if question in adj else ({question: 0}, {})
    gap = (_farthest(qdist, question), _farthest(dist, answer))
    return Labels(False, [], "broken", answer_absent, gap)
