"""``region_liveness.region_dce`` erases what xDSL's ``region_dce`` erases, in the
same order and with the same listener calls, and reports the same change."""

from __future__ import annotations

import pytest
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.transforms.dead_code_elimination import region_dce as xdsl_region_dce

from tests.support.xdsl_tools import parse, print_module
from xdsl_gpu.passes.region_liveness import region_dce

PROGRAMS = {
    "chain": """
func.func @f(%a: f32, %m: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %x = arith.addf %a, %a : f32
  %dead = arith.mulf %x, %a : f32
  %y = arith.subf %x, %a : f32
  %unused_load = memref.load %m[%c0] : memref<4xf32>
  memref.store %y, %m[%c0] : memref<4xf32>
  return
}
""",
    # Values carried around a loop through block arguments, a dead cycle of
    # ops that use each other only, and a block no branch reaches.
    "blocks": """
func.func @g(%n: index, %v: f32, %m: memref<4xf32>) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %unused = arith.muli %n, %n : index
  cf.br ^loop(%c0 : index)
^loop(%i: index):
  %next = arith.addi %i, %c1 : index
  %again = arith.cmpi slt, %next, %n : index
  cf.cond_br %again, ^loop(%next : index), ^exit
^exit:
  return %next : index
^unreachable:
  %lost = arith.addi %c0, %c1 : index
  memref.store %v, %m[%lost] : memref<4xf32>
  return %lost : index
}
""",
    # Nested regions: an scf.if whose results are unused but whose body stores,
    # an unused pure scf.if, and a gpu.launch whose body has dead ops.
    "regions": """
func.func @h(%p: i1, %a: f32, %m: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.if %p -> (f32) {
    memref.store %a, %m[%c0] : memref<4xf32>
    scf.yield %a : f32
  } else {
    scf.yield %a : f32
  }
  %s = scf.if %p -> (f32) {
    %t = arith.addf %a, %a : f32
    scf.yield %t : f32
  } else {
    scf.yield %a : f32
  }
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %c1, %g1 = %c1, %g2 = %c1)
             threads(%t0, %t1, %t2) in (%s0 = %c1, %s1 = %c1, %s2 = %c1) {
    %u = arith.mulf %a, %a : f32
    %v = arith.addf %u, %a : f32
    memref.store %u, %m[%t0] : memref<4xf32>
    gpu.terminator
  }
  return
}
""",
}


class _Removals:
    def __init__(self) -> None:
        self.names: list[str] = []
        self.listener = PatternRewriterListener()
        self.listener.operation_removal_handler = [self._removed]

    def _removed(self, op: Operation) -> None:
        self.names.append(f"{op.name} {[str(r.type) for r in op.results]}")


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_same_result_as_xdsl(name: str) -> None:
    text = "module attributes {gpu.container_module} {" + PROGRAMS[name] + "}"
    theirs, ours = parse(text), parse(text)
    their_removals, our_removals = _Removals(), _Removals()
    their_change = xdsl_region_dce(theirs.body, their_removals.listener)
    our_change = region_dce(ours.body, our_removals.listener)
    assert print_module(ours) == print_module(theirs)
    assert our_removals.names == their_removals.names
    assert our_removals.names  # every program has something to erase
    assert our_change is their_change is True
    # Nothing left to erase: both say so.
    assert region_dce(ours.body) is xdsl_region_dce(theirs.body) is False


def test_keeps_what_is_live() -> None:
    module = parse("module {" + PROGRAMS["chain"] + "}")
    region_dce(module.body)
    text = print_module(module)
    assert "arith.mulf" not in text
    assert "memref.load" not in text
    assert "arith.subf" in text
    assert "arith.addf" in text
