// RUN: python3 -m xdsl_gpu.targets.llvm_ir %s | filecheck %s
// RUN: python3 -m xdsl_gpu.targets.llvm_ir %s --triple nvptx64-nvidia-cuda | filecheck %s

// The host module's translation, line by line. Block and value names are ours
// (%vN, bbN, %edgeN for the blocks that split a terminator's edges to one block with
// arguments); the module's own triple wins over --triple.
// CHECK: target triple = "x86_64-unknown-linux-gnu"
// CHECK: @table = internal constant [2 x float] [float 0x3FF0000000000000, float 0x3FD0000000000000], section ".rodata.t", align 16
// CHECK-NEXT: @msg = private unnamed_addr constant [4 x i8] c"hi\0A\00"
// CHECK-NEXT: @tls = hidden thread_local global i32 0
// CHECK-NEXT: @ext_g = external global i64
// CHECK-NEXT: @pair = internal global { i32, ptr } { i32 7, ptr @msg }
// CHECK-NEXT: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 123, ptr @init, ptr null }]
// CHECK-LABEL: define void @init() {
// CHECK-NEXT: bb0:
// CHECK-NEXT: ret void
// CHECK-NEXT: }
// CHECK-LABEL: declare i32 @puts(ptr)
// CHECK-LABEL: define i32 @arith(i32 %arg0, i32 %arg1, float %arg2, double %arg3) {
// CHECK-NEXT: bb0:
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = add nuw nsw i32 %arg0, %arg1
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = sdiv exact i32 %{{[a-z]+[0-9]+}}, %arg1
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = or disjoint i32 %{{[a-z]+[0-9]+}}, %arg0
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = fadd nnan ninf float %arg2, %arg2
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = fmul fast float %arg2, %arg2
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = fcmp uno float %arg2, %{{[a-z]+[0-9]+}}
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = icmp ult i32 %arg0, %arg1
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = select i1 %{{[a-z]+[0-9]+}}, i32 %arg0, i32 %{{[a-z]+[0-9]+}}
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = zext nneg i32 %arg0 to i64
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = trunc nuw i64 %{{[a-z]+[0-9]+}} to i16
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = uitofp nneg i32 %arg0 to float
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = fptrunc double %arg3 to bfloat
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = fadd float %arg2, 0x3FB99999A0000000
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = call i32 @llvm.ctlz.i32(i32 %arg0, i1 false)
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = call float @llvm.powi.f32.i32(float %arg2, i32 %arg0)
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = call { i32, i1 } @llvm.uadd.with.overflow.i32(i32 %arg0, i32 %arg1)
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = call afn float @llvm.sqrt.f32(float %arg2)
// CHECK-NEXT: ret i32 %{{[a-z]+[0-9]+}}
// CHECK-NEXT: }
// CHECK-LABEL: define void @memory(ptr noalias align 16 %arg0, ptr addrspace(1) %arg1, i64 %arg2, i32 %arg3) {
// CHECK-NEXT: bb0:
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = getelementptr inbounds nuw float, ptr %arg0, i64 %arg2
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = getelementptr { i32, double }, ptr %arg0, i32 0, i32 1
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = load float, ptr %{{[a-z]+[0-9]+}}, align 4
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = load atomic volatile i32, ptr %arg0 syncscope("agent") acquire, align 4
// CHECK-NEXT: store atomic i32 %{{[a-z]+[0-9]+}}, ptr %arg0 release, align 4
// CHECK-NEXT: store float %{{[a-z]+[0-9]+}}, ptr %{{[a-z]+[0-9]+}}, !nontemporal !0
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = atomicrmw umax ptr %arg0, i32 %arg3 seq_cst, align 4
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = atomicrmw fadd ptr addrspace(1) %arg1, float %{{[a-z]+[0-9]+}} monotonic, align 4
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = cmpxchg weak ptr %arg0, i32 %arg3, i32 %{{[a-z]+[0-9]+}} syncscope("block") acq_rel monotonic, align 4
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = extractvalue { i32, i1 } %{{[a-z]+[0-9]+}}, 1
// CHECK-NEXT: fence syncscope("agent") seq_cst
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = addrspacecast ptr addrspace(1) %arg1 to ptr
// CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %arg0, ptr %{{[a-z]+[0-9]+}}, i64 %arg2, i1 false)
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = alloca double, i64 %arg2, align 8
// CHECK-NEXT: call void @llvm.assume(i1 true) [ "align"(ptr %arg0, i64 %arg2) ]
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = call i32 @puts(ptr @msg)
// CHECK-NEXT: ret void
// CHECK-NEXT: }
// CHECK-LABEL: define i32 @branches(i1 %arg0, i32 %arg1) {
// CHECK-NEXT: bb0:
// CHECK-NEXT: br i1 %arg0, label %{{[a-z]+[0-9]+}}, label %{{[a-z]+[0-9]+}}
// CHECK-NEXT: bb1:
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = phi i32 [ %arg1, %{{[a-z]+[0-9]+}} ], [ %arg1, %{{[a-z]+[0-9]+}} ]
// CHECK-NEXT: switch i32 %{{[a-z]+[0-9]+}}, label %{{[a-z]+[0-9]+}} [
// CHECK-NEXT: i32 1, label %{{[a-z]+[0-9]+}}
// CHECK-NEXT: i32 -2, label %bb3
// CHECK-NEXT: ]
// CHECK-NEXT: bb2:
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = phi i32 [ %{{[a-z]+[0-9]+}}, %{{[a-z]+[0-9]+}} ], [ %arg1, %{{[a-z]+[0-9]+}} ]
// CHECK-NEXT: ret i32 %{{[a-z]+[0-9]+}}
// CHECK-NEXT: bb3:
// CHECK-NEXT: unreachable
// CHECK-NEXT: edge3:
// CHECK-NEXT: br label %bb1
// CHECK-NEXT: edge4:
// CHECK-NEXT: br label %bb1
// CHECK-NEXT: edge5:
// CHECK-NEXT: br label %bb2
// CHECK-NEXT: edge6:
// CHECK-NEXT: br label %bb2
// CHECK-NEXT: }
// CHECK-LABEL: define void @select_sincos(<4 x i1> %{{.*}}, <4 x float> %{{.*}}, double %{{.*}})
// CHECK: select <4 x i1> %{{.*}}, <4 x float> %{{.*}}, <4 x float> %{{.*}}
// CHECK: call { <4 x float>, <4 x float> } @llvm.sincos.v4f32(<4 x float>
// CHECK: call afn { double, double } @llvm.sincos.f64(double
// CHECK: declare i32 @llvm.ctlz.i32(i32, i1)
// CHECK-NEXT: declare float @llvm.powi.f32.i32(float, i32)
// CHECK-NEXT: declare { i32, i1 } @llvm.uadd.with.overflow.i32(i32, i32)
// CHECK-NEXT: declare float @llvm.sqrt.f32(float)
// CHECK-NEXT: declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
// CHECK-NEXT: declare void @llvm.assume(i1)
// CHECK-NEXT: declare { <4 x float>, <4 x float> } @llvm.sincos.v4f32(<4 x float>)
// CHECK-NEXT: declare { double, double } @llvm.sincos.f64(double)
// CHECK-NEXT: !0 = !{i32 1}

