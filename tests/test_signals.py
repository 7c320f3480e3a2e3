"""Signals (docs/metrics.md): kinds, severities, deterministic order."""

from __future__ import annotations

import pytest

from logicscore.pipeline.chain import analyze
from logicscore.pipeline.determinate import judge
from logicscore.pipeline.extract import Extraction
from logicscore.models import Proposition, QuestionEntity
from logicscore.pipeline.normalize.entities import link
from logicscore.pipeline.signals import collect_signals


def signals(triples, anchors, answer, hops=None, generic=()):
    props = []
    for i, (s, r, o, *flags) in enumerate(triples):
        flag = flags[0] if flags else ""
        props.append(Proposition(
            id=f"P{i + 1}", text=f"{s} {r} {o}.", subject=s, relation=r, object=o,
            pattern="given", sentence=i, negated="neg" in flag, hedged="hedge" in flag,
            conclusion="concl" in flag))
    question = [QuestionEntity(name=n) for n in anchors]
    question += [QuestionEntity(name=n, anchor=False) for n in generic]
    linked = link(Extraction(props), question, answer)
    result = analyze(linked.propositions, linked.answer_entity, linked.question,
                     entities=linked.entities, answer_text=answer)
    verdict = judge("", linked, result)
    return [(s.kind, s.severity, s.propositions) for s in collect_signals(linked, result, verdict, hops)]


SEED = [
    ("John Smith", "born in", "Springfield"),
    ("John Smith", "starred in", "Inception"),
    ("Inception", "director", "Christopher Nolan"),
]


@pytest.mark.parametrize("extra, anchors, answer, hops, expected", [
    # Clean chain: nothing to say.
    ([], ["Springfield"], "Christopher Nolan", 3, []),
    # Redundant propositions are listed (info).
    ([("Springfield", "located in", "Illinois")], ["Springfield"], "Christopher Nolan", None,
     [("redundant", "info", ["P4"])]),
    # born in A / born in B about the same person.
    ([("John Smith", "born in", "Shelbyville")], ["Springfield"], "Christopher Nolan", None,
     [("contradiction", "hard", ["P1", "P4"]), ("redundant", "info", ["P4"])]),
    # born in a city and in its state, when LA links them, is no contradiction.
    ([("John Smith", "born in", "Illinois"), ("Springfield", "located in", "Illinois")],
     ["Springfield"], "Christopher Nolan", None, [("redundant", "info", ["P4", "P5"])]),
    # A date and a place are two facts, not two values.
    ([("John Smith", "born in", "1970")], ["Springfield"], "Christopher Nolan", None,
     [("redundant", "info", ["P4"])]),
    # Two values of one functional relation in different words (passive vs relational noun).
    ([("Tim Burton", "is the director of", "Inception")], ["Springfield"], "Christopher Nolan", None,
     [("contradiction", "hard", ["P3", "P4"]), ("redundant", "info", ["P4"])]),
    # "is a native of" and "was born in" are one relation.
    ([("John Smith", "is a native of", "Shelbyville")], ["Springfield"], "Christopher Nolan", None,
     [("contradiction", "hard", ["P1", "P4"]), ("redundant", "info", ["P4"])]),
    # Starring is multi-valued: a second film is no contradiction.
    ([("John Smith", "appeared in", "Memento")], ["Springfield"], "Christopher Nolan", None,
     [("redundant", "info", ["P4"])]),
    # p and not-p.
    ([("John Smith", "starred in", "Inception", "neg")], ["Springfield"], "Christopher Nolan", None,
     [("contradiction", "hard", ["P2", "P4"]), ("redundant", "info", ["P4"])]),
    # The chain is shorter than the known hop count.
    ([], ["Springfield"], "Christopher Nolan", 4, [("shortcut", "soft", ["P1", "P2", "P3"])]),
    # An anchor the answer never names, beside one the chain reaches: a side anchor.
    ([], ["Springfield", "Gotham"], "Christopher Nolan", None,
     [("side_anchor_unreached", "soft", []), ("anchor_not_found", "info", [])]),
])
def test_signals_table(extra, anchors, answer, hops, expected):
    assert signals(SEED + extra, anchors, answer, hops) == expected


@pytest.mark.parametrize("hedged_at, expected", [
    (1, [("hedged_on_chain", "hard", ["P2"])]),       # on Pmin: hard
    (3, [("hedged_on_chain", "soft", ["P4"])]),       # on an alternative chain: soft
])
def test_signals_hedged(hedged_at, expected):
    triples = [list(t) for t in SEED] + [["John Smith", "appeared in", "Inception"]]
    triples[hedged_at].append("hedge")
    assert signals([tuple(t) for t in triples], ["Springfield"], "Christopher Nolan") == expected


def test_signals_asserted_without_derivation():
    out = signals([SEED[0], SEED[2], ("answer", "is", "Christopher Nolan", "concl")],
                  ["Springfield"], "Christopher Nolan")
    assert out == [("asserted_without_derivation", "hard", ["P3"])]


def test_signals_no_anchor_fallback():
    out = signals(SEED, [], "Christopher Nolan", generic=["Springfield"])
    assert out == [("no_anchor", "info", [])]


def test_signals_order_is_fixed():
    triples = SEED + [("John Smith", "born in", "Shelbyville"), ("x", "r", "y")]
    kinds = [k for k, _, _ in signals(triples, ["Springfield"], "Christopher Nolan", hops=5)]
    assert kinds == ["contradiction", "shortcut", "redundant"]


def test_signals_negation_across_voice_and_hub_stays_linear():
    import time

    from logicscore.models import Proposition
    from logicscore.pipeline.signals import _contradictions

    def prop(i, s, r, o, neg=False):
        return Proposition(id=f"P{i}", text="", subject=s, relation=r, object=o, negated=neg,
                           subject_entity=s, object_entity=o, pattern="given")

    props = [prop(1, "E1", "direct", "E2"), prop(2, "E2", "direct by", "E1", neg=True)]
    assert [s.propositions for s in _contradictions(props, {})] == [["P1", "P2"]]
    hub = [prop(i, "E0", "born in", f"E{i}") for i in range(1, 3001)]
    start = time.process_time()
    found = _contradictions(hub, {})
    assert time.process_time() - start < 5
    assert 0 < len(found) <= 64


# One sentence giving a functional relation several values narrows it, in any phrasing; the
# same values in two sentences still contradict. Invented text, the rules extractor.
NARROWING = [
    "The Tarn Board is headquartered in the Hall of Records in Osk in the province of Pell.",
    "Ilo Vask was born in the Grey Hospital in Lyre, in the district of Brask.",
    "Velmora Foods is based at Pell House in Osk, in the Tarn Valley.",
]


@pytest.fixture(scope="module")
def auditor():
    from logicscore import Auditor

    return Auditor(timing=False)


@pytest.mark.parametrize("text", NARROWING)
def test_signals_one_sentence_narrowing_is_no_contradiction(auditor, text):
    result = auditor.audit("Where is it?", "Osk", text)
    assert "contradiction" not in [s.kind for s in result.diagnosis.signals]


def test_signals_two_sentences_still_contradict(auditor):
    result = auditor.audit("Where was Ilo Vask born?", "Lyre",
                           "Ilo Vask was born in Lyre. Ilo Vask was born in Osk.")
    assert "contradiction" in [s.kind for s in result.diagnosis.signals]
