// RUN: xdsl-opt %s | filecheck %s
// XFAIL: *

// Upstream prints an scf.while without operands as `scf.while : () -> () {` (and
// MLIR parses both that and `scf.while () : () -> ()`); xDSL 0.74's scf.while parser
// wants the parenthesised operand list ("'(' expected"). Expected to fail until xDSL's
// scf dialect reads upstream's form; then this XFAIL turns into an unexpected pass
// and concurrent-kernels.mlir can use upstream's spelling.

// CHECK: scf.while
func.func @spin(%flag: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0 : i32
  scf.while : () -> () {
    %v = memref.load %flag[%c0] : memref<1xi32>
    %waiting = arith.cmpi eq, %v, %z : i32
    scf.condition(%waiting)
  } do {
    scf.yield
  }
  return
}
