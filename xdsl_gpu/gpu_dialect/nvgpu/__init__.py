"""The ``nvgpu`` dialect of MLIR 22, with upstream's printed syntax and verifiers:
the bridge between the target-independent ``gpu``/``vector`` dialects and ``nvvm``.

* :mod:`~xdsl_gpu.gpu_dialect.nvgpu.types`: the dialect's types;
* :mod:`~xdsl_gpu.gpu_dialect.nvgpu.attributes`: tensor-map enums, ``rcp`` rounding;
* :mod:`~xdsl_gpu.gpu_dialect.nvgpu.mma_ops`: ``ldmatrix``, ``mma.sync``,
  ``mma.sp.sync``;
* :mod:`~xdsl_gpu.gpu_dialect.nvgpu.async_copy_ops`: ``device_async_*``;
* :mod:`~xdsl_gpu.gpu_dialect.nvgpu.mbarrier_ops`: ``mbarrier.*``;
* :mod:`~xdsl_gpu.gpu_dialect.nvgpu.tma_ops`: ``tma.*``;
* :mod:`~xdsl_gpu.gpu_dialect.nvgpu.warpgroup_ops`: ``warpgroup.*``;
* :mod:`~xdsl_gpu.gpu_dialect.nvgpu.rcp_op`: ``rcp``.

``convert-nvgpu-to-nvvm`` (:mod:`xdsl_gpu.passes.convert_nvgpu_to_nvvm`) lowers them.
"""

from xdsl.ir import Dialect

from xdsl_gpu.gpu_dialect.nvgpu import (
    async_copy_ops,
    mbarrier_ops,
    mma_ops,
    rcp_op,
    tma_ops,
    warpgroup_ops,
)
from xdsl_gpu.gpu_dialect.nvgpu.async_copy_ops import *  # noqa: F403
from xdsl_gpu.gpu_dialect.nvgpu.attributes import *  # noqa: F403
from xdsl_gpu.gpu_dialect.nvgpu.attributes import ATTRIBUTES
from xdsl_gpu.gpu_dialect.nvgpu.mbarrier_ops import *  # noqa: F403
from xdsl_gpu.gpu_dialect.nvgpu.mma_ops import *  # noqa: F403
from xdsl_gpu.gpu_dialect.nvgpu.rcp_op import *  # noqa: F403
from xdsl_gpu.gpu_dialect.nvgpu.tma_ops import *  # noqa: F403
from xdsl_gpu.gpu_dialect.nvgpu.types import *  # noqa: F403
from xdsl_gpu.gpu_dialect.nvgpu.types import TYPES
from xdsl_gpu.gpu_dialect.nvgpu.warpgroup_ops import *  # noqa: F403

NVGPU = Dialect(
    "nvgpu",
    [
        *mma_ops.OPERATIONS,
        *async_copy_ops.OPERATIONS,
        *mbarrier_ops.OPERATIONS,
        *tma_ops.OPERATIONS,
        *warpgroup_ops.OPERATIONS,
        *rcp_op.OPERATIONS,
    ],
    [*TYPES, *ATTRIBUTES],
)

__all__ = ["NVGPU"]
