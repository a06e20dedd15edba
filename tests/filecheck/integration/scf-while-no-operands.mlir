// RUN: xdsl-opt %s | filecheck %s
// RUN: xdsl-opt %s | mlir-opt-22 | filecheck %s --check-prefix=MLIR
// REQUIRES: mlir-opt

// Upstream prints an scf.while without operands as `scf.while : () -> () {`; xDSL
// 0.74's parser wants `scf.while () : () -> ()` (compat.upstream_scf_while_syntax reads
// both). xDSL prints its own form, which mlir-opt-22 reads back.

// CHECK: scf.while () : () -> () {
// MLIR: scf.while : () -> () {
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
