// RUN: xdsl-opt %s --split-input-file | filecheck %s
// RUN: XDSL_ROUNDTRIP
// The llvm ops xdsl-gpu adds to xDSL's llvm dialect, or replaces, in upstream MLIR 22's
// printed form. Differential runs against mlir-opt 22: ops-mlir-opt.mlir.
// SSA names are matched loosely: mlir-opt renames values.

// CHECK-LABEL: llvm.func @casts(%{{.*}}: f32, %{{.*}}: i32, %{{.*}}: !llvm.ptr, %{{.*}}: vector<2x!llvm.ptr>) {
// CHECK-NEXT: %{{.*}} = llvm.fptosi %{{.*}} : f32 to i32
// CHECK-NEXT: %{{.*}} = llvm.fptoui %{{.*}} : f32 to i64
// CHECK-NEXT: %{{.*}} = llvm.sitofp %{{.*}} : i32 to f16
// CHECK-NEXT: %{{.*}} = llvm.uitofp %{{.*}} : i32 to f64
// CHECK-NEXT: %{{.*}} = llvm.uitofp nneg %{{.*}} : i32 to f32
// CHECK-NEXT: %{{.*}} = llvm.fpext %{{.*}} : f32 to f64
// CHECK-NEXT: %{{.*}} = llvm.fptrunc %{{.*}} : f32 to bf16
// CHECK-NEXT: %{{.*}} = llvm.addrspacecast %{{.*}} : !llvm.ptr to !llvm.ptr<1>
// CHECK-NEXT: %{{.*}} = llvm.addrspacecast %{{.*}} : vector<2x!llvm.ptr> to vector<2x!llvm.ptr<3>>
// CHECK-NEXT: %{{.*}} = llvm.mlir.poison : !llvm.struct<(ptr, i64)>
// CHECK-NEXT: llvm.return
// CHECK-NEXT: }
// CHECK-NEXT: }
llvm.func @casts(%f: f32, %i: i32, %p: !llvm.ptr, %vp: vector<2x!llvm.ptr>) {
  %0 = llvm.fptosi %f : f32 to i32
  %1 = llvm.fptoui %f : f32 to i64
  %2 = llvm.sitofp %i : i32 to f16
  %3 = llvm.uitofp %i : i32 to f64
  %4 = llvm.uitofp nneg %i : i32 to f32
  %5 = llvm.fpext %f : f32 to f64
  %6 = llvm.fptrunc %f : f32 to bf16
  %7 = llvm.addrspacecast %p : !llvm.ptr to !llvm.ptr<1>
  %8 = llvm.addrspacecast %vp : vector<2x!llvm.ptr> to vector<2x!llvm.ptr<3>>
  %9 = llvm.mlir.poison : !llvm.struct<(ptr, i64)>
  llvm.return
}

// -----

// CHECK-LABEL: llvm.func @switches(%{{.*}}: i32, %{{.*}}: i64) {
// CHECK-NEXT: llvm.switch %{{.*}} : i32, ^bb1 [
// CHECK-NEXT: 0: ^bb2,
// CHECK-NEXT: -5: ^bb3(%{{.*}} : i32)
// CHECK-NEXT: ]
// CHECK-NEXT: ^bb1:
// CHECK-NEXT: llvm.switch %{{.*}} : i64, ^bb3(%{{.*}} : i32) [
// CHECK-NEXT: 7: ^bb3(%{{.*}} : i32)
// CHECK-NEXT: ]
// CHECK-NEXT: ^bb2:
// CHECK-NEXT: llvm.switch %{{.*}} : i32, ^bb1 [
// CHECK-NEXT: 1: ^bb1,
// CHECK-NEXT: 2: ^bb2
// CHECK-NEXT: ] {branch_weights = array<i32: 1, 2, 3>}
// CHECK-NEXT: ^bb3(%{{.*}}: i32):
// CHECK-NEXT: llvm.return
// CHECK-NEXT: }
// CHECK-NEXT: }
llvm.func @switches(%x: i32, %y: i64) {
  llvm.switch %x : i32, ^bb1 [
    0: ^bb2,
    -5: ^bb3(%x : i32)
  ]
^bb1:
  llvm.switch %y : i64, ^bb3(%x : i32) [
    7: ^bb3(%x : i32)
  ]
^bb2:
  llvm.switch %x : i32, ^bb1 [
    1: ^bb1,
    2: ^bb2
  ] {branch_weights = array<i32: 1, 2, 3>}
^bb3(%a: i32):
  llvm.return
}

