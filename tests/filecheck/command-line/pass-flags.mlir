// mlir-opt's pass flags, as upstream's RUN lines write them, with xdsl-opt in place
// of mlir-opt: one dash or two, options quoted, booleans as 1/0, the input file
// before or after the flags, and several flags in a row.
// RUN: xdsl-opt %s -convert-gpu-to-nvvm | filecheck %s --check-prefix=DESC
// RUN: xdsl-opt -convert-gpu-to-nvvm %s | filecheck %s --check-prefix=DESC
// RUN: xdsl-opt --convert-gpu-to-nvvm %s | filecheck %s --check-prefix=DESC
// RUN: xdsl-opt %s -convert-gpu-to-nvvm='use-bare-ptr-memref-call-conv=1' \
// RUN: | filecheck %s --check-prefix=BARE
// RUN: xdsl-opt %s -convert-gpu-to-nvvm="use-bare-ptr-memref-call-conv=0" | filecheck %s --check-prefix=DESC
// RUN: xdsl-opt %s -convert-gpu-to-nvvm='has-redux=1' -mlir-print-debuginfo | filecheck %s --check-prefix=LOC
// RUN: xdsl-opt %s -convert-gpu-to-nvvm -mlir-print-debuginfo -mlir-print-local-scope | filecheck %s --check-prefix=LOCAL
// RUN: xdsl-opt %s -convert-gpu-to-nvvm="allow-pattern-rollback=0" | filecheck %s --check-prefix=DESC
// RUN: xdsl-opt --convert-gpu-to-nvvm="index-bitwidth=32 use-bare-ptr-memref-call-conv=TRUE" %s | filecheck %s --check-prefix=BARE
// RUN: xdsl-opt %s -convert-gpu-to-nvvm='use-bare-ptr-memref-call-conv' | filecheck %s --check-prefix=BARE
// RUN: xdsl-opt --gpu-kernel-outlining --convert-gpu-to-nvvm %s | filecheck %s --check-prefix=DESC

// DESC: llvm.func @kernel(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i{{32|64}}
// BARE: llvm.func @kernel(%{{.*}}: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel}
// LOC:   } loc([[F:#loc[0-9]*]])
// LOC:   [[F]] = loc("{{.*}}pass-flags.mlir":[[# @LINE + 3]]:3)
// LOCAL: } loc("{{.*}}pass-flags.mlir":[[# @LINE + 2]]:3)
gpu.module @m {
  gpu.func @kernel(%a: memref<4xf32>) kernel {
    gpu.return
  }
}
