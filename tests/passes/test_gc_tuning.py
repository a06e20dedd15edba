"""``fewer_collections`` (``xdsl_gpu/passes/gc_tuning.py``): raises the collector's
thresholds while a pipeline runs and puts the caller's back, never lowering them."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from xdsl_gpu.passes.gc_tuning import YOUNG_THRESHOLD, fewer_collections


@pytest.fixture
def thresholds() -> Iterator[None]:
    saved = gc.get_threshold()
    yield
    gc.set_threshold(*saved)


@pytest.mark.usefixtures("thresholds")
def test_raised_then_restored() -> None:
    gc.set_threshold(700, 10, 10)
    with fewer_collections():
        assert gc.get_threshold() == (YOUNG_THRESHOLD, 20, 20)
    assert gc.get_threshold() == (700, 10, 10)


@pytest.mark.usefixtures("thresholds")
def test_restored_after_an_error() -> None:
    gc.set_threshold(700, 10, 10)
    with pytest.raises(RuntimeError), fewer_collections():
        raise RuntimeError("a failing pass")
    assert gc.get_threshold() == (700, 10, 10)


@pytest.mark.usefixtures("thresholds")
@pytest.mark.parametrize("caller", [(0, 10, 10), (100_000, 50, 50)])
def test_never_lowered_nor_turned_on(caller: tuple[int, int, int]) -> None:
    gc.set_threshold(*caller)
    with fewer_collections():
        assert gc.get_threshold() == caller
    assert gc.get_threshold() == caller
