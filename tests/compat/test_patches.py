"""Every change inside xDSL (``xdsl_gpu/compat/``): stock xDSL still has the gap it
fills, and nothing outside the compat module changes xDSL's classes.

A ``test_gap_*`` failing after an xDSL upgrade means that xDSL closed the gap: remove
the patch (and its test) instead of moving the pin in pyproject.toml.
"""

from __future__ import annotations

import ast
import inspect
import io
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import UnknownLoc, i64
from xdsl.dialects.test import Test
from xdsl.dialects.test import TestOp as _TestOp
from xdsl.ir import Dialect, Operation
from xdsl.ir.affine import AffineExpr
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.universe import Universe
from xdsl.utils import mlir_lexer
from xdsl.utils.exceptions import DiagnosticException, VerifyException

from xdsl_gpu import compat
from xdsl_gpu.gpu_dialect.registration import install_hooks

PACKAGE = Path(__file__).parents[2] / "xdsl_gpu"

install_hooks()
compat.upstream_pass_pipelines()
compat.safe_opt_files()
compat.diagnose_internal_errors()
compat.upstream_command_lines()


def test_gap_dialects_chosen_per_run() -> None:
    """get_multiverse() still refuses two plugins defining one name, so a plugin
    cannot offer its own dialect under a name xDSL uses."""
    one = Universe(all_dialects={"gpu": lambda: Dialect("gpu", [], [])})

    class EntryPoint:
        def __init__(self, name: str) -> None:
            self.name = name

        def load(self) -> Universe:
            return one

    with (
        mock.patch(
            "importlib.metadata.entry_points",
            return_value=[EntryPoint("a"), EntryPoint("b")],
        ),
        pytest.raises(ValueError, match="Duplicate definition of gpu"),
    ):
        Universe.get_multiverse()


def test_gap_replace_context_dialect() -> None:
    ctx = Context()
    ctx.register_dialect("test", lambda: Test)
    with pytest.raises(Exception, match="already registered"):
        ctx.register_dialect("test", lambda: Test)


def test_gap_verify_dialect_attributes_with() -> None:
    assert not any(
        hasattr(Dialect, name)
        for name in ("verify_operation_attribute", "verify_op_attribute")
    )


def test_gap_remember_failing_ops() -> None:
    op = _TestOp()
    emit_error = compat.original(Operation.__dict__["emit_error"])
    with pytest.raises(VerifyException) as info:
        emit_error(op, "message", VerifyException("message"))
    assert not any(value is op for value in vars(info.value).values())


def test_gap_dialects_allow_unknown_operations() -> None:
    """xDSL's Context knows no dialect that accepts ops it does not define."""
    ctx = Context()
    ctx.load_dialect(Test)
    get_optional_op = compat.original(Context.__dict__["get_optional_op"])
    assert get_optional_op(ctx, "test.use.shared.memory") is None


def test_unknown_ops_of_an_open_dialect_only() -> None:
    from xdsl.dialects.builtin import UnregisteredOp

    from xdsl_gpu.gpu_dialect.test import TEST

    ctx = Context()
    ctx.load_dialect(TEST)
    ctx.load_dialect(llvm.LLVM)
    unknown = ctx.get_optional_op("test.use.shared.memory")
    assert unknown is not None
    assert issubclass(unknown, UnregisteredOp)
    assert ctx.get_optional_op("llvm.no_such_op") is None


def test_gap_record_source_locations() -> None:
    ctx = Context()
    ctx.load_dialect(Test)
    parser = Parser(ctx, '"test.op"() : () -> ()', "f.mlir")
    op = compat.original(Parser.__dict__["parse_operation"])(parser)
    assert isinstance(op.location, UnknownLoc)


def test_gap_fast_string_literals() -> None:
    """xDSL's decoder is still a per-character Python loop (no codec)."""
    decoder = compat.original(mlir_lexer.StringLiteral.bytes_contents.fget)
    source = inspect.getsource(decoder)
    assert "codecs" not in source
    assert "escape_decode" not in source


def test_gap_semi_affine_expressions() -> None:
    s0, s1 = AffineExpr.symbol(0), AffineExpr.symbol(1)
    with pytest.raises(NotImplementedError):
        compat.original(AffineExpr.__mul__)(s0, s1)


def test_gap_upstream_llvm_type_syntax() -> None:
    import io

    struct = llvm.LLVMStructType.from_type_list([llvm.LLVMPointerType(), i64])
    out = io.StringIO()
    printer = Printer(stream=out)
    compat.original(llvm.LLVMStructType.print_parameters)(struct, printer)
    assert out.getvalue() == "<(!llvm.ptr, i64)>"
    out = io.StringIO()
    Printer(stream=out).print_attribute(struct)
    assert out.getvalue() == "!llvm.struct<(ptr, i64)>"


def test_llvm_types_print_the_same_from_the_remembered_text() -> None:
    """Each llvm type's text is remembered: equal types print alike, nested ones
    in full, and a new type is not answered with an old one's text."""
    import io

    from xdsl.dialects.builtin import i32

    def printed(attribute: Any) -> str:
        out = io.StringIO()
        Printer(stream=out).print_attribute(attribute)
        return out.getvalue()

    def descriptor(element: Any) -> Any:
        array = llvm.LLVMArrayType(2, element)
        return llvm.LLVMStructType.from_type_list(
            [llvm.LLVMPointerType(), element, array]
        )

    first = printed(descriptor(i64))
    assert first == "!llvm.struct<(ptr, i64, array<2 x i64>)>"
    assert printed(descriptor(i64)) == first  # an equal type, a new object
    assert printed(descriptor(i32)) == "!llvm.struct<(ptr, i32, array<2 x i32>)>"
    assert printed(llvm.LLVMArrayType(2, i32)) == "!llvm.array<2 x i32>"


