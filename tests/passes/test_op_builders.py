"""The fast paths the conversions take (issue 16), against what they replace: ops
made from their parts (``Op.create``) equal the ones xDSL's builders make, a type
converted once answers as a new conversion would, ``preorder`` lists what
``Operation.walk()`` yields, and the pattern driver tries on each op the patterns
that may act on it, in their order."""

from __future__ import annotations

import io

import pytest
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    MemRefType,
    VectorType,
    f32,
    i32,
    i64,
)
from xdsl.ir import Block, Operation
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.printer import Printer

from tests.support.xdsl_tools import parse
from xdsl_gpu.gpu_dialect import llvm
from xdsl_gpu.passes.ir_walk import preorder
from xdsl_gpu.passes.llvm_type_converter import (
    LLVMTypeConverter,
    acted_on,
    acted_on_names,
    rewrite_each,
)
from xdsl_gpu.passes.memref_descriptor import (
    constant_op,
    descriptor_struct_type,
    extract_value_op,
    insert_value_op,
    overflow_op,
)


def _generic(op: Operation) -> str:
    out = io.StringIO()
    Printer(stream=out, print_generic_format=True).print_op(op)
    return out.getvalue()


def _same(made: Operation, built: Operation) -> None:
    made.verify()
    built.verify()
    assert type(made) is type(built)
    assert made.properties == built.properties
    assert made.attributes == built.attributes
    assert [r.type for r in made.results] == [r.type for r in built.results]
    assert list(made.operands) == list(built.operands)
    assert _generic(made) == _generic(built)


STRUCT = descriptor_struct_type(2)


def test_extract_and_insert_value() -> None:
    (desc, index) = Block(arg_types=[STRUCT, i64]).args
    position = DenseArrayBase.from_list(i64, [3, 1])
    _same(
        extract_value_op(desc, [3, 1], i64),
        llvm.ExtractValueOp(position, desc, i64),
    )
    _same(
        insert_value_op(desc, index, [3, 1]),
        llvm.InsertValueOp(position, desc, index),
    )


@pytest.mark.parametrize("value", [IntegerAttr(7, IndexType()), IntegerAttr(-1, i32)])
def test_constant(value: IntegerAttr) -> None:
    _same(constant_op(value, i64), llvm.ConstantOp(value, i64))


@pytest.mark.parametrize("cls", [llvm.AddOp, llvm.SubOp, llvm.MulOp, llvm.ShlOp])
@pytest.mark.parametrize("bits", [0, 1, 3])
def test_integer_arithmetic_with_overflow_flags(
    cls: type[llvm.ArithmeticBinOpOverflow], bits: int
) -> None:
    (a, b) = Block(arg_types=[i64, i64]).args
    _same(overflow_op(cls, a, b, bits), cls(a, b, {}, IntegerAttr(bits, 32)))


@pytest.mark.parametrize(
    "t",
    [
        IndexType(),
        MemRefType(f32, [4, 8]),
        VectorType(f32, [2, 4]),
        ArrayAttr([i32]),  # no conversion: None, remembered as such
    ],
    ids=["index", "memref", "vector", "none"],
)
def test_a_type_converted_once_answers_as_a_new_conversion(t: object) -> None:
    converter = LLVMTypeConverter(index_bitwidth=32)
    first = converter.convert_type(t)  # type: ignore[arg-type]
    again = converter.convert_type(t)  # type: ignore[arg-type]
    assert first == LLVMTypeConverter(index_bitwidth=32)._convert_type(t)  # type: ignore[arg-type]  # pyright: ignore[reportPrivateUsage]
    assert again is first


