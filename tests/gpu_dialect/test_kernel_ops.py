"""Python builders and accessors of gpu.module, gpu.func, gpu.return, gpu.binary,
gpu.launch, gpu.terminator and gpu.launch_func (the syntax is covered by
tests/filecheck/dialects/gpu/{kernel_ops,invalid_kernel_ops}.mlir)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from xdsl.dialects import arith, func
from xdsl.dialects import test as test_dialect
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FloatAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    MemRefType,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
    f32,
    i32,
    i64,
)
from xdsl.dialects.builtin import (
    ModuleOp as BuiltinModuleOp,
)
from xdsl.ir import Block, Operation, ParametrizedAttribute, Region
from xdsl.irdl import irdl_attr_definition
from xdsl.transforms.canonicalize import CanonicalizePass
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.test_value import create_ssa_value

from tests.support.xdsl_tools import make_context, parse, print_module
from xdsl_gpu.gpu_dialect.gpu.attributes import AddressSpaceAttr
from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import ObjectAttr, SelectObjectAttr
from xdsl_gpu.gpu_dialect.gpu.interfaces import TargetAttrInterface
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import (
    BinaryOp,
    FuncOp,
    LaunchFuncOp,
    LaunchOp,
    ModuleOp,
    ReturnOp,
    TerminatorOp,
)
from xdsl_gpu.gpu_dialect.gpu.types import AsyncTokenType

WORKGROUP = MemRefType(f32, [32], memory_space=AddressSpaceAttr("workgroup"))
PRIVATE = MemRefType(f32, [1], memory_space=AddressSpaceAttr("private"))


def _body(op: Operation) -> str:
    return print_module(BuiltinModuleOp([op]))


# gpu.module ---------------------------------------------------------------------------


_VERIFIED: list[Operation] = []
"""The modules that _CheckingTarget was asked to verify."""


@irdl_attr_definition
class _CheckingTarget(TargetAttrInterface, ParametrizedAttribute):
    """A target attribute that refuses modules holding a function named `@bad`
    (a target: it implements the target interface in-class)."""

    name = "test.checking_target"

    def verify_target(self, module_op: Operation) -> None:
        _VERIFIED.append(module_op)
        for op in module_op.walk():
            if isinstance(op, FuncOp) and op.sym_name.data == "bad":
                raise VerifyException("@bad is not supported on this target")


def _kernel(name: str) -> FuncOp:
    kernel = FuncOp(name, ([], []), kernel=True)
    kernel.body.block.add_op(ReturnOp())
    return kernel


def test_module_builder_and_targets() -> None:
    target = _CheckingTarget()
    module = ModuleOp("kernels", targets=[target])
    assert module.sym_name.data == "kernels"
    assert module.has_target(target)
    assert module.offloading_handler is None
    assert len(module.body.blocks) == 1
    module.verify()
    assert "gpu.module @kernels [#test.checking_target] {" in _body(module)

    module.set_targets([target, target])
    assert module.targets == ArrayAttr([target, target])
    no_targets = ModuleOp("plain")
    assert no_targets.targets is None
    assert not no_targets.has_target(target)


def test_module_asks_its_targets_to_verify_it() -> None:
    _VERIFIED.clear()
    module = ModuleOp("kernels", targets=[_CheckingTarget()])
    module.body.block.add_op(_kernel("good"))
    module.verify()
    assert _VERIFIED == [module]

    module.body.block.add_op(_kernel("bad"))
    with pytest.raises(VerifyException, match="@bad is not supported on this target"):
        module.verify()


def test_module_handler_and_empty_targets() -> None:
    handler = SelectObjectAttr(1)
    module = ModuleOp("m", targets=[_CheckingTarget()], offloading_handler=handler)
    assert "gpu.module @m <#gpu.select_object<1 : i64>> [" in _body(module)
    empty = ModuleOp("m", targets=ArrayAttr([]))
    with pytest.raises(VerifyException, match="'targets' failed to satisfy"):
        empty.verify()


# gpu.func and gpu.return --------------------------------------------------------------


def test_func_builder_accessors_and_syntax() -> None:
    kernel = FuncOp(
        "kernel",
        ([f32, IndexType()], []),
        workgroup=[WORKGROUP],
        private=[PRIVATE],
        kernel=True,
        known_block_size=[32, 1, 1],
    )
    assert kernel.is_kernel
    assert kernel.kernel == UnitAttr()
    assert kernel.num_arguments == 2
    assert kernel.num_workgroup_attributions == 1
    assert kernel.num_private_attributions == 1
    block = kernel.body.block
    assert kernel.arguments == tuple(block.args[:2])
    assert kernel.workgroup_attributions == (block.args[2],)
    assert kernel.private_attributions == (block.args[3],)
    assert kernel.attributes["workgroup_attributions"] == IntegerAttr(1, i64)
    block.add_op(ReturnOp())
    module = ModuleOp("m")
    module.body.block.add_op(kernel)
    module.verify()

    text = _body(module)
    assert "gpu.func @kernel(%0: f32, %1: index) workgroup(%2 : memref<32xf32, " in text
    assert "private(%3 : memref<1xf32, #gpu.address_space<private>>) kernel " in text
    assert "attributes {known_block_size = array<i32: 32, 1, 1>}" in text
    assert print_module(parse(text)) == text


def test_func_attribution_insertion_keeps_the_layout() -> None:
    fn = FuncOp("f", ([f32], []), workgroup=[WORKGROUP], private=[PRIVATE])
    new_wg = fn.add_workgroup_attribution(WORKGROUP)
    new_priv = fn.add_private_attribution(PRIVATE)
    assert fn.num_workgroup_attributions == 2
    assert fn.workgroup_attributions[1] is new_wg
    assert fn.private_attributions == (fn.body.block.args[3], new_priv)
    assert [a.type for a in fn.body.block.args] == [
        f32,
        WORKGROUP,
        WORKGROUP,
        PRIVATE,
        PRIVATE,
    ]
    fn.is_kernel = True
    assert fn.attributes["gpu.kernel"] == UnitAttr()
    fn.is_kernel = False
    assert "gpu.kernel" not in fn.attributes


def test_func_with_results_arg_attrs_and_a_given_region() -> None:
    region = Region(Block(arg_types=[f32]))
    fn = FuncOp(
        "device",
        FunctionType.from_lists([f32], [f32]),
        region,
        arg_attrs=ArrayAttr([DictionaryAttr({"llvm.noalias": UnitAttr()})]),
        res_attrs=ArrayAttr([DictionaryAttr({"llvm.x": UnitAttr()})]),
        attributes={"qux": StringAttr("q")},
    )
    fn.body.block.add_op(ReturnOp([fn.arguments[0]]))
    assert not fn.is_kernel
    assert fn.body is region
    module = ModuleOp("m")
    module.body.block.add_op(fn)
    module.verify()
    text = _body(module)
    assert (
        "gpu.func @device(%0: f32 {llvm.noalias}) -> (f32 {llvm.x}) "
        'attributes {qux = "q"}'
    ) in text
    assert "gpu.return %0 : f32" in text


def test_kernel_must_return_nothing() -> None:
    fn = FuncOp("k", ([], [f32]), kernel=True)
    fn.body.block.add_op(c := arith.ConstantOp(FloatAttr(1.0, f32)))
    fn.body.block.add_op(ReturnOp([c]))
    ModuleOp("m").body.block.add_op(fn)
    with pytest.raises(VerifyException, match="expected void return type"):
        fn.verify()


def test_return_checks_the_function_type() -> None:
    fn = FuncOp("f", ([i32], [f32]))
    fn.body.block.add_op(ReturnOp([fn.arguments[0]]))
    ModuleOp("m").body.block.add_op(fn)
    with pytest.raises(VerifyException, match="unexpected type `'i32'' for operand #0"):
        fn.verify()


# gpu.binary ---------------------------------------------------------------------------


def test_binary_default_handler_is_select_object_and_elided() -> None:
    objects = [ObjectAttr(_CheckingTarget(), "blob")]
    binary = BinaryOp("kernels", objects)
    assert binary.offloading_handler == SelectObjectAttr()
    assert binary.objects == ArrayAttr(objects)
    binary.verify()
    blob = '#gpu.object<#test.checking_target, "blob">'
    assert f"gpu.binary @kernels [{blob}]" in _body(binary)

    other = BinaryOp("kernels", objects, SelectObjectAttr(1))
    assert f"gpu.binary @kernels <#gpu.select_object<1 : i64>> [{blob}]" in _body(other)
    with pytest.raises(VerifyException, match="'objects' failed to satisfy"):
        BinaryOp("empty", []).verify()


# gpu.launch and gpu.terminator --------------------------------------------------------


def test_launch_builder_block_argument_layout() -> None:
    host = func.FuncOp("host", ([IndexType(), i32, AsyncTokenType()], []))
    one, smem, dep = host.body.block.args
    launch = LaunchOp(
        (one, one, one),
        (one, one, one),
        cluster_size=(one, one, one),
        dynamic_shared_memory_size=smem,
        async_dependencies=[dep],
        is_async=True,
        workgroup=[WORKGROUP],
        private=[PRIVATE],
        module="kmod",
        function="kfn",
    )
    launch.body.block.add_op(TerminatorOp())
    host.body.block.add_ops([launch, func.ReturnOp()])
    args = launch.body.block.args
    assert len(args) == 20
    assert launch.block_ids == tuple(args[0:3])
    assert launch.thread_ids == tuple(args[3:6])
    assert launch.grid_size == tuple(args[6:9])
    assert launch.block_size == tuple(args[9:12])
    assert launch.cluster_ids == tuple(args[12:15])
    assert launch.cluster_size == tuple(args[15:18])
    assert launch.workgroup_attributions == (args[18],)
    assert launch.private_attributions == (args[19],)
    assert launch.num_config_region_arguments == 18
    assert launch.has_cluster_size
    assert launch.grid_size_operands == (one, one, one)
    assert launch.cluster_size_operands == (one, one, one)
    assert launch.dynamic_shared_memory_size is smem
    assert launch.async_token is not None
    assert launch.is_async
    assert tuple(launch.async_dependencies) == (dep,)
    assert launch.module == SymbolRefAttr("kmod")
    host.verify()

    text = _body(host)
    assert "%3 = gpu.launch async [%2] clusters(%4, %5, %6) in (%7 = %0, " in text
    assert (
        " dynamic_shared_memory_size %1 module(@kmod) function(@kfn) workgroup(%"
        in text
    )
    assert print_module(parse(text)) == text


def test_launch_without_clusters_and_attribution_insertion() -> None:
    one = create_ssa_value(IndexType())
    launch = LaunchOp((one, one, one), (one, one, one), private=[PRIVATE])
    launch.body.block.add_op(TerminatorOp())
    assert len(launch.body.block.args) == 13
    assert not launch.has_cluster_size
    assert launch.cluster_ids is None
    assert launch.cluster_size is None
    assert launch.cluster_size_operands is None
    assert not launch.is_async
    wg = launch.add_workgroup_attribution(WORKGROUP)
    assert launch.body.block.args[12] is wg
    assert launch.workgroup_attributions == (wg,)
    assert launch.private_attributions == (launch.body.block.args[-1],)
    launch.verify()


def test_launch_can_become_async_and_keeps_its_body() -> None:
    one = create_ssa_value(IndexType())
    token = create_ssa_value(AsyncTokenType())
    launch = LaunchOp((one, one, one), (one, one, one), workgroup=[WORKGROUP])
    launch.body.block.add_op(TerminatorOp())
    block = launch.body.block
    made = launch.make_async([token])
    assert made.is_async
    assert tuple(made.async_dependencies) == (token,)
    assert made.body.block is block
    assert made.num_workgroup_attributions == 1
    made.verify()


def test_launch_body_must_end_in_terminator() -> None:
    one = create_ssa_value(IndexType())
    launch = LaunchOp((one, one, one), (one, one, one))
    launch.body.block.add_op(test_dialect.TestTermOp())
    with pytest.raises(VerifyException, match=r"expected 'gpu\.terminator'"):
        launch.verify()


def test_launch_size_count_is_checked() -> None:
    one = create_ssa_value(IndexType())
    with pytest.raises(ValueError, match="grid_size needs three values"):
        LaunchOp((one, one), (one, one, one))


# gpu.launch_func ----------------------------------------------------------------------


def _container(*ops: Operation) -> BuiltinModuleOp:
    return BuiltinModuleOp(list(ops), {"gpu.container_module": UnitAttr()})


def test_launch_func_builder_and_accessors() -> None:
    kernel = FuncOp("k", ([f32], []), kernel=True)
    kernel.body.block.add_op(ReturnOp())
    kernels = ModuleOp("kernels")
    kernels.body.block.add_op(kernel)

    host = func.FuncOp("host", ([IndexType(), f32, AsyncTokenType(), i32], []))
    c, x, dep, smem = host.body.block.args
    launch = LaunchFuncOp(
        kernel,
        (c, c, c),
        (c, c, c),
        [x],
        async_dependencies=[dep],
        is_async=True,
        cluster=(c, c, c),
        dynamic_shared_memory_size=smem,
    )
    host.body.block.add_ops([launch, func.ReturnOp()])
    module = _container(kernels, host)
    module.verify()

    assert launch.kernel == SymbolRefAttr("kernels", ["k"])
    assert launch.kernel_module_name == "kernels"
    assert launch.kernel_name == "k"
    assert tuple(launch.kernel_operands) == (x,)
    assert launch.grid_size_operands == (c, c, c)
    assert launch.block_size_operands == (c, c, c)
    assert launch.cluster_size_operands == (c, c, c)
    assert launch.async_object is None
    assert launch.is_async
    text = _body(module)
    assert (
        "= gpu.launch_func async [%2] @kernels::@k clusters in (%0, %0, %0) "
        "blocks in (%0, %0, %0) threads in (%0, %0, %0) "
        "dynamic_shared_memory_size %3 args(%1 : f32)"
    ) in text
    assert print_module(parse(text)) == text


def test_launch_func_with_stream_and_i64_sizes() -> None:
    ptr = create_ssa_value(i64)
    c = create_ssa_value(i64)
    launch = LaunchFuncOp(SymbolRefAttr("bin", ["k"]), (c, c, c), (c, c, c), stream=ptr)
    assert launch.async_object is ptr
    assert not launch.has_cluster_size
    assert launch.cluster_size_operands is None
    text = _body(launch)
    assert "gpu.launch_func <%0 : i64> @bin::@k blocks in (%1, %1, %1) " in text
    assert "threads in (%1, %1, %1) : i64\n" in text


def test_launch_func_can_become_async() -> None:
    """The AsyncOpInterface that gpu-async-region relies on works on launches."""
    c = create_ssa_value(IndexType())
    token = create_ssa_value(AsyncTokenType())
    launch = LaunchFuncOp(SymbolRefAttr("m", ["k"]), (c, c, c), (c, c, c))
    assert not launch.is_async
    made = launch.make_async([token])
    assert made.is_async
    assert tuple(made.async_dependencies) == (token,)
    assert made.kernel == launch.kernel
    assert tuple(made.grid_size_operands) == (c, c, c)


def test_launch_func_needs_a_container_module_and_a_kernel() -> None:
    kernels = ModuleOp("kernels")
    kernels.body.block.add_op(fn := FuncOp("k", ([], [])))
    fn.body.block.add_op(ReturnOp())
    host = func.FuncOp("host", ([IndexType()], []))
    (c,) = host.body.block.args
    launch = LaunchFuncOp(fn, (c, c, c), (c, c, c))
    host.body.block.add_ops([launch, func.ReturnOp()])

    plain = BuiltinModuleOp([kernels, host])
    with pytest.raises(VerifyException, match=r"'gpu\.container_module' attribute"):
        launch.verify()
    plain.attributes["gpu.container_module"] = UnitAttr()
    with pytest.raises(VerifyException, match=r"missing the 'gpu\.kernel' attribute"):
        launch.verify()
    fn.is_kernel = True
    launch.verify()


def test_launch_func_of_a_binary_is_not_checked_further() -> None:
    host = func.FuncOp("host", ([IndexType()], []))
    (c,) = host.body.block.args
    launch = LaunchFuncOp(SymbolRefAttr("bin", ["anything"]), (c, c, c), (c, c, c))
    host.body.block.add_ops([launch, func.ReturnOp()])
    binary = BinaryOp("bin", [ObjectAttr(_CheckingTarget(), "blob")])
    _container(binary, host).verify()


def test_launch_func_of_a_func_outside_a_gpu_module_is_refused() -> None:
    fn = FuncOp("k", ([], []))
    c = create_ssa_value(IndexType())
    with pytest.raises(ValueError, match=r"not inside a gpu\.module"):
        LaunchFuncOp(fn, (c, c, c), (c, c, c))


def test_only_gpu_address_spaces_are_checked() -> None:
    """Like upstream, only a #gpu.address_space is compared with the attribution
    kind: a memory space already lowered to a number passes, a wrong
    #gpu.address_space does not."""
    numeric = MemRefType(f32, [4], memory_space=IntegerAttr(5, i64))
    fn = FuncOp("f", ([], []), workgroup=[numeric], private=[numeric])
    fn.body.block.add_op(ReturnOp())
    ModuleOp("m").body.block.add_op(fn)
    fn.verify()

    wrong = FuncOp("g", ([], []), workgroup=[PRIVATE])
    wrong.body.block.add_op(ReturnOp())
    ModuleOp("m").body.block.add_op(wrong)
    with pytest.raises(VerifyException, match="expected memory space workgroup"):
        wrong.verify()