def test_gap_upstream_pass_pipelines() -> None:
    from xdsl.passes import PassPipeline
    from xdsl.utils.exceptions import ArgSpecParseError

    from xdsl_gpu.passes import get_all_passes

    parse_spec = compat.original(PassPipeline.__dict__["parse_spec"].__func__)
    passes = get_all_passes()
    with pytest.raises(ArgSpecParseError):
        parse_spec(passes, "nvvm-attach-target{features=+ptx80}")
    with pytest.raises(ArgSpecParseError):
        parse_spec(passes, "builtin.module(gpu-kernel-outlining)")
    with pytest.raises(ValueError, match="Unrecognized passes") as info:
        parse_spec(passes, "gpu-kernel-outlinin")
    assert not isinstance(info.value, compat.PassPipelineError)


def test_gap_safe_opt_files(tmp_path: Path) -> None:
    """xDSL opens the output for writing before it reads the input."""
    from xdsl.xdsl_opt_main import xDSLOptMain

    source = inspect.getsource(compat.original(xDSLOptMain.prepare_output))
    assert 'open(self.args.output_file, "w")' in source
    run = inspect.getsource(compat.original(xDSLOptMain.run))
    assert run.index("prepare_output()") < run.index("parse_chunk(")


def test_gap_diagnose_internal_errors() -> None:
    """A parser fault on odd input is a bare exception in xDSL."""
    from xdsl.dialects.memref import MemRef

    ctx = Context()
    ctx.load_dialect(MemRef)
    parser = Parser(
        ctx,
        "%0 = memref.subview %m[44467440737095516161] [1] [1] : "
        "memref<4xf32> to memref<1xf32>",
    )
    with pytest.raises(ValueError, match="out of range") as info:
        compat.original(Parser.__dict__["parse_operation"])(parser)
    assert not isinstance(info.value, DiagnosticException)


def test_gap_linear_string_literals() -> None:
    """xDSL's pattern still nests a repeated group inside a repetition."""
    from xdsl.utils.mlir_lexer import MLIRLexer

    assert compat.original(MLIRLexer._unescaped_characters_regex) is not None
    assert compat._XDSL_STRING.count("+|") == 1  # pyright: ignore[reportPrivateUsage]
    assert MLIRLexer._unescaped_characters_regex.pattern != compat._XDSL_STRING  # pyright: ignore[reportPrivateUsage]


def test_linear_string_literals_match_the_same_strings() -> None:
    import random
    import re

    old = re.compile(compat._XDSL_STRING)  # pyright: ignore[reportPrivateUsage]
    new = compat._LINEAR_STRING  # pyright: ignore[reportPrivateUsage]
    rng = random.Random(3)
    alphabet = 'ab"\\n\n0F '
    for _ in range(3000):
        text = '"' + "".join(rng.choice(alphabet) for _ in range(rng.randrange(12)))
        a, b = old.match(text), new.match(text)
        assert (a and a.group()) == (b and b.group()), text


def test_gap_spaced_shape_delimiters() -> None:
    from xdsl.parser.attribute_parser import AttrParser
    from xdsl.utils.exceptions import ParseError

    stock = compat.original(AttrParser.__dict__["parse_dimension_list"])
    parser = Parser(Context(), "2 x 32 x f32")
    assert stock(parser) == [2, 32]
    with pytest.raises(ParseError, match="Expected 'x' in shape delimiter, got f32"):
        parser.parse_shape_delimiter()


@pytest.mark.parametrize(
    ("text", "shape"),
    [
        ("memref<2 x 32 x f32>", "memref<2x32xf32>"),
        ("memref<2x32xf32>", "memref<2x32xf32>"),
        ("tensor<4 x ? x i8>", "tensor<4x?xi8>"),
        ("memref<3 x2 xf16>", "memref<3x2xf16>"),
        ("memref<0x10xf32>", "memref<0x10xf32>"),
    ],
)
def test_spaced_shape_delimiters(text: str, shape: str) -> None:
    from xdsl.dialects.builtin import Builtin

    ctx = Context()
    ctx.load_dialect(Builtin)
    assert str(Parser(ctx, text).parse_type()) == shape


def test_gap_upstream_affine_map_aliases() -> None:
    from xdsl.dialects.affine import ApplyOp
    from xdsl.dialects.builtin import AffineMapAttr, IndexType, ModuleOp
    from xdsl.ir.affine import AffineExpr, AffineMap

    def printed(print_ops: bool) -> str:
        value = _TestOp(result_types=[IndexType()]).results[0]
        expr = AffineExpr.symbol(0) // 16
        apply = ApplyOp([value], AffineMapAttr(AffineMap(0, 1, (expr,))))
        module = ModuleOp([value.owner, apply])
        text = io.StringIO()
        if print_ops:
            Printer(text).print_op(module)
            return text.getvalue()
        with (
            mock.patch.object(Printer, "print_op", compat.original(Printer.print_op)),
            mock.patch.object(ApplyOp, "print", compat.original(ApplyOp.print)),
            mock.patch.object(
                AffineMapAttr,
                "print_builtin",
                compat.original(AffineMapAttr.print_builtin),
            ),
        ):
            Printer(text).print_op(module)
        return text.getvalue()

    assert "affine.apply affine_map<()[s0] -> ((s0 floordiv 16))> ()[" in printed(False)
    ours = printed(True)
    assert ours.startswith("#map = affine_map<()[s0] -> (s0 floordiv 16)>\n")
    assert "affine.apply #map()[%" in ours


def test_gap_upstream_scf_while_syntax() -> None:
    from xdsl.dialects.scf import Scf, WhileOp
    from xdsl.utils.exceptions import ParseError

    ctx = Context()
    ctx.load_dialect(Scf)
    parser = Parser(ctx, "scf.while : () -> () {\n} do {\n}")
    parser.parse_characters("scf.while")
    with pytest.raises(ParseError, match="'\\(' expected"):
        compat.original(WhileOp.__dict__["parse"].__func__)(WhileOp, parser)


