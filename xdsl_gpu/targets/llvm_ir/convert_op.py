"""llvm-dialect (and nvvm) operations → LLVM IR instructions.

The structure is xDSL's ``xdsl/backend/llvm/convert_op.py``: tables for the regular
families, one function per op that needs its own, and one dispatch, ``convert_op``.
The differences:

* dispatch is on the op *name*, so ops built from xDSL's classes and from ours
  (``xdsl_gpu.gpu_dialect.llvm``, which replaces some of xDSL's) translate alike;
* instructions are written as LLVM IR text, not through ``llvmlite.ir``'s builder,
  which cannot express syncscopes, GEP ``nuw``, ``ptx_kernel`` function attributes,
  ``bfloat``, operand bundles or duplicate switch edges with block arguments;
* intrinsics are one table (``INTRINSICS``): which types mangle the name and which
  properties become immediate arguments;
* an op of another dialect translates as an intrinsic call when its class names the
  intrinsic (``get_llvm_intrinsic()``, or a class attribute ``LLVM_INTRINSIC`` /
  ``llvm_intrinsic``): the operands are the arguments, followed by the class
  constant ``LLVM_IMMEDIATE_ARGS`` (``(("i32", 0),)``) if it has one; the result is
  the return value, with a ``range`` property as the call's ``range(...)`` return
  attribute. An op that needs more defines ``llvm_ir(self, emitter:
  FunctionEmitter)`` and writes its own instructions with ``emitter.call_intrinsic``,
  ``emitter.define``, ``emitter.ref``...
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    VectorType,
)
from xdsl.dialects.llvm import (
    GEP_USE_SSA_VAL,
    ICmpPredicateFlag,
    LLVMArrayType,
    LLVMPointerType,
    LLVMStructType,
    LLVMVoidType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from xdsl_gpu.diagnostics import at_op, lowering_hint
from xdsl_gpu.gpu_dialect.llvm import (
    ATOMIC_BIN_OPS,
    ATOMIC_ORDERING_NAMES,
    FCmpPredicateFlag,
    OverflowAttr,
)
from xdsl_gpu.gpu_dialect.nvvm.ptx_builder import llvm_ir_string
from xdsl_gpu.targets.llvm_ir.convert_type import (
    LLVMIRTranslationError,
    convert_type,
    intrinsic_suffix,
    store_size,
)

if TYPE_CHECKING:
    from xdsl_gpu.targets.llvm_ir.convert_module import ModuleEmitter


# --------------------------------------------------------------------------------------
# Constants
# --------------------------------------------------------------------------------------


def float_literal(value: float, t: Attribute) -> str:
    """A float constant of type ``t`` in the exact hexadecimal form LLVM IR takes."""
    if isinstance(t, Float64Type):
        return f"0x{struct.unpack('<Q', struct.pack('<d', value))[0]:016X}"
    if isinstance(t, Float32Type):
        narrowed = struct.unpack("<f", struct.pack("<f", value))[0]
        return f"0x{struct.unpack('<Q', struct.pack('<d', narrowed))[0]:016X}"
    if isinstance(t, Float16Type):
        return f"0xH{struct.unpack('<H', struct.pack('<e', value))[0]:04X}"
    if isinstance(t, BFloat16Type):
        bits = struct.unpack("<I", struct.pack("<f", value))[0]
        if math.isnan(value):
            return f"0xR{(bits >> 16) | 0x40:04X}"
        bits += 0x7FFF + ((bits >> 16) & 1)  # round to nearest even
        return f"0xR{(bits >> 16) & 0xFFFF:04X}"
    raise LLVMIRTranslationError(f"no float constants of type {t} here")


def int_literal(value: int, t: Attribute) -> str:
    if isinstance(t, IntegerType) and t.width.data == 1:
        return "true" if value & 1 else "false"
    return str(value)


def string_literal(data: bytes) -> str:
    """``c"..."`` with LLVM's escapes."""
    return (
        'c"'
        + "".join(
            chr(b) if 0x20 <= b < 0x7F and b not in (0x22, 0x5C) else f"\\{b:02X}"
            for b in data
        )
        + '"'
    )


def _scalar_literal(value: int | float, t: Attribute) -> str:
    if isinstance(t, IntegerType):
        return int_literal(int(value), t)
    if isinstance(t, LLVMPointerType):
        if value != 0:
            raise LLVMIRTranslationError("pointer constants other than null")
        return "null"
    return float_literal(float(value), t)


def _aggregate_from_flat(values: Iterator[int | float], t: Attribute) -> str:
    """Fill a (nested) array or vector type with values in row-major order."""
    if isinstance(t, LLVMArrayType):
        elts = [
            f"{convert_type(t.type)} {_aggregate_from_flat(values, t.type)}"
            for _ in range(t.size.data)
        ]
        return "[" + ", ".join(elts) + "]"
    if isinstance(t, VectorType):
        et = t.element_type
        elts = [
            f"{convert_type(et)} {_scalar_literal(next(values), et)}"
            for _ in range(t.get_shape()[0])
        ]
        return "<" + ", ".join(elts) + ">"
    return _scalar_literal(next(values), t)


def _flat_count(t: Attribute) -> int:
    if isinstance(t, LLVMArrayType):
        return t.size.data * _flat_count(t.type)
    if isinstance(t, VectorType):
        return t.get_shape()[0]
    return 1


