"""Property tests (hypothesis): over arbitrary proposition graphs and arbitrary text the
auditor never raises, the chain is a real shortest path (or a minimum tree), scores stay in
range, and results are identical across runs and independent of the other records."""

from __future__ import annotations

import itertools
import random
from collections import deque

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from logicscore import Auditor
from logicscore.pipeline.chain import analyze
from logicscore.models import Entity, Proposition, QARecord, QuestionEntity

# Invented two-word names, pairwise far apart for rapidfuzz and sharing no word, so that
# entity linking makes exactly one entity per name and the graph oracle below is exact.
NAMES = ["Alma Reyes", "Tovar Quintel", "Brisk Harrowgate", "Dunmore Abbey", "Kesla Voon",
         "Pellinor Watts", "Ystrad Fell", "Omberley Cross", "Zandra Ikewu", "Glimmer Ponds"]
RELATIONS = ["was born in", "directed", "married", "founded", "is located in", "starred in"]
KINDS = ["person", "place", "work", "org", "other"]

FAST = settings(max_examples=120, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])


# --- an independent oracle over the undirected multigraph ---------------------------------------

def _edges(props: list[Proposition]) -> dict[str, tuple[str, str]]:
    return {p.id: (p.subject_entity, p.object_entity) for p in props
            if not p.negated and not p.conclusion and p.subject_entity and p.object_entity
            and p.subject_entity != p.object_entity}


def _reach(edges, start: str) -> dict[str, int]:
    dist, todo = {start: 0}, deque([start])
    while todo:
        x = todo.popleft()
        for a, b in edges.values():
            for u, v in ((a, b), (b, a)):
                if u == x and v not in dist:
                    dist[v] = dist[x] + 1
                    todo.append(v)
    return dist


def _connects(edges, chosen: list[str], terminals: set[str]) -> bool:
    sub = {k: edges[k] for k in chosen}
    start = next(iter(terminals))
    return terminals <= set(_reach(sub, start))


def _min_tree_size(edges, terminals: set[str]) -> int:
    if len(terminals) <= 1:
        return 0
    keys = sorted(edges)
    for size in range(1, len(keys) + 1):
        if any(_connects(edges, list(c), terminals) for c in itertools.combinations(keys, size)):
            return size
    raise AssertionError("terminals not connected")


def check_chain(props: list[Proposition], chain: list[str], answer: str, anchors: list[str]) -> None:
    """`chain` is a real path (one anchor) or a connected tree (several) from the anchors to
    the answer, over propositions that can bridge."""
    edges = _edges(props)
    assert len(set(chain)) == len(chain), chain
    assert all(pid in edges for pid in chain), "chain uses a negated, looping or unknown proposition"
    ends = [a for a in anchors if a != answer]
    if not ends:
        return
    assert chain, "complete but empty chain"
    last = edges[chain[-1]]
    assert answer in last, "chain does not end at the answer"
    if len(set(ends)) == 1:
        assert ends[0] in edges[chain[0]], "chain does not start at the question entity"
        for a, b in zip(chain, chain[1:]):
            assert set(edges[a]) & set(edges[b]), f"{a} and {b} share no entity"
        # a path from anchor to answer: walk it entity by entity
        at = ends[0]
        for pid in chain:
            s, o = edges[pid]
            assert at in (s, o), f"{pid} does not continue the path at {at}"
            at = o if at == s else s
        assert at == answer
    else:
        assert _connects(edges, chain, set(ends) | {answer}), "tree misses an anchor"


# --- arbitrary proposition graphs, straight into chain.analyze ----------------------------------

@st.composite
def graphs(draw, literals: bool = False):
    """Entities E1..En, propositions between them (often a random spanning tree plus noise,
    so complete answers with one or several anchors are common), an answer and anchors.
    Rates come from a PRNG seeded by hypothesis: its own draws lean towards 0 and first choices."""
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    n = draw(st.integers(2, 7))
    kinds = KINDS + (["date", "number"] if literals else [])
    entities = [Entity(id=f"E{i + 1}", name=NAMES[i], kind=rnd.choice(kinds)) for i in range(n)]
    pairs = []
    if rnd.random() < 0.75:  # a random tree over a random subset of the entities
        order = rnd.sample(range(n), n if rnd.random() < 0.6 else rnd.randint(2, n))
        pairs += [(order[k], order[rnd.randrange(k)]) for k in range(1, len(order))]
    pairs += [(rnd.randrange(n), rnd.randrange(n)) for _ in range(draw(st.integers(0, 6)))]
    rnd.shuffle(pairs)
    props = []
    for k, (s, o) in enumerate(pairs):
        if rnd.random() < 0.5:
            s, o = o, s
        props.append(Proposition(
            id=f"P{k + 1}", text=f"{NAMES[s]} {RELATIONS[k % len(RELATIONS)]} {NAMES[o]}.",
            subject=NAMES[s], relation=RELATIONS[k % len(RELATIONS)], object=NAMES[o],
            sentence=k, negated=rnd.random() < 0.1, conclusion=rnd.random() < 0.08,
            subject_entity=f"E{s + 1}", object_entity=f"E{o + 1}"))
    answer = None if rnd.random() < 0.08 else f"E{rnd.randrange(n) + 1}"
    q_idx = rnd.sample(range(n), min(n, rnd.choice([0, 1, 1, 1, 2, 2, 3])))
    question = [QuestionEntity(name=NAMES[i], anchor=rnd.random() < 0.85, entity=f"E{i + 1}")
                for i in q_idx]
    if rnd.random() < 0.08:
        question.append(QuestionEntity(name="Nowhere Found", anchor=True, entity=None))
    return props, entities, answer, question


