"""Serialization and translation targets (``xdsl-opt -t NAME``)."""

from collections.abc import Callable

from xdsl.utils.target import Target


def get_all_targets() -> dict[str, Callable[[], type[Target]]]:
    """Lazy getters for every target, keyed by its ``-t`` name."""
    return {}