// -----

// CHECK-LABEL: llvm.func @atomics(%{{.*}}: !llvm.ptr, %{{.*}}: i32, %{{.*}}: f32, %{{.*}}: !llvm.ptr<1>) {
// CHECK-NEXT: %{{.*}} = llvm.atomicrmw add %{{.*}}, %{{.*}} acq_rel : !llvm.ptr, i32
// CHECK-NEXT: %{{.*}} = llvm.atomicrmw xchg %{{.*}}, %{{.*}} seq_cst : !llvm.ptr, i32
// CHECK-NEXT: %{{.*}} = llvm.atomicrmw _and %{{.*}}, %{{.*}} monotonic : !llvm.ptr, i32
// CHECK-NEXT: %{{.*}} = llvm.atomicrmw umax %{{.*}}, %{{.*}} release : !llvm.ptr, i32
// CHECK-NEXT: %{{.*}} = llvm.atomicrmw fadd %{{.*}}, %{{.*}} monotonic {alignment = 4 : i64} : !llvm.ptr<1>, f32
// CHECK-NEXT: %{{.*}} = llvm.atomicrmw volatile fmax %{{.*}}, %{{.*}} syncscope("agent") acquire : !llvm.ptr, f32
// CHECK-NEXT: %{{.*}} = llvm.atomicrmw usub_sat %{{.*}}, %{{.*}} seq_cst : !llvm.ptr, i32
// CHECK-NEXT: %{{.*}} = llvm.cmpxchg %{{.*}}, %{{.*}}, %{{.*}} acq_rel monotonic : !llvm.ptr, i32
// CHECK-NEXT: %{{.*}} = llvm.cmpxchg weak volatile %{{.*}}, %{{.*}}, %{{.*}} syncscope("block") seq_cst acquire {alignment = 8 : i64} : !llvm.ptr, i32
// CHECK-NEXT: llvm.fence acquire
// CHECK-NEXT: llvm.fence syncscope("agent") seq_cst
// CHECK-NEXT: %{{.*}} = llvm.load volatile %{{.*}} atomic syncscope("agent") acquire {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK-NEXT: %{{.*}} = llvm.load %{{.*}} invariant {alignment = 4 : i64, nontemporal} : !llvm.ptr -> f32
// CHECK-NEXT: llvm.store volatile %{{.*}}, %{{.*}} atomic release {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK-NEXT: llvm.store %{{.*}}, %{{.*}} {nontemporal} : f32, !llvm.ptr
// CHECK-NEXT: llvm.return
// CHECK-NEXT: }
// CHECK-NEXT: }
llvm.func @atomics(%p: !llvm.ptr, %i: i32, %f: f32, %q: !llvm.ptr<1>) {
  %0 = llvm.atomicrmw add %p, %i acq_rel : !llvm.ptr, i32
  %1 = llvm.atomicrmw xchg %p, %i seq_cst : !llvm.ptr, i32
  %2 = llvm.atomicrmw _and %p, %i monotonic : !llvm.ptr, i32
  %3 = llvm.atomicrmw umax %p, %i release : !llvm.ptr, i32
  %4 = llvm.atomicrmw fadd %q, %f monotonic {alignment = 4 : i64} : !llvm.ptr<1>, f32
  %5 = llvm.atomicrmw volatile fmax %p, %f syncscope("agent") acquire : !llvm.ptr, f32
  %6 = llvm.atomicrmw usub_sat %p, %i seq_cst : !llvm.ptr, i32
  %7 = llvm.cmpxchg %p, %i, %i acq_rel monotonic : !llvm.ptr, i32
  %8 = llvm.cmpxchg weak volatile %p, %i, %i syncscope("block") seq_cst acquire {alignment = 8 : i64} : !llvm.ptr, i32
  llvm.fence acquire
  llvm.fence syncscope("agent") seq_cst
  %9 = llvm.load volatile %p atomic syncscope("agent") acquire {alignment = 4 : i64} : !llvm.ptr -> i32
  %10 = llvm.load %p invariant {alignment = 4 : i64, nontemporal} : !llvm.ptr -> f32
  llvm.store volatile %i, %p atomic release {alignment = 4 : i64} : i32, !llvm.ptr
  llvm.store %f, %p {nontemporal} : f32, !llvm.ptr
  llvm.return
}

// -----

