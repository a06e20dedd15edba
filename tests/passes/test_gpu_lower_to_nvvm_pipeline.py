"""``gpu-lower-to-nvvm-pipeline``: its pass order and options against
``mlir-opt-22 --dump-pass-pipeline``, option parsing, nesting, and the whole pipeline
on the seeds (compared with mlir-opt-22's output where both exist)."""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.utils.arg_spec import parse_spec
from xdsl.utils.exceptions import PassFailedException

from tests.support.xdsl_tools import make_context, parse, print_module
from xdsl_gpu.passes.gpu_lower_to_nvvm_pipeline import (
    FALLBACK_CHIP,
    GpuLowerToNVVMPipelinePass,
    PipelineStep,
    _apply_nested,
    available_passes,
    default_cubin_chip,
    instantiate,
)

ROOT = Path(__file__).resolve().parents[2]
HELLO = ROOT / "examples" / "hello" / "hello.mlir"
MATMUL = ROOT / "examples" / "async_matmul" / "matmul.mlir"
SEED_002_OPTIONS = (
    "host-bare-ptr-calling-convention=1 kernel-bare-ptr-calling-convention=1 "
    "cubin-chip=sm_90 cubin-format=fatbin"
)

needs_mlir_opt = pytest.mark.skipif(
    shutil.which("mlir-opt-22") is None, reason="needs mlir-opt-22 (mlir-22-tools)"
)


# -- upstream's --dump-pass-pipeline, parsed ------------------------------------------


@dataclass(frozen=True)
class DumpedStep:
    name: str
    nested: bool
    options: dict[str, str]


def _split_top_level(text: str, separator: str) -> list[str]:
    parts: list[str] = []
    depth = 0
    current = ""
    for ch in text:
        if ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
        if ch == separator and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current)
    return [p.strip() for p in parts if p.strip()]


def _parse_options(text: str) -> dict[str, str]:
    options: dict[str, str] = {}
    for item in _split_top_level(text, " "):
        key, _, value = item.partition("=")
        if value.startswith("{") and value.endswith("}"):
            value = value[1:-1]  # mlir-opt wraps values with spaces in braces
        options[key] = value
    return options


def parse_dump(dump: str) -> list[DumpedStep]:
    body = dump.split("builtin.module(", 1)[1]
    body = body[: body.index("\n)")]
    steps: list[DumpedStep] = []
    for element in _split_top_level(body, ","):
        nested = element.startswith("gpu.module(")
        if nested:
            element = element[len("gpu.module(") : -1].strip()
        name, _, rest = element.partition("{")
        steps.append(
            DumpedStep(name.strip(), nested, _parse_options(rest[:-1]) if rest else {})
        )
    return steps


def upstream_steps(options: str) -> list[DumpedStep]:
    done = subprocess.run(
        [
            "mlir-opt-22",
            f"--pass-pipeline=builtin.module(gpu-lower-to-nvvm-pipeline{{{options}}})",
            "--dump-pass-pipeline",
            "-o",
            "/dev/null",
        ],
        input="",
        capture_output=True,
        text=True,
        check=False,
    )
    # mlir-opt dumps before running; an empty module may still fail later (a bad
    # format, say), which does not matter here.
    assert "Pass Manager with" in done.stderr, done.stderr
    return parse_dump(done.stderr)


def ours(options: str) -> GpuLowerToNVVMPipelinePass:
    return GpuLowerToNVVMPipelinePass.from_pass_spec(
        parse_spec(f"gpu-lower-to-nvvm-pipeline{{{options}}}")
    )


def _normalize(value: str | int | bool) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# Each case sets every option that has a different default here (chip, features), so
# that both pipelines get the same values.
CASES = {
    "defaults": (
        'cubin-chip=sm_90 cubin-features=""',
        "cubin-chip=sm_90 cubin-features=",
    ),
    "seed-002": (
        SEED_002_OPTIONS + ' cubin-features=""',
        SEED_002_OPTIONS + " cubin-features=",
    ),
    "everything": (
        'cubin-triple=nvptx-nvidia-cuda cubin-chip=sm_80 cubin-features="+ptx80" '
        "cubin-format=isa opt-level=3 index-bitwidth=32 "
        'ptxas-cmd-options="-v -O1" kernel-bare-ptr-calling-convention=true '
        "host-bare-ptr-calling-convention=true allow-pattern-rollback=false",
        "cubin-triple=nvptx-nvidia-cuda cubin-chip=sm_80 cubin-features=+ptx80 "
        "cubin-format=isa opt-level=3 index-bitwidth=32 "
        'ptxas-cmd-options="-v -O1" kernel-bare-ptr-calling-convention=true '
        "host-bare-ptr-calling-convention=true allow-pattern-rollback=false",
    ),
}


