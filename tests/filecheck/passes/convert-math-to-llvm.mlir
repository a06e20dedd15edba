// RUN: xdsl-opt %s -p convert-math-to-llvm | filecheck %s
// RUN: xdsl-opt %s -p 'convert-math-to-llvm{approximate-log1p=false}' | filecheck %s --check-prefix=EXACT

// CHECK-LABEL: func.func @intrinsics
func.func @intrinsics(%a: f32, %b: f32, %c: f32, %d: f64, %i: i32) {
  // CHECK-NEXT: llvm.intr.fabs(%a) : (f32) -> f32
  %0 = math.absf %a : f32
  // CHECK-NEXT: llvm.intr.ceil(%a) : (f32) -> f32
  %1 = math.ceil %a : f32
  // CHECK-NEXT: llvm.intr.floor(%a) : (f32) -> f32
  %2 = math.floor %a : f32
  // CHECK-NEXT: llvm.intr.sqrt(%a) {fastmathFlags = #llvm.fastmath<fast>} : (f32) -> f32
  %3 = math.sqrt %a fastmath<fast> : f32
  // CHECK-NEXT: llvm.intr.exp(%a) : (f32) -> f32
  %4 = math.exp %a : f32
  // CHECK-NEXT: llvm.intr.exp2(%d) : (f64) -> f64
  %5 = math.exp2 %d : f64
  // CHECK-NEXT: llvm.intr.log(%a) : (f32) -> f32
  %6 = math.log %a : f32
  // CHECK-NEXT: llvm.intr.log2(%a) : (f32) -> f32
  %7 = math.log2 %a : f32
  // CHECK-NEXT: llvm.intr.log10(%a) : (f32) -> f32
  %8 = math.log10 %a : f32
  // CHECK-NEXT: llvm.intr.sin(%a) : (f32) -> f32
  %9 = math.sin %a : f32
  // CHECK-NEXT: llvm.intr.cos(%a) : (f32) -> f32
  %10 = math.cos %a : f32
  // CHECK-NEXT: llvm.intr.tan(%a) : (f32) -> f32
  %11 = math.tan %a : f32
  // CHECK-NEXT: llvm.intr.tanh(%a) : (f32) -> f32
  %12 = math.tanh %a : f32
  // CHECK-NEXT: llvm.intr.sinh(%a) : (f32) -> f32
  %13 = math.sinh %a : f32
  // CHECK-NEXT: llvm.intr.cosh(%a) : (f32) -> f32
  %14 = math.cosh %a : f32
  // CHECK-NEXT: llvm.intr.asin(%a) : (f32) -> f32
  %15 = math.asin %a : f32
  // CHECK-NEXT: llvm.intr.acos(%a) : (f32) -> f32
  %16 = math.acos %a : f32
  // CHECK-NEXT: llvm.intr.atan(%a) : (f32) -> f32
  %17 = math.atan %a : f32
  // CHECK-NEXT: llvm.intr.atan2(%a, %b) : (f32, f32) -> f32
  %18 = math.atan2 %a, %b : f32
  // CHECK-NEXT: llvm.intr.pow(%a, %b) : (f32, f32) -> f32
  %19 = math.powf %a, %b : f32
  // CHECK-NEXT: llvm.intr.copysign(%a, %b) : (f32, f32) -> f32
  %20 = math.copysign %a, %b : f32
  // CHECK-NEXT: llvm.intr.fma(%a, %b, %c) : (f32, f32, f32) -> f32
  %21 = math.fma %a, %b, %c : f32
  // CHECK-NEXT: llvm.intr.round(%a) : (f32) -> f32
  %22 = math.round %a : f32
  // CHECK-NEXT: llvm.intr.roundeven(%a) : (f32) -> f32
  %23 = math.roundeven %a : f32
  // CHECK-NEXT: llvm.intr.trunc(%a) : (f32) -> f32
  %24 = math.trunc %a : f32
  // CHECK-NEXT: llvm.intr.powi(%a, %i) : (f32, i32) -> f32
  %25 = math.fpowi %a, %i : f32, i32
  // CHECK-NEXT: "llvm.intr.ctlz"(%i) <{is_zero_poison = false}> : (i32) -> i32
  %26 = math.ctlz %i : i32
  // CHECK-NEXT: "llvm.intr.cttz"(%i) <{is_zero_poison = false}> : (i32) -> i32
  %27 = math.cttz %i : i32
  // CHECK-NEXT: llvm.intr.ctpop(%i) : (i32) -> i32
  %28 = math.ctpop %i : i32
  // CHECK-NEXT: "llvm.intr.abs"(%i) <{is_int_min_poison = false}> : (i32) -> i32
  %29 = math.absi %i : i32
  // CHECK-NEXT: "llvm.intr.is.fpclass"(%a) <{bit = 3 : i32}> : (f32) -> i1
  %30 = math.isnan %a : f32
  // CHECK-NEXT: "llvm.intr.is.fpclass"(%d) <{bit = 504 : i32}> : (f64) -> i1
  %31 = math.isfinite %d : f64
  func.return
}

