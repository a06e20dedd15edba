"""``gpu.func`` → ``llvm.func`` and ``gpu.return`` → ``llvm.return``.

The signature follows the calling convention of ``convert-func-to-llvm`` (its
:class:`~xdsl_gpu.passes.convert_func_to_llvm.FuncConventions`): a memref argument expands to
its descriptor fields ``(ptr, ptr, iN, sizes..., strides...)``, or, with
``use-bare-ptr-memref-call-conv``, to one pointer (static memrefs only). The body
rebuilds each descriptor; attributions are lowered by :mod:`.attributions`.

Attributes, as upstream's ``GPUFuncOpLowering`` for NVVM:

* every discardable attribute of the ``gpu.func`` is kept (``gpu.kernel`` included);
  the ``known_block_size``/``known_grid_size``/``known_cluster_size`` properties
  become ``gpu.known_block_size``/... attributes;
* a kernel gets ``nvvm.kernel``, ``nvvm.maxntid`` = ``known_block_size`` and
  ``nvvm.cluster_dim`` = ``known_cluster_size`` (``nvvm.reqntid`` is only kept when the
  function already carries it, as upstream never derives it);
* argument attributes: only the llvm ones upstream copies (``_arg_attrs``), on the
  expanded arguments they fit (a descriptor's pointers or all its fields).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    StringAttr,
    UnitAttr,
    UnrealizedConversionCastOp,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from xdsl_gpu.gpu_dialect import llvm
from xdsl_gpu.gpu_dialect.gpu import kernel_ops
from xdsl_gpu.gpu_dialect.gpu.attributes import (
    KNOWN_BLOCK_SIZE_ATTR_NAME,
    KNOWN_CLUSTER_SIZE_ATTR_NAME,
    KNOWN_GRID_SIZE_ATTR_NAME,
)
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import WORKGROUP_ATTRIBUTIONS_ATTR_NAME
from xdsl_gpu.gpu_dialect.nvvm.kernel_attrs import CLUSTER_DIM, KERNEL, MAXNTID
from xdsl_gpu.passes.convert_func_to_llvm import PASS_NAME as FUNC_PASS_NAME
from xdsl_gpu.passes.convert_func_to_llvm import pack_value
from xdsl_gpu.passes.gpu_to_nvvm_patterns.attributions import lower_attributions
from xdsl_gpu.passes.gpu_to_nvvm_patterns.common import NVVMLowering, legalize_error
from xdsl_gpu.passes.llvm_type_converter import ConversionError, describe, to_llvm
from xdsl_gpu.passes.memref_descriptor import MemRefDescriptor, insert, poison


def _reason(error: ConversionError, op: Operation) -> str:
    """The ``why`` of a convert-func-to-llvm diagnostic about ``op``."""
    text = str(error)
    head = f"{FUNC_PASS_NAME}: {describe(op)} "
    return text[len(head) :] if text.startswith(head) else text


_ANY_ARG_ATTRS = ("llvm.returned", "llvm.noundef", "llvm.inreg")
"""Argument attributes copied to every argument a ``gpu.func`` argument expands to."""

_POINTER_ARG_ATTRS = (
    "llvm.noalias",
    "llvm.nocapture",
    "llvm.nofree",
    "llvm.align",
    "llvm.readonly",
    "llvm.writeonly",
    "llvm.readnone",
    "llvm.nonnull",
    "llvm.dereferenceable",
    "llvm.dereferenceable_or_null",
    "llvm.mlir.workgroup_attribution",
)
"""Argument attributes copied to the pointers among the expanded arguments."""


def _arg_attrs(
    arg_attrs: ArrayAttr[DictionaryAttr] | None, expanded: Sequence[Sequence[Attribute]]
) -> ArrayAttr[DictionaryAttr] | None:
    """Upstream's GPUFuncOpLowering keeps only the llvm attributes it knows:
    ``_ANY_ARG_ATTRS`` go to each expanded argument (a descriptor's sizes too),
    ``_POINTER_ARG_ATTRS`` to its pointers (allocated and aligned), others are
    dropped; ``llvm.noalias`` only stays on a bare pointer (upstream warns)."""
    if arg_attrs is None or not any(a.data for a in arg_attrs.data):
        return None
    result: list[DictionaryAttr] = []
    for attrs, types in zip(arg_attrs.data, expanded, strict=True):
        common = {k: attrs.data[k] for k in _ANY_ARG_ATTRS if k in attrs.data}
        pointer = {
            k: attrs.data[k]
            for k in _POINTER_ARG_ATTRS
            if k in attrs.data and not (k == "llvm.noalias" and len(types) > 1)
        }
        for t in types:
            kept = common | pointer if isinstance(t, llvm.LLVMPointerType) else common
            result.append(DictionaryAttr(dict(sorted(kept.items()))))
    if not any(a.data for a in result):
        return None
    return ArrayAttr(result)


def _function_attributes(op: kernel_ops.FuncOp) -> dict[str, Attribute]:
    attrs = {
        k: v
        for k, v in op.attributes.items()
        if k not in ("sym_name", "sym_visibility", WORKGROUP_ATTRIBUTIONS_ATTR_NAME)
    }
    hints: list[tuple[str, DenseArrayBase | None]] = [
        (KNOWN_BLOCK_SIZE_ATTR_NAME, op.known_block_size),
        (KNOWN_GRID_SIZE_ATTR_NAME, op.known_grid_size),
        (KNOWN_CLUSTER_SIZE_ATTR_NAME, op.known_cluster_size),
    ]
    for name, value in hints:
        if value is not None:
            attrs[name] = value
    if op.is_kernel:
        attrs[KERNEL] = UnitAttr()
        if op.known_block_size is not None:
            attrs[MAXNTID] = op.known_block_size
        if op.known_cluster_size is not None:
            attrs[CLUSTER_DIM] = op.known_cluster_size
    return dict(sorted(attrs.items()))


@dataclass
class GPUFuncLowering(RewritePattern):
    lowering: NVVMLowering

    acts_on = (kernel_ops.FuncOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, kernel_ops.FuncOp):
            return
        conv = self.lowering.conv
        inputs = op.function_type.inputs.data
        outputs = op.function_type.outputs.data
        try:
            expanded = [conv.expanded(t, op) for t in inputs]
            result = conv.packed_result(outputs, op)
        except ConversionError as e:
            raise legalize_error(op, _reason(e, op)) from None
        fn_type = llvm.LLVMFunctionType([t for ts in expanded for t in ts], result)

        workgroup = list(op.workgroup_attributions)
        private = list(op.private_attributions)
        workgroup_attrs = op.workgroup_attrib_attrs
        private_attrs = op.private_attrib_attrs
        name = op.sym_name.data
        visibility = op.attributes.get("sym_visibility")
        other: dict[str, Attribute | None] = {}
        if (arg_attrs := _arg_attrs(op.arg_attrs, expanded)) is not None:
            other["arg_attrs"] = arg_attrs
        if op.res_attrs is not None and len(outputs) == 1:
            other["res_attrs"] = op.res_attrs

        body = rewriter.move_region_contents_to_new_regions(op.body)
        new = llvm.FuncOp(
            name,
            fn_type,
            linkage=llvm.LinkageAttr("external"),
            sym_visibility=visibility if isinstance(visibility, StringAttr) else None,
            body=body,
            other_props=other,
            extra_attrs=_function_attributes(op),
        )
        block = body.blocks.first
        if block is not None:
            builder = self._convert_arguments(block, inputs, expanded)
            lower_attributions(
                self.lowering,
                op,
                name,
                (workgroup, workgroup_attrs),
                (private, private_attrs),
                builder,
            )
            for arg in reversed(block.args[: len(block.args) - len(fn_type.inputs)]):
                block.erase_arg(arg)
        rewriter.replace(op, new, [])

    def _convert_arguments(
        self,
        block: Block,
        inputs: Sequence[Attribute],
        expanded: Sequence[Sequence[Attribute]],
    ) -> Builder:
        """Append the expanded arguments; the old ones' uses see the rebuilt value.
        Returns the builder after the rebuilt values."""
        conv = self.lowering.conv
        old_args = list(block.args[: len(inputs)])
        new_args = [
            [block.insert_arg(t, len(block.args)) for t in types] for types in expanded
        ]
        builder = Builder(InsertPoint.at_start(block))
        for old, t, args in zip(old_args, inputs, new_args, strict=True):
            if len(args) == 1:
                args[0].name_hint = old.name_hint
            if not old.uses:
                continue
            value = pack_value(t, args, conv, builder)
            if value.type != t:
                value = builder.insert(
                    UnrealizedConversionCastOp.create(
                        operands=[value], result_types=[t]
                    )
                ).results[0]
            old.replace_all_uses_with(value)
        return builder


@dataclass
class GPUReturnLowering(RewritePattern):
    """``gpu.return`` → ``llvm.return`` (several values packed in a struct)."""

    lowering: NVVMLowering

    acts_on = (kernel_ops.ReturnOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, kernel_ops.ReturnOp):
            return
        conv = self.lowering.conv
        values: list[SSAValue] = []
        for value in op.args:
            t = value.type
            try:
                conv.check_bare(t, op)
                converted = to_llvm(value, conv.convert(t, op), rewriter)
            except ConversionError as e:
                raise legalize_error(op, _reason(e, op)) from None
            if conv.is_bare(t):
                converted = MemRefDescriptor(converted).allocated_ptr(rewriter)
            values.append(converted)
        if len(values) > 1:
            struct = llvm.LLVMStructType.from_type_list([v.type for v in values])
            packed = poison(rewriter, struct)
            for i, v in enumerate(values):
                packed = insert(rewriter, packed, v, [i])
            values = [packed]
        rewriter.replace(op, llvm.ReturnOp(values[0] if values else None), [])


def func_patterns(lowering: NVVMLowering) -> list[RewritePattern]:
    return [GPUFuncLowering(lowering), GPUReturnLowering(lowering)]
