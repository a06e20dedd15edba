// RUN: python3 -m xdsl_gpu.targets.llvm_ir %s | filecheck %s
// RUN: %if mlir-opt %{ mlir-translate --mlir-to-llvmir %s | filecheck %s %}
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s --check-prefix=ROUND
// RUN: %if mlir-opt %{ mlir-opt %s --mlir-print-op-generic | mlir-opt | filecheck %s --check-prefix=ROUND %}

// A getelementptr of a vector of indices (a vector of pointers) and the masked
// gather/scatter intrinsics that vector.gather/scatter lower to; the alignment is
// a parameter attribute of the pointer vector (LLVM 22), a gather without a
// pass-through passes poison. Printed back the same by both.

// ROUND: llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, vector<4xi32>) -> vector<4x!llvm.ptr>, f32
// ROUND: llvm.intr.masked.gather %{{.*}}, %{{.*}}, %{{.*}} {alignment = 4 : i32} : (vector<4x!llvm.ptr>, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
// ROUND: llvm.intr.masked.gather %{{.*}}, %{{.*}} {alignment = 8 : i32} : (vector<4x!llvm.ptr>, vector<4xi1>) -> vector<4xf32>
// ROUND: llvm.intr.masked.scatter %{{.*}}, %{{.*}}, %{{.*}} {alignment = 4 : i32} : vector<4xf32>, vector<4xi1> into vector<4x!llvm.ptr>

// CHECK-LABEL: define <4 x float> @gather(ptr %{{.*}}, <4 x i32> %{{.*}}, <4 x i1> %{{.*}}, <4 x float> %{{.*}})
llvm.func @gather(%p: !llvm.ptr, %idx: vector<4xi32>, %m: vector<4xi1>, %v: vector<4xf32>) -> vector<4xf32> {
  // CHECK: %[[PS:.*]] = getelementptr float, ptr %{{.*}}, <4 x i32> %{{.*}}
  %ps = llvm.getelementptr %p[%idx] : (!llvm.ptr, vector<4xi32>) -> vector<4x!llvm.ptr>, f32
  // CHECK: call <4 x float> @llvm.masked.gather.v4f32.v4p0(<4 x ptr> align 4 %[[PS]], <4 x i1> %{{.*}}, <4 x float> %{{.*}})
  %a = llvm.intr.masked.gather %ps, %m, %v {alignment = 4 : i32} : (vector<4x!llvm.ptr>, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
  // CHECK: call <4 x float> @llvm.masked.gather.v4f32.v4p0(<4 x ptr> align 8 %[[PS]], <4 x i1> %{{.*}}, <4 x float> poison)
  %b = llvm.intr.masked.gather %ps, %m {alignment = 8 : i32} : (vector<4x!llvm.ptr>, vector<4xi1>) -> vector<4xf32>
  // CHECK: call void @llvm.masked.scatter.v4f32.v4p0(<4 x float> %{{.*}}, <4 x ptr> align 4 %[[PS]], <4 x i1> %{{.*}})
  llvm.intr.masked.scatter %a, %ps, %m {alignment = 4 : i32} : vector<4xf32>, vector<4xi1> into vector<4x!llvm.ptr>
  llvm.return %b : vector<4xf32>
}
