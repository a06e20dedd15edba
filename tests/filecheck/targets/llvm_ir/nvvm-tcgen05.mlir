// RUN: python3 -m xdsl_gpu.targets.llvm_ir %s --triple nvptx64-nvidia-cuda | filecheck %s
// RUN: %if mlir-opt %{ mlir-translate --mlir-to-llvmir %s | filecheck %s %}
// The tcgen05 ops become the intrinsic calls that mlir-translate 22 writes (both
// tools are checked by the same lines): the CTA group, shared memory and multicast
// choose the intrinsic; ld/st name the shape and the repeat count `.x<N>`.

// CHECK-LABEL: define void @memory(
// CHECK: call void @llvm.nvvm.tcgen05.alloc.cg1(ptr %{{.*}}, i32 %{{.*}})
// CHECK: call void @llvm.nvvm.tcgen05.alloc.shared.cg2(ptr addrspace(3) %{{.*}}, i32 %{{.*}})
// CHECK: call void @llvm.nvvm.tcgen05.dealloc.cg1(ptr addrspace(6) %{{.*}}, i32 %{{.*}})
// CHECK: call void @llvm.nvvm.tcgen05.relinq.alloc.permit.cg2()
// CHECK: call void @llvm.nvvm.tcgen05.fence.before.thread.sync()
// CHECK: call void @llvm.nvvm.tcgen05.fence.after.thread.sync()
// CHECK: call void @llvm.nvvm.tcgen05.wait.ld()
// CHECK: call void @llvm.nvvm.tcgen05.wait.st()
// CHECK: call void @llvm.nvvm.tcgen05.commit.cg1(ptr %{{.*}})
// CHECK: call void @llvm.nvvm.tcgen05.commit.shared.cg2(ptr addrspace(3) %{{.*}})
// CHECK: call void @llvm.nvvm.tcgen05.commit.mc.shared.cg1(ptr addrspace(3) %{{.*}}, i16 %{{.*}})
// CHECK: call void @llvm.nvvm.tcgen05.shift.down.cg2(ptr addrspace(6) %{{.*}})
llvm.func @memory(%generic: !llvm.ptr, %shared: !llvm.ptr<3>, %tmem: !llvm.ptr<6>,
                  %ncols: i32, %mask: i16) {
  nvvm.tcgen05.alloc %generic, %ncols : !llvm.ptr, i32
  nvvm.tcgen05.alloc %shared, %ncols {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i32
  nvvm.tcgen05.dealloc %tmem, %ncols : !llvm.ptr<6>, i32
  nvvm.tcgen05.relinquish_alloc_permit {group = #nvvm.cta_group<cta_2>}
  nvvm.tcgen05.fence <before>
  nvvm.tcgen05.fence <after>
  nvvm.tcgen05.wait <load>
  nvvm.tcgen05.wait <store>
  nvvm.tcgen05.commit %generic : !llvm.ptr
  nvvm.tcgen05.commit %shared {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>
  nvvm.tcgen05.commit %shared, multicast_mask = %mask : !llvm.ptr<3>, i16
  nvvm.tcgen05.shift %tmem {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<6>
  llvm.return
}

// CHECK-LABEL: define void @copies(
// CHECK: call void @llvm.nvvm.tcgen05.cp.128x256b.cg1(ptr addrspace(6) %{{.*}}, i64 %{{.*}})
// CHECK: call void @llvm.nvvm.tcgen05.cp.64x128b_warpx2_02_13.b6x16_p32.cg2(ptr addrspace(6) %{{.*}}, i64 %{{.*}})
// CHECK: call void @llvm.nvvm.tcgen05.cp.32x128b_warpx4.b4x16_p64.cg1(ptr addrspace(6) %{{.*}}, i64 %{{.*}})
// CHECK: call <4 x i32> @llvm.nvvm.tcgen05.ld.16x128b.x2(ptr addrspace(6) %{{.*}}, i1 true)
// CHECK: call <8 x i32> @llvm.nvvm.tcgen05.ld.16x256b.x2(ptr addrspace(6) %{{.*}}, i1 false)
// CHECK: call i32 @llvm.nvvm.tcgen05.ld.16x32bx2.x1(ptr addrspace(6) %{{.*}}, i64 2, i1 false)
// CHECK: call void @llvm.nvvm.tcgen05.st.32x32b.x4(ptr addrspace(6) %{{.*}}, <4 x i32> %{{.*}}, i1 true)
// CHECK: call void @llvm.nvvm.tcgen05.st.16x32bx2.x1(ptr addrspace(6) %{{.*}}, i64 2, i32 %{{.*}}, i1 false)
llvm.func @copies(%tmem: !llvm.ptr<6>, %desc: i64, %v4: vector<4xi32>, %v: i32) {
  nvvm.tcgen05.cp %tmem, %desc {shape = #nvvm.tcgen05_cp_shape<shape_128x256b>}
  nvvm.tcgen05.cp %tmem, %desc {group = #nvvm.cta_group<cta_2>, multicast = #nvvm.tcgen05_cp_multicast<warpx2_02_13>, shape = #nvvm.tcgen05_cp_shape<shape_64x128b>, srcFormat = #nvvm.tcgen05_cp_src_fmt<b6x16_p32>}
  nvvm.tcgen05.cp %tmem, %desc {multicast = #nvvm.tcgen05_cp_multicast<warpx4>, shape = #nvvm.tcgen05_cp_shape<shape_32x128b>, srcFormat = #nvvm.tcgen05_cp_src_fmt<b4x16_p64>}
  %0 = nvvm.tcgen05.ld %tmem pack {shape = #nvvm.tcgen05_ldst_shape<shape_16x128b>} : vector<4xi32>
  %1 = nvvm.tcgen05.ld %tmem {shape = #nvvm.tcgen05_ldst_shape<shape_16x256b>} : vector<8xi32>
  %off = llvm.mlir.constant(2 : i64) : i64
  %2 = nvvm.tcgen05.ld %tmem, %off {shape = #nvvm.tcgen05_ldst_shape<shape_16x32bx2>} : i32
  nvvm.tcgen05.st %tmem, %v4 unpack {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<4xi32>
  nvvm.tcgen05.st %tmem, %v, %off {shape = #nvvm.tcgen05_ldst_shape<shape_16x32bx2>} : i32
  llvm.return
}

// The descriptor's fields are masked, widened, shifted into place and or-ed, with
// the constant 0b001 at bits 46-48.
// CHECK-LABEL: define i64 @smem_desc(
// CHECK-SAME: i32 %[[START:[0-9a-z]+]], i32 %[[LEAD:[0-9a-z]+]], i32 %[[STRIDE:[0-9a-z]+]], i8 %[[BASE:[0-9a-z]+]], i1 %[[MODE:[0-9a-z]+]], i8 %[[SWIZZLE:[0-9a-z]+]])
// CHECK: %[[A0:.*]] = and i32 %[[START]], 16383
// CHECK-NEXT: %[[A1:.*]] = zext i32 %[[A0]] to i64
// CHECK-NEXT: %[[A2:.*]] = shl i64 %[[A1]], 0
// CHECK-NEXT: %[[A3:.*]] = or i64 0, %[[A2]]
// CHECK-NEXT: %[[B0:.*]] = and i32 %[[LEAD]], 16383
// CHECK-NEXT: %[[B1:.*]] = zext i32 %[[B0]] to i64
// CHECK-NEXT: %[[B2:.*]] = shl i64 %[[B1]], 16
// CHECK-NEXT: %[[B3:.*]] = or i64 %[[A3]], %[[B2]]
// CHECK-NEXT: %[[C0:.*]] = and i32 %[[STRIDE]], 16383
// CHECK-NEXT: %[[C1:.*]] = zext i32 %[[C0]] to i64
// CHECK-NEXT: %[[C2:.*]] = shl i64 %[[C1]], 32
// CHECK-NEXT: %[[C3:.*]] = or i64 %[[B3]], %[[C2]]
// CHECK-NEXT: %[[FIXED:.*]] = or i64 %[[C3]], 70368744177664
// CHECK-NEXT: %[[D0:.*]] = zext i8 %[[BASE]] to i32
// CHECK-NEXT: %[[D1:.*]] = and i32 %[[D0]], 7
// CHECK-NEXT: %[[D2:.*]] = zext i32 %[[D1]] to i64
// CHECK-NEXT: %[[D3:.*]] = shl i64 %[[D2]], 49
// CHECK-NEXT: %[[D4:.*]] = or i64 %[[FIXED]], %[[D3]]
// CHECK-NEXT: %[[E0:.*]] = zext i1 %[[MODE]] to i32
// CHECK-NEXT: %[[E1:.*]] = and i32 %[[E0]], 1
// CHECK-NEXT: %[[E2:.*]] = zext i32 %[[E1]] to i64
// CHECK-NEXT: %[[E3:.*]] = shl i64 %[[E2]], 52
// CHECK-NEXT: %[[E4:.*]] = or i64 %[[D4]], %[[E3]]
// CHECK-NEXT: %[[F0:.*]] = zext i8 %[[SWIZZLE]] to i32
// CHECK-NEXT: %[[F1:.*]] = and i32 %[[F0]], 7
// CHECK-NEXT: %[[F2:.*]] = zext i32 %[[F1]] to i64
// CHECK-NEXT: %[[F3:.*]] = shl i64 %[[F2]], 61
// CHECK-NEXT: %[[DESC:.*]] = or i64 %[[E4]], %[[F3]]
// CHECK-NEXT: ret i64 %[[DESC]]
llvm.func @smem_desc(%a: i32, %b: i32, %c: i32, %base: i8, %mode: i1, %swizzle: i8) -> i64 {
  %0 = nvvm.tcgen05.mma_smem_desc (%a, %b, %c, %base, %mode, %swizzle) : (i32, i32, i32, i8, i1, i8) -> i64
  llvm.return %0 : i64
}
