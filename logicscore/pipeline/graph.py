"""Graph search for chaining (docs/metrics.md): BFS, all shortest paths with a cap, Steiner trees.

Nodes are entity ids; edges are proposition indices, so parallel propositions stay distinct.
A node is *passable* when a path may go through it; literals (dates, numbers) are made
impassable on a first attempt so they end chains but do not bridge them.
"""

from __future__ import annotations

import heapq
from collections import defaultdict, deque
from collections.abc import Callable, Iterable

# Exact Dreyfus–Wagner runs when 2^(terminals-1) * (nodes + edges) stays under this budget
# and there are at most 6 terminals (answer + 5 anchors); beyond, the union of shortest
# paths from the answer to each anchor is used (an upper bound, at most 2x the optimum).
STEINER_BUDGET = 400_000
STEINER_MAX_TERMINALS = 6


class Graph:
    """An undirected multigraph; `adj[u]` lists (neighbour, edge) in edge order."""

    def __init__(self, edges: Iterable[tuple[int, str, str]]):
        adj: defaultdict[str, list[tuple[str, int]]] = defaultdict(list)
        ends: dict[int, tuple[str, str]] = {}
        for e, u, v in edges:
            ends[e] = (u, v)
            adj[u].append((v, e))
            adj[v].append((u, e))
        self.adj = dict(adj)
        self.ends = ends

    def without(self, removed: set[int]) -> Graph:
        return Graph((e, u, v) for e, (u, v) in self.ends.items() if e not in removed)


Passable = Callable[[str], bool]


def bfs(g: Graph, sources: list[str], passable: Passable
        ) -> tuple[dict[str, int], dict[str, tuple[str, int]]]:
    """Distances and parent (node, edge) from `sources`; impassable nodes are reached, not expanded."""
    dist = {s: 0 for s in sources}
    parent: dict[str, tuple[str, int]] = {}
    queue = deque(sources)
    while queue:
        u = queue.popleft()
        if dist[u] and not passable(u):
            continue
        for v, e in g.adj.get(u, ()):
            if v not in dist:
                dist[v] = dist[u] + 1
                parent[v] = (u, e)
                queue.append(v)
    return dist, parent


def path_to(parent: dict[str, tuple[str, int]], node: str) -> list[int]:
    """Edges from `node` back to the BFS source, in that order."""
    out = []
    while node in parent:
        node, e = parent[node]
        out.append(e)
    return out


def shortest_paths(g: Graph, answer: str, targets: list[str], passable: Passable, cap: int,
                   dist_a: dict[str, int] | None = None) -> tuple[list[list[int]], set[int]] | None:
    """Shortest answer–target paths as edge lists ordered target → answer.

    `dist_a` may pass in BFS distances from the answer already computed under `passable`.

    Returns:
        (up to cap + 1 paths, lexicographically smallest first; every edge lying on *any*
        shortest path), or None when no target is reachable.
    """
    ok = _admitting(targets, answer, passable)
    if dist_a is None:
        dist_a, _ = bfs(g, [answer], ok)
    reached = [t for t in targets if t in dist_a]
    if not reached:
        return None
    d = min(dist_a[t] for t in reached)
    dist_t, _ = bfs(g, list(dict.fromkeys(reached)), ok)
    on_any = set()
    inf = d + 1
    for e, (u, v) in g.ends.items():
        au, av = dist_a.get(u, inf), dist_a.get(v, inf)
        if au >= d and av >= d:
            continue  # neither end is inside the search ball: the common case, kept cheap
        if ((au + 1 + dist_t.get(v, inf) == d or av + 1 + dist_t.get(u, inf) == d)
                and ok(u) and ok(v)):
            on_any.add(e)
    paths: list[list[int]] = []
    # Iterative DFS from each nearest target down the BFS layers; every layer node has a
    # passable predecessor, so no branch dead-ends and the cost is O(cap * d * degree).
    for t in dict.fromkeys(reached):
        if dist_a[t] != d:
            continue
        stack: list[tuple[str, list[int]]] = [(t, [])]
        while stack and len(paths) <= cap:
            node, edges = stack.pop()
            if node == answer:
                paths.append(edges)
                continue
            nxt = [(w, e) for w, e in g.adj.get(node, ())
                   if dist_a.get(w) == dist_a[node] - 1 and ok(w)]
            for w, e in reversed(nxt):
                stack.append((w, edges + [e]))
        if len(paths) > cap:
            break
    return paths, on_any