def constant_literal(value: Attribute, t: Attribute) -> str:
    """The LLVM IR constant (without its type) for an attribute of a
    ``llvm.mlir.constant`` or a global's initializer, of LLVM type ``t``."""
    convert_type(t)  # refuses types without an LLVM IR form (index) by name
    if isinstance(value, IntegerAttr | FloatAttr) and isinstance(t, VectorType):
        # A scalar for a vector is a splat (mlir-translate's reading; the WMMA
        # maxf/minf lowering writes its NaN this way, as upstream's).
        return _aggregate_from_flat(iter([value.value.data] * _flat_count(t)), t)
    if isinstance(value, IntegerAttr):
        return _scalar_literal(value.value.data, t)
    if isinstance(value, FloatAttr):
        return float_literal(value.value.data, t)
    if isinstance(value, StringAttr):
        return string_literal(value.data.encode("latin-1"))
    if isinstance(value, DenseIntOrFPElementsAttr):
        flat: list[Any] = list(value.get_values())
        n = _flat_count(t)
        if len(flat) == 1 and n != 1:
            flat = flat * n
        if len(flat) != n:
            raise LLVMIRTranslationError(
                f"{n} elements expected for type {t}, the constant has {len(flat)}"
            )
        return _aggregate_from_flat(iter(flat), t)
    if isinstance(value, ArrayAttr) and isinstance(t, LLVMStructType):
        parts = [
            f"{convert_type(et)} {constant_literal(v, et)}"
            for v, et in zip(value.data, t.types.data, strict=True)
        ]
        return "{ " + ", ".join(parts) + " }"
    if isinstance(value, ArrayAttr) and isinstance(t, LLVMArrayType):
        parts = [f"{convert_type(t.type)} {constant_literal(v, t.type)}" for v in value]
        return "[" + ", ".join(parts) + "]"
    if isinstance(value, DenseArrayBase) and isinstance(t, LLVMArrayType | VectorType):
        return _aggregate_from_flat(iter(value.get_values()), t)
    if value.name == "llvm.zero":
        return "zeroinitializer"
    raise LLVMIRTranslationError(f"no LLVM IR constant for {value} of type {t}")


# --------------------------------------------------------------------------------------
# Intrinsics
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class IntrinsicSpec:
    """How a ``llvm.intr.*`` op becomes a call.

    ``overloads``: the types that mangle the name, in order: ``"r"`` for the result,
    an int for that operand. ``immargs``: properties passed as trailing immediate
    arguments, with their LLVM type. ``name``: the intrinsic, when it is not the
    op name without ``.intr``.
    """

    overloads: tuple[str | int, ...] = ("r",)
    immargs: tuple[tuple[str, str], ...] = ()
    name: str | None = None


_UNARY_FLOAT = (
    "fabs sqrt sin cos tan asin acos atan sinh cosh tanh exp exp2 exp10 log log2 "
    "log10 floor ceil trunc round roundeven rint nearbyint canonicalize"
)
_BINARY_FLOAT = "pow copysign minnum maxnum minimum maximum atan2"

INTRINSICS: dict[str, IntrinsicSpec] = {
    **{f"llvm.intr.{n}": IntrinsicSpec() for n in _UNARY_FLOAT.split()},
    **{f"llvm.intr.{n}": IntrinsicSpec() for n in _BINARY_FLOAT.split()},
    "llvm.intr.sincos": IntrinsicSpec((0,)),
    "llvm.intr.fma": IntrinsicSpec(),
    "llvm.intr.fmuladd": IntrinsicSpec(),
    "llvm.intr.powi": IntrinsicSpec(("r", 1)),
    "llvm.intr.ctlz": IntrinsicSpec(immargs=(("is_zero_poison", "i1"),)),
    "llvm.intr.cttz": IntrinsicSpec(immargs=(("is_zero_poison", "i1"),)),
    "llvm.intr.ctpop": IntrinsicSpec(),
    "llvm.intr.bitreverse": IntrinsicSpec(),
    "llvm.intr.bswap": IntrinsicSpec(),
    "llvm.intr.abs": IntrinsicSpec(immargs=(("is_int_min_poison", "i1"),)),
    **{f"llvm.intr.{n}": IntrinsicSpec() for n in ("smin", "smax", "umin", "umax")},
    "llvm.intr.fshl": IntrinsicSpec(),
    "llvm.intr.fshr": IntrinsicSpec(),
    **{
        f"llvm.intr.{n}": IntrinsicSpec(("r", 0))
        for n in ("lround", "llround", "lrint", "llrint")
    },
    **{
        f"llvm.intr.{s}{op}.with.overflow": IntrinsicSpec((0,))
        for s in "su"
        for op in ("add", "sub", "mul")
    },
    "llvm.intr.memcpy": IntrinsicSpec((0, 1, 2), (("isVolatile", "i1"),)),
    "llvm.intr.memmove": IntrinsicSpec((0, 1, 2), (("isVolatile", "i1"),)),
    "llvm.intr.memset": IntrinsicSpec((0, 2), (("isVolatile", "i1"),)),
    "llvm.intr.is.fpclass": IntrinsicSpec((0,), (("bit", "i32"),)),
    "llvm.intr.trap": IntrinsicSpec(()),
    "llvm.intr.debugtrap": IntrinsicSpec(()),
    "llvm.intr.stacksave": IntrinsicSpec(),
    "llvm.intr.stackrestore": IntrinsicSpec((0,)),
    "llvm.intr.vscale": IntrinsicSpec(),
    "llvm.intr.stepvector": IntrinsicSpec(),
    "llvm.intr.vector.reduce.fadd": IntrinsicSpec((1,)),
    "llvm.intr.vector.reduce.fmul": IntrinsicSpec((1,)),
    **{
        f"llvm.intr.vector.reduce.{n}": IntrinsicSpec((0,))
        for n in (
            "add mul and or xor smax smin umax umin fmax fmin fmaximum fminimum"
        ).split()
    },
    # Matrices flattened to vectors (vector-contract/transpose-lowering=llvmintr).
    "llvm.intr.matrix.multiply": IntrinsicSpec(
        ("r", 0, 1),
        (("lhs_rows", "i32"), ("lhs_columns", "i32"), ("rhs_columns", "i32")),
    ),
    "llvm.intr.matrix.transpose": IntrinsicSpec(
        ("r",), (("rows", "i32"), ("columns", "i32"))
    ),
    # Masked reductions (vector.mask of vector.reduction): mangled by the vector.
    **{
        f"llvm.intr.vp.reduce.{n}": IntrinsicSpec((1,))
        for n in "add mul and or xor smax smin umax umin fadd fmul fmax fmin".split()
    },
}
"""Every ``llvm.intr.*`` op translated as a plain call (``assume`` and
the masked loads and stores have their own converters)."""


