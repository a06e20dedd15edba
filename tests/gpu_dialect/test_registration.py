"""The dialect override: stock xdsl-opt and downstream Contexts get our dialects.

If one of these fails after an xDSL upgrade, xdsl_gpu/compat/ relies on
something that changed: revisit it before moving the pin in pyproject.toml.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from xdsl.context import Context
from xdsl.dialects import get_all_dialects
from xdsl.universe import Universe

from xdsl_gpu.gpu_dialect import register_dialects
from xdsl_gpu.gpu_dialect.gpu import GPU
from xdsl_gpu.gpu_dialect.llvm import LLVM
from xdsl_gpu.gpu_dialect.nvvm import NVVM
from xdsl_gpu.gpu_dialect.registration import REPLACED_DIALECTS
from xdsl_gpu.gpu_dialect.rocdl import ROCDL


def test_xdsl_still_defines_the_dialects_we_replace() -> None:
    xdsl_own = get_all_dialects()
    for name in REPLACED_DIALECTS:
        assert name in xdsl_own, f"xDSL dropped '{name}': revisit registration.py"
    assert xdsl_own["gpu"]() is not GPU


def test_multiverse_serves_new_dialects_and_leaves_xdsl_its_own() -> None:
    dialects = Universe.get_multiverse().all_dialects
    assert dialects["nvvm"]() is NVVM
    assert dialects["rocdl"]() is ROCDL
    # gpu and llvm are chosen per xdsl-opt run (xdsl_gpu/driver/dialect_choice.py).
    assert dialects["gpu"]() is not GPU
    assert dialects["llvm"]() is not LLVM


def test_register_dialects_in_a_fresh_context() -> None:
    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    register_dialects(ctx)
    ours = {op.name: op for op in GPU.operations}
    assert ctx.get_optional_op("gpu.wait") is ours["gpu.wait"]
    assert ctx.get_optional_op("gpu.launch_func") is ours["gpu.launch_func"]


def test_register_dialects_refuses_a_context_that_loaded_xdsl_gpu() -> None:
    ctx = Context()
    ctx.load_dialect(get_all_dialects()["gpu"]())
    with pytest.raises(ValueError, match="already loaded"):
        register_dialects(ctx)


def test_stock_xdsl_opt_uses_our_gpu_dialect() -> None:
    source = "%0 = gpu.wait async\ngpu.wait [%0]\n"
    done = subprocess.run(
        [sys.executable, "-m", "xdsl.tools.xdsl_opt"],
        input=source,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "%0 = gpu.wait async" in done.stdout
    assert "gpu.wait [%0]" in done.stdout


def test_user_errors_are_one_line_diagnostics_with_exit_status_1() -> None:
    done = subprocess.run(
        ["xdsl-opt"],
        input='"gpu.no_such_op"() : () -> ()\n',
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("stdin:1:17: error: ")
    assert "gpu.no_such_op is not registered" in done.stderr


def test_fast_string_literals_decode_exactly_like_xdsl() -> None:
    import random

    from xdsl.utils import mlir_lexer
    from xdsl.utils.exceptions import ParseError
    from xdsl.utils.lexer import Input

    from xdsl_gpu.gpu_dialect.registration import install_hooks

    install_hooks()
    fast = mlir_lexer.StringLiteral.bytes_contents.fget
    assert getattr(fast, "xdsl_gpu_fast", False)

    class Literal:
        def __init__(self, text: str) -> None:
            self.text = text

    rng = random.Random(7)
    for size in (0, 1, 2, 17, 300, 4096):
        data = bytes(rng.randrange(256) for _ in range(size))
        body = "".join(
            chr(b) if 32 <= b < 127 and chr(b) not in '"\\' else f"\\{b:02X}"
            for b in data
        )
        assert fast(Literal(f'"{body}"')) == data
    assert fast(Literal('"a\\n\\t\\\\\\"b\\0a"')) == b'a\n\t\\"b\n'
    with pytest.raises(ParseError, match="Invalid escape sequence"):
        fast(mlir_lexer.StringLiteral(0, 5, Input('"\\zz"', "t")))


def test_operation_verify_checks_gpu_and_nvvm_discardable_attributes() -> None:
    """xDSL has no hook for MLIR's ``Dialect::verifyOperationAttribute``; the override
    wraps ``Operation.verify``. If xDSL changes that method, this fails."""
    import inspect

    from xdsl.ir import Operation

    from xdsl_gpu.gpu_dialect.registration import install_hooks

    install_hooks()
    from xdsl_gpu.compat import is_patched

    hooked = Operation.__dict__["verify"]
    assert is_patched(hooked, "xdsl_gpu_dialect_attrs")
    assert list(inspect.signature(hooked).parameters) == ["self", "verify_nested_ops"]
    # The op's own verification still runs after the attribute checks.
    source = (
        "func.func @f() attributes {gpu.known_block_size = array<i32: 1, 2>} {\n"
        "  func.return\n}\n"
    )
    done = subprocess.run(
        ["xdsl-opt", "--xdsl-gpu"],
        input=source,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "'func.func' op gpu.known_block_size must contain exactly 3 elements" in (
        done.stderr
    )


def test_attribute_hook_refuses_an_operation_verify_it_does_not_know(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from xdsl.ir import Operation

    from xdsl_gpu.compat import XdslChangedError, verify_dialect_attributes_with
    from xdsl_gpu.gpu_dialect.registration import verify_dialect_attributes

    def verify(self: Operation) -> None:  # a changed signature
        pass

    monkeypatch.setattr(Operation, "verify", verify)
    with pytest.raises(XdslChangedError, match=r"Operation\.verify"):
        verify_dialect_attributes_with(verify_dialect_attributes)


# -- source locations ----------------------------------------------------------------

_UNDEFINED_KERNEL = """module attributes {gpu.container_module} {
  func.func @f(%n: index) {
    gpu.launch_func @k::@k blocks in (%n, %n, %n) threads in (%n, %n, %n)
    return
  }
}
"""


def test_parsed_ops_carry_their_file_line_and_column() -> None:
    from xdsl.dialects.builtin import FileLineColLoc
    from xdsl.parser import Parser

    from tests.support.xdsl_tools import make_context

    source = 'func.func @f() {\n  %c = arith.constant 1 : i32 loc("given":7:9)\n  return\n}\n'
    module = Parser(make_context(), source, "in.mlir").parse_module()
    func_op = module.body.block.first_op
    assert func_op is not None
    constant, ret = list(func_op.regions[0].block.ops)

    def place(op) -> tuple[str, int, int]:
        loc = op.location
        assert isinstance(loc, FileLineColLoc)
        return loc.filename.data, loc.line.data, loc.column.data

    assert place(func_op) == ("in.mlir", 1, 1)
    assert place(ret) == ("in.mlir", 3, 3)
    # An explicit location is kept.
    assert place(constant) == ("given", 7, 9)


def test_verifier_errors_name_the_file_line_and_column(tmp_path) -> None:
    path = tmp_path / "bad.mlir"
    path.write_text(_UNDEFINED_KERNEL)
    done = subprocess.run(
        ["xdsl-opt", str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"{path}:3:5: error: 'gpu.launch_func' op kernel container 'k' is undefined",
        "    gpu.launch_func @k::@k blocks in (%n, %n, %n) threads in (%n, %n, %n)",
        "    ^",
        f'{path}:3:5: note: see current operation: "gpu.launch_func"(%n, %n, %n, '
        "%n, %n, %n) <{kernel = @k::@k, operandSegmentSizes = array<i32: 0, 1, 1, 1, "
        "1, 1, 1, 0, 0, 0, 0, 0, 0>}> : (index, index, index, index, index, index) "
        "-> ()",
    ]


def test_pass_errors_name_the_file_line_and_column(tmp_path) -> None:
    path = tmp_path / "launch.mlir"
    path.write_text(
        "func.func @f() {\n"
        "  %c1 = arith.constant 1 : index\n"
        "  gpu.launch blocks(%a, %b, %c) in (%x = %c1, %y = %c1, %z = %c1)\n"
        "             threads(%d, %e, %f) in (%u = %c1, %v = %c1, %w = %c1) {\n"
        "    gpu.terminator\n"
        "  }\n"
        "  return\n"
        "}\n"
    )
    done = subprocess.run(
        ["xdsl-opt", str(path), "-p", "gpu-async-region"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert lines[3].startswith(
        f'{path}:3:3: note: see current operation: "gpu.launch"(%c1, %c1, %c1, '
    )
    assert "({...})" in lines[3]
    assert lines[:3] == [
        f"{path}:3:3: error: gpu-async-region: 'gpu.launch' op in @f: replace "
        "with gpu.launch_func first (run gpu-kernel-outlining before gpu-async-region)",
        "  gpu.launch blocks(%a, %b, %c) in (%x = %c1, %y = %c1, %z = %c1)",
        "  ^",
    ]


def test_launch_sites_keep_the_source_location() -> None:
    """A CUDA error names the launch's place in the source: the location survives the
    pipeline into the host code's launch-site string."""
    from pathlib import Path

    hello = Path(__file__).resolve().parents[2] / "examples" / "hello" / "hello.mlir"
    done = subprocess.run(
        ["xdsl-opt", str(hello), "-p",
         "gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-format=isa}", "-t", "llvm-offload"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (
        f'c"gpu.launch_func @main_kernel::@main_kernel at {hello}:7:3\\00"'
        in done.stdout
    )


def test_the_failing_op_hook_refuses_an_emit_error_it_does_not_know(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from xdsl.ir import Operation

    from xdsl_gpu.compat import XdslChangedError, remember_failing_ops

    monkeypatch.delattr(Operation, "emit_error")
    with pytest.raises(XdslChangedError, match="emit_error"):
        remember_failing_ops()


def test_the_location_hook_refuses_a_parser_it_does_not_know(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from xdsl.parser import Parser

    from xdsl_gpu.compat import XdslChangedError, record_source_locations

    monkeypatch.delattr(Parser, "parse_operation")
    with pytest.raises(XdslChangedError, match="parse_operation"):
        record_source_locations()


def test_locations_are_those_mlir_opt_gives(tmp_path) -> None:
    """Line and column of the op's name (after its results), as MLIR's parser records
    them; in a split input, lines of the whole file; an explicit loc(unknown) kept."""
    import shutil

    path = tmp_path / "split.mlir"
    path.write_text(
        "func.func @a() {\n  return\n}\n// -----\n"
        "func.func @b(%n: index) {\n"
        "  %x = arith.addi %n, %n : index\n"
        "  %y = arith.muli %x, %x : index loc(unknown)\n"
        "  gpu.launch_func @k::@k blocks in (%n, %n, %n) threads in (%n, %n, %n)\n"
        "  return\n}\n"
    )
    done = subprocess.run(
        ["xdsl-opt", "--split-input-file", str(path)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.startswith(f"{path}:8:3: error: 'gpu.launch_func' op")
    chunk = path.read_text().split("// -----\n")[1].replace("  gpu.launch_func", "//")
    ours = subprocess.run(
        ["xdsl-opt", "--xdsl-gpu", "--print-debuginfo", "--mlir-print-local-scope"],
        input=chunk,
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert 'arith.addi %n, %n : index loc("stdin":2:8)' in ours
    assert "arith.muli %x, %x : index loc(unknown)" in ours
    if shutil.which("mlir-opt-22"):
        theirs = subprocess.run(
            ["mlir-opt-22", "--mlir-print-debuginfo", "--mlir-print-local-scope"],
            input=chunk, capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        assert 'arith.addi %arg0, %arg0 : index loc("<stdin>":2:8)' in theirs
