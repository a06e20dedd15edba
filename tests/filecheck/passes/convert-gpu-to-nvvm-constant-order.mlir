// RUN: xdsl-opt %s -p convert-gpu-to-nvvm --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --convert-gpu-to-nvvm --split-input-file | filecheck %s %}
// convert-gpu-to-nvvm's greedy rewrite (before the conversion) moves each constant of
// the input to the front of its function once: equal ones become one, and those of
// later blocks land before the earlier ones. The conversion's own constants stay
// where their op was.

gpu.module @wmma_order {
  // CHECK-LABEL: llvm.func @load_after_alloca(
  // CHECK-NEXT:    %[[C16:.*]] = llvm.mlir.constant(16 : index) : i64
  // CHECK-NEXT:    llvm.mlir.constant(32 : index) : i64
  // CHECK:         llvm.alloca
  // CHECK:         %[[BASE:.*]] = llvm.extractvalue %{{.*}}[1]
  // CHECK-NEXT:    %[[LD:.*]] = llvm.mlir.constant(32 : index) : i64
  // CHECK-NEXT:    %[[ROW:.*]] = llvm.mul %[[C16]], %[[LD]] : i64
  // CHECK-NEXT:    llvm.add %[[ROW]], %[[C16]] : i64
  // CHECK-NOT:     llvm.mlir.constant(16 : index)
  // CHECK:         nvvm.wmma.load
  func.func @load_after_alloca() -> !gpu.mma_matrix<16x16xf16, "AOp"> {
    %wg = memref.alloca() {alignment = 32} : memref<32x32xf16, 3>
    %i = arith.constant 16 : index
    %j = arith.constant 16 : index
    %0 = gpu.subgroup_mma_load_matrix %wg[%i, %j] {leadDimension = 32 : index} : memref<32x32xf16, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">
    return %0 : !gpu.mma_matrix<16x16xf16, "AOp">
  }
}

// -----

gpu.module @blocks {
  // CHECK-LABEL: llvm.func @later_block_first(
  // CHECK-NEXT:    %[[C3:.*]] = llvm.mlir.constant(3 : index) : i64
  // CHECK-NEXT:    %[[C16:.*]] = llvm.mlir.constant(16 : index) : i64
  // CHECK-NEXT:    %[[X:.*]] = llvm.add %{{.*}}, %{{.*}} : i64
  // CHECK-NEXT:    %[[Y:.*]] = llvm.mul %[[X]], %[[C16]] : i64
  // CHECK-NEXT:    %[[Z:.*]] = llvm.add %[[Y]], %[[C16]] : i64
  // CHECK-NEXT:    llvm.br ^bb1
  // CHECK-NEXT:  ^bb1:
  // CHECK-NEXT:    llvm.add %[[Z]], %[[C3]] : i64
  func.func @later_block_first(%a: index) -> index {
    %x = arith.addi %a, %a : index
    %c = arith.constant 16 : index
    %d = arith.constant 16 : index
    %y = arith.muli %x, %c : index
    %z = arith.addi %y, %d : index
    cf.br ^bb1
  ^bb1:
    %e = arith.constant 3 : index
    %w = arith.addi %z, %e : index
    return %w : index
  }
}