def test_gap_upstream_scf_parallel_syntax() -> None:
    from xdsl.dialects.scf import ParallelOp, ReduceOp, Scf
    from xdsl.utils.exceptions import ParseError

    ctx = Context()
    ctx.load_dialect(Scf)
    parser = Parser(ctx, "(%i) = (%lb) to (%ub) step (%s) {\n}")
    with pytest.raises(ParseError, match="does not have a custom format"):
        compat.original(ParallelOp.__dict__["parse"].__func__)(ParallelOp, parser)
    # Two reductions in MLIR's form: xDSL's format of scf.reduce stops at the comma.
    parser = Parser(ctx, "{\n}, {\n}")
    compat.original(ReduceOp.__dict__["parse"].__func__)(ReduceOp, parser)
    assert parser.parse_optional_punctuation(",") is not None


def test_gap_upstream_scf_parallel_printing() -> None:
    from xdsl.dialects.builtin import IndexType
    from xdsl.dialects.scf import ParallelOp, ReduceOp
    from xdsl.ir import Block, Region

    assert compat.original(ParallelOp.__dict__["print"]) is Operation.print
    body = Region(Block([ReduceOp()], arg_types=[IndexType()]))
    bound = _TestOp(result_types=[IndexType()]).results[0]
    loop = ParallelOp([bound], [bound], [bound], body)
    text = io.StringIO()
    Printer(text).print_op(loop)
    assert text.getvalue().startswith("scf.parallel (%")
    stock = io.StringIO()
    with mock.patch.object(ParallelOp, "print", Operation.print):
        Printer(stock).print_op(loop)
    assert stock.getvalue().startswith('"scf.parallel"(')
    # xDSL's scf.reduce prints two regions without the comma MLIR needs.
    reduce = ReduceOp((), [Region(Block()), Region(Block())])
    stock = io.StringIO()
    compat.original(ReduceOp.__dict__["print"])(reduce, Printer(stock))
    assert "} {" in stock.getvalue()
    assert "}, {" not in stock.getvalue()


def test_gap_upstream_memory_space_printing() -> None:
    """xDSL prints an i64 memory space with its type; ours elides it, as MLIR does,
    and keeps other widths' types. Both forms still parse to the same type."""
    from xdsl.dialects.builtin import (
        IntegerAttr,
        MemRefType,
        UnrankedMemRefType,
        f32,
        i32,
    )

    ranked = MemRefType(f32, [4], memory_space=IntegerAttr(3, i64))
    unranked = UnrankedMemRefType.from_type(f32, IntegerAttr(3, i64))
    for memref in (ranked, unranked):
        stock = io.StringIO()
        compat.original(type(memref).__dict__["print_builtin"])(memref, Printer(stock))
        assert stock.getvalue().endswith("3 : i64>")
    assert str(ranked) == "memref<4xf32, 3>"
    assert str(unranked) == "memref<*xf32, 3>"
    assert str(MemRefType(f32, [4], memory_space=IntegerAttr(3, i32))) == (
        "memref<4xf32, 3 : i32>"
    )
    ctx = Context()
    for text in ("memref<4xf32, 3>", "memref<4xf32, 3 : i64>"):
        assert Parser(ctx, text).parse_type() == ranked


def test_gap_upstream_special_float_printing() -> None:
    """xDSL prints a NaN or infinity's bits in lower-case hex; ours in upper case,
    as MLIR does, and finite values as before. Both read back as the same value."""
    import math

    from xdsl.dialects.builtin import FloatAttr, f16, f32

    for value, type_, ours in (
        (math.nan, f16, "0x7E00"),
        (math.inf, f32, "0x7F800000"),
        (-math.inf, f16, "0xFC00"),
    ):
        stock = io.StringIO()
        compat.original(Printer.__dict__["print_float"])(Printer(stock), value, type_)
        assert stock.getvalue() == ours.lower()
        text = io.StringIO()
        Printer(text).print_float(value, type_)
        assert text.getvalue() == ours
        attr = Parser(Context(), f"{ours} : {type_}").parse_attribute()
        assert isinstance(attr, FloatAttr)
        back = attr.value.data
        assert math.isnan(back) if math.isnan(value) else back == value
    finite = io.StringIO()
    Printer(finite).print_float(1.5, f16)
    assert finite.getvalue() == "1.500000e+00"


def test_gap_upstream_block_predecessor_comments() -> None:
    """xDSL prints a block label alone; ours adds MLIR's note of the predecessors
    (one entry per branch, so a cond_br to one block twice counts twice), and the
    printed text still parses."""
    from xdsl.dialects import cf, func
    from xdsl.dialects.builtin import Builtin, ModuleOp

    text = (
        "func.func @f(%c: i1) {\n  cf.cond_br %c, ^bb1, ^bb2\n^bb1:\n"
        "  cf.cond_br %c, ^bb2, ^bb2\n^bb2:\n  func.return\n^bb3:\n"
        "  cf.br ^bb2\n}"
    )
    ctx = Context()
    for dialect in (Builtin, func.Func, cf.Cf):
        ctx.load_dialect(dialect)
    module = Parser(ctx, text).parse_module()
    region = next(iter(module.ops)).regions[0]

    stock = io.StringIO()
    compat.original(Printer.__dict__["print_block"])(Printer(stock), region.blocks[2])
    assert "//" not in stock.getvalue()

    ours = io.StringIO()
    Printer(ours).print_op(module)
    printed = ours.getvalue()
    assert "^bb1:  // pred: ^bb0\n" in printed
    assert "^bb2:  // 4 preds: ^bb0, ^bb1, ^bb1, ^bb3\n" in printed
    assert "^bb3:  // no predecessors\n" in printed
    assert isinstance(Parser(ctx, printed).parse_module(), ModuleOp)


