"""``nvvm.read.ptx.sreg.*``: reads of PTX special registers.

Printed form (MLIR 22)::

    %0 = nvvm.read.ptx.sreg.tid.x range <i32, 0, 64> : i32
    %1 = nvvm.read.ptx.sreg.clock64 : i64

Three base classes, as in ``NVVMOps.td``; every leaf only names itself (and, where
upstream does, adds its SM requirement):

* :class:`SpecialRegisterOp`: has side effects (``clock``, ``globaltimer``);
* :class:`PureSpecialRegisterOp`: pure, no range (lane masks, shared memory sizes,
  ``envreg0`` … ``envreg31``);
* :class:`RangeableSpecialRegisterOp`: pure, with an optional
  ``range <iN, lower, upper>`` (``#llvm.constant_range``) that the LLVM IR
  translation puts on the call as a ``range(iN lower, upper)`` return attribute.

``LLVM_INTRINSIC`` names the intrinsic each op becomes, a call without arguments:
``llvm.`` followed by the op name, except for the shared memory sizes, whose
intrinsics use underscores (``llvm.nvvm.read.ptx.sreg.total_smem_size``).

Beyond MLIR: upstream accepts any LLVM type as the result and any range width, and
then fails in translation (``Function return type does not match operand type``);
here the result must be the intrinsic's type (``i32``, or ``i64`` for ``clock64`` and
``globaltimer``) and the range must have that type.
"""

from __future__ import annotations

from abc import ABC
from typing import ClassVar

from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Attribute, Operation
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect.nvvm.attributes import ConstantRangeAttr
from xdsl_gpu.gpu_dialect.nvvm.base import IntrinsicOp
from xdsl_gpu.gpu_dialect.nvvm.sm import RequiresSM


class SpecialRegisterOp(IntrinsicOp, ABC):
    """Reads one special register; the result has the intrinsic's integer type."""

    RESULT_WIDTH: ClassVar[int] = 32
    """Bit width of the intrinsic's result."""

    res = result_def(IntegerType)

    assembly_format = "attr-dict `:` type($res)"

    def __init__(self, result_type: Attribute | None = None):
        super().__init__(result_types=[result_type or IntegerType(self.RESULT_WIDTH)])

    def verify_(self) -> None:
        expected = IntegerType(self.RESULT_WIDTH)
        if self.res.type != expected:
            raise VerifyException(
                f"'{self.name}' op result must be {expected} (the type of "
                f"{self.LLVM_INTRINSIC}), got {self.res.type}"
            )


class PureSpecialRegisterOp(SpecialRegisterOp, ABC):
    traits = traits_def(Pure())


class RangeableSpecialRegisterOp(PureSpecialRegisterOp, ABC):
    """A pure special register read with an optional known ``range``."""

    range = opt_prop_def(ConstantRangeAttr)

    assembly_format = "(`range` $range^)? attr-dict `:` type($res)"

    def __init__(
        self,
        range: ConstantRangeAttr | tuple[int, int] | None = None,
        result_type: Attribute | None = None,
    ):
        result_type = result_type or IntegerType(self.RESULT_WIDTH)
        if isinstance(range, tuple):
            if not isinstance(result_type, IntegerType):
                raise TypeError(
                    f"a range needs an integer result type, not {result_type}"
                )
            range = ConstantRangeAttr(result_type, *range)
        IRDLOperation.__init__(
            self,
            result_types=[result_type],
            properties={"range": range} if range is not None else {},
        )

    def verify_(self) -> None:
        super().verify_()
        if self.range is None:
            return
        if (reason := self.range.invalid_reason()) is not None:
            raise VerifyException(f"'{self.name}' op invalid range attribute: {reason}")
        if self.range.int_type != self.res.type:
            raise VerifyException(
                f"'{self.name}' op range type {self.range.int_type} must match the "
                f"result type {self.res.type}"
            )


# Lane, warp, SM and grid index and range.


@irdl_op_definition
class LaneIdOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.laneid"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.laneid"


@irdl_op_definition
class WarpSizeOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.warpsize"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.warpsize"


@irdl_op_definition
class WarpIdOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.warpid"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.warpid"


@irdl_op_definition
class WarpDimOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.nwarpid"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.nwarpid"


@irdl_op_definition
class SmIdOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.smid"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.smid"


@irdl_op_definition
class SmDimOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.nsmid"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.nsmid"


@irdl_op_definition
class GridIdOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.gridid"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.gridid"


# Lane masks.


