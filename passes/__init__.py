"""The rewrite passes of the GPU flow, registered with xdsl-opt by upstream name."""

from collections.abc import Callable

from xdsl.passes import ModulePass


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Lazy getters for every pass, keyed by its upstream MLIR name."""
    return {}
