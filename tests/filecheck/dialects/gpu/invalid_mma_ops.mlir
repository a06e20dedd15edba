// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | grep -v "^ *|" | filecheck %s --check-prefixes=CHECK,XDSL
// RUN: %if mlir-opt %{ not mlir-opt %s --split-input-file -o /dev/null 2>&1 | filecheck %s --check-prefixes=CHECK,MLIR %}

// Every verifier rule of the subgroup MMA ops. CHECK lines are upstream's words and
// must match both xdsl-opt and mlir-opt-22; XDSL and MLIR lines are where the two
// differ. `grep -v` drops the copy of each message that xdsl-opt prints inside the
// annotated IR, so that every message is checked once. (The rules of the
// !gpu.mma_matrix type itself are tested with the type.)

// ===--- subgroup_mma_load_matrix ---=== //

func.func @load_memref_of_2d_vectors(%src: memref<32x4xvector<4x8xf32>>, %i: index) {
  // CHECK: must be memref of 8-bit signless integer or 32-bit signless integer or 16-bit float or 32-bit float or 64-bit float or vector of 8-bit signless integer or 32-bit signless integer or 16-bit float or 32-bit float or 64-bit float values of ranks 1 values, but got 'memref<32x4xvector<4x8xf32>>'
  %0 = gpu.subgroup_mma_load_matrix %src[%i, %i] {leadDimension = 4 : index} : memref<32x4xvector<4x8xf32>> -> !gpu.mma_matrix<16x16xf16, "AOp">
  func.return
}

// -----

func.func @load_into_scalar(%src: memref<32x32xf16>, %i: index) {
  // CHECK: must be MMAMatrix type, but got 'f16'
  %0 = gpu.subgroup_mma_load_matrix %src[%i, %i] {leadDimension = 32 : index} : memref<32x32xf16> -> f16
  func.return
}

// -----

func.func @load_i32_indices(%src: memref<32x32xf16>, %i: i32) {
  // CHECK: must be variadic of index, but got 'i32'
  %0 = "gpu.subgroup_mma_load_matrix"(%src, %i, %i) <{leadDimension = 32 : index}> : (memref<32x32xf16>, i32, i32) -> !gpu.mma_matrix<16x16xf16, "AOp">
  func.return
}

// -----

func.func @load_without_lead_dimension(%src: memref<32x32xf16>, %i: index) {
  // XDSL: property 'leadDimension' expected in operation 'gpu.subgroup_mma_load_matrix'
  // MLIR: 'gpu.subgroup_mma_load_matrix' op requires attribute 'leadDimension'
  %0 = gpu.subgroup_mma_load_matrix %src[%i, %i] : memref<32x32xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
  func.return
}

// -----

func.func @load_i32_lead_dimension(%src: memref<32x32xf16>, %i: index) {
  // XDSL: i32 should be of base attribute index
  // MLIR: 'gpu.subgroup_mma_load_matrix' op attribute 'leadDimension' failed to satisfy constraint: index attribute
  %0 = gpu.subgroup_mma_load_matrix %src[%i, %i] {leadDimension = 32 : i32} : memref<32x32xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
  func.return
}

// -----

func.func @load_column_major(%src: memref<32x32xf16, affine_map<(i, j) -> (j, i)>>, %i: index) {
  // CHECK: expected source memref most minor dim must have unit stride
  %0 = gpu.subgroup_mma_load_matrix %src[%i, %i] {leadDimension = 32 : index} : memref<32x32xf16, affine_map<(i, j) -> (j, i)>> -> !gpu.mma_matrix<16x16xf16, "AOp">
  func.return
}

// -----

func.func @load_strided_column_major(%src: memref<32x32xf16, strided<[1, 32]>>, %i: index) {
  // CHECK: expected source memref most minor dim must have unit stride
  %0 = gpu.subgroup_mma_load_matrix %src[%i, %i] {leadDimension = 32 : index} : memref<32x32xf16, strided<[1, 32]>> -> !gpu.mma_matrix<16x16xf16, "AOp">
  func.return
}

// -----

func.func @load_dynamic_inner_stride(%src: memref<32x32xf16, strided<[32, ?]>>, %i: index) {
  // CHECK: expected source memref most minor dim must have unit stride
  %0 = gpu.subgroup_mma_load_matrix %src[%i, %i] {leadDimension = 32 : index} : memref<32x32xf16, strided<[32, ?]>> -> !gpu.mma_matrix<16x16xf16, "AOp">
  func.return
}

// -----

func.func @load_symbolic_inner_stride(%src: memref<32x32xf16, affine_map<(d0, d1)[s0] -> (d1 * s0 + d0)>>, %i: index) {
  // CHECK: expected source memref most minor dim must have unit stride
  %0 = gpu.subgroup_mma_load_matrix %src[%i, %i] {leadDimension = 32 : index} : memref<32x32xf16, affine_map<(d0, d1)[s0] -> (d1 * s0 + d0)>> -> !gpu.mma_matrix<16x16xf16, "AOp">
  func.return
}

