"""The dialect override: stock xdsl-opt and downstream Contexts get our dialects.

If one of these fails after an xDSL upgrade, gpu_dialect/registration.py relies on
something that changed: revisit it before moving the pin in pyproject.toml.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from xdsl.context import Context
from xdsl.dialects import get_all_dialects
from xdsl.universe import Universe

from gpu_dialect import register_dialects
from gpu_dialect.gpu import GPU
from gpu_dialect.llvm import LLVM
from gpu_dialect.nvvm import NVVM
from gpu_dialect.registration import REPLACED_DIALECTS, override_xdsl_dialects
from gpu_dialect.rocdl import ROCDL


def test_xdsl_still_defines_the_dialects_we_replace() -> None:
    xdsl_own = get_all_dialects()
    for name in REPLACED_DIALECTS:
        assert name in xdsl_own, f"xDSL dropped '{name}': revisit registration.py"
    assert xdsl_own["gpu"]() is not GPU


def test_multiverse_serves_our_dialects() -> None:
    override_xdsl_dialects()
    dialects = Universe.get_multiverse().all_dialects
    assert dialects["gpu"]() is GPU
    assert dialects["llvm"]() is LLVM
    assert dialects["nvvm"]() is NVVM
    assert dialects["rocdl"]() is ROCDL


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
    assert "xdsl-opt: error:" in done.stderr
    assert "gpu.no_such_op is not registered" in done.stderr


def test_fast_string_literals_decode_exactly_like_xdsl() -> None:
    import random

    from xdsl.utils import mlir_lexer
    from xdsl.utils.exceptions import ParseError
    from xdsl.utils.lexer import Input

    from gpu_dialect.registration import speed_up_string_literals

    speed_up_string_literals()
    fast = mlir_lexer.StringLiteral.bytes_contents.fget
    assert getattr(fast, "xdsl_gpu_fast", False)

    class Literal:
        def __init__(self, text: str) -> None:
            self.text = text

    rng = random.Random(7)
    for size in (0, 1, 2, 17, 300, 4096):
        data = bytes(rng.randrange(256) for _ in range(size))
        body = "".join(
            chr(b) if 32 <= b < 127 and chr(b) not in '"\\' else f"\\{b:02X}" for b in data
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

    from gpu_dialect.registration import verify_dialect_attributes_on_verify

    verify_dialect_attributes_on_verify()
    hooked = Operation.__dict__["verify"]
    assert getattr(hooked, "xdsl_gpu_dialect_attrs", False)
    assert list(inspect.signature(hooked).parameters) == ["self", "verify_nested_ops"]
    # The op's own verification still runs after the attribute checks.
    source = (
        "func.func @f() attributes {gpu.known_block_size = array<i32: 1, 2>} {\n"
        "  func.return\n}\n"
    )
    done = subprocess.run(
        ["xdsl-opt"], input=source, capture_output=True, text=True, check=False
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

    from gpu_dialect.registration import (
        XdslChangedError,
        verify_dialect_attributes_on_verify,
    )

    def verify(self: Operation) -> None:  # a changed signature
        pass

    monkeypatch.setattr(Operation, "verify", verify)
    with pytest.raises(XdslChangedError, match="Operation.verify"):
        verify_dialect_attributes_on_verify()
