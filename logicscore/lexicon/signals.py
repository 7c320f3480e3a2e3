"""The signal catalogue: every kind a stage may emit, declared once, with its severity and
what it means in one line a reader of a report understands (docs/metrics.md, "Failure
types and signals"). The order is the order of a record's signals: the answer's own, the
chain's, the sides' and the question type's, the extractor's, the grounder's.

`models.Signal` accepts only a kind declared here, at one of its severities; the JSON schema
of records (`logicscore schema`), the HTML report's legend and the signal table of
docs/metrics.md read this table. A new kind is added here first, then emitted.
"""

from __future__ import annotations

from typing import NamedTuple


class SignalKind(NamedTuple):
    """One kind: the severities it is emitted at (the usual one first) and its meaning."""

    severities: tuple[str, ...]
    meaning: str


SIGNALS: dict[str, SignalKind] = {
    "refusal": SignalKind(
        ("hard",), "the answer declines to answer; its scores mean nothing"),
    "unsupported_language": SignalKind(
        ("hard",), "the long answer is not in a language the rules read"),
    "relation_mismatch": SignalKind(
        ("hard",), "a complete chain that states another relation than the question asks, "
                   "or no asked hop at all; the chain counts as incomplete"),
    # Runs with a hop stage (`--hops`): hard on the first unstated hop, info when only an
    # anchor is missing or the record has nothing to check.
    "unstated_hop": SignalKind(
        ("hard", "info"), "an asked hop of the question that no sentence of the long answer "
                          "states (the gap, in words)"),
    # The rules hop stage: what the text could not show, either way (completeness null).
    "unverified": SignalKind(
        ("info",), "the text neither shows the chain nor shows it broken: every entity is written "
                   "but the rules could not join them; completeness is left undecided"),
    "contradiction": SignalKind(
        ("hard",), "the answer asserts a claim and its denial, or two values of a relation "
                   "that has one (born in A, born in B)"),
    "asserted_without_derivation": SignalKind(
        ("hard",), "the answer is determinate but its chain is incomplete: "
                   "it states the result without deriving it"),
    # Hard on the minimal chain, soft on an alternative or partial one.
    "hedged_on_chain": SignalKind(
        ("hard", "soft"), "a statement on the chain carries doubt (reportedly, may have, unclear)"),
    "shortcut": SignalKind(
        ("soft",), "the chain has fewer hops than the question is known to need"),
    "side_anchor_unreached": SignalKind(
        ("soft",), "the only question entities left unreached describe a side, "
                   "not a hop on the path to the answer"),
    "anchor_not_found": SignalKind(
        ("info",), "a question entity the long answer never names"),
    "no_anchor": SignalKind(
        ("info",), "the question names nothing specific, so reaching any of its entities, or a "
        "named bridge the answer ties to its description, counts"),
    "redundant": SignalKind(
        ("info",), "statements on no minimal chain from the question to the answer"),
    "conclusion_mismatch": SignalKind(
        ("hard",), "the conclusion contradicts the values the answer itself states"),
    "unclassified_question": SignalKind(
        ("info",), "no question-type rule read the question; it was scored as bridge"),
    "unanchored_proposition": SignalKind(
        ("soft",), "a statement whose entities the long answer never writes, or that the "
        "sentence it quotes does not state"),
    "cut_reply": SignalKind(
        ("soft",), "the LLM's decomposition was cut at the token limit; the propositions it "
                   "finished were kept, any after the cut are missing"),
    "ungrounded_hop": SignalKind(
        ("soft",), "a chain hop its cited documents do not support"),
}

SIGNAL_MEANINGS: dict[str, str] = {kind: entry.meaning for kind, entry in SIGNALS.items()}
