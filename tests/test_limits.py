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


def _collections_while(make_garbage) -> int:
    """How many automatic collections ran while `make_garbage` ran."""
    seen = []

    def count(phase, info):
        if phase == "start":
            seen.append(info["generation"])

    gc.callbacks.append(count)
    try:
        make_garbage()
    finally:
        gc.callbacks.remove(count)
    return len(seen)


def _cycles():
    for _ in range(20 * max(gc.get_threshold()[0], 700)):
        a: list = []
        a.append(a)  # a reference cycle: only the collector frees it


def test_pause_holds_when_a_library_enables_the_collector_again(collector):
    import srsly

    assert _collections_while(_cycles) > 0  # the check can fail: collections do run here
    with model_loading():
        # spaCy reads each weight file with srsly, which enables the collector afterwards
        srsly.msgpack_loads(srsly.msgpack_dumps({"weights": [1.0, 2.0]}))
        assert gc.isenabled()
        assert _collections_while(_cycles) == 0


def test_pause_gives_the_thresholds_back(collector):
    before = gc.get_threshold()
    gc.set_threshold(500, 7, 3)
    try:
        with gc_paused(True):
            assert gc.get_threshold()[0] == 0
            with gc_paused(True):
                pass
            assert gc.get_threshold()[0] == 0  # the outer pause still holds
        assert gc.get_threshold() == (500, 7, 3)
    finally:
        gc.set_threshold(*before)


def test_pause_leaves_the_collector_as_it_found_it_even_when_enabled_inside(collector):
    gc.disable()
    with gc_paused(True):
        gc.enable()  # as srsly does
    assert not gc.isenabled()