// CHECK-LABEL: llvm.func @gep(%{{.*}}: !llvm.ptr, %{{.*}}: i64) {
// CHECK-NEXT: %{{.*}} = llvm.getelementptr inbounds|nuw %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT: %{{.*}} = llvm.getelementptr nusw %{{.*}}[1, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, array<4 x f32>)>
// CHECK-NEXT: %{{.*}} = llvm.getelementptr nuw %{{.*}}[%{{.*}}, 1, %{{.*}}] : (!llvm.ptr, i64, i64) -> !llvm.ptr, !llvm.struct<(i32, array<4 x f32>)>
// CHECK-NEXT: %{{.*}} = llvm.getelementptr inbounds %{{.*}}[0] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT: llvm.return
// CHECK-NEXT: }
// CHECK-NEXT: }
llvm.func @gep(%p: !llvm.ptr, %i: i64) {
  %0 = llvm.getelementptr inbounds|nuw %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %1 = llvm.getelementptr nusw %p[1, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, array<4 x f32>)>
  %2 = llvm.getelementptr nuw %p[%i, 1, %i] : (!llvm.ptr, i64, i64) -> !llvm.ptr, !llvm.struct<(i32, array<4 x f32>)>
  %3 = llvm.getelementptr inbounds %p[0] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.return
}

// -----