# --------------------------------------------------------------------------------------
# The per-function emitter
# --------------------------------------------------------------------------------------


@dataclass
class _BlockOut:
    label: str
    lines: list[str] = field(default_factory=list[str])
    phis: list[tuple[str, str, list[tuple[str, str]]]] = field(
        default_factory=list[tuple[str, str, list[tuple[str, str]]]]
    )
    """(name, type, [(value, predecessor label)]) for each block argument."""


class FunctionEmitter:
    """Writes the body of one ``llvm.func``; what op converters build on."""

    def __init__(self, module: ModuleEmitter):
        self.module = module
        self.values: dict[SSAValue, str] = {}
        self._counter = 0
        self._blocks: dict[Block, _BlockOut] = {}
        self._extra_blocks: list[_BlockOut] = []
        self._current: _BlockOut | None = None

    # -- names and operands -----------------------------------------------------------

    def fresh(self, hint: str = "v") -> str:
        self._counter += 1
        return f"%{hint}{self._counter}"

    def ref(self, value: SSAValue) -> str:
        try:
            return self.values[value]
        except KeyError:
            raise LLVMIRTranslationError(
                f"a value of type {value.type} is used before it is defined "
                "(or is defined by an op that was not translated)"
            ) from None

    def typed(self, value: SSAValue) -> str:
        """``<type> <ref>``, as instructions take their operands."""
        return f"{convert_type(value.type)} {self.ref(value)}"

    def label(self, block: Block) -> str:
        return self._blocks[block].label

    # -- emission ---------------------------------------------------------------------

    def emit(self, line: str) -> None:
        assert self._current is not None
        self._current.lines.append(line)

    def define(self, result: SSAValue, rhs: str) -> str:
        """Emit ``%name = rhs`` and bind ``result`` to it."""
        name = self.fresh()
        self.emit(f"{name} = {rhs}")
        self.values[result] = name
        return name

    def bind(self, result: SSAValue, ref: str) -> None:
        """Bind ``result`` to a constant or global (no instruction)."""
        self.values[result] = ref

    def call(
        self,
        callee: str,
        return_type: str,
        args: Sequence[str],
        *,
        result: SSAValue | None = None,
        prefix: str = "",
        return_attrs: str = "",
        suffix: str = "",
    ) -> None:
        """``[result =] call [prefix] [return_attrs] <return_type> callee(args)``."""
        parts = [
            "call",
            prefix,
            return_attrs,
            return_type,
            f"{callee}({', '.join(args)})",
        ]
        rhs = " ".join(p for p in parts if p) + suffix
        if result is None:
            self.emit(rhs)
        else:
            self.define(result, rhs)

    def call_intrinsic(
        self,
        name: str,
        return_type: Attribute | None,
        args: Sequence[tuple[str, str]],
        *,
        result: SSAValue | None = None,
        prefix: str = "",
        return_attrs: str = "",
        suffix: str = "",
    ) -> None:
        """Declare intrinsic ``name`` (once per module) and call it. ``args`` are
        (type, value) pairs; ``return_type`` None is ``void``."""
        ret = "void" if return_type is None else convert_type(return_type)
        callee = self.module.declare(name, ret, [t for t, _ in args])
        self.call(
            callee,
            ret,
            [f"{t} {v}" for t, v in args],
            result=result,
            prefix=prefix,
            return_attrs=return_attrs,
            suffix=suffix,
        )

    def add_incoming(self, dest: Block, operands: Sequence[SSAValue]) -> str:
        """Record the block arguments passed to ``dest`` from the current block and
        return the label to branch to."""
        assert self._current is not None
        out = self._blocks[dest]
        for (_, _, incoming), value in zip(out.phis, operands, strict=True):
            incoming.append((self.ref(value), self._current.label))
        return f"label %{out.label}"

    def successor_targets(
        self, edges: Sequence[tuple[Block, Sequence[SSAValue]]]
    ) -> list[str]:
        """Branch targets for a terminator's edges. LLVM phis have one entry per
        predecessor block, so an edge to a block that this terminator also reaches by
        another edge goes through a new block of its own (as upstream's
        legalize-for-export does)."""
        assert self._current is not None
        here = self._current
        counts: dict[Block, int] = {}
        for dest, _ in edges:
            counts[dest] = counts.get(dest, 0) + 1
        targets: list[str] = []
        for dest, operands in edges:
            if counts[dest] > 1 and self._blocks[dest].phis:
                hop = _BlockOut(self.fresh("edge").lstrip("%"))
                self._extra_blocks.append(hop)
                self._current = hop
                self.emit(f"br {self.add_incoming(dest, operands)}")
                self._current = here
                targets.append(f"label %{hop.label}")
            else:
                targets.append(self.add_incoming(dest, operands))
        return targets

    # -- functions --------------------------------------------------------------------

    def emit_body(self, blocks: Sequence[Block], args: Sequence[str]) -> list[str]:
        """Translate the blocks of a function whose arguments are named ``args``."""
        for i, block in enumerate(blocks):
            out = _BlockOut(f"bb{i}")
            self._blocks[block] = out
            if i == 0:
                for arg, name in zip(block.args, args, strict=True):
                    self.values[arg] = name
                continue
            for arg in block.args:
                name = self.fresh()
                self.values[arg] = name
                out.phis.append((name, convert_type(arg.type), []))
        for block in blocks:
            self._current = self._blocks[block]
            for op in block.ops:
                convert_op(op, self)
        lines: list[str] = []
        for out in [*self._blocks.values(), *self._extra_blocks]:
            lines.append(f"{out.label}:")
            for name, t, incoming in out.phis:
                if not incoming:
                    raise LLVMIRTranslationError(
                        f"block ^{out.label} has arguments but no predecessor"
                    )
                pairs = ", ".join(f"[ {v}, %{p} ]" for v, p in incoming)
                lines.append(f"  {name} = phi {t} {pairs}")
            lines.extend(f"  {line}" for line in out.lines)
        return lines


