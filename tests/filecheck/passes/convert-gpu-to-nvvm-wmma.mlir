// RUN: xdsl-opt %s -p convert-gpu-to-nvvm --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --convert-gpu-to-nvvm --split-input-file | filecheck %s %}
// The gpu.subgroup_mma_* lowerings, checked by the same lines on our output and on
// mlir-opt-22's (tests/passes/test_wmma_differential.py compares whole outputs, and
// the ops MLIR 22 cannot lower).

gpu.module @load {
  // CHECK-LABEL: llvm.func @load_a(
  // CHECK-SAME:    -> !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
  // CHECK:         %[[BASE:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(ptr<3>, ptr<3>, i64, array<2 x i64>, array<2 x i64>)>
  // CHECK-NEXT:    %[[STRIDE:.*]] = llvm.mlir.constant(32 : index) : i64
  // CHECK-NEXT:    %[[ROW:.*]] = llvm.mul %[[I:.*]], %[[STRIDE]] : i64
  // CHECK-NEXT:    %[[OFF:.*]] = llvm.add %[[ROW]], %[[J:.*]] : i64
  // CHECK-NEXT:    %[[PTR:.*]] = llvm.getelementptr %[[BASE]][%[[OFF]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f16
  // CHECK-NEXT:    %[[LD:.*]] = llvm.mlir.constant(32 : index) : i32
  // CHECK-NEXT:    nvvm.wmma.load %[[PTR]], %[[LD]] {eltype = #nvvm.mma_type<f16>, frag = #nvvm.mma_frag<a>, k = 16 : i32, layout = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32} : (!llvm.ptr<3>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
  func.func @load_a(%m: memref<32x32xf16, 3>, %i: index, %j: index) -> !gpu.mma_matrix<16x16xf16, "AOp"> {
    %0 = gpu.subgroup_mma_load_matrix %m[%i, %j] {leadDimension = 32 : index} : memref<32x32xf16, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">
    return %0 : !gpu.mma_matrix<16x16xf16, "AOp">
  }
  // transpose: the B fragment is read column-major.
  // CHECK-LABEL: llvm.func @load_b_transposed(
  // CHECK:         nvvm.wmma.load %{{.*}}, %{{.*}} {eltype = #nvvm.mma_type<f16>, frag = #nvvm.mma_frag<b>, k = 16 : i32, layout = #nvvm.mma_layout<col>, m = 16 : i32, n = 16 : i32} : (!llvm.ptr) -> !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
  func.func @load_b_transposed(%m: memref<32x32xf16>, %i: index) -> !gpu.mma_matrix<16x16xf16, "BOp"> {
    %0 = gpu.subgroup_mma_load_matrix %m[%i, %i] {leadDimension = 32 : index, transpose} : memref<32x32xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
    return %0 : !gpu.mma_matrix<16x16xf16, "BOp">
  }
  // CHECK-LABEL: llvm.func @load_c_f32(
  // CHECK:         nvvm.wmma.load %{{.*}}, %{{.*}} {eltype = #nvvm.mma_type<f32>, frag = #nvvm.mma_frag<c>, k = 16 : i32, layout = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32} : (!llvm.ptr<1>) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  func.func @load_c_f32(%m: memref<64x64xf32, 1>, %i: index) -> !gpu.mma_matrix<16x16xf32, "COp"> {
    %0 = gpu.subgroup_mma_load_matrix %m[%i, %i] {leadDimension = 64 : index} : memref<64x64xf32, 1> -> !gpu.mma_matrix<16x16xf32, "COp">
    return %0 : !gpu.mma_matrix<16x16xf32, "COp">
  }
}

// -----