@needs_mlir_opt
@pytest.mark.parametrize("case", sorted(CASES))
def test_same_passes_order_and_options_as_mlir_opt(case: str) -> None:
    xdsl_options, mlir_options = CASES[case]
    mine = ours(xdsl_options).steps()
    theirs = upstream_steps(mlir_options)
    baseline = upstream_steps("")
    assert len(mine) == len(theirs) == 23
    assert [(s.pass_name, s.nested) for s in mine] == [
        (s.name, s.nested) for s in theirs
    ]
    for step, dumped, base in zip(mine, theirs, baseline, strict=True):
        set_here = dict(step.options)
        # Every option we set has upstream's value...
        for key, value in set_here.items():
            assert dumped.options.get(key) == _normalize(value), (
                step,
                key,
                dumped.options,
            )
        # ...and every option the pipeline options change upstream is one we set.
        changed = {k for k, v in dumped.options.items() if base.options.get(k) != v}
        assert changed <= set(set_here), (step.pass_name, changed - set(set_here))


@needs_mlir_opt
def test_the_comparison_can_fail() -> None:
    """The structural comparison notices a changed option value."""
    theirs = upstream_steps("index-bitwidth=32")
    step = next(s for s in theirs if s.name == "convert-index-to-llvm")
    assert step.options["index-bitwidth"] == "32"
    assert dict(ours("index-bitwidth=64").steps()[10].options)["index-bitwidth"] == 64


def test_defaults_work_with_cuda_13() -> None:
    pipeline = GpuLowerToNVVMPipelinePass()
    assert pipeline.cubin_chip == default_cubin_chip()
    assert pipeline.cubin_features == ""
    assert pipeline.cubin_format == "fatbin"
    assert (pipeline.opt_level, pipeline.index_bitwidth) == (2, 64)
    sm = int(pipeline.cubin_chip.removeprefix("sm_").rstrip("af"))
    assert sm >= 75  # CUDA 13's assembler rejects anything older


def test_default_chip_without_a_gpu() -> None:
    from xdsl_gpu.targets.runtime.driver import gpu_available

    if gpu_available():
        pytest.skip("a GPU is present: the default is its chip")
    assert default_cubin_chip() == FALLBACK_CHIP == "sm_75"


def test_boolean_options_take_1_and_0() -> None:
    pipeline = ours(SEED_002_OPTIONS)
    assert pipeline.host_bare_ptr_calling_convention is True
    assert pipeline.kernel_bare_ptr_calling_convention is True
    assert ours("allow-pattern-rollback=0").allow_pattern_rollback is False


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ("host-bare-ptr-calling-convention=2", "a boolean option takes"),
        ("opt-level=4", "between 0 and 3"),
        ("cubin-format=cubin", "Invalid format specified: 'cubin'"),
        ("index-bitwidth=16", "index-bitwidth=16"),
    ],
)
def test_bad_options_are_diagnostics(options: str, message: str) -> None:
    with pytest.raises(PassFailedException, match=re.escape(message)):
        ours(options)


def test_pipeline_text() -> None:
    text = ours("cubin-chip=sm_90").pipeline_text()
    assert text.startswith(
        "builtin.module(convert-nvgpu-to-nvvm, gpu-kernel-outlining,"
    )
    assert "gpu.module(convert-gpu-to-nvvm{index-bitwidth=64 " in text
    assert "nvvm-attach-target{O=2 chip=sm_90 features= " in text


def test_a_missing_pass_is_named() -> None:
    registry = dict(available_passes())
    del registry["gpu-to-llvm"]
    with pytest.raises(
        PassFailedException, match="the pass 'gpu-to-llvm' is not available"
    ):
        instantiate(PipelineStep("gpu-to-llvm"), registry)


def test_an_option_a_pass_lacks_is_an_error_unless_ignorable() -> None:
    registry = available_passes()
    with pytest.raises(PassFailedException, match="has no option 'no-such-option'"):
        instantiate(PipelineStep("cse", (("no-such-option", 1),)), registry)
    # allow-pattern-rollback steers MLIR's conversion driver only.
    assert instantiate(
        PipelineStep("cse", (("allow-pattern-rollback", True),)), registry
    )


def test_no_op_passes_refuse_what_they_would_convert() -> None:
    module = parse(
        """
        func.func @f(%m: memref<4xf32>, %i: index) -> vector<4xf32> {
          %pad = arith.constant 0.0 : f32
          %v = vector.transfer_read %m[%i], %pad : memref<4xf32>, vector<4xf32>
          return %v : vector<4xf32>
        }
        """
    )
    step = PipelineStep("convert-vector-to-scf")
    assert instantiate(step, {}) is None
    with pytest.raises(
        PassFailedException, match=r"vector\.transfer_read' needs convert-vector-to-scf"
    ):
        GpuLowerToNVVMPipelinePass._run(step, None, Context(), module)


