"""``convert-vector-to-llvm``: the 1-D ``vector`` ops to the ``llvm`` dialect, as
upstream MLIR 22's ``ConvertVectorToLLVMPass`` lowers them.

Lowered (1-D vectors; LLVM takes ``vector<NxT>`` as it is):

* ``broadcast`` of a scalar: ``insertelement`` into poison at ``0 : i32``, then a
  ``shufflevector`` of zeros;
* ``extract``/``insert`` of an element (static position: an ``i64`` constant;
  dynamic: the ``index`` cast to ``i64``): ``extractelement``/``insertelement``;
* ``shuffle``: ``shufflevector``; ``fma``: ``llvm.intr.fmuladd``; ``bitcast``:
  ``llvm.bitcast``; ``from_elements``: ``insertelement`` into poison; ``step``: a
  dense constant (scalable: ``llvm.intr.stepvector``); ``vscale``:
  ``llvm.intr.vscale`` (:mod:`.vector_to_llvm_patterns.scalable`);
* ``reduction``: ``llvm.intr.vector.reduce.*`` (``fadd``/``fmul`` start from the
  accumulator or from ``0.0``/``1.0``, reassociated with
  ``reassociate-fp-reductions``); an accumulator of another kind is combined after
  the reduction, as upstream does;
* ``print`` of a scalar: calls to ``printF32``/``printF64``/``printI64``/``printU64``
  and the punctuation (``printNewline``, ``printComma``, ``printOpen``,
  ``printClose``); ``print str``: a private global and ``printString``; ``print`` of
  a vector is looped over its elements by convert-vector-to-scf first, as upstream;
* ``load``/``store``/``maskedload``/``maskedstore`` (:mod:`.vector_to_llvm_patterns.
  memory`), n-D ``extract``/``insert``/``broadcast``/``shape_cast`` on arrays of 1-D
  vectors (:mod:`.vector_to_llvm_patterns.nd`); before the conversion, 1-D transfers
  become (masked) loads and stores and masks become comparisons
  (:mod:`xdsl_gpu.passes.vector_transforms`).

What is not lowered here stays (n-D transfers need ``convert-vector-to-scf`` first;
docs/passes/vector-to-llvm.md lists what is not done).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    TensorType,
    UnrealizedConversionCastOp,
    VectorType,
    i32,
    i64,
)
from xdsl.dialects.llvm import FastMathFlag  # pyright: ignore[reportPrivateImportUsage]
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import PassFailedException

from xdsl_gpu.gpu_dialect import llvm as ours_llvm
from xdsl_gpu.gpu_dialect import llvm_vector, vector
from xdsl_gpu.gpu_dialect.vector.attributes import Punctuation
from xdsl_gpu.passes.finalize_memref_to_llvm import MemRefLoweringOptions
from xdsl_gpu.passes.llvm_type_converter import LLVMTypeConverter
from xdsl_gpu.passes.options import UpstreamOptions
from xdsl_gpu.passes.vector_to_llvm_patterns.gather_scatter import (
    gather_scatter_patterns,
)
from xdsl_gpu.passes.vector_to_llvm_patterns.masked_reduction import (
    LowerMaskedReduction,
)
from xdsl_gpu.passes.vector_to_llvm_patterns.memory import vector_memory_patterns
from xdsl_gpu.passes.vector_to_llvm_patterns.nd import nd_vector_patterns
from xdsl_gpu.passes.vector_to_llvm_patterns.scalable import scalable_patterns
from xdsl_gpu.passes.vector_to_llvm_patterns.shuffles import shuffle_patterns
from xdsl_gpu.passes.vector_transforms.compute_lowering import (
    LowerMultiReduction,
    LowerOuterProduct,
    LowerTranspose,
)
from xdsl_gpu.passes.vector_transforms.contract_lowering import (
    LowerContraction,
    LowerMaskedOuterProduct,
)
from xdsl_gpu.passes.vector_transforms.mask_lowering import (
    LowerConstantMask,
    LowerCreateMask,
)
from xdsl_gpu.passes.vector_transforms.mask_op_lowering import (
    mask_canonicalization_patterns,
)
from xdsl_gpu.passes.vector_transforms.masked_op_check import check_masked_ops
from xdsl_gpu.passes.vector_transforms.nd_unroll import nd_unroll_patterns
from xdsl_gpu.passes.vector_transforms.transfer_to_load_store import (
    TransferReadToLoad,
    TransferWriteToStore,
)


def _is_1d(t: Attribute) -> bool:
    return isinstance(t, VectorType) and t.get_num_dims() == 1


def _index_to_i64(value: SSAValue, rewriter: PatternRewriter) -> SSAValue:
    if not isinstance(value.type, IndexType):
        return value
    cast = UnrealizedConversionCastOp.create(operands=[value], result_types=[i64])
    rewriter.insert(cast)
    return cast.results[0]


def _position(position: int | SSAValue, rewriter: PatternRewriter) -> SSAValue:
    if isinstance(position, SSAValue):
        return _index_to_i64(position, rewriter)
    const = llvm.ConstantOp(IntegerAttr(position, i64), i64)
    rewriter.insert(const)
    return const.result


def _scalar_of(value: SSAValue, rewriter: PatternRewriter) -> SSAValue | None:
    """A scalar as it is; the element of a 0-D vector (a ``vector<1xT>`` in LLVM,
    read at ``0 : i64`` as upstream does); ``None`` for other vectors."""
    t = value.type
    if not isinstance(t, VectorType):
        return value
    if t.get_num_dims() != 0:
        return None
    one = VectorType(t.element_type, [1])
    cast = UnrealizedConversionCastOp.create(operands=[value], result_types=[one])
    index = llvm.ConstantOp(IntegerAttr(0, i64), i64)
    element = ours_llvm.ExtractElementOp(cast.results[0], index.result)
    for new in (cast, index, element):
        rewriter.insert(new)
    return element.results[0]


class LowerBroadcast(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.BroadcastOp, rewriter: PatternRewriter):
        result = op.vector.type
        if not _is_1d(result):
            return
        assert isinstance(result, VectorType)
        scalar = _scalar_of(op.source, rewriter)
        if scalar is None:
            return
        n = result.get_shape()[0]
        rewriter.replace(
            op,
            [
                poison := ours_llvm.PoisonOp(result),
                zero := llvm.ConstantOp(IntegerAttr(0, i32), i32),
                ins := llvm.InsertElementOp(poison, scalar, zero),
                llvm.ShuffleVectorOp(
                    ins, poison, DenseArrayBase.from_list(i32, [0] * n), result
                ),
            ],
        )


class LowerExtract(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.ExtractOp, rewriter: PatternRewriter):
        if not _is_1d(op.vector.type) or isinstance(op.result.type, VectorType):
            return
        positions = op.get_mixed_position()
        if positions == [-1]:
            return
        index = _position(positions[0], rewriter)
        rewriter.replace(op, ours_llvm.ExtractElementOp(op.vector, index))


class LowerInsert(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.InsertOp, rewriter: PatternRewriter):
        if not _is_1d(op.dest.type) or isinstance(op.source.type, VectorType):
            return
        positions = op.get_mixed_position()
        if positions == [-1]:
            return
        index = _position(positions[0], rewriter)
        rewriter.replace(op, llvm.InsertElementOp(op.dest, op.source, index))


class LowerShuffle(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.ShuffleOp, rewriter: PatternRewriter):
        if not (_is_1d(op.v1.type) and _is_1d(op.v2.type)) or op.v1.type != op.v2.type:
            return
        mask = DenseArrayBase.from_list(i32, list(op.mask.get_values()))
        rewriter.replace(op, llvm.ShuffleVectorOp(op.v1, op.v2, mask, op.result.type))


class LowerFma(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.FMAOp, rewriter: PatternRewriter):
        if not _is_1d(op.lhs.type):
            return
        rewriter.replace(op, ours_llvm.FMulAddOp(op.lhs, op.rhs, op.acc))


class LowerBitcast(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.BitcastOp, rewriter: PatternRewriter):
        if not _is_1d(op.source.type):
            return
        rewriter.replace(op, llvm.BitcastOp(op.source, op.result.type))


class LowerFromElements(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.FromElementsOp, rewriter: PatternRewriter):
        if not _is_1d(op.dest.type):
            return
        ops: list[Operation] = [value := ours_llvm.PoisonOp(op.dest.type)]
        current: SSAValue = value.results[0]
        for i, element in enumerate(op.elements):
            ops.append(index := llvm.ConstantOp(IntegerAttr(i, i64), i64))
            ops.append(ins := llvm.InsertElementOp(current, element, index))
            current = ins.results[0]
        rewriter.replace(op, ops, [current])


class LowerStep(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.StepOp, rewriter: PatternRewriter):
        t = op.result.type
        assert isinstance(t, VectorType)
        if t.get_num_scalable_dims():
            return
        n = t.get_shape()[0]
        i64_vec = VectorType(i64, [n])
        dense = DenseIntOrFPElementsAttr.from_list(
            VectorType(IndexType(), [n]), list(range(n))
        )
        rewriter.replace(
            op,
            [
                const := llvm.ConstantOp(dense, i64_vec),
                UnrealizedConversionCastOp.create(
                    operands=[const.result], result_types=[t]
                ),
            ],
        )


_INT_REDUCTIONS = {
    "add": llvm_vector.VectorReduceAddOp,
    "mul": llvm_vector.VectorReduceMulOp,
    "and": llvm_vector.VectorReduceAndOp,
    "or": llvm_vector.VectorReduceOrOp,
    "xor": llvm_vector.VectorReduceXorOp,
    "maxsi": llvm_vector.VectorReduceSMaxOp,
    "minsi": llvm_vector.VectorReduceSMinOp,
    "maxui": llvm_vector.VectorReduceUMaxOp,
    "minui": llvm_vector.VectorReduceUMinOp,
}
_INT_COMBINE = {
    "add": llvm.AddOp,
    "mul": llvm.MulOp,
    "and": llvm.AndOp,
    "or": llvm.OrOp,
    "xor": llvm.XOrOp,
}
_FLOAT_MINMAX = {
    "maxnumf": (llvm_vector.VectorReduceFMaxOp, ours_llvm.MaxNumOp),
    "minnumf": (llvm_vector.VectorReduceFMinOp, ours_llvm.MinNumOp),
    "maximumf": (llvm_vector.VectorReduceFMaximumOp, ours_llvm.MaximumOp),
    "minimumf": (llvm_vector.VectorReduceFMinimumOp, ours_llvm.MinimumOp),
}


@dataclass
class LowerReduction(RewritePattern):
    reassociate_fp_reductions: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.ReductionOp, rewriter: PatternRewriter):
        if not _is_1d(op.vector.type):
            return
        kind = op.kind.data.value
        element = op.dest.type
        if isinstance(element, IntegerType | IndexType):
            if isinstance(element, IndexType) or kind not in _INT_REDUCTIONS:
                return
            reduced = _INT_REDUCTIONS[kind](op.vector)
            rewriter.insert(reduced)
            result = reduced.results[0]
            if op.acc is not None:
                if kind not in _INT_COMBINE:
                    return self._combine_minmax(op, rewriter, reduced, kind)
                combine = _INT_COMBINE[kind](op.acc, result)
                rewriter.insert(combine)
                result = combine.results[0]
            rewriter.replace(op, [], [result])
            return
        if kind in ("add", "mul"):
            acc = op.acc
            if acc is None:
                assert isinstance(element, AnyFloat)
                start = llvm.ConstantOp(
                    FloatAttr(0.0 if kind == "add" else 1.0, element), element
                )
                rewriter.insert(start)
                acc = start.result
            flags = llvm.FastMathAttr(
                frozenset([FastMathFlag.REASSOC])
                if self.reassociate_fp_reductions
                else None
            )
            cls = llvm.VectorReduceFAddOp if kind == "add" else llvm.VectorReduceFMulOp
            rewriter.replace(op, cls(acc, op.vector, flags))
            return
        if kind in _FLOAT_MINMAX:
            reduce_cls, combine_cls = _FLOAT_MINMAX[kind]
            reduced = reduce_cls(op.vector)
            rewriter.insert(reduced)
            result = reduced.results[0]
            if op.acc is not None:
                combine = combine_cls(result, op.acc)  # pyright: ignore[reportCallIssue]
                rewriter.insert(combine)
                result = combine.results[0]
            rewriter.replace(op, [], [result])

    @staticmethod
    def _combine_minmax(
        op: vector.ReductionOp,
        rewriter: PatternRewriter,
        reduced: Operation,
        kind: str,
    ) -> None:
        assert op.acc is not None
        predicate = {"maxsi": "sgt", "minsi": "slt", "maxui": "ugt", "minui": "ult"}[
            kind
        ]
        cmp = llvm.ICmpOp(op.acc, reduced.results[0], IntegerAttr(_ICMP[predicate], 64))
        rewriter.insert(cmp)
        rewriter.replace(op, ours_llvm.SelectOp(cmp, op.acc, reduced.results[0]))


_ICMP = {"slt": 2, "sgt": 4, "ult": 6, "ugt": 8}
"""``llvm.icmp`` predicates by their number (upstream's enum)."""


_PUNCTUATION_CALLS = {
    Punctuation.NEWLINE: "printNewline",
    Punctuation.COMMA: "printComma",
    Punctuation.OPEN: "printOpen",
    Punctuation.CLOSE: "printClose",
}


@dataclass
class LowerPrint(RewritePattern):
    module: ModuleOp

    def _call(self, name: str, args: list[SSAValue], rewriter: PatternRewriter) -> None:
        if SymbolTable.lookup_symbol(self.module, name) is None:
            fn = llvm.FuncOp(
                name,
                llvm.LLVMFunctionType([a.type for a in args]),
                linkage=llvm.LinkageAttr("external"),
            )
            block = self.module.body.block
            if block.first_op is None:
                block.add_op(fn)
            else:
                block.insert_op_before(fn, block.first_op)
        rewriter.insert(llvm.CallOp(name, *args))

    def _string(self, text: str, rewriter: PatternRewriter) -> None:
        """``print str``: a private constant global of the bytes and a NUL (named
        ``vector_print_str``, ``vector_print_str_0``, ... as upstream), passed to
        ``printString``."""
        data = [*text.encode(), 0]
        array = llvm.LLVMArrayType(len(data), IntegerType(8))
        name, n = "vector_print_str", 0
        while SymbolTable.lookup_symbol(self.module, name) is not None:
            name, n = f"vector_print_str_{n}", n + 1
        glob = llvm.GlobalOp(
            array,
            name,
            "private",
            constant=True,
            value=DenseIntOrFPElementsAttr.from_list(
                TensorType(IntegerType(8), [len(data)]), data
            ),
        )
        block = self.module.body.block
        if block.first_op is None:
            block.add_op(glob)
        else:
            block.insert_op_before(glob, block.first_op)
        address = llvm.AddressOfOp(name, llvm.LLVMPointerType())
        rewriter.insert(address)
        gep = llvm.GEPOp(address, [0], array)
        rewriter.insert(gep)
        self._call("printString", [gep.result], rewriter)

    def _scalar(self, value: SSAValue, rewriter: PatternRewriter) -> bool:
        """The call that prints one scalar, as upstream picks it: ``f16``/``bf16``
        by their bits, ``index`` as unsigned, an unsigned integer zero-extended to
        ``printU64``, a signless or signed one sign-extended to ``printI64``
        (``i1`` zero-extended, so that true prints as 1); ``False`` for other
        types (a vector is looped over by convert-vector-to-scf first)."""
        t = value.type
        if isinstance(t, Float32Type | Float64Type):
            self._call(f"printF{t.bitwidth}", [value], rewriter)
        elif isinstance(t, Float16Type | BFloat16Type):
            bits = llvm.BitcastOp(value, IntegerType(16))
            rewriter.insert(bits)
            name = "printF16" if isinstance(t, Float16Type) else "printBF16"
            self._call(name, [bits.results[0]], rewriter)
        elif isinstance(t, IndexType):
            self._call("printU64", [_index_to_i64(value, rewriter)], rewriter)
        elif isinstance(t, IntegerType) and t.width.data <= 64:
            unsigned = t.signedness.data == Signedness.UNSIGNED
            if t.signedness.data != Signedness.SIGNLESS:  # LLVM's integers are
                signless = IntegerType(t.width.data)
                cast = UnrealizedConversionCastOp.create(
                    operands=[value], result_types=[signless]
                )
                rewriter.insert(cast)
                value = cast.results[0]
            if t.width.data < 64:
                # llvm.zext/sext where upstream creates arith.extui/extsi: the same
                # instruction once lowered, and nothing left for convert-arith-to-llvm
                # when this runs inside gpu-to-llvm's single walk.
                zext = unsigned or t.width.data == 1
                ext = (llvm.ZExtOp if zext else llvm.SExtOp)(value, i64)
                rewriter.insert(ext)
                value = ext.results[0]
            self._call("printU64" if unsigned else "printI64", [value], rewriter)
        else:
            return False
        return True

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.PrintOp, rewriter: PatternRewriter):
        if op.stringLiteral is not None:
            self._string(op.stringLiteral.data, rewriter)
            rewriter.erase(op)
            return
        if op.source is not None and not self._scalar(op.source, rewriter):
            return
        punctuation = op.punctuation.data
        if punctuation in _PUNCTUATION_CALLS:
            self._call(_PUNCTUATION_CALLS[punctuation], [], rewriter)
        rewriter.erase(op)


