"""Memory barriers and fences: ``memory.barrier`` (PTX ``membar``) and ``fence.*``.

Printed forms (MLIR 22)::

    nvvm.memory.barrier <cta>
    nvvm.fence.sc.cluster
    nvvm.fence.mbarrier.init
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>,
                      space = #nvvm.shared_space<cta>}
    nvvm.fence.proxy.acquire <cta> %addr, %size
    nvvm.fence.proxy.release <gpu>
    nvvm.fence.sync_restrict {order = #nvvm.mem_order<acquire>}
    nvvm.fence.proxy.sync_restrict {order = #nvvm.mem_order<release>}

Upstream's generic form names the proxy properties ``fromProxy``/``toProxy``; so do
these ops (the Python fields are ``from_proxy``/``to_proxy``). Verifier messages are
upstream's, word for word (typos included, so that tests match).
"""

from __future__ import annotations

from typing import ClassVar, cast

from xdsl.dialects.builtin import I32
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    EqAttrConstraint,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
)
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect.nvvm.attributes import (
    MemOrderKind,
    MemOrderKindAttr,
    MemScopeKind,
    MemScopeKindAttr,
    ProxyKind,
    ProxyKindAttr,
    SharedSpace,
    SharedSpaceAttr,
)
from xdsl_gpu.gpu_dialect.nvvm.base import IntrinsicOp

_MEMBAR_INTRINSICS: dict[MemScopeKind, str] = {
    MemScopeKind.CTA: "llvm.nvvm.membar.cta",
    MemScopeKind.CLUSTER: "llvm.nvvm.fence.sc.cluster",
    MemScopeKind.GPU: "llvm.nvvm.membar.gl",
    MemScopeKind.SYS: "llvm.nvvm.membar.sys",
}

# `sync_restrict` restricts acquire to shared::cluster and release to shared::cta,
# both at cluster scope.
_SYNC_RESTRICT_SPACE = {MemOrderKind.ACQUIRE: "cluster", MemOrderKind.RELEASE: "cta"}


def _scope(scope: MemScopeKind | str | MemScopeKindAttr) -> MemScopeKindAttr:
    return (
        scope
        if isinstance(scope, MemScopeKindAttr)
        else MemScopeKindAttr(MemScopeKind(scope))
    )


def _order(order: MemOrderKind | str | MemOrderKindAttr) -> MemOrderKindAttr:
    return (
        order
        if isinstance(order, MemOrderKindAttr)
        else MemOrderKindAttr(MemOrderKind(order))
    )


@irdl_op_definition
class MembarOp(IntrinsicOp):
    """``nvvm.memory.barrier <scope>``: orders this thread's memory accesses at
    ``scope``. ``cluster`` is translated to ``llvm.nvvm.fence.sc.cluster``, the
    others to ``llvm.nvvm.membar.{cta,gl,sys}``."""

    name = "nvvm.memory.barrier"

    scope = prop_def(MemScopeKindAttr)

    assembly_format = "$scope attr-dict"

    def __init__(self, scope: MemScopeKind | str | MemScopeKindAttr):
        super().__init__(properties={"scope": _scope(scope)})

    def get_llvm_intrinsic(self) -> str:
        return _MEMBAR_INTRINSICS[cast(MemScopeKind, self.scope.data)]


@irdl_op_definition
class FenceScClusterOp(IntrinsicOp):
    name = "nvvm.fence.sc.cluster"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.fence.sc.cluster"

    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()


@irdl_op_definition
class FenceMbarrierInitOp(IntrinsicOp):
    """``nvvm.fence.mbarrier.init``: orders prior ``mbarrier.init``s (release,
    cluster scope)."""

    name = "nvvm.fence.mbarrier.init"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.fence.mbarrier_init.release.cluster"

    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()


