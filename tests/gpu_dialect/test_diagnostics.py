"""``located_message``: the location in front of a user error's text, and the source
line with a caret under the op only when that line can be trusted (the file exists,
is a regular file, is the one being processed, has the line)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.dialects import arith, func
from xdsl.dialects import test as test_dialect
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, StringAttr
from xdsl.utils.exceptions import DiagnosticException

from xdsl_gpu.diagnostics import located_message


def error_at(file: str | None, line: int = 1, col: int = 1) -> DiagnosticException:
    """An error about an op at ``file:line:col`` (no location when ``file`` is None),
    as ``registration.remember_failing_ops`` leaves it."""
    op = test_dialect.TestOp()
    if file is not None:
        op.location = FileLineColLoc(StringAttr(file), IntAttr(line), IntAttr(col))
    error = DiagnosticException("the full text\n\nwith xDSL's IR dump")
    error.failing_op = op  # type: ignore[attr-defined]
    error.plain_message = "'test.op' op is wrong"  # type: ignore[attr-defined]
    return error


def caret_column(message: str) -> int:
    """Where the caret is, in terminal columns."""
    return message.splitlines()[-1].index("^")


def test_no_failing_op_is_the_text_as_it_is() -> None:
    assert located_message(DiagnosticException("plain\n")) == "plain"


def test_no_location_is_the_message_without_the_dump() -> None:
    assert located_message(error_at(None)) == "'test.op' op is wrong"


@pytest.mark.parametrize("name", ["-", "stdin", "<stdin>"])
def test_stdin_gives_the_location_alone(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text("a line that is not the input\n")  # not read
    assert located_message(error_at(name, 1, 3)) == f"{name}:1:3: 'test.op' op is wrong"


def test_missing_file_gives_the_location_alone(tmp_path: Path) -> None:
    missing = str(tmp_path / "gone.mlir")
    assert (
        located_message(error_at(missing, 2, 5))
        == f"{missing}:2:5: 'test.op' op is wrong"
    )


def test_quotes_the_line_with_a_caret_under_the_column(tmp_path: Path) -> None:
    source = tmp_path / "a.mlir"
    source.write_text("module {\n  %0 = arith.addi %a, %b : i32\n}\n")
    message = located_message(error_at(str(source), 2, 8))
    assert message == (
        f"{source}:2:8: 'test.op' op is wrong\n  %0 = arith.addi %a, %b : i32\n       ^"
    )


def test_line_or_column_past_the_end_gives_the_location_alone(tmp_path: Path) -> None:
    source = tmp_path / "a.mlir"
    source.write_text("abc\n")
    for line, col in [(2, 1), (1, 9), (0, 1)]:
        message = located_message(error_at(str(source), line, col))
        assert message == f"{source}:{line}:{col}: 'test.op' op is wrong"
    assert located_message(error_at(str(source), 1, 4)).endswith("\nabc\n   ^")


def test_a_folder_or_a_bad_name_gives_the_location_alone(tmp_path: Path) -> None:
    assert located_message(error_at(str(tmp_path), 1, 1)) == (
        f"{tmp_path}:1:1: 'test.op' op is wrong"
    )
    assert located_message(error_at("a\0b", 1, 1)) == "a\0b:1:1: 'test.op' op is wrong"


def test_tabs_are_expanded_and_the_caret_follows(tmp_path: Path) -> None:
    source = tmp_path / "tabs.mlir"
    source.write_text("\t\t%0 = arith.addi %a, %b : i32\n")  # the op name at column 8
    message = located_message(error_at(str(source), 1, 8))
    quoted, _caret = message.splitlines()[1:]
    assert "\t" not in quoted
    assert quoted == " " * 16 + "%0 = arith.addi %a, %b : i32"
    assert quoted[caret_column(message) :].startswith("arith.addi")
    # A tab after text goes to the next stop of 8.
    source.write_text("ab\tx = 1\n")
    message = located_message(error_at(str(source), 1, 4))
    assert message.splitlines()[1:] == ["ab      x = 1", "        ^"]


def test_multibyte_characters_count_as_one_column(tmp_path: Path) -> None:
    """Columns are characters (the parser indexes the decoded text): the caret stays
    under the op after a string with multibyte UTF-8 characters."""
    source = tmp_path / "utf8.mlir"
    line = '"t.a"() {s = "\u00e9\u00e9\u2192"} : () -> ()  "arith.addi"() : () -> i1'
    source.write_text(line + "\n", encoding="utf-8")
    col = line.index('"arith.addi"') + 1
    message = located_message(error_at(str(source), 1, col))
    quoted = message.splitlines()[1]
    assert quoted == line
    assert quoted[caret_column(message) :].startswith('"arith.addi"')


def test_wide_characters_take_two_terminal_columns(tmp_path: Path) -> None:
    source = tmp_path / "wide.mlir"
    source.write_text('"t"() {s = "\u6f22\u5b57"} : () -> ()  "x.y"() : () -> ()\n')
    text = source.read_text().rstrip("\n")
    col = text.index('"x.y"') + 1
    message = located_message(error_at(str(source), 1, col))
    assert caret_column(message) == col - 1 + 2  # two characters, two columns each


def test_explicit_loc_to_a_name_that_does_not_exist(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``loc("given":7:9)`` in the source: no file of that name, no quote."""
    monkeypatch.chdir(tmp_path)
    assert (
        located_message(error_at("given", 7, 9)) == "given:7:9: 'test.op' op is wrong"
    )