# Upstream rejects what we reject, with the same words ---------------------------------

MLIR_OPT = shutil.which("mlir-opt-22")
INVALID = Path(__file__).parents[1] / "filecheck/dialects/gpu/invalid_kernel_ops.mlir"
INVALID_CHUNKS = [
    chunk
    for chunk in INVALID.read_text().split("// -----")
    if "NO-MLIR-OPT:" not in chunk
]


CANONICALIZE = INVALID.with_name("canonicalize_kernel_ops.mlir")


def _mlir_opt(text: str, *args: str) -> str:
    assert MLIR_OPT is not None
    done = subprocess.run(
        [MLIR_OPT, *args], input=text, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 not installed")
@pytest.mark.parametrize("chunk", CANONICALIZE.read_text().split("// -----"))
def test_canonicalization_matches_upstream(chunk: str) -> None:
    module = parse(chunk)
    CanonicalizePass().apply(make_context(), module)
    assert _mlir_opt(print_module(module)) == _mlir_opt(chunk, "--canonicalize")


@pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 not installed")
@pytest.mark.parametrize("chunk", INVALID_CHUNKS, ids=range(len(INVALID_CHUNKS)))
def test_upstream_rejects_each_invalid_chunk_with_our_message(chunk: str) -> None:
    assert MLIR_OPT is not None
    done = subprocess.run(
        [MLIR_OPT], input=chunk, capture_output=True, text=True, timeout=60
    )
    assert done.returncode != 0, f"mlir-opt-22 accepts:\n{chunk}"
    messages = re.findall(r"^// CHECK: (.*)$", chunk, flags=re.MULTILINE)
    assert messages
    for message in messages:
        assert message in done.stderr
