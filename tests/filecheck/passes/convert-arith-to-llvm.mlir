// RUN: xdsl-opt %s -p convert-arith-to-llvm | filecheck %s
// RUN: xdsl-opt %s -p 'convert-arith-to-llvm{index-bitwidth=32}' | filecheck %s --check-prefix=IDX32

// CHECK-LABEL: func.func @integers
// CHECK-SAME: (%a: i32, %b: i32)
func.func @integers(%a: i32, %b: i32) -> i32 {
  // CHECK-NEXT: %0 = llvm.add %a, %b overflow<nsw> : i32
  %0 = arith.addi %a, %b overflow<nsw> : i32
  // CHECK-NEXT: %1 = llvm.sub %a, %b : i32
  %1 = arith.subi %a, %b : i32
  // CHECK-NEXT: %2 = llvm.mul %a, %b overflow<nsw, nuw> : i32
  %2 = arith.muli %a, %b overflow<nsw, nuw> : i32
  // CHECK-NEXT: %3 = llvm.sdiv %a, %b : i32
  %3 = arith.divsi %a, %b : i32
  // CHECK-NEXT: %4 = llvm.udiv %a, %b : i32
  %4 = arith.divui %a, %b : i32
  // CHECK-NEXT: %5 = llvm.srem %a, %b : i32
  %5 = arith.remsi %a, %b : i32
  // CHECK-NEXT: %6 = llvm.urem %a, %b : i32
  %6 = arith.remui %a, %b : i32
  // CHECK-NEXT: %7 = llvm.and %a, %b : i32
  %7 = arith.andi %a, %b : i32
  // CHECK-NEXT: %8 = llvm.or %a, %b : i32
  %8 = arith.ori %a, %b : i32
  // CHECK-NEXT: %9 = llvm.xor %a, %b : i32
  %9 = arith.xori %a, %b : i32
  // CHECK-NEXT: %10 = llvm.shl %a, %b overflow<nuw> : i32
  %10 = arith.shli %a, %b overflow<nuw> : i32
  // CHECK-NEXT: %11 = llvm.ashr %a, %b : i32
  %11 = arith.shrsi %a, %b : i32
  // CHECK-NEXT: %12 = llvm.lshr %a, %b : i32
  %12 = arith.shrui %a, %b : i32
  // CHECK-NEXT: %13 = llvm.intr.smax(%a, %b) : (i32, i32) -> i32
  %13 = arith.maxsi %a, %b : i32
  // CHECK-NEXT: %14 = llvm.intr.smin(%a, %b) : (i32, i32) -> i32
  %14 = arith.minsi %a, %b : i32
  // CHECK-NEXT: %15 = llvm.intr.umax(%a, %b) : (i32, i32) -> i32
  %15 = arith.maxui %a, %b : i32
  // CHECK-NEXT: %16 = llvm.intr.umin(%a, %b) : (i32, i32) -> i32
  %16 = arith.minui %a, %b : i32
  // CHECK-NEXT: %17 = llvm.icmp "slt" %a, %b : i32
  %17 = arith.cmpi slt, %a, %b : i32
  // CHECK-NEXT: %18 = llvm.icmp "uge" %a, %b : i32
  %18 = arith.cmpi uge, %a, %b : i32
  // CHECK-NEXT: %19 = llvm.select %17, %a, %b : i1, i32
  %19 = arith.select %17, %a, %b : i32
  // CHECK-NEXT: func.return %19 : i32
  func.return %19 : i32
}

