"""MLIR's element casts in the bodies of xDSL's linalg contractions, and the
``#linalg.type_fn`` attribute that chooses them on ``linalg.matmul``."""

from __future__ import annotations

from functools import cache
from typing import Any

from xdsl_gpu.compat._base import XdslChangedError, _mark, is_patched
from xdsl_gpu.compat.on_import import when_imported

_MARK = "xdsl_gpu_linalg_casts"


def linalg_contractions_cast_inputs() -> None:
    """Build the body of ``linalg.matmul`` and of the ``linalg.conv_*`` ops as MLIR
    22 does: ``out + cast(a) * cast(b)``, each input element cast to the output's
    element type first (``cast_signed``: ``extf``/``truncf``, ``extsi``/``trunci``,
    ``sitofp``/``fptosi``, ``index_cast``; ``andi``/``ori`` for ``i1``). xDSL's
    ``MatmulOp`` multiplies the inputs as they are (f16 x f16 -> f32 gave ``mulf`` on
    f16 and an ill-typed ``addf`` of f16 and f32 after ``convert-linalg-to-loops``),
    and its ``ConvOperation`` extends only integers (an assertion for f16 -> f32).

    ``linalg.matmul {cast = #linalg.type_fn<cast_unsigned>}`` casts as unsigned
    (``extui``, ``uitofp``, ``fptoui``): xDSL has no ``#linalg.type_fn``, which this
    adds to its linalg dialect. Same element types: the body is xDSL's but for the
    order of the accumulation's operands (MLIR's ``addf %out, %product``).

    Made when xDSL's linalg dialect is first imported (a GPU compile seldom does:
    importing it costs ~8 ms)."""
    when_imported("xdsl.dialects.linalg", _cast_inputs)


def _cast_inputs() -> None:
    from xdsl.dialects.linalg import Linalg
    from xdsl.dialects.linalg.abstract_ops import ConvOperation
    from xdsl.dialects.linalg.ops import MatmulOp

    for cls in (MatmulOp, ConvOperation):
        current = cls.__dict__.get("get_hidden_region")
        if not isinstance(current, classmethod):
            raise XdslChangedError(
                f"xdsl.dialects.linalg {cls.__name__}.get_hidden_region is gone"
            )
        if is_patched(current.__func__, _MARK):
            continue

        def get_hidden_region(cls: Any, inputs: Any, outputs: Any) -> Any:
            return contraction_region(inputs, outputs)

        _mark(get_hidden_region, _MARK, current.__func__)
        cls.get_hidden_region = classmethod(get_hidden_region)  # type: ignore[method-assign,assignment]

    names = [a.name for a in Linalg.attributes]
    type_fn = type_fn_attr()
    if type_fn not in Linalg.attributes:
        if "linalg.type_fn" in names:
            raise XdslChangedError(
                "xDSL's linalg dialect defines linalg.type_fn now: use it"
            )
        Linalg._attributes.append(type_fn)  # pyright: ignore[reportPrivateUsage]

    if "parse" in MatmulOp.__dict__:
        current = MatmulOp.__dict__["parse"]
        if isinstance(current, classmethod) and is_patched(current.__func__, _MARK):
            return
        raise XdslChangedError("xdsl.dialects.linalg MatmulOp has a parser now")
    inherited = MatmulOp.parse.__func__

    def parse_matmul(cls: Any, parser: Any) -> Any:
        op = inherited(cls, parser)
        cast = op.attributes.get("cast")
        if cast is not None and cast == type_fn("cast_unsigned"):
            body = contraction_region(op.inputs, op.outputs, unsigned=True)
            op.body.detach_block(0).erase()
            body.move_blocks(op.body)
        return op

    _mark(parse_matmul, _MARK, inherited)
    MatmulOp.parse = classmethod(parse_matmul)  # type: ignore[method-assign,assignment]


@cache
def type_fn_attr() -> Any:
    """``#linalg.type_fn<cast_signed | cast_unsigned>`` (defined on first use: an
    attribute class costs start-up time)."""
    from xdsl.dialects.utils import EnumAttribute
    from xdsl.irdl import irdl_attr_definition
    from xdsl.utils.str_enum import StrEnum

    class TypeFn(StrEnum):
        CAST_SIGNED = "cast_signed"
        CAST_UNSIGNED = "cast_unsigned"

    @irdl_attr_definition
    class TypeFnAttr(EnumAttribute[TypeFn]):
        name = "linalg.type_fn"

        @classmethod
        def parse_parameter(cls, parser: Any) -> TypeFn:
            with parser.in_angle_brackets():
                return super().parse_parameter(parser)

        def print_parameter(self, printer: Any) -> None:
            with printer.in_angle_brackets():
                super().print_parameter(printer)

    return TypeFnAttr


def type_fn(value: str) -> Any:
    """The ``#linalg.type_fn`` of that name."""
    attr = type_fn_attr()
    return attr(attr.enum_type(value))


def contraction_region(inputs: Any, outputs: Any, *, unsigned: bool = False) -> Any:
    """``^bb0(a, b, out): yield out + cast(a) * cast(b)`` over the element types of
    ``inputs`` and ``outputs``."""
    from xdsl.builder import Builder
    from xdsl.dialects import arith
    from xdsl.dialects.builtin import AnyFloat, ContainerType, i1
    from xdsl.dialects.linalg.ops import YieldOp

    # Not body_arg_types: it asserts on index elements, which MLIR casts.
    arg_types = [
        v.type.get_element_type() if isinstance(v.type, ContainerType) else v.type
        for v in (*inputs, *outputs)
    ]
    out = arg_types[-1]
    if isinstance(out, AnyFloat):
        add, mul = arith.AddfOp, arith.MulfOp
    elif out == i1:
        add, mul = arith.OrIOp, arith.AndIOp
    else:
        add, mul = arith.AddiOp, arith.MuliOp

    @Builder.implicit_region(arg_types)
    def body(args: tuple[Any, ...]) -> None:
        lhs = _cast(args[0], out, unsigned)
        rhs = _cast(args[1], out, unsigned)
        product = mul(lhs, rhs)
        YieldOp(add(args[2], product))

    return body


def _cast(value: Any, to: Any, unsigned: bool) -> Any:
    """``value`` as ``to`` by MLIR's ``convertScalarToDtype`` (made in the enclosing
    implicit builder). A pair it does not convert (bf16 and f16, an integer to
    index) is left as it is, as MLIR leaves it: the verifier then reports the body."""
    from xdsl.dialects import arith
    from xdsl.dialects.builtin import AnyFloat, IndexType, IntegerType

    source = value.type
    op: Any = None
    if source == to:
        return value
    if isinstance(to, IntegerType):
        if isinstance(source, AnyFloat):
            op = (arith.FPToUIOp if unsigned else arith.FPToSIOp)(value, to)
        elif isinstance(source, IndexType):
            op = arith.IndexCastOp(value, to)
        elif isinstance(source, IntegerType):
            if to.width.data > source.width.data:
                op = (arith.ExtUIOp if unsigned else arith.ExtSIOp)(value, to)
            elif to.width.data < source.width.data:
                op = arith.TruncIOp(value, to)
    elif isinstance(to, AnyFloat):
        if isinstance(source, IntegerType):
            op = (arith.UIToFPOp if unsigned else arith.SIToFPOp)(value, to)
        elif isinstance(source, AnyFloat):
            if to.bitwidth > source.bitwidth:
                op = arith.ExtFOp(value, to)
            elif to.bitwidth < source.bitwidth:
                op = arith.TruncFOp(value, to)
    return value if op is None else op.results[0]
