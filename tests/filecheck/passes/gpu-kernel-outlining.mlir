// RUN: xdsl-opt %s -p gpu-kernel-outlining --split-input-file | filecheck %s
// RUN: xdsl-opt %s -p 'gpu-kernel-outlining{data-layout-str="#dlti.dl_spec<index = 32 : i64>"}' --split-input-file | filecheck %s --check-prefix=DL
// RUN: xdsl-opt %s -p 'gpu-kernel-outlining{data-layout-str="#dlti.dl_spec<#dlti.dl_entry<index, 32 : i64>>"}' --split-input-file | filecheck %s --check-prefix=DL

// The seed 001 example (with MLIR 22's `gpu.printf` syntax): ids and sizes become
// index ops, constant sizes become known_*_size, the module a container module.

func.func @main() {
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  gpu.launch
    blocks(%0, %1, %2) in (%3 = %c1, %4 = %c1, %5 = %c1)
    threads(%6, %7, %8) in (%9 = %c2, %10 = %c1, %11 = %c1) {
    gpu.printf "Hello from %d\n", %6 : index
    gpu.terminator
  }
  return
}

// CHECK:       builtin.module attributes {gpu.container_module} {
// CHECK-LABEL:   func.func @main() {
// CHECK-NEXT:      %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      gpu.launch_func @main_kernel::@main_kernel blocks in (%[[C1]], %[[C1]], %[[C1]]) threads in (%[[C2]], %[[C1]], %[[C1]]){{$}}
// CHECK-NEXT:      func.return
// CHECK:         gpu.module @main_kernel {
// CHECK-NEXT:      gpu.func @main_kernel() kernel attributes {known_block_size = array<i32: 2, 1, 1>, known_grid_size = array<i32: 1, 1, 1>} {
// CHECK-NEXT:        %{{.*}} = gpu.block_id x
// CHECK-NEXT:        %{{.*}} = gpu.block_id y
// CHECK-NEXT:        %{{.*}} = gpu.block_id z
// CHECK-NEXT:        %[[TX:.*]] = gpu.thread_id x
// CHECK-NEXT:        %{{.*}} = gpu.thread_id y
// CHECK-NEXT:        %{{.*}} = gpu.thread_id z
// CHECK-NEXT:        %{{.*}} = gpu.grid_dim x
// CHECK-NEXT:        %{{.*}} = gpu.grid_dim y
// CHECK-NEXT:        %{{.*}} = gpu.grid_dim z
// CHECK-NEXT:        %{{.*}} = gpu.block_dim x
// CHECK-NEXT:        %{{.*}} = gpu.block_dim y
// CHECK-NEXT:        %{{.*}} = gpu.block_dim z
// CHECK-NEXT:        gpu.printf "Hello from %d\0A", %[[TX]] : index
// CHECK-NEXT:        gpu.return

// DL: gpu.module @main_kernel attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i64>} {

// -----

// Captured values become kernel arguments in upstream's order; like mlir-opt 22 the
// constants are not copied in (run gpu-launch-sink-index-computations for that).
// Name clashes get _0, _1, ... from one counter for the whole module.

func.func @launch(%m: memref<?xf32>, %f: f32, %n: index) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %d = memref.dim %m, %c0 : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %i = arith.addi %d, %tx : index
    memref.store %f, %m[%i] : memref<?xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}
func.func @other() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}

// CHECK-LABEL: func.func @launch(
// CHECK-SAME:      %[[M:.*]]: memref<?xf32>, %[[F:.*]]: f32, %[[N:.*]]: index) {
// CHECK:         %[[D:.*]] = memref.dim %[[M]]
// CHECK-NEXT:    gpu.launch_func @launch_kernel::@launch_kernel blocks in (%[[N]], %{{.*}}, %{{.*}}) threads in ({{.*}}) args(%[[D]] : index, %[[F]] : f32, %[[M]] : memref<?xf32>)
// CHECK-NEXT:    gpu.launch_func @launch_kernel_0::@launch_kernel
// CHECK-NEXT:    gpu.launch_func @launch_kernel_1::@launch_kernel
// CHECK:       gpu.module @launch_kernel {
// CHECK-NEXT:    gpu.func @launch_kernel(%[[A0:.*]]: index, %[[A1:.*]]: f32, %[[A2:.*]]: memref<?xf32>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
// CHECK:           %[[TX:.*]] = gpu.thread_id x
// CHECK:           %[[I:.*]] = arith.addi %[[A0]], %[[TX]] : index
// CHECK-NEXT:      memref.store %[[A1]], %[[A2]][%[[I]]] : memref<?xf32>
// CHECK-NEXT:      gpu.return
// CHECK:       gpu.module @launch_kernel_0 {
// CHECK-NEXT:    gpu.func @launch_kernel() kernel attributes {known_block_size = array<i32: 1, 1, 1>, known_grid_size = array<i32: 1, 1, 1>} {
// CHECK:       gpu.module @launch_kernel_1 {
// CHECK-LABEL: func.func @other() {
// CHECK:         gpu.launch_func @other_kernel::@other_kernel
// CHECK-NEXT:    gpu.launch_func @other_kernel_2::@other_kernel
// CHECK:       gpu.module @other_kernel {
// CHECK:       gpu.module @other_kernel_2 {

