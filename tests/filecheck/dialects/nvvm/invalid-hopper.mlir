// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --split-input-file --verify-diagnostics %}
// Verifier messages of the sm_90 nvvm ops (mbarrier, TMA, wgmma): the same as
// mlir-opt-22's, which the second RUN line checks through the `expected-error`s.

// CHECK: mbarrier in shared_cluster space cannot return any value
llvm.func @f(%r: !llvm.ptr<7>) {
  // expected-error@+1 {{mbarrier in shared_cluster space cannot return any value}}
  %0 = nvvm.mbarrier.arrive %r : !llvm.ptr<7> -> i64
  llvm.return
}

// -----

// CHECK: mbarrier scope must be either CTA or Cluster
llvm.func @f(%p: !llvm.ptr<3>) {
  // expected-error@+1 {{mbarrier scope must be either CTA or Cluster}}
  %0 = nvvm.mbarrier.arrive %p {scope = #nvvm.mem_scope<gpu>} : !llvm.ptr<3> -> i64
  llvm.return
}

// -----

// CHECK: mbarrier in shared_cluster space is not supported when using predicate
llvm.func @f(%r: !llvm.ptr<7>, %n: i32, %b: i1) {
  // expected-error@+1 {{mbarrier in shared_cluster space is not supported when using predicate}}
  nvvm.mbarrier.arrive.expect_tx %r, %n, predicate = %b : !llvm.ptr<7>, i32, i1
  llvm.return
}

// -----

// CHECK: return-value is not supported when using predicate
llvm.func @f(%p: !llvm.ptr<3>, %n: i32, %b: i1) {
  // expected-error@+1 {{return-value is not supported when using predicate}}
  %0 = nvvm.mbarrier.arrive.expect_tx %p, %n, predicate = %b : !llvm.ptr<3>, i32, i1 -> i64
  llvm.return
}

// -----

// CHECK: mbarrier scope must be either CTA or Cluster
llvm.func @f(%p: !llvm.ptr<3>, %s: i64) {
  // expected-error@+1 {{mbarrier scope must be either CTA or Cluster}}
  %0 = nvvm.mbarrier.test.wait %p, %s {scope = #nvvm.mem_scope<sys>} : !llvm.ptr<3>, i64 -> i1
  llvm.return
}

// -----

// CHECK: Shared::cta destination requires address-space 3.
llvm.func @f(%d: !llvm.ptr<7>, %m: !llvm.ptr, %b: !llvm.ptr<3>, %x: i32) {
  // expected-error@+1 {{Shared::cta destination requires address-space 3.}}
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d, %m, %b, box[%x, %x] {isCTAOnly = true} : !llvm.ptr<7>, !llvm.ptr
  llvm.return
}

// -----

// CHECK: Inline-ptx lowering unsupported with L2 cache-hint.
llvm.func @f(%m: !llvm.ptr, %s: !llvm.ptr<3>, %x: i32, %h: i64, %b: i1) {
  // expected-error@+1 {{Inline-ptx lowering unsupported with L2 cache-hint.}}
  nvvm.cp.async.bulk.tensor.global.shared.cta %m, %s, box[%x] l2_cache_hint = %h, predicate = %b : !llvm.ptr, <3>
  llvm.return
}

// -----

// CHECK: 'nvvm.wgmma.mma_async' op shape 'm' must be 64
llvm.func @f(%a: i64, %b: i64, %c: !llvm.struct<(f32, f32, f32, f32)>) {
  // expected-error@+1 {{shape 'm' must be 64}}
  %0 = nvvm.wgmma.mma_async %a, %b, %c, <m = 32, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

// CHECK: 'nvvm.wgmma.mma_async' op f32 += f16 * bf16, it is not supported.
llvm.func @f(%a: i64, %b: i64, %c: !llvm.struct<(f32, f32, f32, f32)>) {
  // expected-error@+1 {{f32 += f16 * bf16, it is not supported.}}
  %0 = nvvm.wgmma.mma_async %a, %b, %c, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<bf16>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

// CHECK: 'nvvm.wgmma.mma_async' op shape 'k' must be 16 for input type f16
llvm.func @f(%a: i64, %b: i64, %c: !llvm.struct<(f32, f32, f32, f32)>) {
  // expected-error@+1 {{shape 'k' must be 16 for input type f16}}
  %0 = nvvm.wgmma.mma_async %a, %b, %c, <m = 64, n = 8, k = 32>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

// CHECK: 'nvvm.wgmma.mma_async' op has input type s8 n is set to 40, it is not supported.
llvm.func @f(%a: i64, %b: i64, %c: !llvm.struct<(i32, i32, i32, i32)>) {
  // expected-error@+1 {{has input type s8 n is set to 40, it is not supported.}}
  %0 = nvvm.wgmma.mma_async %a, %b, %c, <m = 64, n = 40, k = 32>, D[<s32>, <one>], A[<s8>, <one>, <row>], B[<s8>, <one>, <col>] : !llvm.struct<(i32, i32, i32, i32)> -> !llvm.struct<(i32, i32, i32, i32)>
  llvm.return
}

// -----

// CHECK: 'nvvm.wgmma.mma_async' op given layouts layout_a = col and layout_b = row for input types tf32 and tf32 requires transpose. However, this is only supported for: f16 and bf16
llvm.func @f(%a: i64, %b: i64, %c: !llvm.struct<(f32, f32, f32, f32)>) {
  // expected-error@+1 {{given layouts layout_a = col and layout_b = row for input types tf32 and tf32 requires transpose. However, this is only supported for: f16 and bf16}}
  %0 = nvvm.wgmma.mma_async %a, %b, %c, <m = 64, n = 8, k = 8>, D[<f32>, <one>], A[<tf32>, <one>, <col>], B[<tf32>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

// CHECK: 'nvvm.wgmma.mma_async' op  `satfinite` can be only used with s32 accumulator, however the current accumulator is f32
llvm.func @f(%a: i64, %b: i64, %c: !llvm.struct<(f32, f32, f32, f32)>) {
  // expected-error@+1 {{ `satfinite` can be only used with s32 accumulator, however the current accumulator is f32}}
  %0 = nvvm.wgmma.mma_async %a, %b, %c, <m = 64, n = 8, k = 16>, D[<f32>, <one>, <satfinite>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

// CHECK: 'nvvm.wgmma.mma_async' op results 8, however output struct has 4 elements
llvm.func @f(%a: i64, %b: i64, %c: !llvm.struct<(f32, f32, f32, f32)>) {
  // expected-error@+1 {{results 8, however output struct has 4 elements}}
  %0 = nvvm.wgmma.mma_async %a, %b, %c, <m = 64, n = 16, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

// CHECK: Shared::cluster destination requires address-space 7.
llvm.func @f(%d: !llvm.ptr<3>, %m: !llvm.ptr, %b: !llvm.ptr<3>, %x: i32) {
  // expected-error@+1 {{Shared::cluster destination requires address-space 7.}}
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d, %m, %b, box[%x] : !llvm.ptr<3>, !llvm.ptr
  llvm.return
}

// -----

// CHECK: Predicate is supported only for shared::cluster mode.
llvm.func @f(%d: !llvm.ptr<3>, %m: !llvm.ptr, %b: !llvm.ptr<3>, %x: i32, %p: i1) {
  // expected-error@+1 {{Predicate is supported only for shared::cluster mode.}}
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d, %m, %b, box[%x] predicate = %p {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
  llvm.return
}

// -----

// CHECK: to use im2col mode, the tensor has to be at least 3-dimensional
llvm.func @f(%d: !llvm.ptr<7>, %m: !llvm.ptr, %b: !llvm.ptr<3>, %x: i32, %o: i16) {
  // expected-error@+1 {{to use im2col mode, the tensor has to be at least 3-dimensional}}
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d, %m, %b, box[%x, %x] im2col[%o] {mode = #nvvm.tma_load_mode<im2col>} : !llvm.ptr<7>, !llvm.ptr
  llvm.return
}

// -----

// CHECK: im2col offsets expected 1 (provided 0)
llvm.func @f(%d: !llvm.ptr<7>, %m: !llvm.ptr, %b: !llvm.ptr<3>, %x: i32) {
  // expected-error@+1 {{ im2col offsets expected 1 (provided 0)}}
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d, %m, %b, box[%x, %x, %x] {mode = #nvvm.tma_load_mode<im2col>} : !llvm.ptr<7>, !llvm.ptr
  llvm.return
}

// -----

// CHECK: im2col offsets expected 0 (provided 1)
llvm.func @f(%d: !llvm.ptr<7>, %m: !llvm.ptr, %b: !llvm.ptr<3>, %x: i32, %o: i16) {
  // expected-error@+1 {{ im2col offsets expected 0 (provided 1)}}
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d, %m, %b, box[%x, %x, %x] im2col[%o] : !llvm.ptr<7>, !llvm.ptr
  llvm.return
}

// -----

// CHECK: expects coordinates between 1 to 5 dimension
llvm.func @f(%d: !llvm.ptr<7>, %m: !llvm.ptr, %b: !llvm.ptr<3>, %x: i32) {
  // expected-error@+1 {{expects coordinates between 1 to 5 dimension}}
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d, %m, %b, box[%x, %x, %x, %x, %x, %x] : !llvm.ptr<7>, !llvm.ptr
  llvm.return
}

// -----

// CHECK: Inline-ptx lowering supported only for Tile mode.
llvm.func @f(%m: !llvm.ptr, %s: !llvm.ptr<3>, %x: i32, %p: i1) {
  // expected-error@+1 {{Inline-ptx lowering supported only for Tile mode.}}
  nvvm.cp.async.bulk.tensor.global.shared.cta %m, %s, box[%x, %x, %x], predicate = %p {mode = #nvvm.tma_store_mode<im2col>} : !llvm.ptr, <3>
  llvm.return
}
