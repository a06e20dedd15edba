// RUN: XDSL_ROUNDTRIP
// RUN: xdsl-opt %s --split-input-file | filecheck %s

// gpu.module, gpu.func, gpu.return, gpu.binary, gpu.launch, gpu.terminator and
// gpu.launch_func in upstream's syntax. Every chunk is also checked against
// mlir-opt-22 by tests/test_mlir_conformance.py (both directions).

// CHECK-LABEL: builtin.module attributes {gpu.container_module}
// CHECK-NEXT:    gpu.module @kernels {
// CHECK-NEXT:      gpu.func @kernel_1(%arg0: f32, %arg1: memref<?xf32> {llvm.noalias}) kernel {
// CHECK-NEXT:        gpu.return
// CHECK-NEXT:      }
// CHECK-NEXT:      gpu.func @device(%a: f32) -> f32 {
// CHECK-NEXT:        gpu.return %a : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      gpu.func @two_results(%a: f32, %b: i32) -> (f32 {llvm.x}, i32) {
// CHECK-NEXT:        gpu.return %a, %b : f32, i32
// CHECK-NEXT:      }
// CHECK-NEXT:      gpu.func @no_args() {
// CHECK-NEXT:        gpu.return
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.func @launches(%a: f32, %m: memref<?xf32>, %smem: i32, %t0: !gpu.async.token) {
// CHECK-NEXT:      %c1 = arith.constant 1 : index
// CHECK-NEXT:      %c8 = arith.constant 8 : i32
// CHECK-NEXT:      %c2 = arith.constant 2 : i64
// CHECK-NEXT:      gpu.launch_func @kernels::@kernel_1 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : f32, %m : memref<?xf32>)
// CHECK-NEXT:      gpu.launch_func @kernels::@kernel_1 blocks in (%c8, %c8, %c8) threads in (%c8, %c8, %c8) : i32 args(%a : f32, %m : memref<?xf32>)
// CHECK-NEXT:      %t1 = gpu.launch_func async [%t0] @kernels::@kernel_1 clusters in (%c2, %c2, %c2) blocks in (%c2, %c2, %c2) threads in (%c2, %c2, %c2) : i64 dynamic_shared_memory_size %smem args(%a : f32, %m : memref<?xf32>) {foo}
// CHECK-NEXT:      %t2 = gpu.launch_func async @kernels::@kernel_1 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : f32, %m : memref<?xf32>)
// CHECK-NEXT:      gpu.launch_func [%t1, %t2] @kernels::@kernel_1 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %smem args(%a : f32, %m : memref<?xf32>)
// CHECK-NEXT:      func.return
// CHECK-NEXT:    }
// CHECK-NEXT:  }
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel_1(%arg0: f32, %arg1: memref<?xf32> {llvm.noalias}) kernel {
      gpu.return
    }
    gpu.func @device(%a: f32) -> f32 {
      gpu.return %a : f32
    }
    gpu.func @two_results(%a: f32, %b: i32) -> (f32 {llvm.x}, i32) {
      gpu.return %a, %b : f32, i32
    }
    gpu.func @no_args() {
      gpu.return
    }
  }
  func.func @launches(%a: f32, %m: memref<?xf32>, %smem: i32, %t0: !gpu.async.token) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : i32
    %c2 = arith.constant 2 : i64
    gpu.launch_func @kernels::@kernel_1 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : f32, %m : memref<?xf32>)
    gpu.launch_func @kernels::@kernel_1 blocks in (%c8, %c8, %c8) threads in (%c8, %c8, %c8) : i32 args(%a : f32, %m : memref<?xf32>)
    %t1 = gpu.launch_func async [%t0] @kernels::@kernel_1 clusters in (%c2, %c2, %c2) blocks in (%c2, %c2, %c2) threads in (%c2, %c2, %c2) : i64 dynamic_shared_memory_size %smem args(%a : f32, %m : memref<?xf32>) {foo}
    %t2 = gpu.launch_func async @kernels::@kernel_1 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : f32, %m : memref<?xf32>)
    gpu.launch_func [%t1, %t2] @kernels::@kernel_1 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %smem args(%a : f32, %m : memref<?xf32>)
    func.return
  }
}

// -----

// Memory attributions, launch-size hints, attributes; the launch-size hints are
// properties shown in the attribute dictionary, sorted like upstream prints them.

