"""gpu-lower-to-nvvm-pipeline's parallel schedule
(``xdsl_gpu/passes/parallel_device_lowering.py``): the sequential schedule's output,
byte for byte, on every GPU program of the test corpus, or the same error; the
same diagnostics when a kernel, the host code or a worker fails; the schedule only
where it may run."""

from __future__ import annotations

import io
import os
import re
import subprocess
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError, VerifyException

from tests.support.xdsl_tools import make_context, parse, print_module
from xdsl_gpu.passes import parallel_device_lowering
from xdsl_gpu.passes.gpu_lower_to_nvvm_pipeline import GpuLowerToNVVMPipelinePass
from xdsl_gpu.passes.parallel_device_lowering import (
    ParallelScheduleWarning,
    Part,
    run_parallel,
)

ROOT = Path(__file__).resolve().parents[2]

CORPUS_FOLDERS = ("examples", "tests/filecheck", "tests/gpu", "tests/runtime")


# These tests fork: skipped, with the reason, where this process may not
# (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("forking_is_safe")


@pytest.fixture(autouse=True)
def _split_programs_of_any_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """The corpus's programs are small: the schedule is used for them here all
    the same (``test_small_programs_are_lowered_step_after_step`` checks the
    rule)."""
    monkeypatch.setattr(parallel_device_lowering, "SMALLEST_SPLIT", 1)


def _corpus() -> list[tuple[str, str]]:
    """Every chunk (``// -----``) of the repository's MLIR files that has a
    ``gpu.launch`` or a ``gpu.module``."""
    chunks: list[tuple[str, str]] = []
    for folder in CORPUS_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.mlir")):
            text = path.read_text()
            for index, chunk in enumerate(re.split(r"^// -----.*$", text, flags=re.M)):
                if "gpu.launch" in chunk or "gpu.module" in chunk:
                    name = f"{path.relative_to(ROOT)}#{index}"
                    chunks.append((name, chunk))
    return chunks


CORPUS = _corpus()


def _outcome(text: str, jobs: str, monkeypatch: pytest.MonkeyPatch) -> str | None:
    """The pipeline's output (with locations, compile times masked) or its error;
    None for a chunk that does not parse and verify on its own (a negative test's
    input)."""
    monkeypatch.delenv("XDSL_GPU_VERIFY_EACH", raising=False)
    monkeypatch.setenv("XDSL_GPU_JOBS", jobs)
    ctx = make_context()
    try:
        module = parse(text, ctx)
    except (ParseError, VerifyException):
        return None
    pipeline = GpuLowerToNVVMPipelinePass(
        cubin_chip="sm_90", cubin_features="+ptx80", cubin_format="isa"
    )
    try:
        pipeline.apply(ctx, module)
    except Exception as error:
        notes = "\n".join(getattr(error, "__notes__", ()))
        return f"{type(error).__name__}: {error}\n{notes}"
    out = io.StringIO()
    Printer(stream=out, print_debuginfo=True).print_op(module)  # locations too
    return re.sub(r"TimeInMs = \d+", "TimeInMs = N", out.getvalue())


