"""Python API of the nvvm dialect, ``#nvvm.target`` and ``#rocdl.target``: builders,
typed accessors, the LLVM intrinsic table, ``verify_target`` and the kernel attribute
checks (xDSL has no hook for dialect attributes, so those are tested here).

The printed syntax and the verifier messages are tested against mlir-opt 22 in
tests/filecheck/dialects/{nvvm,rocdl}.
"""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from xdsl.context import Context
from xdsl.dialects import test as xdsl_test
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    UnitAttr,
    f32,
    i1,
    i32,
)
from xdsl.dialects.llvm import LLVMPointerType, LLVMStructType
from xdsl.ir import Attribute, Operation
from xdsl.irdl import IRDLOperation, irdl_op_definition, traits_def
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect import register_dialects
from xdsl_gpu.gpu_dialect.nvvm import (
    NVVM,
    ConstantRangeAttr,
    NVVMTargetAttr,
    RequiresSM,
    SMVersion,
    fence_ops,
    kernel_attrs,
    special_registers,
    sync_ops,
)
from xdsl_gpu.gpu_dialect.nvvm.kernel_attrs import dims_attr, verify_nvvm_attributes
from xdsl_gpu.gpu_dialect.rocdl import ROCDLTargetAttr

MLIR_TRANSLATE = shutil.which("mlir-translate-22")


def _ctx() -> Context:
    ctx = Context()
    register_dialects(ctx)
    return ctx


def _parse(text: str, verify: bool = True) -> ModuleOp:
    module = Parser(_ctx(), text).parse_module()
    if verify:
        module.verify()
    return module


def _values(*types: Attribute) -> tuple:
    return xdsl_test.TestOp(result_types=types).results


# --------------------------------------------------------------------------------------
# #nvvm.target
# --------------------------------------------------------------------------------------


def test_target_defaults() -> None:
    target = NVVMTargetAttr()
    assert str(target) == "#nvvm.target"
    assert target.opt_level == 2
    assert target.triple == "nvptx64-nvidia-cuda"
    assert target.chip == "sm_50"
    assert target.sm == 50
    assert target.features == ""
    assert target.flags is None
    assert target.flags_dict == {}
    assert target.link is None
    assert target.link_files == ()
    assert target.verify_target_enabled
    assert target.ptxas_options == ()
    assert not target.fast_math
    assert not target.ftz


def test_target_python_api_matches_nvvm_attach_target_output() -> None:
    # What `nvvm-attach-target="chip=sm_90 features=+ptx80 O=3 fast=1 ftz=1
    # ptxas-cmd-options=-v l=/a.bc,/b.bc"` produces with mlir-opt 22.
    text = (
        '#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80", flags = {fast, '
        'ftz, "ptxas-cmd-options" = ["-v"]}, link = ["/a.bc", "/b.bc"]>'
    )
    target = NVVMTargetAttr(
        O=3,
        chip="sm_90",
        features="+ptx80",
        flags={"fast": True, "ftz": True, "ptxas-cmd-options": ["-v"]},
        link=["/a.bc", "/b.bc"],
    )
    assert str(target) == text
    assert Parser(_ctx(), text).parse_attribute() == target
    assert target.fast_math
    assert target.ftz
    assert target.ptxas_options == ("-v",)
    assert target.link_files == ("/a.bc", "/b.bc")
    assert set(target.flags_dict) == {"fast", "ftz", "ptxas-cmd-options"}
    assert target.has_flag("fast")
    assert not target.has_flag("slow")


def test_target_defaults_are_stored() -> None:
    parsed = Parser(
        _ctx(), "#nvvm.target<O = 2, verifyTarget = true>"
    ).parse_attribute()
    assert parsed == NVVMTargetAttr()


@pytest.mark.parametrize(
    ("chip", "sm", "accelerated"),
    [("sm_90", 90, False), ("sm_90a", 90, True), ("sm_100f", 100, False)],
)
def test_target_sm(chip: str, sm: int, accelerated: bool) -> None:
    target = NVVMTargetAttr(chip=chip)
    assert target.sm == sm
    assert target.sm_version == SMVersion(sm, accelerated)


@pytest.mark.parametrize("chip", ["gfx900", "sm_", "sm90", "compute_90", "sm_90x"])
def test_target_sm_of_a_chip_that_is_not_sm(chip: str) -> None:
    target = NVVMTargetAttr(chip=chip)
    assert target.sm_version is None
    with pytest.raises(ValueError, match=f'invalid NVVM target chip "{chip}"'):
        _ = target.sm


