"""GPU tests (marker ``gpu``) run only where a CUDA device is usable."""

from __future__ import annotations

from functools import cache

import pytest


@cache
def _gpu_available() -> bool:
    from xdsl_gpu.targets.runtime.driver import gpu_available

    return gpu_available()


def pytest_collection_modifyitems(
    config: pytest.Config, items: list[pytest.Item]
) -> None:
    skip = pytest.mark.skip(reason="no CUDA device here (GPU tests run on the H200)")
    for item in items:
        # The marker, not the keyword: "gpu" is also the keyword of every test under
        # tests/gpu/, GPU or not.
        if item.get_closest_marker("gpu") is not None and not _gpu_available():
            item.add_marker(skip)


@pytest.fixture(scope="session", autouse=True)
def _target_interfaces() -> None:
    """Attach the targets' interface models (``#nvvm.target``'s serializer, the
    offloading handlers), as ``xdsl_gpu.register_dialects`` and xdsl-opt do."""
    from xdsl_gpu.targets import register_target_interfaces

    register_target_interfaces()
