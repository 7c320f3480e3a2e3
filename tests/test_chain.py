"""Backward chaining: shortest chains, alternatives, Steiner trees, failure taxonomy."""

from __future__ import annotations

import time

import pytest

from logicscore.pipeline.chain import analyze
from logicscore.models import Entity, Mention, Proposition, QuestionEntity

LITERALS = {"1950": "date", "67 million": "number"}


def build(triples):
    """Propositions whose entity ids are their argument strings; flags as a 4th item."""
    props = []
    for i, (s, r, o, *flags) in enumerate(triples):
        flag = flags[0] if flags else ""
        props.append(Proposition(
            id=f"P{i + 1}", text=f"{s} {r} {o}.", subject=s, relation=r, object=o,
            pattern="given", sentence=i, subject_entity=s, object_entity=o,
            negated="neg" in flag, hedged="hedge" in flag, conclusion="concl" in flag,
        ))
    names = list(dict.fromkeys(x for p in props for x in (p.subject, p.object)))
    return props, [Entity(id=n, name=n, kind=LITERALS.get(n, "other")) for n in names]


def run(triples, answer, anchors=(), generic=(), **kw):
    props, entities = build(triples)
    ids = {e.id for e in entities}
    question = [QuestionEntity(name=a, entity=a if a in ids else None) for a in anchors]
    question += [QuestionEntity(name=g, anchor=False, entity=g if g in ids else None) for g in generic]
    return analyze(props, answer if answer in ids else None, question, entities=entities,
                   answer_text=answer, **kw)


SEED = [
    ("John Smith", "born in", "Springfield"),
    ("John Smith", "starred in", "Inception"),
    ("Inception", "director", "Christopher Nolan"),
    ("Springfield", "located in", "Illinois"),
]


def test_chain_seed_complete():
    r = run(SEED, "Christopher Nolan", ["Springfield"])
    assert r.complete and r.diagnosis.failure is None and r.diagnosis.gap is None
    assert r.chain == ["P1", "P2", "P3"]
    assert r.entity_path == ["Springfield", "John Smith", "Inception", "Christopher Nolan"]
    assert r.diagnosis.redundant == ["P4"] and r.alternatives == []
    assert r.partial_completeness == 1.0 and r.conciseness_partial == 0.75
    assert r.reached == ["Springfield"]


def test_chain_seed_broken_gap():
    r = run([("J.K. Rowling", "wrote", "Harry Potter"),
             ("United Kingdom", "has population", "67 million")], "United Kingdom", ["Harry Potter"])
    assert not r.complete and r.diagnosis.failure == "broken" and not r.diagnosis.answer_absent
    assert (r.diagnosis.gap.from_, r.diagnosis.gap.to, r.diagnosis.gap.anchor) == \
        ("J.K. Rowling", "United Kingdom", "Harry Potter")
    assert r.diagnosis.gap.describe() == "missing proposition linking J.K. Rowling to United Kingdom"
    assert r.best_partial == ["P1"] and r.partial_completeness == 0.5
    assert r.diagnosis.redundant == []


# A distractor fork at every hop, listed first, so a first-match greedy DFS from Q walks
# the long branch (Q-a1-a2-a3-A, 4 steps) before the two 2-step chains.
FORK = [
    ("Q", "r", "a1"), ("a1", "r", "a2"), ("a2", "r", "a3"), ("a3", "r", "A"),
    ("Q", "r", "b1"), ("b1", "r", "A"),
    ("Q", "r", "c1"), ("c1", "r", "A"),
    ("b1", "r", "dead end"),
]


def test_chain_shortest_beats_greedy_first_match():
    r = run(FORK, "A", ["Q"])
    assert r.chain == ["P5", "P6"]
    assert r.alternatives == [["P7", "P8"]]
    assert r.diagnosis.redundant == ["P1", "P2", "P3", "P4", "P9"]
    assert r.entity_path == ["Q", "b1", "A"]


@pytest.mark.parametrize("cap, expected", [(0, 0), (3, 3), (16, 16), (50, 19)])
def test_chain_alternatives_capped(cap, expected):
    triples = [t for i in range(20) for t in (("Q", "r", f"m{i}"), (f"m{i}", "r", "A"))]
    r = run(triples, "A", ["Q"], max_alternatives=cap)
    assert r.chain == ["P1", "P2"] and len(r.alternatives) == expected
    assert r.diagnosis.redundant == []  # every proposition is on some minimal chain


def test_chain_parallel_propositions_are_alternatives():
    r = run([("Q", "directed", "A"), ("A", "was directed by", "Q")], "A", ["Q"])
    assert r.chain == ["P1"] and r.alternatives == [["P2"]]


