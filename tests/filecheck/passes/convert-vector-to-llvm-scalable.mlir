// RUN: xdsl-opt %s -p convert-vector-to-llvm | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --convert-vector-to-llvm | filecheck %s %}
// RUN: xdsl-opt %s -p convert-vector-to-llvm,finalize-memref-to-llvm,convert-arith-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts | python3 -m xdsl_gpu.targets.llvm_ir - | filecheck %s --check-prefix=IR
// RUN: %if mlir-opt %{ mlir-opt %s --convert-vector-to-llvm --convert-to-llvm --reconcile-unrealized-casts | mlir-translate --mlir-to-llvmir | filecheck %s --check-prefix=IR %}
// Scalable 1-D vectors (vector<[4]xf32>: 4 * vscale lanes) lower as fixed ones do,
// LLVM taking the type as it is; vscale and a scalable step have their intrinsics.
// The same lines check our output and mlir-opt-22's, and the LLVM IR of both
// (<vscale x 4 x float>, the nxv4f32 mangling, the zeroinitializer splat mask).

// CHECK-LABEL: func.func @scalable(
// CHECK:         %[[A:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> vector<[4]xf32>
// CHECK:         %[[B:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> vector<[4]xf32>
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[B]], %[[A]] : vector<[4]xf32>
// CHECK-NEXT:    %[[C1:.*]] = llvm.mlir.constant(1{{( : i64)?}}) : i64
// CHECK-NEXT:    %[[T:.*]] = llvm.insertelement %{{.*}}, %[[S]][%[[C1]] : i64] : vector<[4]xf32>
// CHECK:         %[[E:.*]] = llvm.extractelement %[[T]][%{{.*}} : i64] : vector<[4]xf32>
// CHECK:         llvm.store %[[T]], %{{.*}} {alignment = 4 : i64} : vector<[4]xf32>, !llvm.ptr
// CHECK:         %[[R:.*]] = "llvm.intr.vector.reduce.fadd"(%{{.*}}, %[[T]]) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, vector<[4]xf32>) -> f32
// CHECK:         %[[FM:.*]] = llvm.intr.fmuladd(%[[A]], %[[B]], %[[T]]) : (vector<[4]xf32>, vector<[4]xf32>, vector<[4]xf32>) -> vector<[4]xf32>
// CHECK-NEXT:    %[[P:.*]] = llvm.mlir.poison : vector<[4]xf32>
// CHECK-NEXT:    %[[Z:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    %[[I:.*]] = llvm.insertelement %{{.*}}, %[[P]][%[[Z]] : i32] : vector<[4]xf32>
// CHECK-NEXT:    %[[BC:.*]] = llvm.shufflevector %[[I]], %[[P]] [0, 0, 0, 0] : vector<[4]xf32>
// CHECK-NEXT:    %[[M:.*]] = arith.mulf %[[FM]], %[[BC]] : vector<[4]xf32>
// CHECK-NEXT:    %{{.*}} = llvm.intr.vector.reduce.fmaximum(%[[M]]) : (vector<[4]xf32>) -> f32
// CHECK:         %[[ST:.*]] = llvm.intr.stepvector : vector<[4]xi64>
// CHECK:         llvm.store %[[ST]], %{{.*}} {alignment = 8 : i64} : vector<[4]xi64>, !llvm.ptr
// CHECK:         %{{.*}} = "llvm.intr.vscale"() : () -> i64

// IR-LABEL: define float @scalable(
// IR:         load <vscale x 4 x float>, ptr %{{.*}}, align 4
// IR:         fadd <vscale x 4 x float>
// IR:         insertelement <vscale x 4 x float> %{{.*}}, float %{{.*}}, i64 1
// IR:         extractelement <vscale x 4 x float> %{{.*}}, i64 %{{.*}}
// IR:         store <vscale x 4 x float> %{{.*}}, ptr %{{.*}}, align 4
// IR:         call float @llvm.vector.reduce.fadd.nxv4f32(float {{.*}}, <vscale x 4 x float> %{{.*}})
// IR:         call <vscale x 4 x float> @llvm.fmuladd.nxv4f32(<vscale x 4 x float> %{{.*}}, <vscale x 4 x float> %{{.*}}, <vscale x 4 x float> %{{.*}})
// IR:         insertelement <vscale x 4 x float> poison, float %{{.*}}, i32 0
// IR-NEXT:    shufflevector <vscale x 4 x float> %{{.*}}, <vscale x 4 x float> poison, <vscale x 4 x i32> zeroinitializer
// IR-NEXT:    fmul <vscale x 4 x float>
// IR-NEXT:    call float @llvm.vector.reduce.fmaximum.nxv4f32(<vscale x 4 x float> %{{.*}})
// IR:         call <vscale x 4 x i64> @llvm.stepvector.nxv4i64()
// IR:         store <vscale x 4 x i64> %{{.*}}, ptr %{{.*}}, align 8
// IR:         call i64 @llvm.vscale.i64()
// IR:       declare float @llvm.vector.reduce.fadd.nxv4f32(float, <vscale x 4 x float>)
// IR:       declare <vscale x 4 x i64> @llvm.stepvector.nxv4i64()
// IR:       declare i64 @llvm.vscale.i64()
func.func @scalable(%m: memref<?xf32>, %n: memref<?xindex>, %i: index, %x: f32) -> f32 {
  %a = vector.load %m[%i] : memref<?xf32>, vector<[4]xf32>
  %v = vector.load %m[%i] : memref<?xf32>, vector<[4]xf32>
  %s = arith.addf %v, %a : vector<[4]xf32>
  %t = vector.insert %x, %s[1] : f32 into vector<[4]xf32>
  %e = vector.extract %t[%i] : f32 from vector<[4]xf32>
  vector.store %t, %m[%i] : memref<?xf32>, vector<[4]xf32>
  %r = vector.reduction <add>, %t : vector<[4]xf32> into f32
  %q = arith.addf %r, %e : f32
  %fm = vector.fma %a, %v, %t : vector<[4]xf32>
  %bc = vector.broadcast %x : f32 to vector<[4]xf32>
  %fm2 = arith.mulf %fm, %bc : vector<[4]xf32>
  %mx = vector.reduction <maximumf>, %fm2 : vector<[4]xf32> into f32
  vector.store %fm2, %m[%i] : memref<?xf32>, vector<[4]xf32>
  %q2 = arith.addf %q, %mx : f32
  %st = vector.step : vector<[4]xindex>
  vector.store %st, %n[%i] : memref<?xindex>, vector<[4]xindex>
  %vs = vector.vscale
  memref.store %vs, %n[%i] : memref<?xindex>
  return %q2 : f32
}
