// PIPELINE: gpu-async-region
// FOUND: form: 7 lines (VerifyException), isolated from above

  %c0 = arith.constant 0 : index
func.func @cas_in_scf_for(%m: memref<4xi32>, %v: i32) {

  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
  }
  return
}

// CHECK: finalize-memref-to-llvm: 'memref.atomic_rmw' op in @cas_in_scf_for is inside 'scf.for', whose body must stay one block, and its lowering needs branches: run convert-scf-to-cf (after lower-affine) before finalize-memref-to-llvm

