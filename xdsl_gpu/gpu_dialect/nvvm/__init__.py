"""The ``nvvm`` dialect of MLIR 22 (the subset the GPU flow uses), with upstream's
printed syntax, and ``#nvvm.target``.

* :mod:`~xdsl_gpu.gpu_dialect.nvvm.special_registers`: ``nvvm.read.ptx.sreg.*``;
* :mod:`~xdsl_gpu.gpu_dialect.nvvm.sync_ops`: ``barrier0``, ``bar.warp.sync``, cluster
  barriers, ``shfl.sync``, ``vote.sync``, ``redux.sync``, ``elect.sync``;
* :mod:`~xdsl_gpu.gpu_dialect.nvvm.fence_ops`: ``memory.barrier`` and ``fence.*``;
* :mod:`~xdsl_gpu.gpu_dialect.nvvm.mma_ops`: ``ldmatrix``, ``mma.sync``;
* :mod:`~xdsl_gpu.gpu_dialect.nvvm.mma_block_scale_ops`: ``mma.block_scale``,
  ``mma.sp.block_scale``;
* :mod:`~xdsl_gpu.gpu_dialect.nvvm.wmma_ops`: ``wmma.load``, ``wmma.store``, ``wmma.mma``;
* :mod:`~xdsl_gpu.gpu_dialect.nvvm.async_copy_ops`: ``cp.async.*``;
* :mod:`~xdsl_gpu.gpu_dialect.nvvm.tcgen05_ops`: ``tcgen05.*`` (sm_100a Tensor Memory),
  :mod:`~xdsl_gpu.gpu_dialect.nvvm.tcgen05_mma_ops`: ``tcgen05.mma*``, their attributes
  in :mod:`~xdsl_gpu.gpu_dialect.nvvm.tcgen05_attrs`;
* :mod:`~xdsl_gpu.gpu_dialect.nvvm.math_ops`: ``rcp.approx.ftz.f``;
* :mod:`~xdsl_gpu.gpu_dialect.nvvm.barrier_ops`: ``barrier`` (operands, reductions);
* :mod:`~xdsl_gpu.gpu_dialect.nvvm.control_ops`: ``exit``, ``breakpoint``,
  ``griddepcontrol``, ``setmaxregister``, ``pmevent``;
* :mod:`~xdsl_gpu.gpu_dialect.nvvm.memory_ops`: ``mapa``, ``st.bulk``;
* :mod:`~xdsl_gpu.gpu_dialect.nvvm.match_sync_ops`: ``match.sync``;
* :mod:`~xdsl_gpu.gpu_dialect.nvvm.stmatrix_ops`: ``stmatrix``;
* :mod:`~xdsl_gpu.gpu_dialect.nvvm.dot_accumulate_ops`: ``dot.accumulate.4way/2way``;
* :mod:`~xdsl_gpu.gpu_dialect.nvvm.tma_tensor_ops`: ``cp.async.bulk.tensor.prefetch``
  and ``.reduce``;
* :mod:`~xdsl_gpu.gpu_dialect.nvvm.mma_attrs`: their attributes;
* :mod:`~xdsl_gpu.gpu_dialect.nvvm.target`: ``#nvvm.target`` and its ``verify_target``;
* :mod:`~xdsl_gpu.gpu_dialect.nvvm.kernel_attrs`: ``nvvm.kernel``, ``nvvm.maxntid``, ... on
  ``llvm.func``;
* :mod:`~xdsl_gpu.gpu_dialect.nvvm.sm`: SM versions and the ``RequiresSM`` op trait;
* :mod:`~xdsl_gpu.gpu_dialect.nvvm.sm_test_ops`: ``mlir-opt``'s ``test.nvvm_requires_*``
  ops, which only carry such a requirement.

Every op names the LLVM intrinsic it becomes (``get_llvm_intrinsic()``, and the class
constant ``LLVM_INTRINSIC`` where it is fixed); see :mod:`~xdsl_gpu.gpu_dialect.nvvm.base`.
"""

from xdsl.ir import Dialect