def steiner(g: Graph, root: str, terms: list[str], passable: Passable) -> list[int] | None:
    """Fewest edges connecting `root` to every node of `terms`, or None if impossible."""
    terms = _others(terms, root)
    ok = _admitting(terms, root, passable)
    dist_r, parent_r = bfs(g, [root], ok)
    if any(t not in dist_r for t in terms):
        return None
    if not terms:
        return []
    if len(terms) == 1:
        return path_to(parent_r, terms[0])
    forced = _forced_tree(g, root, terms, ok)
    if forced is not None:
        return forced
    nodes = list(dist_r)
    size = sum(len(g.adj.get(n, ())) for n in nodes) + len(nodes)
    if len(terms) + 1 > STEINER_MAX_TERMINALS or (1 << len(terms)) * size > STEINER_BUDGET:
        out: list[int] = []
        for t in terms:
            out.extend(e for e in path_to(parent_r, t) if e not in out)
        return out
    return _dreyfus_wagner(g, root, terms, ok, nodes)


def forced_tree(g: Graph, root: str, terms: list[str], passable: Passable) -> list[int] | None:
    """The tree `steiner` returns when every tree must use the same edges (see
    `_forced_tree`); None when `steiner` would search (or finds nothing to connect)."""
    terms = _others(terms, root)
    if len(terms) < 2:
        return None
    ok = _admitting(terms, root, passable)
    dist_r, _ = bfs(g, [root], ok)
    if any(t not in dist_r for t in terms):
        return None
    return _forced_tree(g, root, terms, ok)


def _others(terms: list[str], root: str) -> list[str]:
    """The terminals to connect to `root`: each once, in order, the root left out."""
    return [t for t in dict.fromkeys(terms) if t != root]


def _admitting(terms: list[str], root: str, passable: Passable) -> Passable:
    """`passable`, widened to the root and the terminals, where every path or tree it
    admits begins or ends."""
    ends = set(terms) | {root}
    return lambda x: x in ends or passable(x)


def parallel_swap(g: Graph, tree: list[int], forced: bool, e: int) -> list[int] | None:
    """`steiner` of `g` without tree edge `e`, without searching, when that is known: a
    forced tree (`forced_tree` gave it) keeps its shape once `e` goes if a parallel edge
    joins the same two nodes, and the first such edge takes its place, since `_forced_tree`
    keeps the first of parallel edges and the bridges of the graph are the same. None
    when the graph must be searched again."""
    if not forced:
        return None
    u, v = g.ends[e]
    twin = next((f for w, f in g.adj[u] if w == v and f != e), None)
    return None if twin is None else sorted([x for x in tree if x != e] + [twin])


def _forced_tree(g: Graph, root: str, terms: list[str], ok: Passable) -> list[int] | None:
    """The edges every tree connecting `root` to `terms` must use, when they already connect
    them through passable nodes: then they are the one minimum tree, which Dreyfus–Wagner
    and the union of shortest paths would both return (callers use the edge set). A long
    chain is such a tree; this is what keeps re-solving it linear. None otherwise.

    Of parallel edges only the first counts: both searches relax it first, so a later one
    never enters their trees, and without them a restated link is no cycle."""
    first: dict[frozenset[str], int] = {}
    for e, (u, v) in g.ends.items():
        first.setdefault(frozenset((u, v)), e)
    if len(first) < len(g.ends):
        kept = set(first.values())
        g = Graph((e, u, v) for e, (u, v) in g.ends.items() if e in kept)
    needed = separating_edges(g, root, terms)
    degree: dict[str, int] = {}
    adj: defaultdict[str, list[str]] = defaultdict(list)
    for e in needed:
        u, v = g.ends[e]
        adj[u].append(v)
        adj[v].append(u)
        degree[u] = degree.get(u, 0) + 1
        degree[v] = degree.get(v, 0) + 1
    if any(d > 1 and not ok(n) for n, d in degree.items()):
        return None  # it bridges through a literal: the search decides
    seen, todo = {root}, [root]
    while todo:
        for w in adj[todo.pop()]:
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return sorted(needed) if all(t in seen for t in terms) else None


