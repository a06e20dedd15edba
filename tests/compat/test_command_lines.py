"""mlir-opt's command-line forms in stock xdsl-opt (``compat.upstream_command_lines``,
``compat/command_line.py``): one test per form that upstream's RUN lines use, the
options that are accepted and ignored, those refused, and xDSL's own forms kept."""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from xdsl_gpu.compat.command_line import (
    IGNORED,
    MLIR_SPELLINGS,
    NOT_SUPPORTED,
    CommandLineError,
    llvm_bool,
    mlir_opt_arguments,
)

HELLO = (Path(__file__).parents[2] / "examples" / "hello" / "hello.mlir").read_text()
KERNEL = """\
gpu.module @m {
  gpu.func @k(%a: memref<4xf32>) kernel {
    gpu.return
  }
}
"""
SPLIT = """\
func.func @first() {
  return
}
// -----
func.func @second() {
  return
}
"""
BARE = "llvm.func @k(%a: !llvm.ptr)"  # a kernel's memref under the bare-pointer ABI
DESCRIPTOR = "llvm.func @k(%0: !llvm.ptr, %1: !llvm.ptr, %2: i64"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "hello.mlir").write_text(HELLO)
    (tmp_path / "kernel.mlir").write_text(KERNEL)
    (tmp_path / "split.mlir").write_text(SPLIT)
    return tmp_path


def opt(
    folder: Path, *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["xdsl-opt", *args], cwd=folder, input=stdin,
        capture_output=True, text=True, check=False,
    )  # fmt: skip