def test_gap_linalg_contractions_cast_inputs() -> None:
    from xdsl.dialects import arith
    from xdsl.dialects.builtin import MemRefType, f16, f32
    from xdsl.dialects.linalg.abstract_ops import ConvOperation
    from xdsl.dialects.linalg.ops import MatmulOp

    a, b = _TestOp(result_types=[MemRefType(f16, [2, 2])] * 2).results
    (c,) = _TestOp(result_types=[MemRefType(f32, [2, 2])]).results
    body = compat.original(MatmulOp.__dict__["get_hidden_region"].__func__)(
        MatmulOp, (a, b), (c,)
    )
    ops = list(body.block.ops)
    assert not any(isinstance(op, arith.ExtFOp) for op in ops)
    mul = next(op for op in ops if isinstance(op, arith.MulfOp))
    assert mul.result.type == f16  # then added to the f32 accumulator
    with pytest.raises(AssertionError):
        compat.original(ConvOperation.__dict__["get_hidden_region"].__func__)(
            ConvOperation, (a, b), (c,)
        )
    # No #linalg.type_fn (linalg.matmul {cast = #linalg.type_fn<cast_unsigned>}).
    from xdsl.dialects.linalg import Linalg

    from xdsl_gpu.compat.linalg import type_fn_attr

    assert "linalg.type_fn" not in [
        a.name for a in Linalg.attributes if a is not type_fn_attr()
    ]


def test_gap_hex_floats_in_dense_literals() -> None:
    from xdsl.parser.attribute_parser import AttrParser

    element = AttrParser._TensorLiteralElement  # pyright: ignore[reportPrivateUsage]
    to_type = compat.original(element.__dict__["to_type"])
    parser = Parser(Context(), "0x3F800000")
    literal = parser._parse_tensor_literal()[0][0]  # pyright: ignore[reportPrivateUsage]
    from xdsl.dialects.builtin import f32

    assert to_type(literal, parser, f32) == float(0x3F800000)  # not 1.0


def test_gap_upstream_command_lines() -> None:
    import argparse

    from xdsl.xdsl_opt_main import xDSLOptMain

    stub = xDSLOptMain.__new__(xDSLOptMain)
    stub.available_passes = {"gpu-kernel-outlining": lambda: None}  # pyright: ignore
    stub.available_targets = {"mlir": lambda: None}  # pyright: ignore
    stub.available_frontends = {"mlir": lambda _: None}  # pyright: ignore
    parser = argparse.ArgumentParser()
    register = compat.original(xDSLOptMain.__dict__["register_all_arguments"])
    register(stub, parser)
    for flag in ("--pass-pipeline", "--gpu-kernel-outlining", "--mlir-timing"):
        assert flag not in parser._option_string_actions  # pyright: ignore[reportPrivateUsage]
    # argparse reads mlir-opt's single-dash long option as -p with a value.
    assert parser.parse_args(["-pass-pipeline=x"]).passes == "ass-pipeline=x"


def test_gap_bounded_dense_literals() -> None:
    """xDSL's dense parser has no bound of its own (it expands splats)."""
    from xdsl.parser.attribute_parser import AttrParser

    source = inspect.getsource(
        compat.original(AttrParser.__dict__["parse_dense_int_or_fp_elements_attr"])
    )
    assert "data_values *= type_num_values" in source


def test_a_huge_splat_is_refused_at_once() -> None:
    from xdsl.utils.exceptions import ParseError

    parser = Parser(Context(), "dense<1> : vector<2147483647xi32>")
    with pytest.raises(ParseError, match="larger than xdsl-gpu handles"):
        parser.parse_attribute()


def test_gap_block_redeclaration_after_forward_use() -> None:
    from xdsl.dialects.cf import Cf
    from xdsl.dialects.func import Func

    ctx = Context()
    for dialect in (Cf, Func, Test):
        ctx.load_dialect(dialect)
    source = (
        "func.func @f() {\n  cf.br ^bb2\n^bb2:\n  cf.br ^bb2\n^bb2:\n  func.return\n}"
    )
    parse_block = compat.original(Parser.__dict__["_parse_block"])
    with (
        mock.patch.object(Parser, "_parse_block", parse_block),
        pytest.raises((KeyError, compat.InternalParseError)) as info,
    ):
        Parser(ctx, source).parse_module()
    assert isinstance(info.value.__cause__ or info.value, KeyError)


def test_a_block_declared_twice_is_a_parse_error() -> None:
    from xdsl.dialects.cf import Cf
    from xdsl.dialects.func import Func
    from xdsl.utils.exceptions import ParseError

    ctx = Context()
    for dialect in (Cf, Func):
        ctx.load_dialect(dialect)
    source = (
        "func.func @f() {\n  cf.br ^bb2\n^bb2:\n  cf.br ^bb2\n^bb2:\n  func.return\n}"
    )
    with pytest.raises(ParseError, match="re-declaration of block 'bb2'"):
        Parser(ctx, source).parse_module()


def test_gap_llvm_constant_keeps_its_type() -> None:
    import io

    from xdsl.dialects.builtin import IndexType, IntegerAttr

    constant = llvm.ConstantOp(IntegerAttr(1, IndexType()), i64)
    out = io.StringIO()
    compat.original(llvm.ConstantOp.__dict__["print"])(constant, Printer(stream=out))
    assert out.getvalue() == "(1) : i64"
    out = io.StringIO()
    constant.print(Printer(stream=out))
    assert out.getvalue() == "(1 : index) : i64"


def test_gap_lazy_assembly_formats() -> None:
    """xDSL still parses an op's format when the class is defined."""
    from xdsl.irdl import IRDLOperation, irdl_op_definition
    from xdsl.irdl.declarative_assembly_format import FormatProgram

    calls: list[str] = []
    xdsl_from_str = compat.original(FormatProgram.from_str)

    def counting(text: str, op_def: Any) -> Any:
        calls.append(text)
        return xdsl_from_str(text, op_def)

    with mock.patch.object(FormatProgram, "from_str", staticmethod(counting)):

        @irdl_op_definition
        class _FormattedOp(IRDLOperation):  # pyright: ignore[reportUnusedClass]
            name = "test.formatted"
            assembly_format = "attr-dict"

    assert calls == ["attr-dict"]


