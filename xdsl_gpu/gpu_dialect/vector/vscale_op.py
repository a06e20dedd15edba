"""``vector.vscale``: the runtime multiple of the scalable vector lengths, so that a
``vector<[4]xf32>`` has ``4 * vscale`` lanes (loops over scalable dims are bounded by
it)."""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType
from xdsl.irdl import IRDLOperation, irdl_op_definition, result_def, traits_def
from xdsl.traits import Pure


@irdl_op_definition
class VectorScaleOp(IRDLOperation):
    """``%vs = vector.vscale``"""

    name = "vector.vscale"
    res = result_def(IndexType)
    traits = traits_def(Pure())
    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__(result_types=[IndexType()])


__all__ = ["VectorScaleOp"]