def ok(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout


def refused(done: subprocess.CompletedProcess[str], message: str) -> None:
    """A one-line error that says ``message``, exit status 1, no traceback."""
    assert done.returncode == 1, done.stdout
    assert "Traceback" not in done.stderr
    assert message in done.stderr
    assert done.stderr.strip().count("\n") == 0, done.stderr


# -- pass flags ------------------------------------------------------------------------


def test_the_input_after_a_pass_flag_is_the_input(folder: Path) -> None:
    """`mlir-opt --gpu-kernel-outlining --convert-gpu-to-nvvm %s`: a pass flag never
    takes the next argument as its options."""
    out = ok(
        opt(folder, "--gpu-kernel-outlining", "--convert-gpu-to-nvvm", "hello.mlir")
    )
    assert "gpu.module @main_kernel" in out
    assert "llvm.func @main_kernel" in out


def test_a_pass_flag_with_one_dash(folder: Path) -> None:
    """`mlir-opt -convert-gpu-to-nvvm %s`."""
    assert DESCRIPTOR in ok(opt(folder, "-convert-gpu-to-nvvm", "kernel.mlir"))


def test_a_pass_flag_with_quoted_options(folder: Path) -> None:
    """`-convert-gpu-to-nvvm='use-bare-ptr-memref-call-conv=1'` (the shell takes the
    quotes away)."""
    out = ok(
        opt(
            folder,
            "kernel.mlir",
            "-convert-gpu-to-nvvm=use-bare-ptr-memref-call-conv=1",
        )
    )
    assert BARE in out


def test_a_pass_flag_with_options_separated_by_spaces(folder: Path) -> None:
    """`--convert-gpu-to-nvvm="index-bitwidth=32 use-bare-ptr-memref-call-conv=1"`."""
    out = ok(
        opt(
            folder,
            "--convert-gpu-to-nvvm=index-bitwidth=32 use-bare-ptr-memref-call-conv=1",
            "kernel.mlir",
        )
    )
    assert BARE in out


@pytest.mark.parametrize(
    ("value", "bare"),
    [("1", True), ("0", False), ("true", True), ("false", False), ("TRUE", True),
     ("True", True), ("FALSE", False), ("False", False)],
)  # fmt: skip
def test_boolean_pass_options_as_llvm_cl_reads_them(
    folder: Path, value: str, bare: bool
) -> None:
    out = ok(
        opt(folder, f"-convert-gpu-to-nvvm=use-bare-ptr-memref-call-conv={value}",
            "kernel.mlir")
    )  # fmt: skip
    assert (BARE in out) == bare
    assert (DESCRIPTOR in out) == (not bare)


def test_a_boolean_pass_option_without_a_value_is_true(folder: Path) -> None:
    """`-canonicalize="test-convergence"`: an option named alone is set."""
    out = ok(
        opt(folder, "-convert-gpu-to-nvvm=use-bare-ptr-memref-call-conv", "kernel.mlir")
    )
    assert BARE in out


def test_a_bad_boolean_pass_option(folder: Path) -> None:
    refused(
        opt(folder, "-convert-gpu-to-nvvm=has-redux=yes", "kernel.mlir"),
        "option 'has-redux' of pass 'convert-gpu-to-nvvm' takes true or false, "
        "not 'yes'",
    )


def test_pass_flags_run_in_the_order_given(folder: Path) -> None:
    """Outlining after conversion finds no launch to outline: the order counts."""
    first = ok(
        opt(folder, "hello.mlir", "-gpu-kernel-outlining", "-convert-gpu-to-nvvm")
    )
    assert "llvm.func @main_kernel" in first


# -- --pass-pipeline -----------------------------------------------------------------


def test_pass_pipeline_with_one_dash(folder: Path) -> None:
    """`-pass-pipeline=...` (argparse alone reads it as `-p ass-pipeline=...`)."""
    out = ok(
        opt(folder, "-pass-pipeline=builtin.module(gpu-kernel-outlining)", "hello.mlir")
    )
    assert "gpu.module @main_kernel" in out


def test_pass_pipeline_as_the_next_argument(folder: Path) -> None:
    out = ok(opt(folder, "--pass-pipeline", "builtin.module(gpu-kernel-outlining)",
                 "hello.mlir"))  # fmt: skip
    assert "gpu.module @main_kernel" in out


def test_pass_pipeline_with_nested_op_anchors(folder: Path) -> None:
    """`-pass-pipeline='builtin.module(gpu.module(gpu.func(...)))'` and
    `--pass-pipeline="builtin.module(func.func(...))"`."""
    out = ok(
        opt(folder, "hello.mlir", "-pass-pipeline=builtin.module(func.func(canonicalize),"
            "gpu-kernel-outlining,gpu.module(gpu.func(canonicalize)),"
            "gpu.module(convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1}))")
    )  # fmt: skip
    assert "llvm.func @main_kernel" in out


def test_pass_pipeline_with_quoted_option_values(folder: Path) -> None:
    out = ok(
        opt(folder, "kernel.mlir",
            '--pass-pipeline=builtin.module(gpu.module(convert-gpu-to-nvvm{'
            'index-bitwidth=32 use-bare-ptr-memref-call-conv="true"}))')
    )  # fmt: skip
    assert BARE in out


# -- xdsl-opt's options under mlir-opt's spellings --------------------------------------


@pytest.mark.parametrize("flag", ["-split-input-file", "--split-input-file"])
def test_split_input_file(folder: Path, flag: str) -> None:
    out = ok(opt(folder, "split.mlir", flag))
    assert out.count("// -----") == 1
    assert "@first" in out
    assert "@second" in out


def test_split_input_file_with_its_default_marker(folder: Path) -> None:
    out = ok(opt(folder, "split.mlir", "--split-input-file=// -----"))
    assert out.count("// -----") == 1


def test_split_input_file_with_another_marker_is_refused(folder: Path) -> None:
    refused(
        opt(folder, "split.mlir", "-split-input-file=// ====="),
        "'-split-input-file=// =====': xdsl-opt splits its input only at '// -----'",
    )


def test_allow_unregistered_dialect(folder: Path) -> None:
    (folder / "unknown.mlir").write_text('"mine.op"() : () -> ()\n')
    assert '"mine.op"()' in ok(
        opt(folder, "-allow-unregistered-dialect", "unknown.mlir")
    )
    assert '"mine.op"()' in ok(
        opt(folder, "-allow-unregistered-dialect=1", "unknown.mlir")
    )
    off = opt(folder, "-allow-unregistered-dialect=false", "unknown.mlir")
    assert off.returncode == 1
    assert "Traceback" not in off.stderr


def test_verify_diagnostics_with_one_dash(folder: Path) -> None:
    """xDSL's --verify-diagnostics prints the error and succeeds."""
    (folder / "bad.mlir").write_text("func.func @f() -> i32 {\n  func.return\n}\n")
    assert opt(folder, "bad.mlir").returncode == 1
    for flag in ("-verify-diagnostics", "--verify-diagnostics=all"):
        done = opt(folder, "bad.mlir", flag)
        assert done.returncode == 0, done.stderr
        assert "func.return" in done.stdout


@pytest.mark.parametrize("flag", ["-mlir-print-op-generic", "--mlir-print-op-generic"])
def test_print_op_generic(folder: Path, flag: str) -> None:
    out = ok(opt(folder, "hello.mlir", flag))
    assert '"gpu.launch"' in out
    assert '"func.func"' in out


def test_print_debuginfo(folder: Path) -> None:
    out = ok(opt(folder, "hello.mlir", "-mlir-print-debuginfo"))
    assert 'loc("hello.mlir":5:' in out


def test_print_ir_after_all(folder: Path) -> None:
    out = ok(opt(folder, "hello.mlir", "-mlir-print-ir-after-all",
                 "-gpu-kernel-outlining", "-gpu-async-region"))  # fmt: skip
    assert "IR after gpu-kernel-outlining" in out


def test_timing(folder: Path) -> None:
    out = ok(opt(folder, "hello.mlir", "-mlir-timing", "-gpu-kernel-outlining"))
    assert "Pass gpu-kernel-outlining took" in out


def test_no_implicit_module_with_one_dash(folder: Path) -> None:
    done = opt(folder, "hello.mlir", "-no-implicit-module")
    assert done.returncode == 1
    assert "builtin.module operation expected" in done.stderr


# -- files -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [["-o", "out.mlir"], ["-o=out.mlir"], ["--output-file=out.mlir"]],
)
def test_output_file(folder: Path, args: list[str]) -> None:
    done = ok(opt(folder, "hello.mlir", *args, "-gpu-kernel-outlining"))
    assert done == ""
    assert "gpu.module @main_kernel" in (folder / "out.mlir").read_text()


