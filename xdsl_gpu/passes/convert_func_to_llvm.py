"""``convert-func-to-llvm``: ``func.func``/``func.call``/``func.return`` to ``llvm``.

Upstream: ``mlir/lib/Conversion/FuncToLLVM/FuncToLLVM.cpp`` (MLIR 22).

Calling conventions for memref arguments and results:

* default (descriptors): a ranked ``memref`` argument expands to its descriptor fields
  ``(ptr allocated, ptr aligned, iN offset, iN sizes..., iN strides...)``; an unranked
  one to ``(iN rank, ptr descriptor)``. Inside the function the descriptor struct is
  rebuilt (``llvm.mlir.poison`` + ``llvm.insertvalue``). A memref result is returned as
  the descriptor struct.
* ``use-bare-ptr-memref-call-conv``: a memref with static shape, strides and offset is
  passed and returned as a single ``!llvm.ptr`` (its aligned pointer for arguments of
  calls, its allocated pointer for returns, as upstream); the body rebuilds a
  descriptor from constants. Other memrefs cannot use this convention: the pass stops
  with a diagnostic (upstream leaves the function unconverted, which fails later).

Several results are packed into an ``!llvm.struct`` (``llvm.insertvalue`` before
``llvm.return``, ``llvm.extractvalue`` after ``llvm.call``).

``llvm.emit_c_interface`` on a function (descriptor convention only):

* with a body: a wrapper ``@_mlir_ciface_<name>`` that takes every memref as a
  pointer to its descriptor, loads and expands it and calls ``@<name>``; a struct
  result (several results, a memref, a complex) is stored through an extra first
  pointer argument.
* a declaration: ``@<name>`` gets a private body that stores each descriptor on the
  stack and calls the external ``@_mlir_ciface_<name>``.

Other behaviour as upstream: ``llvm.linkage = #llvm.linkage<...>`` sets the linkage
(default external), ``func.varargs = true`` makes the function variadic,
``sym_visibility`` and the discardable attributes are kept, argument attributes stay
where an argument converts one to one (a memref expanded to its descriptor fields
loses them), only the entry block's arguments are converted (``cf`` branches are
``convert-cf-to-llvm``'s). Option ``index-bitwidth`` (default 0: 64 bits).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    DictionaryAttr,
    MemRefType,
    ModuleOp,
    UnrankedMemRefType,
    UnrealizedConversionCastOp,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect import func as func_ext
from xdsl_gpu.gpu_dialect import llvm
from xdsl_gpu.passes.llvm_type_converter import (
    LLVMTypeConverter,
    apply_patterns,
    conversion_error,
    replace_op,
    to_llvm,
)
from xdsl_gpu.passes.memref_descriptor import (
    MemRefDescriptor,
    UnrankedMemRefDescriptor,
    alloca,
    extract,
    index_constant,
    insert,
    poison,
    strides_and_offset,
)
from xdsl_gpu.passes.options import UpstreamOptions

PASS_NAME = "convert-func-to-llvm"
C_INTERFACE = "llvm.emit_c_interface"
C_PREFIX = "_mlir_ciface_"
LINKAGE = "llvm.linkage"
VARARGS = "func.varargs"


@dataclass(frozen=True)
class FuncConventions:
    """How function boundaries convert types (shared by func, call and return)."""

    converter: LLVMTypeConverter
    bare_ptr: bool = False

    def is_bare(self, t: Attribute) -> bool:
        """Whether ``t`` is passed as one pointer (bare-pointer convention)."""
        return self.bare_ptr and isinstance(t, MemRefType | UnrankedMemRefType)

    def check_bare(self, t: Attribute, op: Operation) -> None:
        if not self.is_bare(t):
            return
        static = False
        if isinstance(t, MemRefType):
            strides, offset = strides_and_offset(t)
            static = t.has_static_shape() and offset is not None and None not in strides
        if not static:
            raise conversion_error(
                PASS_NAME,
                op,
                f"cannot pass '{t}' as a bare pointer: the bare-pointer calling "
                "convention needs a static shape, strides and offset (drop "
                "use-bare-ptr-memref-call-conv, or cast to a static memref)",
            )

    def expanded(self, t: Attribute, op: Operation) -> list[Attribute]:
        """The LLVM argument types one argument of type ``t`` becomes."""
        self.check_bare(t, op)
        if self.bare_ptr and isinstance(t, MemRefType | UnrankedMemRefType):
            return [self._ptr(t, op)]
        if isinstance(t, MemRefType | UnrankedMemRefType):
            fields = self.converter.memref_descriptor_fields(t)
            if fields is None:
                raise _no_conversion(op, t)
            return fields
        return [self.convert(t, op)]

    def result(self, t: Attribute, op: Operation) -> Attribute:
        """The LLVM type one result of type ``t`` is returned as."""
        self.check_bare(t, op)
        if self.bare_ptr and isinstance(t, MemRefType | UnrankedMemRefType):
            return self._ptr(t, op)
        return self.convert(t, op)

    def packed_result(self, types: Sequence[Attribute], op: Operation) -> Attribute:
        """void, the one converted result, or a struct of them."""
        converted = [self.result(t, op) for t in types]
        if not converted:
            return llvm.LLVMVoidType()
        if len(converted) == 1:
            return converted[0]
        return llvm.LLVMStructType.from_type_list(converted)

    def convert(self, t: Attribute, op: Operation) -> Attribute:
        converted = self.converter.convert_type(t)
        if converted is None:
            raise _no_conversion(op, t)
        return converted

    def _ptr(self, t: MemRefType | UnrankedMemRefType, op: Operation) -> Attribute:
        ptr = self.converter.memref_pointer_type(t)
        if ptr is None:
            raise _no_conversion(op, t)
        return ptr


def _no_conversion(op: Operation, t: Attribute) -> Exception:
    return conversion_error(
        PASS_NAME,
        op,
        f"has a value of type '{t}' that has no LLVM equivalent (a memref needs an "
        "integer memory space or one the lowering maps, like #gpu.address_space in "
        "convert-gpu-to-nvvm)",
    )


# -- values across the boundary ------------------------------------------------------


def expand_value(
    value: SSAValue, conv: FuncConventions, op: Operation, rewriter: PatternRewriter
) -> list[SSAValue]:
    """The call arguments one value becomes (descriptor fields, a pointer, or the
    converted value)."""
    t = value.type
    conv.check_bare(t, op)
    converted = to_llvm(value, conv.convert(t, op), rewriter)
    if conv.is_bare(t):
        return [MemRefDescriptor(converted).aligned_ptr(rewriter)]
    if isinstance(t, UnrankedMemRefType):
        desc = UnrankedMemRefDescriptor(converted)
        return [desc.rank(rewriter), desc.memref_desc_ptr(rewriter)]
    if isinstance(t, MemRefType):
        return MemRefDescriptor(converted).unpack(rewriter)
    return [converted]


def pack_value(
    t: Attribute, args: Sequence[SSAValue], conv: FuncConventions, builder: Builder
) -> SSAValue:
    """The converted value of type ``t`` rebuilt from its expanded arguments."""
    if conv.is_bare(t):
        assert isinstance(t, MemRefType)
        struct = conv.converter.memref_descriptor_type(t)
        assert struct is not None
        return MemRefDescriptor.from_static_shape(
            builder, struct, t, args[0], args[0]
        ).value
    if isinstance(t, UnrankedMemRefType):
        struct = conv.converter.convert_type(t)
        assert isinstance(struct, llvm.LLVMStructType)
        return UnrankedMemRefDescriptor.pack(builder, struct, args[0], args[1]).value
    if isinstance(t, MemRefType):
        struct = conv.converter.memref_descriptor_type(t)
        assert struct is not None
        return MemRefDescriptor.pack(builder, struct, args).value
    (arg,) = args
    return arg


# -- func.func -----------------------------------------------------------------------


@dataclass
class FuncLowering(RewritePattern):
    conv: FuncConventions

    acts_on = (func.FuncOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, func.FuncOp):
            return
        inputs = op.function_type.inputs.data
        outputs = op.function_type.outputs.data
        expanded = [self.conv.expanded(t, op) for t in inputs]
        result = self.conv.packed_result(outputs, op)
        attrs = dict(op.attributes)
        varargs = attrs.pop(VARARGS, None)
        try:
            fn_type = llvm.LLVMFunctionType(
                [t for ts in expanded for t in ts],
                result,
                is_variadic=varargs == BoolAttr.from_bool(True),
            )
        except VerifyException as e:  # xDSL's llvm function type (scalable vectors)
            raise conversion_error(
                PASS_NAME, op, f"cannot be an llvm.func: {e}"
            ) from None
        linkage = attrs.pop(LINKAGE, None)
        if linkage is not None and not isinstance(linkage, llvm.LinkageAttr):
            raise conversion_error(
                PASS_NAME,
                op,
                f"has '{LINKAGE}' = {linkage}, expected #llvm.linkage<...>",
            )
        other_props: dict[str, Attribute | None] = {}
        arg_attrs = _expand_arg_attrs(op.arg_attrs, expanded)
        if arg_attrs is not None:
            other_props["arg_attrs"] = arg_attrs
        if op.res_attrs is not None and len(outputs) == 1:
            other_props["res_attrs"] = op.res_attrs

        body = rewriter.move_region_contents_to_new_regions(op.body)
        new = llvm.FuncOp(
            op.sym_name,
            fn_type,
            linkage=linkage or llvm.LinkageAttr("external"),
            sym_visibility=op.sym_visibility,
            body=body,
            other_props=other_props,
            extra_attrs=attrs,
        )
        if body.blocks:
            self._convert_entry_block(body.blocks[0], inputs, expanded)
        rewriter.replace(op, new, [])

        if C_INTERFACE in attrs and not self.conv.bare_ptr:
            if body.blocks:
                _emit_c_wrapper(new, inputs, outputs, self.conv, op)
            else:
                _wrap_external_function(new, inputs, outputs, self.conv, op)

    def _convert_entry_block(
        self,
        block: Block,
        inputs: Sequence[Attribute],
        expanded: Sequence[Sequence[Attribute]],
    ) -> None:
        """New arguments for the expanded types; the old ones' uses see the rebuilt
        value (a descriptor) through a cast, where they have uses."""
        old_args = list(block.args)
        new_args = [
            [block.insert_arg(t, len(block.args)) for t in types] for types in expanded
        ]
        builder = Builder(InsertPoint.at_start(block))
        for old, t, args in zip(old_args, inputs, new_args, strict=True):
            if len(args) == 1:
                args[0].name_hint = old.name_hint
            if not old.uses:
                continue
            value = pack_value(t, args, self.conv, builder)
            if value.type != t:
                cast = UnrealizedConversionCastOp.create(
                    operands=[value], result_types=[t]
                )
                builder.insert(cast)
                value = cast.results[0]
            old.replace_all_uses_with(value)
        for old in old_args:
            block.erase_arg(old)


def _expand_arg_attrs(
    arg_attrs: ArrayAttr[DictionaryAttr] | None,
    expanded: Sequence[Sequence[Attribute]],
) -> ArrayAttr[DictionaryAttr] | None:
    """Argument attributes follow an argument only where it converts one to one (as
    upstream: on an expanded descriptor they might not fit the field types)."""
    if arg_attrs is None or not any(a.data for a in arg_attrs.data):
        return None
    empty = DictionaryAttr({})
    return ArrayAttr(
        [
            attrs if len(ts) == 1 else empty
            for attrs, ts in zip(arg_attrs.data, expanded, strict=True)
            for _ in ts
        ]
    )


# -- C interface wrappers ------------------------------------------------------------


def _c_signature(
    inputs: Sequence[Attribute],
    outputs: Sequence[Attribute],
    conv: FuncConventions,
    op: Operation,
) -> tuple[llvm.LLVMFunctionType, bool]:
    """The C wrapper's type (memrefs by pointer to their descriptor) and whether the
    result is returned through an extra first pointer argument."""
    ptr = llvm.LLVMPointerType()
    args: list[Attribute] = [
        ptr if isinstance(t, MemRefType | UnrankedMemRefType) else conv.convert(t, op)
        for t in inputs
    ]
    result = conv.packed_result(outputs, op)
    if isinstance(result, llvm.LLVMStructType):
        return llvm.LLVMFunctionType([ptr, *args], llvm.LLVMVoidType()), True
    return llvm.LLVMFunctionType(args, result), False


def _copy_for_wrapper(
    new: llvm.FuncOp, name: str, fn_type: llvm.LLVMFunctionType, body: Region
) -> llvm.FuncOp:
    return llvm.FuncOp(
        name,
        fn_type,
        linkage=llvm.LinkageAttr("external"),
        sym_visibility=new.sym_visibility,
        body=body,
        extra_attrs=dict(new.attributes),
    )


def _emit_c_wrapper(
    new: llvm.FuncOp,
    inputs: Sequence[Attribute],
    outputs: Sequence[Attribute],
    conv: FuncConventions,
    op: Operation,
) -> None:
    """``@_mlir_ciface_f``: load each descriptor, call ``@f``, return or store."""
    fn_type, result_by_ptr = _c_signature(inputs, outputs, conv, op)
    block = Block(arg_types=fn_type.inputs.data)
    builder = Builder(InsertPoint.at_end(block))
    c_args = list(block.args[1:] if result_by_ptr else block.args)
    call_args: list[SSAValue] = []
    for t, arg in zip(inputs, c_args, strict=True):
        if isinstance(t, MemRefType | UnrankedMemRefType):
            struct = conv.convert(t, op)
            loaded = builder.insert(llvm.LoadOp(arg, struct)).results[0]
            if isinstance(t, UnrankedMemRefType):
                desc = UnrankedMemRefDescriptor(loaded)
                call_args += [desc.rank(builder), desc.memref_desc_ptr(builder)]
            else:
                call_args += MemRefDescriptor(loaded).unpack(builder)
        else:
            call_args.append(arg)
    call = _call(builder, new.sym_name.data, call_args, new.function_type.output)
    if result_by_ptr:
        builder.insert(llvm.StoreOp(call.results[0], block.args[0]))
        builder.insert(llvm.ReturnOp())
    else:
        builder.insert(llvm.ReturnOp(call.results[0] if call.results else None))
    wrapper = _copy_for_wrapper(
        new, C_PREFIX + new.sym_name.data, fn_type, Region(block)
    )
    _insert_after(new, wrapper)


def _wrap_external_function(
    new: llvm.FuncOp,
    inputs: Sequence[Attribute],
    outputs: Sequence[Attribute],
    conv: FuncConventions,
    op: Operation,
) -> None:
    """A declaration with ``llvm.emit_c_interface``: ``@f`` gets a private body that
    calls the external ``@_mlir_ciface_f`` with descriptors on the stack."""
    fn_type, result_by_ptr = _c_signature(inputs, outputs, conv, op)
    block = Block(arg_types=new.function_type.inputs.data)
    builder = Builder(InsertPoint.at_end(block))
    result = new.function_type.output
    call_args: list[SSAValue] = []
    if result_by_ptr:
        call_args.append(promote_slot(builder, result, conv))
    args = list(block.args)
    for t in inputs:
        n = len(conv.expanded(t, op))
        values, args = args[:n], args[n:]
        if isinstance(t, MemRefType | UnrankedMemRefType):
            descriptor = pack_value(t, values, conv, builder)
            slot = promote_slot(builder, descriptor.type, conv)
            builder.insert(llvm.StoreOp(descriptor, slot))
            call_args.append(slot)
        else:
            call_args += values
    callee = C_PREFIX + new.sym_name.data
    call = _call(builder, callee, call_args, fn_type.output)
    if result_by_ptr:
        loaded = builder.insert(llvm.LoadOp(call_args[0], result)).results[0]
        builder.insert(llvm.ReturnOp(loaded))
    else:
        builder.insert(llvm.ReturnOp(call.results[0] if call.results else None))
    new.body.add_block(block)
    new.properties["linkage"] = llvm.LinkageAttr("private")
    declaration = _copy_for_wrapper(new, callee, fn_type, Region())
    _insert_after(new, declaration)


def _call(
    builder: Builder, callee: str, args: Sequence[SSAValue], result: Attribute
) -> llvm.CallOp:
    """``llvm.call @callee(args)``, void when ``result`` is."""
    void = isinstance(result, llvm.LLVMVoidType)
    return builder.insert(
        llvm.CallOp(callee, *args, return_type=None if void else result)
    )


def promote_slot(builder: Builder, t: Attribute, conv: FuncConventions) -> SSAValue:
    """``alloca 1 x t`` (the count an ``index`` constant of the converter's width)."""
    one = index_constant(builder, conv.converter.index_type, 1)
    return alloca(builder, one, t)


def _insert_after(anchor: Operation, op: Operation) -> None:
    block = anchor.parent_block()
    assert block is not None
    block.insert_op_after(op, anchor)


# -- func.call and func.return -------------------------------------------------------


@dataclass
class CallLowering(RewritePattern):
    conv: FuncConventions

    acts_on = (func.CallOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, func.CallOp):
            return
        args = [
            a for v in op.arguments for a in expand_value(v, self.conv, op, rewriter)
        ]
        result_types = [r.type for r in op.res]
        packed = self.conv.packed_result(result_types, op)
        call = _call(rewriter, op.callee.string_value(), args, packed)
        values: list[SSAValue] = list(call.results)
        if len(result_types) > 1:
            values = [
                extract(rewriter, call.results[0], [i], self.conv.result(t, op))
                for i, t in enumerate(result_types)
            ]
        for i, t in enumerate(result_types):
            if self.conv.is_bare(t):  # a bare pointer becomes a static descriptor again
                assert isinstance(t, MemRefType)
                struct = self.conv.converter.memref_descriptor_type(t)
                assert struct is not None
                values[i] = MemRefDescriptor.from_static_shape(
                    rewriter, struct, t, values[i], values[i]
                ).value
        replace_op(op, [], values, rewriter)


@dataclass
class ConstantLowering(RewritePattern):
    """``func.constant @f`` to ``llvm.mlir.addressof @f : !llvm.ptr``."""

    conv: FuncConventions

    acts_on = (func_ext.ConstantOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, func_ext.ConstantOp):
            return
        address = llvm.AddressOfOp(op.value, llvm.LLVMPointerType())
        replace_op(op, [address], [address.result], rewriter)


@dataclass
class CallIndirectLowering(RewritePattern):
    """``func.call_indirect %f(args)`` to ``llvm.call %ptr(args)``, with the
    arguments and results of ``func.call``'s conventions."""

    conv: FuncConventions

    acts_on = (func_ext.CallIndirectOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, func_ext.CallIndirectOp):
            return
        callee = to_llvm(op.callee, self.conv.convert(op.callee.type, op), rewriter)
        args = [
            a
            for v in op.callee_operands
            for a in expand_value(v, self.conv, op, rewriter)
        ]
        result_types = [r.type for r in op.results]
        packed = self.conv.packed_result(result_types, op)
        void = isinstance(packed, llvm.LLVMVoidType)
        call = llvm.CallOp("", callee, *args, return_type=None if void else packed)
        del call.properties["callee"]  # through the pointer operand
        call.attributes.update(op.attributes)
        rewriter.insert(call)
        values: list[SSAValue] = list(call.results)
        if len(result_types) > 1:
            values = [
                extract(rewriter, call.results[0], [i], self.conv.result(t, op))
                for i, t in enumerate(result_types)
            ]
        replace_op(op, [], values, rewriter)


@dataclass
class ReturnLowering(RewritePattern):
    conv: FuncConventions

    acts_on = (func.ReturnOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, func.ReturnOp):
            return
        values: list[SSAValue] = []
        for value in op.arguments:
            t = value.type
            if isinstance(t, UnrankedMemRefType):
                raise conversion_error(
                    PASS_NAME,
                    op,
                    f"returns the unranked memref '{t}': its descriptor lives on the "
                    "callee's stack, and xdsl-gpu does not copy it to the heap as "
                    "upstream does (return a ranked memref instead)",
                )
            converted = to_llvm(value, self.conv.convert(t, op), rewriter)
            if self.conv.is_bare(t):
                self.conv.check_bare(t, op)
                converted = MemRefDescriptor(converted).allocated_ptr(rewriter)
            values.append(converted)
        if len(values) > 1:
            struct = llvm.LLVMStructType.from_type_list([v.type for v in values])
            packed = poison(rewriter, struct)
            for i, v in enumerate(values):
                packed = insert(rewriter, packed, v, [i])
            values = [packed]
        rewriter.replace(op, llvm.ReturnOp(values[0] if values else None), [])


def func_to_llvm_patterns(
    converter: LLVMTypeConverter, use_bare_ptr_memref_call_conv: bool = False
) -> list[RewritePattern]:
    conv = FuncConventions(converter, use_bare_ptr_memref_call_conv)
    return [
        FuncLowering(conv),
        CallLowering(conv),
        ConstantLowering(conv),
        CallIndirectLowering(conv),
        ReturnLowering(conv),
    ]


@dataclass(frozen=True)
class ConvertFuncToLLVMPass(UpstreamOptions, ModulePass):
    """Lower ``func`` to ``llvm`` (see the module docstring).

    Options:
      use-bare-ptr-memref-call-conv: pass static memrefs as bare pointers.
      index-bitwidth: bit width of ``index`` (0: 64, upstream's default).
    """

    name = "convert-func-to-llvm"

    use_bare_ptr_memref_call_conv: bool = False
    index_bitwidth: int = 0

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        converter = LLVMTypeConverter.for_pass(self.name, self.index_bitwidth)
        apply_patterns(
            op, func_to_llvm_patterns(converter, self.use_bare_ptr_memref_call_conv)
        )