_PARSE_EVERY_FORMAT = """
from xdsl_gpu import compat

compat.lazy_assembly_formats()  # before any dialect module defines its ops
from xdsl_gpu.gpu_dialect.registration import NEW_DIALECTS, REPLACED_DIALECTS

parsed = 0
for factory in {**REPLACED_DIALECTS, **NEW_DIALECTS}.values():
    # raises on a malformed format
    parsed += compat.parse_lazy_formats(factory().operations)
print(parsed)
"""


def test_every_format_of_our_dialects_parses() -> None:
    """The lazy formats fail at first use, so the suite uses each one here (in a
    fresh process: this one defined the ops before the patch)."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _PARSE_EVERY_FORMAT],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 100


def test_gap_indexed_symbol_lookup() -> None:
    """xDSL's lookup visits the table's ops one by one on every lookup."""
    from xdsl.dialects import builtin, func
    from xdsl.traits import SymbolOpInterface, SymbolTable

    module = builtin.ModuleOp([func.FuncOp(f"f{i}", ((), ())) for i in range(50)])
    seen = 0
    name_of = SymbolOpInterface.get_sym_attr_name

    def counting(self: Any, op: Operation) -> Any:
        nonlocal seen
        seen += 1
        return name_of(self, op)

    lookup = compat.original(SymbolTable.lookup_symbol)
    with mock.patch.object(SymbolOpInterface, "get_sym_attr_name", counting):
        for _ in range(3):
            assert lookup(module, "f49") is not None
    assert seen >= 3 * 50


def test_indexed_symbol_lookup_answers_as_the_scan() -> None:
    from xdsl.dialects import builtin, func
    from xdsl.traits import SymbolTable

    compat.indexed_symbol_lookup()
    functions = [func.FuncOp(f"f{i}", ((), ())) for i in range(5)]
    module = builtin.ModuleOp(functions)
    assert SymbolTable.lookup_symbol(module, "f3") is functions[3]
    functions[3].detach()
    assert SymbolTable.lookup_symbol(module, "f3") is None  # stale entry rechecked
    renamed = func.FuncOp("f3", ((), ()))
    module.body.block.add_op(renamed)
    assert SymbolTable.lookup_symbol(module, "f3") is renamed
    assert SymbolTable.lookup_symbol(module, "nope") is None


def test_gap_xdsl_dispatch_follows_subclasses() -> None:
    from xdsl.interpreter import (
        _InterpreterFunctionImpls,  # pyright: ignore[reportPrivateUsage]
    )

    run = compat.original(_InterpreterFunctionImpls.__dict__["run"])
    assert "type(op) not in self._impl_dict" in inspect.getsource(run)


def test_gap_mro_class_checks() -> None:
    import subprocess
    import sys

    # Stock xDSL (no xdsl-gpu loaded): every op and attribute class is abc's.
    script = (
        "import abc\nfrom xdsl.ir import Attribute, Operation, SSAValue\n"
        "print([type(c) is abc.ABCMeta for c in (Operation, Attribute, SSAValue)])"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[True, True, True]"


def test_xdsl_run_interprets_our_arith_ops(tmp_path: Path) -> None:
    import subprocess

    source = tmp_path / "f.mlir"
    source.write_text(
        "func.func @main() -> index {\n  %a = arith.constant 2 : index\n"
        "  %b = arith.constant 3 : index\n  %c = arith.addi %a, %b : index\n"
        "  %d = arith.cmpi eq, %c, %a : index\n  func.return %c : index\n}\n"
    )
    done = subprocess.run(
        ["xdsl-run", str(source)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr  # arith.cmpi is our subclass
    assert "Could not find interpretation function" not in done.stderr


def test_every_patch_has_a_gap_test() -> None:
    names = {p.name for p in compat.PATCHES}
    tests = {
        n.removeprefix("test_gap_") for n in globals() if n.startswith("test_gap_")
    }
    assert names == tests
    for patch in compat.PATCHES:
        assert callable(getattr(compat, patch.name)), patch.name
        assert patch.reason
        assert patch.xdsl_version == compat.XDSL_VERSION


def test_the_architecture_page_lists_every_patch() -> None:
    page = (PACKAGE.parent / "docs" / "architecture.md").read_text()
    missing = [p.name for p in compat.PATCHES if f"`{p.name}`" not in page]
    assert not missing


def _assignments_to_xdsl(tree: ast.AST) -> list[tuple[int, str]]:
    """``X.attr = ...`` and ``setattr(X, ...)`` where ``X`` is, or is reached from, a
    name the module imported from ``xdsl`` (a class, a module alias, ...)."""
    from_xdsl: set[str] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.ImportFrom)
            and (node.module or "").split(".")[0] == "xdsl"
        ):
            from_xdsl.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.Import):
            from_xdsl.update(
                (a.asname or a.name).split(".")[0]
                for a in node.names
                if a.name.split(".")[0] == "xdsl"
            )

    def root(node: ast.expr) -> str:
        while isinstance(node, ast.Attribute):
            node = node.value
        return node.id if isinstance(node, ast.Name) else ""

    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            if isinstance(target, ast.Attribute) and root(target.value) in from_xdsl:
                found.append((getattr(node, "lineno", 0), ast.unparse(target)))
        if (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", "") == "setattr"
            and node.args
            and root(node.args[0]) in from_xdsl
        ):
            found.append((node.lineno, ast.unparse(node)))
    return found


def test_no_assignment_to_xdsl_classes_outside_compat() -> None:
    offenders = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {what}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.relative_to(PACKAGE).parts[0] != "compat"
        for line, what in _assignments_to_xdsl(ast.parse(path.read_text()))
    ]
    assert not offenders, (
        "extend by subclassing, or move it to xdsl_gpu/compat/:\n"
        + "\n".join(offenders)
    )


def test_the_check_finds_an_assignment() -> None:
    tree = ast.parse(
        "from xdsl.parser import Parser\nfrom xdsl.dialects import llvm as x\n"
        "Parser.parse_operation = f\nsetattr(x.LLVMStructType, 'p', g)\n"
        "lib.f.restype = None\n"
    )
    assert [line for line, _ in _assignments_to_xdsl(tree)] == [3, 4]


def test_gap_empty_input_is_an_empty_module() -> None:
    from xdsl.utils.exceptions import ParseError

    parse_module = compat.original(Parser.__dict__["parse_module"])
    with (
        mock.patch.object(Parser, "parse_module", parse_module),
        pytest.raises(ParseError, match="Could not parse entire input"),
    ):
        Parser(Context(), "// nothing\n").parse_module()


@pytest.mark.parametrize(
    "source", ["", "  \n", "// a comment\n", "#m = affine_map<(d0) -> (d0)>\n"]
)
def test_an_input_without_operations_is_an_empty_module(source: str) -> None:
    module = Parser(Context(), source).parse_module()
    assert list(module.ops) == []


@pytest.mark.parametrize("source", ["func.func", "}", "%0 = "])
def test_an_unfinished_input_is_still_an_error(source: str) -> None:
    from xdsl.dialects.func import Func
    from xdsl.utils.exceptions import ParseError

    ctx = Context()
    ctx.load_dialect(Func)
    with pytest.raises(ParseError):
        Parser(ctx, source).parse_module()
    with pytest.raises(ParseError, match="Could not parse entire input"):
        Parser(ctx, "").parse_module(allow_implicit_module=False)


def _counting_verifications(module: Operation) -> tuple[list[int], Any]:
    """Count the verifications of ``module`` that happen (its own verifier runs),
    whoever asked for them."""
    seen: list[int] = []
    own = type(module).verify_

    def counting(self: Operation) -> None:
        if self is module:
            seen.append(1)
        own(self)

    return seen, mock.patch.object(type(module), "verify_", counting)


class _VerifyingPass:
    """A stand-in for gpu-lower-to-nvvm-pipeline: verifies what it leaves."""

    name = "verifying"
    verifies_its_result = True

    def apply(self, ctx: Context, op: Any) -> None:
        op.verify()


# Only xdsl-gpu's passes are taken at their word (the patch's docstring says why).
_VerifyingPass.__module__ = "xdsl_gpu.passes.stand_in"


def test_gap_no_second_verification() -> None:
    """xDSL's pipeline calls back after the last pass, where xdsl-opt verifies
    again what that pass has just verified."""
    from xdsl.dialects import builtin
    from xdsl.passes import PassPipeline

    module = builtin.ModuleOp([])
    calls: list[str] = []
    pipeline = PassPipeline(
        (_VerifyingPass(),),  # type: ignore[arg-type]
        lambda before, op, after: calls.append("verify") or op.verify(),
    )
    seen, counting = _counting_verifications(module)
    with counting:
        compat.original(PassPipeline.apply)(pipeline, Context(), module)
    assert calls == ["verify", "verify"]  # the input's, then the result's
    assert len(seen) == 3  # the pass's own, and the callback's twice


def test_gap_first_pass_input_as_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """xDSL's xdsl-opt hands its first pass the parsed module and nothing else:
    the pipeline copies its whole input in case it must replay its steps."""
    from xdsl.xdsl_opt_main import xDSLOptMain

    from xdsl_gpu.driver import opt
    from xdsl_gpu.passes import pipeline_verification

    monkeypatch.delenv("XDSL_GPU_VERIFY_EACH", raising=False)
    monkeypatch.setenv("XDSL_GPU_CACHE", "0")
    monkeypatch.setenv("XDSL_GPU_JOBS", "1")
    copied: list[int] = []
    snapshot = pipeline_verification.snapshot

    def counted(module: Any) -> Any:
        copied.append(1)
        return snapshot(module)

    monkeypatch.setattr(pipeline_verification, "snapshot", counted)
    source = tmp_path / "in.mlir"
    source.write_text(
        "func.func @f() {\n  %c = arith.constant 1 : index\n  return\n}\n"
    )
    args = [str(source), "-p", "gpu-lower-to-nvvm-pipeline", "-o", str(tmp_path / "o")]
    assert opt.run_in_this_process(args) == 0
    assert copied == []  # patched: nothing to copy
    with (
        mock.patch.object(
            xDSLOptMain, "parse_chunk", compat.original(xDSLOptMain.parse_chunk)
        ),
        mock.patch.object(
            xDSLOptMain, "apply_passes", compat.original(xDSLOptMain.apply_passes)
        ),
        # A run applies its patches: not this one.
        mock.patch.object(compat, "first_pass_input_as_text", return_value=None),
    ):
        assert opt.run_in_this_process(args) == 0
    assert copied == [1]


def test_no_second_verification_after_a_pass_that_verified() -> None:
    from xdsl.dialects import builtin
    from xdsl.passes import PassPipeline

    compat.no_second_verification()
    module = builtin.ModuleOp([])

    class Plain(_VerifyingPass):
        verifies_its_result = False

    class Elsewhere(_VerifyingPass):  # says so, but is not one of xdsl-gpu's
        pass

    Plain.__module__ = "xdsl_gpu.passes.stand_in"
    Elsewhere.__module__ = "some_compiler.passes"

    def verify_once(before: Any, op: Any, after: Any) -> None:
        op.verify()

    def verify_twice(before: Any, op: Any, after: Any) -> None:
        op.verify()
        op.verify()

    for passes, callback, expected in (
        ((_VerifyingPass(),), verify_once, 2),  # the input's and the pass's own
        ((Plain(),), verify_once, 3),  # and the callback's after a plain pass
        ((Elsewhere(),), verify_once, 3),  # or after a pass from elsewhere
        ((_VerifyingPass(), Plain()), verify_once, 4),  # input, pass, pass, callback
        ((_VerifyingPass(),), verify_twice, 4),  # the skip is for one verification
    ):
        pipeline = PassPipeline(passes, callback)  # type: ignore[arg-type]
        seen, counting = _counting_verifications(module)
        with counting:
            pipeline.apply(Context(), module)
        assert len(seen) == expected, (passes, callback.__name__)


def _parse_types(source: str) -> list[Any]:
    from xdsl.dialects import builtin, func

    ctx = Context()
    ctx.load_dialect(builtin.Builtin)
    ctx.load_dialect(func.Func)
    module = Parser(ctx, source).parse_module()
    return [
        arg.type for op in module.walk() for r in op.regions for arg in r.block.args
    ]


def test_gap_remembered_builtin_types() -> None:
    """xDSL builds a MemRefType for each occurrence of the same text."""
    from xdsl.dialects.builtin import MemRefType
    from xdsl.parser.attribute_parser import AttrParser

    built: list[int] = []
    init = MemRefType.__init__

    def counting(self: Any, *args: Any, **kwargs: Any) -> None:
        built.append(1)
        init(self, *args, **kwargs)

    source = "func.func @f(%a: memref<4xf32>, %b: memref<4xf32>) {\n  func.return\n}"
    original_parse = compat.original(
        AttrParser.__dict__["_parse_optional_builtin_parametrized_type"]
    )
    with (
        mock.patch.object(MemRefType, "__init__", counting),
        mock.patch.object(
            AttrParser, "_parse_optional_builtin_parametrized_type", original_parse
        ),
    ):
        _parse_types(source)
    assert len(built) == 2


REPEATED_TYPES = """
#map = affine_map<(d0, d1) -> (d1, d0)>
func.func @f(%a: memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>,
             %b: memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>,
             %c: memref<?x4xf32, strided<[?, 1], offset: ?>>,
             %d: memref<?x4xf32, strided<[?, 1], offset: ?>>,
             %e: vector<4xf32>, %f: vector<4xf32>, %g: memref<4xvector<4xf32>>,
             %h: memref<4x4xf32, #map>, %i: memref<4x4xf32, #map>,
             %j: tensor<2x?xi8>, %k: tensor<2x?xi8>, %l: memref<4xf32>) {
  func.return
}
"""


def test_remembered_builtin_types_are_the_types_parsed_each_time() -> None:
    from xdsl.parser.attribute_parser import AttrParser

    compat.remembered_builtin_types()
    remembered = _parse_types(REPEATED_TYPES)
    original_parse = compat.original(
        AttrParser.__dict__["_parse_optional_builtin_parametrized_type"]
    )
    with mock.patch.object(
        AttrParser, "_parse_optional_builtin_parametrized_type", original_parse
    ):
        each_time = _parse_types(REPEATED_TYPES)
    assert remembered == each_time
    assert len(remembered) == 12
    assert remembered[0] is remembered[1]  # the second one was not built again
    assert remembered[0] == remembered[7]  # the alias means the same map


def test_remembered_builtin_types_belong_to_one_input() -> None:
    """An alias of one input is not another input's: each parse starts afresh."""
    compat.remembered_builtin_types()
    first = _parse_types(
        "#m = affine_map<(d0) -> (d0 + 1)>\n"
        "func.func @f(%a: memref<4xf32, #m>) {\n  func.return\n}"
    )
    second = _parse_types(
        "#m = affine_map<(d0) -> (d0 + 2)>\n"
        "func.func @f(%a: memref<4xf32, #m>) {\n  func.return\n}"
    )
    assert first != second