gpu.module @store {
  // The registers are unpacked before the address is computed, as upstream.
  // CHECK-LABEL: llvm.func @store_transposed(
  // CHECK-COUNT-8: llvm.extractvalue %{{.*}}[{{[0-7]}}] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  // CHECK:         %[[LD:.*]] = llvm.mlir.constant(32 : index) : i32
  // CHECK-NEXT:    nvvm.wmma.store %{{.*}}, %[[LD]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {eltype = #nvvm.mma_type<f32>, k = 16 : i32, layout = #nvvm.mma_layout<col>, m = 16 : i32, n = 16 : i32} : !llvm.ptr, f32, f32, f32, f32, f32, f32, f32, f32
  func.func @store_transposed(%c: !gpu.mma_matrix<16x16xf32, "COp">, %m: memref<32x32xf32>, %i: index) {
    gpu.subgroup_mma_store_matrix %c, %m[%i, %i] {leadDimension = 32 : index, transpose} : !gpu.mma_matrix<16x16xf32, "COp">, memref<32x32xf32>
    return
  }
  // CHECK-LABEL: llvm.func @store_f16(
  // CHECK:         nvvm.wmma.store %{{.*}} {eltype = #nvvm.mma_type<f16>, k = 16 : i32, layout = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32} : !llvm.ptr<3>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>
  func.func @store_f16(%c: !gpu.mma_matrix<16x16xf16, "COp">, %m: memref<32x32xf16, 3>, %i: index) {
    gpu.subgroup_mma_store_matrix %c, %m[%i, %i] {leadDimension = 32 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<32x32xf16, 3>
    return
  }
}

// -----

gpu.module @compute {
  // CHECK-LABEL: llvm.func @mma_f32_accumulate(
  // CHECK-COUNT-24: llvm.extractvalue
  // CHECK:         nvvm.wmma.mma %{{.*}} {eltypeA = #nvvm.mma_type<f16>, eltypeB = #nvvm.mma_type<f32>, k = 16 : i32, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32} : ({{.*}}) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  func.func @mma_f32_accumulate(%a: !gpu.mma_matrix<16x16xf16, "AOp">, %b: !gpu.mma_matrix<16x16xf16, "BOp">, %c: !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp"> {
    %d = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
    return %d : !gpu.mma_matrix<16x16xf32, "COp">
  }
  // CHECK-LABEL: llvm.func @mma_f16_accumulate_transposed(
  // CHECK-COUNT-20: llvm.extractvalue
  // CHECK:         nvvm.wmma.mma %{{.*}} {eltypeA = #nvvm.mma_type<f16>, eltypeB = #nvvm.mma_type<f16>, k = 16 : i32, layoutA = #nvvm.mma_layout<col>, layoutB = #nvvm.mma_layout<col>, m = 16 : i32, n = 16 : i32} : ({{.*}}) -> !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
  func.func @mma_f16_accumulate_transposed(%a: !gpu.mma_matrix<16x16xf16, "AOp">, %b: !gpu.mma_matrix<16x16xf16, "BOp">, %c: !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp"> {
    %d = gpu.subgroup_mma_compute %a, %b, %c {a_transpose, b_transpose} : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
    return %d : !gpu.mma_matrix<16x16xf16, "COp">
  }
  // f64 (sm_80 and newer): the A and B fragments are one bare f64 each.
  // CHECK-LABEL: llvm.func @mma_f64(
  // CHECK-SAME:    %[[A:[^:]*]]: f64, %[[B:[^:]*]]: f64, %[[C:[^:]*]]: !llvm.struct<(f64, f64)>)
  // CHECK-COUNT-2: llvm.extractvalue %[[C]]
  // CHECK:         nvvm.wmma.mma %[[A]], %[[B]], %{{.*}}, %{{.*}} {eltypeA = #nvvm.mma_type<f64>, eltypeB = #nvvm.mma_type<f64>, k = 4 : i32, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<row>, m = 8 : i32, n = 8 : i32} : (f64, f64, f64, f64) -> !llvm.struct<(f64, f64)>
  func.func @mma_f64(%a: !gpu.mma_matrix<8x4xf64, "AOp">, %b: !gpu.mma_matrix<4x8xf64, "BOp">, %c: !gpu.mma_matrix<8x8xf64, "COp">) -> !gpu.mma_matrix<8x8xf64, "COp"> {
    %d = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<8x4xf64, "AOp">, !gpu.mma_matrix<4x8xf64, "BOp"> -> !gpu.mma_matrix<8x8xf64, "COp">
    return %d : !gpu.mma_matrix<8x8xf64, "COp">
  }
  // CHECK-LABEL: llvm.func @mma_s8_m32n8k16(
  // CHECK:         nvvm.wmma.mma %{{.*}} {eltypeA = #nvvm.mma_type<s8>, eltypeB = #nvvm.mma_type<s32>, k = 16 : i32, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<row>, m = 32 : i32, n = 8 : i32} : (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32)>
  func.func @mma_s8_m32n8k16(%a: !gpu.mma_matrix<32x16xsi8, "AOp">, %b: !gpu.mma_matrix<16x8xsi8, "BOp">, %c: !gpu.mma_matrix<32x8xi32, "COp">) -> !gpu.mma_matrix<32x8xi32, "COp"> {
    %d = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<32x16xsi8, "AOp">, !gpu.mma_matrix<16x8xsi8, "BOp"> -> !gpu.mma_matrix<32x8xi32, "COp">
    return %d : !gpu.mma_matrix<32x8xi32, "COp">
  }
  // CHECK-LABEL: llvm.func @mma_tf32(
  // CHECK:         nvvm.wmma.mma %{{.*}} {eltypeA = #nvvm.mma_type<tf32>, eltypeB = #nvvm.mma_type<f32>, k = 8 : i32, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32} : (i32, i32, i32, i32, i32, i32, i32, i32, f32, f32, f32, f32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  func.func @mma_tf32(%a: !gpu.mma_matrix<16x8xf32, "AOp">, %b: !gpu.mma_matrix<8x16xf32, "BOp">, %c: !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp"> {
    %d = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<16x8xf32, "AOp">, !gpu.mma_matrix<8x16xf32, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
    return %d : !gpu.mma_matrix<16x16xf32, "COp">
  }
}

