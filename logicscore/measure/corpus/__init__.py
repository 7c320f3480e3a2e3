"""Seeded generator of fictional multi-hop QA with gold labels (docs/measurements.md).

    from logicscore.measure.corpus import generate, write_corpus
    records = list(generate(seed=1, n=600))

Every record is a valid logicscore input line; the gold labels live in `meta.gold` and the
surface/perturbation tags in `meta.variants`. Same seed, same bytes: one `random.Random`
per case (seeded from the corpus seed and the case index, so a shorter corpus is a prefix
of a longer one), lists only (no set or dict-hash order), fixed JSON separators.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from pathlib import Path

from .build import Case, Rejected, draw_chain, question
from .compared import generate as generate_compared
from .labels import AmbiguousLabel, Labels, label
from .perturb import WEIGHTS, Draft, build
from .render import Writer
from .schema import BY_NAME

__all__ = ["generate", "generate_compared", "write_corpus", "dumps", "sha256_of", "PERTURBATIONS", "parse_hops"]

PERTURBATIONS = tuple(WEIGHTS)
_NEEDS_TWO_HOPS = ("broken", "answer_absent", "asserted_without_derivation")


def parse_hops(text: str) -> tuple[int, int]:
    """"1-5" → (1, 5); "3" → (3, 3). For the CLI's --hops."""
    lo, _, hi = text.partition("-")
    return int(lo), int(hi or lo)


def generate(seed: int, n: int, hops: tuple[int, int] = (1, 5)) -> Iterator[dict]:
    """Yield `n` JSON-ready records; hop counts drawn uniformly from `hops` (inclusive)."""
    lo, hi = hops
    if not 1 <= lo <= hi:
        raise ValueError(f"hops must satisfy 1 <= lo <= hi, got {hops!r}")
    if n < 0:
        raise ValueError("n must be >= 0")
    for idx in range(n):
        yield _case(random.Random(seed * 1_000_003 + idx), seed, idx, lo, hi)


def dumps(record: dict) -> str:
    """One JSONL line, byte-stable."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def write_corpus(path: str | Path, seed: int, n: int, hops: tuple[int, int] = (1, 5),
                 compared: int = 0) -> str:
    """Write the corpus as JSONL and return its sha256; `compared` comparison and yes/no
    cases follow the `n` bridge cases (0: the bridge corpus alone, as before)."""
    digest = hashlib.sha256()
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        for record in [*generate(seed, n, hops), *generate_compared(seed, compared)]:
            line = dumps(record) + "\n"
            fh.write(line)
            digest.update(line.encode("utf-8"))
    return digest.hexdigest()


def sha256_of(seed: int, n: int, hops: tuple[int, int] = (1, 5)) -> str:
    digest = hashlib.sha256()
    for record in generate(seed, n, hops):
        digest.update((dumps(record) + "\n").encode("utf-8"))
    return digest.hexdigest()


def _case(rng: random.Random, seed: int, idx: int, lo: int, hi: int) -> dict:
    n_hops = rng.randint(lo, hi)
    kinds = [k for k in PERTURBATIONS if n_hops >= 2 or k not in _NEEDS_TWO_HOPS]
    kind = rng.choices(kinds, [WEIGHTS[k] for k in kinds])[0]
    for attempt in range(200):
        if attempt == 100:  # this hop count cannot carry it (e.g. no functional relation)
            kind = "complete"
        case = draw_chain(rng, n_hops)
        try:
            draft = build(rng, case, kind)
            links = [lk for unit in draft.units for lk in unit.links]
            labels = label(links, 0, case.answer)
        except (Rejected, AmbiguousLabel):
            continue
        got = "complete" if labels.complete else labels.failure
        if got != draft.intended or labels.answer_absent != (kind == "answer_absent"):
            continue
        return _record(rng, seed, idx, kind, case, draft, links, labels)
    raise RuntimeError(f"case {idx}: no valid draw")  # pragma: no cover


def _canon(case: Case, link) -> str:
    ents = case.world.ents
    text = BY_NAME[link.rel].canon.replace("{S}", ents[link.s].name).replace("{O}", ents[link.o].name)
    return "not: " + text if link.negated else text


def _record(rng: random.Random, seed: int, idx: int, kind: str, case: Case, draft: Draft,
            links: list, labels: Labels) -> dict:
    ents = case.world.ents
    writer = Writer(rng, ents, cite_style=rng.choice(("doc", "doc", "num", "none")))
    sentences = [writer.sentence(unit) for unit in draft.units]
    by_id = {lk.id: lk for lk in links}
    chain = [_canon(case, by_id[i]) for i in labels.chain]
    on_chain = list(labels.chain)
    gold = {
        "question_entity": ents[0].name,
        "answer_entity": ents[case.answer].name,
        "completeness": int(labels.complete),
        # Exact: every rendered link is one proposition (one clause or conjunct).
        "conciseness": round(len(chain) / len(links), 6) if labels.complete else 0.0,
        "failure": labels.failure,
        "answer_absent": labels.answer_absent,
        "gap": None if labels.gap is None else
               {"from": ents[labels.gap[0]].name, "to": ents[labels.gap[1]].name},
        "chain": chain,
        "determinateness": draft.verdict,
        "signals": draft.signals,
        "redundant": [_canon(case, lk) for lk in links if lk.id not in on_chain]
                     if labels.complete else [],
        "n_propositions": len(links),
        "perturbation": kind,
        "dropped_hop": draft.dropped,
    }
    variants = [kind]
    for tag in draft.tags + writer.tags:
        if tag not in variants:
            variants.append(tag)
    return {
        "id": f"fv{seed}-{idx:04d}",
        "question": question(case),
        "answer": ents[case.answer].name,
        "long_answer": " ".join(sentences),
        "hops": len(case.chain),
        "meta": {"gold": gold, "variants": variants, "seed": seed},
    }