def test_target_ptxas_options_as_one_string() -> None:
    target = NVVMTargetAttr(flags={"ptxas-cmd-options": "-v --maxrregcount=32"})
    assert target.ptxas_options == ("-v", "--maxrregcount=32")


def test_target_verify_target_flag() -> None:
    target = NVVMTargetAttr(verify_target=False)
    assert not target.verify_target_enabled
    assert str(target) == "#nvvm.target<verifyTarget = false>"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"O": 4}, "The optimization level must be a number between 0 and 3."),
        ({"O": -1}, "The optimization level must be a number between 0 and 3."),
        ({"triple": ""}, "The target triple cannot be empty."),
        ({"chip": ""}, "The target chip cannot be empty."),
        (
            {"link": ArrayAttr([StringAttr("a"), IntegerAttr(1, i32)])},
            "All the elements in the `link` array must be strings.",
        ),
    ],
)
def test_target_invalid(kwargs: dict, message: str) -> None:
    with pytest.raises(VerifyException, match=f"^{message.replace('.', '[.]')}$"):
        NVVMTargetAttr(**kwargs)


def test_target_flags_accept_attributes() -> None:
    flags = DictionaryAttr({"fast": UnitAttr()})
    assert NVVMTargetAttr(flags=flags).flags is flags
    with pytest.raises(TypeError, match="unsupported value for target flag 'x'"):
        NVVMTargetAttr(flags={"x": 1.5})  # type: ignore[dict-item]


# --------------------------------------------------------------------------------------
# verify_target
# --------------------------------------------------------------------------------------


def _gpu_module(
    chip: str, body: str, verify_target: str = "", verify: bool = True
) -> Operation:
    module = _parse(
        f'gpu.module @m [#nvvm.target<chip = "{chip}"{verify_target}>] {{\n'
        f"  llvm.func @k(%v: i32) {{\n{body}\n    llvm.return\n  }}\n}}",
        verify,
    )
    gpu_module = module.body.block.first_op
    assert gpu_module is not None
    assert gpu_module.name == "gpu.module"
    return gpu_module


def _target_of(gpu_module: Operation) -> NVVMTargetAttr:
    targets = gpu_module.properties["targets"]
    assert isinstance(targets, ArrayAttr)
    target = targets.data[0]
    assert isinstance(target, NVVMTargetAttr)
    return target


CLUSTER_ID = "    %0 = nvvm.read.ptx.sreg.clusterid.x : i32"


def test_verify_target_accepts_ops_the_chip_supports() -> None:
    gpu_module = _gpu_module("sm_90", CLUSTER_ID)
    _target_of(gpu_module).verify_target(gpu_module)


def test_verify_target_rejects_an_op_that_needs_a_newer_chip() -> None:
    gpu_module = _gpu_module("sm_70", CLUSTER_ID, verify=False)
    with pytest.raises(VerifyException) as error:
        _target_of(gpu_module).verify_target(gpu_module)
    message = "'nvvm.read.ptx.sreg.clusterid.x' op is not supported on sm_70"
    assert str(error.value) == message
    # The diagnostic marks the op.
    assert f"| {message}" in error.value.__notes__[0]


def test_verify_target_through_the_gpu_module_verifier() -> None:
    with pytest.raises(
        VerifyException, match=r"'nvvm\.redux\.sync' op is not supported"
    ):
        _gpu_module("sm_75", "    %0 = nvvm.redux.sync add %v, %v : i32 -> i32")


def test_verify_target_off() -> None:
    gpu_module = _gpu_module("sm_70", CLUSTER_ID, ", verifyTarget = false")
    _target_of(gpu_module).verify_target(gpu_module)


def test_verify_target_needs_a_gpu_module() -> None:
    with pytest.raises(
        VerifyException, match="NVVM target attribute must be attached to a GPU module"
    ):
        NVVMTargetAttr().verify_target(ModuleOp([]))


@pytest.mark.parametrize(
    ("chip", "message"),
    [
        ("sm_10", "Minimum NVVM target SM version is sm_20"),
        ("abc", 'invalid NVVM target chip "abc", expected sm_<version>\\[a\\|f\\]'),
    ],
)
def test_verify_target_bad_chip(chip: str, message: str) -> None:
    gpu_module = _gpu_module("sm_90", "")
    with pytest.raises(VerifyException, match=message):
        NVVMTargetAttr(chip=chip).verify_target(gpu_module)