def test_nested_steps_touch_only_gpu_modules() -> None:
    module = parse(
        """
        module attributes {gpu.container_module} {
          func.func @host() -> (index, index) {
            %a = arith.constant 1 : index
            %b = arith.constant 1 : index
            return %a, %b : index, index
          }
          gpu.module @kernels {
            func.func @device() -> (index, index) {
              %a = arith.constant 1 : index
              %b = arith.constant 1 : index
              return %a, %b : index, index
            }
          }
          func.func @after() {
            return
          }
        }
        """
    )
    cse = instantiate(PipelineStep("cse", nested=True), available_passes())
    assert cse is not None
    GpuLowerToNVVMPipelinePass._run(
        PipelineStep("cse", nested=True), cse, make_context(), module
    )
    text = print_module(module)
    host, rest = text.split("gpu.module", 1)
    assert host.count("arith.constant") == 2  # untouched
    assert rest.split("func.func @after")[0].count("arith.constant") == 1
    # The module is back where it was.
    assert [op.name for op in module.ops] == ["func.func", "gpu.module", "func.func"]


def test_nested_application_restores_the_module_on_failure() -> None:
    module = parse("module { gpu.module @k { } }")
    (gpu_module,) = module.ops

    class Boom(Exception):
        pass

    class Failing:
        def apply(self, ctx: Context, op: object) -> None:
            raise Boom

    with pytest.raises(Boom):
        _apply_nested(Failing(), make_context(), gpu_module)  # type: ignore[arg-type]
    assert list(module.ops) == [gpu_module]


# -- the whole pipeline ---------------------------------------------------------------


def _lower(source: str, options: str) -> str:
    module = parse(source)
    ours(options).apply(make_context(), module)
    module.verify()
    return print_module(module)


def test_seed_001_compiles_to_a_binary_and_llvm_host_code() -> None:
    out = _lower(HELLO.read_text(), "cubin-chip=sm_90 cubin-format=isa")
    assert 'gpu.binary @main_kernel [#gpu.object<#nvvm.target<chip = "sm_90">' in out
    assert "vprintf" in out  # the kernel's printf, in the PTX
    assert "llvm.func @main()" in out
    assert "gpu.launch_func" in out
    # Nothing above the LLVM level is left on the host.
    for line in out.splitlines():
        name = re.match(r"\s*(?:%\S+ = )?([a-z_]+\.[a-z_.]+)", line)
        if name:
            assert name.group(1).startswith(
                ("llvm.", "gpu.binary", "gpu.launch_func", "builtin.")
            ), line


def test_seed_002_compiles_as_its_author_lowered_it() -> None:
    out = _lower(MATMUL.read_text(), SEED_002_OPTIONS)
    for name in (
        "test_parallel_kernel",
        "test_parallel_kernel_0",
        "test_parallel_kernel_1",
    ):
        assert (
            f'gpu.binary @{name} [#gpu.object<#nvvm.target<chip = "sm_90">, properties'
            in out
        )
    assert "llvm.func @_mlir_ciface_test_parallel(" in out
    assert out.count("gpu.launch_func <") == 3  # each on its stream


def _with_printf_comma(source: str) -> str:
    """MLIR 22 parses only ``gpu.printf "fmt", %x``; seed 001 has the older form
    without the comma, which xdsl-gpu accepts too."""
    return re.sub(r'(gpu\.printf "(?:[^"\\]|\\.)*")(\s+%)', r"\1,\2", source)


@needs_mlir_opt
def test_seed_001_host_side_like_mlir_opt() -> None:
    """The host module has the same symbols and launch as mlir-opt-22's."""
    options = "cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=isa"
    upstream = subprocess.run(
        ["mlir-opt-22", f"--gpu-lower-to-nvvm-pipeline={options}"],
        input=_with_printf_comma(HELLO.read_text()), capture_output=True, text=True,
        check=True,
    ).stdout  # fmt: skip
    mine = _lower(HELLO.read_text(), options.replace("+ptx80", '"+ptx80"'))

    def summary(text: str) -> tuple[list[str], list[str]]:
        symbols = sorted(
            re.findall(r"^  (?:llvm\.func|gpu\.binary) @(\w+)", text, re.M)
        )
        launches = re.findall(r"gpu\.launch_func\s+(?:<[^>]*>\s*)?(@\S+)", text)
        return symbols, launches

    assert summary(mine) == summary(upstream)
