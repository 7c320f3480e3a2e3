"""Shortcuts taken for long answers give what the plain search gives (docs/metrics.md)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from logicscore.pipeline import graph
from logicscore.pipeline.graph import Graph, component, separating_edges

nodes = st.sampled_from("abcdefgh")
multigraphs = st.lists(st.tuples(nodes, nodes), max_size=14)


@settings(max_examples=300, deadline=None)
@given(pairs=multigraphs, root=nodes, terms=st.lists(nodes, max_size=4))
def test_separating_edges_are_those_whose_removal_cuts_a_term_off(pairs, root, terms):
    g = Graph((i, u, v) for i, (u, v) in enumerate(pairs))
    reach = component(g, root)
    expected = {e for e in g.ends
                if any(t in reach and t not in component(g.without({e}), root) for t in terms)}
    assert separating_edges(g, root, terms) == expected


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pairs=multigraphs, root=nodes, terms=st.lists(nodes, min_size=2, max_size=4),
       blocked=st.sets(nodes, max_size=3))
def test_steiner_shortcut_gives_the_searched_tree(monkeypatch, pairs, root, terms, blocked):
    # A forced tree (every edge a bridge once parallels are dropped) must be the very edge
    # set Dreyfus–Wagner or the union of shortest paths returns, literals blocked or not.
    g = Graph((i, u, v) for i, (u, v) in enumerate(pairs))
    for passable in (lambda x: x not in blocked, lambda _: True):
        fast = graph.steiner(g, root, terms, passable)
        with monkeypatch.context() as m:
            m.setattr(graph, "_forced_tree", lambda *a: None)
            slow = graph.steiner(g, root, terms, passable)
        assert (fast is None) == (slow is None)
        if fast is not None:
            assert sorted(fast) == sorted(slow)


def _named(i: int, names: tuple[str, ...]):
    from logicscore import QARecord

    props = [{"subject": a, "relation": "knows", "object": b} for a, b in zip(names, names[1:])]
    return QARecord(id=str(i), question=f"Who knows {names[-1]}?", answer=names[0],
                    long_answer=" ".join(f"{p['subject']} knows {p['object']}." for p in props),
                    question_entities=[names[-1]], propositions=props)


def test_forms_cache_holds_one_record_at_a_time():
    from logicscore import Auditor
    from logicscore.pipeline.text.forms import analyze

    first = _named(1, ("Orla Vent", "Pim Sarrow", "Quill Damaske"))
    second = _named(2, ("Tova Brenn", "Ulric Mope"))
    alone = Auditor("given", timing=False)
    list(alone.audit_many([second]))
    size_alone = analyze.cache_info().currsize
    both = Auditor("given", timing=False)
    results = list(both.audit_many([first, second]))
    assert [r.status for r in results] == ["ok", "ok"]
    # A run over many records keeps only the last record's forms, not every record's.
    assert 0 < analyze.cache_info().currsize == size_alone


@settings(max_examples=400, deadline=None)
@given(pairs=multigraphs, root=nodes, terms=st.lists(nodes, min_size=2, max_size=4),
       blocked=st.sets(nodes, max_size=3))
def test_parallel_swap_gives_the_re_solved_tree(pairs, root, terms, blocked):
    # Swapping a parallel edge into a forced tree must be what re-solving without the
    # tree edge returns, for every tree edge that has a parallel one.
    g = Graph((i, u, v) for i, (u, v) in enumerate(pairs))
    for passable in (lambda x: x not in blocked, lambda _: True):
        tree = graph.forced_tree(g, root, terms, passable)
        if tree is None:
            continue
        assert tree == graph.steiner(g, root, terms, passable)
        for e in tree:
            swapped = graph.parallel_swap(g, tree, True, e)
            if swapped is not None:
                assert swapped == sorted(graph.steiner(g.without({e}), root, terms, passable))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text("ab .[]", max_size=60), needles=st.lists(st.text("ab .[]", min_size=1, max_size=12), max_size=8))
def test_first_positions_are_find(monkeypatch, text, needles):
    from logicscore.pipeline.extract import given as given_extractor

    # The one-pass scan (forced here for short texts) must agree with str.find everywhere.
    monkeypatch.setattr(given_extractor, "_SCAN_FROM", 0)
    monkeypatch.setattr(given_extractor, "_KEY", 3)
    assert given_extractor.first_positions(text, needles) == {n: text.find(n) for n in needles}


@pytest.mark.slow
def test_token_ranges_by_bisection_are_the_walked_ones():
    from logicscore.parsing.loader import doc_text, load, range_starting, range_within
    from logicscore.pipeline.text.question_forms import token_end

    doc = load()('Who directed  the film "The Fox, and the Hound" (1981) that won?\nIt did.')
    assert doc_text(doc) == doc.text and doc_text(doc[1:3]) == "directed  "
    for a in range(len(doc.text) + 2):
        for b in range(len(doc.text) + 2):
            assert [t.i for t in doc[range_within(doc, a, b)]] == [
                t.i for t in doc if a <= t.idx and token_end(t) <= b]
            assert [t.i for t in doc[range_starting(doc, a, b)]] == [t.i for t in doc if a <= t.idx < b]


def test_collector_rests_only_while_a_long_answer_is_audited(monkeypatch):
    import gc

    from logicscore import Auditor
    from logicscore.pipeline import complete
    from logicscore.limits import GC_PAUSE_CHARS

    seen: list[bool] = []
    real = complete.analyze
    monkeypatch.setattr(complete, "analyze", lambda *a, **k: seen.append(gc.isenabled()) or real(*a, **k))
    short = _named(1, ("Orla Vent", "Pim Sarrow", "Quill Damaske"))
    padding = " Nothing else is said." * (GC_PAUSE_CHARS // 20)
    long = short.model_copy(update={"id": "2", "long_answer": short.long_answer + padding})
    run = Auditor("given", timing=False, max_chars=10 * GC_PAUSE_CHARS)
    results = list(run.audit_many([short, long, short]))
    assert [r.status for r in results] == ["ok"] * 3
    assert results[0].model_dump(exclude={"id"}) == results[2].model_dump(exclude={"id"})
    assert seen == [True, False, True] and gc.isenabled()
    # A collector the caller turned off stays off.
    gc.disable()
    try:
        run.audit_record(long)
        assert not gc.isenabled()
    finally:
        gc.enable()