// CHECK-LABEL: func.func @floats
func.func @floats(%a: f32, %b: f32, %d: f64) -> f32 {
  // CHECK-NEXT: %0 = llvm.fadd %a, %b {fastmathFlags = #llvm.fastmath<fast>} : f32
  %0 = arith.addf %a, %b fastmath<fast> : f32
  // CHECK-NEXT: %1 = llvm.fsub %a, %b : f32
  %1 = arith.subf %a, %b : f32
  // CHECK-NEXT: %2 = llvm.fmul %a, %b {fastmathFlags = #llvm.fastmath<nnan,{{ ?}}ninf>} : f32
  %2 = arith.mulf %a, %b fastmath<nnan, ninf> : f32
  // CHECK-NEXT: %3 = llvm.fdiv %a, %b : f32
  %3 = arith.divf %a, %b : f32
  // CHECK-NEXT: %4 = llvm.frem %a, %b : f32
  %4 = arith.remf %a, %b : f32
  // CHECK-NEXT: %5 = llvm.fneg %a {fastmathFlags = #llvm.fastmath<nsz>} : f32
  %5 = arith.negf %a fastmath<nsz> : f32
  // CHECK-NEXT: %6 = llvm.intr.maximum(%a, %b) : (f32, f32) -> f32
  %6 = arith.maximumf %a, %b : f32
  // CHECK-NEXT: %7 = llvm.intr.minimum(%a, %b) : (f32, f32) -> f32
  %7 = arith.minimumf %a, %b : f32
  // CHECK-NEXT: %8 = llvm.intr.maxnum(%a, %b) {fastmathFlags = #llvm.fastmath<nnan>} : (f32, f32) -> f32
  %8 = arith.maxnumf %a, %b fastmath<nnan> : f32
  // CHECK-NEXT: %9 = llvm.intr.minnum(%a, %b) : (f32, f32) -> f32
  %9 = arith.minnumf %a, %b : f32
  func.return %0 : f32
}

// Every cmpf predicate, fastmath kept.
// CHECK-LABEL: func.func @cmpf
func.func @cmpf(%a: f64, %b: f64) {
  // CHECK-NEXT: llvm.fcmp "_false" %a, %b : f64
  // CHECK-NEXT: llvm.fcmp "oeq" %a, %b : f64
  // CHECK-NEXT: llvm.fcmp "ogt" %a, %b : f64
  // CHECK-NEXT: llvm.fcmp "oge" %a, %b : f64
  // CHECK-NEXT: llvm.fcmp "olt" %a, %b {fastmathFlags = #llvm.fastmath<fast>} : f64
  // CHECK-NEXT: llvm.fcmp "ole" %a, %b : f64
  // CHECK-NEXT: llvm.fcmp "one" %a, %b : f64
  // CHECK-NEXT: llvm.fcmp "ord" %a, %b : f64
  // CHECK-NEXT: llvm.fcmp "ueq" %a, %b : f64
  // CHECK-NEXT: llvm.fcmp "ugt" %a, %b : f64
  // CHECK-NEXT: llvm.fcmp "uge" %a, %b : f64
  // CHECK-NEXT: llvm.fcmp "ult" %a, %b : f64
  // CHECK-NEXT: llvm.fcmp "ule" %a, %b : f64
  // CHECK-NEXT: llvm.fcmp "une" %a, %b : f64
  // CHECK-NEXT: llvm.fcmp "uno" %a, %b : f64
  // CHECK-NEXT: llvm.fcmp "_true" %a, %b : f64
  %0 = arith.cmpf false, %a, %b : f64
  %1 = arith.cmpf oeq, %a, %b : f64
  %2 = arith.cmpf ogt, %a, %b : f64
  %3 = arith.cmpf oge, %a, %b : f64
  %4 = arith.cmpf olt, %a, %b fastmath<fast> : f64
  %5 = arith.cmpf ole, %a, %b : f64
  %6 = arith.cmpf one, %a, %b : f64
  %7 = arith.cmpf ord, %a, %b : f64
  %8 = arith.cmpf ueq, %a, %b : f64
  %9 = arith.cmpf ugt, %a, %b : f64
  %10 = arith.cmpf uge, %a, %b : f64
  %11 = arith.cmpf ult, %a, %b : f64
  %12 = arith.cmpf ule, %a, %b : f64
  %13 = arith.cmpf une, %a, %b : f64
  %14 = arith.cmpf uno, %a, %b : f64
  %15 = arith.cmpf true, %a, %b : f64
  func.return
}