# --------------------------------------------------------------------------------------
# Converters
# --------------------------------------------------------------------------------------

Converter = Callable[[Any, FunctionEmitter], None]


def _fastmath(op: Operation) -> str:
    fm = op.properties.get("fastmathFlags")
    if fm is None:
        fm = op.attributes.get("fastmathFlags")
    if fm is None or not fm.data:  # pyright: ignore
        return ""
    flags = {f.value for f in fm.data}  # pyright: ignore
    if flags >= {"reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn"}:
        return "fast"
    order = ("reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn")
    return " ".join(f for f in order if f in flags)


def _is_float_like(t: Attribute) -> bool:
    if isinstance(t, VectorType):
        t = t.element_type
    return isinstance(
        t, Float16Type | BFloat16Type | Float32Type | Float64Type
    ) or t.name in ("f80", "f128")


def _int_flags(op: Operation) -> list[str]:
    flags: list[str] = []
    ov = op.properties.get("overflowFlags")
    if isinstance(ov, IntegerAttr):
        ov = OverflowAttr.from_int(ov.value.data)
    if isinstance(ov, OverflowAttr):
        # LLVM's order: nuw before nsw
        flags += [f for f in ("nuw", "nsw") if f in {x.value for x in ov.data}]
    for prop, word in (
        ("isExact", "exact"),
        ("isDisjoint", "disjoint"),
        ("nonNeg", "nneg"),
    ):
        if op.properties.get(prop) is not None:
            flags.append(word)
    return flags


def _binary(opcode: str) -> Converter:
    def convert(op: Operation, f: FunctionEmitter) -> None:
        words = [opcode, *_int_flags(op)]
        if fm := _fastmath(op):
            words.append(fm)
        lhs, rhs = op.operands
        f.define(op.results[0], f"{' '.join(words)} {f.typed(lhs)}, {f.ref(rhs)}")

    return convert


def _cast(opcode: str) -> Converter:
    def convert(op: Operation, f: FunctionEmitter) -> None:
        words = [opcode, *_int_flags(op)]
        if fm := _fastmath(op):
            words.append(fm)
        f.define(
            op.results[0],
            f"{' '.join(words)} {f.typed(op.operands[0])} to "
            f"{convert_type(op.results[0].type)}",
        )

    return convert


def _fneg(op: Operation, f: FunctionEmitter) -> None:
    fm = _fastmath(op)
    f.define(op.results[0], f"fneg {fm + ' ' if fm else ''}{f.typed(op.operands[0])}")


def _icmp(op: Any, f: FunctionEmitter) -> None:
    pred = ICmpPredicateFlag.from_int(op.predicate.value.data).value
    f.define(op.results[0], f"icmp {pred} {f.typed(op.lhs)}, {f.ref(op.rhs)}")


def _fcmp(op: Any, f: FunctionEmitter) -> None:
    pred = FCmpPredicateFlag.from_int(op.predicate.value.data).value.lstrip("_")
    fm = _fastmath(op)
    f.define(
        op.results[0],
        f"fcmp {fm + ' ' if fm else ''}{pred} {f.typed(op.lhs)}, {f.ref(op.rhs)}",
    )


def _select(op: Any, f: FunctionEmitter) -> None:
    fm = _fastmath(op)
    cond, lhs, rhs = op.operands
    f.define(
        op.results[0],
        f"select {fm + ' ' if fm else ''}{f.typed(cond)}, {f.typed(lhs)}, "
        f"{f.typed(rhs)}",
    )


def _freeze(op: Operation, f: FunctionEmitter) -> None:
    f.define(op.results[0], f"freeze {f.typed(op.operands[0])}")


def _constant(op: Any, f: FunctionEmitter) -> None:
    f.bind(op.results[0], constant_literal(op.value, op.results[0].type))


def _literal(text: str) -> Converter:
    def convert(op: Operation, f: FunctionEmitter) -> None:
        t = op.results[0].type
        f.bind(
            op.results[0],
            "null"
            if text == "zeroinitializer" and isinstance(t, LLVMPointerType)
            else text,
        )

    return convert


def _addressof(op: Any, f: FunctionEmitter) -> None:
    name = op.global_name.root_reference.data
    f.bind(op.results[0], f.module.global_ref(name))


def _gep(op: Any, f: FunctionEmitter) -> None:
    flags = op.properties.get("noWrapFlags")
    bits = flags.value.data if isinstance(flags, IntegerAttr) else 0
    if op.properties.get("inbounds") is not None:  # xDSL's GEPOp
        bits |= 3
    words = ["getelementptr"]
    if bits & 3 == 3:
        words.append("inbounds")
    elif bits & 2:
        words.append("nusw")
    if bits & 4:
        words.append("nuw")
    dynamic = iter(op.ssa_indices)
    indices = [
        f.typed(next(dynamic)) if idx == GEP_USE_SSA_VAL else f"i32 {idx}"
        for idx in op.rawConstantIndices.iter_values()
    ]
    f.define(
        op.results[0],
        f"{' '.join(words)} {convert_type(op.elem_type)}, {f.typed(op.ptr)}"
        + "".join(f", {i}" for i in indices),
    )


