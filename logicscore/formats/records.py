"""Dataset records (HotpotQA, 2WikiMultihopQA, MuSiQue) as logicscore records.

The long answer is the record's gold chain written out: its supporting sentences in
question → answer order, "Title: " prefixed where a sentence does not name its paragraph's
subject (docs/measurements.md, the same parsers the real-data figures are built with). The short and gold
answers are the dataset's answer. Every paragraph of the record becomes a document, numbered
"1", "2", … in the record's order, its text prefixed by its title ("Title: sentences"),
the titles also in `meta.titles`. MuSiQue's and 2WikiMultihopQA's own decomposition of the
question becomes `question_hops` (`decomposition.py`, read by `--hops given`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .datasets import parse_2wiki, parse_hotpot, parse_musique
from .decomposition import musique_hops, wiki_hops
from .items import Item
from .rag import Unreadable
from .text import display_title


def _record(item: Item, paragraphs: list[tuple[str, str]], fmt: str,
            question_hops: list[dict[str, str]] | None) -> dict[str, Any]:
    long_answer = " ".join(line.text for line in item.gold_lines())
    if not long_answer:
        raise Unreadable("no supporting sentence found in the record's paragraphs")
    docs = {str(i): f"{display_title(t)}: {text}" if t else text for i, (t, text) in enumerate(paragraphs, 1)}
    record = {
        "id": item.id, "question": item.question, "answer": item.answer, "long_answer": long_answer,
        "gold_answer": item.answer, "hops": len(item.hops), "documents": docs or None,
        "meta": {"format": fmt, "dataset": item.dataset, "type": item.qtype,
                 "titles": {str(i): t for i, (t, _) in enumerate(paragraphs, 1)}},
    }
    if question_hops is not None:
        record["question_hops"] = question_hops
    return record


def _context(obj: dict[str, Any]) -> list[tuple[str, str]]:
    return [(title, " ".join(s.strip() for s in sentences)) for title, sentences in obj["context"]]


def _convert(parse: Callable[[dict], Item], paragraphs: Callable[[dict], list[tuple[str, str]]],
             obj: dict[str, Any], name: str, fmt: str,
             hops: Callable[[dict], list[dict[str, str]] | None] | None = None) -> dict[str, Any]:
    try:
        item, found = parse(obj), paragraphs(obj)
    except (KeyError, TypeError, IndexError, ValueError, AttributeError) as exc:
        raise Unreadable(f"not a {name} record ({type(exc).__name__}: {exc})") from None
    return _record(item, found, fmt, hops(obj) if hops else None)


def _paragraphs(obj: dict[str, Any]) -> list[tuple[str, str]]:
    return [(p["title"], p["paragraph_text"]) for p in obj["paragraphs"]]


def is_hotpot(obj: dict[str, Any]) -> bool:
    return "supporting_facts" in obj and "context" in obj and "evidences" not in obj


def from_hotpot(obj: dict[str, Any]) -> dict[str, Any]:
    return _convert(parse_hotpot, _context, obj, "HotpotQA", "hotpotqa")


def is_2wiki(obj: dict[str, Any]) -> bool:
    return "supporting_facts" in obj and "context" in obj and "evidences" in obj


def from_2wiki(obj: dict[str, Any]) -> dict[str, Any]:
    return _convert(parse_2wiki, _context, obj, "2WikiMultihopQA", "2wiki", wiki_hops)


def is_musique(obj: dict[str, Any]) -> bool:
    return "question_decomposition" in obj and "paragraphs" in obj


def from_musique(obj: dict[str, Any]) -> dict[str, Any]:
    return _convert(parse_musique, _paragraphs, obj, "MuSiQue", "musique", musique_hops)
