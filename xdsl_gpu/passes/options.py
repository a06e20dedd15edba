"""Pass options spelled as ``mlir-opt`` spells them.

xDSL reads a boolean option only as ``name=true``/``name=false``; ``mlir-opt`` also
takes the bare flag (``{use-bare-ptr-memref-call-conv}``) and ``=1``/``=0``, which
upstream pipelines (and seed ``002_*``) use. In xDSL both end in a ``ValueError``
traceback. :class:`UpstreamOptions`, mixed into a pass before ``ModulePass``, accepts
those spellings and turns any other bad option into a one-line diagnostic that names
the pass.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, Self

from xdsl.utils.arg_spec import ArgSpec
from xdsl.utils.exceptions import PassFailedException

_TRUE = ((), (True,), (1,))
_FALSE = ((False,), (0,))


class UpstreamOptions:
    """Mixin for a frozen-dataclass pass: upstream's spellings of boolean options."""

    @classmethod
    def from_spec(cls, spec: ArgSpec) -> Self:
        booleans = {f.name for f in fields(cls) if f.type in ("bool", bool)}  # pyright: ignore[reportArgumentType]
        parameters: dict[str, Any] = {}
        for key, value in spec.parameters.items():
            if key.replace("-", "_") in booleans:
                if value in _TRUE:
                    value = (True,)
                elif value in _FALSE:
                    value = (False,)
            parameters[key] = value
        try:
            return super().from_spec(ArgSpec(spec.name, parameters))  # pyright: ignore[reportAttributeAccessIssue]
        except ValueError as e:
            raise PassFailedException(f"{spec.name}: {e}") from None
