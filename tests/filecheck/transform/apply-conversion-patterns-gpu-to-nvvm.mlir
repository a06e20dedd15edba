// RUN: xdsl-opt %s --transform-interpreter | filecheck %s
// RUN: xdsl-opt --xdsl-gpu %s -p transform-interpreter | filecheck %s

// A kernel lowered by a transform script instead of convert-gpu-to-nvvm: gpu,
// arith, memref and func patterns with the memref type converter, func.func kept
// legal (so its signature stays and its arguments are cast), gpu illegal.

// CHECK-LABEL: gpu.module @kernels
// CHECK:       func.func @scale(%[[A:.*]]: memref<16xf32>, %[[S:.*]]: f32)
// CHECK-DAG:     %[[DESC:.*]] = builtin.unrealized_conversion_cast %[[A]] : memref<16xf32> to !llvm.struct<(ptr, ptr, i32, array<1 x i32>, array<1 x i32>)>
// CHECK-DAG:     %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:         %[[PTR:.*]] = llvm.extractvalue %[[DESC]][1]
// CHECK:         %[[ADDR:.*]] = llvm.getelementptr inbounds|nuw %[[PTR]][%[[TID]]] : (!llvm.ptr, i32) -> !llvm.ptr, f32
// CHECK:         %[[V:.*]] = llvm.load %[[ADDR]] : !llvm.ptr -> f32
// CHECK:         %[[M:.*]] = llvm.fmul %[[V]], %[[S]] : f32
// CHECK:         llvm.store %[[M]], %{{.*}} : f32, !llvm.ptr
// CHECK:         nvvm.barrier0
// CHECK:         llvm.return
// CHECK-NOT:   gpu.thread_id
gpu.module @kernels {
  func.func @scale(%a: memref<16xf32>, %s: f32) {
    %t = gpu.thread_id x
    %v = memref.load %a[%t] : memref<16xf32>
    %m = arith.mulf %v, %s : f32
    memref.store %m, %a[%t] : memref<16xf32>
    gpu.barrier
    func.return
  }
}

// The script stays, printed in MLIR's form.
// CHECK:       transform.apply_conversion_patterns to %{{.*}} {
// CHECK-NEXT:    transform.apply_conversion_patterns.gpu.gpu_to_nvvm {benefit = 10 : i16}
// CHECK-NEXT:    transform.apply_conversion_patterns.dialect_to_llvm "arith"
// CHECK:       } with type_converter {
// CHECK-NEXT:    transform.apply_conversion_patterns.memref.memref_to_llvm_type_converter {index_bitwidth = 32 : i64}
// CHECK-NEXT:  } {illegal_dialects = ["gpu"], legal_dialects = ["llvm", "nvvm"], legal_ops = ["gpu.module", "func.func"], partial_conversion} : !transform.any_op
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["gpu.module"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_conversion_patterns to %m {
      transform.apply_conversion_patterns.gpu.gpu_to_nvvm {benefit = 10 : i16}
      transform.apply_conversion_patterns.dialect_to_llvm "arith"
      transform.apply_conversion_patterns.dialect_to_llvm "memref"
      transform.apply_conversion_patterns.func.func_to_llvm
    } with type_converter {
      transform.apply_conversion_patterns.memref.memref_to_llvm_type_converter {index_bitwidth = 32}
    } {legal_dialects = ["llvm", "nvvm"], legal_ops = ["gpu.module", "func.func"], illegal_dialects = ["gpu"], partial_conversion} : !transform.any_op
    transform.yield
  }
}