def test_preorder_is_what_walk_yields() -> None:
    module = parse(
        """
        func.func @f(%n: index) -> f32 {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %z = arith.constant 0.0 : f32
          %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z) -> (f32) {
            %p = arith.cmpi eq, %i, %c0 : index
            %s = scf.if %p -> (f32) { scf.yield %a : f32 } else { scf.yield %z : f32 }
            scf.yield %s : f32
          }
          func.return %r : f32
        }
        func.func @g() { func.return }
        """
    )
    walked = list(module.walk())
    assert len(walked) > 10
    assert preorder(module) == walked


class _Typed(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.AddiOp, rewriter: PatternRewriter) -> None:
        rewriter.replace(op, arith.SubiOp(op.lhs, op.rhs))


class _TypedUnion(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: arith.MuliOp | arith.SubiOp, rewriter: PatternRewriter
    ) -> None:
        rewriter.replace(op, arith.AndIOp(op.lhs, op.rhs))


class _Untyped(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, arith.AndIOp):
            rewriter.replace(op, arith.OrIOp(op.lhs, op.rhs))


def test_patterns_say_what_they_act_on() -> None:
    from xdsl_gpu.passes.finalize_memref_to_llvm import (
        LoadLowering,
        MemRefLoweringOptions,
    )

    assert acted_on(_Typed()) == (arith.AddiOp,)
    assert set(acted_on(_TypedUnion()) or ()) == {arith.MuliOp, arith.SubiOp}
    assert acted_on(_Untyped()) is None
    load = LoadLowering(MemRefLoweringOptions(LLVMTypeConverter()))
    assert acted_on(load) == (memref.LoadOp,)


def test_the_dispatch_tries_what_a_walk_over_every_pattern_tries() -> None:
    """Each op meets the patterns that may act on it in their order: a chain of
    rewrites ends where trying every pattern on every op ends."""
    text = """
func.func @f(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %b : i32
  %1 = arith.muli %0, %b : i32
  %2 = arith.andi %1, %a : i32
  %3 = arith.xori %2, %a : i32
  func.return %3 : i32
}
"""
    patterns = [_Untyped(), _TypedUnion(), _Typed()]
    dispatched = parse(text)
    rewrite_each(preorder(dispatched)[1:], dispatched, patterns)

    every = parse(text)
    rewriter_ops = preorder(every)[1:]
    from xdsl.pattern_rewriter import PatternRewriter as Rewriter

    for op in rewriter_ops:
        if op.parent is None:
            continue
        rewriter = Rewriter(op)
        for pattern in patterns:
            pattern.match_and_rewrite(op, rewriter)
            if rewriter.has_done_action:
                break
    assert _generic(dispatched) == _generic(every)
    assert "arith.subi" in _generic(dispatched)  # addi -> subi, once per op
    assert "arith.andi" in _generic(dispatched)  # muli -> andi


def test_the_conversions_patterns_are_mostly_typed() -> None:
    """xDSL's decorator is still read (a change there would make every pattern
    generic: the same output, only slower)."""
    from xdsl_gpu.passes.convert_scf_to_cf import ConvertScfToCfPass  # noqa: F401
    from xdsl_gpu.passes.gpu_to_nvvm_patterns import func as gpu_func  # noqa: F401

    typed = [
        cls
        for cls in _subclasses(RewritePattern)
        if cls.__module__.startswith("xdsl_gpu.")
        and getattr(cls.match_and_rewrite, "__qualname__", "").startswith(
            "op_type_rewrite_pattern"
        )
    ]
    assert typed
    for cls in typed:
        pattern = cls.__new__(cls)
        assert acted_on(pattern), cls


def _subclasses(cls: type) -> list[type]:
    found: list[type] = []
    for sub in cls.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


class _Rewrites(RewritePattern):
    """Says it acts on ``arith.addi`` and defines its own match_and_rewrite."""

    acts_on = (arith.AddiOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, arith.AddiOp):
            rewriter.replace(op, arith.SubiOp(op.lhs, op.rhs))