// CHECK-LABEL: func.func @casts
func.func @casts(%i: i32, %f: f32, %h: f16, %d: f64, %bf: bf16) {
  // CHECK-NEXT: llvm.sext %i : i32 to i64
  %0 = arith.extsi %i : i32 to i64
  // CHECK-NEXT: llvm.zext %i : i32 to i64
  %1 = arith.extui %i : i32 to i64
  // CHECK-NEXT: llvm.trunc %i : i32 to i8
  %2 = arith.trunci %i : i32 to i8
  // CHECK-NEXT: llvm.sitofp %i : i32 to f32
  %3 = arith.sitofp %i : i32 to f32
  // CHECK-NEXT: llvm.uitofp %i : i32 to f64
  %4 = arith.uitofp %i : i32 to f64
  // CHECK-NEXT: llvm.fptosi %f : f32 to i16
  %5 = arith.fptosi %f : f32 to i16
  // CHECK-NEXT: llvm.fptoui %f : f32 to i64
  %6 = arith.fptoui %f : f32 to i64
  // CHECK-NEXT: llvm.fpext %h : f16 to f32
  %7 = arith.extf %h : f16 to f32
  // CHECK-NEXT: llvm.fpext %bf : bf16 to f64
  %8 = arith.extf %bf : bf16 to f64
  // CHECK-NEXT: llvm.fptrunc %d : f64 to f32
  %9 = arith.truncf %d : f64 to f32
  // CHECK-NEXT: llvm.bitcast %f : f32 to i32
  %10 = arith.bitcast %f : f32 to i32
  func.return
}

// index_cast sign-extends, index_castui zero-extends; a cast between equal widths
// disappears (with index-bitwidth=32, i32 <-> index is free).
// CHECK-LABEL: func.func @index_casts
// IDX32-LABEL: func.func @index_casts
func.func @index_casts(%i: i32, %x: index) -> (index, index, i32, i64) {
  // CHECK-NEXT: %0 = builtin.unrealized_conversion_cast %x : index to i64
  // CHECK-NEXT: %1 = llvm.sext %i : i32 to i64
  // CHECK-NEXT: %2 = builtin.unrealized_conversion_cast %1 : i64 to index
  // CHECK-NEXT: %3 = llvm.zext %i : i32 to i64
  // CHECK-NEXT: %4 = builtin.unrealized_conversion_cast %3 : i64 to index
  // CHECK-NEXT: %5 = llvm.trunc %0 : i64 to i32
  // CHECK-NEXT: func.return %2, %4, %5, %0 : index, index, i32, i64
  // IDX32-NEXT: %0 = builtin.unrealized_conversion_cast %x : index to i32
  // IDX32-NEXT: %1 = builtin.unrealized_conversion_cast %i : i32 to index
  // IDX32-NEXT: %2 = builtin.unrealized_conversion_cast %i : i32 to index
  // IDX32-NEXT: %3 = llvm.zext %0 : i32 to i64
  // IDX32-NEXT: func.return %1, %2, %0, %3 : index, index, i32, i64
  %0 = arith.index_cast %i : i32 to index
  %1 = arith.index_castui %i : i32 to index
  %2 = arith.index_cast %x : index to i32
  %3 = arith.index_castui %x : index to i64
  func.return %0, %1, %2, %3 : index, index, i32, i64
}

// Index arithmetic runs on iN; the operands are cast once, where they are defined.
// CHECK-LABEL: func.func @index_math
// IDX32-LABEL: func.func @index_math
func.func @index_math(%x: index, %y: index) -> index {
  // CHECK-NEXT: %0 = builtin.unrealized_conversion_cast %y : index to i64
  // CHECK-NEXT: %1 = builtin.unrealized_conversion_cast %x : index to i64
  // CHECK-NEXT: %2 = llvm.add %1, %0 : i64
  // CHECK-NEXT: %3 = llvm.mul %2, %0 : i64
  // CHECK-NEXT: %4 = builtin.unrealized_conversion_cast %3 : i64 to index
  // CHECK-NEXT: func.return %4 : index
  // IDX32:      llvm.add %{{.*}}, %{{.*}} : i32
  // IDX32-NEXT: llvm.mul %{{.*}}, %{{.*}} : i32
  %0 = arith.addi %x, %y : index
  %1 = arith.muli %0, %y : index
  func.return %1 : index
}

