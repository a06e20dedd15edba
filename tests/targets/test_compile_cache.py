"""The persistent compile cache (``xdsl_gpu/targets/compile_cache.py``) and its use by
``gpu-module-to-binary``: hits and misses, damaged entries, processes sharing a
folder, eviction, the environment, and objects that are the same bytes with or
without the cache and with one or several workers."""

from __future__ import annotations

import multiprocessing
import os
import re
from pathlib import Path

import pytest
from xdsl.context import Context

from tests.support.xdsl_tools import parse, print_module
from xdsl_gpu.passes.gpu_module_to_binary import GpuModuleToBinaryPass
from xdsl_gpu.targets import compile_cache
from xdsl_gpu.targets.compile_cache import (
    CacheEntry,
    CompileCache,
    cache_key,
    default_cache,
    default_directory,
)

# ---------------------------------------------------------------------------------
# The cache itself
# ---------------------------------------------------------------------------------


def test_miss_then_hit(tmp_path: Path) -> None:
    cache = CompileCache(tmp_path)
    key = cache_key("module", "sm_90")
    assert cache.get(key) is None
    cache.put(key, b"\x00object\xff", {"properties": {"LLVMIRToISATimeInMs": 7}})
    assert cache.get(key) == CacheEntry(
        b"\x00object\xff", {"properties": {"LLVMIRToISATimeInMs": 7}}
    )
    assert cache.get(cache_key("module", "sm_80")) is None
    # Written in one step: no temporary file stays behind.
    assert [p.name for p in tmp_path.rglob("*")] == [key[:2], key + ".entry"]


def test_key_parts_are_delimited() -> None:
    assert cache_key("ab", "c") != cache_key("a", "bc")
    assert cache_key("a") == cache_key(b"a")
    assert len(cache_key()) == 64


