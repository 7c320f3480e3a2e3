"""A record's chain drawn as SVG: a small deterministic layered layout, no graph library.

Entities are nodes, propositions edges. Columns are breadth-first distance from the question's
entities (a component that never reaches them continues to the right, after the gap), rows
keep first-mention order, so the same record always draws the same picture. The chain is
highlighted, redundant propositions faded, and each gap drawn as a dashed missing link.
"""

from __future__ import annotations

from collections import deque
from html import escape

from ..models import AuditResult

COL, ROW, PAD, W, H = 170, 56, 16, 140, 30


def _nodes_and_edges(result: AuditResult):
    names = {e.id: e.name for e in result.entities}
    order: dict[str, None] = {}
    edges = []
    for p in result.propositions:
        if p.conclusion:
            continue
        a = names.get(p.subject_entity or "", p.subject)
        b = names.get(p.object_entity or "", p.object)
        order.update({a: None, b: None})
        edges.append((p, a, b))
    gaps = result.diagnosis.gaps or ([result.diagnosis.gap] if result.diagnosis.gap else []) \
        if result.diagnosis else []
    for gap in gaps:
        order.update({gap.from_: None, gap.to: None})
    return list(order), edges, gaps


def _layers(nodes: list[str], edges, starts: list[str]) -> dict[str, int]:
    adjacent: dict[str, list[str]] = {n: [] for n in nodes}
    for _, a, b in edges:
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

    # The question's entities form column 0; each other component starts a column further on.
    if starts:
        bfs(starts, 0)
    for node in nodes:
        if node not in layer:
            bfs([node], max(layer.values(), default=-1) + 1)
    return layer


def _label(text: str, limit: int = 20) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def render_chain_svg(result: AuditResult) -> str:
    """An inline <svg> of `result`'s propositions; '' for an errored record."""
    if result.diagnosis is None:
        return ""
    nodes, edges, gaps = _nodes_and_edges(result)
    if not nodes:
        return '<svg class="chain-graph" width="200" height="40"><text x="8" y="24">no propositions</text></svg>'
    question = [q.name for q in result.question_entities if q.name in nodes]
    layer = _layers(nodes, edges, question)
    rows: dict[int, int] = {}
    pos = {}
    for node in nodes:
        col = layer[node]
        pos[node] = (PAD + col * COL, PAD + rows.get(col, 0) * ROW)
        rows[col] = rows.get(col, 0) + 1
    width = PAD * 2 + (max(layer.values()) + 1) * COL
    height = PAD * 2 + max(rows.values()) * ROW + (ROW if gaps else 0)
    chain, redundant = set(result.chain), set(result.diagnosis.redundant)
    out = [f'<svg class="chain-graph" xmlns="http://www.w3.org/2000/svg" width="{width}" '
           f'height="{height}" viewBox="0 0 {width} {height}" role="img">']
    for p, a, b in edges:
        (x1, y1), (x2, y2) = pos[a], pos[b]
        cls = "edge chain" if p.id in chain else "edge redundant" if p.id in redundant else "edge"
        if p.negated:
            cls += " negated"
        out.append(f'<g class="{cls}"><title>{escape(p.id)}: {escape(p.text)}</title>'
                   f'<line x1="{x1 + W / 2}" y1="{y1 + H / 2}" x2="{x2 + W / 2}" y2="{y2 + H / 2}"/>'
                   f'<text x="{(x1 + x2 + W) / 2}" y="{(y1 + y2 + H) / 2 - 4}">{escape(p.id)}</text></g>')
    for gap in gaps:
        (x1, y1), (x2, y2) = pos[gap.from_], pos[gap.to]
        # An arc under the rows, so the missing link never hides behind a node between its ends.
        low = max(y1, y2) + H + ROW / 2
        out.append(f'<g class="gap"><title>{escape(gap.describe())}</title>'
                   f'<path d="M{x1 + W / 2},{y1 + H} Q{(x1 + x2 + W) / 2},{low} {x2 + W / 2},{y2 + H}"/>'
                   f'<text x="{(x1 + x2 + W) / 2}" y="{(y1 + y2) / 2 + H + ROW / 4 + 10}">missing</text></g>')
    for node in nodes:
        x, y = pos[node]
        cls = "node question" if node in question else "node answer" if node == result.answer_entity \
            else "node"
        out.append(f'<g class="{cls}"><title>{escape(node)}</title>'
                   f'<rect x="{x}" y="{y}" width="{W}" height="{H}" rx="6"/>'
                   f'<text x="{x + W / 2}" y="{y + H / 2 + 4}">{escape(_label(node))}</text></g>')
    out.append("</svg>")
    return "".join(out)
