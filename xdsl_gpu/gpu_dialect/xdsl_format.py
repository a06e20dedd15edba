"""Helpers for subclasses of xDSL's op classes that define their own syntax."""

from __future__ import annotations

from xdsl.ir import Operation

RESET_FORMAT = {
    "parse": classmethod(Operation.parse.__func__),  # pyright: ignore
    "print": Operation.print,
}
"""``parse``/``print`` of :class:`Operation`, for a subclass of an xDSL op class to
assign as its own: the generated (or hand-written) ``parse``/``print`` of xDSL's
class are reset, so that the subclass gets its own from its assembly format."""

__all__ = ["RESET_FORMAT"]