// CHECK-LABEL: func.func @constants
// IDX32-LABEL: func.func @constants
func.func @constants() {
  // CHECK-NEXT: llvm.mlir.constant(42 : i32) : i32
  %0 = arith.constant 42 : i32
  // CHECK-NEXT: llvm.mlir.constant(-1 : i8) : i8
  %1 = arith.constant -1 : i8
  // CHECK-NEXT: llvm.mlir.constant(true) : i1
  %2 = arith.constant true
  // CHECK-NEXT: llvm.mlir.constant(3 : index) : i64
  // IDX32:      llvm.mlir.constant(3 : index) : i32
  %3 = arith.constant 3 : index
  // CHECK-NEXT: llvm.mlir.constant(1.500000e+00 : f32) : f32
  %4 = arith.constant 1.5 : f32
  // CHECK-NEXT: llvm.mlir.constant(1.000000e+300 : f64) : f64
  %5 = arith.constant 1.0e300 : f64
  // CHECK-NEXT: llvm.mlir.constant(1.000000e+00 : f16) : f16
  %6 = arith.constant 1.0 : f16
  // CHECK-NEXT: llvm.mlir.constant(-2.000000e+00 : bf16) : bf16
  %7 = arith.constant -2.0 : bf16
  // CHECK-NEXT: llvm.mlir.constant(0x7FC00000 : f32) : f32
  %8 = arith.constant 0x7FC00000 : f32
  // CHECK-NEXT: llvm.mlir.constant(dense<[1.000000e+00, 2.000000e+00]> : vector<2xf32>) : vector<2xf32>
  %9 = arith.constant dense<[1.0, 2.0]> : vector<2xf32>
  // CHECK-NEXT: llvm.mlir.constant(dense<7> : vector<4xindex>) : vector<4xi64>
  %10 = arith.constant dense<7> : vector<4xindex>
  // CHECK-NEXT: llvm.mlir.constant(dense<{{\[\[}}1, 2], [3, 4]]> : vector<2x2xi32>) : !llvm.array<2 x vector<2xi32>>
  %11 = arith.constant dense<[[1, 2], [3, 4]]> : vector<2x2xi32>
  // CHECK-NEXT: llvm.mlir.constant(123456789012) : i64
  %12 = arith.constant 123456789012 : i64
  func.return
}

// Upstream's expansions of ceildivsi, floordivsi and ceildivui.
// CHECK-LABEL: func.func @divisions
func.func @divisions(%a: i32, %b: i32) {
  // ceildivsi: q = a / b, plus one if inexact and the signs agree.
  // CHECK-NEXT: %0 = llvm.mlir.constant(0 : i32) : i32
  // CHECK-NEXT: %1 = llvm.mlir.constant(1 : i32) : i32
  // CHECK-NEXT: %2 = llvm.sdiv %a, %b : i32
  // CHECK-NEXT: %3 = llvm.mul %2, %b : i32
  // CHECK-NEXT: %4 = llvm.icmp "ne" %a, %3 : i32
  // CHECK-NEXT: %5 = llvm.icmp "slt" %a, %0 : i32
  // CHECK-NEXT: %6 = llvm.icmp "slt" %b, %0 : i32
  // CHECK-NEXT: %7 = llvm.icmp "eq" %5, %6 : i1
  // CHECK-NEXT: %8 = llvm.and %4, %7 : i1
  // CHECK-NEXT: %9 = llvm.add %2, %1 : i32
  // CHECK-NEXT: %10 = llvm.select %8, %9, %2 : i1, i32
  %0 = arith.ceildivsi %a, %b : i32
  // floordivsi: minus one if inexact and the signs differ.
  // CHECK-NEXT: %11 = llvm.sdiv %a, %b : i32
  // CHECK-NEXT: %12 = llvm.mul %11, %b : i32
  // CHECK-NEXT: %13 = llvm.icmp "ne" %a, %12 : i32
  // CHECK-NEXT: %14 = llvm.mlir.constant(0 : i32) : i32
  // CHECK-NEXT: %15 = llvm.icmp "slt" %a, %14 : i32
  // CHECK-NEXT: %16 = llvm.icmp "slt" %b, %14 : i32
  // CHECK-NEXT: %17 = llvm.icmp "ne" %15, %16 : i1
  // CHECK-NEXT: %18 = llvm.and %13, %17 : i1
  // CHECK-NEXT: %19 = llvm.mlir.constant(-1 : i32) : i32
  // CHECK-NEXT: %20 = llvm.add %11, %19 : i32
  // CHECK-NEXT: %21 = llvm.select %18, %20, %11 : i1, i32
  %1 = arith.floordivsi %a, %b : i32
  // ceildivui: a == 0 ? 0 : (a - 1) / b + 1
  // CHECK-NEXT: %22 = llvm.mlir.constant(0 : i32) : i32
  // CHECK-NEXT: %23 = llvm.icmp "eq" %a, %22 : i32
  // CHECK-NEXT: %24 = llvm.mlir.constant(1 : i32) : i32
  // CHECK-NEXT: %25 = llvm.sub %a, %24 : i32
  // CHECK-NEXT: %26 = llvm.udiv %25, %b : i32
  // CHECK-NEXT: %27 = llvm.add %26, %24 : i32
  // CHECK-NEXT: %28 = llvm.select %23, %22, %27 : i1, i32
  %2 = arith.ceildivui %a, %b : i32
  func.return
}

