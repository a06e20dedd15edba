// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --split-input-file --verify-diagnostics %}
// Verifier messages of the ops of misc-ops.mlir: the same as mlir-opt-22's, which the
// second RUN line checks through the `expected-error`s.

// CHECK: 'nvvm.barrier' op barrier id is missing, it should be set between 0 to 15
llvm.func @f(%n: i32) {
  // expected-error@+1 {{'nvvm.barrier' op barrier id is missing, it should be set between 0 to 15}}
  nvvm.barrier number_of_threads = %n
  llvm.return
}

// -----

// CHECK: 'nvvm.barrier' op reduction are only available when id is 0
llvm.func @f(%id: i32, %p: i32) {
  // expected-error@+1 {{'nvvm.barrier' op reduction are only available when id is 0}}
  %0 = "nvvm.barrier"(%id, %p) <{operandSegmentSizes = array<i32: 1, 0, 1>, reductionOp = #nvvm.reduction<and>}> : (i32, i32) -> i32
  llvm.return
}

// -----

// CHECK: 'nvvm.barrier' op reduction predicate and reduction operation must be specified together
llvm.func @f(%p: i32) {
  // expected-error@+1 {{'nvvm.barrier' op reduction predicate and reduction operation must be specified together}}
  %0 = "nvvm.barrier"(%p) <{operandSegmentSizes = array<i32: 0, 0, 1>}> : (i32) -> i32
  llvm.return
}

// -----

// CHECK: 'nvvm.pmevent' op either `id` or `mask` must be set
llvm.func @f() {
  // expected-error@+1 {{'nvvm.pmevent' op either `id` or `mask` must be set}}
  nvvm.pmevent
  llvm.return
}

// -----

// CHECK: 'nvvm.pmevent' op `id` and `mask` cannot be set at the same time
llvm.func @f() {
  // expected-error@+1 {{'nvvm.pmevent' op `id` and `mask` cannot be set at the same time}}
  nvvm.pmevent id = 3 mask = 4
  llvm.return
}

// -----

// CHECK: 'nvvm.pmevent' op `id` must be between 0 and 15
llvm.func @f() {
  // expected-error@+1 {{'nvvm.pmevent' op `id` must be between 0 and 15}}
  nvvm.pmevent id = 16
  llvm.return
}

// -----

// CHECK: 'nvvm.setmaxregister' op new register size must be multiple of 8
llvm.func @f() {
  // expected-error@+1 {{'nvvm.setmaxregister' op new register size must be multiple of 8}}
  nvvm.setmaxregister increase 300
  llvm.return
}

// -----

// CHECK: 'nvvm.setmaxregister' op new register size must be in between 24 to 256
llvm.func @f() {
  // expected-error@+1 {{'nvvm.setmaxregister' op new register size must be in between 24 to 256}}
  nvvm.setmaxregister decrease 16
  llvm.return
}

// -----

// CHECK: 'nvvm.mapa' op failed to verify that Valid address-space check(or mapping) for mapa Op
llvm.func @f(%a: !llvm.ptr<3>, %b: i32) {
  // expected-error@+1 {{'nvvm.mapa' op failed to verify that Valid address-space check(or mapping) for mapa Op}}
  %0 = nvvm.mapa %a, %b : !llvm.ptr<3> -> !llvm.ptr
  llvm.return
}

// -----

// CHECK: 'nvvm.mapa' op operand #0 must be LLVM pointer in address space 0 or LLVM pointer in address space 3, but got '!llvm.ptr<1>'
llvm.func @f(%a: !llvm.ptr<1>, %b: i32) {
  // expected-error@+1 {{'nvvm.mapa' op operand #0 must be LLVM pointer in address space 0 or LLVM pointer in address space 3, but got '!llvm.ptr<1>'}}
  %0 = nvvm.mapa %a, %b : !llvm.ptr<1> -> !llvm.ptr<1>
  llvm.return
}

// -----

// CHECK: 'nvvm.mapa' op is not supported on sm_80
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  llvm.func @f(%a: !llvm.ptr, %b: i32) {
    // expected-error@+1 {{'nvvm.mapa' op is not supported on sm_80}}
    %0 = nvvm.mapa %a, %b : !llvm.ptr -> !llvm.ptr
    llvm.return
  }
}

// -----

// CHECK: 'nvvm.st.bulk' op only 0 is supported for initVal, got 1
llvm.func @f(%a: !llvm.ptr, %s: i64) {
  // expected-error@+1 {{'nvvm.st.bulk' op only 0 is supported for initVal, got 1}}
  nvvm.st.bulk %a, size = %s, init = 1 : !llvm.ptr
  llvm.return
}

// -----

// CHECK: 'nvvm.match.sync' op match.sync 'any' returns an i32
llvm.func @f(%m: i32, %v: i32) {
  // expected-error@+1 {{'nvvm.match.sync' op match.sync 'any' returns an i32}}
  %0 = nvvm.match.sync any %m, %v : i32 -> !llvm.struct<(i32, i1)>
  llvm.return
}

// -----