// -----

// Async dependencies, the token and the dynamic shared memory size move to the
// launch_func.

func.func @async_launch(%t0: !gpu.async.token, %smem: i32) {
  %c1 = arith.constant 1 : index
  %t = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) dynamic_shared_memory_size %smem {
    gpu.terminator
  }
  gpu.wait [%t]
  return
}

// CHECK-LABEL: func.func @async_launch(
// CHECK-SAME:      %[[T0:.*]]: !gpu.async.token, %[[SMEM:.*]]: i32) {
// CHECK:         %[[T:.*]] = gpu.launch_func async [%[[T0]]] @async_launch_kernel::@async_launch_kernel blocks in ({{.*}}) threads in ({{.*}}) dynamic_shared_memory_size %[[SMEM]]{{$}}
// CHECK-NEXT:    gpu.wait [%[[T]]]

// -----

// module(@m) puts the kernel into an existing gpu.module (renamed on a clash),
// function(@f) names it; what the kernel calls is copied into its module.

gpu.module @existing {
  gpu.func @k() kernel {
    gpu.return
  }
}
func.func @helper(%x: index) -> index {
  return %x : index
}
func.func @overrides() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) module(@existing) function(@k) {
    %h = func.call @helper(%tx) : (index) -> index
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) module(@mine) function(@fn) {
    gpu.terminator
  }
  return
}

// CHECK:       gpu.module @existing {
// CHECK-NEXT:    gpu.func @k() kernel {
// CHECK-NEXT:      gpu.return
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.func @k_0() kernel attributes
// CHECK:           func.call @helper(%{{.*}}) : (index) -> index
// CHECK:         func.func @helper(%{{.*}}: index) -> index {
// CHECK:       func.func @helper(
// CHECK-LABEL: func.func @overrides() {
// CHECK:         gpu.launch_func @existing::@k_0
// CHECK-NEXT:    gpu.launch_func @mine::@fn
// CHECK:       gpu.module @mine {
// CHECK-NEXT:    gpu.func @fn() kernel

// -----

// Clusters add cluster ids and sizes; attributions and further blocks are kept.

func.func @cluster_attributions() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  gpu.launch clusters(%cx, %cy, %cz) in (%ncx = %c2, %ncy = %c1, %ncz = %c1) blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1)
      workgroup(%w : memref<32xf32, #gpu.address_space<workgroup>>)
      private(%p : memref<1xf32, #gpu.address_space<private>>) {
    %i = arith.addi %cx, %ncx : index
    %v = memref.load %w[%i] : memref<32xf32, #gpu.address_space<workgroup>>
    memref.store %v, %p[%ty] : memref<1xf32, #gpu.address_space<private>>
    cf.br ^bb1
  ^bb1:
    gpu.terminator
  }
  return
}

// CHECK-LABEL: func.func @cluster_attributions() {
// CHECK:         gpu.launch_func @cluster_attributions_kernel::@cluster_attributions_kernel clusters in ({{.*}}) blocks in ({{.*}}) threads in ({{.*}}){{$}}
// CHECK:       gpu.func @cluster_attributions_kernel() workgroup(%[[W:.*]] : memref<32xf32, #gpu.address_space<workgroup>>) private(%[[P:.*]] : memref<1xf32, #gpu.address_space<private>>) kernel attributes {known_block_size = array<i32: 2, 1, 1>, known_grid_size = array<i32: 2, 1, 1>} {
// CHECK:         %[[TY:.*]] = gpu.thread_id y
// CHECK:         %{{.*}} = gpu.block_dim z
// CHECK-NEXT:    %[[CX:.*]] = gpu.cluster_id x
// CHECK-NEXT:    %{{.*}} = gpu.cluster_id y
// CHECK-NEXT:    %{{.*}} = gpu.cluster_id z
// CHECK-NEXT:    %[[NCX:.*]] = gpu.cluster_dim x
// CHECK-NEXT:    %{{.*}} = gpu.cluster_dim y
// CHECK-NEXT:    %{{.*}} = gpu.cluster_dim z
// CHECK-NEXT:    %[[I:.*]] = arith.addi %[[CX]], %[[NCX]] : index
// CHECK-NEXT:    %[[V:.*]] = memref.load %[[W]][%[[I]]]
// CHECK-NEXT:    memref.store %[[V]], %[[P]][%[[TY]]]
// CHECK-NEXT:    cf.br ^[[BB:.*]]
// CHECK-NEXT:  ^[[BB]]:
// CHECK-NEXT:    gpu.return

// -----

// Without launches nothing changes, not even the module's attributes.

func.func @no_launch() {
  return
}

// CHECK:       builtin.module {
// CHECK-NEXT:    func.func @no_launch() {