@irdl_op_definition
class _NeedsSm90aOp(IRDLOperation):
    name = "test.needs_sm90a"
    traits = traits_def(RequiresSM(90, 100, arch_accelerated=True))


@pytest.mark.parametrize(
    ("chip", "supported"),
    [("sm_90a", True), ("sm_100a", True), ("sm_90", False), ("sm_120a", False)],
)
def test_requires_arch_accelerated_sm(chip: str, supported: bool) -> None:
    requirement = _NeedsSm90aOp.get_trait(RequiresSM)
    assert requirement is not None
    version = SMVersion.from_chip(chip)
    assert version is not None
    assert requirement.is_compatible_with(version) is supported


def test_requires_sm_needs_one_minimum() -> None:
    with pytest.raises(ValueError, match="one minimum version"):
        RequiresSM(80, 90)
    assert RequiresSM(80).is_compatible_with(SMVersion(90))
    assert not RequiresSM(80).is_compatible_with(SMVersion(75, True))


# --------------------------------------------------------------------------------------
# Ops: builders and LLVM intrinsics
# --------------------------------------------------------------------------------------


def test_special_register_builders() -> None:
    op = special_registers.ThreadIdXOp(range=(0, 64))
    op.verify()
    assert str(op) == "%0 = nvvm.read.ptx.sreg.tid.x range <i32, 0, 64> : i32"
    assert op.range == ConstantRangeAttr(i32, 0, 64)
    assert str(special_registers.Clock64Op()) == "%0 = nvvm.read.ptx.sreg.clock64 : i64"
    assert special_registers.LaneIdOp().res.type == i32


def test_special_register_range_is_checked() -> None:
    with pytest.raises(VerifyException, match="Lower == Upper"):
        special_registers.ThreadIdXOp(range=(5, 5)).verify()
    special_registers.ThreadIdXOp(range=(0, 0)).verify()
    assert ConstantRangeAttr(32, 0, 2**32 - 1).upper == -1


def test_constant_range_belongs_to_the_llvm_dialect() -> None:
    from xdsl_gpu.gpu_dialect.llvm import LLVM
    from xdsl_gpu.gpu_dialect.llvm import ConstantRangeAttr as LLVMConstantRangeAttr

    assert ConstantRangeAttr is LLVMConstantRangeAttr
    assert ConstantRangeAttr in LLVM.attributes
    assert ConstantRangeAttr not in NVVM.attributes
    ctx = Context()
    register_dialects(ctx)
    attr = Parser(ctx, "#llvm.constant_range<i8, 200, -1>").parse_attribute()
    assert attr == ConstantRangeAttr(8, -56, -1)
    assert "nvvm" not in {d.name for d in ctx.loaded_dialects}


def test_every_special_register_names_its_intrinsic() -> None:
    smem = {"total", "dynamic", "aggr"}
    for op in special_registers.OPERATIONS:
        intrinsic = op.LLVM_INTRINSIC
        suffix = op.name.removeprefix("nvvm.read.ptx.sreg.")
        if suffix.split(".")[0] in smem:
            assert intrinsic == f"llvm.nvvm.read.ptx.sreg.{suffix.replace('.', '_')}"
        else:
            assert intrinsic == f"llvm.{op.name}"
    assert len(special_registers.ENV_REG_OPS) == 32
    assert special_registers.ENV_REG_OPS[31].name == "nvvm.read.ptx.sreg.envreg31"


def test_every_op_is_registered_and_names_an_intrinsic() -> None:
    m, f, i, c, p = _values(i32, f32, i32, i32, i1)
    (addr,) = _values(LLVMPointerType())
    ops: list[Operation] = [
        sync_ops.Barrier0Op(),
        sync_ops.SyncWarpOp(m),
        sync_ops.ClusterArriveOp(),
        sync_ops.ClusterArriveRelaxedOp(),
        sync_ops.ClusterWaitOp(),
        sync_ops.ShflSyncOp("bfly", m, f, i, c),
        sync_ops.VoteSyncOp("any", m, p),
        sync_ops.ReduxSyncOp("add", i, m),
        sync_ops.ElectSyncOp(),
        fence_ops.MembarOp("cta"),
        fence_ops.FenceScClusterOp(),
        fence_ops.FenceMbarrierInitOp(),
        fence_ops.FenceProxyOp("alias"),
        fence_ops.FenceProxyAcquireOp("cta", addr, i),
        fence_ops.FenceProxyReleaseOp("cta"),
        fence_ops.FenceSyncRestrictOp("acquire"),
        fence_ops.FenceProxySyncRestrictOp("acquire"),
    ]
    registered = set(NVVM.operations)
    assert {type(op) for op in ops} == set(sync_ops.OPERATIONS + fence_ops.OPERATIONS)
    for op in ops:
        op.verify()
        assert type(op) in registered
        assert op.get_llvm_intrinsic().startswith("llvm.nvvm.")