class Schedules:
    """Counts how the parallel schedule ended: done or given up."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.done = self.given_up = 0
        run = parallel_device_lowering.run_parallel

        def counted(*args: object, **kwargs: object) -> bool:
            done = run(*args, **kwargs)  # type: ignore[arg-type]
            if done:
                self.done += 1
            else:
                self.given_up += 1
            return done

        monkeypatch.setattr(
            "xdsl_gpu.passes.gpu_lower_to_nvvm_pipeline.run_parallel", counted
        )


def test_the_corpus_is_there() -> None:
    assert len(CORPUS) > 60


@pytest.mark.parametrize(("name", "text"), CORPUS, ids=[n for n, _ in CORPUS])
def test_same_output_as_the_sequential_schedule(
    name: str, text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    schedules = Schedules(monkeypatch)
    parallel = _outcome(text, "2", monkeypatch)
    if parallel is None:
        pytest.skip(f"{name} is not a valid program on its own")
    sequential = _outcome(text, "1", monkeypatch)
    assert parallel == sequential
    code = re.sub(r"//.*", "", text)  # not the CHECK lines
    has_device_code = re.search(r"\bgpu\.module\b|\bgpu\.launch\s", code)
    if has_device_code and parallel.startswith("builtin.module"):
        # What compiles, the parallel schedule compiled.
        assert schedules.done == 1, f"{name}: the parallel schedule gave up"


TWO_KERNELS = """
module attributes {gpu.container_module} {
  gpu.module @first {
    gpu.func @first(%out: memref<8xf32>) kernel {
      %i = gpu.thread_id x
      %v = arith.constant 1.0 : f32
      memref.store %v, %out[%i] : memref<8xf32>
      gpu.return
    }
  }
  gpu.module @second {
    gpu.func @second(%out: memref<8xf32>) kernel {
      %i = gpu.thread_id x
      %v = arith.constant 2.0 : f32
      KERNEL_OP
      memref.store %v, %out[%i] : memref<8xf32>
      gpu.return
    }
  }
  func.func @main(%m: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    HOST_OP
    gpu.launch_func @first::@first blocks in (%c1, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%m : memref<8xf32>)
    gpu.launch_func @second::@second blocks in (%c1, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%m : memref<8xf32>)
    func.return
  }
}
"""


def _two_kernels(kernel_op: str = "", host_op: str = "") -> str:
    return TWO_KERNELS.replace("KERNEL_OP", kernel_op).replace("HOST_OP", host_op)


def test_two_kernels_compile_in_parallel(monkeypatch: pytest.MonkeyPatch) -> None:
    schedules = Schedules(monkeypatch)
    parallel = _outcome(_two_kernels(), "2", monkeypatch)
    assert schedules.done == 1
    assert parallel is not None
    assert parallel.count("gpu.binary @") == 2
    assert parallel == _outcome(_two_kernels(), "1", monkeypatch)
    assert schedules.done == 1  # one job: the sequential schedule


def test_small_programs_are_lowered_step_after_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Two workers would pay more to start than they save on so little device code.
    monkeypatch.setattr(parallel_device_lowering, "SMALLEST_SPLIT", 1000)
    ctx = make_context()
    module = parse(_two_kernels(), ctx)
    assert parallel_device_lowering.device_op_count(module) == 12
    assert not parallel_device_lowering.worth_splitting(module)
    schedules = Schedules(monkeypatch)
    small = _outcome(_two_kernels(), "2", monkeypatch)
    assert schedules.done == 0
    monkeypatch.setattr(parallel_device_lowering, "SMALLEST_SPLIT", 12)
    assert parallel_device_lowering.worth_splitting(module)
    assert _outcome(_two_kernels(), "2", monkeypatch) == small
    assert schedules.done == 1


def test_one_large_kernel_in_a_small_host_is_lowered_step_after_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The largest kernel runs in one worker anyway: only the ops beside it
    # (13 here: the host's, the first kernel's) could be lowered meanwhile.
    monkeypatch.setattr(parallel_device_lowering, "SMALLEST_SPLIT", 14)
    ctx = make_context()
    extra = "\n".join(f"      %x{n} = arith.addf %v, %v : f32" for n in range(40))
    module = parse(_two_kernels(kernel_op=extra), ctx)
    assert parallel_device_lowering.device_op_count(module) == 52
    every_op = sum(1 for _ in module.walk())
    assert every_op - 46 == 13  # beside the second kernel (46 ops)
    assert not parallel_device_lowering.worth_splitting(module)
    schedules = Schedules(monkeypatch)
    sequential = _outcome(_two_kernels(kernel_op=extra), "2", monkeypatch)
    assert schedules.done == 0
    # With more beside it, the same program is split, to the same output.
    monkeypatch.setattr(parallel_device_lowering, "SMALLEST_SPLIT", every_op - 46)
    assert parallel_device_lowering.worth_splitting(module)
    assert _outcome(_two_kernels(kernel_op=extra), "2", monkeypatch) == sequential
    assert schedules.done == 1


UNLOWERED_KERNEL_OPS = """
      %t = tensor.empty() : tensor<8xf32>
      %e = tensor.extract %t[%i] : tensor<8xf32>
      memref.store %e, %out[%i] : memref<8xf32>"""

REJECTED_HOST_OPS = """
    %t0 = gpu.wait async
    %a, %t1 = gpu.alloc async [%t0] host_shared () : memref<8xf32>
    %t2 = gpu.dealloc async [%t1] %a : memref<8xf32>
    gpu.wait [%t2]"""


@pytest.mark.parametrize(
    ("kernel_op", "host_op", "message"),
    [
        # Left in a kernel (by a worker): reported by the sequential re-run.
        (UNLOWERED_KERNEL_OPS, "", "gpu.module @second still contains 'tensor.empty'"),
        # Rejected by the host lowering (here, while the workers run).
        ("", REJECTED_HOST_OPS, "pass 18/23: gpu-to-llvm"),
    ],
)
def test_errors_are_the_sequential_schedules(
    kernel_op: str, host_op: str, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    schedules = Schedules(monkeypatch)
    program = _two_kernels(kernel_op, host_op)
    parallel = _outcome(program, "2", monkeypatch)
    assert parallel == _outcome(program, "1", monkeypatch)
    assert parallel is not None
    assert message in parallel
    assert schedules.given_up == 1


def test_a_worker_that_dies_leaves_the_work_to_the_sequential_schedule(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A device step that ends its process (as LLVM does when it cannot select an
    instruction) takes its worker with it; the input is put back and the
    sequential schedule compiles it."""
    schedules = Schedules(monkeypatch)
    parent = os.getpid()
    from xdsl_gpu.passes import gpu_lower_to_nvvm_pipeline as pipeline

    run = pipeline.GpuLowerToNVVMPipelinePass._run

    def dies_in_a_worker(step, pass_, ctx, op) -> None:  # type: ignore[no-untyped-def]
        if step.pass_name == "convert-gpu-to-nvvm" and os.getpid() != parent:
            os._exit(3)
        run(step, pass_, ctx, op)

    expected = _outcome(_two_kernels(), "1", monkeypatch)
    monkeypatch.setattr(
        pipeline.GpuLowerToNVVMPipelinePass, "_run", staticmethod(dies_in_a_worker)
    )
    with pytest.warns(ParallelScheduleWarning, match="a worker ended"):
        assert _outcome(_two_kernels(), "2", monkeypatch) == expected
    assert schedules.given_up == 1