// CHECK-LABEL: gpu.module @attributions
// CHECK-NEXT:    gpu.func @kernel(%arg0: index) workgroup(%wg : memref<32xf32, #gpu.address_space<workgroup>>, %wg2 : memref<4xi32, 3>) private(%priv : memref<1xf32, #gpu.address_space<private>> {llvm.align = 4 : i64}) kernel attributes {gpu.known_grid_size = array<i32: 1, 1, 1>, known_block_size = array<i32: 32, 1, 1>, known_cluster_size = array<i32: 2, 1, 1>, qux = "quux"} {
// CHECK-NEXT:      %c0 = arith.constant 0 : index
// CHECK-NEXT:      %0 = memref.load %wg[%arg0] : memref<32xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:      memref.store %0, %priv[%c0] : memref<1xf32, #gpu.address_space<private>>
// CHECK-NEXT:      gpu.return
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.func @private_only() private(%p : memref<2xf32, #gpu.address_space<private>>) {
// CHECK-NEXT:      gpu.return
// CHECK-NEXT:    }
// CHECK-NEXT:  }
gpu.module @attributions {
  gpu.func @kernel(%arg0: index)
      workgroup(%wg: memref<32xf32, #gpu.address_space<workgroup>>, %wg2: memref<4xi32, 3>)
      private(%priv: memref<1xf32, #gpu.address_space<private>> {llvm.align = 4})
      kernel
      attributes {qux = "quux", known_block_size = array<i32: 32, 1, 1>, known_cluster_size = array<i32: 2, 1, 1>, gpu.known_grid_size = array<i32: 1, 1, 1>} {
    %c0 = arith.constant 0 : index
    %0 = memref.load %wg[%arg0] : memref<32xf32, #gpu.address_space<workgroup>>
    memref.store %0, %priv[%c0] : memref<1xf32, #gpu.address_space<private>>
    gpu.return
  }
  gpu.func @private_only() private(%p: memref<2xf32, #gpu.address_space<private>>) {
    gpu.return
  }
}

// -----

// gpu.module: offloading handler, targets, attributes, an empty body; the
// `gpu.kernel` attribute written out is printed as the `kernel` keyword.

// CHECK-LABEL: gpu.module @targets [#nvvm.target<chip = "sm_90">, #nvvm.target] {
// CHECK-NEXT:  }
// CHECK-NEXT:  gpu.module @handler <#gpu.select_object<1 : i64>> [#nvvm.target<O = 3, chip = "sm_80">, #nvvm.target] attributes {foo = 1 : i64} {
// CHECK-NEXT:    gpu.func @k() kernel {
// CHECK-NEXT:      gpu.return
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NEXT:  gpu.module @plain attributes {bar} {
// CHECK-NEXT:  }
gpu.module @targets [#nvvm.target<chip = "sm_90">, #nvvm.target] {
}
gpu.module @handler <#gpu.select_object<1>> [#nvvm.target<O = 3, chip = "sm_80">, #nvvm.target] attributes {foo = 1} {
  gpu.func @k() attributes {gpu.kernel} {
    gpu.return
  }
}
gpu.module @plain attributes {bar} {}

// -----

// gpu.binary: the default handler (#gpu.select_object) is not printed.

// CHECK-LABEL: gpu.binary @default [#gpu.object<#nvvm.target, "BLOB">]
// CHECK-NEXT:  gpu.binary @handler <#gpu.select_object<#nvvm.target<chip = "sm_90">>> [#gpu.object<#nvvm.target, "A">, #gpu.object<#nvvm.target<chip = "sm_90">, "B">]
// CHECK-NEXT:  gpu.binary @explicit_default [#gpu.object<#nvvm.target, bin = "C">]
// CHECK-NEXT:  gpu.binary @with_attrs {foo} [#gpu.object<#nvvm.target, "D">]
gpu.binary @default [#gpu.object<#nvvm.target, "BLOB">]
gpu.binary @handler <#gpu.select_object<#nvvm.target<chip = "sm_90">>> [#gpu.object<#nvvm.target, "A">, #gpu.object<#nvvm.target<chip = "sm_90">, "B">]
gpu.binary @explicit_default <#gpu.select_object> [#gpu.object<#nvvm.target, bin = "C">]
gpu.binary @with_attrs {foo} [#gpu.object<#nvvm.target, "D">]

// -----

// A launch_func of a kernel in a gpu.binary, with the stream that gpu-to-llvm adds.

// CHECK-LABEL: gpu.binary @kernels [#gpu.object<#nvvm.target, "PTX">]
// CHECK:       gpu.launch_func <%stream : !llvm.ptr> @kernels::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr, %c : i64)
// CHECK-NEXT:  gpu.launch_func <%stream : !llvm.ptr> @kernels::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 dynamic_shared_memory_size %smem
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, "PTX">]
  llvm.func @host(%stream: !llvm.ptr, %p: !llvm.ptr, %c: i64, %smem: i32) {
    gpu.launch_func <%stream : !llvm.ptr> @kernels::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%p : !llvm.ptr, %c : i64)
    gpu.launch_func <%stream : !llvm.ptr> @kernels::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 dynamic_shared_memory_size %smem
    llvm.return
  }
}

// -----

// Seed 001 (the gpu-lower-to-nvvm-pipeline example of GPU.md), with arith in place
// of gpu.printf. Block arguments: block ids, thread ids, grid sizes, block sizes.

// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    gpu.launch blocks(%0, %1, %2) in (%3 = %c1, %4 = %c1, %5 = %c1) threads(%6, %7, %8) in (%9 = %c2, %10 = %c1, %11 = %c1) {
// CHECK-NEXT:      %12 = arith.addi %6, %0 : index
// CHECK-NEXT:      %13 = arith.muli %9, %3 : index
// CHECK-NEXT:      gpu.terminator
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @main() {
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  gpu.launch
    blocks(%0, %1, %2) in (%3 = %c1, %4 = %c1, %5 = %c1)
    threads(%6, %7, %8) in (%9 = %c2, %10 = %c1, %11 = %c1) {
    %12 = arith.addi %6, %0 : index
    %13 = arith.muli %9, %3 : index
    gpu.terminator
  }
  return
}

// -----

// Everything gpu.launch has: async dependencies, clusters, dynamic shared memory,
// module and function names, attributions, a discardable attribute after the body,
// and a body of several blocks.

// CHECK-LABEL: func.func @launch_all
// CHECK:         %t = gpu.launch async [%dep] clusters(%cx, %cy, %cz) in (%scx = %c, %scy = %c, %scz = %c) blocks(%bx, %by, %bz) in (%gx = %c, %gy = %c, %gz = %c) threads(%tx, %ty, %tz) in (%sx = %c, %sy = %c, %sz = %c) dynamic_shared_memory_size %smem module(@kmod) function(@kfn) workgroup(%wg : memref<32xf32, #gpu.address_space<workgroup>>) private(%pr : memref<1xf32, #gpu.address_space<private>>) {
// CHECK-NEXT:      %s = arith.addi %cx, %scz : index
// CHECK-NEXT:      cf.br ^bb1
// CHECK-NEXT:    ^bb1:
// CHECK-NEXT:      gpu.terminator
// CHECK-NEXT:    } {foo = 1 : i64}
func.func @launch_all(%c: index, %smem: i32, %dep: !gpu.async.token) {
  %t = gpu.launch async [%dep]
      clusters(%cx, %cy, %cz) in (%scx = %c, %scy = %c, %scz = %c)
      blocks(%bx, %by, %bz) in (%gx = %c, %gy = %c, %gz = %c)
      threads(%tx, %ty, %tz) in (%sx = %c, %sy = %c, %sz = %c)
      dynamic_shared_memory_size %smem
      module(@kmod) function(@kfn)
      workgroup(%wg: memref<32xf32, #gpu.address_space<workgroup>>)
      private(%pr: memref<1xf32, #gpu.address_space<private>>) {
    %s = arith.addi %cx, %scz : index
    cf.br ^bb1
  ^bb1:
    gpu.terminator
  } {foo = 1}
  return
}

// -----

// NO-MLIR-OPT: mlir-opt 22 cannot parse dependencies without `async` on gpu.launch (it
// resolves them with a null type) and drops them when it prints such a launch; xdsl-gpu
// keeps them.

// CHECK-LABEL: func.func @sync_launch_with_dependencies
// CHECK-NEXT:    gpu.launch [%dep] blocks(%bx, %by, %bz) in (%gx = %c, %gy = %c, %gz = %c) threads(%tx, %ty, %tz) in (%sx = %c, %sy = %c, %sz = %c) {
// CHECK-NEXT:      gpu.terminator
// CHECK-NEXT:    }
func.func @sync_launch_with_dependencies(%c: index, %dep: !gpu.async.token) {
  gpu.launch [%dep] blocks(%bx, %by, %bz) in (%gx = %c, %gy = %c, %gz = %c) threads(%tx, %ty, %tz) in (%sx = %c, %sy = %c, %sz = %c) {
    gpu.terminator
  }
  return
}

// -----

// Seed 002: the host function and the three outlined kernel modules.

// CHECK-LABEL: func.func @test_parallel
// CHECK:         %{{.*}} = gpu.launch_func async [%{{.*}}] @test_parallel_kernel::@test_parallel_kernel blocks in (%c8, %c8, %c1) threads in (%c32, %c32, %c1) args(%c32 : index, %c0 : index, %c32 : index, %c1 : index, %c0 : index, %arg0 : memref<256x1024xf32>, %arg1 : memref<1024x256xf32>, %c1024 : index, %cst : f32, %{{.*}} : memref<256x256xf32>)
// CHECK:       gpu.module @test_parallel_kernel {
// CHECK-NEXT:    gpu.func @test_parallel_kernel(%arg0: index, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: memref<256x1024xf32>, %arg6: memref<1024x256xf32>, %arg7: index, %arg8: f32, %arg9: memref<256x256xf32>) kernel {
// CHECK:           gpu.return
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK:       gpu.module @test_parallel_kernel_1 {
#map = affine_map<()[s0, s1, s2] -> (s0 * s2 + s1)>
module attributes {gpu.container_module} {
  func.func @test_parallel(%arg0: memref<256x1024xf32>, %arg1: memref<1024x256xf32>) -> memref<256x256xf32> attributes {llvm.emit_c_interface} {
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %cst = arith.constant 0.000000e+00 : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    %memref = gpu.alloc host_shared () : memref<256x256xf32>
    %memref_0 = gpu.alloc host_shared () : memref<256x256xf32>
    %memref_1 = gpu.alloc host_shared () : memref<256x256xf32>
    %0 = gpu.wait async
    %2 = gpu.wait async
    %1 = gpu.launch_func async [%0] @test_parallel_kernel::@test_parallel_kernel blocks in (%c8, %c8, %c1) threads in (%c32, %c32, %c1) args(%c32 : index, %c0 : index, %c32 : index, %c1 : index, %c0 : index, %arg0 : memref<256x1024xf32>, %arg1 : memref<1024x256xf32>, %c1024 : index, %cst : f32, %memref_1 : memref<256x256xf32>)
    %3 = gpu.launch_func async [%2] @test_parallel_kernel_0::@test_parallel_kernel blocks in (%c8, %c8, %c1) threads in (%c32, %c32, %c1) args(%c32 : index, %c0 : index, %c32 : index, %c1 : index, %c0 : index, %arg0 : memref<256x1024xf32>, %arg1 : memref<1024x256xf32>, %c1024 : index, %cst : f32, %memref_0 : memref<256x256xf32>)
    %4 = gpu.wait async [%1, %3]
    %5 = gpu.launch_func async [%4] @test_parallel_kernel_1::@test_parallel_kernel blocks in (%c8, %c8, %c1) threads in (%c32, %c32, %c1) args(%c32 : index, %c0 : index, %c32 : index, %c1 : index, %c0 : index, %memref_1 : memref<256x256xf32>, %memref_0 : memref<256x256xf32>, %memref : memref<256x256xf32>)
    gpu.wait [%5]
    return %memref : memref<256x256xf32>
  }
  gpu.module @test_parallel_kernel {
    gpu.func @test_parallel_kernel(%arg0: index, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: memref<256x1024xf32>, %arg6: memref<1024x256xf32>, %arg7: index, %arg8: f32, %arg9: memref<256x256xf32>) kernel {
      %block_id_x = gpu.block_id x
      %block_id_y = gpu.block_id y
      %thread_id_x = gpu.thread_id x
      %thread_id_y = gpu.thread_id y
      %0 = affine.apply #map()[%arg0, %arg1, %block_id_x]
      %1 = affine.apply #map()[%arg2, %arg1, %block_id_y]
      %2 = affine.apply #map()[%arg3, %arg4, %thread_id_x]
      %3 = affine.apply #map()[%arg3, %arg4, %thread_id_y]
      %4 = arith.addi %2, %0 : index
      %5 = arith.addi %3, %1 : index
      %6 = scf.for %arg10 = %arg1 to %arg7 step %arg3 iter_args(%arg11 = %arg8) -> (f32) {
        %7 = memref.load %arg5[%4, %arg10] : memref<256x1024xf32>
        %8 = memref.load %arg6[%arg10, %5] : memref<1024x256xf32>
        %9 = arith.mulf %7, %8 : f32
        %10 = arith.addf %arg11, %9 : f32
        scf.yield %10 : f32
      }
      memref.store %6, %arg9[%4, %5] : memref<256x256xf32>
      gpu.return
    }
  }
  gpu.module @test_parallel_kernel_0 {
    gpu.func @test_parallel_kernel(%arg0: index, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: memref<256x1024xf32>, %arg6: memref<1024x256xf32>, %arg7: index, %arg8: f32, %arg9: memref<256x256xf32>) kernel {
      %block_id_x = gpu.block_id x
      %block_id_y = gpu.block_id y
      %thread_id_x = gpu.thread_id x
      %thread_id_y = gpu.thread_id y
      %0 = affine.apply #map()[%arg0, %arg1, %block_id_x]
      %1 = affine.apply #map()[%arg2, %arg1, %block_id_y]
      %2 = affine.apply #map()[%arg3, %arg4, %thread_id_x]
      %3 = affine.apply #map()[%arg3, %arg4, %thread_id_y]
      %4 = arith.addi %2, %0 : index
      %5 = arith.addi %3, %1 : index
      %6 = scf.for %arg10 = %arg1 to %arg7 step %arg3 iter_args(%arg11 = %arg8) -> (f32) {
        %7 = memref.load %arg5[%4, %arg10] : memref<256x1024xf32>
        %8 = memref.load %arg6[%arg10, %5] : memref<1024x256xf32>
        %9 = arith.mulf %7, %8 : f32
        %10 = arith.addf %arg11, %9 : f32
        scf.yield %10 : f32
      }
      memref.store %6, %arg9[%4, %5] : memref<256x256xf32>
      gpu.return
    }
  }
  gpu.module @test_parallel_kernel_1 {
    gpu.func @test_parallel_kernel(%arg0: index, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: memref<256x256xf32>, %arg6: memref<256x256xf32>, %arg7: memref<256x256xf32>) kernel {
      %block_id_x = gpu.block_id x
      %block_id_y = gpu.block_id y
      %thread_id_x = gpu.thread_id x
      %thread_id_y = gpu.thread_id y
      %0 = affine.apply #map()[%arg0, %arg1, %block_id_x]
      %1 = affine.apply #map()[%arg2, %arg1, %block_id_y]
      %2 = affine.apply #map()[%arg3, %arg4, %thread_id_x]
      %3 = affine.apply #map()[%arg3, %arg4, %thread_id_y]
      %4 = arith.addi %2, %0 : index
      %5 = arith.addi %3, %1 : index
      %6 = memref.load %arg5[%4, %5] : memref<256x256xf32>
      %7 = memref.load %arg6[%4, %5] : memref<256x256xf32>
      %8 = arith.addf %6, %7 : f32
      memref.store %8, %arg7[%4, %5] : memref<256x256xf32>
      gpu.return
    }
  }
}

// -----

// A kernel written as func.func (separate compilation) is launched too: it needs the
// gpu.kernel attribute, and its argument types are not checked.

// CHECK-LABEL: gpu.module @funcs {
// CHECK-NEXT:    func.func @kernel(%arg0: i64) attributes {gpu.kernel} {
// CHECK:       gpu.launch_func @funcs::@kernel blocks in (%c, %c, %c) threads in (%c, %c, %c) args(%f : f32)
module attributes {gpu.container_module} {
  gpu.module @funcs {
    func.func @kernel(%arg0: i64) attributes {gpu.kernel} {
      return
    }
  }
  func.func @host(%c: index, %f: f32) {
    gpu.launch_func @funcs::@kernel blocks in (%c, %c, %c) threads in (%c, %c, %c) args(%f : f32)
    return
  }
}
