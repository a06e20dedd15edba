"""Finding the CUDA pieces the NVVM target needs: libdevice and, only when asked for,
the ``ptxas``/``fatbinary`` programs of a toolkit.

By default everything comes from PyPI wheels (nvidia-nvvm for libdevice,
nvidia-nvjitlink/nvidia-nvfatbin through cuda-python), so no CUDA toolkit is needed.
A toolkit is used when the user names one (``toolkit=`` or ``CUDA_ROOT``/
``CUDA_HOME``/``CUDA_PATH``, upstream's order).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from xdsl_gpu.diagnostics import UserError

LIBDEVICE = Path("nvvm") / "libdevice" / "libdevice.10.bc"
TOOLKIT_VARIABLES = ("CUDA_ROOT", "CUDA_HOME", "CUDA_PATH")
# Where CUDA installers put the toolkit: the last place probed, after the wheel.
DEFAULT_TOOLKIT = Path("/usr/local/cuda")


def _wheel_roots() -> list[Path]:
    """Folders of the ``nvidia`` namespace package (``nvidia/cu13``, ...)."""
    try:
        import nvidia
    except ImportError:
        return []
    roots: list[Path] = []
    for base in map(Path, getattr(nvidia, "__path__", [])):
        roots.extend(sorted(p for p in base.iterdir() if p.is_dir()))
    return roots


def toolkit_candidates(toolkit: str = "") -> list[tuple[str, Path]]:
    """(where it came from, folder) for every place a CUDA toolkit may be, in order."""
    places: list[tuple[str, Path]] = []
    if toolkit:
        places.append(("toolkit option", Path(toolkit)))
    for variable in TOOLKIT_VARIABLES:
        if value := os.environ.get(variable):
            places.append((f"${variable}", Path(value)))
    return places


def find_libdevice(toolkit: str = "") -> Path:
    """The path of ``libdevice.10.bc``; a clear error lists every place probed."""
    if toolkit and not Path(toolkit).is_dir():
        raise UserError(
            f"CUDA path: {toolkit} does not exist or is not a directory; fix the "
            "toolkit option or leave it empty to use the nvidia-nvvm wheel"
        )
    probed: list[str] = []
    places = toolkit_candidates(toolkit)
    places += [("nvidia-nvvm wheel", root) for root in _wheel_roots()]
    places.append(("default CUDA location", DEFAULT_TOOLKIT))
    for origin, root in places:
        candidate = root / LIBDEVICE
        if candidate.is_file():
            return candidate
        probed.append(f"{candidate} ({origin})")
    if not any(origin == "nvidia-nvvm wheel" for origin, _ in places):
        probed.append("no nvidia-nvvm wheel is installed")
    raise UserError(
        "libdevice.10.bc not found; math functions (__nv_*) need it. Probed:\n  "
        + "\n  ".join(probed)
        + "\nInstall it with `pip install nvidia-nvvm`, or set CUDA_ROOT to a CUDA "
        "toolkit"
    )


def find_tool(name: str, toolkit: str = "") -> Path:
    """A toolkit program (``ptxas``, ``fatbinary``): ``<toolkit>/bin``, then
    ``$PATH``, then the toolkit variables (upstream's order)."""
    probed: list[str] = []
    if toolkit:
        candidate = Path(toolkit) / "bin" / name
        if os.access(candidate, os.X_OK):
            return candidate
        probed.append(str(candidate))
    if found := shutil.which(name):
        return Path(found)
    probed.append(f"$PATH ({name})")
    for origin, root in toolkit_candidates():
        candidate = root / "bin" / name
        if os.access(candidate, os.X_OK):
            return candidate
        probed.append(f"{candidate} ({origin})")
    raise UserError(
        f"couldn't find the `{name}` program; probed: {', '.join(probed)}. Set the "
        "toolkit option or CUDA_ROOT, add it to $PATH, or drop the toolkit request to "
        "use nvJitLink/nvFatbin from PyPI"
    )