@pytest.mark.parametrize("args", [["-o", "-"], ["-o=-"]])
def test_output_to_standard_output(folder: Path, args: list[str]) -> None:
    out = ok(opt(folder, "hello.mlir", *args))
    assert "gpu.launch" in out
    assert not (folder / "-").exists()


def test_standard_input_as_dash(folder: Path) -> None:
    out = ok(opt(folder, "-", "-gpu-kernel-outlining", stdin=HELLO))
    assert "gpu.module @main_kernel" in out


# -- mlir-opt's options that change nothing here, those refused, unknown ones ----------


@pytest.mark.parametrize("flag", sorted(IGNORED))
def test_ignored_options_are_accepted(folder: Path, flag: str) -> None:
    plain = ok(opt(folder, "hello.mlir"))
    assert ok(opt(folder, "hello.mlir", f"-{flag}")) == plain
    assert ok(opt(folder, "hello.mlir", f"--{flag}=true")) == plain


@pytest.mark.parametrize(
    "flag",
    ["-mlir-print-ir-before-all", "--mlir-print-ir-after=cse", "-mlir-pass-statistics",
     "-dump-pass-pipeline", "-emit-bytecode", "--mlir-print-local-scope=maybe"],
)  # fmt: skip
def test_options_that_cannot_be_honoured_are_named(folder: Path, flag: str) -> None:
    done = opt(folder, "hello.mlir", flag)
    refused(done, f"'{flag.split('=')[0]}'")


@pytest.mark.parametrize(
    ("flag", "message"),
    [
        ("--bogus", "unknown command line argument '--bogus'"),
        ("-pass-pipline=builtin.module(cse)",
         "unknown command line argument '-pass-pipline'; did you mean "
         "'--pass-pipeline'?"),
        ("--convert-gpu-to-nvv", "did you mean '--convert-gpu-to-nvvm'?"),
        ("-test-thing", "unknown command line argument '-test-thing'"),
        ("-t", "argument -t/--target: expected one argument"),
    ],
)  # fmt: skip
def test_unknown_arguments_are_one_line_errors(
    folder: Path, flag: str, message: str
) -> None:
    refused(opt(folder, "hello.mlir", flag), message)


# -- xDSL's own forms mean what they meant ---------------------------------------------


def test_xdsl_forms_are_kept(folder: Path) -> None:
    outlined = ok(opt(folder, "hello.mlir", "-p", "gpu-kernel-outlining"))
    assert ok(opt(folder, "hello.mlir", "-pgpu-kernel-outlining")) == outlined
    assert ok(opt(folder, "hello.mlir", "--passes=gpu-kernel-outlining")) == outlined
    assert (
        ok(opt(folder, "hello.mlir", "-tmlir", "-p", "gpu-kernel-outlining"))
        == outlined
    )
    assert ok(opt(folder, "split.mlir", "--split")).count("// -----") == 1


def test_pipeline_options_come_in_order(folder: Path) -> None:
    """-p, then --pass-pipeline, then the pass flags."""
    out = ok(
        opt(folder, "hello.mlir", "-gpu-async-region", "-p", "gpu-kernel-outlining",
            "-mlir-timing")
    )  # fmt: skip
    assert out.index("gpu-kernel-outlining took") < out.index("gpu-async-region took")


