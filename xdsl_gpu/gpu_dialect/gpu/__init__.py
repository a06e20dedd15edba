"""The ``gpu`` dialect of MLIR 22, with upstream's printed syntax.

One module per op family; each lists what it defines in ``OPERATIONS`` and
``ATTRIBUTES``, and :data:`GPU` gathers them.
"""

from xdsl.ir import Dialect

from xdsl_gpu.gpu_dialect.gpu import (
    attributes,
    compilation_attrs,
    compute_ops,
    kernel_ops,
    memory_ops,
    mma_ops,
    sparse_ops,
    types,
)

_FAMILIES = (
    kernel_ops,
    compute_ops,
    memory_ops,
    mma_ops,
    sparse_ops,
    attributes,
    compilation_attrs,
)

GPU = Dialect(
    "gpu",
    [op for family in _FAMILIES for op in getattr(family, "OPERATIONS", ())],
    [
        *types.TYPES,
        *(attr for family in _FAMILIES for attr in getattr(family, "ATTRIBUTES", ())),
    ],
)