def _alignment(op: Operation, default: int | None = None) -> str:
    a = op.properties.get("alignment")
    if isinstance(a, IntegerAttr) and a.value.data:
        return f", align {a.value.data}"
    return "" if default is None else f", align {default}"


def _syncscope(op: Operation) -> str:
    scope = op.properties.get("syncscope")
    return f' syncscope("{scope.data}")' if isinstance(scope, StringAttr) else ""


def _ordering(attr: Attribute | None) -> str:
    if not isinstance(attr, IntegerAttr):
        return ""
    return ATOMIC_ORDERING_NAMES.get(attr.value.data, "")


def _metadata(op: Operation, f: FunctionEmitter) -> str:
    out = ""
    if op.properties.get("nontemporal") is not None or "nontemporal" in op.attributes:
        out += f", !nontemporal {f.module.metadata('!{i32 1}')}"
    if op.properties.get("invariant") is not None:
        out += f", !invariant.load {f.module.metadata('!{}')}"
    if op.properties.get("invariantGroup") is not None:
        out += f", !invariant.group {f.module.metadata('!{}')}"
    return out


def _load(op: Any, f: FunctionEmitter) -> None:
    t = op.results[0].type
    volatile = " volatile" if op.properties.get("volatile_") is not None else ""
    ordering = _ordering(op.properties.get("ordering"))
    if ordering and ordering != "not_atomic":
        rhs = (
            f"load atomic{volatile} {convert_type(t)}, {f.typed(op.ptr)}"
            f"{_syncscope(op)} {ordering}{_alignment(op, store_size(t))}"
        )
    else:
        rhs = f"load{volatile} {convert_type(t)}, {f.typed(op.ptr)}{_alignment(op)}"
    f.define(op.results[0], rhs + _metadata(op, f))


def _store(op: Any, f: FunctionEmitter) -> None:
    t = op.value.type
    volatile = " volatile" if op.properties.get("volatile_") is not None else ""
    ordering = _ordering(op.properties.get("ordering"))
    if ordering and ordering != "not_atomic":
        line = (
            f"store atomic{volatile} {f.typed(op.value)}, {f.typed(op.ptr)}"
            f"{_syncscope(op)} {ordering}{_alignment(op, store_size(t))}"
        )
    else:
        line = f"store{volatile} {f.typed(op.value)}, {f.typed(op.ptr)}{_alignment(op)}"
    f.emit(line + _metadata(op, f))


def _alloca(op: Any, f: FunctionEmitter) -> None:
    res_type = op.results[0].type
    space = ""
    if isinstance(res_type, LLVMPointerType) and isinstance(
        res_type.addr_space, IntAttr
    ):
        if res_type.addr_space.data:
            space = f", addrspace({res_type.addr_space.data})"
    f.define(
        op.results[0],
        f"alloca {convert_type(op.elem_type)}, {f.typed(op.size)}{_alignment(op)}"
        f"{space}",
    )


def _atomicrmw(op: Any, f: FunctionEmitter) -> None:
    kind = ATOMIC_BIN_OPS[op.bin_op.value.data].lstrip("_")
    volatile = " volatile" if op.properties.get("volatile_") is not None else ""
    f.define(
        op.results[0],
        f"atomicrmw{volatile} {kind} {f.typed(op.ptr)}, {f.typed(op.val)}"
        f"{_syncscope(op)} {_ordering(op.ordering)}"
        f"{_alignment(op, store_size(op.val.type))}",
    )


def _cmpxchg(op: Any, f: FunctionEmitter) -> None:
    words = "cmpxchg"
    if op.properties.get("weak") is not None:
        words += " weak"
    if op.properties.get("volatile_") is not None:
        words += " volatile"
    f.define(
        op.results[0],
        f"{words} {f.typed(op.ptr)}, {f.typed(op.cmp)}, {f.typed(op.val)}"
        f"{_syncscope(op)} {_ordering(op.success_ordering)} "
        f"{_ordering(op.failure_ordering)}{_alignment(op, store_size(op.val.type))}",
    )


def _fence(op: Any, f: FunctionEmitter) -> None:
    f.emit(f"fence{_syncscope(op)} {_ordering(op.ordering)}")


def _extractvalue(op: Any, f: FunctionEmitter) -> None:
    pos = ", ".join(str(i) for i in op.position.iter_values())
    f.define(op.results[0], f"extractvalue {f.typed(op.container)}, {pos}")


def _insertvalue(op: Any, f: FunctionEmitter) -> None:
    pos = ", ".join(str(i) for i in op.position.iter_values())
    f.define(
        op.results[0],
        f"insertvalue {f.typed(op.container)}, {f.typed(op.value)}, {pos}",
    )


def _extractelement(op: Operation, f: FunctionEmitter) -> None:
    vec, idx = op.operands
    f.define(op.results[0], f"extractelement {f.typed(vec)}, {f.typed(idx)}")


def _insertelement(op: Any, f: FunctionEmitter) -> None:
    f.define(
        op.results[0],
        f"insertelement {f.typed(op.vector)}, {f.typed(op.value)}, {f.typed(op.index)}",
    )


def _shufflevector(op: Any, f: FunctionEmitter) -> None:
    mask = [int(m) for m in op.mask.get_values()]
    if op.results[0].type.get_num_scalable_dims():
        # A scalable shuffle can only splat lane 0 (the verifier of LLVM says so).
        mask_ir = f"<vscale x {len(mask)} x i32> zeroinitializer"
    else:
        elts = ", ".join("i32 poison" if m < 0 else f"i32 {m}" for m in mask)
        mask_ir = f"<{len(mask)} x i32> <{elts}>"
    f.define(
        op.results[0],
        f"shufflevector {f.typed(op.v1)}, {f.typed(op.v2)}, {mask_ir}",
    )