def _intrinsic_cases() -> list[tuple[Operation, str]]:
    """Ops and the intrinsics mlir-translate 22 calls for them (less ``llvm.nvvm.``)."""
    m, f, i, p = _values(i32, f32, i32, i1)
    (a,) = _values(LLVMPointerType())
    sync_restrict = "sync_restrict.space.cluster.scope.cluster"
    return [
        (sync_ops.Barrier0Op(), "barrier.cta.sync.aligned.all"),
        (sync_ops.ClusterArriveOp(True), "barrier.cluster.arrive.aligned"),
        (sync_ops.ClusterArriveRelaxedOp(), "barrier.cluster.arrive.relaxed"),
        (sync_ops.ClusterWaitOp(), "barrier.cluster.wait"),
        (sync_ops.ShflSyncOp("bfly", m, f, i, i), "shfl.sync.bfly.f32"),
        (sync_ops.ShflSyncOp("up", m, i, i, i), "shfl.sync.up.i32"),
        (sync_ops.ShflSyncOp("down", m, f, i, i, True), "shfl.sync.down.f32p"),
        (sync_ops.ShflSyncOp("idx", m, i, i, i, True), "shfl.sync.idx.i32p"),
        (sync_ops.VoteSyncOp("ballot", m, p), "vote.ballot.sync"),
        (sync_ops.VoteSyncOp("uni", m, p), "vote.uni.sync"),
        (sync_ops.ReduxSyncOp("umax", i, m), "redux.sync.umax"),
        (sync_ops.ReduxSyncOp("fmin", f, m, True, True), "redux.sync.fmin.abs.NaN"),
        (sync_ops.ReduxSyncOp("fmax", f, m, nan=True), "redux.sync.fmax.NaN"),
        (sync_ops.ElectSyncOp(m), "elect.sync"),
        (sync_ops.SyncWarpOp(m), "bar.warp.sync"),
        (fence_ops.MembarOp("cta"), "membar.cta"),
        (fence_ops.MembarOp("cluster"), "fence.sc.cluster"),
        (fence_ops.MembarOp("gpu"), "membar.gl"),
        (fence_ops.MembarOp("sys"), "membar.sys"),
        (fence_ops.FenceMbarrierInitOp(), "fence.mbarrier_init.release.cluster"),
        (fence_ops.FenceProxyOp("async.global"), "fence.proxy.async.global"),
        (
            fence_ops.FenceProxyOp("async.shared", "cluster"),
            "fence.proxy.async.shared_cluster",
        ),
        (
            fence_ops.FenceProxyAcquireOp("sys", a, i),
            "fence.proxy.tensormap_generic.acquire.sys",
        ),
        (
            fence_ops.FenceProxyReleaseOp("gpu"),
            "fence.proxy.tensormap_generic.release.gpu",
        ),
        (
            fence_ops.FenceSyncRestrictOp("release"),
            "fence.release.sync_restrict.space.cta.scope.cluster",
        ),
        (
            fence_ops.FenceProxySyncRestrictOp("acquire"),
            f"fence.proxy.async_generic.acquire.{sync_restrict}",
        ),
    ]


def test_intrinsic_names() -> None:
    for op, intrinsic in _intrinsic_cases():
        op.verify()
        assert op.get_llvm_intrinsic() == f"llvm.nvvm.{intrinsic}", op.name


def test_collective_builders_infer_result_types() -> None:
    m, f, p = _values(i32, f32, i1)
    shfl = sync_ops.ShflSyncOp("idx", m, f, m, m, return_value_and_is_valid=True)
    assert shfl.res.type == LLVMStructType.from_type_list([f32, i1])
    assert sync_ops.VoteSyncOp("ballot", m, p).res.type == i32
    assert sync_ops.VoteSyncOp("all", m, p).res.type == i1
    assert sync_ops.ReduxSyncOp("fmax", f, m).res.type == f32
    assert sync_ops.ElectSyncOp().membermask is None


