// RUN: python3 -m xdsl_gpu.targets.llvm_ir %s --triple nvptx64-nvidia-cuda | filecheck %s
// RUN: %if mlir-opt %{ mlir-translate --mlir-to-llvmir %s | filecheck %s %}
// The ops of tests/filecheck/dialects/nvvm/misc-ops.mlir become the calls that
// mlir-translate-22 writes; both tools are checked by the same lines.

// CHECK-LABEL: define void @barriers(
// CHECK-SAME: i32 %[[ID:[^,]+]], i32 %[[N:[^,]+]], i32 %[[P:[^,)]+]])
llvm.func @barriers(%id: i32, %n: i32, %pred: i32) {
  // CHECK: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  nvvm.barrier
  // CHECK: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 %[[ID]])
  nvvm.barrier id = %id
  // CHECK: call void @llvm.nvvm.barrier.cta.sync.aligned.count(i32 %[[ID]], i32 %[[N]])
  nvvm.barrier id = %id number_of_threads = %n
  // CHECK: %[[T0:.+]] = icmp ne i32 %[[P]], 0
  // CHECK: %[[R0:.+]] = call i32 @llvm.nvvm.barrier.cta.red.popc.aligned.all(i32 0, i1 %[[T0]])
  %0 = nvvm.barrier #nvvm.reduction<popc> %pred -> i32
  // CHECK: %[[T1:.+]] = icmp ne i32 %[[P]], 0
  // CHECK: %[[R1:.+]] = call i1 @llvm.nvvm.barrier.cta.red.or.aligned.all(i32 0, i1 %[[T1]])
  // CHECK: %[[Z1:.+]] = zext i1 %[[R1]] to i32
  %1 = nvvm.barrier #nvvm.reduction<or> %pred -> i32
  // CHECK: call i1 @llvm.nvvm.barrier.cta.red.and.aligned.all(i32 0, i1 %{{.+}})
  nvvm.barrier #nvvm.reduction<and> %pred
  // CHECK: add i32 %[[R0]], %[[Z1]]
  %2 = llvm.add %0, %1 : i32
  llvm.return
}

// CHECK-LABEL: define void @control(
llvm.func @control() {
  // CHECK: call void @llvm.nvvm.exit()
  nvvm.exit
  // CHECK: call void @llvm.debugtrap()
  nvvm.breakpoint
  // CHECK: call void @llvm.nvvm.griddepcontrol.wait()
  nvvm.griddepcontrol wait
  // CHECK: call void @llvm.nvvm.griddepcontrol.launch.dependents()
  nvvm.griddepcontrol launch_dependents
  // CHECK: call void @llvm.nvvm.setmaxnreg.inc.sync.aligned.u32(i32 256)
  nvvm.setmaxregister increase 256
  // CHECK: call void @llvm.nvvm.setmaxnreg.dec.sync.aligned.u32(i32 24)
  nvvm.setmaxregister decrease 24
  // CHECK: call void @llvm.nvvm.pm.event.mask(i16 15000)
  nvvm.pmevent mask = 15000
  // CHECK: call void @llvm.nvvm.pm.event.mask(i16 -25536)
  nvvm.pmevent mask = 40000
  // CHECK: call void @llvm.nvvm.pm.event.mask(i16 8)
  nvvm.pmevent id = 3
  llvm.return
}

// CHECK-LABEL: define void @memory(
llvm.func @memory(%a: !llvm.ptr, %s: !llvm.ptr<3>, %cta: i32, %size: i64) {
  // CHECK: call ptr @llvm.nvvm.mapa(ptr %{{.+}}, i32 %{{.+}})
  %0 = nvvm.mapa %a, %cta : !llvm.ptr -> !llvm.ptr
  // CHECK: call ptr addrspace(7) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3) %{{.+}}, i32 %{{.+}})
  %1 = nvvm.mapa %s, %cta : !llvm.ptr<3> -> !llvm.ptr<7>
  // CHECK: call void @llvm.nvvm.st.bulk(ptr %{{.+}}, i64 %{{.+}}, i64 0)
  nvvm.st.bulk %a, size = %size : !llvm.ptr
  // CHECK: call void @llvm.nvvm.st.bulk.shared.cta(ptr addrspace(3) %{{.+}}, i64 %{{.+}}, i64 0)
  nvvm.st.bulk %s, size = %size, init = 0 : !llvm.ptr<3>
  llvm.return
}

