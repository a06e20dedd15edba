// RUN: XDSL_ROUNDTRIP
// RUN: xdsl-opt %s --split-input-file | filecheck %s

// Every vector op in upstream MLIR 22's custom syntax, as xdsl-gpu prints it back
// (xdsl_gpu/gpu_dialect/vector/). Every chunk is also checked against mlir-opt-22 in
// both directions and in the generic form (tests/test_mlir_conformance.py).
// `vector.splat` is gone from MLIR 22 (use vector.broadcast). A bare `vector.print`
// comes last in its block: upstream's own parser reads a following `%x = ...` as
// its operand.

// memory: load/store, masked, gather/scatter, expand/compress
// CHECK-LABEL: func.func @memory(
func.func @memory(%m: memref<?x?xf32>, %i: index, %v: vector<4xf32>, %mask: vector<4xi1>, %idx: vector<4xi32>, %mv: memref<8xvector<4xf32>>) {
  // CHECK-NEXT: %0 = vector.load %m[%i, %i] : memref<?x?xf32>, vector<4xf32>
  %0 = vector.load %m[%i, %i] : memref<?x?xf32>, vector<4xf32>
  // CHECK-NEXT: %1 = vector.load %m[%i, %i] {nontemporal = true} : memref<?x?xf32>, vector<2x4xf32>
  %1 = vector.load %m[%i, %i] {nontemporal = true} : memref<?x?xf32>, vector<2x4xf32>
  // CHECK-NEXT: %2 = vector.load %mv[%i] : memref<8xvector<4xf32>>, vector<4xf32>
  %2 = vector.load %mv[%i] : memref<8xvector<4xf32>>, vector<4xf32>
  // CHECK-NEXT: vector.store %v, %m[%i, %i] : memref<?x?xf32>, vector<4xf32>
  vector.store %v, %m[%i, %i] : memref<?x?xf32>, vector<4xf32>
  // CHECK-NEXT: vector.store %v, %m[%i, %i] {nontemporal = true} : memref<?x?xf32>, vector<4xf32>
  vector.store %v, %m[%i, %i] {nontemporal = true} : memref<?x?xf32>, vector<4xf32>
  // CHECK-NEXT: %3 = vector.maskedload %m[%i, %i], %mask, %v : memref<?x?xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  %3 = vector.maskedload %m[%i, %i], %mask, %v : memref<?x?xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  // CHECK-NEXT: vector.maskedstore %m[%i, %i], %mask, %v : memref<?x?xf32>, vector<4xi1>, vector<4xf32>
  vector.maskedstore %m[%i, %i], %mask, %v : memref<?x?xf32>, vector<4xi1>, vector<4xf32>
  // CHECK-NEXT: %4 = vector.gather %m[%i, %i] [%idx], %mask, %v : memref<?x?xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  %4 = vector.gather %m[%i, %i] [%idx], %mask, %v : memref<?x?xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  // CHECK-NEXT: vector.scatter %m[%i, %i] [%idx], %mask, %v : memref<?x?xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32>
  vector.scatter %m[%i, %i] [%idx], %mask, %v : memref<?x?xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32>
  // CHECK-NEXT: %5 = vector.expandload %m[%i, %i], %mask, %v : memref<?x?xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  %5 = vector.expandload %m[%i, %i], %mask, %v : memref<?x?xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  // CHECK-NEXT: vector.compressstore %m[%i, %i], %mask, %v : memref<?x?xf32>, vector<4xi1>, vector<4xf32>
  vector.compressstore %m[%i, %i], %mask, %v : memref<?x?xf32>, vector<4xi1>, vector<4xf32>
  // CHECK-NEXT: func.return
  return
}

// -----

