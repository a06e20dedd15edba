// RUN: xdsl-opt %s -p convert-func-to-llvm --split-input-file --verify-diagnostics | filecheck %s
// RUN: xdsl-opt %s -p 'convert-func-to-llvm{use-bare-ptr-memref-call-conv=true}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=BARE
// RUN: not xdsl-opt %s -p 'convert-func-to-llvm{use-bare-ptr-memref-call-conv=true}' 2>&1 | filecheck %s --check-prefix=EXIT

// EXIT-NOT:  Traceback
// EXIT:      {{.*}}.mlir:{{[0-9]+:[0-9]+}}: error: convert-func-to-llvm: 'func.func' op @dynamic cannot pass 'memref<?xf32>' as a bare pointer
// EXIT-NOT:  Traceback

// The bare-pointer convention needs static shapes (upstream leaves such a function
// unconverted, to fail later).
func.func @dynamic(%m: memref<?xf32>) {
  func.return
}
// BARE: convert-func-to-llvm: 'func.func' op @dynamic cannot pass 'memref<?xf32>' as a bare pointer: the bare-pointer calling convention needs a static shape, strides and offset (drop use-bare-ptr-memref-call-conv, or cast to a static memref)

// -----

func.func @unranked(%m: memref<*xf32>) {
  func.return
}
// BARE: convert-func-to-llvm: 'func.func' op @unranked cannot pass 'memref<*xf32>' as a bare pointer

// -----

// Returning an unranked memref would need a heap copy of its descriptor.
func.func @return_unranked(%m: memref<*xf32>) -> memref<*xf32> {
  func.return %m : memref<*xf32>
}
// CHECK: convert-func-to-llvm: 'func.return' op in @return_unranked returns the unranked memref 'memref<*xf32>': its descriptor lives on the callee's stack, and xdsl-gpu does not copy it to the heap as upstream does (return a ranked memref instead)

// -----

func.func @tensor_arg(%t: tensor<4xf32>) {
  func.return
}
// CHECK: convert-func-to-llvm: 'func.func' op @tensor_arg has a value of type 'tensor<4xf32>' that has no LLVM equivalent

// -----

// #gpu.address_space has an LLVM address space only in the GPU lowerings.
func.func @gpu_space(%m: memref<4xf32, #gpu.address_space<workgroup>>) {
  func.return
}
// CHECK: convert-func-to-llvm: 'func.func' op @gpu_space has a value of type 'memref<4xf32, #gpu.address_space<workgroup>>' that has no LLVM equivalent (a memref needs an integer memory space or one the lowering maps, like #gpu.address_space in convert-gpu-to-nvvm)