// CHECK-LABEL: func.func @extended
func.func @extended(%a: i32, %b: i32) -> (i32, i1, i32, i32, i32, i32) {
  // CHECK-NEXT: %[[ADD:.*]] = "llvm.intr.uadd.with.overflow"(%a, %b) : (i32, i32) -> !llvm.struct<(i32, i1)>
  // CHECK-NEXT: %[[SUM:.*]] = llvm.extractvalue %[[ADD]][0] : !llvm.struct<(i32, i1)>
  // CHECK-NEXT: %[[OVF:.*]] = llvm.extractvalue %[[ADD]][1] : !llvm.struct<(i32, i1)>
  %s, %o = arith.addui_extended %a, %b : i32, i1
  // CHECK-NEXT: %[[A64:.*]] = llvm.zext %a : i32 to i64
  // CHECK-NEXT: %[[B64:.*]] = llvm.zext %b : i32 to i64
  // CHECK-NEXT: %[[PROD:.*]] = llvm.mul %[[A64]], %[[B64]] : i64
  // CHECK-NEXT: %[[LOW:.*]] = llvm.trunc %[[PROD]] : i64 to i32
  // CHECK-NEXT: %[[C32:.*]] = llvm.mlir.constant(32) : i64
  // CHECK-NEXT: %[[SHIFT:.*]] = llvm.lshr %[[PROD]], %[[C32]] : i64
  // CHECK-NEXT: %[[HIGH:.*]] = llvm.trunc %[[SHIFT]] : i64 to i32
  %lu, %hu = arith.mului_extended %a, %b : i32
  // CHECK-NEXT: llvm.sext %a : i32 to i64
  // CHECK-NEXT: llvm.sext %b : i32 to i64
  // CHECK-NEXT: llvm.mul
  // CHECK-NEXT: llvm.trunc
  // CHECK-NEXT: llvm.mlir.constant(32) : i64
  // CHECK-NEXT: llvm.lshr
  // CHECK-NEXT: llvm.trunc
  %ls, %hs = arith.mulsi_extended %a, %b : i32
  // CHECK-NEXT: func.return %[[SUM]], %[[OVF]], %[[LOW]], %[[HIGH]], %{{.*}}, %{{.*}} : i32, i1, i32, i32, i32, i32
  func.return %s, %o, %lu, %hu, %ls, %hs : i32, i1, i32, i32, i32, i32
}

