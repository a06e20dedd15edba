"""xdsl-gpu's ``memref`` dialect (``xdsl_gpu/gpu_dialect/memref.py``) takes the place of
xDSL's, keeps matching the passes written against xDSL's classes, and lowers."""

from __future__ import annotations

from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import IndexType, MemRefType, UnrankedMemRefType, f32

from tests.support.xdsl_tools import make_context, parse, print_module
from xdsl_gpu.gpu_dialect import memref
from xdsl_gpu.gpu_dialect.registration import REPLACED_DIALECTS
from xdsl_gpu.passes import get_all_passes


def test_factory_replaces_xdsls_dialect() -> None:
    assert REPLACED_DIALECTS["memref"]() is memref.MEMREF
    ctx = make_context()
    assert ctx.get_op("memref.cast") is memref.CastOp
    assert ctx.get_op("memref.global") is memref.GlobalOp
    assert ctx.get_op("memref.generic_atomic_rmw") is memref.GenericAtomicRMWOp
    # The ops that need nothing new are xDSL's own classes.
    assert ctx.get_op("memref.load") is xmemref.LoadOp


def test_every_xdsl_op_name_is_still_defined() -> None:
    names = [op.name for op in memref.MEMREF.operations]
    assert {op.name for op in xmemref.MemRef.operations} <= set(names)
    assert len(set(names)) == len(names)


def test_replaced_classes_subclass_xdsls() -> None:
    for op in memref.MEMREF.operations:
        xdsl_op = next(
            (x for x in xmemref.MemRef.operations if x.name == op.name), None
        )
        if xdsl_op is not None:
            assert issubclass(op, xdsl_op), op.name


def test_parsed_ops_are_instances_of_xdsls_classes() -> None:
    module = parse(
        """
        memref.global "private" constant @c : memref<2xf32> = dense<[1.0, 2.0]>
        func.func @f(%h: memref<4xf32>) -> index {
          %u = memref.cast %h : memref<4xf32> to memref<*xf32>
          %r = memref.rank %u : memref<*xf32>
          func.return %r : index
        }
        """
    )
    ops = list(module.walk())
    assert any(isinstance(op, xmemref.GlobalOp) for op in ops)
    assert any(isinstance(op, xmemref.CastOp) for op in ops)
    rank = next(op for op in ops if isinstance(op, xmemref.RankOp))
    assert isinstance(rank.source.type, UnrankedMemRefType)


def test_builders() -> None:
    m = MemRefType(f32, [4, 8])
    op = memref.GlobalOp.get(
        memref.StringAttr("g"),
        m,
        None,
        sym_visibility=None,  # type: ignore[attr-defined]
    )
    op.verify()
    assert "memref.global @g : memref<4x8xf32>" in str(op)
    from xdsl.ir.affine import AffineMap
    from xdsl.utils.test_value import create_ssa_value

    value = create_ssa_value(m)
    t = memref.TransposeOp(
        value,
        AffineMap.from_callable(lambda i, j: (j, i)),
        MemRefType(f32, [8, 4], memref.StridedLayoutAttr([1, 8], 0)),  # type: ignore[attr-defined]
    )
    t.verify()
    index = create_ssa_value(IndexType())
    memref.PrefetchOp(value, [index, index], False, 3, True).verify()


def test_lowering_to_llvm_finds_the_ops() -> None:
    source = """
    memref.global "private" constant @c : memref<2xf32> = dense<[1.0, 2.0]>
    func.func @f(%h: memref<4xf32>, %i: index, %v: f32) -> index {
      %u = memref.cast %h : memref<4xf32> to memref<*xf32>
      %r = memref.rank %u : memref<*xf32>
      %g = memref.get_global @c : memref<2xf32>
      %a = memref.atomic_rmw addf %v, %h[%i] : (f32, memref<4xf32>) -> f32
      %x = memref.generic_atomic_rmw %h[%i] : memref<4xf32> {
      ^bb0(%cur: f32):
        %s = arith.addf %cur, %v : f32
        memref.atomic_yield %s : f32
      }
      %t = memref.transpose %h (d0) -> (d0) : memref<4xf32> to memref<4xf32, strided<[1]>>
      func.return %r : index
    }
    """
    module = parse(source)
    passes = get_all_passes()
    ctx = make_context()
    for name in ("finalize-memref-to-llvm", "convert-func-to-llvm"):
        passes[name]()().apply(ctx, module)
    text = print_module(module)
    assert "memref." not in text
    assert "llvm.mlir.global private constant @c" in text
    assert "llvm.atomicrmw fadd" in text
    assert "llvm.cmpxchg" in text


def test_one_atomic_rmw_kinds_and_one_reset_format() -> None:
    from xdsl_gpu.gpu_dialect import arith
    from xdsl_gpu.gpu_dialect.xdsl_format import RESET_FORMAT
    from xdsl_gpu.passes import finalize_memref_to_llvm

    assert finalize_memref_to_llvm.ATOMIC_RMW_KINDS is memref.ATOMIC_RMW_KINDS
    assert memref.RESET_FORMAT is RESET_FORMAT  # pyright: ignore[reportPrivateUsage]
    assert arith.RESET_FORMAT is RESET_FORMAT  # pyright: ignore[reportPrivateUsage]


def test_generic_atomic_rmw_verifies_the_element_type() -> None:
    import pytest
    from xdsl.dialects.builtin import IntegerType, Signedness, i32
    from xdsl.ir import Block, Region
    from xdsl.utils.exceptions import VerifyException
    from xdsl.utils.test_value import create_ssa_value

    index = create_ssa_value(IndexType())
    for element, ok in (
        (f32, True),
        (i32, True),
        (IndexType(), False),
        (IntegerType(32, Signedness.SIGNED), False),
    ):
        m = create_ssa_value(MemRefType(element, [4]))
        block = Block(arg_types=[element])
        block.add_op(memref.AtomicYieldOp(block.args[0]))
        op = memref.GenericAtomicRMWOp(m, [index], Region(block))
        if ok:
            op.verify()
        else:
            with pytest.raises(VerifyException, match="must be memref of signless"):
                op.verify()


def test_memory_space_zero_is_the_default() -> None:
    from xdsl.dialects.builtin import IntegerAttr, NoneAttr

    for width in (16, 32, 64):
        space = IntegerAttr(0, width)
        assert (
            memref._memory_space(MemRefType(f32, [4], memory_space=space)) == NoneAttr()
        )  # pyright: ignore[reportPrivateUsage]
        assert memref._cast_compatible(  # pyright: ignore[reportPrivateUsage]
            MemRefType(f32, [4]), UnrankedMemRefType.from_type(f32, space)
        )
    assert not memref._cast_compatible(  # pyright: ignore[reportPrivateUsage]
        MemRefType(f32, [4]), MemRefType(f32, [4], memory_space=IntegerAttr(1, 64))
    )
