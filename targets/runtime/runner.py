"""``xdsl-gpu-run``: run a GPU program, the analogue of ``mlir-runner`` with the CUDA
runtime library.

::

    xdsl-gpu-run program.mlir -e main --entry-point-result=void

Steps: parse the input (a file or ``-`` for stdin); if it still has ops above the LLVM
level (``gpu.launch``, ``gpu.module`` with ``gpu.func``, ``func``, ``arith``...), lower
it with ``gpu-lower-to-nvvm-pipeline`` for the GPU found here (``cubin-chip`` = its
chip; ``--pipeline-options`` adds options); translate the host side with its binaries;
JIT it (global constructors load the GPU modules); call the entry; synchronize, which
flushes device ``printf``; run the destructors.

Output order: C's ``stdout`` is made line-buffered, so device ``printf`` lines (written
when the host synchronizes) and host ``printf`` lines reach the output in the order
they were produced, and the entry's result, printed by Python, comes after both.

Every failure (bad input, missing entry, no GPU, a CUDA error while running) is one
diagnostic on stderr and exit status 1.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from xdsl.dialects import func
from xdsl.dialects.builtin import Float32Type, IntegerType, ModuleOp
from xdsl.ir import Attribute
from xdsl.utils.exceptions import DiagnosticException, ParseError

from gpu_dialect import llvm
from gpu_dialect.diagnostics import UserError

TOOL = "xdsl-gpu-run"

RESULT_TYPES = {"void": "void", "i32": "i32", "i64": "i64", "f32": "float"}
"""``--entry-point-result`` values and the LLVM return type each one expects."""

CUDA_RUNTIME_LIBRARY_NAMES = ("mlir_cuda_runtime", "cuda-runtime-wrappers")
"""``--shared-libs`` entries that this runner replaces with its own runtime."""


class RunnerError(UserError):
    """A command-line or program problem, reported as one diagnostic."""


def argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=TOOL,
        description=(
            "Run a GPU program written in MLIR (gpu/llvm dialects) on this machine's "
            "NVIDIA GPU, like mlir-runner with the CUDA runtime. Programs with "
            "unlowered gpu ops are compiled with gpu-lower-to-nvvm-pipeline first."
        ),
    )
    parser.add_argument("input", nargs="?", default="-", help="MLIR file ('-': stdin)")
    parser.add_argument(
        "-e", dest="entry", default="main", help="the function to call (default: main)"
    )
    parser.add_argument(
        "--entry-point-result",
        "-entry-point-result",
        dest="result",
        default="f32",
        choices=sorted(RESULT_TYPES),
        help="the entry's result type, printed after the run (default: f32)",
    )
    parser.add_argument(
        "--shared-libs",
        "-shared-libs",
        dest="shared_libs",
        action="append",
        default=[],
        help=(
            "comma-separated libraries; MLIR's CUDA runtime wrappers are replaced by "
            "xdsl-gpu's own runtime; other libraries (mlir_runner_utils...) are loaded"
        ),
    )
    level = parser.add_mutually_exclusive_group()
    for n in range(4):
        level.add_argument(
            f"-O{n}", f"--O{n}", dest="opt_level", action="store_const", const=n,
            help=f"host JIT optimization level {n}" + (" (default)" if n == 2 else ""),
        )  # fmt: skip
    parser.add_argument(
        "--pipeline-options",
        default="",
        help=(
            "options for gpu-lower-to-nvvm-pipeline when the input needs lowering, "
            'as in xdsl-opt: "cubin-format=isa opt-level=3"'
        ),
    )
    parser.add_argument(
        "--print-host-llvm",
        action="store_true",
        help=(
            "print the host LLVM IR (binaries embedded) instead of running it; "
            "needs no GPU (cubin-chip then defaults as in the pipeline)"
        ),
    )
    parser.set_defaults(opt_level=2)
    return parser


def read_input(path: str) -> tuple[str, str]:
    """The input text and the name used in diagnostics."""
    if path == "-":
        return sys.stdin.read(), "<stdin>"
    try:
        return Path(path).read_text(), path
    except OSError as e:
        raise RunnerError(f"cannot read {path}: {e.strerror}") from None


def split_shared_libs(values: Sequence[str]) -> tuple[list[str], list[str]]:
    """(libraries to load, CUDA runtime libraries that are replaced)."""
    load: list[str] = []
    replaced: list[str] = []
    for value in values:
        for lib in filter(None, (v.strip() for v in value.split(","))):
            name = os.path.basename(lib)
            (
                replaced if any(n in name for n in CUDA_RUNTIME_LIBRARY_NAMES) else load
            ).append(lib)
    return load, replaced


def _function_types(
    module: ModuleOp, name: str
) -> tuple[tuple[Attribute, ...], tuple[Attribute, ...]] | None:
    """(inputs, outputs) of ``@name`` as a ``func.func`` or ``llvm.func``."""
    from xdsl.dialects.llvm import LLVMVoidType

    for op in module.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data == name:
            return tuple(op.function_type.inputs.data), tuple(
                op.function_type.outputs.data
            )
        if isinstance(op, llvm.FuncOp) and op.sym_name.data == name:
            fn_type = op.function_type
            output = fn_type.output
            outputs = () if isinstance(output, LLVMVoidType) else (output,)
            return tuple(fn_type.inputs.data), outputs
    return None


def _type_matches(result: str, types: tuple[Attribute, ...]) -> bool:
    if result == "void":
        return not types
    if len(types) != 1:
        return False
    (t,) = types
    if result == "f32":
        return isinstance(t, Float32Type)
    return isinstance(t, IntegerType) and t.width.data == int(result[1:])


def check_entry(module: ModuleOp, entry: str, result: str) -> None:
    """The entry exists, takes no arguments and returns what ``result`` says."""
    types = _function_types(module, entry)
    if types is None:
        names = sorted(
            op.sym_name.data
            for op in module.ops
            if isinstance(op, func.FuncOp | llvm.FuncOp)
        )
        raise RunnerError(
            f"entry point @{entry} not found in the module (functions: "
            f"{', '.join(names) or 'none'}); choose it with -e"
        )
    inputs, outputs = types
    if inputs:
        raise RunnerError(
            f"entry point @{entry} takes {len(inputs)} arguments; the entry point must "
            "take none (call functions with arguments through the Python API)"
        )
    if not _type_matches(result, outputs):
        got = ", ".join(str(t) for t in outputs) or "nothing"
        raise RunnerError(
            f"entry point @{entry} returns {got}, but --entry-point-result={result}; "
            "pass the matching --entry-point-result (void, i32, i64 or f32)"
        )


def format_result(value: object, result: str) -> str:
    """The entry's result as mlir-runner prints it (``%e`` for f32)."""
    if result == "f32":
        return f"{float(value):e}"  # type: ignore[arg-type]
    return str(int(value))  # type: ignore[call-overload]


