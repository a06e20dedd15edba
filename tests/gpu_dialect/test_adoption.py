"""Ops built by xDSL's passes with xDSL's classes become the registered class."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import builtin, func
from xdsl.dialects import gpu as xdsl_gpu_dialect
from xdsl.dialects.builtin import MemRefType, f32

from xdsl_gpu.gpu_dialect import register_dialects
from xdsl_gpu.gpu_dialect.adoption import adopt_foreign_ops
from xdsl_gpu.gpu_dialect.gpu import GPU


def test_xdsls_gpu_alloc_becomes_ours_with_its_uses_and_names() -> None:
    ctx = Context()
    register_dialects(ctx)
    alloc = xdsl_gpu_dialect.AllocOp(MemRefType(f32, [4]))
    alloc.result.name_hint = "buffer"
    dealloc = xdsl_gpu_dialect.DeallocOp(alloc.result)
    body = func.FuncOp("f", ((), ()))
    body.body.block.add_ops([alloc, dealloc, func.ReturnOp()])
    module = builtin.ModuleOp([body])

    assert adopt_foreign_ops(module, ctx) == 2

    ours = {op.name: op for op in GPU.operations}
    new_alloc, new_dealloc, _ = body.body.block.ops
    assert type(new_alloc) is ours["gpu.alloc"]
    assert type(new_dealloc) is ours["gpu.dealloc"]
    assert new_dealloc.operands[0] is new_alloc.results[0]
    assert new_alloc.results[0].name_hint == "buffer"
    assert alloc.parent is None  # the old op is gone
    module.verify()
    assert adopt_foreign_ops(module, ctx) == 0
