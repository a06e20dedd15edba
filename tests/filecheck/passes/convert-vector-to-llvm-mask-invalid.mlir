// RUN: not xdsl-opt %s -p convert-vector-to-llvm 2>&1 | filecheck %s

// A masked transfer reaches convert-vector-to-llvm only if lower-vector-mask has not
// run: an error at the op that names it (mlir-opt-22 fails to verify the vector.mask
// after rewriting its region).
// CHECK-NOT:  Traceback
// CHECK:      {{.*}}.mlir:{{[0-9]+:[0-9]+}}: error: convert-vector-to-llvm: 'vector.mask' op in @f of vector.transfer_write is not lowered by convert-vector-to-llvm: run lower-vector-mask first (it moves the mask into the op)
// CHECK-NOT:  Traceback

func.func @f(%m: vector<16xi1>, %v: vector<16xf32>, %mem: memref<?xf32>, %i: index) {
  vector.mask %m { vector.transfer_write %v, %mem[%i] : vector<16xf32>, memref<?xf32> } : vector<16xi1>
  return
}