@irdl_op_definition
class LaneMaskEqOp(PureSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.lanemask.eq"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.lanemask.eq"


@irdl_op_definition
class LaneMaskLeOp(PureSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.lanemask.le"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.lanemask.le"


@irdl_op_definition
class LaneMaskLtOp(PureSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.lanemask.lt"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.lanemask.lt"


@irdl_op_definition
class LaneMaskGeOp(PureSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.lanemask.ge"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.lanemask.ge"


@irdl_op_definition
class LaneMaskGtOp(PureSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.lanemask.gt"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.lanemask.gt"


# Thread index and block size.


@irdl_op_definition
class ThreadIdXOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.tid.x"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.tid.x"


@irdl_op_definition
class ThreadIdYOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.tid.y"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.tid.y"


@irdl_op_definition
class ThreadIdZOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.tid.z"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.tid.z"


@irdl_op_definition
class BlockDimXOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.ntid.x"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.ntid.x"


@irdl_op_definition
class BlockDimYOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.ntid.y"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.ntid.y"


@irdl_op_definition
class BlockDimZOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.ntid.z"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.ntid.z"


# Block index and grid size.


@irdl_op_definition
class BlockIdXOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.ctaid.x"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.ctaid.x"


@irdl_op_definition
class BlockIdYOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.ctaid.y"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.ctaid.y"


@irdl_op_definition
class BlockIdZOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.ctaid.z"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.ctaid.z"


@irdl_op_definition
class GridDimXOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.nctaid.x"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.nctaid.x"


@irdl_op_definition
class GridDimYOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.nctaid.y"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.nctaid.y"


@irdl_op_definition
class GridDimZOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.nctaid.z"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.nctaid.z"


# Cluster index and number of clusters. Upstream requires sm_90 for `clusterid.x`
# only (not for .y and .z); kept as it is.


@irdl_op_definition
class ClusterIdXOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.clusterid.x"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.clusterid.x"
    traits = traits_def(RequiresSM(90))


@irdl_op_definition
class ClusterIdYOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.clusterid.y"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.clusterid.y"


@irdl_op_definition
class ClusterIdZOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.clusterid.z"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.clusterid.z"


@irdl_op_definition
class ClusterDimXOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.nclusterid.x"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.nclusterid.x"


@irdl_op_definition
class ClusterDimYOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.nclusterid.y"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.nclusterid.y"


@irdl_op_definition
class ClusterDimZOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.nclusterid.z"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.nclusterid.z"


# Block index within its cluster and cluster size in blocks (`cluster.nctaid.z`
# has no SM requirement upstream).


@irdl_op_definition
class BlockInClusterIdXOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.cluster.ctaid.x"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.cluster.ctaid.x"
    traits = traits_def(RequiresSM(90))


@irdl_op_definition
class BlockInClusterIdYOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.cluster.ctaid.y"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.cluster.ctaid.y"
    traits = traits_def(RequiresSM(90))


@irdl_op_definition
class BlockInClusterIdZOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.cluster.ctaid.z"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.cluster.ctaid.z"
    traits = traits_def(RequiresSM(90))


@irdl_op_definition
class ClusterDimBlocksXOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.cluster.nctaid.x"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.cluster.nctaid.x"
    traits = traits_def(RequiresSM(90))


@irdl_op_definition
class ClusterDimBlocksYOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.cluster.nctaid.y"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.cluster.nctaid.y"
    traits = traits_def(RequiresSM(90))


@irdl_op_definition
class ClusterDimBlocksZOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.cluster.nctaid.z"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.cluster.nctaid.z"


# Linear block rank within the cluster and number of blocks in the cluster
# (upstream's `NVVM::ClusterId` and `NVVM::ClusterDim`).


@irdl_op_definition
class ClusterIdOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.cluster.ctarank"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.cluster.ctarank"
    traits = traits_def(RequiresSM(90))


@irdl_op_definition
class ClusterDimOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.cluster.nctarank"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.cluster.nctarank"


# Shared memory sizes.


@irdl_op_definition
class TotalSmemSizeOp(PureSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.total.smem.size"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.total_smem_size"


@irdl_op_definition
class DynamicSmemSizeOp(PureSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.dynamic.smem.size"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.dynamic_smem_size"


@irdl_op_definition
class AggrSmemSizeOp(PureSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.aggr.smem.size"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.aggr_smem_size"
    traits = traits_def(RequiresSM(90))


# Clocks and timers: not pure, each read may differ.


@irdl_op_definition
class ClockOp(SpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.clock"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.clock"


@irdl_op_definition
class Clock64Op(SpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.clock64"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.clock64"
    RESULT_WIDTH: ClassVar[int] = 64


@irdl_op_definition
class GlobalTimerOp(SpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.globaltimer"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.globaltimer"
    RESULT_WIDTH: ClassVar[int] = 64


@irdl_op_definition
class GlobalTimerLoOp(SpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.globaltimer.lo"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.read.ptx.sreg.globaltimer.lo"


def _envreg_op(index: int) -> type[PureSpecialRegisterOp]:
    cls = type(
        f"EnvReg{index}Op",
        (PureSpecialRegisterOp,),
        {
            "name": f"nvvm.read.ptx.sreg.envreg{index}",
            "LLVM_INTRINSIC": f"llvm.nvvm.read.ptx.sreg.envreg{index}",
            "__annotations__": {"LLVM_INTRINSIC": "ClassVar[str]"},
            "__module__": __name__,
        },
    )
    return irdl_op_definition(cls)


ENV_REG_OPS: tuple[type[PureSpecialRegisterOp], ...] = tuple(
    _envreg_op(i) for i in range(32)
)
"""``nvvm.read.ptx.sreg.envreg0`` … ``envreg31`` (``EnvReg0Op`` … ``EnvReg31Op``),
defined in a loop as upstream's ``foreach`` does."""


OPERATIONS: tuple[type[Operation], ...] = (
    LaneIdOp,
    WarpSizeOp,
    WarpIdOp,
    WarpDimOp,
    SmIdOp,
    SmDimOp,
    GridIdOp,
    LaneMaskEqOp,
    LaneMaskLeOp,
    LaneMaskLtOp,
    LaneMaskGeOp,
    LaneMaskGtOp,
    ThreadIdXOp,
    ThreadIdYOp,
    ThreadIdZOp,
    BlockDimXOp,
    BlockDimYOp,
    BlockDimZOp,
    BlockIdXOp,
    BlockIdYOp,
    BlockIdZOp,
    GridDimXOp,
    GridDimYOp,
    GridDimZOp,
    ClusterIdXOp,
    ClusterIdYOp,
    ClusterIdZOp,
    ClusterDimXOp,
    ClusterDimYOp,
    ClusterDimZOp,
    BlockInClusterIdXOp,
    BlockInClusterIdYOp,
    BlockInClusterIdZOp,
    ClusterDimBlocksXOp,
    ClusterDimBlocksYOp,
    ClusterDimBlocksZOp,
    ClusterIdOp,
    ClusterDimOp,
    TotalSmemSizeOp,
    DynamicSmemSizeOp,
    AggrSmemSizeOp,
    ClockOp,
    Clock64Op,
    GlobalTimerOp,
    GlobalTimerLoOp,
    *ENV_REG_OPS,
)

__all__ = [
    "ENV_REG_OPS",
    "AggrSmemSizeOp",
    "BlockDimXOp",
    "BlockDimYOp",
    "BlockDimZOp",
    "BlockIdXOp",
    "BlockIdYOp",
    "BlockIdZOp",
    "BlockInClusterIdXOp",
    "BlockInClusterIdYOp",
    "BlockInClusterIdZOp",
    "Clock64Op",
    "ClockOp",
    "ClusterDimBlocksXOp",
    "ClusterDimBlocksYOp",
    "ClusterDimBlocksZOp",
    "ClusterDimOp",
    "ClusterDimXOp",
    "ClusterDimYOp",
    "ClusterDimZOp",
    "ClusterIdOp",
    "ClusterIdXOp",
    "ClusterIdYOp",
    "ClusterIdZOp",
    "DynamicSmemSizeOp",
    "GlobalTimerLoOp",
    "GlobalTimerOp",
    "GridDimXOp",
    "GridDimYOp",
    "GridDimZOp",
    "GridIdOp",
    "LaneIdOp",
    "LaneMaskEqOp",
    "LaneMaskGeOp",
    "LaneMaskGtOp",
    "LaneMaskLeOp",
    "LaneMaskLtOp",
    "PureSpecialRegisterOp",
    "RangeableSpecialRegisterOp",
    "SmDimOp",
    "SmIdOp",
    "SpecialRegisterOp",
    "ThreadIdXOp",
    "ThreadIdYOp",
    "ThreadIdZOp",
    "TotalSmemSizeOp",
    "WarpDimOp",
    "WarpIdOp",
    "WarpSizeOp",
]