@pytest.mark.parametrize(
    "damage",
    [
        lambda blob: blob[: len(blob) // 2],  # truncated
        lambda blob: blob[:-1] + bytes([blob[-1] ^ 1]),  # a bit flipped
        lambda blob: b"",  # empty
        lambda blob: b"not a cache entry at all, but long enough" * 3,
    ],
)
def test_damaged_entry_is_a_miss(tmp_path: Path, damage) -> None:
    cache = CompileCache(tmp_path)
    key = cache_key("x")
    cache.put(key, b"payload" * 100)
    path = cache.path(key)
    path.write_bytes(damage(path.read_bytes()))
    assert cache.get(key) is None
    assert not path.exists()  # removed, so that the next store heals it
    cache.put(key, b"payload" * 100)
    assert cache.get(key) == CacheEntry(b"payload" * 100, {})


def test_unwritable_folder_is_an_empty_cache(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    cache = CompileCache(blocker / "cache")  # a folder inside a file
    cache.put(cache_key("x"), b"data")
    assert cache.get(cache_key("x")) is None


def test_least_recently_used_entries_go(tmp_path: Path) -> None:
    cache = CompileCache(tmp_path, max_bytes=10_000)
    keys = [cache_key(str(i)) for i in range(8)]
    for age, key in enumerate(keys):
        cache.put(key, bytes(1000))
        os.utime(cache.path(key), (1_000_000 + age, 1_000_000 + age))
    # A hit makes the oldest entry the most recently used.
    assert cache.get(keys[0]) is not None
    for key in (cache_key("a"), cache_key("b"), cache_key("c")):
        cache.put(key, bytes(1000))
    cache.evict()
    assert cache.size() <= 10_000
    assert cache.get(keys[0]) is not None
    assert cache.get(keys[1]) is None  # the least recently used went first
    assert cache.get(cache_key("c")) is not None


def test_large_entry_evicts_at_once(tmp_path: Path) -> None:
    cache = CompileCache(tmp_path, max_bytes=64 * 1024)
    for i in range(3):
        cache.put(cache_key(str(i)), bytes(30_000))
    assert cache.size() <= 64 * 1024


def _hammer(folder: str, worker: int, rounds: int) -> list[str]:
    cache = CompileCache(Path(folder), max_bytes=1 << 30)
    problems: list[str] = []
    for i in range(rounds):
        key = cache_key(str(i % 5))
        data = str(i % 5).encode() * 50_000
        entry = cache.get(key)
        if entry is not None and entry.data != data:
            problems.append(f"worker {worker}: wrong bytes for {i % 5}")
        cache.put(key, data, {"by": worker})
    return problems


def test_processes_share_a_folder(tmp_path: Path) -> None:
    context = multiprocessing.get_context("fork")
    with context.Pool(6) as pool:
        results = pool.starmap(_hammer, [(str(tmp_path), w, 40) for w in range(6)])
    assert [p for r in results for p in r] == []
    cache = CompileCache(tmp_path)
    for i in range(5):
        entry = cache.get(cache_key(str(i)))
        assert entry is not None
        assert entry.data == str(i).encode() * 50_000
    assert not list(tmp_path.rglob("*.tmp"))


def test_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDSL_GPU_CACHE_DIR", str(tmp_path / "here"))
    monkeypatch.setenv("XDSL_GPU_CACHE_MAX_BYTES", "12345")
    cache = default_cache()
    assert cache is not None
    assert cache.directory == tmp_path / "here"
    assert cache.max_bytes == 12345
    for off in ("0", "false", "OFF", "no"):
        monkeypatch.setenv("XDSL_GPU_CACHE", off)
        assert default_cache() is None
    monkeypatch.setenv("XDSL_GPU_CACHE", "1")
    monkeypatch.delenv("XDSL_GPU_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_directory() == tmp_path / "xdg" / "xdsl-gpu"
    monkeypatch.setenv("XDSL_GPU_CACHE_MAX_BYTES", "lots")
    cache = default_cache()
    assert cache is not None
    assert cache.max_bytes == compile_cache.DEFAULT_MAX_BYTES


def test_suite_uses_its_own_folder() -> None:
    """tests/conftest.py: the tests never touch the user's cache."""
    folder = os.environ.get("XDSL_GPU_CACHE_DIR", "")
    assert "xdsl-gpu-test-cache-" in folder
    assert default_directory() == Path(folder)


# ---------------------------------------------------------------------------------
# gpu-module-to-binary through the cache
# ---------------------------------------------------------------------------------

PROGRAM = "\n".join(
    f"""
gpu.module @m{i} [#nvvm.target<chip = "sm_90">] {{
  llvm.func @k{i}(%p: !llvm.ptr<1>, %v: f32) attributes {{gpu.kernel, nvvm.kernel}} {{
    %x = llvm.fmul %v, %v : f32
    %y = llvm.fadd %x, {"%v" if i % 2 else "%x"} : f32
    llvm.store %y, %p : f32, !llvm.ptr<1>
    llvm.return
  }}
}}"""
    for i in range(4)
)

_TIMES = re.compile(r"(\w+TimeInMs) = \d+")


def _compile(fmt: str = "isa") -> str:
    module = parse(PROGRAM)
    GpuModuleToBinaryPass(format=fmt).apply(Context(), module)
    return print_module(module)


@pytest.fixture
def cache_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("XDSL_GPU_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("XDSL_GPU_CACHE", raising=False)
    return tmp_path


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.entry"))


def test_objects_same_with_and_without_cache(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDSL_GPU_CACHE", "0")
    uncached = _compile()
    assert _entries(cache_dir) == []
    monkeypatch.delenv("XDSL_GPU_CACHE")
    cold = _compile()
    assert len(_entries(cache_dir)) == 4
    warm = _compile()
    # A hit gives the stored object and the timing properties of the compile that
    # made it: the whole output is the same bytes.
    assert warm == cold
    # Without the cache only the compile times may differ.
    assert _TIMES.sub(r"\1 = N", uncached) == _TIMES.sub(r"\1 = N", cold)
    assert "ld.param.b64" in cold or "ld.param.u64" in cold


def test_hit_compiles_nothing(cache_dir: Path, monkeypatch: pytest.MonkeyPatch):
    from xdsl_gpu.targets.nvvm import target_interface

    cold = _compile()

    def no_compile(*args: object, **kwargs: object) -> object:
        raise AssertionError("a cache hit compiled")

    monkeypatch.setattr(target_interface, "serialize", no_compile)
    assert _compile() == cold


def test_one_or_several_workers(cache_dir: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("XDSL_GPU_CACHE", "0")
    outputs = []
    for jobs in ("1", "3"):
        monkeypatch.setenv("XDSL_GPU_JOBS", jobs)
        outputs.append(_TIMES.sub(r"\1 = N", _compile()))
    assert outputs[0] == outputs[1]
    # The binaries follow the program's order.
    names = re.findall(r"gpu.binary @(\w+)", outputs[0])
    assert names == ["m0", "m1", "m2", "m3"]


def test_damaged_entry_recompiles(cache_dir: Path) -> None:
    cold = _compile()
    for path in _entries(cache_dir):
        path.write_bytes(path.read_bytes()[:-10])
    again = _compile()
    assert _TIMES.sub(r"\1 = N", again) == _TIMES.sub(r"\1 = N", cold)
    assert _compile() == again  # stored again


def test_key_follows_the_target(cache_dir: Path) -> None:
    _compile()
    assert len(_entries(cache_dir)) == 4
    module = parse(PROGRAM.replace('"sm_90"', '"sm_80"'))
    GpuModuleToBinaryPass(format="isa").apply(Context(), module)
    assert len(_entries(cache_dir)) == 8
    assert ".target sm_80" in print_module(module)


def test_each_target_of_a_module_gets_its_object(cache_dir: Path) -> None:
    text = PROGRAM.replace(
        '[#nvvm.target<chip = "sm_90">]',
        '[#nvvm.target<chip = "sm_80">, #nvvm.target<chip = "sm_90">]',
    )
    outputs = []
    for _ in range(2):  # compiled, then from the cache
        module = parse(text)
        GpuModuleToBinaryPass(format="isa").apply(Context(), module)
        outputs.append(print_module(module))
    assert outputs[0] == outputs[1]
    for i in range(4):
        found = re.search(rf"gpu.binary @m{i} \[(.*)\]", outputs[0])
        assert found is not None
        objects = found.group(1)
        assert objects.count("#gpu.object<") == 2
        assert objects.index(".target sm_80") < objects.index(".target sm_90")
        assert objects.count("LLVMIRToISATimeInMs") == 2
