"""The ops of ``mlir-opt``'s test dialect that carry nothing but an SM requirement.

MLIR 22's ``mlir-opt`` registers ``test.nvvm_requires_sm_80``,
``test.nvvm_requires_sm_90a`` and ``test.nvvm_requires_sm_90a_or_sm_100a`` to test
``#nvvm.target``'s check on its own, independent of any real op. They are here so that
the same inputs read the same: registered with the ``nvvm`` dialect (xDSL's ``test``
dialect is xDSL's own), so they are known once ``nvvm`` is loaded, as it is by the
``#nvvm.target`` that such a test puts on its ``gpu.module``.
"""

from __future__ import annotations

from xdsl.irdl import IRDLOperation, irdl_op_definition, traits_def

from xdsl_gpu.gpu_dialect.nvvm.sm import RequiresSM


@irdl_op_definition
class RequiresSm80Op(IRDLOperation):
    """``test.nvvm_requires_sm_80``: needs sm_80 or newer."""

    name = "test.nvvm_requires_sm_80"
    traits = traits_def(RequiresSM(80))
    assembly_format = "attr-dict"


@irdl_op_definition
class RequiresSm90aOp(IRDLOperation):
    """``test.nvvm_requires_sm_90a``: needs sm_90a."""

    name = "test.nvvm_requires_sm_90a"
    traits = traits_def(RequiresSM(90, arch_accelerated=True))
    assembly_format = "attr-dict"


@irdl_op_definition
class RequiresSm90aOrSm100aOp(IRDLOperation):
    """``test.nvvm_requires_sm_90a_or_sm_100a``: needs sm_90a or sm_100a."""

    name = "test.nvvm_requires_sm_90a_or_sm_100a"
    traits = traits_def(RequiresSM(90, 100, arch_accelerated=True))
    assembly_format = "attr-dict"


OPERATIONS: list[type[IRDLOperation]] = [
    RequiresSm80Op,
    RequiresSm90aOp,
    RequiresSm90aOrSm100aOp,
]

__all__ = ["RequiresSm80Op", "RequiresSm90aOp", "RequiresSm90aOrSm100aOp"]