def test_explicit_loc_to_another_existing_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``loc("other.mlir":1:1)`` naming an unrelated file of the current folder:
    quoted by a library caller (it exists), not by a tool processing another file."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "other.mlir").write_text("unrelated text\n")
    error = error_at("other.mlir", 1, 1)
    assert located_message(error).endswith("\nunrelated text\n^")
    assert located_message(error, inputs={"input.mlir", "-p", "canonicalize"}) == (
        "other.mlir:1:1: 'test.op' op is wrong"
    )
    assert located_message(error, inputs={"other.mlir"}).endswith("\nunrelated text\n^")


def test_crlf_line_ends_are_not_quoted(tmp_path: Path) -> None:
    source = tmp_path / "crlf.mlir"
    source.write_bytes(b"first\r\nsecond line\r\n")
    assert located_message(error_at(str(source), 2, 3)).splitlines()[1:] == [
        "second line",
        "  ^",
    ]


# -- parse errors ----------------------------------------------------------------------


def _parse_error(text: str, name: str = "in.mlir") -> Exception:
    from xdsl.parser import Parser
    from xdsl.utils.exceptions import ParseError

    from tests.support.xdsl_tools import make_context

    with pytest.raises(ParseError) as caught:
        Parser(make_context(), text, name).parse_module()
    return caught.value


def test_parse_errors_print_like_mlir() -> None:
    """``file:line:col: message``, the line, a caret and ``~`` under the token."""
    error = _parse_error(
        "func.func @f(%a: f32, %b: memref<4xf32>) {\n"
        "\tgpu.memcpy %b, %a : memref<4xf32>, f32\n"
        "  return\n}\n"
    )
    lines = located_message(error).splitlines()
    assert lines[0] == (
        "in.mlir:2:37: invalid kind of type specified: expected builtin.memref, but "
        "found 'f32'"
    )
    assert lines[1] == "        gpu.memcpy %b, %a : memref<4xf32>, f32"  # tab expanded
    assert lines[2] == " " * (8 + 35) + "^~~"  # the tab, then 35 characters


def test_parse_error_at_the_end_of_the_input_gives_the_location_alone() -> None:
    error = _parse_error("func.func @f() {\n  %1 = arith.addi %0, %0 : i32\n")
    assert "\n" not in located_message(error)
    assert located_message(error).startswith("in.mlir:")


def test_tools_print_parse_errors_on_one_located_line(tmp_path: Path) -> None:
    import subprocess

    source = tmp_path / "bad.mlir"
    source.write_text("func.func @f() {\n  %0 = arith.nope\n  return\n}\n")
    for command in (
        ["xdsl-opt", str(source)],
        ["xdsl-gpu-run", str(source), "-e", "f", "--entry-point-result=void"],
    ):
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        assert done.returncode == 1
        first = done.stderr.splitlines()[0]
        assert re.match(rf"{re.escape(str(source))}:\d+:\d+: error: ", first), (
            done.stderr
        )
        assert "arith.nope is not registered" in first
        assert "Traceback" not in done.stderr


def test_verifier_messages_take_mlirs_frame(tmp_path: Path) -> None:
    """xDSL's constraint failures read as MLIR's (``'op' op operand #N must be ...``),
    and messages of xDSL's generic checks name the op."""
    import subprocess

    source = tmp_path / "v.mlir"
    source.write_text(
        "func.func @f(%a: memref<4xf32>, %t: index) {\n"
        '  "gpu.memcpy"(%a, %t) : (memref<4xf32>, index) -> ()\n'
        "  return\n}\n"
    )
    done = subprocess.run(
        ["xdsl-opt", "--xdsl-gpu", str(source)], capture_output=True, text=True
    )
    assert done.stderr.splitlines()[0] == (
        f"{source}:2:3: error: 'gpu.memcpy' op operand #1 must be memref of "
        "any type values, but got 'index'"
    )
    source.write_text(
        "func.func @f() {\n  %0 = arith.constant 1 : i32\n  func.return %0 : i32\n}\n"
    )
    done = subprocess.run(
        ["xdsl-opt", "--xdsl-gpu", str(source)], capture_output=True, text=True
    )
    assert done.stderr.splitlines()[0].startswith(
        f"{source}:3:3: error: 'func.return' op "
    )


