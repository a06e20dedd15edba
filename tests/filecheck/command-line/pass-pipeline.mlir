// mlir-opt's --pass-pipeline as upstream's RUN lines write it, with xdsl-opt in
// place of mlir-opt: one dash or two, "=" or a separate argument, op anchors nested
// two deep, options with quoted values.
// RUN: xdsl-opt %s --pass-pipeline="builtin.module(gpu.module(convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=true}))" | filecheck %s --check-prefix=BARE
// RUN: xdsl-opt %s -pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm))' | filecheck %s --check-prefix=DESC
// RUN: xdsl-opt -pass-pipeline 'builtin.module(gpu.module(convert-gpu-to-nvvm))' %s | filecheck %s --check-prefix=DESC
// RUN: xdsl-opt -allow-unregistered-dialect -pass-pipeline='builtin.module(gpu.module(gpu.func(canonicalize)))' %s | filecheck %s --check-prefix=CANON
// RUN: xdsl-opt -allow-unregistered-dialect %s -pass-pipeline="builtin.module(func.func(canonicalize))" | filecheck %s --check-prefix=CANON
// RUN: xdsl-opt %s --pass-pipeline="builtin.module(gpu.module(convert-gpu-to-nvvm{index-bitwidth=32 use-bare-ptr-memref-call-conv=1}))" | filecheck %s --check-prefix=BARE

// DESC:  llvm.func @kernel(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64
// BARE:  llvm.func @kernel(%{{.*}}: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel}
// CANON: gpu.func @kernel
// CANON-NOT: arith.addi
// CANON: memref.store %{{.*}}, %{{.*}}[%{{.*}}]
gpu.module @m {
  gpu.func @kernel(%a: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %i = gpu.thread_id x
    %s = arith.addi %i, %c0 : index
    %f = arith.constant 1.0 : f32
    memref.store %f, %a[%s] : memref<4xf32>
    gpu.return
  }
}