@pytest.mark.parametrize("triples, chain", [
    # A date shared by two people is no bridge when a real one exists, even a longer one.
    ([("Q", "born", "1950"), ("1950", "born", "A"), ("Q", "r", "x"), ("x", "r", "y"), ("y", "r", "A")],
     ["P3", "P4", "P5"]),
    # ...but is used when it is the only connection.
    ([("Q", "born", "1950"), ("1950", "born", "A")], ["P1", "P2"]),
    # A literal can end a chain.
    ([("A", "born", "x"), ("x", "in", "1950")], ["P2", "P1"]),
])
def test_chain_literals_not_preferred_as_bridges(triples, chain):
    anchor = "1950" if chain == ["P2", "P1"] else "Q"
    assert run(triples, "A", [anchor]).chain == chain


@pytest.mark.parametrize("flag", ["neg", "concl"])
def test_chain_negated_and_conclusion_bridge_nothing(flag):
    r = run([("Q", "r", "x"), ("x", "r", "A", flag)], "A", ["Q"])
    assert not r.complete and r.diagnosis.failure == "broken"
    assert not r.diagnosis.answer_absent  # the answer is still mentioned


def test_chain_conclusions_not_counted_in_p():
    r = run(SEED + [("answer", "is", "Christopher Nolan", "concl")], "Christopher Nolan", ["Springfield"])
    assert r.conclusions == ["P5"] and r.diagnosis.redundant == ["P4"] and r.conciseness_partial == 0.75


@pytest.mark.parametrize("triples, anchors, failure, absent", [
    # answer_absent: the answer is in no proposition; reported with broken.
    ([("Q", "r", "x")], ["Q"], "broken", True),
    # circular: a cycle through the answer that never reaches the question.
    ([("Q", "r", "q2"), ("A", "r", "x"), ("x", "r", "y"), ("y", "r", "A")], ["Q"], "circular", False),
    # circular: the same link restated in two sentences as mutual support.
    ([("Q", "r", "q2"), ("A", "is", "x"), ("x", "is", "A")], ["Q"], "circular", False),
    # deviated: no question entity anywhere, and the answer's part goes two steps deep.
    ([("A", "r", "x"), ("x", "r", "y")], ["Q"], "deviated", False),
    # one step deep is not enough to call it a deviation.
    ([("A", "r", "x")], ["Q"], "broken", False),
    # broken: question side and answer side with no bridge.
    ([("Q", "r", "x"), ("y", "r", "A")], ["Q"], "broken", False),
])
def test_chain_failure_taxonomy(triples, anchors, failure, absent):
    answer = "A" if not absent else "Nowhere"
    r = run(triples, answer, anchors)
    assert not r.complete and r.diagnosis.failure == failure and r.diagnosis.answer_absent is absent
    assert r.diagnosis.gap is not None and r.diagnosis.gaps == [r.diagnosis.gap]


def test_chain_absent_answer_gap_names_the_answer():
    r = run([("Q", "r", "x")], "Nowhere", ["Q"])
    assert (r.diagnosis.gap.from_, r.diagnosis.gap.to) == ("x", "Nowhere")


def test_chain_partial_hop_missing():
    r = run([("Q", "r", "e1"), ("e2", "r", "A")], "A", ["Q"])
    assert (r.diagnosis.gap.from_, r.diagnosis.gap.to) == ("e1", "e2")
    assert r.best_partial == ["P1", "P2"] and r.partial_completeness == 0.6667
    assert r.conciseness_partial == 1.0


def test_chain_answer_frontier_skips_literal_dead_end():
    r = run([("Q", "r", "x"), ("A", "has population", "67 million")], "A", ["Q"])
    assert r.diagnosis.gap.to == "A"


TWO_ANCHORS = [
    ("B", "shot in", "Paris"),  # decoy film shot in Paris but without the actor
    ("F", "stars", "Actor"),
    ("F", "shot in", "Paris"),
    ("Actor", "born in", "Town"),
]


def test_chain_every_anchor_steiner():
    r = run(TWO_ANCHORS, "F", ["Actor", "Paris"])
    assert r.complete and sorted(r.chain) == ["P2", "P3"]
    assert set(r.entity_path) == {"Actor", "Paris", "F"} and r.entity_path[-1] == "F"
    assert r.diagnosis.redundant == ["P1", "P4"]


def test_chain_one_anchor_unreached_is_incomplete():
    r = run(TWO_ANCHORS[:2] + TWO_ANCHORS[3:], "F", ["Actor", "Paris"])
    assert not r.complete and r.reached == ["Actor"]
    assert [g.anchor for g in r.diagnosis.gaps] == ["Paris"] and r.diagnosis.gap.from_ == "B"