// -----

gpu.module @constant {
  // CHECK-LABEL: llvm.func @splat_f16(
  // CHECK-SAME:    %[[X:[^:]*]]: f16)
  // CHECK:         %[[P:.*]] = llvm.mlir.poison : vector<2xf16>
  // CHECK-NEXT:    %[[Z:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK-NEXT:    %[[V0:.*]] = llvm.insertelement %[[X]], %[[P]][%[[Z]] : i32] : vector<2xf16>
  // CHECK-NEXT:    %[[O:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK-NEXT:    %[[V:.*]] = llvm.insertelement %[[X]], %[[V0]][%[[O]] : i32] : vector<2xf16>
  // CHECK-NEXT:    %[[S:.*]] = llvm.mlir.poison : !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
  // CHECK-NEXT:    %[[S0:.*]] = llvm.insertvalue %[[V]], %[[S]][0]
  // CHECK-NEXT:    %[[S1:.*]] = llvm.insertvalue %[[V]], %[[S0]][1]
  // CHECK-NEXT:    %[[S2:.*]] = llvm.insertvalue %[[V]], %[[S1]][2]
  // CHECK-NEXT:    %[[S3:.*]] = llvm.insertvalue %[[V]], %[[S2]][3]
  // CHECK-NEXT:    llvm.return %[[S3]]
  func.func @splat_f16(%v: f16) -> !gpu.mma_matrix<16x16xf16, "COp"> {
    %0 = gpu.subgroup_mma_constant_matrix %v : !gpu.mma_matrix<16x16xf16, "COp">
    return %0 : !gpu.mma_matrix<16x16xf16, "COp">
  }
  // CHECK-LABEL: llvm.func @splat_f32(
  // CHECK-SAME:    %[[X:[^:]*]]: f32)
  // CHECK:         llvm.mlir.poison : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  // CHECK-COUNT-8: llvm.insertvalue %[[X]]
  func.func @splat_f32(%v: f32) -> !gpu.mma_matrix<16x16xf32, "COp"> {
    %0 = gpu.subgroup_mma_constant_matrix %v : !gpu.mma_matrix<16x16xf32, "COp">
    return %0 : !gpu.mma_matrix<16x16xf32, "COp">
  }
}

// -----

