// RUN: not xdsl-opt --xdsl-gpu %s -p convert-scf-to-cf 2>&1 | filecheck %s

// CHECK-NOT: Traceback
// CHECK:     {{.*}}.mlir:{{[0-9]+:[0-9]+}}: error: convert-scf-to-cf: 'scf.parallel' op in @reduction with reductions is not lowered by xdsl-gpu yet (upstream carries them through the loop nest); accumulate in an scf.for instead
// CHECK-NOT: Traceback
func.func @reduction(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = "scf.parallel"(%c0, %n, %c1, %c0) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
  ^bb0(%i: index):
    "scf.reduce"(%i) ({
    ^bb1(%a: index, %b: index):
      %s = arith.addi %a, %b : index
      "scf.reduce.return"(%s) : (index) -> ()
    }) : (index) -> ()
  }) : (index, index, index, index) -> index
  func.return %r : index
}