def test_chain_steiner_exact_not_union_of_paths():
    # Shortest paths first found: r-a-t1 and r-b-t2 (4 edges); the optimum joins at c (3).
    triples = [("r", "x", "a"), ("a", "x", "t1"), ("r", "x", "b"), ("b", "x", "t2"),
               ("r", "x", "c"), ("c", "x", "t1"), ("c", "x", "t2")]
    r = run(triples, "r", ["t1", "t2"])
    assert r.complete and sorted(r.chain) == ["P5", "P6", "P7"]
    assert r.chain[-1] == "P5"  # ordered question side first, answer last


def test_chain_unmatched_anchor_is_a_gap():
    r = run(SEED, "Christopher Nolan", ["Springfield", "Gotham"])
    assert not r.complete and r.unmatched_anchors == ["Gotham"]
    assert r.diagnosis.gap.from_ == "Gotham" and r.diagnosis.gap.anchor == "Gotham"


@pytest.mark.parametrize("generic, complete", [(["Illinois"], True), (["Nowhere"], False), ([], False)])
def test_chain_no_anchor_fallback(generic, complete):
    r = run(SEED, "Christopher Nolan", [], generic)
    assert r.fallback and r.complete is complete
    if complete:
        assert r.chain == ["P4", "P1", "P2", "P3"]


def test_chain_is_deterministic():
    runs = {repr(run(FORK, "A", ["Q"])) for _ in range(5)}
    assert len(runs) == 1


def _clique(n, outside):
    nodes = [f"n{i}" for i in range(n)]
    props, k = [], 0
    for i in range(n):
        for j in range(i + 1, n):
            k += 1
            props.append(Proposition.model_construct(
                id=f"P{k}", text="", subject=nodes[i], relation="r", object=nodes[j], sentence=k,
                negated=False, hedged=False, conclusion=False, subject_entity=nodes[i],
                object_entity=nodes[j], citations=[], span=(0, 0), pattern="given", resolutions=[]))
    if outside:
        for node in nodes:
            for end in ("Q", "A"):
                k += 1
                props.append(Proposition.model_construct(
                    id=f"P{k}", text="", subject=end, relation="r", object=node, sentence=k,
                    negated=False, hedged=False, conclusion=False, subject_entity=end,
                    object_entity=node, citations=[], span=(0, 0), pattern="given", resolutions=[]))
        nodes += ["Q", "A"]
    return props, [Entity(id=x, name=x) for x in nodes]


@pytest.mark.parametrize("outside", [False, True])
def test_chain_500_clique_is_fast(outside):
    props, entities = _clique(500, outside)
    answer, anchor = ("A", "Q") if outside else ("n499", "n0")
    start = time.process_time()  # CPU time: wall time is noise on a shared CI runner
    r = analyze(props, answer, [QuestionEntity(name=anchor, entity=anchor)], entities=entities)
    assert time.process_time() - start < 1.0
    assert r.complete and len(r.chain) == (2 if outside else 1)
    assert len(r.alternatives) == (16 if outside else 0)


def test_chain_long_line_no_recursion_limit():
    triples = [(f"n{i}", "r", f"n{i + 1}") for i in range(3000)]
    r = run(triples, "n3000", ["n0"])
    assert r.complete and len(r.chain) == 3000 and r.chain[0] == "P1"


def _sentence_case(sentence, pairs, names):
    """One sentence of text with propositions over (subject, object) and every mention found."""
    props = [Proposition(id=f"P{i + 1}", text=sentence, subject=s, relation=r, object=o,
                         pattern="given", sentence=0, span=(0, len(sentence)),
                         subject_entity=s, object_entity=o)
             for i, (s, r, o) in enumerate(pairs)]
    entities = []
    for n in names:
        spans, at = [], sentence.find(n)
        while at >= 0:
            spans.append(Mention(text=n, span=(at, at + len(n))))
            at = sentence.find(n, at + len(n))
        entities.append(Entity(id=n, name=n, mentions=spans))
    return props, entities


