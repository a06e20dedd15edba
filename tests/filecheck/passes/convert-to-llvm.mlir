// RUN: xdsl-opt %s -p convert-to-llvm --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --convert-to-llvm --split-input-file | filecheck %s %}
// RUN: not xdsl-opt %s -p 'convert-to-llvm{filter-dialects=scf}' 2>&1 | filecheck %s --check-prefix=UNKNOWN

// UNKNOWN: dialect not loaded or without an LLVM lowering: scf

// One conversion for every dialect with an LLVM lowering; the others (scf, gpu)
// stay, connected through unrealized casts. The same lines check mlir-opt-22.
// CHECK-LABEL: llvm.func @mixed(%{{.*}}: i32, %{{.*}}: vector<4xf32>, %{{.*}}: f32, %{{.*}}: i1) -> f32
// CHECK: llvm.add %{{.*}}, %{{.*}} : i32
// CHECK: %[[C0:.*]] = llvm.mlir.constant(0{{( : i64)?}}) : i64
// CHECK: %[[E:.*]] = llvm.extractelement %{{.*}}[%[[C0]] : i64] : vector<4xf32>
// CHECK: llvm.intr.exp(%{{.*}}) : (f32) -> f32
// CHECK: llvm.mlir.poison : f32
// CHECK: scf.if
// CHECK: llvm.br ^bb1
// CHECK: llvm.return %[[E]] : f32
func.func @mixed(%a: i32, %v: vector<4xf32>, %x: f32, %c: i1) -> f32 {
  %0 = arith.addi %a, %a : i32
  %1 = vector.extract %v[0] : f32 from vector<4xf32>
  %2 = math.exp %x : f32
  %3 = ub.poison : f32
  scf.if %c {
  }
  cf.br ^bb1
^bb1:
  return %1 : f32
}

// -----

// memref and index inside a kernel: the gpu ops stay (convert-gpu-to-nvvm lowers them).
// CHECK-LABEL: gpu.module @kernels
// CHECK: gpu.func @k(%[[M:.*]]: memref<4xf32>) kernel
// CHECK: %[[D:.*]] = builtin.unrealized_conversion_cast %[[M]] : memref<4xf32> to !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK: %[[T:.*]] = gpu.thread_id x
// CHECK: %[[I:.*]] = builtin.unrealized_conversion_cast %[[T]] : index to i64
// CHECK: %[[P:.*]] = llvm.extractvalue %[[D]][1]
// CHECK: %[[G:.*]] = llvm.getelementptr inbounds|nuw %[[P]][%[[I]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK: llvm.load %[[G]] : !llvm.ptr -> f32
// CHECK: gpu.return
gpu.module @kernels {
  gpu.func @k(%a: memref<4xf32>) kernel {
    %t = gpu.thread_id x
    %v = memref.load %a[%t] : memref<4xf32>
    gpu.return
  }
}

// -----

// nvvm ops without an intrinsic become inline PTX (convert-nvvm-to-llvm's patterns).
// CHECK-LABEL: llvm.func @ptx
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@$2 mbarrier.init.shared.b64 [$0], $1;", "r,r,b"
llvm.func @ptx(%s: !llvm.ptr<3>, %n: i32, %p: i1) {
  nvvm.mbarrier.init %s, %n, predicate = %p : !llvm.ptr<3>, i32, i1
  llvm.return
}