class _RewritesMore(_Rewrites):
    """Rewrites more than its base says: not bound by the base's acts_on."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, arith.MuliOp):
            rewriter.replace(op, arith.AndIOp(op.lhs, op.rhs))


class _NotATuple(_Untyped):
    acts_on = arith.AddiOp  # a class, not a tuple: not taken at its word

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        super().match_and_rewrite(op, rewriter)


class _SubAddi(arith.AddiOp):
    """A subclass of the class a pattern names (as xdsl-gpu's memref ops are of
    xDSL's)."""

    name = "arith.addi"


def test_what_a_pattern_says_binds_only_its_own_rewrite() -> None:
    assert acted_on(_Rewrites()) == (arith.AddiOp,)
    assert acted_on(_RewritesMore()) is None
    assert acted_on(_NotATuple()) is None


def test_the_dispatch_follows_subclasses() -> None:
    text = """
func.func @f(%a: i32, %b: i32) -> i32 {
  %0 = arith.muli %a, %b : i32
  func.return %0 : i32
}
"""
    module = parse(text)
    (mul,) = [op for op in module.walk() if isinstance(op, arith.MuliOp)]
    sub_add = _SubAddi(mul.lhs, mul.rhs)
    assert mul.parent is not None
    mul.parent.insert_op_before(sub_add, mul)
    rewrite_each(preorder(module)[1:], module, [_Typed(), _RewritesMore()])
    printed = _generic(module)
    assert "arith.subi" in printed  # the subclass met _Typed's rewrite
    assert "arith.andi" in printed  # the base's acts_on did not hide muli


class _ByName(RewritePattern):
    """Picks its ops by name: ``arith.mul...`` only."""

    acts_on_names = ("arith.mul",)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name.startswith("arith.mul"):
            rewriter.replace(op, arith.AndIOp(op.operands[0], op.operands[1]))


class _ByNameTooFew(_ByName):
    """Says names, but its own rewrite acts on more: not taken at its word."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, arith.AddiOp):
            rewriter.replace(op, arith.SubiOp(op.lhs, op.rhs))


def test_a_pattern_may_say_the_names_it_acts_on() -> None:
    assert acted_on_names(_ByName()) == ("arith.mul",)
    assert acted_on(_ByName()) is None
    assert acted_on_names(_ByNameTooFew()) is None
    text = """
func.func @f(%a: i32, %b: i32) -> i32 {
  %0 = arith.muli %a, %b : i32
  %1 = arith.addi %0, %b : i32
  func.return %1 : i32
}
"""
    module = parse(text)
    rewrite_each(preorder(module)[1:], module, [_ByName(), _ByNameTooFew()])
    printed = _generic(module)
    assert "arith.andi" in printed  # muli met the pattern that names it
    assert "arith.subi" in printed  # addi met the one not bound by its base


def test_the_lowerings_say_what_they_act_on() -> None:
    """Every pattern of convert-gpu-to-nvvm (the lowerings of all std dialects)
    says which ops it acts on: none is tried on every op (a large kernel's llvm
    ops met ~40 patterns each)."""
    from xdsl_gpu.passes import convert_gpu_to_nvvm as gpu_to_nvvm

    converter = gpu_to_nvvm.WMMATypeConverter.for_pass(
        "test", 64, gpu_to_nvvm.NVVM_ADDRESS_SPACES
    )
    lowering = gpu_to_nvvm.NVVMLowering(
        converter,
        None,  # pyright: ignore[reportArgumentType]
        use_bare_ptr_memref_call_conv=False,
        has_redux=False,
    )
    pass_ = gpu_to_nvvm.ConvertGpuToNVVMPass()
    patterns = [
        *gpu_to_nvvm.expansion_patterns(lowering),
        *gpu_to_nvvm.index_expansion_patterns(),
        *pass_._patterns(lowering, converter),  # pyright: ignore[reportPrivateUsage]
    ]
    for pattern in patterns:
        assert acted_on(pattern) or acted_on_names(pattern), type(pattern)
