// RUN: xdsl-opt %s -p buffer-deallocation-pipeline --split-input-file --verify-diagnostics --allow-unregistered-dialect | filecheck %s

// What MLIR 22's pipeline refuses (its messages), and what xdsl-gpu's does not track
// yet: a diagnostic at the op, never a wrong free.

func.func @unknown_effects() {
  %b = memref.alloc() : memref<2xf32>
  "foo.bar"(%b) : (memref<2xf32>) -> ()
  return
}
// CHECK: ops with unknown memory side effects are not supported

// -----

func.func @free_present() {
  %b = memref.alloc() : memref<2xf32>
  "test.read_buffer"(%b) : (memref<2xf32>) -> ()
  memref.dealloc %b : memref<2xf32>
  return
}
// CHECK: memory free side-effect on MemRef value not supported!

// -----

func.func @yielded(%c: i1) {
  %b = memref.alloc() : memref<2xf32>
  %r = scf.if %c -> (memref<2xf32>) {
    scf.yield %b : memref<2xf32>
  } else {
    scf.yield %b : memref<2xf32>
  }
  "test.read_buffer"(%r) : (memref<2xf32>) -> ()
  return
}
// CHECK: buffer-deallocation-pipeline: a buffer that leaves its region

// -----

func.func @loop_carried(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = memref.alloc() : memref<2xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %b) -> (memref<2xf32>) {
    scf.yield %x : memref<2xf32>
  }
  return
}
// CHECK: buffer-deallocation-pipeline: a buffer passed into a region

// -----

func.func private @make() -> memref<2xf32>
func.func @call_result() {
  %b = func.call @make() : () -> memref<2xf32>
  return
}
// CHECK: buffer-deallocation-pipeline: a call that returns a buffer

// -----

func.func @branch(%c: i1) {
  %b = memref.alloc() : memref<2xf32>
  cf.br ^bb1(%b : memref<2xf32>)
^bb1(%x: memref<2xf32>):
  return
}
// CHECK: buffer-deallocation-pipeline: a buffer passed to another block
