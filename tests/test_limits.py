"""The collector's pauses in `limits`: what they switch off, and that they give it back."""

import gc

import pytest

from logicscore.limits import gc_paused, model_loading


@pytest.fixture
def collector():
    was = gc.isenabled()
    gc.enable()
    yield
    gc.unfreeze()
    (gc.enable if was else gc.disable)()


def test_model_loading_pauses_then_freezes_what_was_loaded(collector):
    before = gc.get_freeze_count()
    with model_loading():
        assert not gc.isenabled()
        loaded = [[i] for i in range(1000)]  # tracked containers, as a model's would be
    assert gc.isenabled()
    assert gc.get_freeze_count() >= before + len(loaded)


def test_model_loading_leaves_a_disabled_collector_disabled(collector):
    gc.disable()
    with model_loading():
        pass
    assert not gc.isenabled()


def test_model_loading_gives_the_collector_back_when_the_load_fails(collector):
    with pytest.raises(OSError), model_loading():
        raise OSError("no such model")
    assert gc.isenabled()


def test_gc_paused_nests_and_only_when_active(collector):
    with gc_paused(False):
        assert gc.isenabled()
    with gc_paused(True):
        with gc_paused(True):
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer audit still holds the pause
    assert gc.isenabled()