// Expanded like upstream: rsqrt = 1 / sqrt, expm1 = exp - 1, log1p = log(1 + x);
// fastmath flags go on every op.
// CHECK-LABEL: func.func @expansions
// EXACT-LABEL: func.func @expansions
func.func @expansions(%a: f32, %d: f64) {
  // CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f64) : f64
  // CHECK-NEXT: %[[SQRT:.*]] = llvm.intr.sqrt(%d) {fastmathFlags = #llvm.fastmath<afn>} : (f64) -> f64
  // CHECK-NEXT: llvm.fdiv %[[ONE]], %[[SQRT]] {fastmathFlags = #llvm.fastmath<afn>} : f64
  %0 = math.rsqrt %d fastmath<afn> : f64
  // CHECK-NEXT: %[[ONE2:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
  // CHECK-NEXT: %[[EXP:.*]] = llvm.intr.exp(%a) : (f32) -> f32
  // CHECK-NEXT: llvm.fsub %[[EXP]], %[[ONE2]] : f32
  %1 = math.expm1 %a : f32
  // CHECK-NEXT: %[[ONE3:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
  // CHECK-NEXT: %[[PLUS:.*]] = llvm.fadd %[[ONE3]], %a : f32
  // CHECK-NEXT: llvm.intr.log(%[[PLUS]]) : (f32) -> f32
  // EXACT:      math.log1p %a : f32
  %2 = math.log1p %a : f32
  func.return
}

// Ops with no LLVM intrinsic are left for other lowerings, as upstream does.
// CHECK-LABEL: func.func @no_intrinsic
func.func @no_intrinsic(%a: f32, %i: i32) {
  // CHECK-NEXT: math.erf %a : f32
  %0 = math.erf %a : f32
  // CHECK-NEXT: math.erfc %a : f32
  %1 = math.erfc %a : f32
  // CHECK-NEXT: math.cbrt %a : f32
  %2 = math.cbrt %a : f32
  // CHECK-NEXT: math.acosh %a : f32
  %3 = math.acosh %a : f32
  // CHECK-NEXT: math.ipowi %i, %i : i32
  %4 = math.ipowi %i, %i : i32
  // CHECK-NEXT: math.isinf %a : f32
  %5 = math.isinf %a : f32
  // CHECK-NEXT: math.isnormal %a : f32
  %6 = math.isnormal %a : f32
  // CHECK-NEXT: math.clampf %a to [%a, %a] : f32
  %7 = math.clampf %a to [%a, %a] : f32
  func.return
}