@irdl_op_definition
class FenceProxyOp(IntrinsicOp):
    """``nvvm.fence.proxy``: orders accesses made through different proxies.
    ``async.shared`` needs a ``space`` (``cta`` or ``cluster``), the other kinds take
    none; ``generic`` and ``tensormap`` are not allowed."""

    name = "nvvm.fence.proxy"

    kind = prop_def(ProxyKindAttr)
    space = opt_prop_def(SharedSpaceAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"

    def __init__(self, kind: ProxyKind | str, space: SharedSpace | str | None = None):
        properties: dict[str, Attribute] = {"kind": ProxyKindAttr(ProxyKind(kind))}
        if space is not None:
            properties["space"] = SharedSpaceAttr(SharedSpace(space))
        super().__init__(properties=properties)

    def get_llvm_intrinsic(self) -> str:
        kind = self.kind.data
        if kind == ProxyKind.ASYNC_SHARED:
            assert self.space is not None
            return f"llvm.nvvm.fence.proxy.async.shared_{self.space.data.value}"
        return f"llvm.nvvm.fence.proxy.{kind.value}"

    def verify_(self) -> None:
        kind = self.kind.data
        if kind == ProxyKind.GENERIC:
            raise VerifyException(
                f"'{self.name}' op generic proxy not a supported proxy kind"
            )
        if kind == ProxyKind.TENSORMAP:
            raise VerifyException(
                f"'{self.name}' op tensormap proxy is not a supported proxy kind"
            )
        if kind == ProxyKind.ASYNC_SHARED and self.space is None:
            raise VerifyException(
                f"'{self.name}' op async_shared fence requires space attribute"
            )
        if kind != ProxyKind.ASYNC_SHARED and self.space is not None:
            raise VerifyException(
                f"'{self.name}' op only async_shared fence can have space attribute"
            )


_GENERIC = ProxyKindAttr(ProxyKind.GENERIC)
_TENSORMAP = ProxyKindAttr(ProxyKind.TENSORMAP)
_ASYNC = ProxyKindAttr(ProxyKind.ASYNC)


class _TensormapProxyFenceOp(IntrinsicOp):
    """The uni-directional generic → tensormap proxy fences."""

    DIRECTION: ClassVar[str]

    scope = prop_def(MemScopeKindAttr)
    from_proxy = prop_def(ProxyKindAttr, default_value=_GENERIC, prop_name="fromProxy")
    to_proxy = prop_def(ProxyKindAttr, default_value=_TENSORMAP, prop_name="toProxy")

    def get_llvm_intrinsic(self) -> str:
        return (
            f"llvm.nvvm.fence.proxy.tensormap_generic.{self.DIRECTION}."
            f"{self.scope.data.value}"
        )

    def verify_(self) -> None:
        if self.from_proxy != _GENERIC:
            raise VerifyException(
                f"'{self.name}' op uni-directional proxies only support generic for "
                "from_proxy attribute"
            )
        if self.to_proxy != _TENSORMAP:
            raise VerifyException(
                f"'{self.name}' op uni-directional proxies only support tensormap for "
                "to_proxy attribute"
            )


@irdl_op_definition
class FenceProxyAcquireOp(_TensormapProxyFenceOp):
    """``nvvm.fence.proxy.acquire <scope> %addr, %size``: acquire side of the
    generic → tensormap proxy fence on ``[addr, addr + size)`` (``size`` must be the
    constant 128 when translated; ``addr`` is a generic pointer into global memory).
    Translated to ``llvm.nvvm.fence.proxy.tensormap_generic.acquire.<scope>``."""

    name = "nvvm.fence.proxy.acquire"
    DIRECTION: ClassVar[str] = "acquire"

    addr = operand_def(EqAttrConstraint(LLVMPointerType()))
    size = operand_def(I32)

    assembly_format = (
        "$scope $addr `,` $size (`from_proxy` `=` $fromProxy^)? "
        "(`to_proxy` `=` $toProxy^)? attr-dict"
    )

    def __init__(
        self,
        scope: MemScopeKind | str | MemScopeKindAttr,
        addr: SSAValue | Operation,
        size: SSAValue | Operation,
    ):
        super().__init__(operands=[addr, size], properties={"scope": _scope(scope)})


@irdl_op_definition
class FenceProxyReleaseOp(_TensormapProxyFenceOp):
    """``nvvm.fence.proxy.release <scope>``: release side of the generic → tensormap
    proxy fence. Translated to
    ``llvm.nvvm.fence.proxy.tensormap_generic.release.<scope>``."""

    name = "nvvm.fence.proxy.release"
    DIRECTION: ClassVar[str] = "release"

    assembly_format = (
        "$scope (`from_proxy` `=` $fromProxy^)? (`to_proxy` `=` $toProxy^)? attr-dict"
    )

    def __init__(self, scope: MemScopeKind | str | MemScopeKindAttr):
        super().__init__(properties={"scope": _scope(scope)})


class _SyncRestrictFenceOp(IntrinsicOp):
    """The ``sync_restrict`` fences: acquire is restricted to shared::cluster and
    release to shared::cta, both at cluster scope."""

    INTRINSIC_PREFIX: ClassVar[str]

    order = prop_def(MemOrderKindAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"

    def __init__(self, order: MemOrderKind | str | MemOrderKindAttr):
        super().__init__(properties={"order": _order(order)})

    def get_llvm_intrinsic(self) -> str:
        order = cast(MemOrderKind, self.order.data)
        return (
            f"{self.INTRINSIC_PREFIX}.{order.value}.sync_restrict.space."
            f"{_SYNC_RESTRICT_SPACE[order]}.scope.cluster"
        )

    def verify_(self) -> None:
        if self.order.data not in _SYNC_RESTRICT_SPACE:
            raise VerifyException(
                f"'{self.name}' op only acquire and release semantics are supported"
            )


@irdl_op_definition
class FenceSyncRestrictOp(_SyncRestrictFenceOp):
    """``nvvm.fence.sync_restrict {order = #nvvm.mem_order<acquire|release>}``."""

    name = "nvvm.fence.sync_restrict"
    INTRINSIC_PREFIX: ClassVar[str] = "llvm.nvvm.fence"


@irdl_op_definition
class FenceProxySyncRestrictOp(_SyncRestrictFenceOp):
    """``nvvm.fence.proxy.sync_restrict``: the generic → async proxy fence with
    ``sync_restrict`` semantics."""

    name = "nvvm.fence.proxy.sync_restrict"
    INTRINSIC_PREFIX: ClassVar[str] = "llvm.nvvm.fence.proxy.async_generic"

    from_proxy = prop_def(ProxyKindAttr, default_value=_GENERIC, prop_name="fromProxy")
    to_proxy = prop_def(ProxyKindAttr, default_value=_ASYNC, prop_name="toProxy")

    def verify_(self) -> None:
        super().verify_()
        if self.from_proxy != _GENERIC:
            raise VerifyException(
                f"'{self.name}' op only generic is support for from_proxy attribute"
            )
        if self.to_proxy != _ASYNC:
            raise VerifyException(
                f"'{self.name}' op only async is supported for to_proxy attribute"
            )


OPERATIONS: tuple[type[Operation], ...] = (
    MembarOp,
    FenceScClusterOp,
    FenceMbarrierInitOp,
    FenceProxyOp,
    FenceProxyAcquireOp,
    FenceProxyReleaseOp,
    FenceSyncRestrictOp,
    FenceProxySyncRestrictOp,
)

__all__ = [
    "FenceMbarrierInitOp",
    "FenceProxyAcquireOp",
    "FenceProxyOp",
    "FenceProxyReleaseOp",
    "FenceProxySyncRestrictOp",
    "FenceScClusterOp",
    "FenceSyncRestrictOp",
    "MembarOp",
]
