"""A persistent, content-addressed cache of compiled GPU objects.

``gpu-module-to-binary`` spends most of its time in LLVM, nvJitLink and nvFatbin; a
module compiled once with the same inputs gives the same bytes, so they are kept on
disk and reused. The design follows Triton's cache: one file per entry, named by a
hash of *everything* that decides the output (the module's text, the target, the
options, the versions of the toolchain, see :func:`cache_key`), so that a lookup is a
single ``open`` and nothing is ever invalidated, only evicted.

* Writes are atomic: an entry is written to a temporary file in its folder, then
  ``os.replace``-d into place. Readers see a whole entry or none; two processes that
  compile the same module both write the same bytes, and one of them wins.
* Entries carry a checksum: a truncated or damaged file is a miss (and is removed),
  never a wrong answer.
* The folder is bounded (:data:`DEFAULT_MAX_BYTES`, ``XDSL_GPU_CACHE_MAX_BYTES``):
  after a store that may pass the bound, the least recently used entries go (a hit
  refreshes the entry's modification time). Concurrent evictions only race to
  remove the same files.

Environment:

* ``XDSL_GPU_CACHE=0`` (or ``false``, ``off``, ``no``): no cache at all;
* ``XDSL_GPU_CACHE_DIR``: the folder (default ``$XDG_CACHE_HOME/xdsl-gpu``, that is
  ``~/.cache/xdsl-gpu``);
* ``XDSL_GPU_CACHE_MAX_BYTES``: the size bound in bytes.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "DEFAULT_MAX_BYTES",
    "CacheEntry",
    "CompileCache",
    "cache_enabled",
    "cache_key",
    "default_cache",
    "default_directory",
]

FORMAT_VERSION = 1
"""Part of every key and of every entry's header: a new layout never reads an old
entry."""

DEFAULT_MAX_BYTES = 1 << 30
"""1 GiB: a few thousand fatbins of typical kernels."""

_MAGIC = b"XGPUCACHE"
_HEADER = struct.Struct("<9sHI32s")  # magic, format, metadata length, payload sha256
_SUFFIX = ".entry"
_DISABLED = ("0", "false", "off", "no")


def cache_enabled() -> bool:
    """False when ``XDSL_GPU_CACHE`` says so."""
    return os.environ.get("XDSL_GPU_CACHE", "1").strip().lower() not in _DISABLED


def default_directory() -> Path:
    """``XDSL_GPU_CACHE_DIR``, else ``$XDG_CACHE_HOME/xdsl-gpu`` (``~/.cache``)."""
    if folder := os.environ.get("XDSL_GPU_CACHE_DIR"):
        return Path(folder)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache"
    )
    return Path(base) / "xdsl-gpu"


def _max_bytes() -> int:
    text = os.environ.get("XDSL_GPU_CACHE_MAX_BYTES", "")
    try:
        return int(text) if text else DEFAULT_MAX_BYTES
    except ValueError:
        return DEFAULT_MAX_BYTES


def default_cache() -> CompileCache | None:
    """The cache the environment asks for, or None when it is turned off."""
    if not cache_enabled():
        return None
    return CompileCache(default_directory(), _max_bytes())


def cache_key(*parts: str | bytes) -> str:
    """A hex SHA-256 of ``parts``, each length-prefixed (so that no two different
    sequences of parts give the same stream)."""
    digest = hashlib.sha256(f"xdsl-gpu-cache/{FORMAT_VERSION}".encode())
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.hexdigest()


@dataclass(frozen=True)
class CacheEntry:
    """What was stored under a key: the object's bytes and a small JSON-able dict
    (for example the properties that the compile recorded)."""

    data: bytes
    metadata: dict[str, Any] = field(default_factory=dict[str, Any])


class CompileCache:
    """The entries in ``directory`` (created on the first store), at most
    ``max_bytes`` of them. Every method tolerates a folder that other processes use
    at the same time, or that cannot be written: the cache is then simply empty."""

    def __init__(self, directory: Path, max_bytes: int = DEFAULT_MAX_BYTES):
        self.directory = Path(directory)
        self.max_bytes = max_bytes

    def path(self, key: str) -> Path:
        """Where the entry of ``key`` lives (two-level, as git's objects)."""
        return self.directory / key[:2] / (key + _SUFFIX)

    def get(self, key: str) -> CacheEntry | None:
        """The entry of ``key``, or None (absent, unreadable or damaged)."""
        path = self.path(key)
        try:
            with open(path, "rb") as file:
                blob = file.read()
        except OSError:
            return None
        entry = _decode(blob)
        if entry is None:
            _remove(path)  # damaged: the next store writes it again
            return None
        try:  # the access time of LRU eviction (atime is often not kept)
            os.utime(path)
        except OSError:
            pass
        return entry

    def put(
        self, key: str, data: bytes, metadata: dict[str, Any] | None = None
    ) -> None:
        """Store ``data`` under ``key``, atomically; then keep the folder within
        its bound."""
        path = self.path(key)
        blob = _encode(data, metadata or {})
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(
                dir=path.parent, prefix=f".{key[:16]}.", suffix=".tmp"
            )
        except OSError:
            return
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(blob)
            os.replace(temporary, path)
        except OSError:
            _remove(Path(temporary))
            return
        if len(blob) > self.max_bytes // 64:
            self.evict()  # a large entry: check now
        else:
            self._maybe_evict()

    _stores_since_check = 0

    def _maybe_evict(self) -> None:
        # Listing the folder costs a stat per entry: do it on the first store of a
        # process and every 16th after it, not on every store.
        if CompileCache._stores_since_check % 16 == 0:
            self.evict()
        CompileCache._stores_since_check += 1

    def entries(self) -> list[tuple[float, int, Path]]:
        """(modification time, size, path) of every entry."""
        found: list[tuple[float, int, Path]] = []
        try:
            shards = list(os.scandir(self.directory))
        except OSError:
            return found
        for shard in shards:
            if not shard.is_dir(follow_symlinks=False):
                continue
            try:
                with os.scandir(shard.path) as items:
                    for item in items:
                        if not item.name.endswith(_SUFFIX):
                            continue
                        try:
                            info = item.stat(follow_symlinks=False)
                        except OSError:
                            continue  # removed meanwhile
                        found.append((info.st_mtime, info.st_size, Path(item.path)))
            except OSError:
                continue
        return found

    def size(self) -> int:
        """The bytes that the entries take."""
        return sum(size for _, size, _ in self.entries())

    def evict(self) -> None:
        """Remove the least recently used entries until the folder holds at most
        3/4 of the bound (so that eviction does not run on every store)."""
        entries = self.entries()
        total = sum(size for _, size, _ in entries)
        if total <= self.max_bytes:
            return
        goal = self.max_bytes * 3 // 4
        for _, size, path in sorted(entries, key=lambda e: e[0]):
            if total <= goal:
                break
            _remove(path)
            total -= size

    def clear(self) -> None:
        """Remove every entry."""
        for _, _, path in self.entries():
            _remove(path)


def _encode(data: bytes, metadata: dict[str, Any]) -> bytes:
    meta = json.dumps(metadata, sort_keys=True, separators=(",", ":")).encode()
    checksum = hashlib.sha256(meta + data).digest()
    return _HEADER.pack(_MAGIC, FORMAT_VERSION, len(meta), checksum) + meta + data


def _decode(blob: bytes) -> CacheEntry | None:
    if len(blob) < _HEADER.size:
        return None
    magic, version, meta_size, checksum = _HEADER.unpack_from(blob)
    if magic != _MAGIC or version != FORMAT_VERSION:
        return None
    body = blob[_HEADER.size :]
    if meta_size > len(body) or hashlib.sha256(body).digest() != checksum:
        return None
    try:
        metadata = json.loads(body[:meta_size])
    except ValueError:
        return None
    if not isinstance(metadata, dict):
        return None
    return CacheEntry(body[meta_size:], metadata)


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass
