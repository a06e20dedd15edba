"""GPU tests (marker ``gpu``) run only where a CUDA device is usable."""

from __future__ import annotations

import os
import shutil
import tempfile
from functools import cache

import pytest

# The compile cache (xdsl_gpu/targets/compile_cache.py) of the tests is a folder of
# their own, empty at the start: no test reads what the user compiled, and none
# leaves objects in the user's cache. Set at import, so that every xdsl-opt the
# tests start inherits it.
_CACHE_DIR = tempfile.mkdtemp(prefix="xdsl-gpu-test-cache-")
os.environ["XDSL_GPU_CACHE_DIR"] = _CACHE_DIR
os.environ.pop("XDSL_GPU_CACHE", None)
# gpu-lower-to-nvvm-pipeline verifies everything after each step in the tests
# (outside them, once at the end: xdsl_gpu/passes/pipeline_verification.py).
os.environ["XDSL_GPU_VERIFY_EACH"] = "full"
# numpy's BLAS starts a thread per core when it is imported (by whichever test
# module comes first), and a process with threads may not fork: the tests of the
# forked workers (marked by the forking_is_safe fixture) would skip. One BLAS
# thread is all the tests need.
for _blas_threads in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_blas_threads, "1")


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(_CACHE_DIR, ignore_errors=True)


@cache
def _gpu_available() -> bool:
    """Asked in a forked child: CUDA's initialization starts the driver's threads,
    and the tests that fork (tests/test_forked_jobs.py, the pipeline's parallel
    schedule) may not in a process that runs several."""
    from xdsl_gpu.forked_jobs import run_jobs
    from xdsl_gpu.targets.runtime.driver import gpu_available

    (outcome,) = run_jobs([gpu_available], 1)
    return outcome.value is True


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


@pytest.fixture
def forking_is_safe() -> None:
    """Skips a test that forks (``xdsl_gpu/forked_jobs.py``) in a process that runs
    other threads, where forking is not safe (forked_jobs then runs jobs in the
    process, or refuses): after a GPU test has initialized CUDA, say, or where
    numpy's BLAS starts a thread pool (run such tests with
    ``OPENBLAS_NUM_THREADS=1`` there)."""
    from xdsl_gpu.forked_jobs import fork_is_safe

    if not fork_is_safe():
        pytest.skip("this process runs several threads (CUDA, BLAS): it may not fork")