def _expected_complete(props, answer, question) -> bool:
    mentioned = {x for p in props for x in (p.subject_entity, p.object_entity)}
    if answer is None or answer not in mentioned:
        return False
    comp = _reach(_edges(props), answer)
    anchors = [q for q in question if q.anchor]
    if not anchors:
        return any(q.entity in comp for q in question if q.entity)
    return all(q.entity is not None and q.entity in comp for q in anchors)


@FAST
@given(graphs())
def test_properties_chain_is_a_shortest_real_path(graph):
    props, entities, answer, question = graph
    result = analyze(props, answer, question, entities=entities, max_alternatives=4)
    assert result.complete == _expected_complete(props, answer, question)
    anchors = [q.entity for q in question if q.anchor and q.entity]
    if not any(q.anchor for q in question):
        anchors = []  # fallback: any question entity will do
    if result.complete:
        assert result.diagnosis.failure is None and result.partial_completeness == 1.0
        if anchors:
            check_chain(props, result.chain, answer, anchors)
            ends = {a for a in anchors if a != answer}
            if ends:  # minimal: as small as the smallest tree the oracle finds
                assert len(result.chain) == _min_tree_size(_edges(props), ends | {answer})
        else:
            reached = [q.entity for q in question if q.entity and q.entity != answer]
            if result.chain:
                check_chain(props, result.chain, answer, [_chain_start(props, result.chain, answer)])
                dist = _reach(_edges(props), answer)
                assert len(result.chain) == min(dist[r] for r in reached if r in dist)
        for alt in result.alternatives:
            assert len(alt) == len(result.chain) and alt != result.chain
            if anchors:
                check_chain(props, alt, answer, anchors)
        assert len(result.alternatives) <= 4
        assert len({tuple(a) for a in result.alternatives}) == len(result.alternatives)
    else:
        assert result.diagnosis.failure in ("broken", "circular", "deviated")
        assert not result.chain or set(result.chain) <= {p.id for p in props}
    assert not set(result.diagnosis.redundant) & set(result.chain)
    assert 0.0 <= result.partial_completeness <= 1.0
    assert 0.0 <= result.conciseness_partial <= 1.0
    again = analyze(props, answer, question, entities=entities, max_alternatives=4)
    assert again == result


def _chain_start(props, chain, answer) -> str:
    """The question-side end of a path chain (for the no-anchor fallback)."""
    edges = _edges(props)
    at = answer
    for pid in reversed(chain):
        s, o = edges[pid]
        at = o if at == s else s
    return at


@FAST
@given(graphs(literals=True))
def test_properties_literal_kinds_never_break_the_path(graph):
    props, entities, answer, question = graph
    result = analyze(props, answer, question, entities=entities, max_alternatives=4)
    anchors = [q.entity for q in question if q.anchor and q.entity]
    if result.complete and anchors:
        check_chain(props, result.chain, answer, anchors)


# --- the same graphs end to end through the given extractor and the Auditor ----------------------

@pytest.fixture(scope="module")
def given_auditor():
    return Auditor(extractor="given", timing=False, max_alternatives=4)


@st.composite
def given_records(draw):
    """A record whose propositions are supplied: the same kind of graphs, as names."""
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    n = rnd.randint(2, 6)
    names = NAMES[:n]
    pairs = []
    if rnd.random() < 0.75:
        order = rnd.sample(range(n), n if rnd.random() < 0.6 else rnd.randint(2, n))
        pairs += [(order[k], order[rnd.randrange(k)]) for k in range(1, len(order))]
    pairs += [(rnd.randrange(n), rnd.randrange(n)) for _ in range(rnd.randint(0, 4))]
    rnd.shuffle(pairs)
    props = [{"subject": names[s], "relation": RELATIONS[k % len(RELATIONS)], "object": names[o],
              "negated": rnd.random() < 0.1} for k, (s, o) in enumerate(pairs)]
    answer = rnd.choice(names)
    q = rnd.sample(names, min(n, rnd.choice([1, 1, 1, 2, 2, 3])))
    text = " ".join(f"{p['subject']} {p['relation']} {p['object']}." for p in props)
    return {"id": f"g{rnd.randrange(1000)}", "question": "Which one?", "answer": answer,
            "long_answer": text, "question_entities": q, "propositions": props}