module attributes {llvm.target_triple = "x86_64-unknown-linux-gnu"} {
  llvm.mlir.global_ctors ctors = [@init], priorities = [123 : i32], data = [#llvm.zero]
  llvm.mlir.global internal constant @table(dense<[1.000000e+00, 2.500000e-01]> : tensor<2xf32>) {addr_space = 0 : i32, alignment = 16 : i64, section = ".rodata.t"} : !llvm.array<2 x f32>
  llvm.mlir.global private unnamed_addr constant @msg("hi\0A\00") {addr_space = 0 : i32}
  llvm.mlir.global external hidden thread_local @tls(0 : i32) {addr_space = 0 : i32} : i32
  llvm.mlir.global external @ext_g() {addr_space = 0 : i32} : i64
  llvm.mlir.global internal @pair() {addr_space = 0 : i32} : !llvm.struct<(i32, ptr)> {
    %0 = llvm.mlir.undef : !llvm.struct<(i32, ptr)>
    %1 = llvm.mlir.constant(7 : i32) : i32
    %2 = llvm.insertvalue %1, %0[0] : !llvm.struct<(i32, ptr)>
    %3 = llvm.mlir.addressof @msg : !llvm.ptr
    %4 = llvm.insertvalue %3, %2[1] : !llvm.struct<(i32, ptr)>
    llvm.return %4 : !llvm.struct<(i32, ptr)>
  }
  llvm.func @init() {
    llvm.return
  }
  llvm.func @puts(!llvm.ptr) -> i32
  llvm.func @arith(%a: i32, %b: i32, %x: f32, %y: f64) -> i32 {
    %0 = llvm.add %a, %b overflow<nsw, nuw> : i32
    %1 = llvm.sdiv exact %0, %b : i32
    %2 = llvm.or disjoint %1, %a : i32
    %3 = llvm.fadd %x, %x {fastmathFlags = #llvm.fastmath<nnan, ninf>} : f32
    %4 = llvm.fmul %x, %x {fastmathFlags = #llvm.fastmath<fast>} : f32
    %5 = llvm.fcmp "uno" %x, %3 : f32
    %6 = llvm.icmp "ult" %a, %b : i32
    %7 = llvm.select %6, %a, %2 : i1, i32
    %8 = llvm.zext nneg %a : i32 to i64
    %9 = llvm.trunc %8 overflow<nuw> : i64 to i16
    %10 = llvm.uitofp nneg %a : i32 to f32
    %11 = llvm.fptrunc %y : f64 to bf16
    %12 = llvm.mlir.constant(1.000000e-01 : f32) : f32
    %13 = llvm.fadd %x, %12 : f32
    %14 = llvm.mlir.constant(dense<[1, 2]> : vector<2xi32>) : vector<2xi32>
    %15 = llvm.mlir.constant(true) : i1
    %16 = "llvm.intr.ctlz"(%a) <{is_zero_poison = false}> : (i32) -> i32
    %17 = llvm.intr.powi(%x, %a) : (f32, i32) -> f32
    %18 = "llvm.intr.uadd.with.overflow"(%a, %b) : (i32, i32) -> !llvm.struct<(i32, i1)>
    %19 = llvm.intr.sqrt(%x) {fastmathFlags = #llvm.fastmath<afn>} : (f32) -> f32
    llvm.return %7 : i32
  }
  llvm.func @memory(%p: !llvm.ptr {llvm.noalias, llvm.align = 16 : i64}, %q: !llvm.ptr<1>, %i: i64, %v: i32) {
    %0 = llvm.getelementptr inbounds|nuw %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %1 = llvm.getelementptr %p[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, f64)>
    %2 = llvm.load %0 {alignment = 4 : i64} : !llvm.ptr -> f32
    %3 = llvm.load volatile %p atomic syncscope("agent") acquire {alignment = 4 : i64} : !llvm.ptr -> i32
    llvm.store %3, %p atomic release {alignment = 4 : i64} : i32, !llvm.ptr
    llvm.store %2, %0 {nontemporal} : f32, !llvm.ptr
    %4 = llvm.atomicrmw umax %p, %v seq_cst : !llvm.ptr, i32
    %5 = llvm.atomicrmw fadd %q, %2 monotonic : !llvm.ptr<1>, f32
    %6 = llvm.cmpxchg weak %p, %v, %4 syncscope("block") acq_rel monotonic : !llvm.ptr, i32
    %7 = llvm.extractvalue %6[1] : !llvm.struct<(i32, i1)>
    llvm.fence syncscope("agent") seq_cst
    %8 = llvm.addrspacecast %q : !llvm.ptr<1> to !llvm.ptr
    "llvm.intr.memcpy"(%p, %8, %i) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
    %9 = llvm.alloca %i x f64 {alignment = 8 : i64} : (i64) -> !llvm.ptr
    %t = llvm.mlir.constant(true) : i1
    llvm.intr.assume %t ["align"(%p, %i : !llvm.ptr, i64)] : i1
    %10 = llvm.mlir.addressof @msg : !llvm.ptr
    %11 = llvm.call @puts(%10) : (!llvm.ptr) -> i32
    llvm.return
  }
  llvm.func @branches(%c: i1, %x: i32) -> i32 {
    llvm.cond_br %c, ^bb1(%x : i32), ^bb1(%x : i32)
  ^bb1(%a: i32):
    llvm.switch %a : i32, ^bb2(%a : i32) [
      1: ^bb2(%x : i32),
      -2: ^bb3
    ]
  ^bb2(%b: i32):
    llvm.return %b : i32
  ^bb3:
    llvm.unreachable
  }
  llvm.func @select_sincos(%c: vector<4xi1>, %v: vector<4xf32>, %d: f64) {
    %0 = llvm.select %c, %v, %v : vector<4xi1>, vector<4xf32>
    %1 = llvm.intr.sincos(%0) : (vector<4xf32>) -> !llvm.struct<(vector<4xf32>, vector<4xf32>)>
    %2 = llvm.intr.sincos(%d) {fastmathFlags = #llvm.fastmath<afn>} : (f64) -> !llvm.struct<(f64, f64)>
    llvm.return
  }
}