// math.sincos becomes llvm.intr.sincos and the two fields of its struct; on n-D
// vectors one row at a time (upstream builds an invalid llvm.intr.sincos on the array).
// CHECK-LABEL: func.func @sincos
func.func @sincos(%a: f32, %v: vector<4xf64>, %m: vector<2x3xf32>) -> (f32, f32) {
  // CHECK-NEXT: %[[M:.*]] = builtin.unrealized_conversion_cast %m : vector<2x3xf32> to !llvm.array<2 x vector<3xf32>>
  // CHECK-NEXT: %[[S:.*]] = llvm.intr.sincos(%a) {fastmathFlags = #llvm.fastmath<afn>} : (f32) -> !llvm.struct<(f32, f32)>
  // CHECK-NEXT: %[[SIN:.*]] = llvm.extractvalue %[[S]][0] : !llvm.struct<(f32, f32)>
  // CHECK-NEXT: %[[COS:.*]] = llvm.extractvalue %[[S]][1] : !llvm.struct<(f32, f32)>
  %0, %1 = math.sincos %a fastmath<afn> : f32
  // CHECK-NEXT: %[[V:.*]] = llvm.intr.sincos(%v) : (vector<4xf64>) -> !llvm.struct<(vector<4xf64>, vector<4xf64>)>
  // CHECK-NEXT: llvm.extractvalue %[[V]][0] : !llvm.struct<(vector<4xf64>, vector<4xf64>)>
  // CHECK-NEXT: llvm.extractvalue %[[V]][1] : !llvm.struct<(vector<4xf64>, vector<4xf64>)>
  %2, %3 = math.sincos %v : vector<4xf64>
  // CHECK-NEXT: %[[PS:.*]] = llvm.mlir.poison : !llvm.array<2 x vector<3xf32>>
  // CHECK-NEXT: %[[PC:.*]] = llvm.mlir.poison : !llvm.array<2 x vector<3xf32>>
  // CHECK-NEXT: %[[R0:.*]] = llvm.extractvalue %[[M]][0] : !llvm.array<2 x vector<3xf32>>
  // CHECK-NEXT: %[[SC0:.*]] = llvm.intr.sincos(%[[R0]]) : (vector<3xf32>) -> !llvm.struct<(vector<3xf32>, vector<3xf32>)>
  // CHECK-NEXT: %[[S0:.*]] = llvm.extractvalue %[[SC0]][0]
  // CHECK-NEXT: %[[C0:.*]] = llvm.extractvalue %[[SC0]][1]
  // CHECK-NEXT: llvm.insertvalue %[[S0]], %[[PS]][0] : !llvm.array<2 x vector<3xf32>>
  // CHECK-NEXT: llvm.insertvalue %[[C0]], %[[PC]][0] : !llvm.array<2 x vector<3xf32>>
  // CHECK-NEXT: llvm.extractvalue %[[M]][1]
  // CHECK-NEXT: llvm.intr.sincos
  %4, %5 = math.sincos %m : vector<2x3xf32>
  // CHECK: func.return %[[SIN]], %[[COS]] : f32, f32
  func.return %0, %1 : f32, f32
}

// 1-D vectors directly, n-D vectors one row at a time.
// CHECK-LABEL: func.func @vectors
func.func @vectors(%v: vector<4xf32>, %m: vector<2x4xf32>) -> vector<2x4xf32> {
  // CHECK-NEXT: %[[M:.*]] = builtin.unrealized_conversion_cast %m : vector<2x4xf32> to !llvm.array<2 x vector<4xf32>>
  // CHECK-NEXT: llvm.intr.exp(%v) : (vector<4xf32>) -> vector<4xf32>
  %0 = math.exp %v : vector<4xf32>
  // CHECK-NEXT: %[[P:.*]] = llvm.mlir.poison : !llvm.array<2 x vector<4xf32>>
  // CHECK-NEXT: %[[R0:.*]] = llvm.extractvalue %[[M]][0] : !llvm.array<2 x vector<4xf32>>
  // CHECK-NEXT: %[[S0:.*]] = llvm.intr.sqrt(%[[R0]]) : (vector<4xf32>) -> vector<4xf32>
  // CHECK-NEXT: %[[I0:.*]] = llvm.insertvalue %[[S0]], %[[P]][0] : !llvm.array<2 x vector<4xf32>>
  // CHECK-NEXT: %[[R1:.*]] = llvm.extractvalue %[[M]][1] : !llvm.array<2 x vector<4xf32>>
  // CHECK-NEXT: %[[S1:.*]] = llvm.intr.sqrt(%[[R1]]) : (vector<4xf32>) -> vector<4xf32>
  // CHECK-NEXT: %[[I1:.*]] = llvm.insertvalue %[[S1]], %[[I0]][1] : !llvm.array<2 x vector<4xf32>>
  // CHECK-NEXT: %[[RES:.*]] = builtin.unrealized_conversion_cast %[[I1]] : !llvm.array<2 x vector<4xf32>> to vector<2x4xf32>
  // CHECK-NEXT: func.return %[[RES]] : vector<2x4xf32>
  %1 = math.sqrt %m : vector<2x4xf32>
  func.return %1 : vector<2x4xf32>
}