// CHECK-LABEL: llvm.func @float_intrinsics(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: vector<4xf64>, %{{.*}}: i32) {
// CHECK-NEXT: %{{.*}} = llvm.intr.fabs(%{{.*}}) : (f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.sqrt(%{{.*}}) {fastmathFlags = #llvm.fastmath<fast>} : (f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.sin(%{{.*}}) : (f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.cos(%{{.*}}) : (f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.tan(%{{.*}}) : (f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.exp(%{{.*}}) : (vector<4xf64>) -> vector<4xf64>
// CHECK-NEXT: %{{.*}} = llvm.intr.exp2(%{{.*}}) : (f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.exp10(%{{.*}}) : (f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.log(%{{.*}}) {fastmathFlags = #llvm.fastmath<nnan, afn>} : (f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.log2(%{{.*}}) : (f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.log10(%{{.*}}) : (f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.floor(%{{.*}}) : (f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.ceil(%{{.*}}) : (f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.trunc(%{{.*}}) : (f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.round(%{{.*}}) : (f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.roundeven(%{{.*}}) : (f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.rint(%{{.*}}) : (f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.nearbyint(%{{.*}}) : (f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.asin(%{{.*}}) : (f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.acos(%{{.*}}) : (f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.atan(%{{.*}}) : (f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.sinh(%{{.*}}) : (f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.cosh(%{{.*}}) : (f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.tanh(%{{.*}}) : (f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.pow(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.copysign(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.minnum(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.maxnum(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.minimum(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.maximum(%{{.*}}, %{{.*}}) : (vector<4xf64>, vector<4xf64>) -> vector<4xf64>
// CHECK-NEXT: %{{.*}} = llvm.intr.atan2(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.fma(%{{.*}}, %{{.*}}, %{{.*}}) : (f32, f32, f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.fmuladd(%{{.*}}, %{{.*}}, %{{.*}}) : (f32, f32, f32) -> f32
// CHECK-NEXT: %{{.*}} = llvm.intr.powi(%{{.*}}, %{{.*}}) : (f32, i32) -> f32
// CHECK-NEXT: %{{.*}} = "llvm.intr.is.fpclass"(%{{.*}}) <{bit = 3 : i32}> : (f32) -> i1
// CHECK-NEXT: %{{.*}} = llvm.intr.lround(%{{.*}}) : (f32) -> i64
// CHECK-NEXT: %{{.*}} = llvm.fcmp "olt" %{{.*}}, %{{.*}} {fastmathFlags = #llvm.fastmath<nnan>} : f32
// CHECK-NEXT: %{{.*}} = llvm.fadd %{{.*}}, %{{.*}} {fastmathFlags = #llvm.fastmath<nnan, ninf>} : f32
// CHECK-NEXT: llvm.return
// CHECK-NEXT: }
// CHECK-NEXT: }
llvm.func @float_intrinsics(%f: f32, %g: f32, %v: vector<4xf64>, %i: i32) {
  %0 = llvm.intr.fabs(%f) : (f32) -> f32
  %1 = llvm.intr.sqrt(%f) {fastmathFlags = #llvm.fastmath<fast>} : (f32) -> f32
  %2 = llvm.intr.sin(%f) : (f32) -> f32
  %3 = llvm.intr.cos(%f) : (f32) -> f32
  %4 = llvm.intr.tan(%f) : (f32) -> f32
  %5 = llvm.intr.exp(%v) : (vector<4xf64>) -> vector<4xf64>
  %6 = llvm.intr.exp2(%f) : (f32) -> f32
  %7 = llvm.intr.exp10(%f) : (f32) -> f32
  %8 = llvm.intr.log(%f) {fastmathFlags = #llvm.fastmath<nnan, afn>} : (f32) -> f32
  %9 = llvm.intr.log2(%f) : (f32) -> f32
  %10 = llvm.intr.log10(%f) : (f32) -> f32
  %11 = llvm.intr.floor(%f) : (f32) -> f32
  %12 = llvm.intr.ceil(%f) : (f32) -> f32
  %13 = llvm.intr.trunc(%f) : (f32) -> f32
  %14 = llvm.intr.round(%f) : (f32) -> f32
  %15 = llvm.intr.roundeven(%f) : (f32) -> f32
  %16 = llvm.intr.rint(%f) : (f32) -> f32
  %17 = llvm.intr.nearbyint(%f) : (f32) -> f32
  %18 = llvm.intr.asin(%f) : (f32) -> f32
  %19 = llvm.intr.acos(%f) : (f32) -> f32
  %20 = llvm.intr.atan(%f) : (f32) -> f32
  %21 = llvm.intr.sinh(%f) : (f32) -> f32
  %22 = llvm.intr.cosh(%f) : (f32) -> f32
  %23 = llvm.intr.tanh(%f) : (f32) -> f32
  %24 = llvm.intr.pow(%f, %g) : (f32, f32) -> f32
  %25 = llvm.intr.copysign(%f, %g) : (f32, f32) -> f32
  %26 = llvm.intr.minnum(%f, %g) : (f32, f32) -> f32
  %27 = llvm.intr.maxnum(%f, %g) : (f32, f32) -> f32
  %28 = llvm.intr.minimum(%f, %g) : (f32, f32) -> f32
  %29 = llvm.intr.maximum(%v, %v) : (vector<4xf64>, vector<4xf64>) -> vector<4xf64>
  %30 = llvm.intr.atan2(%f, %g) : (f32, f32) -> f32
  %31 = llvm.intr.fma(%f, %g, %f) : (f32, f32, f32) -> f32
  %32 = llvm.intr.fmuladd(%f, %g, %f) : (f32, f32, f32) -> f32
  %33 = llvm.intr.powi(%f, %i) : (f32, i32) -> f32
  %34 = "llvm.intr.is.fpclass"(%f) <{bit = 3 : i32}> : (f32) -> i1
  %35 = llvm.intr.lround(%f) : (f32) -> i64
  %36 = llvm.fcmp "olt" %f, %g {fastmathFlags = #llvm.fastmath<nnan>} : f32
  %37 = llvm.fadd %f, %g {fastmathFlags = #llvm.fastmath<nnan, ninf>} : f32
  llvm.return
}

// -----

// CHECK-LABEL: llvm.func @int_intrinsics(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: vector<4xi16>) {
// CHECK-NEXT: %{{.*}} = "llvm.intr.ctlz"(%{{.*}}) <{is_zero_poison = false}> : (i32) -> i32
// CHECK-NEXT: %{{.*}} = "llvm.intr.cttz"(%{{.*}}) <{is_zero_poison = true}> : (i32) -> i32
// CHECK-NEXT: %{{.*}} = llvm.intr.ctpop(%{{.*}}) : (vector<4xi16>) -> vector<4xi16>
// CHECK-NEXT: %{{.*}} = llvm.intr.bitreverse(%{{.*}}) : (i32) -> i32
// CHECK-NEXT: %{{.*}} = llvm.intr.bswap(%{{.*}}) : (i32) -> i32
// CHECK-NEXT: %{{.*}} = "llvm.intr.abs"(%{{.*}}) <{is_int_min_poison = false}> : (i32) -> i32
// CHECK-NEXT: %{{.*}} = llvm.intr.smin(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// CHECK-NEXT: %{{.*}} = llvm.intr.smax(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// CHECK-NEXT: %{{.*}} = llvm.intr.umin(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// CHECK-NEXT: %{{.*}} = llvm.intr.umax(%{{.*}}, %{{.*}}) : (vector<4xi16>, vector<4xi16>) -> vector<4xi16>
// CHECK-NEXT: %{{.*}} = llvm.intr.fshl(%{{.*}}, %{{.*}}, %{{.*}}) : (i32, i32, i32) -> i32
// CHECK-NEXT: %{{.*}} = "llvm.intr.sadd.with.overflow"(%{{.*}}, %{{.*}}) : (i32, i32) -> !llvm.struct<(i32, i1)>
// CHECK-NEXT: %{{.*}} = "llvm.intr.umul.with.overflow"(%{{.*}}, %{{.*}}) : (i32, i32) -> !llvm.struct<(i32, i1)>
// CHECK-NEXT: llvm.return
// CHECK-NEXT: }
// CHECK-NEXT: }
llvm.func @int_intrinsics(%i: i32, %j: i32, %v: vector<4xi16>) {
  %0 = "llvm.intr.ctlz"(%i) <{is_zero_poison = false}> : (i32) -> i32
  %1 = "llvm.intr.cttz"(%i) <{is_zero_poison = true}> : (i32) -> i32
  %2 = llvm.intr.ctpop(%v) : (vector<4xi16>) -> vector<4xi16>
  %3 = llvm.intr.bitreverse(%i) : (i32) -> i32
  %4 = llvm.intr.bswap(%i) : (i32) -> i32
  %5 = "llvm.intr.abs"(%i) <{is_int_min_poison = false}> : (i32) -> i32
  %6 = llvm.intr.smin(%i, %j) : (i32, i32) -> i32
  %7 = llvm.intr.smax(%i, %j) : (i32, i32) -> i32
  %8 = llvm.intr.umin(%i, %j) : (i32, i32) -> i32
  %9 = llvm.intr.umax(%v, %v) : (vector<4xi16>, vector<4xi16>) -> vector<4xi16>
  %10 = llvm.intr.fshl(%i, %j, %i) : (i32, i32, i32) -> i32
  %11 = "llvm.intr.sadd.with.overflow"(%i, %j) : (i32, i32) -> !llvm.struct<(i32, i1)>
  %12 = "llvm.intr.umul.with.overflow"(%i, %j) : (i32, i32) -> !llvm.struct<(i32, i1)>
  llvm.return
}

// -----

// CHECK-LABEL: llvm.func @memory_intrinsics(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i64, %{{.*}}: i8, %{{.*}}: i1) {
// CHECK-NEXT: "llvm.intr.memcpy"(%{{.*}}, %{{.*}}, %{{.*}}) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr<1>, i64) -> ()
// CHECK-NEXT: "llvm.intr.memmove"(%{{.*}}, %{{.*}}, %{{.*}}) <{isVolatile = true}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
// CHECK-NEXT: "llvm.intr.memset"(%{{.*}}, %{{.*}}, %{{.*}}) <{isVolatile = false}> : (!llvm.ptr, i8, i64) -> ()
// CHECK-NEXT: %{{.*}} = llvm.mlir.constant(true) : i1
// CHECK-NEXT: llvm.intr.assume %{{.*}} ["align"(%{{.*}}, %{{.*}} : !llvm.ptr, i64)] : i1
// CHECK-NEXT: llvm.intr.assume %{{.*}} : i1
// CHECK-NEXT: llvm.intr.trap
// CHECK-NEXT: llvm.return
// CHECK-NEXT: }
// CHECK-NEXT: }
llvm.func @memory_intrinsics(%p: !llvm.ptr, %q: !llvm.ptr<1>, %n: i64, %b: i8, %c: i1) {
  "llvm.intr.memcpy"(%p, %q, %n) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr<1>, i64) -> ()
  "llvm.intr.memmove"(%p, %p, %n) <{isVolatile = true}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  "llvm.intr.memset"(%p, %b, %n) <{isVolatile = false}> : (!llvm.ptr, i8, i64) -> ()
  %0 = llvm.mlir.constant(true) : i1
  llvm.intr.assume %0 ["align"(%p, %n : !llvm.ptr, i64)] : i1
  llvm.intr.assume %c : i1
  llvm.intr.trap
  llvm.return
}

// -----

// CHECK: llvm.mlir.global_ctors ctors = [@ctor], priorities = [123 : i32], data = [#llvm.zero]
// CHECK-NEXT: llvm.mlir.global_dtors dtors = [@dtor, @ctor], priorities = [123 : i32, 0 : i32], data = [#llvm.zero, #llvm.zero]
// CHECK-LABEL: llvm.func @ctor() {
// CHECK-NEXT: llvm.return
// CHECK-NEXT: }
// CHECK-LABEL: llvm.func @dtor() {
// CHECK-NEXT: llvm.return
// CHECK-NEXT: }
// CHECK-NEXT: }
llvm.mlir.global_ctors ctors = [@ctor], priorities = [123 : i32], data = [#llvm.zero]
llvm.mlir.global_dtors dtors = [@dtor, @ctor], priorities = [123 : i32, 0 : i32], data = [#llvm.zero, #llvm.zero]
llvm.func @ctor() {
  llvm.return
}
llvm.func @dtor() {
  llvm.return
}

// -----

// CHECK: llvm.mlir.global internal constant @table(dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>) {addr_space = 1 : i32, alignment = 16 : i64, section = ".nv.constant"} : !llvm.array<2 x f32>
// CHECK-NEXT: llvm.mlir.global private unnamed_addr constant @str("hi\00") {addr_space = 0 : i32, dso_local}
// CHECK-NEXT: llvm.mlir.global external @shared() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<32 x f32>
// CHECK-NEXT: llvm.mlir.global external hidden @hid(1 : i32) {addr_space = 0 : i32, dso_local} : i32
// CHECK-NEXT: llvm.mlir.global external hidden thread_local local_unnamed_addr @tls(0 : i32) {addr_space = 0 : i32, externally_initialized} : i32
// CHECK-NEXT: llvm.mlir.global weak protected @w() {addr_space = 0 : i32} : !llvm.struct<(i32, ptr)> {
// CHECK-NEXT: %{{.*}} = llvm.mlir.undef : !llvm.struct<(i32, ptr)>
// CHECK-NEXT: %{{.*}} = llvm.mlir.constant(7 : i32) : i32
// CHECK-NEXT: %{{.*}} = llvm.insertvalue %{{.*}}, %{{.*}}[0] : !llvm.struct<(i32, ptr)>
// CHECK-NEXT: %{{.*}} = llvm.mlir.addressof @str : !llvm.ptr
// CHECK-NEXT: %{{.*}} = llvm.insertvalue %{{.*}}, %{{.*}}[1] : !llvm.struct<(i32, ptr)>
// CHECK-NEXT: llvm.return %{{.*}} : !llvm.struct<(i32, ptr)>
// CHECK-NEXT: }
// CHECK-NEXT: }
llvm.mlir.global internal constant @table(dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>) {addr_space = 1 : i32, alignment = 16 : i64, section = ".nv.constant"} : !llvm.array<2 x f32>
llvm.mlir.global private unnamed_addr constant @str("hi\00") {addr_space = 0 : i32, dso_local}
llvm.mlir.global external @shared() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<32 x f32>
llvm.mlir.global external hidden @hid(1 : i32) {addr_space = 0 : i32, dso_local} : i32
llvm.mlir.global external hidden thread_local local_unnamed_addr @tls(0 : i32) {addr_space = 0 : i32, externally_initialized} : i32
llvm.mlir.global weak protected @w() {addr_space = 0 : i32} : !llvm.struct<(i32, ptr)> {
  %0 = llvm.mlir.undef : !llvm.struct<(i32, ptr)>
  %1 = llvm.mlir.constant(7 : i32) : i32
  %2 = llvm.insertvalue %1, %0[0] : !llvm.struct<(i32, ptr)>
  %3 = llvm.mlir.addressof @str : !llvm.ptr
  %4 = llvm.insertvalue %3, %2[1] : !llvm.struct<(i32, ptr)>
  llvm.return %4 : !llvm.struct<(i32, ptr)>
}

// -----

// CHECK-LABEL: llvm.func linkonce_odr hidden local_unnamed_addr fastcc @f(%{{.*}}: !llvm.ptr {llvm.align = 16 : i64, llvm.noalias}) -> (i32 {llvm.noundef}) attributes {no_inline, passthrough = ["nounwind", ["foo", "bar"]]} {
// CHECK-NEXT: %{{.*}} = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: llvm.return %{{.*}} : i32
// CHECK-NEXT: }
// CHECK-LABEL: llvm.func @g(%{{.*}}: !llvm.ptr) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>} {
// CHECK-NEXT: %{{.*}} = llvm.call fastcc @f(%{{.*}}) : (!llvm.ptr) -> i32
// CHECK-NEXT: llvm.return
// CHECK-NEXT: }
// CHECK-LABEL: llvm.func @ext(f32, ...) -> f32 attributes {sym_visibility = "private"}
// CHECK-LABEL: llvm.func hidden @local() attributes {dso_local} {
// CHECK-NEXT: llvm.return
// CHECK-NEXT: }
// CHECK-NEXT: }
llvm.func linkonce_odr hidden local_unnamed_addr fastcc @f(%arg0: !llvm.ptr {llvm.align = 16 : i64, llvm.noalias}) -> (i32 {llvm.noundef}) attributes {no_inline, passthrough = ["nounwind", ["foo", "bar"]]} {
  %0 = llvm.mlir.constant(1 : i32) : i32
  llvm.return %0 : i32
}
llvm.func @g(%arg0: !llvm.ptr) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>} {
  %0 = llvm.call fastcc @f(%arg0) : (!llvm.ptr) -> i32
  llvm.return
}
llvm.func @ext(f32, ...) -> f32 attributes {sym_visibility = "private"}
llvm.func hidden @local() attributes {dso_local} {
  llvm.return
}

// -----

// CHECK-LABEL: llvm.func @misc(%{{.*}}: f32, %{{.*}}: vector<4xf32>, %{{.*}}: i32) -> f16 {
// CHECK-NEXT: %{{.*}} = llvm.intr.experimental.constrained.fptrunc %{{.*}} tonearest ignore : f32 to f16
// CHECK-NEXT: %{{.*}} = llvm.intr.experimental.constrained.fptrunc %{{.*}} towardzero strict : f32 to f16
// CHECK-NEXT: %{{.*}} = llvm.extractelement %{{.*}}[%{{.*}} : i32] : vector<4xf32>
// CHECK-NEXT: %{{.*}} = llvm.freeze %{{.*}} : i32
// CHECK-NEXT: llvm.return %{{.*}} : f16
// CHECK-NEXT: }
// CHECK-NEXT: }
llvm.func @misc(%a: f32, %v: vector<4xf32>, %i: i32) -> f16 {
  %0 = llvm.intr.experimental.constrained.fptrunc %a tonearest ignore : f32 to f16
  %1 = llvm.intr.experimental.constrained.fptrunc %a towardzero strict : f32 to f16
  %2 = llvm.extractelement %v[%i : i32] : vector<4xf32>
  %3 = llvm.freeze %i : i32
  llvm.return %0 : f16
}

// -----

// CHECK-LABEL: llvm.func @select_sincos(%{{.*}}: vector<4xi1>, %{{.*}}: vector<4xf32>, %{{.*}}: f64) {
// CHECK-NEXT: %{{.*}} = llvm.select %{{.*}}, %{{.*}}, %{{.*}} : vector<4xi1>, vector<4xf32>
// CHECK-NEXT: %{{.*}} = llvm.intr.sincos(%{{.*}}) : (vector<4xf32>) -> !llvm.struct<(vector<4xf32>, vector<4xf32>)>
// CHECK-NEXT: %{{.*}} = llvm.intr.sincos(%{{.*}}) {fastmathFlags = #llvm.fastmath<afn>} : (f64) -> !llvm.struct<(f64, f64)>
// CHECK-NEXT: llvm.return
llvm.func @select_sincos(%c: vector<4xi1>, %v: vector<4xf32>, %d: f64) {
  %0 = llvm.select %c, %v, %v : vector<4xi1>, vector<4xf32>
  %1 = llvm.intr.sincos(%0) : (vector<4xf32>) -> !llvm.struct<(vector<4xf32>, vector<4xf32>)>
  %2 = llvm.intr.sincos(%d) {fastmathFlags = #llvm.fastmath<afn>} : (f64) -> !llvm.struct<(f64, f64)>
  llvm.return
}

// -----

// `#llvm.constant_range` on its own (no nvvm op in the input to load a dialect for
// it); bounds print as signed numbers of the type's width (200 in i8 is -56).
// CHECK-LABEL: llvm.func @constant_range() attributes {range = #llvm.constant_range<i32, 0, 64>, wrapped = #llvm.constant_range<i8, -56, -1>} {
// CHECK-NEXT: llvm.return
llvm.func @constant_range() attributes {range = #llvm.constant_range<i32, 0, 64>, wrapped = #llvm.constant_range<i8, 200, -1>} {
  llvm.return
}
