"""Dialects, passes and op classes of xdsl-gpu in xDSL's place: dialect replacement in a
Context, MLIR's ``verifyOperationAttribute``, the op that failed a verification, and
xDSL's dispatch tables that must also serve our subclasses of its ops."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.compat._base import XdslChangedError, _mark, is_patched


def replace_context_dialect(ctx: Any, name: str, factory: Callable[[], Any]) -> None:
    """Register ``factory`` for ``name`` in ``ctx`` even if xDSL's dialect of that
    name is registered (not loaded) there: ``Context.register_dialect`` refuses a
    second registration and has no way to replace one."""
    registered = getattr(ctx, "_registered_dialects", None)
    if not isinstance(registered, dict):
        raise XdslChangedError("xdsl.context.Context._registered_dialects is gone")
    registered[name] = factory


def verify_dialect_attributes_with(verifier: Callable[[Operation], None]) -> None:
    """Make ``Operation.verify`` run ``verifier`` on every op with attributes before
    the op's own checks, as MLIR's verifier checks the discardable attributes of a
    dialect (``gpu.known_block_size``, ``nvvm.kernel``, ...) through
    ``Dialect::verifyOperationAttribute``; xDSL has no such hook."""
    current = Operation.__dict__.get("verify")
    if not callable(current):
        raise XdslChangedError("xdsl.ir.Operation.verify is gone")
    if is_patched(current, "xdsl_gpu_dialect_attrs"):
        return
    if list(inspect.signature(current).parameters) != ["self", "verify_nested_ops"]:
        raise XdslChangedError(
            "xdsl.ir.Operation.verify no longer takes (self, verify_nested_ops)"
        )

    def verify(self: Operation, verify_nested_ops: bool = True) -> None:
        if self.attributes or self.properties:
            try:
                verifier(self)
            except VerifyException as err:
                self.emit_error(f"Operation does not verify: {err}", err)
        current(self, verify_nested_ops)

    _mark(verify, "xdsl_gpu_dialect_attrs", current)
    Operation.verify = verify  # type: ignore[method-assign]


def remember_failing_ops() -> None:
    """Make ``Operation.emit_error`` note, on the exception it raises, the op that
    failed and the message without xDSL's dump of the whole module (``failing_op``,
    ``plain_message``), so that the command-line tools print ``file:line:col:
    error: message`` as MLIR's do (``xdsl_gpu/diagnostics.py``)."""
    current = Operation.__dict__.get("emit_error")
    if not callable(current):
        raise XdslChangedError("xdsl.ir.Operation.emit_error is gone")
    if is_patched(current, "xdsl_gpu_failing_op"):
        return

    def emit_error(self: Operation, message: str, underlying_error: Exception):
        try:
            current(self, message, underlying_error)
        except Exception as error:
            if not hasattr(error, "failing_op"):
                error.failing_op = self  # type: ignore[attr-defined]
                error.plain_message = str(underlying_error)  # type: ignore[attr-defined]
            raise
        raise XdslChangedError("xdsl.ir.Operation.emit_error returned")

    _mark(emit_error, "xdsl_gpu_failing_op", current)
    Operation.emit_error = emit_error  # type: ignore[method-assign]


def xdsl_dispatch_follows_subclasses(classes: Any) -> None:
    """Let xDSL's code that looks ops up by their exact class serve our subclasses
    of its ops: ``xdsl-run``'s interpreter (it falls back along the op's MRO) and
    the tables of the ``-t llvm`` backend (each of ``classes`` gets the entry of the
    xDSL class it extends). xDSL has no extension point for either."""
    from xdsl.backend.llvm import convert_op
    from xdsl.interpreter import (
        _InterpreterFunctionImpls,  # pyright: ignore[reportPrivateUsage]
    )

    tables = [
        getattr(convert_op, name, None)
        for name in (
            "_BINARY_OP_MAP", "_CAST_OP_NAMES", "_UNARY_INTRINSIC_MAP",
            "_BINARY_INTRINSIC_MAP", "_VECTOR_REDUCE_INTRINSIC_MAP",
        )
    ]  # fmt: skip
    if not all(isinstance(table, dict) for table in tables):
        raise XdslChangedError("xdsl.backend.llvm.convert_op's op tables changed")
    for table in tables:
        assert isinstance(table, dict)
        for cls in classes:
            if cls in table:
                continue
            base = next((b for b in cls.__mro__[1:] if b in table), None)
            if base is not None:
                table[cls] = table[base]

    run = _InterpreterFunctionImpls.__dict__.get("run")
    if not callable(run):
        raise XdslChangedError("xdsl.interpreter._InterpreterFunctionImpls.run is gone")
    if is_patched(run, "xdsl_gpu_dispatch"):
        return

    def run_by_mro(self: Any, interpreter: Any, op: Operation, args: Any) -> Any:
        impls = self._impl_dict
        kind = type(op)
        if kind not in impls:
            base = next((b for b in kind.__mro__[1:] if b in impls), None)
            if base is not None:
                impls[kind] = impls[base]
        return run(self, interpreter, op, args)

    _mark(run_by_mro, "xdsl_gpu_dispatch", run)
    _InterpreterFunctionImpls.run = run_by_mro  # type: ignore[method-assign]


