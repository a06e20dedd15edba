"""Barriers and warp-level collectives: ``barrier0``, ``bar.warp.sync``, the cluster
barriers, ``shfl.sync``, ``vote.sync``, ``redux.sync`` and ``elect.sync``.

Printed forms (MLIR 22)::

    nvvm.barrier0
    nvvm.bar.warp.sync %mask : i32
    nvvm.cluster.arrive {aligned}
    %r = nvvm.shfl.sync bfly %mask, %v, %offset, %clamp : f32 -> f32
    %p = nvvm.shfl.sync up %mask, %v, %offset, %clamp {return_value_and_is_valid}
        : f32 -> !llvm.struct<(f32, i1)>
    %b = nvvm.vote.sync ballot %mask, %pred -> i32
    %s = nvvm.redux.sync fmax %v, %mask {abs = true, nan = true} : f32 -> f32
    %e = nvvm.elect.sync -> i1

Verifier messages are upstream's, word for word.
"""

from __future__ import annotations

from abc import ABC
from typing import Any, ClassVar

from xdsl.dialects.builtin import I1, I32, BoolAttr, IntegerAttr, UnitAttr, f32, i1, i32
from xdsl.dialects.llvm import LLVMStructType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    BaseAttr,
    EqAttrConstraint,
    ParsePropInAttrDict,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect.nvvm.attributes import (
    ReduxKind,
    ReduxKindAttr,
    ShflKind,
    ShflKindAttr,
    VoteSyncKind,
    VoteSyncKindAttr,
)
from xdsl_gpu.gpu_dialect.nvvm.base import IntrinsicOp
from xdsl_gpu.gpu_dialect.nvvm.sm import RequiresSM

_I32OrF32 = EqAttrConstraint(i32) | EqAttrConstraint(f32)


@irdl_op_definition
class Barrier0Op(IntrinsicOp):
    """``nvvm.barrier0``: CTA-wide barrier on barrier 0 (``bar.sync 0``).

    Translated to ``llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)``: the barrier id is
    the one argument, a constant (``LLVM_IMMEDIATE_ARGS``).
    """

    name = "nvvm.barrier0"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.barrier.cta.sync.aligned.all"
    LLVM_IMMEDIATE_ARGS: ClassVar[tuple[tuple[str, int], ...]] = (("i32", 0),)

    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()


@irdl_op_definition
class SyncWarpOp(IntrinsicOp):
    """``nvvm.bar.warp.sync %mask : i32``: barrier among the lanes in ``mask``."""

    name = "nvvm.bar.warp.sync"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.bar.warp.sync"

    mask = operand_def(I32)

    assembly_format = "$mask attr-dict `:` type($mask)"

    def __init__(self, mask: SSAValue | Operation):
        super().__init__(operands=[mask])


