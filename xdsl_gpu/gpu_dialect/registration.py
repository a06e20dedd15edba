"""How xdsl-gpu's dialects take the place of xDSL's own.

xDSL ships a partial ``gpu`` dialect (generic syntax only), ``llvm``, ``arith`` and
``math`` dialects that lack ops the GPU flow needs, and a ``memref`` dialect that lacks
upstream's custom syntax of several ops. Ours are listed in :data:`REPLACED_DIALECTS`;
those only xdsl-gpu defines in :data:`NEW_DIALECTS`.

* Python users: :func:`register_dialects` puts them into their own ``Context``.
* Stock ``xdsl-opt``: a run that uses xdsl-gpu gets them in place of xDSL's
  (``xdsl_gpu/driver/dialect_choice.py``); any other run keeps xDSL's.

Both apply the changes inside xDSL that the dialects need (:func:`install_hooks`),
each of which lives in :mod:`xdsl_gpu.compat` with its reason and its test.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.context import Context
from xdsl.ir import Attribute, Dialect, Operation
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu import compat


def _gpu() -> Dialect:
    from xdsl_gpu.gpu_dialect.gpu import GPU

    return GPU


def _llvm() -> Dialect:
    from xdsl_gpu.gpu_dialect.llvm import LLVM

    return LLVM


def _arith() -> Dialect:
    from xdsl_gpu.gpu_dialect.arith import ARITH

    return ARITH


def _math() -> Dialect:
    from xdsl_gpu.gpu_dialect.math import MATH

    return MATH


def _memref() -> Dialect:
    from xdsl_gpu.gpu_dialect.memref import MEMREF

    return MEMREF


def _vector() -> Dialect:
    from xdsl_gpu.gpu_dialect.vector import VECTOR

    return VECTOR


def _scf() -> Dialect:
    from xdsl_gpu.gpu_dialect.scf_forall import SCF

    return SCF


def _transform() -> Dialect:
    from xdsl_gpu.gpu_dialect.transform import TRANSFORM

    return TRANSFORM


def _func() -> Dialect:
    from xdsl_gpu.gpu_dialect.func import FUNC

    return FUNC


def _test() -> Dialect:
    from xdsl_gpu.gpu_dialect.test import TEST

    return TEST


def _index() -> Dialect:
    from xdsl_gpu.gpu_dialect.index import INDEX

    return INDEX


def _nvvm() -> Dialect:
    from xdsl_gpu.gpu_dialect.nvvm import NVVM

    return NVVM


def _nvgpu() -> Dialect:
    from xdsl_gpu.gpu_dialect.nvgpu import NVGPU

    return NVGPU


def _rocdl() -> Dialect:
    from xdsl_gpu.gpu_dialect.rocdl import ROCDL

    return ROCDL


def _xgpu() -> Dialect:
    from xdsl_gpu.gpu_dialect.xgpu import XGPU

    return XGPU


REPLACED_DIALECTS: dict[str, Callable[[], Dialect]] = {
    "arith": _arith,
    "func": _func,
    "gpu": _gpu,
    "llvm": _llvm,
    "math": _math,
    "memref": _memref,
    "scf": _scf,
    "test": _test,
    "transform": _transform,
    "vector": _vector,
}
"""Dialects that xDSL defines too: ours take their place."""

NEW_DIALECTS: dict[str, Callable[[], Dialect]] = {
    "index": _index,
    "nvgpu": _nvgpu,
    "nvvm": _nvvm,
    "rocdl": _rocdl,
    "xgpu": _xgpu,
}
"""Dialects that only this package defines."""


def install_parser_fixes() -> None:
    """The changes inside xDSL that only let its parser read what it refused, hung
    on or crashed on before (MLIR text it did not read): they change nothing for a
    program xDSL already reads, so the plugin makes them in every run."""
    from xdsl_gpu.gpu_dialect.distinct_attr import parse_optional_distinct
    from xdsl_gpu.gpu_dialect.string_literals import unescape_mlir_string

    compat.fast_string_literals(unescape_mlir_string)
    compat.linear_string_literals()
    compat.semi_affine_expressions()
    compat.upstream_scf_while_syntax()
    compat.upstream_scf_parallel_syntax()
    compat.bounded_dense_literals()
    compat.block_redeclaration_after_forward_use()
    compat.empty_input_is_an_empty_module()
    compat.debug_info_syntax(parse_optional_distinct)


def install_hooks() -> None:
    """The changes inside xDSL that the dialects need (each applied once)."""
    # First, so that the classes below are defined with the faster checks.
    compat.mro_class_checks()
    from xdsl_gpu.gpu_dialect.gpu.attributes import format_affine_map

    install_parser_fixes()
    compat.verify_dialect_attributes_with(verify_dialect_attributes)
    compat.record_source_locations()
    compat.remember_failing_ops()
    compat.dialects_allow_unknown_operations()
    compat.upstream_llvm_type_syntax()
    compat.hex_floats_in_dense_literals()
    compat.spaced_shape_delimiters()
    compat.llvm_constant_keeps_its_type()
    compat.upstream_scf_parallel_printing()
    compat.upstream_memory_space_printing()
    compat.upstream_special_float_printing()
    compat.upstream_block_predecessor_comments()
    compat.upstream_affine_map_aliases(format_affine_map)
    compat.location_aliases(_debug_info_alias)
    compat.linalg_contractions_cast_inputs()
    compat.xdsl_dispatch_follows_subclasses(_subclassed_ops)


def _debug_info_alias(attr: Attribute) -> str | None:
    """The alias MLIR's printer gives a debug-info attribute in a location
    (``#di_file``, ``#di_subprogram``); None for other attributes."""
    from xdsl_gpu.gpu_dialect.llvm_debug_info import is_debug_info

    return attr.name.removeprefix("llvm.") if is_debug_info(attr) else None


def _subclassed_ops() -> list[type[Operation]]:
    """Our op classes that extend one of xDSL's (llvm, arith, math, memref)."""
    from xdsl_gpu.gpu_dialect.arith import ARITH
    from xdsl_gpu.gpu_dialect.llvm import LLVM
    from xdsl_gpu.gpu_dialect.math import MATH
    from xdsl_gpu.gpu_dialect.memref import MEMREF

    return [
        op
        for dialect in (ARITH, LLVM, MATH, MEMREF)
        for op in dialect.operations
        if not op.__module__.startswith("xdsl.")
    ]


def verify_dialect_attributes(op: Operation) -> None:
    """MLIR's ``verifyOperationAttribute`` of the ``gpu`` and ``nvvm`` dialects for
    the discardable attributes of ``op`` (not of the ops nested in it), and the
    ``nvvm`` argument-attribute rules. Raises ``VerifyException`` with upstream's
    message."""
    names = [n for n in op.attributes if n.startswith(("gpu.", "nvvm."))]
    has_arg_attrs = "arg_attrs" in op.properties or "arg_attrs" in op.attributes
    if not names and not has_arg_attrs:
        return
    from xdsl_gpu.gpu_dialect.gpu.attributes import (
        CONTAINER_MODULE_ATTR_NAME,
        verify_discardable_gpu_attr,
    )
    from xdsl_gpu.gpu_dialect.nvvm.kernel_attrs import verify_nvvm_attributes

    for name in names:
        if name.startswith("gpu."):
            try:
                verify_discardable_gpu_attr(op, name, op.attributes[name])
            except VerifyException as e:
                container = name == CONTAINER_MODULE_ATTR_NAME
                prefix = "" if container else f"'{op.name}' op "
                raise VerifyException(f"{prefix}{e}") from e
    if has_arg_attrs or any(n.startswith("nvvm.") for n in names):
        verify_nvvm_attributes(op)


def register_dialects(ctx: Context) -> None:
    """Make the ``gpu``, ``nvvm``, ``rocdl`` and extended ``llvm`` dialects available
    in ``ctx``, in place of xDSL's own ``gpu`` and ``llvm``.

    Call it before anything parses or builds IR with ``ctx``.
    """
    install_hooks()
    for name, factory in {**REPLACED_DIALECTS, **NEW_DIALECTS}.items():
        loaded = {d.name: d for d in ctx.loaded_dialects}
        if name in loaded:
            if loaded[name] is factory():
                continue
            raise ValueError(
                f"the '{name}' dialect is already loaded in this Context; call "
                "xdsl_gpu.register_dialects(ctx) before the first parse or load"
            )
        # A lazily registered factory that was never loaded is safe to replace.
        compat.replace_context_dialect(ctx, name, factory)
