"""``gpu.subgroup_reduce`` → ``nvvm.redux.sync`` by the ``gpu.module``'s chip
(``sm_80`` and later), a shuffle tree elsewhere; the PTX has ``redux.sync``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.parser import Parser

from xdsl_gpu.gpu_dialect.gpu import kernel_ops
from xdsl_gpu.gpu_dialect.registration import register_dialects
from xdsl_gpu.passes.gpu_to_nvvm_patterns.reductions import targets_have_redux

LAUNCH = (
    Path(__file__).parents[1] / "filecheck/passes/Inputs/subgroup-reduce-launch.mlir"
)


def _module(targets: str) -> kernel_ops.ModuleOp:
    ctx = Context()
    register_dialects(ctx)
    module = Parser(ctx, f"gpu.module @m {targets} {{}}").parse_module()
    (op,) = module.ops
    assert isinstance(op, kernel_ops.ModuleOp)
    return op


@pytest.mark.parametrize(
    ("targets", "expected"),
    [
        ('[#nvvm.target<chip = "sm_80">]', True),
        ('[#nvvm.target<chip = "sm_90a">]', True),
        ('[#nvvm.target<chip = "sm_100">]', True),
        ('[#nvvm.target<chip = "sm_75">]', False),
        ('[#nvvm.target<chip = "sm_90">, #nvvm.target<chip = "sm_70">]', False),
        ("[#nvvm.target]", False),  # sm_50 by default
        ("", False),
    ],
)
def test_targets_have_redux(targets: str, expected: bool) -> None:
    assert targets_have_redux(_module(targets)) is expected


def _ptx(chip: str) -> str:
    from xdsl_gpu.targets.runtime.api import compile_host_llvm_ir, parse_program

    module = parse_program(LAUNCH.read_text(), str(LAUNCH))
    host = compile_host_llvm_ir(module, pipeline_options="cubin-format=isa", chip=chip)
    return host.replace("\\0A", "\n").replace("\\09", "\t")


@pytest.mark.parametrize("chip", ["sm_80", "sm_86", "sm_90"])
def test_ptx_has_redux_sync(chip: str) -> None:
    ptx = _ptx(chip)
    assert re.search(r"redux\.sync\.add\.s32", ptx)
    assert re.search(r"redux\.sync\.min\.u32", ptx)
    assert "shfl.sync" not in ptx


def test_ptx_of_an_older_chip_shuffles() -> None:
    ptx = _ptx("sm_75")
    assert "redux.sync" not in ptx
    assert ptx.count("shfl.sync.bfly.b32") == 10