def line_buffer_c_stdout() -> None:
    """Make C's ``stdout`` line-buffered (before anything is written to it), so that
    nothing written through it is lost when a failing program stops the process."""
    libc = ctypes.CDLL(None)
    try:
        stdout = ctypes.c_void_p.in_dll(libc, "stdout")
    except ValueError:  # pragma: no cover - not glibc
        return
    io_line_buffered = 1  # _IOLBF
    libc.setvbuf(stdout, None, io_line_buffered, 4096)


def run(args: argparse.Namespace) -> int:
    from targets.runtime.api import (
        GpuProgram,
        _function_infos,
        compile_host_llvm_ir,
        needs_gpu_lowering,
        parse_program,
    )

    text, name = read_input(args.input)
    module = parse_program(text, name)
    check_entry(module, args.entry, args.result)
    load, replaced = split_shared_libs(args.shared_libs)
    if replaced:
        print(
            f"{TOOL}: note: ignoring --shared-libs {', '.join(replaced)}: xdsl-gpu-run "
            "has its own CUDA runtime",
            file=sys.stderr,
        )
    for lib in load:
        if not Path(lib).exists():
            raise RunnerError(f"--shared-libs: {lib} does not exist")
    if (
        args.pipeline_options
        and not needs_gpu_lowering(module)
        and not any(op.name == "gpu.module" for op in module.walk())
    ):
        raise RunnerError(
            "--pipeline-options given, but the input is already lowered to the llvm "
            "dialect and has no gpu.module; drop the option"
        )

    if args.print_host_llvm:
        sys.stdout.write(
            compile_host_llvm_ir(module, pipeline_options=args.pipeline_options)
        )
        return 0

    from targets.runtime.driver import CudaUnavailableError
    from targets.runtime.runtime import CudaRuntime

    try:
        runtime = CudaRuntime.get()
    except CudaUnavailableError as e:
        raise RunnerError(
            f"no usable NVIDIA GPU here ({e}); xdsl-gpu-run needs a CUDA device. To "
            "compile only, use --print-host-llvm or xdsl-opt -p "
            "gpu-lower-to-nvvm-pipeline -t llvm-offload"
        ) from None
    runtime.on_error = "exit"
    line_buffer_c_stdout()
    import llvmlite.binding as llvm

    for lib in load:
        llvm.load_library_permanently(lib)
    functions = _function_infos(module)
    llvm_ir = compile_host_llvm_ir(
        module, pipeline_options=args.pipeline_options, chip=f"sm_{runtime.device.sm}"
    )
    # The entry's type after lowering (a func.func may have become an llvm.func
    # with the same signature): the JIT checks its LLVM signature.
    program = GpuProgram(llvm_ir, functions, opt_level=args.opt_level)
    signature = program.signature(args.entry)
    if signature is None:
        raise RunnerError(f"entry point @{args.entry} not found in the lowered module")
    llvm_result, params = signature
    if params or llvm_result != RESULT_TYPES[args.result]:
        raise RunnerError(
            f"entry point @{args.entry} has the LLVM type {llvm_result} "
            f"({', '.join(params)}) after lowering; --entry-point-result={args.result} "
            "needs a function without arguments"
        )
    sys.stdout.flush()
    value = program.call(args.entry)
    program.close()
    if args.result != "void":
        print(format_result(value, args.result), flush=True)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``xdsl-gpu-run`` console script."""
    args = argument_parser().parse_args(argv)
    try:
        return run(args)
    except (DiagnosticException, ParseError) as e:
        if os.environ.get("XDSL_GPU_TRACEBACK"):
            raise
        message = str(e).rstrip()
        for note in getattr(e, "__notes__", ()):
            message += f"\n{note}"
        sys.stdout.flush()
        print(f"{TOOL}: error: {message}", file=sys.stderr, flush=True)
        return 1


if __name__ == "__main__":
    sys.exit(main())
