"""Shortcuts taken for long answers give what the plain search gives (SPEC §4.4)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from logicscore.graph import Graph, component, separating_edges

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