def _dreyfus_wagner(g: Graph, root: str, terms: list[str], ok: Passable, nodes: list[str]) -> list[int]:
    """Exact unit-weight Steiner tree by Dreyfus–Wagner over subsets of `terms`."""
    inf = float("inf")
    full = (1 << len(terms)) - 1
    cost: list[dict[str, float]] = [{} for _ in range(full + 1)]
    back: list[dict[str, tuple]] = [{} for _ in range(full + 1)]
    for i, t in enumerate(terms):
        dist, parent = bfs(g, [t], ok)
        cost[1 << i] = {n: float(d) for n, d in dist.items()}
        back[1 << i] = {n: ("edge", *parent[n]) for n in dist if n in parent}
    index = {n: i for i, n in enumerate(nodes)}
    for mask in range(1, full + 1):
        if mask & (mask - 1) == 0:
            continue
        cur: dict[str, float] = {}
        how: dict[str, tuple] = {}
        for v in nodes:
            if not ok(v):
                continue
            best, split = inf, 0
            sub = (mask - 1) & mask
            while sub:
                c = cost[sub].get(v, inf) + cost[mask ^ sub].get(v, inf)
                if c < best:
                    best, split = c, sub
                sub = (sub - 1) & mask
            if best < inf:
                cur[v], how[v] = best, ("split", split)
        # Grow each partial tree along edges (unit-weight Dijkstra seeded with the splits).
        heap = [(c, index[v], v) for v, c in cur.items()]
        heapq.heapify(heap)
        while heap:
            c, _, u = heapq.heappop(heap)
            if c > cur.get(u, inf) or not ok(u):
                continue
            for w, e in g.adj.get(u, ()):
                if w in index and c + 1 < cur.get(w, inf):
                    cur[w], how[w] = c + 1, ("edge", u, e)
                    heapq.heappush(heap, (c + 1, index[w], w))
        cost[mask], back[mask] = cur, how
    out: list[int] = []
    todo = [(full, root)]
    while todo:
        mask, v = todo.pop()
        step = back[mask].get(v)
        if step is None:
            continue
        if step[0] == "edge":
            if step[2] not in out:
                out.append(step[2])
            todo.append((mask, step[1]))
        else:
            todo.extend([(step[1], v), (mask ^ step[1], v)])
    return out


def separating_edges(g: Graph, root: str, terms: Iterable[str]) -> set[int]:
    """Edges without which some of `terms` is cut off from `root` (all nodes passable): the
    bridges of `root`'s component with a term on their far side, by one iterative DFS."""
    tset = set(terms)
    order = {root: 0}
    low = {root: 0}
    below = {root: int(root in tset)}  # terms in each node's DFS subtree
    found: set[int] = set()
    stack = [(root, -1, iter(g.adj.get(root, ())))]
    while stack:
        u, via, todo = stack[-1]
        for v, e in todo:
            if e == via:
                continue  # the edge we came in by; a parallel edge is a way back
            if v in order:
                low[u] = min(low[u], order[v])
                continue
            order[v] = low[v] = len(order)
            below[v] = int(v in tset)
            stack.append((v, e, iter(g.adj.get(v, ()))))
            break
        else:
            stack.pop()
            if stack:
                p = stack[-1][0]
                low[p] = min(low[p], low[u])
                below[p] += below[u]
                if low[u] > order[p] and below[u]:
                    found.add(via)
    return found


def component(g: Graph, start: str) -> dict[str, int]:
    """Every node connected to `start`, with its distance (all nodes passable)."""
    return bfs(g, [start], lambda _: True)[0]