from xdsl_gpu.gpu_dialect.nvvm import (
    async_copy_ops,
    barrier_ops,
    control_ops,
    dot_accumulate_ops,
    fence_ops,
    match_sync_ops,
    math_ops,
    mbarrier_ops,
    memory_ops,
    mma_attrs,
    mma_block_scale_ops,
    mma_ops,
    sm_test_ops,
    special_registers,
    stmatrix_ops,
    sync_ops,
    tcgen05_attrs,
    tcgen05_mma_ops,
    tcgen05_ops,
    tma_ops,
    tma_tensor_ops,
    wgmma_ops,
    wmma_ops,
)
from xdsl_gpu.gpu_dialect.nvvm.async_copy_ops import *  # noqa: F403
from xdsl_gpu.gpu_dialect.nvvm.attributes import *  # noqa: F403
from xdsl_gpu.gpu_dialect.nvvm.attributes import ATTRIBUTES
from xdsl_gpu.gpu_dialect.nvvm.barrier_ops import *  # noqa: F403
from xdsl_gpu.gpu_dialect.nvvm.base import IntrinsicOp
from xdsl_gpu.gpu_dialect.nvvm.control_ops import *  # noqa: F403
from xdsl_gpu.gpu_dialect.nvvm.dot_accumulate_ops import *  # noqa: F403
from xdsl_gpu.gpu_dialect.nvvm.fence_ops import *  # noqa: F403
from xdsl_gpu.gpu_dialect.nvvm.kernel_attrs import verify_nvvm_attributes
from xdsl_gpu.gpu_dialect.nvvm.match_sync_ops import *  # noqa: F403
from xdsl_gpu.gpu_dialect.nvvm.math_ops import *  # noqa: F403
from xdsl_gpu.gpu_dialect.nvvm.mbarrier_ops import *  # noqa: F403
from xdsl_gpu.gpu_dialect.nvvm.memory_ops import *  # noqa: F403
from xdsl_gpu.gpu_dialect.nvvm.mma_attrs import *  # noqa: F403
from xdsl_gpu.gpu_dialect.nvvm.mma_block_scale_ops import *  # noqa: F403
from xdsl_gpu.gpu_dialect.nvvm.mma_ops import *  # noqa: F403
from xdsl_gpu.gpu_dialect.nvvm.sm import RequiresSM, SMVersion
from xdsl_gpu.gpu_dialect.nvvm.special_registers import *  # noqa: F403
from xdsl_gpu.gpu_dialect.nvvm.stmatrix_ops import *  # noqa: F403
from xdsl_gpu.gpu_dialect.nvvm.sync_ops import *  # noqa: F403
from xdsl_gpu.gpu_dialect.nvvm.target import NVVMTargetAttr
from xdsl_gpu.gpu_dialect.nvvm.tcgen05_attrs import *  # noqa: F403
from xdsl_gpu.gpu_dialect.nvvm.tcgen05_mma_ops import *  # noqa: F403
from xdsl_gpu.gpu_dialect.nvvm.tcgen05_ops import *  # noqa: F403
from xdsl_gpu.gpu_dialect.nvvm.tma_ops import *  # noqa: F403
from xdsl_gpu.gpu_dialect.nvvm.tma_tensor_ops import *  # noqa: F403
from xdsl_gpu.gpu_dialect.nvvm.wgmma_ops import *  # noqa: F403
from xdsl_gpu.gpu_dialect.nvvm.wmma_ops import *  # noqa: F403

NVVM = Dialect(
    "nvvm",
    [
        *special_registers.OPERATIONS,
        *sync_ops.OPERATIONS,
        *fence_ops.OPERATIONS,
        *mma_ops.OPERATIONS,
        *async_copy_ops.OPERATIONS,
        *math_ops.OPERATIONS,
        *wmma_ops.OPERATIONS,
        *mbarrier_ops.OPERATIONS,
        *tma_ops.OPERATIONS,
        *wgmma_ops.OPERATIONS,
        *sm_test_ops.OPERATIONS,
        *barrier_ops.OPERATIONS,
        *control_ops.OPERATIONS,
        *dot_accumulate_ops.OPERATIONS,
        *match_sync_ops.OPERATIONS,
        *memory_ops.OPERATIONS,
        *tma_tensor_ops.OPERATIONS,
        *stmatrix_ops.OPERATIONS,
        *tcgen05_ops.OPERATIONS,
        *tcgen05_mma_ops.OPERATIONS,
        *mma_block_scale_ops.OPERATIONS,
    ],
    [
        *ATTRIBUTES,
        *mma_attrs.ATTRIBUTES,
        *wmma_ops.ATTRIBUTES,
        *tma_ops.ATTRIBUTES,
        *wgmma_ops.ATTRIBUTES,
        *barrier_ops.ATTRIBUTES,
        *control_ops.ATTRIBUTES,
        *dot_accumulate_ops.ATTRIBUTES,
        *match_sync_ops.ATTRIBUTES,
        *tma_tensor_ops.ATTRIBUTES,
        *tcgen05_attrs.ATTRIBUTES,
        *mma_block_scale_ops.ATTRIBUTES,
        NVVMTargetAttr,
    ],
)

__all__ = [
    "NVVM",
    "IntrinsicOp",
    "NVVMTargetAttr",
    "RequiresSM",
    "SMVersion",
    "verify_nvvm_attributes",
]