def test_builders_are_verified() -> None:
    m, f = _values(i32, f32)
    invalid = [
        (sync_ops.ReduxSyncOp("add", f, m), "'add' redux kind unsupported with 'f32'"),
        (sync_ops.ReduxSyncOp("add", m, m, abs=True), "abs attribute is supported"),
        (fence_ops.FenceProxyOp("generic"), "generic proxy not a supported proxy"),
        (fence_ops.FenceProxyOp("async.shared"), "fence requires space attribute"),
        (fence_ops.FenceSyncRestrictOp("relaxed"), "only acquire and release"),
    ]
    for op, message in invalid:
        with pytest.raises(VerifyException, match=message):
            op.verify()


# --------------------------------------------------------------------------------------
# Kernel attributes
# --------------------------------------------------------------------------------------


def _llvm_func(attrs: str, args: str = "") -> Operation:
    module = _parse(
        f"llvm.func @k({args}) attributes {{{attrs}}} {{\n  llvm.return\n}}",
        verify=False,
    )
    func = module.body.block.first_op
    assert func is not None
    return func


def test_kernel_attributes_valid() -> None:
    func = _llvm_func(
        "nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>, nvvm.reqntid = "
        "array<i32: 64>, nvvm.minctasm = 2 : i32, nvvm.maxnreg = 32 : i32, "
        "nvvm.cluster_dim = array<i32: 2, 1>, nvvm.cluster_max_blocks = 8 : i64, "
        "nvvm.blocksareclusters"
    )
    verify_nvvm_attributes(func)
    assert func.attributes[kernel_attrs.MAXNTID] == dims_attr([128, 1, 1])


def _dims_message(name: str) -> str:
    return f"'\"{name}\"' attribute must be integer array with maximum 3 index"


def _integer_message(name: str) -> str:
    return f"'\"{name}\"' attribute must be integer constant"


@pytest.mark.parametrize(
    ("attrs", "message"),
    [
        ("nvvm.maxntid = array<i32: 1, 2, 3, 4>", _dims_message("nvvm.maxntid")),
        ("nvvm.reqntid = array<i32>", _dims_message("nvvm.reqntid")),
        ("nvvm.cluster_dim = array<i64: 1>", _dims_message("nvvm.cluster_dim")),
        ("nvvm.maxntid = [1, 2]", _dims_message("nvvm.maxntid")),
        ('nvvm.minctasm = "2"', _integer_message("nvvm.minctasm")),
        ("nvvm.maxnreg = 2.0", _integer_message("nvvm.maxnreg")),
        ("nvvm.cluster_max_blocks", _integer_message("nvvm.cluster_max_blocks")),
        (
            "nvvm.blocksareclusters, nvvm.reqntid = array<i32: 64>",
            "'\"nvvm.blocksareclusters\"' attribute must be used along with "
            "'nvvm.reqntid' and 'nvvm.cluster_dim'",
        ),
    ],
)
def test_kernel_attributes_invalid(attrs: str, message: str) -> None:
    func = _llvm_func(attrs)
    with pytest.raises(VerifyException) as error:
        verify_nvvm_attributes(func)
    assert str(error.value) == message
    # Ordinary verification checks them too (the hook of xdsl_gpu/gpu_dialect/registration.py).
    with pytest.raises(VerifyException, match=re.escape(message)):
        func.verify()


def test_kernel_attribute_on_another_op() -> None:
    op = xdsl_test.TestOp(attributes={kernel_attrs.KERNEL: UnitAttr()})
    with pytest.raises(VerifyException) as error:
        verify_nvvm_attributes(op)
    assert str(error.value) == "'nvvm.kernel' attribute attached to unexpected op"


GRID_CONSTANT_BYVAL = "{nvvm.grid_constant, llvm.byval = i32}"


@pytest.mark.parametrize(
    ("kernel", "arg", "message"),
    [
        (True, GRID_CONSTANT_BYVAL, None),
        (False, GRID_CONSTANT_BYVAL, "must be present only on kernel arguments"),
        (True, "{nvvm.grid_constant}", "requires the argument to also have attribute"),
        (True, "{nvvm.grid_constant = 1 : i32, llvm.byval = i32}", "must be a unit"),
    ],
)
def test_grid_constant_argument(kernel: bool, arg: str, message: str | None) -> None:
    func = _llvm_func("nvvm.kernel" if kernel else "", f"%a: !llvm.ptr {arg}")
    if message is None:
        verify_nvvm_attributes(func)
        return
    with pytest.raises(VerifyException, match=f"^'\"nvvm.grid_constant\"' .*{message}"):
        verify_nvvm_attributes(func)
    with pytest.raises(VerifyException, match=message):
        func.verify()


