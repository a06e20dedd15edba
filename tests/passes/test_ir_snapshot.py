"""``ir_snapshot.snapshot`` copies a module as ``Operation.clone`` does: the same
ops, attributes, name hints and use lists, also where a value is used before its
definition in pre-order (then it is xDSL's clone)."""

from __future__ import annotations

import io

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.printer import Printer

from tests.support.xdsl_tools import parse
from xdsl_gpu.passes.ir_snapshot import snapshot

PROGRAMS = {
    "nested": """
func.func @f(%p: i1, %a: f32, %m: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.if %p -> (f32) {
    %t = arith.addf %a, %a fastmath<fast> : f32
    memref.store %t, %m[%c0] : memref<4xf32>
    scf.yield %t : f32
  } else {
    scf.yield %a : f32
  }
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %c1, %g1 = %c1, %g2 = %c1)
             threads(%t0, %t1, %t2) in (%s0 = %c1, %s1 = %c1, %s2 = %c1) {
    %u = arith.mulf %r, %r {tag} : f32
    memref.store %u, %m[%t0] : memref<4xf32>
    gpu.terminator
  }
  return %r : f32
}
""",
    # ^bb2 dominates ^bb1 but comes after it: %x is used before it is made.
    "forward": """
func.func @g(%a: i32) -> i32 {
  cf.br ^bb2
^bb1:
  %y = arith.addi %x, %x : i32
  return %y : i32
^bb2:
  %x = arith.muli %a, %a : i32
  cf.br ^bb1
}
""",
}


def _generic(op: Operation) -> str:
    out = io.StringIO()
    Printer(stream=out, print_generic_format=True).print_op(op)
    return out.getvalue()


def _uses(module: ModuleOp) -> list[list[tuple[str, int]]]:
    found: list[list[tuple[str, int]]] = []
    for op in module.walk():
        args = [a for r in op.regions for b in r.blocks for a in b.args]
        for value in (*op.results, *args):
            found.append([(u.operation.name, u.index) for u in value.uses])
    return found


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_as_xdsls_clone(name: str) -> None:
    module = parse("module {" + PROGRAMS[name] + "}")
    ours, theirs = snapshot(module), module.clone()
    ours.verify()
    assert _generic(ours) == _generic(theirs)
    assert _uses(ours) == _uses(theirs)
    # A copy: nothing of it is the original's.
    originals = {id(o) for o in module.walk()}
    assert not originals & {id(o) for o in ours.walk()}


def test_one_pass_unless_a_value_comes_late(monkeypatch: pytest.MonkeyPatch) -> None:
    fallbacks: list[str] = []
    clone = ModuleOp.clone

    def counted(self: ModuleOp, *args: object, **kwargs: object) -> ModuleOp:
        fallbacks.append(self.name)
        return clone(self, *args, **kwargs)  # pyright: ignore[reportArgumentType]

    monkeypatch.setattr(ModuleOp, "clone", counted)
    snapshot(parse("module {" + PROGRAMS["nested"] + "}"))
    assert fallbacks == []
    snapshot(parse("module {" + PROGRAMS["forward"] + "}"))
    assert fallbacks == ["builtin.module"]
