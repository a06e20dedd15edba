"""Dialects, passes and op classes of xdsl-gpu in xDSL's place: dialect replacement in a
Context, MLIR's ``verifyOperationAttribute``, the op that failed a verification, and
xDSL's dispatch tables that must also serve our subclasses of its ops."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

from xdsl.context import Context
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.compat._base import XdslChangedError, _mark, is_patched
from xdsl_gpu.compat.on_import import when_imported


def replace_context_dialect(ctx: Any, name: str, factory: Callable[[], Any]) -> None:
    """Register ``factory`` for ``name`` in ``ctx`` even if xDSL's dialect of that
    name is registered (not loaded) there: ``Context.register_dialect`` refuses a
    second registration and has no way to replace one."""
    registered = getattr(ctx, "_registered_dialects", None)
    if not isinstance(registered, dict):
        raise XdslChangedError("xdsl.context.Context._registered_dialects is gone")
    registered[name] = factory


def dialects_allow_unknown_operations() -> None:
    """Make ``Context.get_optional_op`` accept an op name it does not know as an
    ``UnregisteredOp`` when the op's dialect is loaded and says so
    (``allows_unknown_operations``), as MLIR's ``Dialect::allowsUnknownOperations``
    (its ``test`` dialect, ``xdsl_gpu/gpu_dialect/test.py``): xDSL has the choice only
    for a whole Context (``allow_unregistered``)."""
    current = Context.__dict__.get("get_optional_op")
    if not callable(current):
        raise XdslChangedError("xdsl.context.Context.get_optional_op is gone")
    if is_patched(current, "xdsl_gpu_unknown_ops"):
        return
    if not isinstance(getattr(Context(), "_loaded_dialects", None), dict):
        raise XdslChangedError("xdsl.context.Context._loaded_dialects is gone")

    def get_optional_op(self: Context, name: str, **kwargs: Any) -> Any:
        found = current(self, name, **kwargs)
        if found is not None or "." not in name:
            return found
        # Looking the name up loaded its dialect if it is registered.
        dialect = self._loaded_dialects.get(name.split(".", 1)[0])  # pyright: ignore[reportPrivateUsage]
        if not getattr(dialect, "allows_unknown_operations", False):
            return None
        from xdsl.dialects.builtin import UnregisteredOp

        op_type = UnregisteredOp.with_name(name)
        self._loaded_ops[name] = op_type  # pyright: ignore[reportPrivateUsage]
        return op_type

    _mark(get_optional_op, "xdsl_gpu_unknown_ops", current)
    Context.get_optional_op = get_optional_op  # type: ignore[method-assign]


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


def xdsl_dispatch_follows_subclasses(
    classes: Callable[[], Sequence[type[Operation]]],
) -> None:
    """Let xDSL's code that looks ops up by their exact class serve our subclasses
    of its ops: ``xdsl-run``'s interpreter (it falls back along the op's MRO) and
    the tables of the ``-t llvm`` backend (each op class that ``classes()`` gives
    gets the entry of the xDSL class it extends). xDSL has no extension point for
    either. Each is changed when xDSL's module is first imported (a GPU compile
    imports neither: ~9 ms)."""
    when_imported("xdsl.backend.llvm.convert_op", lambda: _backend_tables(classes()))
    when_imported("xdsl.interpreter", _interpreter_dispatch)


def _backend_tables(classes: Sequence[type[Operation]]) -> None:
    from xdsl.backend.llvm import convert_op

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


def _interpreter_dispatch() -> None:
    from xdsl.interpreter import (
        _InterpreterFunctionImpls,  # pyright: ignore[reportPrivateUsage]
    )

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