class ClusterBarrierOp(IntrinsicOp, ABC):
    """The cluster barriers; ``{aligned}`` selects the ``.aligned`` intrinsic."""

    aligned = opt_prop_def(UnitAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"

    def __init__(self, aligned: bool = False):
        super().__init__(properties={"aligned": UnitAttr()} if aligned else {})

    def get_llvm_intrinsic(self) -> str:
        return self.LLVM_INTRINSIC + (".aligned" if self.aligned else "")


@irdl_op_definition
class ClusterArriveOp(ClusterBarrierOp):
    name = "nvvm.cluster.arrive"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.barrier.cluster.arrive"


@irdl_op_definition
class ClusterArriveRelaxedOp(ClusterBarrierOp):
    name = "nvvm.cluster.arrive.relaxed"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.barrier.cluster.arrive.relaxed"
    traits = traits_def(RequiresSM(90))


@irdl_op_definition
class ClusterWaitOp(ClusterBarrierOp):
    name = "nvvm.cluster.wait"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.barrier.cluster.wait"
    traits = traits_def(RequiresSM(90))


@irdl_op_definition
class ShflSyncOp(IntrinsicOp):
    """``nvvm.shfl.sync``: exchange a value between the lanes of a warp.

    ``thread_mask`` names the participating lanes; ``offset`` is the source lane or
    lane offset (by ``kind``); ``mask_and_clamp`` packs the segment mask and the lane
    clamp. With ``return_value_and_is_valid`` the result is ``!llvm.struct<(T, i1)>``
    whose second field says whether the source lane was valid.

    Translated to ``llvm.nvvm.shfl.sync.<kind>.<i32|f32>``, with a ``p`` suffix for the
    struct form.
    """

    name = "nvvm.shfl.sync"

    thread_mask = operand_def(I32)
    val = operand_def(_I32OrF32)
    offset = operand_def(I32)
    mask_and_clamp = operand_def(I32)
    res = result_def(_I32OrF32 | BaseAttr(LLVMStructType))
    kind = prop_def(ShflKindAttr)
    return_value_and_is_valid = opt_prop_def(UnitAttr)

    traits = traits_def(RequiresSM(30))
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$kind $thread_mask `,` $val `,` $offset `,` $mask_and_clamp attr-dict "
        "`:` type($val) `->` type($res)"
    )

    def __init__(
        self,
        kind: ShflKind | str,
        thread_mask: SSAValue | Operation,
        val: SSAValue | Operation,
        offset: SSAValue | Operation,
        mask_and_clamp: SSAValue | Operation,
        return_value_and_is_valid: bool = False,
    ):
        value_type = SSAValue.get(val).type
        properties: dict[str, Attribute] = {"kind": ShflKindAttr(ShflKind(kind))}
        result_type: Attribute = value_type
        if return_value_and_is_valid:
            properties["return_value_and_is_valid"] = UnitAttr()
            result_type = LLVMStructType.from_type_list([value_type, i1])
        super().__init__(
            operands=[thread_mask, val, offset, mask_and_clamp],
            result_types=[result_type],
            properties=properties,
        )

    def get_llvm_intrinsic(self) -> str:
        suffix = "f32" if self.val.type == f32 else "i32"
        if self.return_value_and_is_valid:
            suffix += "p"
        return f"llvm.nvvm.shfl.sync.{self.kind.data.value}.{suffix}"

    def verify_(self) -> None:
        value_type, res_type = self.val.type, self.res.type
        if self.return_value_and_is_valid is None:
            if isinstance(res_type, LLVMStructType):
                raise VerifyException(
                    f"'{self.name}' op \"return_value_and_is_valid\" attribute must "
                    "be specified when the return type is a struct type"
                )
            if res_type != value_type:
                raise VerifyException(
                    f"'{self.name}' op expected return type to be of type "
                    f"'{value_type}' but got '{res_type}' instead"
                )
            return
        if not isinstance(res_type, LLVMStructType) or len(res_type.types) != 2:
            raise VerifyException(
                f"'{self.name}' op expected return type to be a two-element struct"
            )
        first, second = res_type.types
        if first != value_type:
            raise VerifyException(
                f"'{self.name}' op expected first element in the returned struct to "
                f"be of type '{value_type}' but got '{first}' instead"
            )
        if second != i1:
            raise VerifyException(
                f"'{self.name}' op expected second element in the returned struct to "
                f"be of type 'i1' but got '{second}' instead"
            )


@irdl_op_definition
class VoteSyncOp(IntrinsicOp):
    """``nvvm.vote.sync``: ``any``/``all``/``uni`` of a predicate across the lanes in
    ``mask`` (result ``i1``), or the ``ballot`` of it (result ``i32``).

    Translated to ``llvm.nvvm.vote.<kind>.sync(mask, pred)``.
    """

    name = "nvvm.vote.sync"

    mask = operand_def(I32)
    pred = operand_def(I1)
    res = result_def(EqAttrConstraint(i32) | EqAttrConstraint(i1))
    kind = prop_def(VoteSyncKindAttr)

    assembly_format = "$kind $mask `,` $pred attr-dict `->` type($res)"

    def __init__(
        self,
        kind: VoteSyncKind | str,
        mask: SSAValue | Operation,
        pred: SSAValue | Operation,
    ):
        kind = VoteSyncKind(kind)
        super().__init__(
            operands=[mask, pred],
            result_types=[i32 if kind == VoteSyncKind.BALLOT else i1],
            properties={"kind": VoteSyncKindAttr(kind)},
        )

    def get_llvm_intrinsic(self) -> str:
        return f"llvm.nvvm.vote.{self.kind.data.value}.sync"

    def verify_(self) -> None:
        if self.kind.data == VoteSyncKind.BALLOT:
            if self.res.type != i32:
                raise VerifyException(
                    f"'{self.name}' op vote.sync 'ballot' returns an i32"
                )
        elif self.res.type != i1:
            raise VerifyException(
                f"'{self.name}' op vote.sync 'any', 'all' and 'uni' returns an i1"
            )


_FLOAT_REDUX_KINDS = frozenset({ReduxKind.FMIN, ReduxKind.FMAX})
_FALSE = IntegerAttr.from_bool(False)