def vector_to_llvm_patterns(
    options: MemRefLoweringOptions,
    *,
    reassociate_fp_reductions: bool = False,
    use_vector_alignment: bool = False,
) -> list[RewritePattern]:
    """The vector → LLVM lowerings that need no module-level declarations (all but
    ``print``): upstream's ``populateVectorToLLVMConversionPatterns``, also run by
    convert-gpu-to-nvvm inside each ``gpu.module``."""
    return [
        *vector_memory_patterns(options, use_vector_alignment),
        *gather_scatter_patterns(options, use_vector_alignment),
        *nd_vector_patterns(options.converter),
        *shuffle_patterns(),
        LowerBroadcast(),
        LowerExtract(),
        LowerInsert(),
        LowerShuffle(),
        LowerFma(),
        LowerBitcast(),
        LowerFromElements(),
        LowerStep(),
        *scalable_patterns(),
        LowerMaskedReduction(),
        LowerReduction(reassociate_fp_reductions),
    ]


_CONTRACT = ("dot", "outerproduct", "parallelarith", "llvmintr")
_TRANSPOSE = ("eltwise", "shuffle1d", "llvmintr")


@dataclass(frozen=True)
class ConvertVectorToLLVMPass(UpstreamOptions, ModulePass):
    """Lower 1-D ``vector`` ops to ``llvm`` (see the module docstring).

    Options (upstream's): ``reassociate-fp-reductions`` lets ``fadd``/``fmul``
    reductions reassociate; ``use-vector-alignment`` aligns accesses without an
    ``alignment`` to the vector type instead of the memref's element type;
    ``force-32bit-vector-indices`` (``i32`` mask lanes); ``vector-contract-lowering``
    (``dot``, ``outerproduct``, ``parallelarith``, ``llvmintr``);
    ``vector-transpose-lowering`` (``eltwise``, ``shuffle1d``, ``llvmintr``).
    """

    name = "convert-vector-to-llvm"

    reassociate_fp_reductions: bool = False
    force_32bit_vector_indices: bool = True
    use_vector_alignment: bool = False
    vector_contract_lowering: str = "dot"
    vector_transpose_lowering: str = "eltwise"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for option, value, known in (
            ("vector-contract-lowering", self.vector_contract_lowering, _CONTRACT),
            ("vector-transpose-lowering", self.vector_transpose_lowering, _TRANSPOSE),
        ):
            if value not in known:
                raise PassFailedException(
                    f"{self.name}: {option}={value}: xdsl-gpu implements "
                    f"{', '.join(known)} (upstream also has other strategies)"
                )
        check_masked_ops(op, self.name)
        converter = LLVMTypeConverter.for_pass(self.name, 64, None)
        options = MemRefLoweringOptions(converter, pass_name=self.name)
        patterns = vector_to_llvm_patterns(
            options,
            reassociate_fp_reductions=self.reassociate_fp_reductions,
            use_vector_alignment=self.use_vector_alignment,
        )
        # Upstream's vector transforms before the conversion: 1-D transfers become
        # (masked) loads and stores, masks comparisons of a step vector.
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [
                    TransferReadToLoad(),
                    TransferWriteToStore(),
                    LowerCreateMask(self.force_32bit_vector_indices),
                    LowerConstantMask(),
                    *mask_canonicalization_patterns(),
                    LowerContraction(self.vector_contract_lowering),
                    LowerMaskedOuterProduct(),
                    LowerOuterProduct(),
                    LowerMultiReduction(),
                    LowerTranspose(self.vector_transpose_lowering),
                    *nd_unroll_patterns(),
                ]
            )
        ).rewrite_module(op)
        PatternRewriteWalker(
            GreedyRewritePatternApplier([*patterns, LowerPrint(op)]),
            apply_recursively=False,
        ).rewrite_module(op)


__all__ = ["ConvertVectorToLLVMPass", "vector_to_llvm_patterns"]