// transfer_read/transfer_write: minor identity maps are elided, in_bounds only when some is true
// CHECK-DAG:   #[[$D0:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG:   #[[$SWAP:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG:   #[[$BCAST:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func.func @transfer(
func.func @transfer(%m: memref<?x?xf32>, %t: tensor<?x?xf32>, %i: index, %f: f32, %v: vector<4xf32>, %v2: vector<2x4xf32>, %mask: vector<4xi1>, %mv: memref<?xvector<4xf32>>, %pv: vector<4xf32>) {
  // CHECK-NEXT: %0 = vector.transfer_read %m[%i, %i], %f : memref<?x?xf32>, vector<4xf32>
  %0 = vector.transfer_read %m[%i, %i], %f : memref<?x?xf32>, vector<4xf32>
  // CHECK-NEXT: %1 = vector.transfer_read %m[%i, %i], %f, %mask {in_bounds = [true]} : memref<?x?xf32>, vector<4xf32>
  %1 = vector.transfer_read %m[%i, %i], %f, %mask {in_bounds = [true]} : memref<?x?xf32>, vector<4xf32>
  // CHECK-NEXT: %2 = vector.transfer_read %m[%i, %i], %f {permutation_map = #[[$D0]]} : memref<?x?xf32>, vector<4xf32>
  %2 = vector.transfer_read %m[%i, %i], %f {permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<?x?xf32>, vector<4xf32>
  // CHECK-NEXT: %3 = vector.transfer_read %m[%i, %i], %f {permutation_map = #[[$SWAP]]} : memref<?x?xf32>, vector<4x2xf32>
  %3 = vector.transfer_read %m[%i, %i], %f {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<?x?xf32>, vector<4x2xf32>
  // CHECK-NEXT: %4 = vector.transfer_read %m[%i, %i], %f {in_bounds = [false, true], permutation_map = #[[$BCAST]]} : memref<?x?xf32>, vector<2x4xf32>
  %4 = vector.transfer_read %m[%i, %i], %f {in_bounds = [false, true], permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<?x?xf32>, vector<2x4xf32>
  // CHECK-NEXT: %5 = vector.transfer_read %t[%i, %i], %f : tensor<?x?xf32>, vector<2x4xf32>
  %5 = vector.transfer_read %t[%i, %i], %f : tensor<?x?xf32>, vector<2x4xf32>
  // CHECK-NEXT: %6 = vector.transfer_read %mv[%i], %pv : memref<?xvector<4xf32>>, vector<2x4xf32>
  %6 = vector.transfer_read %mv[%i], %pv : memref<?xvector<4xf32>>, vector<2x4xf32>
  // CHECK-NEXT: vector.transfer_write %v, %m[%i, %i] : vector<4xf32>, memref<?x?xf32>
  vector.transfer_write %v, %m[%i, %i] : vector<4xf32>, memref<?x?xf32>
  // CHECK-NEXT: vector.transfer_write %v, %m[%i, %i], %mask {in_bounds = [true]} : vector<4xf32>, memref<?x?xf32>
  vector.transfer_write %v, %m[%i, %i], %mask {in_bounds = [true]} : vector<4xf32>, memref<?x?xf32>
  // CHECK-NEXT: vector.transfer_write %v2, %m[%i, %i] {permutation_map = #[[$SWAP]]} : vector<2x4xf32>, memref<?x?xf32>
  vector.transfer_write %v2, %m[%i, %i] {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : vector<2x4xf32>, memref<?x?xf32>
  // CHECK-NEXT: %7 = vector.transfer_write %v2, %t[%i, %i] : vector<2x4xf32>, tensor<?x?xf32>
  %7 = vector.transfer_write %v2, %t[%i, %i] : vector<2x4xf32>, tensor<?x?xf32>
  // CHECK-NEXT: func.return
  return
}

// -----

// broadcast, extract/insert (static, dynamic, poison), strided slices, shuffle
// CHECK-LABEL: func.func @shapes(
func.func @shapes(%f: f32, %i: index, %v: vector<4xf32>, %v2: vector<2x4xf32>, %v0: vector<f32>, %s: vector<[4]xf32>) {
  // CHECK-NEXT: %0 = vector.broadcast %f : f32 to vector<4xf32>
  %0 = vector.broadcast %f : f32 to vector<4xf32>
  // CHECK-NEXT: %1 = vector.broadcast %v : vector<4xf32> to vector<3x4xf32>
  %1 = vector.broadcast %v : vector<4xf32> to vector<3x4xf32>
  // CHECK-NEXT: %2 = vector.broadcast %v0 : vector<f32> to vector<2x4xf32>
  %2 = vector.broadcast %v0 : vector<f32> to vector<2x4xf32>
  // CHECK-NEXT: %3 = vector.broadcast %f : f32 to vector<[4]xf32>
  %3 = vector.broadcast %f : f32 to vector<[4]xf32>
  // CHECK-NEXT: %4 = vector.extract %v2[1] : vector<4xf32> from vector<2x4xf32>
  %4 = vector.extract %v2[1] : vector<4xf32> from vector<2x4xf32>
  // CHECK-NEXT: %5 = vector.extract %v2[1, 3] : f32 from vector<2x4xf32>
  %5 = vector.extract %v2[1, 3] : f32 from vector<2x4xf32>
  // CHECK-NEXT: %6 = vector.extract %v2[%i, 2] : f32 from vector<2x4xf32>
  %6 = vector.extract %v2[%i, 2] : f32 from vector<2x4xf32>
  // CHECK-NEXT: %7 = vector.extract %v2[-1] : vector<4xf32> from vector<2x4xf32>
  %7 = vector.extract %v2[-1] : vector<4xf32> from vector<2x4xf32>
  // CHECK-NEXT: %8 = vector.extract %s[%i] : f32 from vector<[4]xf32>
  %8 = vector.extract %s[%i] : f32 from vector<[4]xf32>
  // CHECK-NEXT: %9 = vector.insert %f, %v2 [1, 2] : f32 into vector<2x4xf32>
  %9 = vector.insert %f, %v2 [1, 2] : f32 into vector<2x4xf32>
  // CHECK-NEXT: %10 = vector.insert %v, %v2 [%i] : vector<4xf32> into vector<2x4xf32>
  %10 = vector.insert %v, %v2 [%i] : vector<4xf32> into vector<2x4xf32>
  // CHECK-NEXT: %11 = vector.extract_strided_slice %v2 {offsets = [0, 1], sizes = [2, 2], strides = [1, 1]} : vector<2x4xf32> to vector<2x2xf32>
  %11 = vector.extract_strided_slice %v2 {offsets = [0, 1], sizes = [2, 2], strides = [1, 1]} : vector<2x4xf32> to vector<2x2xf32>
  // CHECK-NEXT: %12 = vector.extract_strided_slice %v2 {offsets = [1], sizes = [1], strides = [1]} : vector<2x4xf32> to vector<1x4xf32>
  %12 = vector.extract_strided_slice %v2 {offsets = [1], sizes = [1], strides = [1]} : vector<2x4xf32> to vector<1x4xf32>
  // CHECK-NEXT: %13 = vector.insert_strided_slice %v, %v2 {offsets = [1, 0], strides = [1]} : vector<4xf32> into vector<2x4xf32>
  %13 = vector.insert_strided_slice %v, %v2 {offsets = [1, 0], strides = [1]} : vector<4xf32> into vector<2x4xf32>
  // CHECK-NEXT: %14 = vector.shuffle %v, %v [0, 4, 1, 5, -1] : vector<4xf32>, vector<4xf32>
  %14 = vector.shuffle %v, %v [0, 4, 1, 5, -1] : vector<4xf32>, vector<4xf32>
  // CHECK-NEXT: %15 = vector.shuffle %v2, %v2 [3, 0] : vector<2x4xf32>, vector<2x4xf32>
  %15 = vector.shuffle %v2, %v2 [3, 0] : vector<2x4xf32>, vector<2x4xf32>
  // CHECK-NEXT: %16 = vector.shuffle %v0, %v0 [0, 1] : vector<f32>, vector<f32>
  %16 = vector.shuffle %v0, %v0 [0, 1] : vector<f32>, vector<f32>
  // CHECK-NEXT: func.return
  return
}

// -----

// transpose, shape_cast, bitcast, type_cast, from_elements/to_elements, interleave/deinterleave
// CHECK-LABEL: func.func @casts(
func.func @casts(%f: f32, %v: vector<4xf32>, %v2: vector<2x4xf32>, %m: memref<2x4xf32>, %s: vector<[8]xf32>) {
  // CHECK-NEXT: %0 = vector.transpose %v2, [1, 0] : vector<2x4xf32> to vector<4x2xf32>
  %0 = vector.transpose %v2, [1, 0] : vector<2x4xf32> to vector<4x2xf32>
  // CHECK-NEXT: %1 = vector.shape_cast %v2 : vector<2x4xf32> to vector<8xf32>
  %1 = vector.shape_cast %v2 : vector<2x4xf32> to vector<8xf32>
  // CHECK-NEXT: %2 = vector.shape_cast %v : vector<4xf32> to vector<1x2x2xf32>
  %2 = vector.shape_cast %v : vector<4xf32> to vector<1x2x2xf32>
  // CHECK-NEXT: %3 = vector.bitcast %v : vector<4xf32> to vector<8xi16>
  %3 = vector.bitcast %v : vector<4xf32> to vector<8xi16>
  // CHECK-NEXT: %4 = vector.bitcast %v2 : vector<2x4xf32> to vector<2x2xf64>
  %4 = vector.bitcast %v2 : vector<2x4xf32> to vector<2x2xf64>
  // CHECK-NEXT: %5 = vector.type_cast %m : memref<2x4xf32> to memref<vector<2x4xf32>>
  %5 = vector.type_cast %m : memref<2x4xf32> to memref<vector<2x4xf32>>
  // CHECK-NEXT: %6 = vector.from_elements %f, %f, %f, %f : vector<2x2xf32>
  %6 = vector.from_elements %f, %f, %f, %f : vector<2x2xf32>
  // CHECK-NEXT: %7 = vector.from_elements %f : vector<f32>
  %7 = vector.from_elements %f : vector<f32>
  // CHECK-NEXT: %8, %9, %10, %11 = vector.to_elements %v : vector<4xf32>
  %8:4 = vector.to_elements %v : vector<4xf32>
  // CHECK-NEXT: %12 = vector.interleave %v, %v : vector<4xf32> -> vector<8xf32>
  %9 = vector.interleave %v, %v : vector<4xf32> -> vector<8xf32>
  // CHECK-NEXT: %13, %14 = vector.deinterleave %v2 : vector<2x4xf32> -> vector<2x2xf32>
  %10, %11 = vector.deinterleave %v2 : vector<2x4xf32> -> vector<2x2xf32>
  // CHECK-NEXT: %15, %16 = vector.deinterleave %s : vector<[8]xf32> -> vector<[4]xf32>
  %12, %13 = vector.deinterleave %s : vector<[8]xf32> -> vector<[4]xf32>
  // CHECK-NEXT: func.return
  return
}

// -----

// fma, reduction, multi_reduction, contract, outerproduct
// CHECK-DAG:   #[[$LHS:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[$RHS:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[$ACC:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG:   #[[$ID:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG:   #[[$SCALAR:.*]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func @compute(
func.func @compute(%f: f32, %v: vector<4xf32>, %vi: vector<4xi32>, %v2: vector<2x4xf32>, %a: vector<2x3xf32>, %b: vector<3x4xf32>, %acc: vector<4x4xf32>, %x: vector<3xf32>, %y: vector<3xf32>) {
  // CHECK-NEXT: %0 = vector.fma %v, %v, %v : vector<4xf32>
  %0 = vector.fma %v, %v, %v : vector<4xf32>
  // CHECK-NEXT: %1 = vector.reduction <add>, %v : vector<4xf32> into f32
  %1 = vector.reduction <add>, %v : vector<4xf32> into f32
  // CHECK-NEXT: %2 = vector.reduction <maxnumf>, %v, %f fastmath<fast> : vector<4xf32> into f32
  %2 = vector.reduction <maxnumf>, %v, %f fastmath<fast> : vector<4xf32> into f32
  // CHECK-NEXT: %3 = vector.reduction <xor>, %vi : vector<4xi32> into i32
  %3 = vector.reduction <xor>, %vi : vector<4xi32> into i32
  // CHECK-NEXT: %4 = vector.multi_reduction <add>, %v2, %v [0] : vector<2x4xf32> to vector<4xf32>
  %4 = vector.multi_reduction <add>, %v2, %v [0] : vector<2x4xf32> to vector<4xf32>
  // CHECK-NEXT: %5 = vector.multi_reduction <maximumf>, %v2, %f [0, 1] : vector<2x4xf32> to f32
  %5 = vector.multi_reduction <maximumf>, %v2, %f [0, 1] : vector<2x4xf32> to f32
  // CHECK-NEXT: %6 = vector.contract {indexing_maps = [#[[$LHS]], #[[$RHS]], #[[$ACC]]], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %v2 : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  %6 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %v2 : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  // CHECK-NEXT: %7 = vector.contract {indexing_maps = [#[[$ID]], #[[$ID]], #[[$SCALAR]]], iterator_types = ["reduction"], kind = #vector.kind<add>} %x, %y, %f : vector<3xf32>, vector<3xf32> into f32
  %7 = vector.contract {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %x, %y, %f : vector<3xf32>, vector<3xf32> into f32
  // CHECK-NEXT: %8 = vector.outerproduct %v, %v : vector<4xf32>, vector<4xf32>
  %8 = vector.outerproduct %v, %v : vector<4xf32>, vector<4xf32>
  // CHECK-NEXT: %9 = vector.outerproduct %v, %v, %acc {kind = #vector.kind<maxnumf>} : vector<4xf32>, vector<4xf32>
  %9 = vector.outerproduct %v, %v, %acc {kind = #vector.kind<maxnumf>} : vector<4xf32>, vector<4xf32>
  // CHECK-NEXT: %10 = vector.outerproduct %v, %f, %v {kind = #vector.kind<add>} : vector<4xf32>, f32
  %10 = vector.outerproduct %v, %f, %v {kind = #vector.kind<add>} : vector<4xf32>, f32
  // CHECK-NEXT: func.return
  return
}

// -----

// masks, step, print
// CHECK-LABEL: func.func @masks(
func.func @masks(%i: index, %f: f32, %v: vector<4xf32>) {
  // CHECK-NEXT: %0 = vector.create_mask %i, %i : vector<2x4xi1>
  %0 = vector.create_mask %i, %i : vector<2x4xi1>
  // CHECK-NEXT: %1 = vector.create_mask %i : vector<[4]xi1>
  %1 = vector.create_mask %i : vector<[4]xi1>
  // CHECK-NEXT: %2 = vector.constant_mask [1, 2] : vector<2x4xi1>
  %2 = vector.constant_mask [1, 2] : vector<2x4xi1>
  // CHECK-NEXT: %3 = vector.constant_mask [0, 0] : vector<2x4xi1>
  %3 = vector.constant_mask [0, 0] : vector<2x4xi1>
  // CHECK-NEXT: %4 = vector.constant_mask [4] : vector<[4]xi1>
  %4 = vector.constant_mask [4] : vector<[4]xi1>
  // CHECK-NEXT: %5 = vector.step : vector<4xindex>
  %5 = vector.step : vector<4xindex>
  // CHECK-NEXT: %6 = vector.step : vector<[4]xindex>
  %6 = vector.step : vector<[4]xindex>
  // CHECK-NEXT: %7 = vector.vscale
  %7 = vector.vscale
  // CHECK-NEXT: vector.print %v : vector<4xf32>
  vector.print %v : vector<4xf32>
  // CHECK-NEXT: vector.print %f : f32 punctuation <no_punctuation>
  vector.print %f : f32 punctuation <no_punctuation>
  // CHECK-NEXT: vector.print punctuation <comma>
  vector.print punctuation <comma>
  // CHECK-NEXT: vector.print str "hello\0A"
  vector.print str "hello\n"
  // CHECK-NEXT: vector.print
  vector.print
  // CHECK-NEXT: func.return
  return
}

// -----

// alignment (MLIR 22): an optional i64 property of every vector memory op
// CHECK-LABEL: func.func @alignment(
func.func @alignment(%m: memref<?xf32>, %i: index, %v: vector<4xf32>, %mask: vector<4xi1>, %idx: vector<4xi32>) {
  // CHECK-NEXT: %0 = vector.load %m[%i] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
  %0 = vector.load %m[%i] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
  // CHECK-NEXT: vector.store %0, %m[%i] {alignment = 16 : i64, nontemporal = true} : memref<?xf32>, vector<4xf32>
  vector.store %0, %m[%i] {alignment = 16 : i64, nontemporal = true} : memref<?xf32>, vector<4xf32>
  // CHECK-NEXT: %1 = vector.maskedload %m[%i], %mask, %v {alignment = 8 : i64} : memref<?xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  %1 = vector.maskedload %m[%i], %mask, %v {alignment = 8 : i64} : memref<?xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  // CHECK-NEXT: vector.maskedstore %m[%i], %mask, %1 {alignment = 8 : i64} : memref<?xf32>, vector<4xi1>, vector<4xf32>
  vector.maskedstore %m[%i], %mask, %1 {alignment = 8 : i64} : memref<?xf32>, vector<4xi1>, vector<4xf32>
  // CHECK-NEXT: %2 = vector.gather %m[%i] [%idx], %mask, %v {alignment = 4 : i64} : memref<?xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  %2 = vector.gather %m[%i] [%idx], %mask, %v {alignment = 4 : i64} : memref<?xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  // CHECK-NEXT: vector.scatter %m[%i] [%idx], %mask, %2 {alignment = 4 : i64} : memref<?xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32>
  vector.scatter %m[%i] [%idx], %mask, %2 {alignment = 4 : i64} : memref<?xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32>
  // CHECK-NEXT: %3 = vector.expandload %m[%i], %mask, %v {alignment = 4 : i64} : memref<?xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  %3 = vector.expandload %m[%i], %mask, %v {alignment = 4 : i64} : memref<?xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  // CHECK-NEXT: vector.compressstore %m[%i], %mask, %3 {alignment = 4 : i64} : memref<?xf32>, vector<4xi1>, vector<4xf32>
  vector.compressstore %m[%i], %mask, %3 {alignment = 4 : i64} : memref<?xf32>, vector<4xi1>, vector<4xf32>
  return
}
