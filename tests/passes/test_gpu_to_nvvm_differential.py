"""``convert-gpu-to-nvvm`` against ``mlir-opt-22 --convert-gpu-to-nvvm``.

For every kernel of :mod:`tests.passes.gpu_to_nvvm_corpus` both results are parsed
(xDSL reads what mlir-opt-22 prints) and compared:

* the **parameter lists** (and results) of every ``llvm.func``, kernels, device
  functions, C wrappers and declarations (``__nv_*``, ``vprintf``, ``__assertfail``);
* the **function attributes** (``gpu.kernel``, ``nvvm.kernel``, ``nvvm.maxntid``,
  ``nvvm.cluster_dim``, ``gpu.known_*``, ``llvm.emit_c_interface``) and argument
  attributes;
* the **globals** (name, type, address space, alignment, constness, string value);
* the **lowered structure** of each function body: the multiset of NVVM ops with their
  properties (``range`` of every special register read, shuffle kind and form, redux
  kind), of called functions, of allocas and of referenced globals.

SSA text and the order of plain arithmetic need not match. Where MLIR 22 cannot lower a
kernel (``upstream_fails``) it must fail with "failed to legalize", and ours must
succeed. Every kernel we lower is also compiled to a cubin through
``xdsl_gpu/targets/llvm_ir`` and ``xdsl_gpu/targets/nvvm/serializer.py`` (nvJitLink, libdevice linked),
to show that it assembles.
"""

from __future__ import annotations

import shutil
import subprocess
from collections import Counter
from typing import Any

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.parser import Parser

from tests.passes.gpu_to_nvvm_corpus import CASES, Case
from tests.support.xdsl_tools import available_passes, make_context
from xdsl_gpu.gpu_dialect import llvm
from xdsl_gpu.gpu_dialect.gpu import kernel_ops
from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import CompilationTarget
from xdsl_gpu.passes.convert_gpu_to_nvvm import ConvertGpuToNVVMPass
from xdsl_gpu.passes.reconcile_unrealized_casts import ReconcileUnrealizedCastsPass
from xdsl_gpu.targets.llvm_ir import NVPTX_DATA_LAYOUT, NVPTX_TRIPLE, convert_module
from xdsl_gpu.targets.nvvm.serializer import NVVMOptions, serialize

MLIR_OPT = shutil.which("mlir-opt-22")
requires_mlir = pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 not installed")


def _options(case: Case) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in case.options.split():
        key, value = item.split("=")
        key = key.replace("-", "_")
        options[key] = int(value) if value.isdigit() else value == "true"
    return options


def lower_ours(case: Case) -> tuple[Context, ModuleOp]:
    ctx = make_context()
    module = Parser(ctx, case.text).parse_module()
    passes = available_passes()
    for name in case.pre:
        passes[name]()().apply(ctx, module)
    ConvertGpuToNVVMPass(**_options(case)).apply(ctx, module)
    module.verify()
    return ctx, module


def lower_upstream(case: Case) -> subprocess.CompletedProcess[str]:
    assert MLIR_OPT is not None
    convert = "--convert-gpu-to-nvvm"
    if case.options:
        convert += "=" + case.options
    args = [MLIR_OPT, *(f"--{p}" for p in case.pre), convert]
    return subprocess.run(args, input=case.text, capture_output=True, text=True)


def gpu_module(module: ModuleOp) -> kernel_ops.ModuleOp:
    (found,) = [op for op in module.walk() if isinstance(op, kernel_ops.ModuleOp)]
    return found


def _props(op: Operation, skip: tuple[str, ...] = ()) -> str:
    return ", ".join(
        f"{k}={v}" for k, v in sorted(op.properties.items()) if k not in skip
    )


def _structure_key(op: Operation) -> str | None:
    """What the comparison counts in a function body."""
    if op.name.startswith("nvvm."):
        return f"{op.name} {_props(op)} -> {[str(r.type) for r in op.results]}"
    if isinstance(op, llvm.CallOp):
        assert op.callee is not None
        return f"call {op.callee.string_value()}"
    if isinstance(op, llvm.AllocaOp):
        return f"alloca {_props(op)}"
    if isinstance(op, llvm.AddressOfOp):
        return f"addressof {_props(op)}"
    if op.name == "llvm.call_intrinsic":
        return f"intrinsic {op.properties['intrin']}"
    return None


