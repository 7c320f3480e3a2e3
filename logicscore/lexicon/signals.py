"""What each signal kind means, in one line a reader of a report understands.

The kinds are those the stages emit; a kind missing here is shown by its name alone.
"""

from __future__ import annotations

SIGNAL_MEANINGS: dict[str, str] = {
    "contradiction": "the answer asserts a claim and its denial, or two values of a relation "
                     "that has one (born in A, born in B)",
    "asserted_without_derivation": "the answer is determinate but its chain is incomplete: "
                                   "it states the result without deriving it",
    "hedged_on_chain": "a statement on the chain carries doubt (reportedly, may have, unclear)",
    "shortcut": "the chain has fewer hops than the question is known to need",
    "redundant": "statements on no minimal chain from the question to the answer",
    "side_anchor_unreached": "the only question entities left unreached describe a side, "
                             "not a hop on the path to the answer",
    "anchor_not_found": "a question entity the long answer never names",
    "no_anchor": "the question names nothing specific, so reaching any of its entities counts",
    "refusal": "the answer declines to answer; its scores mean nothing",
    "unsupported_language": "the long answer is not in a language the rules read",
    "unclassified_question": "no question-type rule read the question; it was scored as bridge",
    "conclusion_mismatch": "the conclusion contradicts the values the answer itself states",
    "ungrounded_hop": "a chain hop its cited documents do not support",
    "unanchored_proposition": "a statement whose entities the long answer never writes",
}
