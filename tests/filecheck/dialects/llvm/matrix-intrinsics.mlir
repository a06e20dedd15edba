// RUN: XDSL_ROUNDTRIP
// RUN: xdsl-opt %s | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s | filecheck %s %}
// RUN: xdsl-opt %s -t llvmir | filecheck %s --check-prefix=IR
// RUN: %if mlir-opt %{ mlir-translate --mlir-to-llvmir %s | filecheck %s --check-prefix=IR %}
// The matrix intrinsics that vector-contract-lowering=llvmintr and
// vector-transpose-lowering=llvmintr produce, printed and translated as MLIR 22 does.

// CHECK-LABEL: llvm.func @matrix(
// CHECK:         %{{.*}} = llvm.intr.matrix.multiply %{{.*}}, %{{.*}} {lhs_columns = 3 : i32, lhs_rows = 2 : i32, rhs_columns = 4 : i32} : (vector<6xf32>, vector<12xf32>) -> vector<8xf32>
// CHECK:         %{{.*}} = llvm.intr.matrix.transpose %{{.*}} {columns = 2 : i32, rows = 4 : i32} : vector<8xf32> into vector<8xf32>
// IR-LABEL: define <8 x float> @matrix(
// IR:         call <8 x float> @llvm.matrix.multiply.v8f32.v6f32.v12f32(<6 x float> %{{.*}}, <12 x float> %{{.*}}, i32 2, i32 3, i32 4)
// IR:         call <8 x float> @llvm.matrix.transpose.v8f32(<8 x float> %{{.*}}, i32 4, i32 2)
llvm.func @matrix(%a: vector<6xf32>, %b: vector<12xf32>) -> vector<8xf32> {
  %0 = llvm.intr.matrix.multiply %a, %b {lhs_columns = 3 : i32, lhs_rows = 2 : i32, rhs_columns = 4 : i32} : (vector<6xf32>, vector<12xf32>) -> vector<8xf32>
  %1 = llvm.intr.matrix.transpose %0 {columns = 2 : i32, rows = 4 : i32} : vector<8xf32> into vector<8xf32>
  llvm.return %1 : vector<8xf32>
}
