"""Math → libdevice calls, and ``cf.assert`` → ``__assertfail``.

Each ``math`` op with a libdevice function (and ``arith.remf``/``maxnumf``/``minnumf``)
becomes ``llvm.call @__nv_<name>``, declared as an external ``llvm.func`` right before
the first function that uses it (upstream's ``populateLibDeviceConversionPatterns``):

* ``f32`` calls the ``f``-suffixed function (``__nv_expf``), ``f64`` the base one
  (``__nv_exp``); ``f16``/``bf16`` are extended to ``f32``, call the ``f32`` function
  and are truncated back;
* ``f32`` with ``fastmath<afn>`` (or ``fast``) calls ``__nv_fast_*`` where libdevice
  has one (``exp log log2 log10 sin cos tan pow``, and ``sincos``);
* ``isnan``/``isinf``/``isfinite`` call an ``i32`` function and compare it with 0;
  ``absi`` on ``i32`` calls ``__nv_abs``; ``sincos`` passes two stack slots (allocated
  at the function entry);
* vectors are done element by element.

Beyond MLIR 22: math ops without a libdevice function (``trunc``, ``ctlz``, ``ctpop``
...) become LLVM intrinsics here (``convert-math-to-llvm``'s patterns; upstream leaves
them for ``gpu-to-llvm``), and the LLVM intrinsics that upstream declares illegal in a
``gpu.module`` (``llvm.intr.exp``, ``cos``, ``pow``, ``sqrt``, ``fabs``, ``floor``,
... and ``llvm.frem``; upstream fails with "failed to legalize") become the same
libdevice calls.

``cf.assert %c, "msg"``: on failure, ``__assertfail(msg, file, line, function, 1)``
(CUDA's ``assert``; ``passthrough = ["noreturn"]``) with the file and line of the op's
location (``(unknown)`` and 0 without one), then execution continues, as upstream.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import cf
from xdsl.dialects.builtin import (
    BFloat16Type,
    FileLineColLoc,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerAttr,
    VectorType,
    f32,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from xdsl_gpu.gpu_dialect import llvm
from xdsl_gpu.passes.gpu_to_nvvm_patterns.common import (
    NVVMLowering,
    at_function_entry,
    i32_constant,
    int_constant,
    legalize_error,
    string_pointer,
)
from xdsl_gpu.passes.llvm_type_converter import (
    convert_operands,
    replace_by_one,
    replace_op,
    to_llvm,
    unroll_nd_vector,
)


@dataclass(frozen=True)
class LibdeviceFunction:
    """The libdevice functions of one op."""

    f32: str
    f64: str
    fast_f32: str | None = None
    returns_int: bool = False
    """A classification: the function returns ``i32``, the op ``i1``."""


def _f(name: str, fast: bool = False) -> LibdeviceFunction:
    """``__nv_<name>f`` / ``__nv_<name>`` (and ``__nv_fast_<name>f``)."""
    return LibdeviceFunction(
        f"__nv_{name}f", f"__nv_{name}", f"__nv_fast_{name}f" if fast else None
    )


LIBDEVICE: dict[str, LibdeviceFunction] = {
    "arith.remf": _f("fmod"),
    "arith.maxnumf": _f("fmax"),
    "arith.minnumf": _f("fmin"),
    "math.absf": _f("fabs"),
    "math.acos": _f("acos"),
    "math.acosh": _f("acosh"),
    "math.asin": _f("asin"),
    "math.asinh": _f("asinh"),
    "math.atan": _f("atan"),
    "math.atan2": _f("atan2"),
    "math.atanh": _f("atanh"),
    "math.cbrt": _f("cbrt"),
    "math.ceil": _f("ceil"),
    "math.copysign": _f("copysign"),
    "math.cos": _f("cos", fast=True),
    "math.cosh": _f("cosh"),
    "math.erf": _f("erf"),
    "math.erfc": _f("erfc"),
    "math.exp": _f("exp", fast=True),
    "math.exp2": _f("exp2"),
    "math.expm1": _f("expm1"),
    "math.floor": _f("floor"),
    "math.fma": _f("fma"),
    "math.isfinite": LibdeviceFunction("__nv_finitef", "__nv_isfinited", None, True),
    "math.isinf": LibdeviceFunction("__nv_isinff", "__nv_isinfd", None, True),
    "math.isnan": LibdeviceFunction("__nv_isnanf", "__nv_isnand", None, True),
    "math.log": _f("log", fast=True),
    "math.log10": _f("log10", fast=True),
    "math.log1p": _f("log1p"),
    "math.log2": _f("log2", fast=True),
    "math.powf": _f("pow", fast=True),
    "math.fpowi": LibdeviceFunction("__nv_powif", "__nv_powi"),
    "math.round": _f("round"),
    "math.roundeven": _f("rint"),
    "math.rsqrt": _f("rsqrt"),
    "math.sin": _f("sin", fast=True),
    "math.sinh": _f("sinh"),
    "math.sqrt": _f("sqrt"),
    "math.tan": _f("tan", fast=True),
    "math.tanh": _f("tanh"),
}
"""Op name → its libdevice functions (upstream's table)."""

ILLEGAL_INTRINSICS: dict[str, str] = {
    "llvm.intr.fabs": "math.absf",
    "llvm.intr.ceil": "math.ceil",
    "llvm.intr.floor": "math.floor",
    "llvm.intr.cos": "math.cos",
    "llvm.intr.sin": "math.sin",
    "llvm.intr.exp": "math.exp",
    "llvm.intr.exp2": "math.exp2",
    "llvm.intr.log": "math.log",
    "llvm.intr.log10": "math.log10",
    "llvm.intr.log2": "math.log2",
    "llvm.intr.pow": "math.powf",
    "llvm.intr.sqrt": "math.sqrt",
    "llvm.intr.copysign": "math.copysign",
    "llvm.intr.round": "math.round",
    "llvm.intr.roundeven": "math.roundeven",
    "llvm.frem": "arith.remf",
}
"""LLVM ops that upstream declares illegal in a gpu.module → the op whose libdevice
function replaces them."""

_ABS_I32 = "__nv_abs"


def _fast(op: Operation) -> bool:
    flags = op.properties.get("fastmath") or op.properties.get("fastmathFlags")
    data = getattr(flags, "data", None)
    if not isinstance(data, frozenset | set | tuple):
        return False
    names = {getattr(f, "value", f) for f in data}  # pyright: ignore
    return "afn" in names or "fast" in names


def _compute_type(t: Attribute) -> Attribute | None:
    """The type libdevice computes ``t`` in, or ``None`` if it has no function."""
    if isinstance(t, Float16Type | BFloat16Type):
        return f32
    if isinstance(t, Float32Type | Float64Type):
        return t
    return None


@dataclass
class LibdeviceLowering(RewritePattern):
    lowering: NVVMLowering

    acts_on_names = (*LIBDEVICE, *ILLEGAL_INTRINSICS, "math.absi", "math.sincos")

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        name = ILLEGAL_INTRINSICS.get(op.name, op.name)
        if op.name == "math.absi":
            self._abs_i32(op, rewriter)
            return
        if op.name == "math.sincos":
            self._sincos(op, rewriter)
            return
        function = LIBDEVICE.get(name)
        if function is None or len(op.results) != 1:
            return
        operand_type = op.operands[0].type
        element = (
            operand_type.get_element_type()
            if isinstance(operand_type, VectorType)
            else operand_type
        )
        if _compute_type(element) is None:
            return  # f80/f128/...: left to the LLVM intrinsic lowering
        if name == "math.fpowi" and op.operands[1].type != i32:
            return  # libdevice's powi takes an i32 exponent
        if self._in_place(op, function, rewriter):
            return
        operands = convert_operands(self.lowering.converter, op, rewriter)
        result_types = self.lowering.converter.convert_types(r.type for r in op.results)
        if operands is None or result_types is None:
            raise legalize_error(op, "its types have no LLVM form")
        (result_type,) = result_types
        fast = _fast(op)
        new_ops: list[Operation] = []
        if isinstance(result_type, llvm.LLVMArrayType):
            new_ops, value = unroll_nd_vector(
                operands,
                result_type,
                lambda leaves, t: self._vector(op, function, fast, leaves, t),
            )
        elif isinstance(result_type, VectorType):
            new_ops = self._vector(op, function, fast, operands, result_type)
            value = new_ops[-1].results[0]
        else:
            value = self._call(op, function, fast, operands, result_type, new_ops)
        replace_op(op, new_ops, [value], rewriter)

    def _in_place(
        self, op: Operation, function: LibdeviceFunction, rewriter: PatternRewriter
    ) -> bool:
        """An ``f32``/``f64`` op whose types convert to themselves, with a function
        of its own type: the op made its call in place (``replace_by_one``), as
        :meth:`_call` and ``replace_op`` would leave it (building the call and
        replacing the op was most of the lowering of a kernel's math)."""
        (result,) = op.results
        t = result.type
        operands = op.operands
        if function.returns_int or not isinstance(t, Float32Type | Float64Type):
            return False
        convert = self.lowering.converter.convert_type
        if operands[0].type != t or convert(t) != t:
            return False
        if any(convert(o.type) != o.type for o in operands):
            return False
        if t == f32:
            fast = _fast(op)
            name = function.fast_f32 if fast and function.fast_f32 else function.f32
        else:
            name = function.f64
        if self.lowering.declared_function(name) is None:
            self.lowering.declare_function(
                name, llvm.LLVMFunctionType([o.type for o in operands], t), op
            )
        properties = llvm.direct_call_properties(name, len(operands))
        return replace_by_one(op, llvm.CallOp, properties, rewriter)

    def _vector(
        self,
        op: Operation,
        function: LibdeviceFunction,
        fast: bool,
        operands: Sequence[SSAValue],
        t: Attribute,
    ) -> list[Operation]:
        """One call per element of a 1-D vector (upstream's
        ``ScalarizeVectorOpLowering``)."""
        assert isinstance(t, VectorType)
        ops: list[Operation] = [result := llvm.PoisonOp(t)]
        value: SSAValue = result.results[0]
        scalar_type = t.get_element_type()
        for i in range(t.element_count()):
            ops.append(position := llvm.ConstantOp(IntegerAttr(i, i64), i64))
            leaves: list[SSAValue] = []
            for operand in operands:
                if isinstance(operand.type, VectorType):
                    ops.append(e := llvm.ExtractElementOp(operand, position))
                    leaves.append(e.results[0])
                else:
                    leaves.append(operand)
            element = self._call(op, function, fast, leaves, scalar_type, ops)
            ops.append(ins := llvm.InsertElementOp(value, element, position))
            value = ins.results[0]
        return ops

    def _call(
        self,
        op: Operation,
        function: LibdeviceFunction,
        fast: bool,
        operands: Sequence[SSAValue],
        result_type: Attribute,
        ops: list[Operation],
    ) -> SSAValue:
        """Append the call of the scalar function (with the extensions and the
        truncation or comparison around it) to ``ops``; returns the result."""
        source = operands[0].type
        compute = _compute_type(source)
        assert compute is not None
        args: list[SSAValue] = []
        for v in operands:
            if v.type == source and compute != source:
                ops.append(ext := llvm.FPExtOp(v, compute))
                args.append(ext.results[0])
            else:
                args.append(v)
        if compute == f32:
            name = function.fast_f32 if fast and function.fast_f32 else function.f32
        else:
            name = function.f64
        returns = i32 if function.returns_int else compute
        if self.lowering.declared_function(name) is None:
            self.lowering.declare_function(
                name, llvm.LLVMFunctionType([a.type for a in args], returns), op
            )
        ops.append(call := llvm.CallOp(name, *args, return_type=returns))
        value = call.results[0]
        if function.returns_int:
            ops.append(zero := llvm.ConstantOp(IntegerAttr(0, i32), i32))
            ops.append(
                cmp := llvm.ICmpOp(
                    value,
                    zero.results[0],
                    IntegerAttr(llvm.ICmpPredicateFlag("ne").to_int(), i64),
                )
            )
            return cmp.results[0]
        if compute != result_type:
            ops.append(trunc := llvm.FPTruncOp(value, result_type))
            return trunc.results[0]
        return value

    def _abs_i32(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.operands[0].type != i32:
            return  # other widths: llvm.intr.abs
        operand = to_llvm(op.operands[0], i32, rewriter)
        self.lowering.declare_function(_ABS_I32, llvm.LLVMFunctionType([i32], i32), op)
        call = llvm.CallOp(_ABS_I32, operand, return_type=i32)
        replace_op(op, [call], [call.results[0]], rewriter)

    def _sincos(self, op: Operation, rewriter: PatternRewriter) -> None:
        source = op.operands[0].type
        compute = _compute_type(source)
        if compute is None:
            return
        operand = to_llvm(op.operands[0], source, rewriter)
        if compute == f32:
            name = "__nv_fast_sincosf" if _fast(op) else "__nv_sincosf"
        else:
            name = "__nv_sincos"
        ptr = llvm.LLVMPointerType()
        entry = Builder(at_function_entry(op))
        one = i32_constant(entry, 1)
        sin_slot = entry.insert(_alloca(one, compute)).results[0]
        cos_slot = entry.insert(_alloca(one, compute)).results[0]
        builder = Builder(InsertPoint.before(op))
        if compute != source:
            operand = builder.insert(llvm.FPExtOp(operand, compute)).results[0]
        self.lowering.declare_function(
            name, llvm.LLVMFunctionType([compute, ptr, ptr]), op
        )
        builder.insert(llvm.CallOp(name, operand, sin_slot, cos_slot))
        results: list[SSAValue] = []
        for slot in (sin_slot, cos_slot):
            value = builder.insert(llvm.LoadOp(slot, compute)).results[0]
            if compute != source:
                value = builder.insert(llvm.FPTruncOp(value, source)).results[0]
            results.append(value)
        replace_op(op, [], results, rewriter)


def _alloca(count: SSAValue, t: Attribute) -> llvm.AllocaOp:
    return llvm.AllocaOp.create(
        operands=[count],
        properties={"elem_type": t},
        result_types=[llvm.LLVMPointerType()],
    )


# -- cf.assert -----------------------------------------------------------------------

ASSERTFAIL = "__assertfail"


@dataclass
class AssertLowering(RewritePattern):
    """``cf.assert`` → a branch to a call of ``__assertfail``."""

    lowering: NVVMLowering

    acts_on = (cf.AssertOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, cf.AssertOp):
            return
        block = op.parent_block()
        assert block is not None
        region = block.parent
        assert region is not None
        condition = to_llvm(op.arg, i1, rewriter)

        file_name, line, function_name = "(unknown)", 0, "(unknown)"
        loc = op.location
        if isinstance(loc, FileLineColLoc):
            file_name, line = loc.filename.data, loc.line.data

        ptr = llvm.LLVMPointerType()
        self.lowering.declare_function(
            ASSERTFAIL,
            llvm.LLVMFunctionType([ptr, ptr, i32, ptr, i64]),
            passthrough=["noreturn"],
        )
        message = self.lowering.string_global("assert_message", op.msg.data)
        file = self.lowering.string_global("assert_file", file_name)
        function = self.lowering.string_global("assert_func", function_name)

        continuation = Block()
        failure = Block()
        region.insert_block_after(continuation, block)
        region.insert_block_after(failure, block)
        following = op.next_op
        while following is not None:
            nxt = following.next_op
            following.detach()
            continuation.add_op(following)
            following = nxt

        builder = Builder(InsertPoint.at_end(failure))
        args = [
            string_pointer(builder, message),
            string_pointer(builder, file),
            i32_constant(builder, line),
            string_pointer(builder, function),
            int_constant(builder, 1, i64),
        ]
        builder.insert(llvm.CallOp(ASSERTFAIL, *args))
        builder.insert(llvm.BrOp(continuation))
        rewriter.replace(
            op, llvm.CondBrOp(condition, continuation, [], failure, []), []
        )


def libdevice_patterns(lowering: NVVMLowering) -> list[RewritePattern]:
    return [LibdeviceLowering(lowering), AssertLowering(lowering)]


__all__ = [
    "ASSERTFAIL",
    "ILLEGAL_INTRINSICS",
    "LIBDEVICE",
    "libdevice_patterns",
]