gpu.module @elementwise {
  // Each register: extract from every operand, compute, insert.
  // CHECK-LABEL: llvm.func @add(
  // CHECK:         %[[R:.*]] = llvm.mlir.poison : !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
  // CHECK-NEXT:    %[[A:.*]] = llvm.extractvalue %{{.*}}[0]
  // CHECK-NEXT:    %[[B:.*]] = llvm.extractvalue %{{.*}}[0]
  // CHECK-NEXT:    %[[S:.*]] = llvm.fadd %[[A]], %[[B]] : vector<2xf16>
  // CHECK-NEXT:    llvm.insertvalue %[[S]], %[[R]][0]
  // CHECK-COUNT-3: llvm.fadd
  func.func @add(%a: !gpu.mma_matrix<16x16xf16, "COp">, %b: !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp"> {
    %0 = gpu.subgroup_mma_elementwise addf %a, %b : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    return %0 : !gpu.mma_matrix<16x16xf16, "COp">
  }
  // maxf propagates NaN: ogt select, then uno select of a quiet NaN (xdsl-opt prints
  // its hex digits in lower case).
  // CHECK-LABEL: llvm.func @max(
  // CHECK:         %[[C:.*]] = llvm.fcmp "ogt" %[[X:.*]], %[[Y:.*]] : f32
  // CHECK-NEXT:    %[[SEL:.*]] = llvm.select %[[C]], %[[X]], %[[Y]] : i1, f32
  // CHECK-NEXT:    %[[U:.*]] = llvm.fcmp "uno" %[[X]], %[[Y]] : f32
  // CHECK-NEXT:    %[[NAN:.*]] = llvm.mlir.constant({{0x7[Ff][Cc]00000}} : f32) : f32
  // CHECK-NEXT:    llvm.select %[[U]], %[[NAN]], %[[SEL]] : i1, f32
  func.func @max(%a: !gpu.mma_matrix<16x16xf32, "COp">, %b: !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp"> {
    %0 = gpu.subgroup_mma_elementwise maxf %a, %b : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
    return %0 : !gpu.mma_matrix<16x16xf32, "COp">
  }
  // CHECK-LABEL: llvm.func @min_div_mul(
  // CHECK:         llvm.fcmp "olt"
  // CHECK:         llvm.fdiv
  // CHECK:         llvm.fmul
  func.func @min_div_mul(%a: !gpu.mma_matrix<16x16xf16, "COp">, %b: !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp"> {
    %0 = gpu.subgroup_mma_elementwise minf %a, %b : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    %1 = gpu.subgroup_mma_elementwise divf %0, %b : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    %2 = gpu.subgroup_mma_elementwise mulf %1, %a : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    return %2 : !gpu.mma_matrix<16x16xf16, "COp">
  }
}

// -----

// A K loop: the accumulator crosses blocks as a block argument of the fragment's
// struct type.
gpu.module @loop {
  // CHECK-LABEL: llvm.func @accumulate(
  // CHECK:         llvm.br ^{{.*}}(%{{.*}}, %{{.*}} : i64, !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>)
  // CHECK:       ^{{.*}}, %{{.*}}: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>):
  // CHECK:         nvvm.wmma.mma
  // CHECK:         llvm.br ^{{.*}}(%{{.*}}, %{{.*}} : i64, !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>)
  func.func @accumulate(%a: memref<16x64xf16>, %b: memref<64x16xf16>, %c: !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp"> {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    cf.br ^loop(%c0, %c : index, !gpu.mma_matrix<16x16xf32, "COp">)
  ^loop(%k: index, %acc: !gpu.mma_matrix<16x16xf32, "COp">):
    %more = arith.cmpi slt, %k, %c64 : index
    cf.cond_br %more, ^body, ^done
  ^body:
    %fa = gpu.subgroup_mma_load_matrix %a[%c0, %k] {leadDimension = 64 : index} : memref<16x64xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
    %fb = gpu.subgroup_mma_load_matrix %b[%k, %c0] {leadDimension = 16 : index} : memref<64x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
    %next = gpu.subgroup_mma_compute %fa, %fb, %acc : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
    %k1 = arith.addi %k, %c16 : index
    cf.br ^loop(%k1, %next : index, !gpu.mma_matrix<16x16xf32, "COp">)
  ^done:
    return %acc : !gpu.mma_matrix<16x16xf32, "COp">
  }
}