def skeleton(module: ModuleOp) -> dict[str, Any]:
    """The parts of a lowered ``gpu.module`` that must equal upstream's."""
    functions: dict[str, Any] = {}
    globals_: dict[str, Any] = {}
    gm = gpu_module(module)
    for op in gm.body.block.ops:
        if isinstance(op, llvm.FuncOp):
            fn_type = op.function_type
            functions[op.sym_name.data] = {
                "params": [str(t) for t in fn_type.inputs],
                "result": str(fn_type.output),
                "attributes": {k: str(v) for k, v in op.attributes.items()},
                "arg_attrs": str(op.arg_attrs) if op.arg_attrs else None,
                "linkage": str(op.linkage),
                "passthrough": str(op.passthrough) if op.passthrough else None,
                "body": Counter(
                    key for o in op.walk() if (key := _structure_key(o)) is not None
                ),
            }
        elif isinstance(op, llvm.GlobalOp):
            value = op.value
            globals_[op.sym_name.data] = {
                "type": str(op.global_type),
                "addr_space": op.addr_space.value.data,
                "alignment": op.alignment.value.data if op.alignment else None,
                "constant": op.constant is not None,
                "linkage": str(op.linkage),
                "value": value.data if isinstance(value, StringAttr) else None,
            }
        else:
            raise AssertionError(f"unexpected {op.name} at gpu.module level")
    return {
        "targets": str(gm.targets),
        "functions": functions,
        "globals": globals_,
    }


def compile_to_cubin(ctx: Context, module: ModuleOp) -> bytes:
    ReconcileUnrealizedCastsPass().apply(ctx, module)
    ir = convert_module(
        gpu_module(module), triple=NVPTX_TRIPLE, data_layout=NVPTX_DATA_LAYOUT
    )
    return serialize(ir, NVVMOptions(chip="sm_90"), CompilationTarget.Binary).data


_COMPARED = [c for c in CASES if not c.upstream_fails]
_BEYOND = [c for c in CASES if c.upstream_fails]


@requires_mlir
@pytest.mark.parametrize("case", _COMPARED, ids=lambda c: c.name)
def test_same_parameters_and_structure_as_mlir_opt(case: Case) -> None:
    upstream = lower_upstream(case)
    assert upstream.returncode == 0, upstream.stderr
    theirs = skeleton(Parser(make_context(), upstream.stdout).parse_module())
    _, module = lower_ours(case)
    ours = skeleton(module)
    assert ours["targets"] == theirs["targets"]
    assert ours["globals"] == theirs["globals"]
    assert ours["functions"].keys() == theirs["functions"].keys()
    for name, function in ours["functions"].items():
        expected = theirs["functions"][name]
        assert function["params"] == expected["params"], name
        for key in ("result", "attributes", "arg_attrs", "linkage", "passthrough"):
            assert function[key] == expected[key], (name, key)
        assert function["body"] == expected["body"], name


@requires_mlir
@pytest.mark.parametrize("case", _BEYOND, ids=lambda c: c.name)
def test_lowers_what_mlir_opt_cannot(case: Case) -> None:
    upstream = lower_upstream(case)
    assert upstream.returncode != 0
    assert "failed to legalize operation" in upstream.stderr
    _, module = lower_ours(case)
    remaining = {
        op.name
        for op in gpu_module(module).walk()
        if not op.name.startswith(("llvm.", "nvvm.", "builtin.", "gpu.module"))
    }
    assert not remaining


# What gpu-module-to-binary's formats start with: LLVM bitcode, PTX text, an ELF cubin,
# a fatbin (magic 0xBA55ED50).
_MAGIC = {
    "offloading": b"BC\xc0\xde",
    "isa": b"//",
    "bin": b"\x7fELF",
    "fatbin": b"\x50\xed\x55\xba",
}


@pytest.mark.parametrize("fmt", sorted(_MAGIC))
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_every_kernel_in_every_format(case: Case, fmt: str) -> None:
    """The whole corpus through gpu-module-to-binary, in each of its four formats,
    with nothing but the PyPI packages (no CUDA toolkit on CI)."""
    from xdsl_gpu.passes.gpu_module_to_binary import GpuModuleToBinaryPass

    ctx, module = lower_ours(case)
    ReconcileUnrealizedCastsPass().apply(ctx, module)
    GpuModuleToBinaryPass(format=fmt).apply(ctx, module)
    (binary,) = [op for op in module.walk() if isinstance(op, kernel_ops.BinaryOp)]
    (obj,) = binary.objects.data
    assert obj.object.data.startswith(_MAGIC[fmt])


def test_the_shuffle_tree_of_a_clustered_reduction() -> None:
    """``cluster(size = 8, stride = 2)``: offsets 2, 4, 8 (three xor shuffles)."""
    case = next(c for c in CASES if c.name == "subgroup_reduce")
    _, module = lower_ours(case)
    fn = skeleton(module)["functions"]["subgroup_reduce"]
    shuffles = sum(n for k, n in fn["body"].items() if k.startswith("nvvm.shfl.sync"))
    # add: 5, maximumf cluster 4: 2, mul: 5, minui cluster 8: 3, f16 add: 5,
    # vector<2xf32> cluster 16: 4 per element, two elements.
    assert shuffles == 5 + 2 + 5 + 3 + 5 + 2 * 4
