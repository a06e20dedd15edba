// RUN: xdsl-opt %s --xdsl-gpu -p convert-linalg-to-loops --split-input-file | filecheck %s
// RUN: xdsl-opt %s --xdsl-gpu --split-input-file | filecheck %s --check-prefix=PRINT

// linalg.matmul and the linalg.conv_* ops with inputs of another element type than
// their output: each input element is cast to the output's type before the multiply,
// as MLIR 22's bodies do (cast_signed; cast_unsigned where the op says so). xDSL's own bodies multiplied the inputs as
// they were (an ill-typed addf of f16 and f32) or failed on floats (conv).
// tests/passes/test_linalg_to_loops_differential.py compares every case with
// mlir-opt-22 -convert-linalg-to-loops.

// CHECK-LABEL: func.func @matmul_f16_f32
// CHECK:      %[[A:.*]] = memref.load %a[
// CHECK-NEXT: %[[B:.*]] = memref.load %b[
// CHECK-NEXT: %[[C:.*]] = memref.load %c[
// CHECK-NEXT: %[[EA:.*]] = arith.extf %[[A]] : f16 to f32
// CHECK-NEXT: %[[EB:.*]] = arith.extf %[[B]] : f16 to f32
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[EA]], %[[EB]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[C]], %[[M]] : f32
// CHECK-NEXT: memref.store %[[S]], %c[
func.func @matmul_f16_f32(%a: memref<4x8xf16>, %b: memref<8x2xf16>, %c: memref<4x2xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf16>, memref<8x2xf16>) outs(%c : memref<4x2xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @matmul_bf16_f32
// CHECK:      arith.extf %{{.*}} : bf16 to f32
// CHECK-NEXT: arith.extf %{{.*}} : bf16 to f32
// CHECK-NEXT: arith.mulf %{{.*}}, %{{.*}} : f32
func.func @matmul_bf16_f32(%a: memref<2x3xbf16>, %b: memref<3x2xbf16>, %c: memref<2x2xf32>) {
  linalg.matmul ins(%a, %b : memref<2x3xbf16>, memref<3x2xbf16>) outs(%c : memref<2x2xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @matmul_i8_i32
// CHECK:      %[[C:.*]] = memref.load %c[
// CHECK-NEXT: %[[EA:.*]] = arith.extsi %{{.*}} : i8 to i32
// CHECK-NEXT: %[[EB:.*]] = arith.extsi %{{.*}} : i8 to i32
// CHECK-NEXT: %[[M:.*]] = arith.muli %[[EA]], %[[EB]] : i32
// CHECK-NEXT: arith.addi %[[C]], %[[M]] : i32
func.func @matmul_i8_i32(%a: memref<2x3xi8>, %b: memref<3x2xi8>, %c: memref<2x2xi32>) {
  linalg.matmul ins(%a, %b : memref<2x3xi8>, memref<3x2xi8>) outs(%c : memref<2x2xi32>)
  return
}

// -----

// CHECK-LABEL: func.func @matmul_i8_f32
// CHECK:      arith.sitofp %{{.*}} : i8 to f32
// CHECK-NEXT: arith.sitofp %{{.*}} : i8 to f32
func.func @matmul_i8_f32(%a: memref<2x3xi8>, %b: memref<3x2xi8>, %c: memref<2x2xf32>) {
  linalg.matmul ins(%a, %b : memref<2x3xi8>, memref<3x2xi8>) outs(%c : memref<2x2xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @matmul_f32_i32
// CHECK:      arith.fptosi %{{.*}} : f32 to i32
// CHECK-NEXT: arith.fptosi %{{.*}} : f32 to i32
func.func @matmul_f32_i32(%a: memref<2x3xf32>, %b: memref<3x2xf32>, %c: memref<2x2xi32>) {
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x2xf32>) outs(%c : memref<2x2xi32>)
  return
}

// -----

// Narrower outputs truncate.
// CHECK-LABEL: func.func @matmul_narrowing
// CHECK:      arith.truncf %{{.*}} : f32 to f16
// CHECK-NEXT: arith.truncf %{{.*}} : f32 to f16
// CHECK:      arith.trunci %{{.*}} : i64 to i32
// CHECK-NEXT: arith.trunci %{{.*}} : i64 to i32
func.func @matmul_narrowing(%a: memref<2x3xf32>, %b: memref<3x2xf32>, %c: memref<2x2xf16>, %d: memref<2x3xi64>, %e: memref<3x2xi64>, %f: memref<2x2xi32>) {
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x2xf32>) outs(%c : memref<2x2xf16>)
  linalg.matmul ins(%d, %e : memref<2x3xi64>, memref<3x2xi64>) outs(%f : memref<2x2xi32>)
  return
}

// -----

// One input already of the output's type is used as it is.
// CHECK-LABEL: func.func @matmul_mixed_inputs
// CHECK:      %[[B:.*]] = memref.load %b[
// CHECK-NEXT: %[[C:.*]] = memref.load %c[
// CHECK-NEXT: %[[EA:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[EA]], %[[B]] : f32
func.func @matmul_mixed_inputs(%a: memref<2x3xf16>, %b: memref<3x2xf32>, %c: memref<2x2xf32>) {
  linalg.matmul ins(%a, %b : memref<2x3xf16>, memref<3x2xf32>) outs(%c : memref<2x2xf32>)
  return
}

// -----

// index and i1 inputs; an i1 output multiplies with andi and adds with ori.
// CHECK-LABEL: func.func @matmul_index_and_i1
// CHECK:      arith.index_cast %{{.*}} : index to i32
// CHECK-NEXT: arith.index_cast %{{.*}} : index to i32
// CHECK:      arith.extsi %{{.*}} : i1 to i32
// CHECK-NEXT: arith.extsi %{{.*}} : i1 to i32
// CHECK:      %[[C:.*]] = memref.load %c1[
// CHECK-NEXT: %[[M:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK-NEXT: arith.ori %[[C]], %[[M]] : i1
func.func @matmul_index_and_i1(%a: memref<2x3xindex>, %b: memref<3x2xindex>, %c: memref<2x2xi32>, %a1: memref<2x3xi1>, %b1: memref<3x2xi1>, %c1: memref<2x2xi1>) {
  linalg.matmul ins(%a, %b : memref<2x3xindex>, memref<3x2xindex>) outs(%c : memref<2x2xi32>)
  linalg.matmul ins(%a1, %b1 : memref<2x3xi1>, memref<3x2xi1>) outs(%c : memref<2x2xi32>)
  linalg.matmul ins(%a1, %b1 : memref<2x3xi1>, memref<3x2xi1>) outs(%c1 : memref<2x2xi1>)
  return
}

// -----

// CHECK-LABEL: func.func @conv_f16_f32
// CHECK:      arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT: arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: arith.addf %{{.*}}, %{{.*}} : f32
func.func @conv_f16_f32(%i: memref<1x1x4x4xf16>, %f: memref<1x1x3x3xf16>, %o: memref<1x1x2x2xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %f : memref<1x1x4x4xf16>, memref<1x1x3x3xf16>) outs(%o : memref<1x1x2x2xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @conv_i8_i32
// CHECK:      arith.extsi %{{.*}} : i8 to i32
// CHECK-NEXT: arith.extsi %{{.*}} : i8 to i32
// CHECK-NEXT: arith.muli %{{.*}}, %{{.*}} : i32
func.func @conv_i8_i32(%i: memref<1x1x4x4xi8>, %f: memref<1x1x3x3xi8>, %o: memref<1x1x2x2xi32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %f : memref<1x1x4x4xi8>, memref<1x1x3x3xi8>) outs(%o : memref<1x1x2x2xi32>)
  return
}

// -----

// {cast = #linalg.type_fn<cast_unsigned>} (xDSL has no #linalg.type_fn): unsigned
// casts; the attribute prints back as written.
// PRINT-LABEL: func.func @matmul_unsigned
// PRINT-NEXT: linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%a, %b : memref<2x3xi8>, memref<3x2xi8>) outs(%c : memref<2x2xi32>)
// PRINT-NEXT: linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%a, %b : memref<2x3xi8>, memref<3x2xi8>) outs(%f : memref<2x2xf32>)
// PRINT-NEXT: linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%d, %e : memref<2x3xf32>, memref<3x2xf32>) outs(%c : memref<2x2xi32>)
// PRINT-NEXT: linalg.matmul {cast = #linalg.type_fn<cast_signed>} ins(%a, %b : memref<2x3xi8>, memref<3x2xi8>) outs(%c : memref<2x2xi32>)
// CHECK-LABEL: func.func @matmul_unsigned
// CHECK:      arith.extui %{{.*}} : i8 to i32
// CHECK-NEXT: arith.extui %{{.*}} : i8 to i32
// CHECK:      arith.uitofp %{{.*}} : i8 to f32
// CHECK-NEXT: arith.uitofp %{{.*}} : i8 to f32
// CHECK:      arith.fptoui %{{.*}} : f32 to i32
// CHECK-NEXT: arith.fptoui %{{.*}} : f32 to i32
// CHECK:      arith.extsi %{{.*}} : i8 to i32
// CHECK-NEXT: arith.extsi %{{.*}} : i8 to i32
func.func @matmul_unsigned(%a: memref<2x3xi8>, %b: memref<3x2xi8>, %c: memref<2x2xi32>, %d: memref<2x3xf32>, %e: memref<3x2xf32>, %f: memref<2x2xf32>) {
  linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%a, %b : memref<2x3xi8>, memref<3x2xi8>) outs(%c : memref<2x2xi32>)
  linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%a, %b : memref<2x3xi8>, memref<3x2xi8>) outs(%f : memref<2x2xf32>)
  linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%d, %e : memref<2x3xf32>, memref<3x2xf32>) outs(%c : memref<2x2xi32>)
  linalg.matmul {cast = #linalg.type_fn<cast_signed>} ins(%a, %b : memref<2x3xi8>, memref<3x2xi8>) outs(%c : memref<2x2xi32>)
  return
}
