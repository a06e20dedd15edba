// RUN: xdsl-opt %s -p convert-gpu-to-nvvm | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --convert-gpu-to-nvvm | filecheck %s %}
// Vector ops in a kernel: convert-gpu-to-nvvm runs the vector → LLVM patterns, as
// upstream takes them from the vector dialect; the same lines check mlir-opt-22's
// output. The alignment decides the PTX (ld.global.v4 at 16, four scalar loads at 4):
// tests/filecheck/integration/vector-load-store.mlir, benchmarks/bench_vector_elementwise.py.

gpu.module @kernels {
  gpu.func @vec(%a: memref<?xf32>, %h: memref<?xf16, #gpu.address_space<global>>, %i: index, %mask: vector<8xi1>) kernel {
    %x = vector.load %a[%i] {alignment = 16} : memref<?xf32>, vector<4xf32>
    %s = vector.reduction <add>, %x : vector<4xf32> into f32
    %b = vector.broadcast %s : f32 to vector<2x4xf32>
    %r = vector.extract %b[1] : vector<4xf32> from vector<2x4xf32>
    %y = arith.addf %x, %r : vector<4xf32>
    vector.store %y, %a[%i] : memref<?xf32>, vector<4xf32>
    %p = arith.constant dense<0.0> : vector<8xf16>
    %hv = vector.maskedload %h[%i], %mask, %p : memref<?xf16, #gpu.address_space<global>>, vector<8xi1>, vector<8xf16> into vector<8xf16>
    vector.maskedstore %h[%i], %mask, %hv {alignment = 16} : memref<?xf16, #gpu.address_space<global>>, vector<8xi1>, vector<8xf16>
    gpu.return
  }
}

// CHECK-LABEL: llvm.func @vec(
// CHECK:         %[[P:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    %[[X:.*]] = llvm.load %[[P]] {alignment = 16 : i64} : !llvm.ptr -> vector<4xf32>
// CHECK-NEXT:    %[[Z:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK-NEXT:    %[[S:.*]] = "llvm.intr.vector.reduce.fadd"(%[[Z]], %[[X]]) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, vector<4xf32>) -> f32
// CHECK-NEXT:    %[[ARR:.*]] = llvm.mlir.poison : !llvm.array<2 x vector<4xf32>>
// CHECK:         %[[ROW:.*]] = llvm.shufflevector %{{.*}} [0, 0, 0, 0] : vector<4xf32>
// CHECK-NEXT:    %[[B0:.*]] = llvm.insertvalue %[[ROW]], %[[ARR]][0] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:    %[[B1:.*]] = llvm.insertvalue %[[ROW]], %[[B0]][1] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:    %[[R:.*]] = llvm.extractvalue %[[B1]][1] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:    %[[Y:.*]] = llvm.fadd %[[X]], %[[R]] : vector<4xf32>
// CHECK:         llvm.store %[[Y]], %{{.*}} {alignment = 4 : i64} : vector<4xf32>, !llvm.ptr
// CHECK:         %[[HV:.*]] = llvm.intr.masked.load %{{.*}}, %{{.*}}, %{{.*}} {alignment = 2 : i32} : (!llvm.ptr<1>, vector<8xi1>, vector<8xf16>) -> vector<8xf16>
// CHECK:         llvm.intr.masked.store %[[HV]], %{{.*}}, %{{.*}} {alignment = 16 : i32} : vector<8xf16>, vector<8xi1> into !llvm.ptr<1>
// CHECK-NEXT:    llvm.return