def linalg_contractions_cast_inputs() -> None:
    """Build the body of ``linalg.matmul`` and of the ``linalg.conv_*`` ops as MLIR
    22 does: ``out + cast(a) * cast(b)``, each input element cast to the output's
    element type first (``cast_signed``: ``extf``/``truncf``, ``extsi``/``trunci``,
    ``sitofp``/``fptosi``, ``index_cast``; ``andi``/``ori`` for ``i1``). xDSL's
    ``MatmulOp`` multiplies the inputs as they are (f16 x f16 -> f32 gave ``mulf`` on f16
    and an ill-typed ``addf`` of f16 and f32 after ``convert-linalg-to-loops``), and
    its ``ConvOperation`` extends only integers (an assertion for f16 -> f32). Same
    element types: the body is the one xDSL builds but for the order of ``addf``'s
    operands (MLIR adds the product to the accumulator: ``addf %out, %mul``)."""
    from xdsl.dialects.linalg.abstract_ops import ConvOperation
    from xdsl.dialects.linalg.ops import MatmulOp

    for cls in (MatmulOp, ConvOperation):
        current = cls.__dict__.get("get_hidden_region")
        if not isinstance(current, classmethod):
            raise XdslChangedError(
                f"xdsl.dialects.linalg {cls.__name__}.get_hidden_region is gone"
            )
        if is_patched(current.__func__, "xdsl_gpu_linalg_casts"):
            continue

        def get_hidden_region(cls: Any, inputs: Any, outputs: Any) -> Any:
            return _contraction_region(inputs, outputs)

        _mark(get_hidden_region, "xdsl_gpu_linalg_casts", current.__func__)
        cls.get_hidden_region = classmethod(get_hidden_region)  # type: ignore[method-assign,assignment]


def _contraction_region(inputs: Any, outputs: Any) -> Any:
    from xdsl.builder import Builder
    from xdsl.dialects import arith
    from xdsl.dialects.builtin import AnyFloat, ContainerType, i1
    from xdsl.dialects.linalg.ops import YieldOp

    # Not cls.body_arg_types: it asserts on index elements, which MLIR casts.
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
        lhs = _cast_signed(args[0], out)
        rhs = _cast_signed(args[1], out)
        product = mul(lhs, rhs)
        YieldOp(add(args[2], product))

    return body


def _cast_signed(value: Any, to: Any) -> Any:
    """``value`` as ``to`` by MLIR's ``convertScalarToDtype`` with a signed cast
    (made in the enclosing implicit builder). A pair it does not convert (bf16 and
    f16) is left as it is, as MLIR leaves it: the verifier then reports the body."""
    from xdsl.dialects import arith
    from xdsl.dialects.builtin import AnyFloat, IndexType, IntegerType

    source = value.type
    if source == to:
        return value
    op: Any = None
    if isinstance(to, IntegerType):
        if isinstance(source, AnyFloat):
            op = arith.FPToSIOp(value, to)
        elif isinstance(source, IndexType):
            op = arith.IndexCastOp(value, to)
        elif isinstance(source, IntegerType):
            wider = to.width.data > source.width.data
            narrower = to.width.data < source.width.data
            op = (
                arith.ExtSIOp(value, to)
                if wider
                else arith.TruncIOp(value, to)
                if narrower
                else None
            )
    elif isinstance(to, AnyFloat):
        if isinstance(source, IntegerType):
            op = arith.SIToFPOp(value, to)
        elif isinstance(source, AnyFloat):
            wider = to.bitwidth > source.bitwidth
            narrower = to.bitwidth < source.bitwidth
            op = (
                arith.ExtFOp(value, to)
                if wider
                else arith.TruncFOp(value, to)
                if narrower
                else None
            )
    elif isinstance(to, IndexType) and isinstance(source, IntegerType):
        op = arith.IndexCastOp(value, to)
    return value if op is None else op.results[0]