// 1-D vectors map to LLVM vectors; n-D vectors are arrays of 1-D vectors, lowered
// one row at a time.
// CHECK-LABEL: func.func @vectors
func.func @vectors(%v: vector<4xi32>, %m: vector<2x3xf32>) -> vector<2x3xf32> {
  // CHECK-NEXT: %0 = builtin.unrealized_conversion_cast %m : vector<2x3xf32> to !llvm.array<2 x vector<3xf32>>
  // CHECK-NEXT: %1 = llvm.add %v, %v : vector<4xi32>
  %0 = arith.addi %v, %v : vector<4xi32>
  // CHECK-NEXT: %2 = llvm.mlir.poison : !llvm.array<2 x vector<3xf32>>
  // CHECK-NEXT: %3 = llvm.extractvalue %0[0] : !llvm.array<2 x vector<3xf32>>
  // CHECK-NEXT: %4 = llvm.extractvalue %0[0] : !llvm.array<2 x vector<3xf32>>
  // CHECK-NEXT: %5 = llvm.fmul %3, %4 : vector<3xf32>
  // CHECK-NEXT: %6 = llvm.insertvalue %5, %2[0] : !llvm.array<2 x vector<3xf32>>
  // CHECK-NEXT: %7 = llvm.extractvalue %0[1] : !llvm.array<2 x vector<3xf32>>
  // CHECK-NEXT: %8 = llvm.extractvalue %0[1] : !llvm.array<2 x vector<3xf32>>
  // CHECK-NEXT: %9 = llvm.fmul %7, %8 : vector<3xf32>
  // CHECK-NEXT: %10 = llvm.insertvalue %9, %6[1] : !llvm.array<2 x vector<3xf32>>
  // CHECK-NEXT: %11 = builtin.unrealized_conversion_cast %10 : !llvm.array<2 x vector<3xf32>> to vector<2x3xf32>
  // CHECK-NEXT: func.return %11 : vector<2x3xf32>
  %1 = arith.mulf %m, %m : vector<2x3xf32>
  func.return %1 : vector<2x3xf32>
}

// Ops of other dialects are left alone, with casts at the boundary.
// CHECK-LABEL: func.func @boundary
func.func @boundary(%x: index) -> index {
  // CHECK-NEXT: %0 = builtin.unrealized_conversion_cast %x : index to i64
  // CHECK-NEXT: %c1 = llvm.mlir.constant(1 : index) : i64
  // CHECK-NEXT: %1 = llvm.add %0, %c1 : i64
  // CHECK-NEXT: %2 = builtin.unrealized_conversion_cast %1 : i64 to index
  // CHECK-NEXT: %3 = "test.op"(%2) : (index) -> index
  // CHECK-NEXT: func.return %3 : index
  %c1 = arith.constant 1 : index
  %0 = arith.addi %x, %c1 : index
  %1 = "test.op"(%0) : (index) -> index
  func.return %1 : index
}

