"""Honest baselines the auditor is measured beside (docs/measurements.md): the majority label, "the answer
is mentioned", and the reference implementation's greedy first-match search."""

from __future__ import annotations

import re
import statistics
from collections import Counter
from dataclasses import dataclass, field

from ..lexicon.stop_words import NAME_RUN_STOP_WORDS

__all__ = ["BASELINES", "Pred", "answer_mentioned_baseline", "gold_label", "greedy_baseline", "greedy_chain",
           "majority_baseline"]


@dataclass
class Pred:
    """One prediction in the terms gold is written in; None = no prediction (errored)."""

    completeness: int | None
    label: str | None                    # one of bench.CLASSES, or None
    conciseness: float | None
    gap: tuple[str, str] | None = None
    determinateness: str | None = None
    signals: list[str] = field(default_factory=list)


def gold_label(gold: dict) -> str:
    return "complete" if gold["completeness"] else gold["failure"]


def majority_baseline(records: list[dict]) -> list[Pred]:
    """The corpus's most frequent label for each output (median for conciseness)."""
    golds = [r["meta"]["gold"] for r in records]
    label = _mode([gold_label(g) for g in golds])
    verdict = _mode([g["determinateness"] for g in golds if g.get("determinateness") is not None])
    rated = [g["conciseness"] for g in golds if g.get("conciseness") is not None]
    conc = statistics.median(rated) if rated else 0.0
    return [Pred(int(label == "complete"), label, conc, None, verdict) for _ in records]


def _mode(values: list[str]) -> str:
    counts = Counter(values)
    return max(counts, key=lambda v: (counts[v], -values.index(v))) if values else "complete"


def answer_mentioned_baseline(records: list[dict]) -> list[Pred]:
    """Complete (and entailed) iff the short answer appears in the long answer."""
    out = []
    for r in records:
        hit = r["answer"].casefold() in r["long_answer"].casefold()
        out.append(Pred(int(hit), "complete" if hit else "broken", None, None,
                        "entailed" if hit else "underdetermined"))
    return out


_SENT = re.compile(r"(?<=[.!?])\s+")
_CITE = re.compile(r"\s*\[[^\]]*\]")
_RUN = re.compile(r"[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*")


def _runs(sentence: str) -> list[str]:
    out = []
    for run in _RUN.findall(sentence):
        words = [w for w in run.split() if w.lower().removesuffix("'s") not in NAME_RUN_STOP_WORDS]
        text = " ".join(words).removesuffix("'s")
        if text and text not in out:
            out.append(text)
    return out


def greedy_chain(question_entities: list[str], answer: str, long_answer: str) -> tuple[list[int], int]:
    """The reference implementation's search: sentence indices of its chain, and #sentences.

    Lower-case substring matching; start at the first sentence containing the answer; then
    repeatedly take the first unused sentence sharing a capitalised run with the current
    one; stop at a sentence containing a question entity. An empty chain means it failed.
    """
    sents = [_CITE.sub("", s) for s in _SENT.split(long_answer.strip()) if s.strip()]
    low = [s.lower() for s in sents]
    targets = [q.lower() for q in question_entities if q]
    start = next((i for i, s in enumerate(low) if answer.lower() in s), None)
    if start is None:
        return [], len(sents)
    # The answer is where the search stands, not a bridge onward from it.
    chain, seen = [start], [answer.lower()]
    while True:
        cur = chain[-1]
        if any(t in low[cur] for t in targets):
            return chain, len(sents)
        bridges = [b.lower() for b in _runs(sents[cur]) if b.lower() not in seen]
        seen += bridges
        nxt = next((i for i, s in enumerate(low)
                    if i not in chain and any(b in s for b in bridges)), None)
        if nxt is None:
            return [], len(sents)
        chain.append(nxt)


def greedy_baseline(records: list[dict]) -> list[Pred]:
    """Greedy first-match search, given the gold question entity as the reference code is."""
    out = []
    for r in records:
        qes = [r["meta"]["gold"].get("question_entity") or ""]  # none given: it never stops
        chain, total = greedy_chain(qes, r["answer"], r["long_answer"])
        done = bool(chain)
        out.append(Pred(int(done), "complete" if done else "broken",
                        round(len(chain) / total, 6) if done and total else 0.0, None,
                        "entailed" if done else "underdetermined"))
    return out


BASELINES = {"majority": majority_baseline, "answer_mentioned": answer_mentioned_baseline,
             "greedy": greedy_baseline}
