"""The ``vector`` dialect of MLIR 22: xDSL's ops (subclassed, so that xDSL's passes
keep matching them) with upstream's syntax and verifier messages, and the ops xDSL
lacks. One concept per module:

* :mod:`.attributes`: ``#vector.kind``, ``#vector.iterator_type``,
  ``#vector.punctuation``;
* :mod:`.memory_ops`: ``load``/``store``, masked, gather/scatter, expand/compress,
  ``transfer_read``/``transfer_write``, ``type_cast``;
* :mod:`.shape_ops`: ``broadcast``, ``extract``/``insert``, strided slices,
  ``shuffle``, ``transpose``, ``shape_cast``, ``bitcast``, ``from_elements``/
  ``to_elements``, ``interleave``/``deinterleave``;
* :mod:`.compute_ops`: ``fma``, ``reduction``, ``multi_reduction``, ``contract``,
  ``outerproduct``;
* :mod:`.mask_ops`: ``create_mask``, ``constant_mask``, ``step``;
* :mod:`.masking_ops`: ``mask`` and ``yield`` (and which ops a mask may wrap);
* :mod:`.print_op`: ``print``;
* :mod:`.vscale_op`: ``vscale``.

``vector.splat`` is gone from MLIR 22 (``vector.broadcast`` replaces it) and is not
defined here either.
"""

from xdsl.ir import Dialect

from xdsl_gpu.gpu_dialect.vector.attributes import (
    CombiningKindAttr,
    IteratorTypeAttr,
    PrintPunctuationAttr,
)
from xdsl_gpu.gpu_dialect.vector.compute_ops import (
    ContractionOp,
    FMAOp,
    MultiDimReductionOp,
    OuterProductOp,
    ReductionOp,
)
from xdsl_gpu.gpu_dialect.vector.mask_ops import ConstantMaskOp, CreateMaskOp, StepOp
from xdsl_gpu.gpu_dialect.vector.masking_ops import MaskOp, YieldOp
from xdsl_gpu.gpu_dialect.vector.memory_ops import (
    CompressStoreOp,
    ExpandLoadOp,
    GatherOp,
    LoadOp,
    MaskedLoadOp,
    MaskedStoreOp,
    ScatterOp,
    StoreOp,
    TransferReadOp,
    TransferWriteOp,
    TypeCastOp,
)
from xdsl_gpu.gpu_dialect.vector.print_op import PrintOp
from xdsl_gpu.gpu_dialect.vector.shape_ops import (
    BitcastOp,
    BroadcastOp,
    DeinterleaveOp,
    ExtractOp,
    ExtractStridedSliceOp,
    FromElementsOp,
    InsertOp,
    InsertStridedSliceOp,
    InterleaveOp,
    ShapeCastOp,
    ShuffleOp,
    ToElementsOp,
    TransposeOp,
)
from xdsl_gpu.gpu_dialect.vector.vscale_op import VectorScaleOp

VECTOR = Dialect(
    "vector",
    [
        BitcastOp,
        BroadcastOp,
        CompressStoreOp,
        ConstantMaskOp,
        ContractionOp,
        CreateMaskOp,
        DeinterleaveOp,
        ExpandLoadOp,
        ExtractOp,
        ExtractStridedSliceOp,
        FMAOp,
        FromElementsOp,
        GatherOp,
        InsertOp,
        InsertStridedSliceOp,
        InterleaveOp,
        LoadOp,
        MaskOp,
        MaskedLoadOp,
        MaskedStoreOp,
        MultiDimReductionOp,
        OuterProductOp,
        PrintOp,
        ReductionOp,
        ScatterOp,
        ShapeCastOp,
        ShuffleOp,
        StepOp,
        StoreOp,
        ToElementsOp,
        TransferReadOp,
        TransferWriteOp,
        TransposeOp,
        TypeCastOp,
        VectorScaleOp,
        YieldOp,
    ],
    [CombiningKindAttr, IteratorTypeAttr, PrintPunctuationAttr],
)
"""xDSL's ``vector`` dialect with upstream MLIR 22's syntax, verifiers and ops."""

__all__ = [
    "VECTOR",
    "BitcastOp",
    "BroadcastOp",
    "CombiningKindAttr",
    "CompressStoreOp",
    "ConstantMaskOp",
    "ContractionOp",
    "CreateMaskOp",
    "DeinterleaveOp",
    "ExpandLoadOp",
    "ExtractOp",
    "ExtractStridedSliceOp",
    "FMAOp",
    "FromElementsOp",
    "GatherOp",
    "InsertOp",
    "InsertStridedSliceOp",
    "InterleaveOp",
    "IteratorTypeAttr",
    "LoadOp",
    "MaskOp",
    "MaskedLoadOp",
    "MaskedStoreOp",
    "MultiDimReductionOp",
    "OuterProductOp",
    "PrintOp",
    "PrintPunctuationAttr",
    "ReductionOp",
    "ScatterOp",
    "ShapeCastOp",
    "ShuffleOp",
    "StepOp",
    "StoreOp",
    "ToElementsOp",
    "TransferReadOp",
    "TransferWriteOp",
    "TransposeOp",
    "TypeCastOp",
    "VectorScaleOp",
    "YieldOp",
]