def _record(d: dict) -> QARecord:
    return QARecord.model_validate(d)


@FAST
@given(given_records())
def test_properties_given_path_invariants(given_auditor, data):
    result = given_auditor.audit_record(_record(data))
    scores = result.scores
    assert scores.completeness in (0, 1, None) and scores.determinateness in (0, 1)
    # Three verdicts: null completeness is exactly the unverified one, with its reason.
    assert (scores.completeness is None) == (result.completeness == "unverified")
    assert (scores.completeness is None) == any(s.kind == "unverified" for s in result.diagnosis.signals)
    for value in (scores.conciseness, scores.partial_completeness, scores.conciseness_partial):
        assert 0.0 <= value <= 1.0
    assert scores.determinateness == (result.determinateness == "entailed")
    counted = [p for p in result.propositions if not p.conclusion]
    if scores.completeness:
        assert scores.partial_completeness == 1.0
        assert scores.conciseness == pytest.approx(len(result.chain) / len(counted) if counted else 0,
                                                   abs=1e-3)
        answer_ids = [e.id for e in result.entities if e.name == result.answer_entity]
        anchors = [q.entity for q in result.question_entities if q.anchor and q.entity]
        if answer_ids and anchors:
            check_chain(result.propositions, result.chain, answer_ids[0], anchors)
        assert all(q.reached for q in result.question_entities if q.anchor)
    else:
        assert scores.conciseness == 0
        assert scores.partial_completeness < 1.0
        assert result.diagnosis.failure in ("broken", "circular", "deviated")
    # exactly one entity per distinct name: the oracle's assumption holds
    mentioned = {p["subject"] for p in data["propositions"]} | {p["object"] for p in data["propositions"]}
    assert len(result.entities) >= len(mentioned)


@FAST
@given(st.lists(given_records(), min_size=2, max_size=5), st.randoms(use_true_random=False))
def test_properties_results_do_not_depend_on_other_records(given_auditor, batch, rnd):
    records = [_record(d | {"id": f"r{i}"}) for i, d in enumerate(batch)]
    first = {r.id: r.to_json() for r in given_auditor.audit_many(records)}
    shuffled = list(records)
    rnd.shuffle(shuffled)
    second = {r.id: r.to_json() for r in given_auditor.audit_many(shuffled)}
    alone = {r.id: given_auditor.audit_record(r).to_json() for r in records}
    assert first == second == alone


# --- arbitrary text on the rules path ------------------------------------------------------------

WORDS = NAMES + ["Springfield", "Inception", "Christopher Nolan", "he", "she", "it", "they", "the film",
                 "the city", "was born in", "directed", "is", "of", "not", "reportedly", "and", "which",
                 "[Doc1]", "[2]", "So the answer is", ".", ",", ";", "?", "!", "\n", "'s", "(", ")",
                 "1999", "American", "\u200d", "\u202e", "<b>", "**", "\t", "\x00"]
sentences = st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=12)), max_size=40).map(" ".join)


@pytest.mark.slow
@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(question=sentences, answer=st.one_of(st.sampled_from(NAMES), st.text(max_size=20)),
       long_answer=sentences)
def test_properties_rules_path_never_raises(auditor, question, answer, long_answer):
    result = auditor.audit(question=question, answer=answer, long_answer=long_answer)
    assert result.status == "ok"
    scores = result.scores
    for value in (scores.conciseness, scores.partial_completeness, scores.conciseness_partial):
        assert 0.0 <= value <= 1.0
    for p in result.propositions:
        assert 0 <= p.span[0] <= p.span[1] <= len(long_answer)
    if scores.completeness:
        answer_ids = [e.id for e in result.entities if e.name == result.answer_entity]
        anchors = [q.entity for q in result.question_entities if q.anchor and q.entity]
        if answer_ids and anchors:
            check_chain(result.propositions, result.chain, answer_ids[0], anchors)
    again = auditor.audit(question=question, answer=answer, long_answer=long_answer)
    assert again.to_json() == result.to_json()


@pytest.mark.slow
def test_properties_rules_results_do_not_depend_on_other_records(auditor):
    texts = [
        ("Who directed the film that Alma Reyes starred in?", "Tovar Quintel",
         "Alma Reyes starred in Glimmer Ponds. It was directed by Tovar Quintel."),
        ("Where was Kesla Voon born?", "Ystrad Fell", "Kesla Voon was born in Ystrad Fell [1]."),
        ("Who founded Omberley Cross?", "Zandra Ikewu",
         "She founded it. Zandra Ikewu lived in Dunmore Abbey. The answer is Zandra Ikewu."),
    ]
    records = [QARecord(id=str(i), question=q, answer=a, long_answer=la) for i, (q, a, la) in enumerate(texts)]
    forward = {r.id: r.to_json() for r in auditor.audit_many(records)}
    backward = {r.id: r.to_json() for r in auditor.audit_many(records[::-1])}
    assert forward == backward
