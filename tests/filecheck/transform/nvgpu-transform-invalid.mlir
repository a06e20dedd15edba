// RUN: xdsl-opt --xdsl-gpu %s -p transform-interpreter --split-input-file --verify-diagnostics | filecheck %s
// RUN: not xdsl-opt %s --transform-interpreter --split-input-file 2>&1 | filecheck %s --check-prefix=EXIT

// EXIT-NOT:  Traceback
// EXIT:      {{.*}}.mlir:{{[0-9]+:[0-9]+}}: error: unsupported target op: "linalg.matmul"
// EXIT:      note: target op ({{.*}}.mlir:{{[0-9]+:[0-9]+}})
// EXIT-NOT:  Traceback

// A matmul that is not one mma.sync (32 rows): MLIR's "unsupported target op".
func.func @big(%a: memref<32x16xf16>, %b: memref<16x8xf16>, %c: memref<32x8xf16>) {
  linalg.matmul ins(%a, %b : memref<32x16xf16>, memref<16x8xf16>) outs(%c : memref<32x8xf16>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_matmul_as_mma_sync %mm : (!transform.any_op) -> ()
    transform.yield
  }
}

// CHECK: unsupported target op: "linalg.matmul"

// -----

// f16 operands with an f32 accumulator: upstream has no such mma.sync rewrite.
func.func @mixed(%a: memref<16x16xf16>, %b: memref<16x8xf16>, %c: memref<16x8xf32>) {
  linalg.matmul ins(%a, %b : memref<16x16xf16>, memref<16x8xf16>) outs(%c : memref<16x8xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_matmul_as_mma_sync %mm : (!transform.any_op) -> ()
    transform.yield
  }
}

// CHECK: unsupported target op: "linalg.matmul"

// -----

// Not a linalg op at all.
func.func @f() {
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_matmul_as_mma_sync %f : (!transform.any_op) -> ()
    transform.yield
  }
}

// CHECK: transform applied to the wrong op kind

// -----

// The shared-memory copy pipeliner is parsed but not run.
func.func @f() {
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.nvgpu.pipeline_shared_memory_copies failures(propagate) %loop {depth = 2} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// CHECK: 'transform.nvgpu.pipeline_shared_memory_copies' is not supported by xdsl-gpu's transform interpreter
