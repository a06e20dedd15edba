// RUN: xdsl-opt %s --split-input-file | filecheck %s
// RUN: XDSL_ROUNDTRIP
// RUN: %if mlir-opt %{ mlir-opt-22 %s --split-input-file | filecheck %s %}
// nvvm.barrier with operands and reductions, exit, breakpoint, griddepcontrol,
// setmaxregister, pmevent, mapa, st.bulk, match.sync, stmatrix, dot.accumulate and the
// TMA prefetch/reduce, printed as mlir-opt-22 prints them (the third RUN line).
// Their LLVM IR: tests/filecheck/targets/llvm_ir/nvvm-misc.mlir.

// CHECK-LABEL: llvm.func @barriers(
llvm.func @barriers(%id: i32, %n: i32, %pred: i32) {
  // CHECK-NEXT: nvvm.barrier{{$}}
  nvvm.barrier
  // CHECK-NEXT: nvvm.barrier id = %{{.*}}{{$}}
  nvvm.barrier id = %id
  // CHECK-NEXT: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}{{$}}
  nvvm.barrier id = %id number_of_threads = %n
  // CHECK-NEXT: %{{.*}} = nvvm.barrier #nvvm.reduction<popc> %{{.*}} -> i32
  %0 = nvvm.barrier #nvvm.reduction<popc> %pred -> i32
  // CHECK-NEXT: %{{.*}} = nvvm.barrier #nvvm.reduction<or> %{{.*}} -> i32 {tag}
  %1 = nvvm.barrier #nvvm.reduction<or> %pred -> i32 {tag}
  // CHECK-NEXT: nvvm.barrier #nvvm.reduction<and> %{{.*}}{{$}}
  nvvm.barrier #nvvm.reduction<and> %pred
  llvm.return
}

// -----

// CHECK-LABEL: llvm.func @control(
llvm.func @control() {
  // CHECK-NEXT: nvvm.exit
  nvvm.exit
  // CHECK-NEXT: nvvm.breakpoint
  nvvm.breakpoint
  // CHECK-NEXT: nvvm.griddepcontrol {{ *}}wait
  nvvm.griddepcontrol wait
  // CHECK-NEXT: nvvm.griddepcontrol {{ *}}launch_dependents
  nvvm.griddepcontrol launch_dependents
  // CHECK-NEXT: nvvm.setmaxregister {{ *}}increase 256
  nvvm.setmaxregister increase 256
  // CHECK-NEXT: nvvm.setmaxregister {{ *}}decrease 24
  nvvm.setmaxregister decrease 24
  // CHECK-NEXT: nvvm.pmevent mask = 15000
  nvvm.pmevent mask = 15000
  // CHECK-NEXT: nvvm.pmevent mask = -25536
  nvvm.pmevent mask = 40000
  // CHECK-NEXT: nvvm.pmevent id = 3
  nvvm.pmevent id = 3
  // CHECK-NEXT: nvvm.pmevent {tag} mask = 4
  nvvm.pmevent {tag} mask = 4
  llvm.return
}

// -----

// CHECK-LABEL: llvm.func @memory(
llvm.func @memory(%a: !llvm.ptr, %s: !llvm.ptr<3>, %cta: i32, %size: i64) {
  // CHECK-NEXT: %{{.*}} = nvvm.mapa %{{.*}}, %{{.*}} : !llvm.ptr -> !llvm.ptr
  %0 = nvvm.mapa %a, %cta : !llvm.ptr -> !llvm.ptr
  // CHECK-NEXT: %{{.*}} = nvvm.mapa %{{.*}}, %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
  %1 = nvvm.mapa %s, %cta : !llvm.ptr<3> -> !llvm.ptr<7>
  // CHECK-NEXT: nvvm.st.bulk %{{.*}}, size = %{{.*}} : !llvm.ptr
  nvvm.st.bulk %a, size = %size : !llvm.ptr
  // CHECK-NEXT: nvvm.st.bulk %{{.*}}, size = %{{.*}} : !llvm.ptr<3>
  nvvm.st.bulk %s, size = %size, init = 0 : !llvm.ptr<3>
  llvm.return
}

// -----