# --------------------------------------------------------------------------------------
# #rocdl.target
# --------------------------------------------------------------------------------------


def test_rocdl_target_defaults_and_flags() -> None:
    target = ROCDLTargetAttr()
    assert str(target) == "#rocdl.target"
    assert (target.opt_level, target.triple, target.chip, target.abi) == (
        2,
        "amdgcn-amd-amdhsa",
        "gfx900",
        "600",
    )
    assert target.wave64
    assert target.correct_sqrt
    assert not target.fast_math
    # What `rocdl-attach-target="wave64=false fast=1 correct-sqrt=false abi=500 O=3"`
    # produces with mlir-opt 22.
    target = ROCDLTargetAttr(
        O=3, abi="500", flags={"fast": True, "no_wave64": True, "unsafe_sqrt": True}
    )
    assert str(target) == (
        '#rocdl.target<O = 3, abi = "500", flags = {fast, no_wave64, unsafe_sqrt}>'
    )
    assert not target.wave64
    assert not target.correct_sqrt
    assert target.fast_math
    assert not target.daz
    assert not target.finite_only
    assert not target.unsafe_math


def test_rocdl_target_invalid_abi() -> None:
    with pytest.raises(VerifyException, match="Invalid ABI version"):
        ROCDLTargetAttr(abi="700")


# --------------------------------------------------------------------------------------
# LLVM IR translation, against mlir-translate 22
# --------------------------------------------------------------------------------------

TRANSLATED = """
llvm.func @f(%m: i32, %v: f32, %o: i32, %p: i1, %ptr: !llvm.ptr) -> i1 {
  %0 = nvvm.read.ptx.sreg.tid.x range <i32, 0, 64> : i32
  %1 = nvvm.read.ptx.sreg.total.smem.size : i32
  %2 = nvvm.read.ptx.sreg.clock64 : i64
  %3 = nvvm.read.ptx.sreg.ctaid.y range <i32, 0, -1> : i32
  nvvm.barrier0
  %4 = nvvm.shfl.sync bfly %m, %v, %o, %o : f32 -> f32
  %5 = nvvm.shfl.sync idx %m, %o, %o, %o {return_value_and_is_valid}
      : i32 -> !llvm.struct<(i32, i1)>
  %6 = nvvm.vote.sync ballot %m, %p -> i32
  %7 = nvvm.redux.sync fmin %v, %m {abs = true, nan = true} : f32 -> f32
  nvvm.memory.barrier <gpu>
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>,
                    space = #nvvm.shared_space<cta>}
  %c128 = llvm.mlir.constant(128 : i32) : i32
  nvvm.fence.proxy.acquire <cta> %ptr, %c128
  nvvm.fence.proxy.sync_restrict {order = #nvvm.mem_order<release>}
  nvvm.cluster.wait {aligned}
  %8 = nvvm.elect.sync -> i1
  %9 = nvvm.elect.sync %m -> i1
  llvm.return %9 : i1
}
"""


def _instructions(llvm_ir: str) -> list[str]:
    """The call and extractvalue instructions, with value names replaced by %_."""
    lines = [line.strip() for line in llvm_ir.splitlines()]
    kept = [line for line in lines if "call " in line or "extractvalue" in line]
    return [re.sub(r"%[\w.]+", "%_", line.split(" = ", 1)[-1]) for line in kept]


@pytest.mark.skipif(MLIR_TRANSLATE is None, reason="mlir-translate-22 not installed")
def test_llvm_ir_translation_matches_upstream() -> None:
    from xdsl_gpu.targets.llvm_ir import convert_module, parse_module

    ours = convert_module(_parse(TRANSLATED))
    parse_module(ours)  # LLVM's verifier accepts the intrinsic declarations
    assert MLIR_TRANSLATE is not None
    upstream = subprocess.run(
        [MLIR_TRANSLATE, "--mlir-to-llvmir"],
        input=TRANSLATED,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert _instructions(ours) == _instructions(upstream)
