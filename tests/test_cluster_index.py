"""The indexed cluster search (`clusters.FormIndex`) decides exactly as comparing a mention
with every cluster form in turn did: same hits, same order, same budget cut-off."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from logicscore.pipeline.normalize import clusters as cl
from logicscore.pipeline.normalize import entities
from logicscore.pipeline.normalize.clusters import Cluster, FormIndex, Rec
from logicscore.pipeline.text.mentions import analyze, compare, is_pronoun

# Words that exercise every rule of `compare`: fuzzy variants sharing no word ("Jonathan",
# "Jonathon"), first and last names, regnal numbers, polities, descriptors, initials, years.
WORDS = ["Anna", "Ana", "Anne", "Karl", "Carl", "Marx", "Marks", "Smith", "Smyth", "John",
         "Jon", "Henry", "II", "III", "of", "England", "Ottoman", "Empire", "the film", "river",
         "J.", "K.", "1999", "Paris", "Hilton", "Prince", "Albert", "Jonathan", "Jonathon",
         "Abcdefgh", "Abcdefgx", "Mary-Jane", "he", "it", "Quixote", "Quixotte"]


def reference_best(clusters: list[Cluster], form, threshold: float, persons: bool):
    """The search before indexing: every form of every cluster in order, within the budget."""
    top = None
    budget = cl.MAX_FUZZY_FORMS
    for ci, cluster in enumerate(clusters):
        if cluster.recs[0].pronoun:
            continue
        for other in cluster.forms.values():
            budget -= 1
            hit = compare(form, other, threshold, persons and cluster.person)
            if hit and (top is None or hit[:2] > top[1][:2]):
                top = (ci, hit)
        if budget <= 0:
            break
    return top


def reference_cluster(recs: list[Rec], threshold: float) -> list[Cluster]:
    """`entities._cluster` with the search above."""
    clusters: list[Cluster] = []
    exact: dict[str, int] = {}
    for rec in recs:
        key = rec.form.key
        if rec.pronoun or not key:
            clusters.append(Cluster([rec], {}))
            continue
        if key in exact:
            ci = exact[key]
            first = clusters[ci].recs[0]
            rec.reason = rec.reason or ("exact" if rec.text == first.text else "normalized")
        else:
            hit = reference_best(clusters, rec.form, threshold, persons=True)
            if hit is None:
                clusters.append(Cluster([], {}))
                ci = len(clusters) - 1
            else:
                ci = hit[0]
                rec.reason = rec.reason or f"{hit[1][2]}: {clusters[ci].recs[0].form.display}"
            exact[key] = ci
        clusters[ci].recs.append(rec)
        clusters[ci].forms.setdefault(key, rec.form)
    return entities._merge_abbreviations(entities._merge_regnal(entities._merge_surnames(clusters)))


mention = st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join)
records = st.lists(st.tuples(mention, st.sampled_from(["other", "person", "place"]), st.booleans()),
                   min_size=1, max_size=40)


def make_recs(drawn) -> list[Rec]:
    return [Rec(text, None, kind, (i, 0, i), analyze(text), person=person,
                pronoun=is_pronoun(text)) for i, (text, kind, person) in enumerate(drawn)]


def shape(clusters: list[Cluster]):
    return [([(r.text, r.reason) for r in c.recs], list(c.forms)) for c in clusters]


@pytest.mark.parametrize("budget", [1, 3, 7, 400])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(drawn=records, threshold=st.sampled_from([0.0, 60.0, 85.0, 95.0, 100.0]))
def test_clustering_equals_pairwise_reference(monkeypatch, budget, drawn, threshold):
    # A small budget makes the cut-off, and its moving earlier as clusters grow, reachable.
    monkeypatch.setattr(cl, "MAX_FUZZY_FORMS", budget)
    expected = shape(reference_cluster(make_recs(drawn), threshold))
    assert shape(entities._cluster(make_recs(drawn), threshold)) == expected


@pytest.mark.parametrize("budget", [2, 5, 400])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(drawn=records, query=mention, threshold=st.sampled_from([60.0, 85.0, 100.0]))
def test_best_over_finished_clusters_equals_reference(monkeypatch, budget, drawn, query, threshold):
    # `match_external` searches the merged clusters, pronoun-founded ones included.
    monkeypatch.setattr(cl, "MAX_FUZZY_FORMS", budget)
    clusters = entities._cluster(make_recs(drawn), threshold)
    form = analyze(query)
    for persons in (True, False):
        assert (FormIndex(clusters, threshold).best(form, persons)
                == reference_best(clusters, form, threshold, persons))


def test_fuzzy_variant_sharing_no_word_is_still_found():
    # No word in common, so only the rapidfuzz pass over all eligible keys can find it.
    recs = make_recs([("Jonathan", "person", False), ("Quixote", "other", False),
                      ("Jonathon", "person", False)])
    out = entities._cluster(recs, 85.0)
    assert [[r.text for r in c.recs] for c in out] == [["Jonathan", "Jonathon"], ["Quixote"]]
