// Seed 000 redone: a hand-written CUDA kernel (kernels.cu) called next to a kernel
// the compiler generates. See docs/custom-kernels.md for the walk-through:
//
//   xdsl-gpu-nvrtc kernels.cu -arch=sm_80,sm_90 --emit=ptx,cubin -o build
//   xdsl-opt example.mlir -p 'xgpu-embed-object-files{search-path="build" use-bare-pointers-for-kernels=true}' -o example.embedded.mlir
//   xdsl-gpu-run example.embedded.mlir --pipeline-options=kernel-bare-ptr-calling-convention=1 --function=mixed_invocation --input=8xf32=2 --input=8xf32=4
//     # prints 8xf32=12 12 12 12 12 12 12 12
//
// mixed_invocation(a, b) = a * b (simple_mul, from kernels.cu) + b (generated), so
// 8xf32=2 and 8xf32=4 give 8xf32=12.
module attributes {gpu.container_module} {
  // The external kernels: one object per architecture, read from the search path at
  // compile time. #xgpu.select_best embeds them all; at load time the runtime takes
  // the cubin for the GPU's exact SM, else the newest compatible cubin, else JITs the
  // newest PTX that is not newer than the GPU.
  gpu.binary @executable <#xgpu.select_best> [
    #xgpu.object_file<#nvvm.target<chip = "sm_80">, "kernels_sm_80.cubin">,
    #xgpu.object_file<#nvvm.target<chip = "sm_90">, "kernels_sm_90.cubin">,
    #xgpu.object_file<#nvvm.target<chip = "sm_80">, "kernels_sm_80.ptx">
  ]

  func.func @mixed_invocation(%arg0: memref<8xf32>, %arg1: memref<8xf32>) -> memref<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %dim = arith.constant 8 : i32
    // Dispatch the custom kernel: ceildiv(8, 64) = 1 block of 64 threads; its
    // parameters (three pointers and an int) are checked against the launch at
    // compile time.
    %product = gpu.alloc host_shared () : memref<8xf32>
    gpu.launch_func @executable::@simple_mul blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%arg0 : memref<8xf32>, %arg1 : memref<8xf32>, %product : memref<8xf32>, %dim : i32)
    // Code the compiler generates: an elementwise add after the external multiply.
    %result = gpu.alloc host_shared () : memref<8xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
      %p = memref.load %product[%tx] : memref<8xf32>
      %b = memref.load %arg1[%tx] : memref<8xf32>
      %sum = arith.addf %p, %b : f32
      memref.store %sum, %result[%tx] : memref<8xf32>
      gpu.terminator
    }
    gpu.dealloc %product : memref<8xf32>
    return %result : memref<8xf32>
  }

  // An entry point without arguments (for the fully lowered example.ll.mlir:
  // xdsl-gpu-run example.ll.mlir -e main): the inputs 8xf32=2 and 8xf32=4, and the
  // sum of the result (8 * 12 = 96).
  func.func @main() -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %two = arith.constant 2.0 : f32
    %four = arith.constant 4.0 : f32
    %zero = arith.constant 0.0 : f32
    %a = gpu.alloc host_shared () : memref<8xf32>
    %b = gpu.alloc host_shared () : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      memref.store %two, %a[%i] : memref<8xf32>
      memref.store %four, %b[%i] : memref<8xf32>
    }
    %r = func.call @mixed_invocation(%a, %b) : (memref<8xf32>, memref<8xf32>) -> memref<8xf32>
    %total = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
      %v = memref.load %r[%i] : memref<8xf32>
      %next = arith.addf %acc, %v : f32
      scf.yield %next : f32
    }
    gpu.dealloc %a : memref<8xf32>
    gpu.dealloc %b : memref<8xf32>
    gpu.dealloc %r : memref<8xf32>
    return %total : f32
  }
}