// Casts and select on vectors (upstream accepts them; xDSL's ops took scalars only):
// 1-D vectors directly, n-D vectors one row at a time, a vector condition elementwise.
// CHECK-LABEL: func.func @vector_casts
func.func @vector_casts(%i: vector<4xi8>, %f: vector<4xf32>, %c: vector<4xi1>, %x: vector<4xindex>, %m: vector<2x3xi32>, %s: i1) -> vector<2x3xindex> {
  // CHECK-NEXT: %[[M:.*]] = builtin.unrealized_conversion_cast %m : vector<2x3xi32> to !llvm.array<2 x vector<3xi32>>
  // CHECK-NEXT: %[[X:.*]] = builtin.unrealized_conversion_cast %x : vector<4xindex> to vector<4xi64>
  // CHECK-NEXT: %[[SE:.*]] = llvm.sext %i : vector<4xi8> to vector<4xi32>
  %0 = arith.extsi %i : vector<4xi8> to vector<4xi32>
  // CHECK-NEXT: %[[ZE:.*]] = llvm.zext %i : vector<4xi8> to vector<4xi32>
  %1 = arith.extui %i : vector<4xi8> to vector<4xi32>
  // CHECK-NEXT: llvm.trunc %[[SE]] : vector<4xi32> to vector<4xi8>
  %2 = arith.trunci %0 : vector<4xi32> to vector<4xi8>
  // CHECK-NEXT: llvm.sitofp %[[SE]] : vector<4xi32> to vector<4xf32>
  %3 = arith.sitofp %0 : vector<4xi32> to vector<4xf32>
  // CHECK-NEXT: llvm.uitofp %[[ZE]] : vector<4xi32> to vector<4xf64>
  %4 = arith.uitofp %1 : vector<4xi32> to vector<4xf64>
  // CHECK-NEXT: llvm.fptosi %f : vector<4xf32> to vector<4xi16>
  %5 = arith.fptosi %f : vector<4xf32> to vector<4xi16>
  // CHECK-NEXT: llvm.fptoui %f : vector<4xf32> to vector<4xi64>
  %6 = arith.fptoui %f : vector<4xf32> to vector<4xi64>
  // CHECK-NEXT: llvm.trunc %[[X]] : vector<4xi64> to vector<4xi32>
  %7 = arith.index_cast %x : vector<4xindex> to vector<4xi32>
  // CHECK-NEXT: llvm.zext %[[SE]] : vector<4xi32> to vector<4xi64>
  %8 = arith.index_castui %0 : vector<4xi32> to vector<4xindex>
  // CHECK-NEXT: llvm.select %c, %[[SE]], %[[ZE]] : vector<4xi1>, vector<4xi32>
  %9 = arith.select %c, %0, %1 : vector<4xi1>, vector<4xi32>
  // CHECK-NEXT: llvm.select %s, %[[SE]], %[[ZE]] : i1, vector<4xi32>
  %10 = arith.select %s, %0, %1 : vector<4xi32>
  // CHECK-NEXT: %[[P:.*]] = llvm.mlir.poison : !llvm.array<2 x vector<3xi64>>
  // CHECK-NEXT: %[[R0:.*]] = llvm.extractvalue %[[M]][0] : !llvm.array<2 x vector<3xi32>>
  // CHECK-NEXT: %[[E0:.*]] = llvm.sext %[[R0]] : vector<3xi32> to vector<3xi64>
  // CHECK-NEXT: %[[I0:.*]] = llvm.insertvalue %[[E0]], %[[P]][0] : !llvm.array<2 x vector<3xi64>>
  // CHECK-NEXT: %[[R1:.*]] = llvm.extractvalue %[[M]][1] : !llvm.array<2 x vector<3xi32>>
  // CHECK-NEXT: %[[E1:.*]] = llvm.sext %[[R1]] : vector<3xi32> to vector<3xi64>
  // CHECK-NEXT: %[[I1:.*]] = llvm.insertvalue %[[E1]], %[[I0]][1] : !llvm.array<2 x vector<3xi64>>
  %11 = arith.index_cast %m : vector<2x3xi32> to vector<2x3xindex>
  func.return %11 : vector<2x3xindex>
}

// arith.truncf with a rounding mode: the constrained intrinsic, as upstream.
// CHECK-LABEL: func.func @rounding
func.func @rounding(%d: f64, %v: vector<2xf64>) -> f32 {
  // CHECK-NEXT: %0 = llvm.intr.experimental.constrained.fptrunc %d tonearest ignore : f64 to f32
  %0 = arith.truncf %d to_nearest_even fastmath<fast> : f64 to f32
  // CHECK-NEXT: %1 = llvm.intr.experimental.constrained.fptrunc %d downward ignore : f64 to f32
  %1 = arith.truncf %d downward : f64 to f32
  // CHECK-NEXT: %2 = llvm.intr.experimental.constrained.fptrunc %d upward ignore : f64 to f32
  %2 = arith.truncf %d upward : f64 to f32
  // CHECK-NEXT: %3 = llvm.intr.experimental.constrained.fptrunc %v towardzero ignore : vector<2xf64> to vector<2xf32>
  %3 = arith.truncf %v toward_zero : vector<2xf64> to vector<2xf32>
  // CHECK-NEXT: %4 = llvm.intr.experimental.constrained.fptrunc %d tonearestaway ignore : f64 to f32
  %4 = arith.truncf %d to_nearest_away : f64 to f32
  // Upstream adds {fastmath = #arith.fastmath<fast>}, which mlir-translate cannot parse.
  // CHECK-NEXT: %5 = llvm.fpext %0 : f32 to f64
  %5 = arith.extf %0 fastmath<fast> : f32 to f64
  func.return %0 : f32
}