def test_remembered_builtin_types_leave_errors_as_they_were() -> None:
    from xdsl.utils.exceptions import ParseError

    compat.remembered_builtin_types()
    with pytest.raises(ParseError, match="Expected '>' after builtin parameter list"):
        _parse_types(
            "func.func @f(%a: memref<4xf32>, %b: memref<4xf32 x>) {\n  func.return\n}"
        )


def test_gap_plain_op_construction() -> None:
    """xDSL's builder runs its general argument lists for an op with no variadic
    part."""
    from xdsl.dialects import arith, test
    from xdsl.dialects.builtin import f32
    from xdsl.irdl import operations

    value = test.TestOp(result_types=[f32]).res[0]
    built: list[int] = []
    build_lists = operations.irdl_build_arg_list

    def counting(*args: Any, **kwargs: Any) -> Any:
        built.append(1)
        return build_lists(*args, **kwargs)

    with (
        mock.patch.object(
            operations, "irdl_op_init", compat.original(operations.irdl_op_init)
        ),
        mock.patch.object(operations, "irdl_build_arg_list", counting),
    ):
        arith.AddfOp(value, value)
    assert len(built) == 4  # operands, results, regions, successors


def test_gap_plain_op_verification() -> None:
    """xDSL's verifier goes through its variadic count checks for an op with no
    variadic part."""
    from xdsl.dialects import arith, test
    from xdsl.dialects.builtin import f32
    from xdsl.irdl import operations

    value = test.TestOp(result_types=[f32]).res[0]
    op = arith.AddfOp(value, value)
    counted: list[int] = []
    sizes = operations.verify_variadic_size

    def counting(*args: Any, **kwargs: Any) -> Any:
        counted.append(1)
        return sizes(*args, **kwargs)

    with (
        mock.patch.object(
            operations,
            "irdl_op_verify_arg_list",
            compat.original(operations.irdl_op_verify_arg_list),
        ),
        mock.patch.object(operations, "verify_variadic_size", counting),
    ):
        op.verify()
    assert len(counted) >= 2  # operands and results