def _return(op: Operation, f: FunctionEmitter) -> None:
    if op.operands:
        f.emit(f"ret {f.typed(op.operands[0])}")
    else:
        f.emit("ret void")


def _br(op: Any, f: FunctionEmitter) -> None:
    (target,) = f.successor_targets([(op.successor, op.arguments)])
    f.emit(f"br {target}")


def _cond_br(op: Any, f: FunctionEmitter) -> None:
    then_t, else_t = f.successor_targets(
        [(op.then_block, op.then_arguments), (op.else_block, op.else_arguments)]
    )
    weights = ""
    if (w := op.properties.get("branch_weights")) is not None:
        values = ", ".join(f"i32 {v}" for v in w.get_values())
        node = '!{!"branch_weights", ' + values + "}"
        weights = f", !prof {f.module.metadata(node)}"
    f.emit(f"br {f.typed(op.cond)}, {then_t}, {else_t}{weights}")


def _switch(op: Any, f: FunctionEmitter) -> None:
    groups = op.case_operand_groups()
    targets = f.successor_targets(
        [
            (op.default_destination, op.default_operands),
            *zip(op.case_destinations, groups, strict=True),
        ]
    )
    t = convert_type(op.value.type)
    cases = "".join(
        f"\n    {t} {int_literal(v, op.value.type)}, {target}"
        for v, target in zip(op.case_value_list(), targets[1:], strict=True)
    )
    f.emit(f"switch {f.typed(op.value)}, {targets[0]} [{cases}\n  ]")


def _call(op: Any, f: FunctionEmitter) -> None:
    args = list(op.args)
    if op.callee is not None:
        callee = f.module.global_ref(op.callee.root_reference.data)
    else:
        callee = f.ref(args.pop(0))
    arg_types = [convert_type(a.type) for a in args]
    ret = "void" if op.returned is None else convert_type(op.returned.type)
    var_type = op.properties.get("var_callee_type")
    fn_type = ret
    if var_type is not None:
        fn_type = convert_type(var_type)
    words: list[str] = []
    tail = op.properties.get("TailCallKind")
    if tail is not None and tail.data.value != "none":
        words.append(tail.data.value)
    words.append("call")
    if op.returned is not None and _is_float_like(op.returned.type):
        if fm := _fastmath(op):
            words.append(fm)
    cconv = op.properties.get("CConv")
    if cconv is not None and cconv.convention.data != "ccc":
        words.append(cconv.convention.data)
    bundles = ""
    sizes = op.properties.get("op_bundle_sizes")
    if op.op_bundle_operands:
        tags = op.properties.get("op_bundle_tags")
        bundles = _bundles(f, op.op_bundle_operands, sizes, tags)
    typed_args = ", ".join(
        f"{t} {f.ref(a)}" for t, a in zip(arg_types, args, strict=True)
    )
    rhs = f"{' '.join(words)} {fn_type} {callee}({typed_args}){bundles}"
    if op.returned is None:
        f.emit(rhs)
    else:
        f.define(op.returned, rhs)


def _bundles(
    f: FunctionEmitter,
    operands: Sequence[SSAValue],
    sizes: DenseArrayBase[IntegerType] | None,
    tags: ArrayAttr | None,
) -> str:
    if sizes is None or tags is None:
        raise LLVMIRTranslationError("operand bundles without sizes or tags")
    parts: list[str] = []
    start = 0
    for tag, size in zip(tags, sizes.get_values(), strict=True):
        ops = operands[start : start + int(size)]
        start += int(size)
        assert isinstance(tag, StringAttr)
        parts.append(f'"{tag.data}"({", ".join(f.typed(o) for o in ops)})')
    return " [ " + ", ".join(parts) + " ]"


def _inline_asm(op: Any, f: FunctionEmitter) -> None:
    ret = "void" if op.res is None else convert_type(op.res.type)
    words = ["asm"]
    if op.has_side_effects is not None:
        words.append("sideeffect")
    if op.is_align_stack is not None:
        words.append("alignstack")
    if op.asm_dialect is not None and op.asm_dialect.value.data == 1:
        words.append("inteldialect")
    # Newlines and tabs of multi-line PTX are escaped too, as LLVM prints them.
    asm = llvm_ir_string(op.asm_string.data)
    cons = llvm_ir_string(op.constraints.data)
    args = ", ".join(f.typed(a) for a in op.operands_)
    rhs = f'call {ret} {" ".join(words)} "{asm}", "{cons}"({args})'
    if op.res is None:
        f.emit(rhs)
    else:
        f.define(op.res, rhs)


def _intrinsic_call_fastmath(op: Any, result: SSAValue | None) -> str:
    """The fast-math flags of an intrinsic call (``nnan ninf``, ``fast``...), for a call
    with a floating-point result; ``""`` otherwise. ``sincos`` returns a struct of
    two floats: still a floating-point call."""
    if result is None:
        return ""
    t = result.type
    float_like = _is_float_like(t) or (
        isinstance(t, LLVMStructType) and all(_is_float_like(e) for e in t.types.data)
    )
    return _fastmath(op) if float_like else ""


def _intrinsic(op: Operation, f: FunctionEmitter) -> None:
    spec = INTRINSICS[op.name]
    base = spec.name or "llvm." + op.name.removeprefix("llvm.intr.")
    result = op.results[0] if op.results else None
    suffix_types = [
        (result.type if result is not None else LLVMVoidType())
        if sel == "r"
        else op.operands[int(sel)].type
        for sel in spec.overloads
    ]
    name = ".".join([base, *(intrinsic_suffix(t) for t in suffix_types)])
    args = [(convert_type(o.type), f.ref(o)) for o in op.operands]
    for prop, t in spec.immargs:
        attr = op.properties.get(prop)
        if not isinstance(attr, IntegerAttr):
            raise LLVMIRTranslationError(f"'{op.name}' needs its '{prop}' property")
        args.append((t, int_literal(attr.value.data, IntegerType(int(t[1:])))))
    fm = _intrinsic_call_fastmath(op, result)
    f.call_intrinsic(
        name, None if result is None else result.type, args, result=result, prefix=fm
    )