// CHECK-LABEL: define void @warp(
llvm.func @warp(%mask: i32, %v32: i32, %v64: i64, %p: !llvm.ptr<3>) {
  // CHECK: call i32 @llvm.nvvm.match.any.sync.i32(i32 %{{.+}}, i32 %{{.+}})
  %0 = nvvm.match.sync any %mask, %v32 : i32 -> i32
  // CHECK: call { i32, i1 } @llvm.nvvm.match.all.sync.i64p(i32 %{{.+}}, i64 %{{.+}})
  %1 = nvvm.match.sync all %mask, %v64 : i64 -> !llvm.struct<(i32, i1)>
  // CHECK: call void @llvm.nvvm.stmatrix.sync.aligned.m16n8.x2.trans.b8.p3(ptr addrspace(3) %{{.+}}, i32 %{{.+}}, i32 %{{.+}})
  nvvm.stmatrix %p, %v32, %v32 {layout = #nvvm.mma_layout<col>, shape = #nvvm.ld_st_matrix_shape<m = 16, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b8>} : !llvm.ptr<3>, i32, i32
  // CHECK: call void @llvm.nvvm.stmatrix.sync.aligned.m8n8.x1.b16.p3(ptr addrspace(3) %{{.+}}, i32 %{{.+}})
  nvvm.stmatrix %p, %v32 {layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b16>} : !llvm.ptr<3>, i32
  llvm.return
}

// CHECK-LABEL: define void @dot(
llvm.func @dot(%a: vector<4xi8>, %b: vector<4xi8>, %h: vector<2xi16>, %c: i32) {
  // CHECK: %[[A:.+]] = bitcast <4 x i8> %{{.+}} to i32
  // CHECK: %[[B:.+]] = bitcast <4 x i8> %{{.+}} to i32
  // CHECK: call i32 @llvm.nvvm.idp4a.u.s(i32 %[[A]], i32 %[[B]], i32 %{{.+}})
  %0 = nvvm.dot.accumulate.4way %a <unsigned>, %b <signed>, %c : vector<4xi8>, vector<4xi8>
  // CHECK: %[[H:.+]] = bitcast <2 x i16> %{{.+}} to i32
  // CHECK: %[[B2:.+]] = bitcast <4 x i8> %{{.+}} to i32
  // CHECK: call i32 @llvm.nvvm.idp2a.s.u(i32 %[[H]], i32 %[[B2]], i1 true, i32 %{{.+}})
  %1 = nvvm.dot.accumulate.2way %h <signed>, %b <unsigned>, %c {b_hi = true} : vector<2xi16>, vector<4xi8>
  llvm.return
}

// CHECK-LABEL: define void @tma(
llvm.func @tma(%map: !llvm.ptr, %src: !llvm.ptr<3>, %x: i32, %y: i32, %z: i32, %w: i32, %v: i32, %o: i16, %hint: i64) {
  // CHECK: call void @llvm.nvvm.cp.async.bulk.tensor.prefetch.tile.2d(ptr %{{.+}}, i32 %{{.+}}, i32 %{{.+}}, i64 %{{.+}}, i1 true)
  nvvm.cp.async.bulk.tensor.prefetch %map, box[%x, %y] l2_cache_hint = %hint : !llvm.ptr
  // CHECK: call void @llvm.nvvm.cp.async.bulk.tensor.prefetch.im2col.3d(ptr %{{.+}}, i32 %{{.+}}, i32 %{{.+}}, i32 %{{.+}}, i16 %{{.+}}, i64 0, i1 false)
  nvvm.cp.async.bulk.tensor.prefetch %map, box[%x, %y, %z] im2col[%o] {mode = #nvvm.tma_load_mode<im2col>} : !llvm.ptr
  // CHECK: call void @llvm.nvvm.cp.async.bulk.tensor.prefetch.im2col.w.128.3d(ptr %{{.+}}, i32 %{{.+}}, i32 %{{.+}}, i32 %{{.+}}, i16 %{{.+}}, i16 %{{.+}}, i64 0, i1 false)
  nvvm.cp.async.bulk.tensor.prefetch %map, box[%x, %y, %z] im2col[%o, %o] {mode = #nvvm.tma_load_mode<im2col_w_128>} : !llvm.ptr
  // CHECK: call void @llvm.nvvm.cp.async.bulk.tensor.prefetch.tile.gather4.2d(ptr %{{.+}}, i32 %{{.+}}, i32 %{{.+}}, i32 %{{.+}}, i32 %{{.+}}, i32 %{{.+}}, i64 0, i1 false)
  nvvm.cp.async.bulk.tensor.prefetch %map, box[%x, %y, %z, %w, %v] {mode = #nvvm.tma_load_mode<tile_gather4>} : !llvm.ptr
  // CHECK: call void @llvm.nvvm.cp.async.bulk.tensor.reduce.add.tile.1d(ptr addrspace(3) %{{.+}}, ptr %{{.+}}, i32 %{{.+}}, i64 0, i1 false)
  nvvm.cp.async.bulk.tensor.reduce %map, %src, box[%x] {redKind = #nvvm.tma_redux_kind<add>} : !llvm.ptr, !llvm.ptr<3>
  // CHECK: call void @llvm.nvvm.cp.async.bulk.tensor.reduce.xor.im2col.3d(ptr addrspace(3) %{{.+}}, ptr %{{.+}}, i32 %{{.+}}, i32 %{{.+}}, i32 %{{.+}}, i64 %{{.+}}, i1 true)
  nvvm.cp.async.bulk.tensor.reduce %map, %src, box[%x, %y, %z] l2_cache_hint = %hint {redKind = #nvvm.tma_redux_kind<xor>, mode = #nvvm.tma_store_mode<im2col>} : !llvm.ptr, <3>
  llvm.return
}

// CHECK-LABEL: define i32 @full_range(
llvm.func @full_range() -> i32 {
  // [max, max) is LLVM's full set: no range attribute.
  // CHECK: call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %0 = nvvm.read.ptx.sreg.tid.x range <i32, 4294967295, 4294967295> : i32
  llvm.return %0 : i32
}