@pytest.mark.parametrize("sentence, pairs, failure", [
    # "A because A": the same link restated within one sentence is mutual support.
    ("Ann married Bob because Bob is the spouse of Ann.",
     [("Ann", "married", "Bob"), ("Bob", "spouse of", "Ann")], "circular"),
    # One clause read by two patterns is extraction redundancy, not a loop.
    ("Ann, the spouse of Bob, married Bob.",
     [("Ann", "spouse of", "Bob"), ("Ann", "married", "Bob")], "broken"),
    ("Ann married Bob.", [("Ann", "married", "Bob"), ("Ann", "spouse of", "Bob")], "broken"),
])
def test_chain_circular_within_one_sentence(sentence, pairs, failure):
    props, entities = _sentence_case(sentence, pairs, ["Ann", "Bob"])
    entities.append(Entity(id="Q", name="Q"))
    props.append(Proposition(id="P9", text="Q r q2.", subject="Q", relation="r", object="q2",
                             pattern="given", sentence=1, subject_entity="Q", object_entity="q2"))
    entities.append(Entity(id="q2", name="q2"))
    r = analyze(props, "Ann", [QuestionEntity(name="Q", entity="Q")], entities=entities)
    assert r.diagnosis.failure == failure


@pytest.mark.parametrize("triples, question_text, failure", [
    # A cycle in the answer's component that does not pass through the answer.
    ([("Q", "r", "q2"), ("A", "r", "x"), ("x", "r", "y"), ("y", "s", "z"), ("z", "t", "x")],
     None, "circular"),
    # A restatement of the question with the answer filled in, and nowhere else to go.
    ([("Q", "r", "q2"), ("the film directed by the founder of Acme", "is", "A")],
     "Which film was directed by the founder of Acme?", "circular"),
    # Without the question text nothing marks it as a restatement.
    ([("Q", "r", "q2"), ("the film directed by the founder of Acme", "is", "A")], None, "broken"),
    # A self-loop anywhere in the component.
    ([("Q", "r", "q2"), ("A", "r", "x"), ("x", "same as", "x")], None, "circular"),
])
def test_chain_circular_forms(triples, question_text, failure):
    r = run(triples, "A", ["Q"], question_text=question_text)
    assert not r.complete and r.diagnosis.failure == failure


def _sentences(rows):
    """Propositions from (sentence, text, subject, object, conclusion) rows; ids are names."""
    props = [Proposition(id=f"P{i + 1}", text=text, subject=s, relation="r", object=o,
                         pattern="given", sentence=n, subject_entity=s, object_entity=o,
                         conclusion=concl)
             for i, (n, text, s, o, concl) in enumerate(rows)]
    names = list(dict.fromkeys(x for p in props for x in (p.subject, p.object)))
    return props, [Entity(id=x, name=x, kind=LITERALS.get(x, "other")) for x in names]


SKIPPING = "So the other singer of Tarn Hymn is Ada Brel."
BODY = [(0, "Tarn Hymn is a parody of Blue Reed.", "Tarn Hymn", "Blue Reed", False),
        (1, SKIPPING, "answer", "Ada Brel", True),
        (1, SKIPPING, "Ada Brel", "Tarn Hymn", False)]


@pytest.mark.parametrize(("rows", "skipped", "complete"), [
    # The conclusion joins the answer to a question name the body took to a bridge.
    pytest.param(BODY, ["P3"], False, id="skips-the-bridge"),
    # The body chains the bridge to the answer: the conclusion is not needed, nor counted.
    pytest.param(BODY + [(2, "Blue Reed was written by Ada Brel.", "Blue Reed", "Ada Brel",
                          False)], ["P3"], True, id="body-chain-stands"),
    # A question name the body never develops is the conclusion's to reach.
    pytest.param(BODY[1:], [], True, id="undeveloped-name"),
    # A conclusion that speaks of the bridge by its kind goes through it.
    pytest.param([(0, "Tarn Hymn won the Osk Award for Sound.", "Tarn Hymn",
                   "Osk Award for Sound", False),
                  (1, "So the award Tarn Hymn won was first given in 1950.", "answer", "1950",
                   True),
                  (1, "So the award Tarn Hymn won was first given in 1950.", "Tarn Hymn", "1950",
                   False)], [], True, id="speaks-of-bridge"),
    # A date next to the question name is no bridge.
    pytest.param([(0, "Tarn Hymn came out in 1950.", "Tarn Hymn", "1950", False)] + BODY[1:],
                 [], True, id="literal-is-no-bridge"),
])
def test_chain_conclusion_skipping_a_bridge(rows, skipped, complete):
    from logicscore.pipeline.chain import bypassing

    props, entities = _sentences(rows)
    answer = "1950" if any(p.object == "1950" and p.conclusion for p in props) else "Ada Brel"
    got = bypassing(props, answer, {"Tarn Hymn"}, entities)
    assert [props[i].id for i in sorted(got)] == skipped
    r = analyze(props, answer, [QuestionEntity(name="Tarn Hymn", entity="Tarn Hymn")],
                entities=entities)
    assert r.complete is complete
    assert set(skipped) <= set(r.conclusions) and not set(skipped) & set(r.chain)
