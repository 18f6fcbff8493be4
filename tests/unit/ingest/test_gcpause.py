import gc

import pytest

from strata.ingest.gcpause import gc_paused


@pytest.fixture(autouse=True)
def _collector_on():
    gc.enable()
    yield
    gc.enable()


def test_collector_is_off_inside_and_back_on_after():
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_overlapping_callers_restore_only_when_the_last_one_leaves():
    first, second = gc_paused(), gc_paused()
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)  # e.g. another worker thread finishing first
    assert not gc.isenabled()
    second.__exit__(None, None, None)
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off():
    gc.disable()
    with gc_paused():
        pass
    assert not gc.isenabled()


def test_an_error_inside_still_restores_the_collector():
    with pytest.raises(RuntimeError), gc_paused():
        raise RuntimeError("boom")
    assert gc.isenabled()