def _call_intrinsic(op: Any, f: FunctionEmitter) -> None:
    result = op.results[0] if op.results else None
    bundles = ""
    if op.op_bundle_operands:
        bundles = _bundles(
            f,
            op.op_bundle_operands,
            op.properties.get("op_bundle_sizes"),
            op.properties.get("op_bundle_tags"),
        )
    fm = _intrinsic_call_fastmath(op, result)
    f.call_intrinsic(
        op.intrin.data,
        None if result is None else result.type,
        [(convert_type(a.type), f.ref(a)) for a in op.args],
        result=result,
        prefix=fm,
        suffix=bundles,
    )


def _assume(op: Any, f: FunctionEmitter) -> None:
    bundles = ""
    if op.op_bundle_operands:
        bundles = _bundles(
            f, op.op_bundle_operands, op.op_bundle_sizes, op.op_bundle_tags
        )
    f.call_intrinsic("llvm.assume", None, [("i1", f.ref(op.cond))], suffix=bundles)


def _constrained_fptrunc(op: Any, f: FunctionEmitter) -> None:
    res, arg = op.results[0].type, op.operands[0].type
    name = (
        "llvm.experimental.constrained.fptrunc."
        f"{intrinsic_suffix(res)}.{intrinsic_suffix(arg)}"
    )
    f.call_intrinsic(
        name,
        res,
        [
            (convert_type(arg), f.ref(op.operands[0])),
            ("metadata", f'!"round.{op.rounding}"'),
            ("metadata", f'!"fpexcept.{op.exceptions}"'),
        ],
        result=op.results[0],
        suffix=" strictfp",
    )


def _masked_store(op: Any, f: FunctionEmitter) -> None:
    value_t, ptr_t = op.value.type, op.data.type
    name = f"llvm.masked.store.{intrinsic_suffix(value_t)}.{intrinsic_suffix(ptr_t)}"
    callee = f.module.declare(
        name, "void", [convert_type(t) for t in (value_t, ptr_t, op.mask.type)]
    )
    f.emit(
        f"call void {callee}({f.typed(op.value)}, ptr align "
        f"{op.alignment.value.data} {f.ref(op.data)}, {f.typed(op.mask)})"
    )


def _masked_load(op: Any, f: FunctionEmitter) -> None:
    result_t, ptr_t = op.res.type, op.data.type
    name = f"llvm.masked.load.{intrinsic_suffix(result_t)}.{intrinsic_suffix(ptr_t)}"
    callee = f.module.declare(
        name,
        convert_type(result_t),
        [convert_type(t) for t in (ptr_t, op.mask.type, op.pass_thru.type)],
    )
    f.define(
        op.res,
        f"call {convert_type(result_t)} {callee}(ptr align "
        f"{op.alignment.value.data} {f.ref(op.data)}, {f.typed(op.mask)}, "
        f"{f.typed(op.pass_thru)})",
    )


def _aligned_ptr(op: Any, f: FunctionEmitter, value: Any, position: int) -> str:
    from xdsl_gpu.gpu_dialect.llvm_vector import pointer_alignment

    align = pointer_alignment(op, position)
    return f"ptr{'' if align is None else f' align {align}'} {f.ref(value)}"


def _masked_expandload(op: Any, f: FunctionEmitter) -> None:
    result_t = op.res.type
    name = f"llvm.masked.expandload.{intrinsic_suffix(result_t)}"
    callee = f.module.declare(
        name,
        convert_type(result_t),
        [convert_type(t) for t in (op.ptr.type, op.mask.type, op.pass_thru.type)],
    )
    f.define(
        op.res,
        f"call {convert_type(result_t)} {callee}({_aligned_ptr(op, f, op.ptr, 0)}, "
        f"{f.typed(op.mask)}, {f.typed(op.pass_thru)})",
    )


def _masked_compressstore(op: Any, f: FunctionEmitter) -> None:
    value_t = op.value.type
    name = f"llvm.masked.compressstore.{intrinsic_suffix(value_t)}"
    callee = f.module.declare(
        name, "void", [convert_type(t) for t in (value_t, op.ptr.type, op.mask.type)]
    )
    f.emit(
        f"call void {callee}({f.typed(op.value)}, {_aligned_ptr(op, f, op.ptr, 1)}, "
        f"{f.typed(op.mask)})"
    )


def _masked_gather(op: Any, f: FunctionEmitter) -> None:
    result_t, ptrs_t = op.res.type, op.ptrs.type
    name = f"llvm.masked.gather.{intrinsic_suffix(result_t)}.{intrinsic_suffix(ptrs_t)}"
    result = convert_type(result_t)
    callee = f.module.declare(
        name, result, [convert_type(t) for t in (ptrs_t, op.mask.type, result_t)]
    )
    # Without a pass-through the masked-off lanes are poison, as upstream translates.
    pass_thru = f.typed(op.pass_thru) if op.pass_thru else f"{result} poison"
    f.define(
        op.res,
        f"call {result} {callee}({convert_type(ptrs_t)} align "
        f"{op.alignment.value.data} {f.ref(op.ptrs)}, {f.typed(op.mask)}, {pass_thru})",
    )