// CHECK: 'nvvm.match.sync' op match.sync 'all' returns a two element struct with first element as i32 and second element as i1
llvm.func @f(%m: i32, %v: i32) {
  // expected-error@+1 {{'nvvm.match.sync' op match.sync 'all' returns a two element struct with first element as i32 and second element as i1}}
  %0 = nvvm.match.sync all %m, %v : i32 -> !llvm.struct<(i32, i32)>
  llvm.return
}

// -----

// CHECK: 'nvvm.stmatrix' op expected num attribute to be 1, 2 or 4
llvm.func @f(%p: !llvm.ptr<3>, %r: i32) {
  // expected-error@+1 {{'nvvm.stmatrix' op expected num attribute to be 1, 2 or 4}}
  nvvm.stmatrix %p, %r, %r, %r {layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b16>} : !llvm.ptr<3>, i32, i32, i32
  llvm.return
}

// -----

// CHECK: 'nvvm.stmatrix' op expected layout to be col for 16x8 matrix
llvm.func @f(%p: !llvm.ptr<3>, %r: i32) {
  // expected-error@+1 {{'nvvm.stmatrix' op expected layout to be col for 16x8 matrix}}
  nvvm.stmatrix %p, %r {layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 16, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b8>} : !llvm.ptr<3>, i32
  llvm.return
}

// -----

// CHECK: 'nvvm.stmatrix' op expected shape to be 8x8 or 16x8
llvm.func @f(%p: !llvm.ptr<3>, %r: i32) {
  // expected-error@+1 {{'nvvm.stmatrix' op expected shape to be 8x8 or 16x8}}
  nvvm.stmatrix %p, %r {layout = #nvvm.mma_layout<col>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 16>, eltType = #nvvm.ld_st_matrix_elt_type<b8>} : !llvm.ptr<3>, i32
  llvm.return
}

// -----

// CHECK: expects coordinates between 1 to 5 dimension
llvm.func @f(%map: !llvm.ptr) {
  // expected-error@+1 {{expects coordinates between 1 to 5 dimension}}
  nvvm.cp.async.bulk.tensor.prefetch %map, box[] : !llvm.ptr
  llvm.return
}

// -----

// CHECK: to use im2col_w mode, the tensor has to be at least 3-dimensional
llvm.func @f(%map: !llvm.ptr, %x: i32, %o: i16) {
  // expected-error@+1 {{to use im2col_w mode, the tensor has to be at least 3-dimensional}}
  nvvm.cp.async.bulk.tensor.prefetch %map, box[%x, %x] im2col[%o, %o] {mode = #nvvm.tma_load_mode<im2col_w>} : !llvm.ptr
  llvm.return
}

// -----

// CHECK: im2col offsets expected 1 (provided 0)
llvm.func @f(%map: !llvm.ptr, %x: i32) {
  // expected-error@+1 {{im2col offsets expected 1 (provided 0)}}
  nvvm.cp.async.bulk.tensor.prefetch %map, box[%x, %x, %x] {mode = #nvvm.tma_load_mode<im2col>} : !llvm.ptr
  llvm.return
}

// -----

// CHECK: Gather4 mode expects 5 coordinates
llvm.func @f(%map: !llvm.ptr, %x: i32) {
  // expected-error@+1 {{Gather4 mode expects 5 coordinates}}
  nvvm.cp.async.bulk.tensor.prefetch %map, box[%x, %x, %x] {mode = #nvvm.tma_load_mode<tile_gather4>} : !llvm.ptr
  llvm.return
}

// -----

// CHECK: to use im2col mode, the tensor has to be at least 3-dimensional
llvm.func @f(%map: !llvm.ptr, %src: !llvm.ptr<3>, %x: i32) {
  // expected-error@+1 {{to use im2col mode, the tensor has to be at least 3-dimensional}}
  nvvm.cp.async.bulk.tensor.reduce %map, %src, box[%x, %x] {redKind = #nvvm.tma_redux_kind<and>, mode = #nvvm.tma_store_mode<im2col>} : !llvm.ptr, !llvm.ptr<3>
  llvm.return
}

// -----

// CHECK: Scatter mode unsupported for CpAsyncBulkTensorReduceOp
llvm.func @f(%map: !llvm.ptr, %src: !llvm.ptr<3>, %x: i32) {
  // expected-error@+1 {{Scatter mode unsupported for CpAsyncBulkTensorReduceOp}}
  nvvm.cp.async.bulk.tensor.reduce %map, %src, box[%x, %x, %x, %x, %x] {redKind = #nvvm.tma_redux_kind<add>, mode = #nvvm.tma_store_mode<tile_scatter4>} : !llvm.ptr, !llvm.ptr<3>
  llvm.return
}

// -----

// CHECK: 'nvvm.cp.async.bulk.tensor.reduce' op operand #1 must be LLVM pointer in address space 3, but got '!llvm.ptr'
llvm.func @f(%map: !llvm.ptr, %src: !llvm.ptr, %x: i32) {
  // expected-error@+1 {{'nvvm.cp.async.bulk.tensor.reduce' op operand #1 must be LLVM pointer in address space 3, but got '!llvm.ptr'}}
  nvvm.cp.async.bulk.tensor.reduce %map, %src, box[%x] {redKind = #nvvm.tma_redux_kind<add>} : !llvm.ptr, !llvm.ptr
  llvm.return
}