def test_a_worker_result_that_does_not_match_its_modules_is_not_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker sends back one op per module of its share, named as the module;
    anything else (here: an extra op) and the sequential schedule compiles the
    program instead."""
    schedules = Schedules(monkeypatch)
    parent = os.getpid()
    from xdsl.dialects import func

    from xdsl_gpu.passes import gpu_lower_to_nvvm_pipeline as pipeline

    run = pipeline.GpuLowerToNVVMPipelinePass._run

    def adds_an_op_in_a_worker(step, pass_, ctx, op) -> None:  # type: ignore[no-untyped-def]
        run(step, pass_, ctx, op)
        if step.pass_name == "gpu-module-to-binary" and os.getpid() != parent:
            op.body.block.add_op(func.FuncOp.external("extra", [], []))

    expected = _outcome(_two_kernels(), "1", monkeypatch)
    assert expected is not None
    assert "@extra" not in expected
    monkeypatch.setattr(
        pipeline.GpuLowerToNVVMPipelinePass,
        "_run",
        staticmethod(adds_an_op_in_a_worker),
    )
    with pytest.warns(ParallelScheduleWarning, match="not one op per gpu.module"):
        assert _outcome(_two_kernels(), "2", monkeypatch) == expected
    assert (schedules.done, schedules.given_up) == (0, 1)


def test_a_worker_lowers_its_whole_share_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker with several modules runs each step once, over all of them: its
    holder module has the whole share when the binaries are made."""
    schedules = Schedules(monkeypatch)
    from xdsl_gpu.passes import gpu_lower_to_nvvm_pipeline as pipeline

    run = pipeline.GpuLowerToNVVMPipelinePass._run
    parent = os.getpid()

    def needs_both_modules(step, pass_, ctx, op) -> None:  # type: ignore[no-untyped-def]
        if step.pass_name == "gpu-module-to-binary" and os.getpid() != parent:
            if len(list(op.ops)) != 2:
                os._exit(3)  # the schedule gives up, and the test fails below
        run(step, pass_, ctx, op)

    monkeypatch.setattr(
        pipeline.GpuLowerToNVVMPipelinePass, "_run", staticmethod(needs_both_modules)
    )
    monkeypatch.setattr(  # one share: a single worker takes both modules
        parallel_device_lowering, "_chunks", lambda modules, jobs: [[0, 1]]
    )
    parallel = _outcome(_two_kernels(), "2", monkeypatch)
    assert (schedules.done, schedules.given_up) == (1, 0)
    assert parallel == _outcome(_two_kernels(), "1", monkeypatch)


