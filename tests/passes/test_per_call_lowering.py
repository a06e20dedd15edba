"""The shortcuts of the lowerings that make one op per call on a large kernel,
against what they stand for: ``llvm.call`` built from its parts as xDSL's builder
builds it, the libdevice declarations remembered only while the module still has
them, and ``arith`` comparisons and ``select`` made their llvm ops in place as the
builders and the replacement would leave them."""

from __future__ import annotations

import io

import pytest
from xdsl.dialects.builtin import (
    DenseArrayBase,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    f32,
    i32,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.printer import Printer

from tests.support.xdsl_tools import make_context, parse
from xdsl_gpu.gpu_dialect import llvm
from xdsl_gpu.gpu_dialect.gpu import kernel_ops
from xdsl_gpu.passes import convert_arith_to_llvm
from xdsl_gpu.passes.convert_arith_to_llvm import ConvertArithToLLVMPass
from xdsl_gpu.passes.convert_gpu_to_nvvm import ConvertGpuToNVVMPass
from xdsl_gpu.passes.gpu_to_nvvm_patterns.common import NVVMLowering
from xdsl_gpu.passes.gpu_to_nvvm_patterns.libdevice import LibdeviceLowering
from xdsl_gpu.passes.ir_walk import preorder
from xdsl_gpu.passes.llvm_type_converter import LLVMTypeConverter


def _generic(op: Operation) -> str:
    out = io.StringIO()
    Printer(stream=out, print_generic_format=True).print_op(op)
    return out.getvalue()


# -- llvm.call -----------------------------------------------------------------------


def _built_by_irdl(
    callee: str | StringAttr | SymbolRefAttr,
    *args: SSAValue,
    return_type: Attribute | None = None,
    variadic_args: int = 0,
    op_bundle_operands: tuple[SSAValue, ...] = (),
    op_bundle_sizes: DenseArrayBase | None = None,
    fastmath: llvm.FastMathAttr | None = None,
) -> llvm.CallOp:
    """What ``llvm.CallOp(...)`` made through xDSL's generic builder."""
    if not isinstance(callee, SymbolRefAttr):
        callee = SymbolRefAttr(callee)
    var_callee_type = None
    if variadic_args:
        var_callee_type = llvm.LLVMFunctionType(
            [a.type for a in args[: len(args) - variadic_args]],
            return_type,
            is_variadic=True,
        )
    op = llvm.CallOp.__new__(llvm.CallOp)
    IRDLOperation.__init__(
        op,
        operands=[args, op_bundle_operands],
        properties={
            "callee": callee,
            "var_callee_type": var_callee_type,
            "fastmathFlags": fastmath or llvm.FastMathAttr(None),
            "CConv": llvm.CallingConventionAttr("ccc"),
            "op_bundle_sizes": op_bundle_sizes or DenseArrayBase.from_list(i32, ()),
        },
        result_types=[return_type],
    )
    return op


@pytest.mark.parametrize(
    ("callee", "kwargs"),
    [
        ("__nv_expf", {"return_type": f32}),
        ("g", {}),
        (StringAttr("h"), {"return_type": i32, "variadic_args": 1}),
        (SymbolRefAttr("k"), {"fastmath": llvm.FastMathAttr("fast")}),
        ("b", {"op_bundle_sizes": DenseArrayBase.from_list(i32, [1])}),
    ],
    ids=["result", "no-result", "variadic", "fastmath", "bundle"],
)
def test_a_call_is_what_xdsls_builder_makes(
    callee: str | StringAttr | SymbolRefAttr, kwargs: dict[str, object]
) -> None:
    x, n = Block(arg_types=[f32, i32]).args
    bundle = (n,) if "op_bundle_sizes" in kwargs else ()
    made = llvm.CallOp(callee, x, n, op_bundle_operands=bundle, **kwargs)  # type: ignore[arg-type]
    built = _built_by_irdl(callee, x, n, op_bundle_operands=bundle, **kwargs)  # type: ignore[arg-type]
    assert list(made.properties.items()) == list(built.properties.items())
    assert made.attributes == built.attributes
    assert list(made.operands) == list(built.operands)
    assert [r.type for r in made.results] == [r.type for r in built.results]
    assert _generic(made) == _generic(built)


def test_the_properties_of_a_call_made_in_place() -> None:
    x, n = Block(arg_types=[f32, i32]).args
    built = llvm.CallOp("__nv_powif", x, n, return_type=f32)
    made = llvm.direct_call_properties("__nv_powif", 2)
    assert list(made.items()) == list(built.properties.items())


# -- declarations --------------------------------------------------------------------

GPU_MODULE = """
builtin.module attributes {gpu.container_module} {
  gpu.module @m {
    llvm.mlir.global internal constant @taken("x") : !llvm.array<1 x i8>
    llvm.func @f() {
      llvm.return
    }
  }
}
"""


def _lowering() -> tuple[NVVMLowering, Operation]:
    module = parse(GPU_MODULE)
    (gpu_module,) = [o for o in preorder(module) if isinstance(o, kernel_ops.ModuleOp)]
    user = next(o for o in preorder(gpu_module) if o.name == "llvm.return")
    return NVVMLowering(LLVMTypeConverter(), gpu_module), user


def _functions(lowering: NVVMLowering, name: str) -> list[Operation]:
    return [
        o
        for o in lowering.body.ops
        if isinstance(o, llvm.FuncOp) and o.sym_name.data == name
    ]


EXPF = llvm.LLVMFunctionType([f32], f32)


def test_a_declaration_is_made_once() -> None:
    lowering, user = _lowering()
    assert lowering.declared_function("__nv_expf") is None
    decl = lowering.declare_function("__nv_expf", EXPF, user)
    assert lowering.declared_function("__nv_expf") is decl
    assert lowering.declare_function("__nv_expf", EXPF, user) is decl
    assert _functions(lowering, "__nv_expf") == [decl]
    assert decl.next_op is user.parent_op()  # right before its first user


def test_a_declaration_erased_or_renamed_is_made_again() -> None:
    lowering, user = _lowering()
    decl = lowering.declare_function("__nv_expf", EXPF, user)
    decl.detach()
    decl.erase()
    assert lowering.declared_function("__nv_expf") is None
    again = lowering.declare_function("__nv_expf", EXPF, user)
    assert again is not decl
    assert _functions(lowering, "__nv_expf") == [again]

    again.properties["sym_name"] = StringAttr("__nv_renamed")
    assert lowering.declared_function("__nv_expf") is None
    third = lowering.declare_function("__nv_expf", EXPF, user)
    assert _functions(lowering, "__nv_expf") == [third]


def test_a_declaration_made_elsewhere_is_found() -> None:
    lowering, user = _lowering()
    other = llvm.FuncOp("__nv_expf", EXPF, linkage=llvm.LinkageAttr("external"))
    lowering.body.add_op(other)
    assert lowering.declared_function("__nv_expf") is other
    assert lowering.declare_function("__nv_expf", EXPF, user) is other


def test_a_symbol_of_another_kind_is_no_declaration() -> None:
    lowering, _ = _lowering()
    assert lowering.declared_function("taken") is None
    assert lowering.declared_function("f") is not None


# -- arith ops in place ----------------------------------------------------

COMPARISONS = """
func.func @f(%a: f32, %b: f32, %i: i32, %j: i32, %x: index, %y: index,
             %u: vector<4xf32>, %v: vector<4xf32>, %p: vector<2x4xf32>,
             %q: vector<2x4xf32>, %c: vector<4xi1>) -> (f32, i1, i1, vector<4xf32>) {
  %lt = arith.cmpf olt, %a, %b fastmath<fast> : f32
  %min = arith.select %lt, %a, %b : f32
  %eq = arith.cmpi eq, %i, %j : i32
  %sel = arith.select %eq, %i, %j : i32
  %ult = arith.cmpi ult, %x, %y : index
  %idx = arith.select %ult, %x, %y : index
  %vlt = arith.cmpf oge, %u, %v : vector<4xf32>
  %vmin = arith.select %vlt, %u, %v : vector<4xi1>, vector<4xf32>
  %vsel = arith.select %c, %u, %vmin : vector<4xi1>, vector<4xf32>
  %plt = arith.cmpf ugt, %p, %q : vector<2x4xf32>
  %again = arith.cmpf olt, %min, %a : f32
  %twice = arith.select %again, %min, %min : f32
  %sum = arith.addi %i, %j overflow<nsw> : i32
  %prod = arith.muli %sum, %sum : i32
  %vsum = arith.addf %u, %vmin fastmath<nnan> : vector<4xf32>
  %isum = arith.addi %x, %y : index
  "test.op"(%prod, %vsum, %isum) : (i32, vector<4xf32>, index) -> ()
  func.return %twice, %lt, %eq, %vsel : f32, i1, i1, vector<4xf32>
}
"""


def _uses(module: ModuleOp) -> list[list[tuple[int, int]]]:
    """For each value, its uses in use-list order (user's position, operand)."""
    ops = preorder(module)
    position = {id(o): n for n, o in enumerate(ops)}
    values: list[SSAValue] = [
        *(a for o in ops for r in o.regions for b in r.blocks for a in b.args),
        *(r for o in ops for r in o.results),
    ]
    found: list[list[tuple[int, int]]] = []
    for value in values:
        found.append(
            [(position[id(u.operation)], u.index) for u in value.uses]  # pyright: ignore[reportUnknownArgumentType]
        )
    return found


def _lowered(monkeypatch: pytest.MonkeyPatch, in_place: bool) -> ModuleOp:
    if not in_place:
        monkeypatch.setattr(convert_arith_to_llvm, "IN_PLACE", {})
        monkeypatch.setattr(convert_arith_to_llvm, "IN_PLACE_OTHER", {})
    module = parse(COMPARISONS)
    lt = next(o for o in preorder(module) if o.name == "arith.cmpf")
    ConvertArithToLLVMPass().apply(make_context(), module)
    module.verify()
    # the fast path ran where it should (the first cmpf is now the llvm op)
    assert (type(lt) is llvm.FCmpOp) == in_place
    monkeypatch.undo()
    return module


def test_arith_ops_in_place_as_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ours = _lowered(monkeypatch, in_place=True)
    theirs = _lowered(monkeypatch, in_place=False)
    assert _generic(ours) == _generic(theirs)
    assert _uses(ours) == _uses(theirs)
    # a value's name hint stays with the value
    assert "%min" in str(ours)
    assert "%lt" in str(ours)


# -- libdevice calls in place --------------------------------------------------------

MATH = """
builtin.module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: f32, %d: f64, %h: f16, %n: i32, %v: vector<4xf32>) kernel {
      %e = math.exp %a : f32
      %f = math.exp %e fastmath<fast> : f32
      %l = math.log %d : f64
      %p = math.fpowi %f, %n : f32, i32
      %q = math.powf %p, %e : f32
      %s = math.exp %h : f16
      %nan = math.isnan %a : f32
      %w = math.exp %v : vector<4xf32>
      %r = math.exp %a : f32
      "test.op"(%e, %f, %l, %q, %s, %nan, %w, %r, %e) : (f32, f32, f64, f32, f16, i1, vector<4xf32>, f32, f32) -> ()
      gpu.return
    }
  }
}
"""


def _lowered_math(monkeypatch: pytest.MonkeyPatch, in_place: bool) -> ModuleOp:
    if not in_place:
        monkeypatch.setattr(LibdeviceLowering, "_in_place", lambda *_: False)
    module = parse(MATH)
    exp = next(o for o in preorder(module) if o.name == "math.exp")
    ConvertGpuToNVVMPass().apply(make_context(), module)
    module.verify()
    assert (type(exp) is llvm.CallOp) == in_place
    monkeypatch.undo()
    return module


def test_libdevice_calls_in_place_as_built(monkeypatch: pytest.MonkeyPatch) -> None:
    ours = _lowered_math(monkeypatch, in_place=True)
    theirs = _lowered_math(monkeypatch, in_place=False)
    assert _generic(ours) == _generic(theirs)
    assert _uses(ours) == _uses(theirs)
    text = str(ours)
    for callee in (
        "__nv_expf",
        "__nv_fast_expf",
        "__nv_log",
        "__nv_powif",
        "__nv_powf",
    ):
        assert text.count(f"llvm.func @{callee}(") == 1