// CHECK-LABEL: llvm.func @warp(
llvm.func @warp(%mask: i32, %v32: i32, %v64: i64, %p: !llvm.ptr<3>) {
  // CHECK-NEXT: %{{.*}} = nvvm.match.sync {{ *}}any %{{.*}}, %{{.*}} : i32 -> i32
  %0 = nvvm.match.sync any %mask, %v32 : i32 -> i32
  // CHECK-NEXT: %{{.*}} = nvvm.match.sync {{ *}}all %{{.*}}, %{{.*}} : i64 -> !llvm.struct<(i32, i1)>
  %1 = nvvm.match.sync all %mask, %v64 : i64 -> !llvm.struct<(i32, i1)>
  // CHECK-NEXT: nvvm.stmatrix %{{.*}}, %{{.*}}, %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b8>, layout = #nvvm.mma_layout<col>, shape = #nvvm.ld_st_matrix_shape<m = 16, n = 8>} : !llvm.ptr<3>, i32, i32
  nvvm.stmatrix %p, %v32, %v32 {layout = #nvvm.mma_layout<col>, shape = #nvvm.ld_st_matrix_shape<m = 16, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b8>} : !llvm.ptr<3>, i32, i32
  llvm.return
}

// -----

// CHECK-LABEL: llvm.func @dot(
llvm.func @dot(%a: vector<4xi8>, %b: vector<4xi8>, %h: vector<2xi16>, %c: i32) {
  // CHECK-NEXT: %{{.*}} = nvvm.dot.accumulate.4way %{{.*}} <unsigned>, %{{.*}} <signed>, %{{.*}} : vector<4xi8>, vector<4xi8>
  %0 = nvvm.dot.accumulate.4way %a <unsigned>, %b <signed>, %c : vector<4xi8>, vector<4xi8>
  // CHECK-NEXT: %{{.*}} = nvvm.dot.accumulate.2way %{{.*}} <signed>, %{{.*}} <unsigned>, %{{.*}} {b_hi = true} : vector<2xi16>, vector<4xi8>
  %1 = nvvm.dot.accumulate.2way %h <signed>, %b <unsigned>, %c {b_hi = true} : vector<2xi16>, vector<4xi8>
  llvm.return
}

// -----

// CHECK-LABEL: llvm.func @tma(
llvm.func @tma(%map: !llvm.ptr, %src: !llvm.ptr<3>, %x: i32, %y: i32, %z: i32, %o: i16, %hint: i64) {
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.prefetch %{{.*}}, box[%{{.*}}, %{{.*}}] l2_cache_hint = %{{.*}} : !llvm.ptr
  nvvm.cp.async.bulk.tensor.prefetch %map, box[%x, %y] l2_cache_hint = %hint : !llvm.ptr
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.prefetch %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}] im2col[%{{.*}}] {mode = #nvvm.tma_load_mode<im2col>} : !llvm.ptr
  nvvm.cp.async.bulk.tensor.prefetch %map, box[%x, %y, %z] im2col[%o] {mode = #nvvm.tma_load_mode<im2col>} : !llvm.ptr
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.reduce %{{.*}}, %{{.*}}, box[%{{.*}}] {redKind = #nvvm.tma_redux_kind<add>} : !llvm.ptr, <3>
  nvvm.cp.async.bulk.tensor.reduce %map, %src, box[%x] {redKind = #nvvm.tma_redux_kind<add>} : !llvm.ptr, !llvm.ptr<3>
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.reduce %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}] l2_cache_hint = %{{.*}} {mode = #nvvm.tma_store_mode<im2col>, redKind = #nvvm.tma_redux_kind<xor>} : !llvm.ptr, <3>
  nvvm.cp.async.bulk.tensor.reduce %map, %src, box[%x, %y, %z] l2_cache_hint = %hint {redKind = #nvvm.tma_redux_kind<xor>, mode = #nvvm.tma_store_mode<im2col>} : !llvm.ptr, <3>
  llvm.return
}

// -----

// The enum attributes written in their own syntax (generic form), printed back in
// the ops' custom syntax.
// CHECK-LABEL: llvm.func @attributes_in_generic_form(
llvm.func @attributes_in_generic_form(%mask: i32, %v32: i32, %a: vector<4xi8>, %b: vector<4xi8>, %c: i32) {
  // CHECK-NEXT: nvvm.griddepcontrol {{ *}}launch_dependents
  "nvvm.griddepcontrol"() <{kind = #nvvm<grid_dep_action launch_dependents>}> : () -> ()
  // CHECK-NEXT: nvvm.setmaxregister {{ *}}decrease 24
  "nvvm.setmaxregister"() <{action = #nvvm<action decrease>, regCount = 24 : i32}> : () -> ()
  // CHECK-NEXT: %{{.*}} = nvvm.match.sync {{ *}}any %{{.*}}, %{{.*}} : i32 -> i32
  %0 = "nvvm.match.sync"(%mask, %v32) <{kind = #nvvm<match_sync_kind any>}> : (i32, i32) -> i32
  // CHECK-NEXT: %{{.*}} = nvvm.dot.accumulate.4way %{{.*}} <unsigned>, %{{.*}} <signed>, %{{.*}} : vector<4xi8>, vector<4xi8>
  %1 = "nvvm.dot.accumulate.4way"(%a, %b, %c) <{a_type = #nvvm.dot_accumulate_type<unsigned>, b_type = #nvvm.dot_accumulate_type<signed>}> : (vector<4xi8>, vector<4xi8>, i32) -> i32
  llvm.return
}
