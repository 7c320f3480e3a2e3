"""Where a record's chain graph puts each thing: a small deterministic layered layout, no graph
library. The page draws it (the record view of the HTML report); this module only decides.

Entities are nodes, propositions edges, each gap a dashed link. Columns are breadth-first
distance from the question's entities, the gaps counted as links, so a missing hop sits
between adjacent columns where it belongs (a component that never reaches the question starts
further right); rows keep first-mention order and each column is centred. Labels are wrapped
at word boundaries into at most three lines, never cut mid-word unless a word is too long,
and node heights follow their lines, so the graph is as tall as its tallest column and no
taller. Every coordinate is an integer: the same record always gives the same numbers.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from ..models import AuditResult, Gap

NODE_W, LINE_H, NODE_PAD, COL_GAP, ROW_GAP, PAD = 150, 13, 6, 130, 14, 12
CHARS, MAX_LINES = 22, 3
# Parallel statements between one pair of entities bow apart by this much each.
BOW = 26
# Bits of an edge's class in the layout ("flags" of `layout`).
CHAIN, REDUNDANT, NEGATED = 1, 2, 4
# Node kinds.
PLAIN, QUESTION, ANSWER = 0, 1, 2


def gaps_of(result: AuditResult) -> list[Gap]:
    diag = result.diagnosis
    if diag is None:
        return []
    return list(diag.gaps) or ([diag.gap] if diag.gap else [])


def wrap(text: str, width: int = CHARS, lines: int = MAX_LINES) -> list[int]:
    """End offsets of the lines `text` wraps into; the last offset < len(text) means it was cut
    (the page adds an ellipsis and keeps the full text on hover)."""
    cuts: list[int] = []
    start = 0
    n = len(text)
    while start < n and len(cuts) < lines:
        while start < n and text[start] == " ":
            start += 1
        if n - start <= width:
            cuts.append(n)
            return cuts
        space = text.rfind(" ", start, start + width + 1)
        end = space if space > start else start + width
        cuts.append(end)
        start = end
    return cuts or [0]


def _graph(result: AuditResult):
    names = {e.id: e.name for e in result.entities}
    order: dict[str, None] = {}
    edges = []
    for i, p in enumerate(result.propositions):
        if p.conclusion:
            continue
        a = names.get(p.subject_entity or "", p.subject)
        b = names.get(p.object_entity or "", p.object)
        order.update({a: None, b: None})
        edges.append((i, a, b))
    gaps = gaps_of(result)
    for gap in gaps:
        order.update({gap.from_: None, gap.to: None})
    return list(order), edges, gaps


def _layers(nodes: list[str], links: list[tuple[str, str]], starts: list[str]) -> dict[str, int]:
    adjacent: dict[str, list[str]] = {n: [] for n in nodes}
    for a, b in links:
        adjacent[a].append(b)
        adjacent[b].append(a)
    layer: dict[str, int] = {}

    def bfs(seeds: list[str], base: int) -> None:
        queue = deque(seeds)
        layer.update(dict.fromkeys(seeds, base))
        while queue:
            node = queue.popleft()
            for nxt in adjacent[node]:
                if nxt not in layer:
                    layer[nxt] = layer[node] + 1
                    queue.append(nxt)

    if starts:
        bfs(starts, 0)
    for node in nodes:
        if node not in layer:
            bfs([node], max(layer.values(), default=-1) + 1)
    return layer


def _route(box: dict[str, tuple[int, int, int]], col: dict[str, int], a: str, b: str,
           bow: int) -> list[int]:
    """[x1, y1, cx, cy, x2, y2] of a quadratic curve from `a`'s box to `b`'s."""
    (ax, ay, ah), (bx, by, bh) = box[a], box[b]
    y1, y2 = ay + ah // 2, by + bh // 2
    if a == b:  # a statement about one entity: a loop off its right side
        x = ax + NODE_W
        return [x, y1 - 6, x + 46, y1 + bow, x, y1 + 6]
    if col[a] == col[b]:  # same column: bow out to the right, clear of the boxes
        x = ax + NODE_W
        return [x, y1, x + 44 + abs(bow), (y1 + y2) // 2, x, y2]
    x1, x2 = (ax + NODE_W, bx) if col[a] < col[b] else (ax, bx + NODE_W)
    return [x1, y1, (x1 + x2) // 2, (y1 + y2) // 2 + bow, x2, y2]


def layout(result: AuditResult) -> dict[str, Any] | None:
    """The graph of `result` as plain numbers and strings; None for an errored record.

    Keys: w, h (size), nw (node width), lh (line height), n (nodes: [x, y, h, kind, name,
    line ends]), e (statements: [proposition index, flags, x1, y1, cx, cy, x2, y2]), g (gaps:
    [gap index, x1, y1, cx, cy, x2, y2]).
    """
    if result.diagnosis is None:
        return None
    nodes, edges, gaps = _graph(result)
    if not nodes:
        return {"w": 0, "h": 0, "nw": NODE_W, "lh": LINE_H, "n": [], "e": [], "g": []}
    # A question entity the answer reached is drawn under its linked entity's name.
    names = {e.id: e.name for e in result.entities}
    question = list(dict.fromkeys(n for q in result.question_entities
                                  if (n := names.get(q.entity or "", q.name)) in nodes))
    col = _layers(nodes, [(a, b) for _, a, b in edges] + [(g.from_, g.to) for g in gaps], question)
    cuts = {n: wrap(n) for n in nodes}
    heights = {n: len(cuts[n]) * LINE_H + 2 * NODE_PAD for n in nodes}
    columns: dict[int, list[str]] = {}
    for node in nodes:
        columns.setdefault(col[node], []).append(node)
    tall = max(sum(heights[n] for n in ns) + ROW_GAP * (len(ns) - 1) for ns in columns.values())
    box: dict[str, tuple[int, int, int]] = {}
    for c, ns in columns.items():
        used = sum(heights[n] for n in ns) + ROW_GAP * (len(ns) - 1)
        y = PAD + (tall - used) // 2
        for node in ns:
            box[node] = (PAD + c * (NODE_W + COL_GAP), y, heights[node])
            y += heights[node] + ROW_GAP
    chain, redundant = set(result.chain), set(result.diagnosis.redundant)
    seen: dict[frozenset[str], int] = {}
    out_edges = []
    for i, a, b in edges:
        p = result.propositions[i]
        flags = (CHAIN * (p.id in chain)) | (REDUNDANT * (p.id in redundant)) | (NEGATED * p.negated)
        out_edges.append([i, flags, *_route(box, col, a, b, _bow(seen, a, b))])
    out_gaps = [[k, *_route(box, col, g.from_, g.to, _bow(seen, g.from_, g.to))]
                for k, g in enumerate(gaps)]
    # Room to the right for a loop or a same-column bow off the last column.
    width = PAD * 2 + (max(col.values()) + 1) * (NODE_W + COL_GAP) - COL_GAP + 70
    answer = result.answer_entity
    out_nodes = [[*box[n][:2], box[n][2], QUESTION if n in question else ANSWER if n == answer else PLAIN,
                  n, cuts[n]] for n in nodes]
    return {"w": width, "h": PAD * 2 + tall, "nw": NODE_W, "lh": LINE_H, "n": out_nodes,
            "e": out_edges, "g": out_gaps}


def _bow(seen: dict[frozenset[str], int], a: str, b: str) -> int:
    # 0, +BOW, -BOW, +2·BOW, …: the first link of a pair runs straight.
    key = frozenset((a, b))
    k = seen.get(key, 0)
    seen[key] = k + 1
    return ((k + 1) // 2) * BOW * (1 if k % 2 else -1)