// -----

func.func @load_not_strided(%src: memref<32x32xf16, affine_map<(d0, d1) -> (d0 * 32 + d1 floordiv 2)>>, %i: index) {
  // CHECK: expected source memref most minor dim must have unit stride
  %0 = gpu.subgroup_mma_load_matrix %src[%i, %i] {leadDimension = 32 : index} : memref<32x32xf16, affine_map<(d0, d1) -> (d0 * 32 + d1 floordiv 2)>> -> !gpu.mma_matrix<16x16xf16, "AOp">
  func.return
}

// ===--- subgroup_mma_store_matrix ---=== //

// -----

func.func @store_a_operand(%m: !gpu.mma_matrix<16x16xf16, "AOp">, %dst: memref<32x32xf16>, %i: index) {
  // CHECK: expected the operand matrix being stored to have 'COp' operand type
  gpu.subgroup_mma_store_matrix %m, %dst[%i, %i] {leadDimension = 32 : index} : !gpu.mma_matrix<16x16xf16, "AOp">, memref<32x32xf16>
  func.return
}

// -----

func.func @store_column_major(%m: !gpu.mma_matrix<16x16xf16, "COp">, %dst: memref<32x32xf16, affine_map<(i, j) -> (j, i)>>, %i: index) {
  // CHECK: expected destination memref most minor dim must have unit stride
  gpu.subgroup_mma_store_matrix %m, %dst[%i, %i] {leadDimension = 32 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<32x32xf16, affine_map<(i, j) -> (j, i)>>
  func.return
}

// -----

func.func @store_into_bf16(%m: !gpu.mma_matrix<16x16xf16, "COp">, %dst: memref<32x32xbf16>, %i: index) {
  // CHECK: must be memref of 8-bit signless integer or 32-bit signless integer or 16-bit float or 32-bit float or 64-bit float or vector of 8-bit signless integer or 32-bit signless integer or 16-bit float or 32-bit float or 64-bit float values of ranks 1 values, but got 'memref<32x32xbf16>'
  gpu.subgroup_mma_store_matrix %m, %dst[%i, %i] {leadDimension = 32 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<32x32xbf16>
  func.return
}

// -----

func.func @store_scalar(%h: f16, %dst: memref<32x32xf16>, %i: index) {
  // CHECK: must be gpu.mma_matrix of 8-bit signed integer or 8-bit unsigned integer or 32-bit signless integer or 16-bit float or 32-bit float or 64-bit float values, but got 'f16'
  "gpu.subgroup_mma_store_matrix"(%h, %dst, %i, %i) <{leadDimension = 32 : index}> : (f16, memref<32x32xf16>, index, index) -> ()
  func.return
}

// ===--- subgroup_mma_compute ---=== //

// -----

func.func @compute_i32_a(%a: !gpu.mma_matrix<16x16xi32, "AOp">, %b: !gpu.mma_matrix<16x16xf16, "BOp">, %c: !gpu.mma_matrix<16x16xf16, "COp">) {
  // CHECK: must be gpu.mma_matrix of 8-bit signed integer or 8-bit unsigned integer or 16-bit float or 32-bit float or 64-bit float values, but got '!gpu.mma_matrix<16x16xi32, "AOp">'
  %d = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<16x16xi32, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
  func.return
}

// -----

func.func @compute_ui8_c(%a: !gpu.mma_matrix<16x16xf16, "AOp">, %b: !gpu.mma_matrix<16x16xf16, "BOp">, %c: !gpu.mma_matrix<16x16xui8, "COp">) {
  // CHECK: must be gpu.mma_matrix of 32-bit signless integer or 16-bit float or 32-bit float or 64-bit float values, but got '!gpu.mma_matrix<16x16xui8, "COp">'
  %d = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xui8, "COp">
  func.return
}

// -----

func.func @compute_result_type(%a: !gpu.mma_matrix<16x16xf16, "AOp">, %b: !gpu.mma_matrix<16x16xf16, "BOp">, %c: !gpu.mma_matrix<16x16xf16, "COp">) {
  // CHECK: failed to verify that all of {opC, res} have same type
  %d = "gpu.subgroup_mma_compute"(%a, %b, %c) : (!gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
  func.return
}

// -----

func.func @compute_operand_order(%a: !gpu.mma_matrix<16x16xf16, "AOp">, %b: !gpu.mma_matrix<16x16xf16, "BOp">, %c: !gpu.mma_matrix<16x16xf16, "COp">) {
  // CHECK: operands must be in the order AOp, BOp, COp
  %d = gpu.subgroup_mma_compute %b, %a, %c : !gpu.mma_matrix<16x16xf16, "BOp">, !gpu.mma_matrix<16x16xf16, "AOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
  func.return
}

// -----

func.func @compute_inner_dimensions(%a: !gpu.mma_matrix<16x32xf16, "AOp">, %b: !gpu.mma_matrix<16x16xf16, "BOp">, %c: !gpu.mma_matrix<16x16xf16, "COp">) {
  // CHECK: operand shapes do not satisfy matmul constraints
  %d = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<16x32xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
  func.return
}

// -----

func.func @compute_result_columns(%a: !gpu.mma_matrix<16x16xf16, "AOp">, %b: !gpu.mma_matrix<16x8xf16, "BOp">, %c: !gpu.mma_matrix<16x16xf16, "COp">) {
  // CHECK: operand shapes do not satisfy matmul constraints
  %d = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x8xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
  func.return
}

// ===--- subgroup_mma_constant_matrix ---=== //

// -----

func.func @constant_f64(%v: f64) {
  // CHECK: must be 8-bit signed integer or 8-bit unsigned integer or 32-bit signless integer or 16-bit float or 32-bit float, but got 'f64'
  %0 = gpu.subgroup_mma_constant_matrix %v : !gpu.mma_matrix<16x16xf64, "COp">
  func.return
}

// -----

func.func @constant_element_type(%v: f16) {
  // CHECK: failed to verify that value type matches element type of mma_matrix
  %0 = "gpu.subgroup_mma_constant_matrix"(%v) : (f16) -> !gpu.mma_matrix<16x16xf32, "COp">
  func.return
}

// -----

func.func @constant_scalar(%v: f16) {
  // CHECK: must be MMAMatrix type, but got 'f16'
  %0 = "gpu.subgroup_mma_constant_matrix"(%v) : (f16) -> f16
  func.return
}

// ===--- subgroup_mma_extract_thread_local / insert_thread_local ---=== //

// -----

func.func @extract_type(%m: !gpu.mma_matrix<16x16xf16, "COp">, %i: index) {
  // CHECK: failed to verify that value type matches element type of mma_matrix
  %0 = gpu.subgroup_mma_extract_thread_local %m[%i] : !gpu.mma_matrix<16x16xf16, "COp"> -> f32
  func.return
}

// -----

func.func @extract_unsigned(%m: !gpu.mma_matrix<16x16xui8, "COp">, %i: index) {
  // CHECK: must be Integer or Float, but got 'ui8'
  %0 = gpu.subgroup_mma_extract_thread_local %m[%i] : !gpu.mma_matrix<16x16xui8, "COp"> -> ui8
  func.return
}

// -----

func.func @extract_from_scalar(%h: f16, %i: index) {
  // CHECK: must be MMAMatrix type, but got 'f16'
  %0 = "gpu.subgroup_mma_extract_thread_local"(%h, %i) : (f16, index) -> f16
  func.return
}

// -----

func.func @insert_type(%m: !gpu.mma_matrix<16x16xf16, "COp">, %i: index, %v: f32) {
  // CHECK: failed to verify that value type matches element type of mma_matrix
  %0 = gpu.subgroup_mma_insert_thread_local %v, %m[%i] : f32, !gpu.mma_matrix<16x16xf16, "COp"> -> !gpu.mma_matrix<16x16xf16, "COp">
  func.return
}

// -----

func.func @insert_scalar_result(%m: !gpu.mma_matrix<16x16xf16, "COp">, %i: index, %v: f16) {
  // CHECK: must be MMAMatrix type, but got 'f16'
  %0 = "gpu.subgroup_mma_insert_thread_local"(%v, %m, %i) : (f16, !gpu.mma_matrix<16x16xf16, "COp">, index) -> f16
  func.return
}

// ===--- subgroup_mma_elementwise ---=== //

// -----

func.func @elementwise_scalar_argument(%a: !gpu.mma_matrix<16x16xf16, "COp">, %b: f16) {
  // CHECK: must be variadic of MMAMatrix type, but got 'f16'
  %0 = gpu.subgroup_mma_elementwise addf %a, %b : (!gpu.mma_matrix<16x16xf16, "COp">, f16) -> !gpu.mma_matrix<16x16xf16, "COp">
  func.return
}

// -----

func.func @elementwise_scalar_result(%a: !gpu.mma_matrix<16x16xf16, "COp">) {
  // CHECK: must be MMAMatrix type, but got 'f16'
  %0 = gpu.subgroup_mma_elementwise negatef %a : (!gpu.mma_matrix<16x16xf16, "COp">) -> f16
  func.return
}

// -----

func.func @elementwise_bad_kind(%a: !gpu.mma_matrix<16x16xf16, "COp">) {
  // XDSL: Expected `addf`, `mulf`, `subf`, `maxf`, `minf`, `divf`, `addi`, `muli`, `subi`, `divs`, `divu`, `negatef`, `negates`, or `extf`.
  // MLIR: expected ::mlir::gpu::MMAElementwiseOp to be one of: addf, mulf, subf, maxf, minf, divf, addi, muli, subi, divs, divu, negatef, negates, extf
  %0 = gpu.subgroup_mma_elementwise powf %a : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
  func.return
}