def test_gap_remembered_op_constraints() -> None:
    """xDSL checks an op against its definition's constraints anew each time, however
    many ops of the same definition, types and attributes passed before."""
    from xdsl.dialects import arith, test
    from xdsl.dialects.builtin import f32
    from xdsl.irdl import operations
    from xdsl.irdl.operations import OpDef

    value = test.TestOp(result_types=[f32]).res[0]
    counted: list[int] = []
    checks = operations.irdl_op_verify_arg_list

    def counting(*args: Any) -> Any:
        counted.append(1)
        return checks(*args)

    with (
        mock.patch.object(OpDef, "verify", compat.original(OpDef.verify)),
        mock.patch.object(operations, "irdl_op_verify_arg_list", counting),
    ):
        for _ in range(3):
            arith.AddfOp(value, value).verify()
    assert len(counted) == 6  # operands and results, each time


def test_gap_linear_isolation_check() -> None:
    """xDSL's IsolatedFromAbove check walks up the parents of each operand's
    definition (is_ancestor), for every operand inside."""
    from xdsl.dialects import test
    from xdsl.dialects.builtin import ModuleOp, f32
    from xdsl.ir import Block, Region
    from xdsl.traits import IsolatedFromAbove

    value = _TestOp(result_types=[f32])
    users = [test.TestOp(operands=[value.res[0]]) for _ in range(3)]
    nested = test.TestOp(regions=[Region(Block(users))])
    module = ModuleOp([value, nested])
    calls: list[int] = []
    is_ancestor = Operation.is_ancestor

    def counting(self: Operation, other: Any) -> bool:
        calls.append(1)
        return is_ancestor(self, other)

    with (
        mock.patch.object(
            IsolatedFromAbove, "verify", compat.original(IsolatedFromAbove.verify)
        ),
        mock.patch.object(Operation, "is_ancestor", counting),
    ):
        IsolatedFromAbove().verify(module)
    assert len(calls) == 3


