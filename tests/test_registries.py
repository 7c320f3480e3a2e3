"""`registries.indexed_entry_points`: catalogue finds the same entry points, by key."""

from importlib.metadata import EntryPoint, EntryPoints

import catalogue
import pytest

from logicscore.parsing.registries import by_group, indexed_entry_points


def _points(registry: catalogue.Registry) -> list[tuple[str, str]]:
    return [(ep.name, ep.value) for ep in registry._get_entry_points()]


def _groups() -> list[str]:
    from importlib.metadata import distributions

    groups = {ep.group for dist in distributions() for ep in dist.entry_points}
    return sorted(groups) + ["no_such_group"]


def test_every_group_gives_the_same_entry_points_in_the_same_order():
    before = {g: _points(catalogue.Registry((g,), entry_points=True)) for g in _groups()}
    assert any(before.values())  # the environment has entry points (spacy, pytest …)
    with indexed_entry_points():
        assert isinstance(catalogue.AVAILABLE_ENTRY_POINTS, dict)
        after = {g: _points(catalogue.Registry((g,), entry_points=True)) for g in _groups()}
    assert after == before


def test_spacy_registries_resolve_the_same_functions():
    from spacy import registry

    names = ("architectures", "tokenizers", "misc", "loggers")
    before = {n: getattr(registry, n).get_all() for n in names}
    with indexed_entry_points():
        after = {n: getattr(registry, n).get_all() for n in names}
    assert after == before


def test_the_index_is_taken_away_after_the_block_even_when_it_fails():
    found = catalogue.AVAILABLE_ENTRY_POINTS
    with pytest.raises(OSError), indexed_entry_points():
        raise OSError("no such model")
    assert catalogue.AVAILABLE_ENTRY_POINTS is found


def test_nested_blocks_leave_the_outer_index_in_place():
    found = catalogue.AVAILABLE_ENTRY_POINTS
    with indexed_entry_points():
        index = catalogue.AVAILABLE_ENTRY_POINTS
        with indexed_entry_points():
            assert catalogue.AVAILABLE_ENTRY_POINTS is index
        assert catalogue.AVAILABLE_ENTRY_POINTS is index
    assert catalogue.AVAILABLE_ENTRY_POINTS is found


def _ep(name: str, group: str) -> EntryPoint:
    return EntryPoint(name=name, value=f"pkg:{name}", group=group)


def test_a_flat_sequence_is_grouped_in_order():
    flat = EntryPoints([_ep("a", "g1"), _ep("b", "g2"), _ep("c", "g1")])
    index = by_group(flat)
    assert index is not None
    assert [ep.name for ep in index["g1"]] == ["a", "c"]
    assert [ep.name for ep in index["g2"]] == ["b"]


def test_a_plain_dict_or_anything_else_is_left_alone():
    assert by_group({"g1": [_ep("a", "g1")]}) is None
    assert by_group(None) is None
