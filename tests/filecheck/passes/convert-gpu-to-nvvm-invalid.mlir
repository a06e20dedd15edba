// RUN: xdsl-opt %s -p convert-gpu-to-nvvm --split-input-file --verify-diagnostics | filecheck %s
// RUN: xdsl-opt %s -p 'convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=true}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=BARE
// RUN: not xdsl-opt %s --split-input-file -p 'convert-gpu-to-nvvm{allowed-dialects=scf}' 2>&1 | filecheck %s --check-prefix=DIALECTS
// RUN: not xdsl-opt %s --split-input-file -p convert-gpu-to-nvvm 2>&1 | filecheck %s --check-prefix=EXIT

// DIALECTS: xdsl-opt: error: convert-gpu-to-nvvm: dialect does not implement ConvertToLLVMPatternInterface: scf (allowed-dialects takes arith, cf, func, index, memref)
// EXIT-NOT:  Traceback
// EXIT:      {{.*}}.mlir:{{[0-9]+:[0-9]+}}: error: convert-gpu-to-nvvm: failed to legalize operation 'gpu.all_reduce' in @k: only a `uniform` all_reduce
// EXIT-NOT:  Traceback

// A non-uniform all_reduce cannot be lowered (upstream fails too).
gpu.module @m {
  gpu.func @k(%v: f32, %out: memref<1xf32>) kernel {
    %r = gpu.all_reduce add %v {} : (f32) -> f32
    %c0 = arith.constant 0 : index
    memref.store %r, %out[%c0] : memref<1xf32>
    gpu.return
  }
}
// CHECK: convert-gpu-to-nvvm: failed to legalize operation 'gpu.all_reduce' in @k: only a `uniform` all_reduce can be lowered (its barriers need every thread of the block): add `uniform` if every thread reaches it

// -----

// The buffer of an all_reduce is a workgroup attribution: only a gpu.func has them.
gpu.module @m {
  func.func @f(%v: f32, %out: memref<1xf32>) {
    %r = gpu.all_reduce add %v uniform {} : (f32) -> f32
    %c0 = arith.constant 0 : index
    memref.store %r, %out[%c0] : memref<1xf32>
    return
  }
}
// CHECK: convert-gpu-to-nvvm: failed to legalize operation 'gpu.all_reduce' in @f: must be directly in the body of a gpu.func (it is in 'func.func'): the reduction needs a workgroup buffer and branches; run convert-scf-to-cf first if it is nested in scf ops

// -----

// Nested in scf ops: the expansion needs blocks.
gpu.module @m {
  gpu.func @k(%v: f32, %c: i1, %out: memref<1xf32>) kernel {
    scf.if %c {
      %r = gpu.all_reduce add %v uniform {} : (f32) -> f32
      %c0 = arith.constant 0 : index
      memref.store %r, %out[%c0] : memref<1xf32>
    }
    gpu.return
  }
}
// CHECK: convert-gpu-to-nvvm: failed to legalize operation 'gpu.all_reduce' in @k: must be directly in the body of a gpu.func (it is in 'scf.if')

// -----

// A reduction region of several blocks.
gpu.module @m {
  gpu.func @k(%v: f32, %out: memref<1xf32>) kernel {
    %r = gpu.all_reduce %v uniform {
    ^bb0(%a: f32, %b: f32):
      cf.br ^bb1
    ^bb1:
      gpu.yield %a : f32
    } : (f32) -> f32
    %c0 = arith.constant 0 : index
    memref.store %r, %out[%c0] : memref<1xf32>
    gpu.return
  }
}
// CHECK: convert-gpu-to-nvvm: failed to legalize operation 'gpu.all_reduce' in @k: a reduction region of several blocks cannot be inlined; write it as one block (arith.select in place of branches)

// -----

// scf must be lowered first (upstream leaves it, to fail later).
gpu.module @m {
  gpu.func @k(%v: f32, %out: memref<?xf32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      memref.store %v, %out[%i] : memref<?xf32>
    }
    gpu.return
  }
}
// CHECK: convert-gpu-to-nvvm: failed to legalize operation 'scf.for' in @k: run convert-scf-to-cf before convert-gpu-to-nvvm

// -----

// shfl.sync moves 32-bit pieces, at most two per scalar.
gpu.module @m {
  gpu.func @k(%v: i128, %o: i32, %w: i32, %out: memref<1xi128>) kernel {
    %r, %p = gpu.shuffle xor %v, %o, %w : i128
    %c0 = arith.constant 0 : index
    memref.store %r, %out[%c0] : memref<1xi128>
    gpu.return
  }
}
// CHECK: convert-gpu-to-nvvm: failed to legalize operation 'gpu.shuffle' in @k: a value of type i128 cannot be moved between lanes (shfl.sync moves 32-bit pieces of integers, floats and 1-D vectors of them, at most 64 bits per element)

// -----

// A rotation wider than the warp.
gpu.module @m {
  gpu.func @k(%v: i32, %out: memref<1xi32>) kernel {
    %r, %p = gpu.rotate %v, 1, 64 : i32
    %c0 = arith.constant 0 : index
    memref.store %r, %out[%c0] : memref<1xi32>
    gpu.return
  }
}
// CHECK: convert-gpu-to-nvvm: failed to legalize operation 'gpu.rotate' in @k: width 64 is larger than the warp (32 lanes)

// -----

// Clusters that do not fit in a warp.
gpu.module @m {
  gpu.func @k(%v: i32, %out: memref<1xi32>) kernel {
    %r = gpu.subgroup_reduce add %v cluster(size = 16, stride = 4) : (i32) -> i32
    %c0 = arith.constant 0 : index
    memref.store %r, %out[%c0] : memref<1xi32>
    gpu.return
  }
}
// CHECK: convert-gpu-to-nvvm: failed to legalize operation 'gpu.subgroup_reduce' in @k: clusters of 16 lanes 4 apart do not fit in a warp of 32 lanes

// -----

// A WMMA product no instruction computes (f16 inputs, i32 accumulator); the other
// WMMA cases are in convert-gpu-to-nvvm-wmma.mlir.
gpu.module @m {
  gpu.func @k(%h: memref<16x16xf16>, %i: memref<16x16xi32>) kernel {
    %c0 = arith.constant 0 : index
    %a = gpu.subgroup_mma_load_matrix %h[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
    %b = gpu.subgroup_mma_load_matrix %h[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
    %c = gpu.subgroup_mma_load_matrix %i[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi32> -> !gpu.mma_matrix<16x16xi32, "COp">
    %d = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xi32, "COp">
    gpu.subgroup_mma_store_matrix %d, %i[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xi32, "COp">, memref<16x16xi32>
    gpu.return
  }
}
// CHECK: convert-gpu-to-nvvm: failed to legalize operation 'gpu.subgroup_mma_compute' in @k: no WMMA instruction computes m16n16k16 with f16 inputs and a s32 accumulator

// -----

// A dynamic memref cannot be a bare pointer.
gpu.module @m {
  gpu.func @k(%m: memref<?xf32>) kernel {
    gpu.return
  }
}
// BARE: convert-gpu-to-nvvm: failed to legalize operation 'gpu.func' in @k: cannot pass 'memref<?xf32>' as a bare pointer: the bare-pointer calling convention needs a static shape, strides and offset (drop use-bare-ptr-memref-call-conv, or cast to a static memref)