def test_gap_statement_forms() -> None:
    """xDSL's parser reads every statement of a repeated form anew: lexer, parser,
    assembly format."""
    from tests.support.xdsl_tools import make_context

    body = "".join(f"  %x{i + 1} = arith.addf %x{i}, %x0 : f32\n" for i in range(20))
    text = f"func.func @f(%x0: f32) {{\n{body}  func.return\n}}\n"
    parsed: list[str] = []
    parse_operation = Parser.parse_operation

    def counting(self: Parser) -> Any:
        op = parse_operation(self)
        parsed.append(op.name)
        return op

    with (
        mock.patch.object(
            Parser, "_parse_block_body", compat.original(Parser._parse_block_body)
        ),
        mock.patch.object(Parser, "parse_operation", counting),
    ):
        Parser(make_context(), text).parse_module()
    assert parsed.count("arith.addf") == 20


def test_gap_regex_tokens() -> None:
    """xDSL's lexer reads each token through a method per kind of token."""
    from xdsl.utils.lexer import Input

    lexer = mlir_lexer.MLIRLexer(Input("%a = arith.addf %b, %c : f32", "in"))
    formed: list[object] = []
    form_token = mlir_lexer.MLIRLexer._form_token

    def counting(self: Any, kind: Any, start: Any) -> Any:
        formed.append(kind)
        return form_token(self, kind, start)

    stock = compat.original(mlir_lexer.MLIRLexer.lex)
    with mock.patch.object(mlir_lexer.MLIRLexer, "_form_token", counting):
        while stock(lexer).kind is not mlir_lexer.MLIRTokenKind.EOF:
            pass
    assert len(formed) == 9  # eight tokens and the end


def test_gap_debug_info_syntax() -> None:
    """xDSL's parser refuses distinct[N]<>, fused<metadata>[...] and a location alias
    defined after its use; ours reads all three."""
    from xdsl.dialects.builtin import FusedLoc
    from xdsl.parser.attribute_parser import AttrParser
    from xdsl.utils.exceptions import ParseError

    builtin_attr = compat.original(AttrParser.__dict__["_parse_optional_builtin_attr"])
    location = compat.original(AttrParser.__dict__["_parse_location"])
    assert builtin_attr(Parser(Context(), "distinct[0]<>")) is None
    with pytest.raises(ParseError, match="'\\[' expected"):
        location(Parser(Context(), 'fused<"m">["a.mlir":1:2]'))
    attr = Parser(Context(), "[distinct[0]<>, distinct[0]<>, distinct[1]<>]")
    first, same, other = attr.parse_attribute().data  # pyright: ignore[reportAttributeAccessIssue]
    assert first == same
    assert first != other
    loc = Parser(Context(), 'fused<"m">["a.mlir":1:2]')._parse_location()  # pyright: ignore[reportPrivateUsage]
    assert isinstance(loc, FusedLoc)
    assert str(loc.metadata) == '"m"'
    text = '"test.op"() : () -> () loc(#l)\n#l = loc("a.mlir":3:4)\n'
    module = Parser(Context(allow_unregistered=True), text).parse_module()
    op = next(iter(module.body.ops))
    assert str(op.location) == 'loc("a.mlir":3:4)'


def test_gap_location_aliases() -> None:
    """xDSL prints each location in place; ours prints aliases defined after the
    module, as mlir-opt's -mlir-print-debuginfo, and in place with
    -mlir-print-local-scope."""
    from xdsl.targets.mlir import MLIRTarget

    text = '"test.op"() : () -> () loc("a.mlir":3:4)\n'
    module = Parser(Context(allow_unregistered=True), text).parse_module()
    stock = io.StringIO()
    compat.original(MLIRTarget.__dict__["emit"])(
        MLIRTarget(print_debuginfo=True), Context(), module, stock
    )
    assert '() -> () loc("a.mlir":3:4)' in stock.getvalue()
    ours = io.StringIO()
    MLIRTarget(print_debuginfo=True).emit(Context(), module, ours)
    assert "() -> () loc(#loc" in ours.getvalue()
    assert '= loc("a.mlir":3:4)' in ours.getvalue()
    token = compat.PRINT_LOCAL_SCOPE.set(True)
    try:
        local = io.StringIO()
        MLIRTarget(print_debuginfo=True).emit(Context(), module, local)
    finally:
        compat.PRINT_LOCAL_SCOPE.reset(token)
    assert '() -> () loc("a.mlir":3:4)' in local.getvalue()
