// Argument attributes of a gpu.func through convert-gpu-to-nvvm, as mlir-opt-22
// carries them: returned/noundef/inreg on every expanded argument, the pointer
// attributes on a descriptor's two pointers only, other attributes dropped;
// noalias only on a bare pointer.
// RUN: xdsl-opt %s -p convert-gpu-to-nvvm | filecheck %s
// RUN: xdsl-opt %s -p 'convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=true}' | filecheck %s --check-prefix=BARE

gpu.module @kernels {
  gpu.func @attrs(%a: memref<4xf32> {llvm.readonly, llvm.noundef, llvm.dereferenceable = 16 : i64},
                  %b: memref<8xf32> {llvm.nonnull, llvm.align = 16 : i64, llvm.noalias, foo.bar},
                  %c: i32 {llvm.noundef, foo.baz},
                  %d: memref<2xf32> {llvm.writeonly, llvm.inreg, llvm.dereferenceable_or_null = 8 : i64}) kernel {
    gpu.return
  }
}

// CHECK:      llvm.func @attrs(
// CHECK-SAME: !llvm.ptr {llvm.dereferenceable = 16 : i64, llvm.noundef, llvm.readonly},
// CHECK-SAME: !llvm.ptr {llvm.dereferenceable = 16 : i64, llvm.noundef, llvm.readonly},
// CHECK-SAME: i64 {llvm.noundef}, %{{.*}}: i64 {llvm.noundef}, %{{.*}}: i64 {llvm.noundef},
// CHECK-SAME: !llvm.ptr {llvm.align = 16 : i64, llvm.nonnull},
// CHECK-SAME: !llvm.ptr {llvm.align = 16 : i64, llvm.nonnull},
// CHECK-SAME: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i32 {llvm.noundef},
// CHECK-SAME: !llvm.ptr {llvm.dereferenceable_or_null = 8 : i64, llvm.inreg, llvm.writeonly},
// CHECK-SAME: !llvm.ptr {llvm.dereferenceable_or_null = 8 : i64, llvm.inreg, llvm.writeonly},
// CHECK-SAME: i64 {llvm.inreg}, %{{.*}}: i64 {llvm.inreg}, %{{.*}}: i64 {llvm.inreg})
// CHECK-NOT:  foo.

// BARE:      llvm.func @attrs(
// BARE-SAME: !llvm.ptr {llvm.dereferenceable = 16 : i64, llvm.noundef, llvm.readonly},
// BARE-SAME: !llvm.ptr {llvm.align = 16 : i64, llvm.noalias, llvm.nonnull},
// BARE-SAME: i32 {llvm.noundef},
// BARE-SAME: !llvm.ptr {llvm.dereferenceable_or_null = 8 : i64, llvm.inreg, llvm.writeonly})
// BARE-NOT:  foo.
