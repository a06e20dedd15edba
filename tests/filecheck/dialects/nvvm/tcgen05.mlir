// RUN: xdsl-opt %s | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s | filecheck %s %}
// The tcgen05 ops print as MLIR 22 prints them (both tools are checked by the same
// lines): `group` only when it is not cta_1, fence and wait kinds as `<...>`.

// CHECK-LABEL: llvm.func @memory
llvm.func @memory(%generic: !llvm.ptr, %shared: !llvm.ptr<3>, %tmem: !llvm.ptr<6>,
                  %ncols: i32, %mask: i16) {
  // CHECK-NEXT: nvvm.tcgen05.alloc %{{.*}}, %{{.*}} : !llvm.ptr, i32
  nvvm.tcgen05.alloc %generic, %ncols : !llvm.ptr, i32
  // CHECK-NEXT: nvvm.tcgen05.alloc %{{.*}}, %{{.*}} {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i32
  nvvm.tcgen05.alloc %shared, %ncols {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i32
  // CHECK-NEXT: nvvm.tcgen05.alloc %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32
  nvvm.tcgen05.alloc %shared, %ncols {group = #nvvm.cta_group<cta_1>} : !llvm.ptr<3>, i32
  // CHECK-NEXT: nvvm.tcgen05.dealloc %{{.*}}, %{{.*}} : !llvm.ptr<6>, i32
  nvvm.tcgen05.dealloc %tmem, %ncols : !llvm.ptr<6>, i32
  // CHECK-NEXT: nvvm.tcgen05.relinquish_alloc_permit{{$}}
  nvvm.tcgen05.relinquish_alloc_permit
  // CHECK-NEXT: nvvm.tcgen05.relinquish_alloc_permit {group = #nvvm.cta_group<cta_2>}
  nvvm.tcgen05.relinquish_alloc_permit {group = #nvvm.cta_group<cta_2>}
  // CHECK-NEXT: nvvm.tcgen05.fence <before>
  nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
  // CHECK-NEXT: nvvm.tcgen05.fence <after>
  nvvm.tcgen05.fence <after>
  // CHECK-NEXT: nvvm.tcgen05.wait <load>
  nvvm.tcgen05.wait #nvvm.tcgen05_wait<load>
  // CHECK-NEXT: nvvm.tcgen05.wait <store>
  nvvm.tcgen05.wait <store>
  // CHECK-NEXT: nvvm.tcgen05.commit %{{.*}} : !llvm.ptr
  nvvm.tcgen05.commit %generic : !llvm.ptr
  // CHECK-NEXT: nvvm.tcgen05.commit %{{.*}}, multicast_mask = %{{.*}} {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i16
  nvvm.tcgen05.commit %shared, multicast_mask = %mask {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i16
  // CHECK-NEXT: nvvm.tcgen05.shift %{{.*}} : !llvm.ptr<6>
  nvvm.tcgen05.shift %tmem : !llvm.ptr<6>
  // CHECK-NEXT: nvvm.tcgen05.shift %{{.*}} {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<6>
  nvvm.tcgen05.shift %tmem {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<6>
  llvm.return
}

// CHECK-LABEL: llvm.func @copies
llvm.func @copies(%tmem: !llvm.ptr<6>, %desc: i64, %v4: vector<4xi32>, %v: i32,
                  %a: i32, %b: i32, %c: i32, %base: i8, %mode: i1, %swizzle: i8) {
  // CHECK-NEXT: nvvm.tcgen05.cp %{{.*}}, %{{.*}} {shape = #nvvm.tcgen05_cp_shape<shape_128x256b>}
  nvvm.tcgen05.cp %tmem, %desc {shape = #nvvm.tcgen05_cp_shape<shape_128x256b>}
  // CHECK-NEXT: nvvm.tcgen05.cp %{{.*}}, %{{.*}} {group = #nvvm.cta_group<cta_2>, multicast = #nvvm.tcgen05_cp_multicast<warpx4>, shape = #nvvm.tcgen05_cp_shape<shape_32x128b>, srcFormat = #nvvm.tcgen05_cp_src_fmt<b4x16_p64>}
  nvvm.tcgen05.cp %tmem, %desc {shape = #nvvm.tcgen05_cp_shape<shape_32x128b>, srcFormat = #nvvm.tcgen05_cp_src_fmt<b4x16_p64>, group = #nvvm.cta_group<cta_2>, multicast = #nvvm.tcgen05_cp_multicast<warpx4>}
  // CHECK-NEXT: %{{.*}} = nvvm.tcgen05.ld %{{.*}} pack {shape = #nvvm.tcgen05_ldst_shape<shape_16x128b>} : vector<4xi32>
  %0 = nvvm.tcgen05.ld %tmem pack {shape = #nvvm.tcgen05_ldst_shape<shape_16x128b>} : vector<4xi32>
  // CHECK-NEXT: %[[OFF:.*]] = llvm.mlir.constant(2{{( : i64)?}}) : i64
  %off = llvm.mlir.constant(2 : i64) : i64
  // CHECK-NEXT: %{{.*}} = nvvm.tcgen05.ld %{{.*}}, %[[OFF]] {shape = #nvvm.tcgen05_ldst_shape<shape_16x32bx2>} : i32
  %1 = nvvm.tcgen05.ld %tmem, %off {shape = #nvvm.tcgen05_ldst_shape<shape_16x32bx2>} : i32
  // CHECK-NEXT: nvvm.tcgen05.st %{{.*}}, %{{.*}} unpack {shape = #nvvm.tcgen05_ldst_shape<shape_16x256b>} : vector<4xi32>
  nvvm.tcgen05.st %tmem, %v4 unpack {shape = #nvvm.tcgen05_ldst_shape<shape_16x256b>} : vector<4xi32>
  // CHECK-NEXT: nvvm.tcgen05.st %{{.*}}, %{{.*}}, %[[OFF]] {shape = #nvvm.tcgen05_ldst_shape<shape_16x32bx2>} : i32
  nvvm.tcgen05.st %tmem, %v, %off {shape = #nvvm.tcgen05_ldst_shape<shape_16x32bx2>} : i32
  // CHECK-NEXT: %{{.*}} = nvvm.tcgen05.mma_smem_desc(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i32, i32, i32, i8, i1, i8) -> i64
  %2 = nvvm.tcgen05.mma_smem_desc (%a, %b, %c, %base, %mode, %swizzle) : (i32, i32, i32, i8, i1, i8) -> i64
  llvm.return
}
