// C = A * B on tensor cores through gpu.subgroup_mma_*: A, B 4096x4096 f16, C f32
// (benchmarks/bench_wmma_matmul.py). A block of 4 warps computes a 64x64 tile of C,
// each warp a 32x32 quarter as 2x2 WMMA fragments (m16n16k16, f32 accumulators
// carried through the K loop as block arguments); A and B fragments are loaded
// straight from global memory, each reused by two products. The loop is written in
// cf: mlir-opt-22's pipeline cannot lower an scf.for that carries !gpu.mma_matrix
// values (its first pass, convert-nvgpu-to-nvvm, fails to legalize the scf.for).
module attributes {gpu.container_module} {
  gpu.module @wmma_kernels {
    gpu.func @wmma_matmul(%a: memref<4096x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<4096x4096xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %n = arith.constant 4096 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %warp = arith.divui %tx, %c32 : index
      %wr = arith.divui %warp, %c2 : index
      %wc = arith.remui %warp, %c2 : index
      %block_row = arith.muli %by, %c64 : index
      %block_col = arith.muli %bx, %c64 : index
      %warp_row = arith.muli %wr, %c32 : index
      %warp_col = arith.muli %wc, %c32 : index
      %row0 = arith.addi %block_row, %warp_row : index
      %col0 = arith.addi %block_col, %warp_col : index
      %row1 = arith.addi %row0, %c16 : index
      %col1 = arith.addi %col0, %c16 : index
      %zero = arith.constant 0.0 : f32
      %z = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
      cf.br ^loop(%c0, %z, %z, %z, %z : index, !gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">)
    ^loop(%k: index, %d00: !gpu.mma_matrix<16x16xf32, "COp">, %d01: !gpu.mma_matrix<16x16xf32, "COp">, %d10: !gpu.mma_matrix<16x16xf32, "COp">, %d11: !gpu.mma_matrix<16x16xf32, "COp">):
      %more = arith.cmpi slt, %k, %n : index
      cf.cond_br %more, ^body, ^done
    ^body:
      %a0 = gpu.subgroup_mma_load_matrix %a[%row0, %k] {leadDimension = 4096 : index} : memref<4096x4096xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %a1 = gpu.subgroup_mma_load_matrix %a[%row1, %k] {leadDimension = 4096 : index} : memref<4096x4096xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %b0 = gpu.subgroup_mma_load_matrix %b[%k, %col0] {leadDimension = 4096 : index} : memref<4096x4096xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %b1 = gpu.subgroup_mma_load_matrix %b[%k, %col1] {leadDimension = 4096 : index} : memref<4096x4096xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %e00 = gpu.subgroup_mma_compute %a0, %b0, %d00 : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
      %e01 = gpu.subgroup_mma_compute %a0, %b1, %d01 : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
      %e10 = gpu.subgroup_mma_compute %a1, %b0, %d10 : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
      %e11 = gpu.subgroup_mma_compute %a1, %b1, %d11 : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
      %next = arith.addi %k, %c16 : index
      cf.br ^loop(%next, %e00, %e01, %e10, %e11 : index, !gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">)
    ^done:
      gpu.subgroup_mma_store_matrix %d00, %c[%row0, %col0] {leadDimension = 4096 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<4096x4096xf32>
      gpu.subgroup_mma_store_matrix %d01, %c[%row0, %col1] {leadDimension = 4096 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<4096x4096xf32>
      gpu.subgroup_mma_store_matrix %d10, %c[%row1, %col0] {leadDimension = 4096 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<4096x4096xf32>
      gpu.subgroup_mma_store_matrix %d11, %c[%row1, %col1] {leadDimension = 4096 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<4096x4096xf32>
      gpu.return
    }
  }
}
