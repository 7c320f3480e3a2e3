"""Per-hop grounding: each chain proposition checked against the documents it cites.

A record's `documents` map ids to texts; a proposition's `citations` are the markers of its
sentence ("[1]", "[Doc3]"). Each hop of the chain (or of the best partial chain when the
chain is broken) gets one status:

- `grounded`: a cited document supports it;
- `ungrounded`: it cites documents that exist, and none supports it;
- `uncited`: its sentence cites nothing;
- `unknown_citation`: every marker it carries names no document.

How "supports" is decided is the grounder's business (`rules`: entity and relation overlap;
`llm`: one entailment call per answer). This module holds what both share: the hops, the
citations resolved to documents, the statuses, the signal and the share grounded.
"""

from __future__ import annotations

import re
from ..flow import Chain, Grounder, ChainLink, Linked
from ...models import HopGrounding, Proposition, QARecord, Signal

__all__ = ["Grounder", "ChainLink", "chain_hops", "grounded_share", "resolve", "signals", "status"]

_DOC_PREFIX = re.compile(r"^(?:doc(?:ument)?|source|ref)?\s*#?\s*", re.I)


def resolve(marker: str, documents: dict[str, str]) -> str | None:
    """The document id a marker names: itself, or the same number however it is written
    ("Doc3", "doc 3", "3" and "[3]" name one document)."""
    if marker in documents:
        return marker
    want = _DOC_PREFIX.sub("", marker.strip("[] ")).casefold()
    for doc_id in documents:
        if _DOC_PREFIX.sub("", doc_id.strip("[] ")).casefold() == want:
            return doc_id
    return None


def chain_hops(record: QARecord, linked: Linked, result: Chain) -> list[ChainLink]:
    """The hops of the chain in order, each with its entity forms and resolved citations."""
    documents = record.documents or {}
    by_id = {p.id: p for p in linked.propositions}
    forms = {e.id: (e.name, *(m.text for m in e.mentions)) for e in linked.entities}
    hops = []
    for n, pid in enumerate(result.chain or result.best_partial, 1):
        p = by_id.get(pid)
        if p is None:
            continue
        cited: list[tuple[str, str]] = []
        unknown: list[str] = []
        for marker in p.citations:
            doc_id = resolve(marker, documents)
            if doc_id is None:
                unknown.append(marker)
            elif doc_id not in (c[0] for c in cited):
                cited.append((doc_id, documents[doc_id]))
        hops.append(ChainLink(n, p, _forms(p.subject, forms.get(p.subject_entity or "")),
                        _forms(p.object, forms.get(p.object_entity or "")), tuple(cited),
                        tuple(unknown)))
    return hops


def _forms(written: str, linked: tuple[str, ...] | None) -> tuple[str, ...]:
    return tuple(dict.fromkeys((*(linked or ()), written)))


def status(hop: ChainLink, supported_by: list[str]) -> HopGrounding:
    """The row of one hop, given the ids of the cited documents that support it."""
    if not hop.proposition.citations:
        kind = "uncited"
    elif not hop.cited:
        kind = "unknown_citation"
    else:
        kind = "grounded" if supported_by else "ungrounded"
    return HopGrounding(hop=hop.index, proposition=hop.proposition.id, status=kind,
                        citations=list(hop.proposition.citations), supported_by=supported_by)


def grounded_share(rows: list[HopGrounding]) -> float | None:
    """Share of chain hops grounded, rounded as the scores are; None without hops."""
    if not rows:
        return None
    return round(sum(r.status == "grounded" for r in rows) / len(rows), 4)


def describe(row: HopGrounding, p: Proposition | None) -> str:
    """"hop 2 (X born in Y) is asserted but not supported by Doc3", and the other statuses."""
    claim = f"hop {row.hop} ({p.subject} {p.relation} {p.object})" if p else f"hop {row.hop}"
    cites = ", ".join(map(_label, row.citations))
    if row.status == "grounded":
        return f"{claim} is supported by {', '.join(map(_label, row.supported_by))}"
    if row.status == "ungrounded":
        return f"{claim} is asserted but not supported by {cites}"
    if row.status == "unknown_citation":
        return f"{claim} cites {cites}, which names no document of the record"
    return f"{claim} cites no document"


def _label(doc_id: str) -> str:
    # A numbered document (a list's item, "[2]") reads as "document 2"; a named one as named.
    return f"document {doc_id}" if doc_id.isdigit() else doc_id


def signals(rows: list[HopGrounding], propositions: list[Proposition]) -> list[Signal]:
    """One `ungrounded_hop` signal per hop whose cited documents do not support it."""
    by_id = {p.id: p for p in propositions}
    return [Signal(kind="ungrounded_hop", severity="soft", propositions=[r.proposition],
                   message=describe(r, by_id.get(r.proposition)))
            for r in rows if r.status == "ungrounded"]