def _module_with_an_unlocated_op(tmp_path: Path):
    """A parsed function (located) holding an op made without a location, as a
    pass makes them; the error about that op."""
    from xdsl.context import Context
    from xdsl.parser import Parser

    from xdsl_gpu import register_dialects

    source = tmp_path / "in.mlir"
    source.write_text("func.func @f(%a: f32) {\n  func.return\n}\n")
    ctx = Context()
    register_dialects(ctx)  # func among them
    module = Parser(ctx, source.read_text(), str(source)).parse_module()
    function = next(op for op in module.walk() if isinstance(op, func.FuncOp))
    block = function.body.block
    added = arith.AddfOp(block.args[0], block.args[0])
    assert block.last_op is not None
    block.insert_op_before(added, block.last_op)
    error = DiagnosticException("dump of the whole module\n\nwith the op marked")
    error.failing_op = added  # type: ignore[attr-defined]
    error.plain_message = "is wrong"  # type: ignore[attr-defined]
    error.add_note("the module, marked,\nover several lines")
    return source, error


def test_an_op_made_by_a_pass_is_placed_at_the_op_around_it(tmp_path: Path) -> None:
    """MLIR's form, one location: the enclosing function's, the op itself in the
    note; not xDSL's dump of the module."""
    from xdsl_gpu.diagnostics import user_error_text

    source, error = _module_with_an_unlocated_op(tmp_path)
    text = user_error_text("xdsl-opt", error, inputs=[str(source)])
    assert text.splitlines() == [
        f"{source}:1:1: error: 'arith.addf' op is wrong",
        "func.func @f(%a: f32) {",
        "^",
        f'{source}:1:1: note: see current operation: %0 = "arith.addf"(%a, %a) '
        "<{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32",
    ]


def test_the_module_is_printed_on_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from xdsl_gpu import diagnostics

    source, error = _module_with_an_unlocated_op(tmp_path)
    monkeypatch.setattr(diagnostics, "SHOW_MODULE_ON_DIAGNOSTIC", True)
    text = diagnostics.user_error_text("xdsl-opt", error, inputs=[str(source)])
    assert text.endswith("note: the module, marked,\nover several lines")


def test_an_op_with_regions_is_one_line_in_the_note(tmp_path: Path) -> None:
    from xdsl_gpu.diagnostics import operation_text

    _source, error = _module_with_an_unlocated_op(tmp_path)
    function = error.failing_op.parent_op()  # type: ignore[attr-defined]
    assert isinstance(function, func.FuncOp)
    assert operation_text(function) == (
        '"func.func"() <{sym_name = "f", function_type = (f32) -> ()}> ({...}) : () '
        "-> ()"
    )
    assert function.body.block.ops  # the function itself is untouched


@pytest.mark.parametrize("forced", [[], ["--xdsl-gpu"]])
def test_an_op_is_placed_at_its_name(tmp_path: Path, forced: list[str]) -> None:
    """At the op's name, after its results, as MLIR places an op: in runs with
    xDSL's own dialects (no locations recorded) as in runs with ours."""
    import subprocess

    source = tmp_path / "case.mlir"
    source.write_text(
        "func.func @f() {\n"
        '  %0 = "arith.constant"() <{value = dense<[1, 2]> : tensor<2xi32>}> : '
        "() -> tensor<3xi32>\n"
        "  return\n}\n"
    )
    done = subprocess.run(
        ["xdsl-opt", *forced, "case.mlir"],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert lines[0].startswith("case.mlir:2:8: error: 'arith.constant' op"), lines
    assert lines[2] == "       ^"
    # In a later chunk of a split input: the line in the file.
    source.write_text("func.func @g() {\n  return\n}\n// -----\n" + source.read_text())
    done = subprocess.run(
        ["xdsl-opt", *forced, "--split-input-file", "case.mlir"],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.stderr.startswith("case.mlir:6:8: error: 'arith.constant' op")


def test_a_large_constant_is_elided_in_the_note() -> None:
    """As MLIR's diagnostics print it: an elements attribute of more than 16
    elements (not a splat) as ``dense_resource<__elided__>``, so a large constant's
    note stays short; the op itself keeps its value."""
    from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType, i32

    from xdsl_gpu.diagnostics import operation_text

    def constant(values: list[int]) -> arith.ConstantOp:
        kind = TensorType(i32, [len(values)])
        return arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(kind, values))

    large = constant(list(range(100_000)))
    assert operation_text(large) == (
        '%0 = "arith.constant"() <{value = dense_resource<__elided__> : '
        "tensor<100000xi32>}> : () -> tensor<100000xi32>"
    )
    assert isinstance(large.value, DenseIntOrFPElementsAttr)
    assert "dense<[0, 1, 2, 3," in (operation_text(constant(list(range(16)))) or "")
    assert "dense<7>" in (operation_text(constant([7] * 100)) or "")


@pytest.mark.parametrize(
    ("op_name", "hint"),
    [
        ("arith.addi", "convert-arith-to-llvm"),
        ("scf.for", "convert-scf-to-cf, then convert-cf-to-llvm"),
        ("builtin.unrealized_conversion_cast", "reconcile-unrealized-casts"),
        ("gpu.module", "gpu-lower-to-nvvm-pipeline"),
        ("test.op", "lower it to the llvm dialect first"),
    ],
)
def test_lowering_hints_name_the_pass(op_name: str, hint: str) -> None:
    from xdsl_gpu.diagnostics import lowering_hint

    assert hint in lowering_hint(op_name)
