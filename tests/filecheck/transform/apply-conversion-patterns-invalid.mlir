// RUN: xdsl-opt --xdsl-gpu %s -p transform-interpreter --split-input-file --verify-diagnostics | filecheck %s
// RUN: not xdsl-opt %s --transform-interpreter --split-input-file 2>&1 | filecheck %s --check-prefix=EXIT

// EXIT-NOT:  Traceback
// EXIT:      {{.*}}.mlir:{{[0-9]+:[0-9]+}}: error: failed to legalize operation 'arith.addi' that was explicitly marked illegal
// EXIT-NOT:  Traceback

// An op of an illegal dialect that no descriptor lowers.
gpu.module @k {
  func.func @f(%a: i32) -> i32 {
    %b = arith.addi %a, %a : i32
    func.return %b : i32
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["gpu.module"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_conversion_patterns to %m {
      transform.apply_conversion_patterns.gpu.gpu_to_nvvm
    } with type_converter {
      transform.apply_conversion_patterns.memref.memref_to_llvm_type_converter
    } {illegal_dialects = ["arith"], partial_conversion} : !transform.any_op
    transform.yield
  }
}

// CHECK: failed to legalize operation 'arith.addi' that was explicitly marked illegal

// -----

// A full conversion: every op left must be legal.
gpu.module @k {
  func.func @f() -> index {
    %t = gpu.thread_id x
    func.return %t : index
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["gpu.module"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_conversion_patterns to %m {
      transform.apply_conversion_patterns.gpu.gpu_to_nvvm
    } with type_converter {
      transform.apply_conversion_patterns.memref.memref_to_llvm_type_converter
    } {legal_dialects = ["llvm", "nvvm"], legal_ops = ["gpu.module"]} : !transform.any_op
    transform.yield
  }
}

// CHECK: failed to legalize operation 'func.func'

// -----

// Descriptors need the memref type converter.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_conversion_patterns to %f {
      transform.apply_conversion_patterns.nvgpu.nvgpu_to_nvvm
    } {partial_conversion} : !transform.any_op
    transform.yield
  }
}

// CHECK: pattern descriptor does not specify type converter and apply_conversion_patterns op has no default type converter

// -----

// A dialect without LLVM patterns.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_conversion_patterns to %f {
      transform.apply_conversion_patterns.dialect_to_llvm "tensor"
    } with type_converter {
      transform.apply_conversion_patterns.memref.memref_to_llvm_type_converter
    } {partial_conversion} : !transform.any_op
    transform.yield
  }
}

// CHECK: dialect does not implement ConvertToLLVMPatternInterface or extension was not loaded: tensor

// -----

// Only descriptors in the region.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_conversion_patterns to %f {
      transform.apply_patterns.gpu.gpu_rewrite_patterns
    } with type_converter {
      transform.apply_conversion_patterns.memref.memref_to_llvm_type_converter
    } : !transform.any_op
    transform.yield
  }
}

// CHECK: expected pattern children ops to implement ConversionPatternDescriptorOpInterface

// -----

// No entry point.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @other(%root: !transform.any_op {transform.readonly}) {
    transform.yield
  }
}

// CHECK: could not find a nested named sequence with name: __transform_main