@irdl_op_definition
class ReduxSyncOp(IntrinsicOp):
    """``nvvm.redux.sync``: reduce a 32-bit value across the lanes in
    ``mask_and_clamp``. ``fmin``/``fmax`` take ``f32`` (with optional ``abs`` and
    ``nan``); the other kinds take ``i32``.

    Translated to ``llvm.nvvm.redux.sync.<kind>`` with ``.abs`` and ``.NaN`` suffixes
    when those are set.
    """

    name = "nvvm.redux.sync"

    T: ClassVar = VarConstraint("T", _I32OrF32)

    val = operand_def(T)
    mask_and_clamp = operand_def(I32)
    res = result_def(T)
    kind = prop_def(ReduxKindAttr)
    abs = prop_def(BoolAttr, default_value=_FALSE)
    nan = prop_def(BoolAttr, default_value=_FALSE)

    traits = traits_def(RequiresSM(80))
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$kind $val `,` $mask_and_clamp attr-dict `:` type($val) `->` type($res)"
    )

    def __init__(
        self,
        kind: ReduxKind | str,
        val: SSAValue | Operation,
        mask_and_clamp: SSAValue | Operation,
        abs: bool = False,
        nan: bool = False,
    ):
        super().__init__(
            operands=[val, mask_and_clamp],
            result_types=[SSAValue.get(val).type],
            properties={
                "kind": ReduxKindAttr(ReduxKind(kind)),
                "abs": IntegerAttr.from_bool(abs),
                "nan": IntegerAttr.from_bool(nan),
            },
        )

    def get_llvm_intrinsic(self) -> str:
        name = f"llvm.nvvm.redux.sync.{self.kind.data.value}"
        if self.abs.value.data:
            name += ".abs"
        if self.nan.value.data:
            name += ".NaN"
        return name

    def verify_(self) -> None:
        kind, value_type = self.kind.data, self.val.type
        if value_type != f32:
            for flag in ("abs", "nan"):
                if getattr(self, flag).value.data:
                    raise VerifyException(
                        f"'{self.name}' op {flag} attribute is supported only for "
                        "f32 type"
                    )
        expected = f32 if kind in _FLOAT_REDUX_KINDS else i32
        if value_type != expected:
            raise VerifyException(
                f"'{self.name}' op '{kind.value}' redux kind unsupported with "
                f"'{value_type}' type. Only supported type is '{expected}'."
            )


@irdl_op_definition
class ElectSyncOp(IntrinsicOp):
    """``nvvm.elect.sync (%membermask)? -> i1``: true in one elected lane of the
    lanes in ``membermask`` (all 32 when absent).

    Translated to ``llvm.nvvm.elect.sync(membermask or i32 -1)``, which returns
    ``{i32, i1}``; the op's result is field 1 (``extractvalue``), see :meth:`llvm_ir`.
    """

    name = "nvvm.elect.sync"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.elect.sync"

    membermask = opt_operand_def(I32)
    pred = result_def(I1)

    assembly_format = "($membermask^)? attr-dict `->` type($pred)"

    def __init__(self, membermask: SSAValue | Operation | None = None):
        super().__init__(
            operands=[[membermask] if membermask is not None else []],
            result_types=[i1],
        )

    def llvm_ir(self, emitter: Any) -> None:
        """Emit the call and the ``extractvalue`` through the LLVM IR translation's
        function emitter (``xdsl_gpu/targets/llvm_ir``: ``LLVMIRTranslatable``)."""
        mask = "-1" if self.membermask is None else emitter.ref(self.membermask)
        struct = "{ i32, i1 }"
        callee = emitter.module.declare(self.LLVM_INTRINSIC, struct, ["i32"])
        call = emitter.fresh()
        emitter.emit(f"{call} = call {struct} {callee}(i32 {mask})")
        emitter.define(self.pred, f"extractvalue {struct} {call}, 1")


OPERATIONS: tuple[type[Operation], ...] = (
    Barrier0Op,
    SyncWarpOp,
    ClusterArriveOp,
    ClusterArriveRelaxedOp,
    ClusterWaitOp,
    ShflSyncOp,
    VoteSyncOp,
    ReduxSyncOp,
    ElectSyncOp,
)

__all__ = [
    "Barrier0Op",
    "ClusterArriveOp",
    "ClusterArriveRelaxedOp",
    "ClusterBarrierOp",
    "ClusterWaitOp",
    "ElectSyncOp",
    "ReduxSyncOp",
    "ShflSyncOp",
    "SyncWarpOp",
    "VoteSyncOp",
]
