// RUN: xdsl-opt %s --transform-interpreter | filecheck %s

// nvgpu_to_nvvm on a func.func: memrefs stay memrefs (addresses come from their
// descriptors through casts), the async token becomes an i32.

// CHECK-LABEL: func.func @async_copy(
// CHECK-SAME:    %[[SRC:.*]]: memref<128xf32>, %[[DST:.*]]: memref<128xf32, 3{{.*}}>, %[[I:.*]]: index)
// CHECK:         %[[DDESC:.*]] = builtin.unrealized_conversion_cast %[[DST]] : memref<128xf32, 3{{.*}}> to !llvm.struct<(ptr<3>, ptr<3>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK:         nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg
// CHECK:         nvvm.cp.async.commit.group
// CHECK:         nvvm.cp.async.wait.group 0
// CHECK-NOT:     nvgpu.
// CHECK:         return
func.func @async_copy(%src: memref<128xf32>, %dst: memref<128xf32, 3>, %i: index) {
  %t = nvgpu.device_async_copy %src[%i], %dst[%i], 4 {bypassL1} : memref<128xf32> to memref<128xf32, 3>
  %g = nvgpu.device_async_create_group %t
  nvgpu.device_async_wait %g {numGroups = 0 : i32}
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_conversion_patterns to %f {
      transform.apply_conversion_patterns.nvgpu.nvgpu_to_nvvm
    } with type_converter {
      transform.apply_conversion_patterns.memref.memref_to_llvm_type_converter
    } {legal_dialects = ["arith", "func", "llvm", "memref", "nvvm"], partial_conversion} : !transform.any_op
    transform.yield
  }
}