def test_llvm_abort_in_a_worker_is_the_usual_diagnostic(tmp_path: Path) -> None:
    """LLVM ends the worker that compiles the cluster register for sm_75; the
    sequential run reports it as it always did."""
    source = tmp_path / "cluster.mlir"
    source.write_text(
        "gpu.module @s {\n  gpu.func @s(%out: memref<8xindex>) kernel {\n"
        "    %z = gpu.cluster_id z\n    memref.store %z, %out[%z] : memref<8xindex>\n"
        "    gpu.return\n  }\n}\n"
        "gpu.module @t {\n  gpu.func @t() kernel {\n    gpu.return\n  }\n}\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "XDSL_GPU_VERIFY_EACH"}
    env["XDSL_GPU_JOBS"] = "2"
    done = subprocess.run(
        ["xdsl-opt", str(source), "-p",
         "gpu-lower-to-nvvm-pipeline{cubin-format=isa cubin-chip=sm_75}"],
        capture_output=True, text=True, check=False, env=env,
    )  # fmt: skip
    assert done.returncode == 1
    assert "LLVM cannot compile gpu.module @s for sm_75: LLVM ERROR: Cannot select" in (
        done.stderr
    )
    assert "Traceback" not in done.stderr


def test_not_used_where_it_may_not_run(monkeypatch: pytest.MonkeyPatch) -> None:
    schedules = Schedules(monkeypatch)
    monkeypatch.setenv("XDSL_GPU_VERIFY_EACH", "full")
    monkeypatch.setenv("XDSL_GPU_JOBS", "2")
    ctx = make_context()
    module = parse(_two_kernels(), ctx)
    GpuLowerToNVVMPipelinePass(cubin_chip="sm_90", cubin_format="isa").apply(
        ctx, module
    )
    assert schedules.done == schedules.given_up == 0
    monkeypatch.delenv("XDSL_GPU_VERIFY_EACH")
    monkeypatch.setattr(parallel_device_lowering, "fork_is_safe", lambda: False)
    module = parse(_two_kernels(), ctx)
    GpuLowerToNVVMPipelinePass(cubin_chip="sm_90", cubin_format="isa").apply(
        ctx, module
    )
    assert schedules.done == schedules.given_up == 0


@pytest.mark.parametrize(
    "parts",
    [
        [Part.WHOLE, Part.BOTH, Part.HOST],  # nothing serializes
        [Part.WHOLE, Part.SERIALIZE, Part.BOTH],  # a shared step after the binaries
        [Part.BOTH, Part.WHOLE, Part.SERIALIZE],  # the whole program after the split
        [Part.WHOLE, Part.SERIALIZE, Part.SERIALIZE],
    ],
)
def test_steps_that_do_not_split_are_left_to_the_sequential_schedule(
    parts: list[Part],
) -> None:
    ctx = make_context()
    module = parse(_two_kernels(), ctx)
    before = print_module(module)
    ran: list[int] = []
    steps = [(part, lambda m, i=i: ran.append(i)) for i, part in enumerate(parts)]
    assert not run_parallel(ctx, module, steps)
    assert ran == []
    assert print_module(module) == before


@pytest.mark.parametrize("cubin_format", ["fatbin", "bin", "llvm"])
def test_binary_objects_come_back_whole_in_every_format(
    cubin_format: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The workers' binaries travel as text (escaped bytes): a fatbin, a cubin and
    LLVM bitcode come back as the sequential schedule makes them."""
    monkeypatch.delenv("XDSL_GPU_VERIFY_EACH", raising=False)
    schedules = Schedules(monkeypatch)
    outputs: list[str] = []
    for jobs in ("2", "1"):
        monkeypatch.setenv("XDSL_GPU_JOBS", jobs)
        ctx = make_context()
        module = parse(_two_kernels(), ctx)
        GpuLowerToNVVMPipelinePass(cubin_chip="sm_90", cubin_format=cubin_format).apply(
            ctx, module
        )
        outputs.append(re.sub(r"TimeInMs = \d+", "N", print_module(module)))
    assert schedules.done == 1
    assert outputs[0] == outputs[1]


def test_locations_are_the_sequential_schedules_in_xdsl_opt(tmp_path: Path) -> None:
    """xdsl-opt gives parsed ops their source position: the binaries read back from
    the workers' text must not get one in that text (``loc(unknown)``, as the
    sequential schedule makes them), and the other ops keep the user's."""
    source = tmp_path / "two.mlir"
    source.write_text(_two_kernels())
    outputs: list[str] = []
    for jobs in ("2", "1"):
        env = {k: v for k, v in os.environ.items() if k != "XDSL_GPU_VERIFY_EACH"}
        env["XDSL_GPU_JOBS"] = jobs
        done = subprocess.run(
            ["xdsl-opt", str(source), "--print-debuginfo", "-p",
             "gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-format=isa}"],
            capture_output=True, text=True, check=True, env=env,
        )  # fmt: skip
        outputs.append(re.sub(r"TimeInMs = \d+", "N", done.stdout))
    assert "xdsl-gpu worker" not in outputs[0]
    assert str(source) in outputs[0]
    assert outputs[0] == outputs[1]


def test_the_pipeline_splits_every_step_after_outlining() -> None:
    from xdsl_gpu.passes.gpu_lower_to_nvvm_pipeline import _parts  # pyright: ignore[reportPrivateUsage]

    parts = _parts(GpuLowerToNVVMPipelinePass(cubin_chip="sm_90").steps())
    assert parts[:2] == [Part.WHOLE, Part.WHOLE]
    assert Part.WHOLE not in parts[2:]
    assert parts.count(Part.SERIALIZE) == 1


def test_a_step_the_schedule_does_not_know_is_not_split() -> None:
    from xdsl_gpu.passes.gpu_lower_to_nvvm_pipeline import (
        PipelineStep,
        _parts,  # pyright: ignore[reportPrivateUsage]
    )

    steps = [
        PipelineStep("gpu-kernel-outlining"),
        PipelineStep("xgpu-check-kernel-abi"),
        PipelineStep("gpu-module-to-binary"),
    ]
    assert _parts(steps) == [Part.WHOLE, Part.WHOLE, Part.SERIALIZE]


def test_given_up_in_xdsl_opt_the_input_is_parsed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As xdsl-opt's first pass the pipeline keeps no copy of its input for the
    schedule: when the schedule gives up, the input is parsed again from its text,
    with its locations, and the sequential schedule's output is the same."""
    from xdsl_gpu.driver import opt
    from xdsl_gpu.passes import gpu_lower_to_nvvm_pipeline as pipeline

    monkeypatch.delenv("XDSL_GPU_VERIFY_EACH", raising=False)
    monkeypatch.setenv("XDSL_GPU_CACHE", "0")
    parent = os.getpid()
    run = pipeline.GpuLowerToNVVMPipelinePass._run

    def dies_in_a_worker(step, pass_, ctx, op) -> None:  # type: ignore[no-untyped-def]
        if step.pass_name == "convert-gpu-to-nvvm" and os.getpid() != parent:
            os._exit(3)
        run(step, pass_, ctx, op)

    monkeypatch.setattr(
        pipeline.GpuLowerToNVVMPipelinePass, "_run", staticmethod(dies_in_a_worker)
    )
    parsed: list[int] = []
    take_input_text = pipeline.take_input_text

    def counted(module: object) -> object:
        again = take_input_text(module)  # type: ignore[arg-type]
        if again is None:
            return None
        return lambda: parsed.append(1) or again()

    monkeypatch.setattr(pipeline, "take_input_text", counted)
    source = tmp_path / "two.mlir"
    source.write_text(_two_kernels())
    outputs: list[str] = []
    for jobs in ("2", "1"):
        monkeypatch.setenv("XDSL_GPU_JOBS", jobs)
        out = tmp_path / f"out{jobs}.mlir"
        args = [str(source), "--print-debuginfo", "-p",
                "gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-format=isa}",
                "-o", str(out)]  # fmt: skip
        if jobs == "2":
            with pytest.warns(ParallelScheduleWarning, match="a worker ended"):
                assert opt.run_in_this_process(args) == 0
        else:
            assert opt.run_in_this_process(args) == 0
        outputs.append(re.sub(r"TimeInMs = \d+", "N", out.read_text()))
    assert parsed == [1]
    assert str(source) in outputs[0]  # the user's locations, from the text
    assert outputs[0] == outputs[1]


def test_a_second_pipeline_run_copies_the_first_ones_result(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The text xdsl-opt offers is the first run's input only: in ``-p P,P`` the
    second run copies its own input (the first one's result), whether the first
    ran in parallel or not, and blames the same step of its own run."""
    from xdsl_gpu.driver import opt
    from xdsl_gpu.passes import cse, pipeline_verification
    from xdsl_gpu.passes import gpu_lower_to_nvvm_pipeline as pipeline

    monkeypatch.delenv("XDSL_GPU_VERIFY_EACH", raising=False)
    monkeypatch.setenv("XDSL_GPU_CACHE", "0")
    eliminate = cse.eliminate_common_subexpressions
    runs: list[int] = []
    apply = pipeline.GpuLowerToNVVMPipelinePass.apply

    def counted_run(self: object, ctx: object, op: object) -> None:
        runs.append(1)
        apply(self, ctx, op)  # type: ignore[arg-type]

    def breaks_in_the_second_run(root: Operation) -> None:
        # The second run's first cse leaves a constant without its value.
        eliminate(root)
        if len(runs) == 2:
            for op in root.walk():
                if op.name == "llvm.mlir.constant":
                    del op.properties["value"]
                    return

    monkeypatch.setattr(pipeline.GpuLowerToNVVMPipelinePass, "apply", counted_run)
    monkeypatch.setattr(
        cse, "eliminate_common_subexpressions", breaks_in_the_second_run
    )
    copied: list[int] = []
    snapshot = pipeline_verification.snapshot

    def counted(module: ModuleOp) -> ModuleOp:
        copied.append(1)
        return snapshot(module)

    monkeypatch.setattr(pipeline_verification, "snapshot", counted)
    source = tmp_path / "two.mlir"
    source.write_text(_two_kernels())
    step = "gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-format=isa}"
    said: dict[str, str] = {}
    for jobs in ("2", "1"):
        monkeypatch.setenv("XDSL_GPU_JOBS", jobs)
        copied.clear()
        runs.clear()
        args = [str(source), "-p", f"{step},{step}", "-o", str(tmp_path / "o")]
        assert opt.run_in_this_process(args) == 1
        assert copied == [1]  # the second run's input; the first run's is text
        said[jobs] = capsys.readouterr().err
        assert "property 'value' expected" in said[jobs]
    note = re.compile(r"in gpu-lower-to-nvvm-pipeline, pass \d+/\d+: cse")
    assert note.findall(said["2"]) == note.findall(said["1"]) != []
    assert pipeline.PIPELINE_NAME in said["2"]