def _masked_scatter(op: Any, f: FunctionEmitter) -> None:
    value_t, ptrs_t = op.value.type, op.ptrs.type
    name = f"llvm.masked.scatter.{intrinsic_suffix(value_t)}.{intrinsic_suffix(ptrs_t)}"
    callee = f.module.declare(
        name, "void", [convert_type(t) for t in (value_t, ptrs_t, op.mask.type)]
    )
    f.emit(
        f"call void {callee}({f.typed(op.value)}, {convert_type(ptrs_t)} align "
        f"{op.alignment.value.data} {f.ref(op.ptrs)}, {f.typed(op.mask)})"
    )


_CONVERTERS: dict[str, Converter] = {
    **{
        f"llvm.{n}": _binary(n)
        for n in (
            "add sub mul udiv sdiv urem srem and or xor shl lshr ashr "
            "fadd fsub fmul fdiv frem"
        ).split()
    },
    **{
        f"llvm.{n}": _cast(n)
        for n in (
            "trunc zext sext fptosi fptoui sitofp uitofp fpext fptrunc bitcast "
            "ptrtoint inttoptr addrspacecast"
        ).split()
    },
    "llvm.fneg": _fneg,
    "llvm.icmp": _icmp,
    "llvm.fcmp": _fcmp,
    "llvm.select": _select,
    "llvm.freeze": _freeze,
    "llvm.mlir.constant": _constant,
    "llvm.mlir.undef": _literal("undef"),
    "llvm.mlir.poison": _literal("poison"),
    "llvm.mlir.zero": _literal("zeroinitializer"),
    "llvm.mlir.addressof": _addressof,
    "llvm.getelementptr": _gep,
    "llvm.load": _load,
    "llvm.store": _store,
    "llvm.alloca": _alloca,
    "llvm.atomicrmw": _atomicrmw,
    "llvm.cmpxchg": _cmpxchg,
    "llvm.fence": _fence,
    "llvm.extractvalue": _extractvalue,
    "llvm.insertvalue": _insertvalue,
    "llvm.extractelement": _extractelement,
    "llvm.insertelement": _insertelement,
    "llvm.shufflevector": _shufflevector,
    "llvm.return": _return,
    "llvm.br": _br,
    "llvm.cond_br": _cond_br,
    "llvm.switch": _switch,
    "llvm.unreachable": lambda op, f: f.emit("unreachable"),
    "llvm.call": _call,
    "llvm.inline_asm": _inline_asm,
    "llvm.call_intrinsic": _call_intrinsic,
    "llvm.intr.assume": _assume,
    "llvm.intr.masked.store": _masked_store,
    "llvm.intr.masked.load": _masked_load,
    "llvm.intr.masked.expandload": _masked_expandload,
    "llvm.intr.masked.compressstore": _masked_compressstore,
    "llvm.intr.masked.gather": _masked_gather,
    "llvm.intr.masked.scatter": _masked_scatter,
    "llvm.intr.experimental.constrained.fptrunc": _constrained_fptrunc,
    **{name: _intrinsic for name in INTRINSICS},
}


class LLVMIRTranslatable(Protocol):
    """What an op of another dialect (nvvm) defines when a plain intrinsic call with
    its operands as arguments is not enough."""

    def llvm_ir(self, emitter: FunctionEmitter) -> None: ...


def intrinsic_of(op: Operation) -> str | None:
    """The LLVM intrinsic an op of another dialect names, if it names one."""
    getter = getattr(op, "get_llvm_intrinsic", None)
    if callable(getter):
        return str(getter())
    for attr in ("LLVM_INTRINSIC", "llvm_intrinsic"):
        value = getattr(type(op), attr, None)
        if isinstance(value, str):
            return value
    return None


def _range_attr(op: Operation) -> str:
    rng = op.properties.get("range")
    if rng is None or rng.name != "llvm.constant_range":
        return ""
    lower, upper = getattr(rng, "lower"), getattr(rng, "upper")
    if lower == upper == -1:
        return ""  # [max, max) is LLVM's full set: no range, as upstream writes
    return f"range({convert_type(getattr(rng, 'int_type'))} {lower}, {upper})"


def _foreign(op: Operation, f: FunctionEmitter) -> None:
    hook = getattr(op, "llvm_ir", None)
    if callable(hook):
        hook(f)
        return
    name = intrinsic_of(op)
    if name is None:
        raise LLVMIRTranslationError(
            f"'{op.name}' has no LLVM IR translation: {lowering_hint(op.name)}"
        )
    if len(op.results) > 1:
        raise LLVMIRTranslationError(
            f"'{op.name}' has {len(op.results)} results; an intrinsic call gives one"
        )
    result = op.results[0] if op.results else None
    args = [(convert_type(o.type), f.ref(o)) for o in op.operands]
    args += [(t, str(v)) for t, v in getattr(type(op), "LLVM_IMMEDIATE_ARGS", ())]
    f.call_intrinsic(
        name,
        None if result is None else result.type,
        args,
        result=result,
        return_attrs=_range_attr(op),
    )


def convert_op(op: Operation, f: FunctionEmitter) -> None:
    """Append the LLVM IR of ``op`` to the function being written.

    Raises:
        LLVMIRTranslationError: if the op has no translation (the message names it).
    """
    converter = _CONVERTERS.get(op.name)
    if converter is None:
        if op.name.startswith("llvm."):
            raise LLVMIRTranslationError(
                f"'{op.name}' has no LLVM IR translation here yet"
            )
        converter = _foreign
    try:
        converter(op, f)
    except LLVMIRTranslationError as e:
        if op.name in str(e):
            raise at_op(e, op)
        raise at_op(LLVMIRTranslationError(f"'{op.name}': {e}"), op) from None


__all__ = [
    "INTRINSICS",
    "FunctionEmitter",
    "IntrinsicSpec",
    "LLVMIRTranslatable",
    "constant_literal",
    "convert_op",
    "float_literal",
    "intrinsic_of",
    "string_literal",
]