# -- the rewriting itself --------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    parser.add_argument("input_file", nargs="?")
    parser.add_argument("-o", "--output-file")
    parser.add_argument("-p", "--passes", default="")
    parser.add_argument("--split-input-file", action="store_true")
    parser.add_argument("--print-op-generic", action="store_true")
    parser.add_argument("--print-debuginfo", action="store_true")
    parser.add_argument("--print-between-passes", action="store_true")
    parser.add_argument("--time-passes", action="store_true")
    parser.add_argument("--pass-pipeline")
    parser.add_argument("-cse", "--cse", nargs="?", metavar="cse")
    return parser


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--cse", "f.mlir"], ["--cse=", "f.mlir"]),
        (["-cse=a=1 b", "f.mlir"], ["--cse=a=1 b", "f.mlir"]),
        (["-split-input-file", "-mlir-print-op-generic"],
         ["--split-input-file", "--print-op-generic"]),
        (["-mlir-print-debuginfo=0", "-split-input-file=// -----"],
         ["--split-input-file"]),
        (["-pass-pipeline=x(y)"], ["--pass-pipeline=x(y)"]),
        (["-pass-pipeline", "x"], ["--pass-pipeline", "x"]),
        (["-o", "-", "f.mlir"], ["f.mlir"]),
        (["-o", "o.mlir", "-"], ["-o", "o.mlir"]),
        (["-p", "-cse"], ["-p", "-cse"]),  # -p's value, as xDSL reads it
        (["-mlir-disable-threading", "-verify-each=0"], []),
        (["--", "-cse"], ["--", "-cse"]),
    ],
)  # fmt: skip
def test_rewritten_arguments(argv: list[str], expected: list[str]) -> None:
    assert mlir_opt_arguments(argv, _parser(), {"cse"}) == expected


def test_the_tables_do_not_overlap() -> None:
    assert not set(IGNORED) & set(NOT_SUPPORTED)
    assert not set(MLIR_SPELLINGS) & (set(IGNORED) | set(NOT_SUPPORTED))
    with pytest.raises(CommandLineError, match="'-mlir-print-ir-before-all'"):
        mlir_opt_arguments(["-mlir-print-ir-before-all"], _parser(), ())


@pytest.mark.parametrize(
    ("text", "value"),
    [("", True), ("1", True), ("true", True), ("TRUE", True), ("True", True),
     ("0", False), ("false", False), ("FALSE", False), ("False", False),
     ("yes", None), ("2", None), ("tRUE", None)],
)  # fmt: skip
def test_llvm_cl_booleans(text: str, value: bool | None) -> None:
    assert llvm_bool(text) is value


# -- against mlir-opt-22: the same command line, the same meaning ---------------------

MLIR_OPT = shutil.which("mlir-opt-22")
_BARE = re.compile(r"llvm\.func @k\(%\w+: !llvm\.ptr\)")


@pytest.mark.skipif(MLIR_OPT is None, reason="needs mlir-opt-22")
@pytest.mark.parametrize(
    "args",
    [
        ["kernel.mlir", "-convert-gpu-to-nvvm"],
        ["-convert-gpu-to-nvvm", "kernel.mlir"],
        ["--convert-gpu-to-nvvm=use-bare-ptr-memref-call-conv=1", "kernel.mlir"],
        ["kernel.mlir", "-convert-gpu-to-nvvm=use-bare-ptr-memref-call-conv=False"],
        ["kernel.mlir", "-convert-gpu-to-nvvm=use-bare-ptr-memref-call-conv"],
        ["kernel.mlir", "-convert-gpu-to-nvvm=has-redux=1 use-bare-ptr-memref-call-conv=TRUE"],
        ["kernel.mlir", "-pass-pipeline=builtin.module(gpu.module("
         "convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1}))"],
        ["--pass-pipeline", "builtin.module(gpu.module(convert-gpu-to-nvvm))", "-"],
        ["kernel.mlir", "-split-input-file", "-allow-unregistered-dialect=true",
         "-mlir-disable-threading", "-convert-gpu-to-nvvm", "-o", "-"],
        ["kernel.mlir", "-convert-gpu-to-nvvm=has-redux=yes"],
        ["kernel.mlir", "-convert-gpu-to-nvvm=no-such-option=1"],
        ["kernel.mlir", "--no-such-flag"],
        ["kernel.mlir", "-split-input-file=maybe", "-allow-unregistered-dialect=maybe"],
    ],
)  # fmt: skip
def test_as_mlir_opt_22_reads_it(folder: Path, args: list[str]) -> None:
    assert MLIR_OPT is not None
    stdin = KERNEL if "-" in args else None
    theirs = subprocess.run(
        [MLIR_OPT, *args], cwd=folder, input=stdin,
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    ours = opt(folder, *args, stdin=stdin)
    assert "Traceback" not in ours.stderr
    assert (ours.returncode == 0) == (theirs.returncode == 0), (ours, theirs)
    if theirs.returncode == 0:
        assert bool(_BARE.search(ours.stdout)) == bool(_BARE.search(theirs.stdout))
        assert "llvm.func @k" in ours.stdout
