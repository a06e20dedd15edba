// RUN: xdsl-opt %s -p expand-strided-metadata --split-input-file --verify-diagnostics | filecheck %s

// subview: base buffer and metadata of the source, new offset and strides by
// affine.apply (folded to constants when static).

// CHECK-LABEL: func.func @subview_static
func.func @subview_static(%m: memref<8x16xf32>) -> memref<4x4xf32, strided<[32, 2], offset: 18>> {
  // CHECK-NEXT: %[[B:.*]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %m : memref<8x16xf32> -> memref<f32>, index, index, index, index, index
  // CHECK-NEXT: %[[R:.*]] = memref.reinterpret_cast %[[B]] to offset: [18], sizes: [4, 4], strides: [32, 2] : memref<f32> to memref<4x4xf32, strided<[32, 2], offset: 18>>
  // CHECK-NEXT: func.return %[[R]]
  %0 = memref.subview %m[1, 2][4, 4][2, 2] : memref<8x16xf32> to memref<4x4xf32, strided<[32, 2], offset: 18>>
  return %0 : memref<4x4xf32, strided<[32, 2], offset: 18>>
}

// -----

// Dynamic metadata: offset = base_offset + sum(sub_offset * base_stride), stride =
// base_stride * sub_stride; the unit dimension of a rank-reducing subview drops.

// CHECK-DAG:   #[[$ESM1:.*]] = affine_map<()[s0] -> (s0 * 2)>
// CHECK-DAG:   #[[$ESM2:.*]] = affine_map<()[s0, s1, s2, s3] -> (s0 + s1 * s2 + s3 * 2)>
// CHECK-LABEL: func.func @subview_dynamic
func.func @subview_dynamic(%m: memref<?x?xf32, strided<[?, ?], offset: ?>>, %o: index, %s: index) -> memref<?xf32, strided<[?], offset: ?>> {
  // CHECK-NEXT: %[[B:.*]], %[[OFF:.*]], %{{.*}}, %{{.*}}, %[[S0:.*]], %[[S1:.*]] = memref.extract_strided_metadata %m
  // CHECK-NEXT: %[[STRIDE:.*]] = affine.apply #[[$ESM1]]()[%[[S1]]]
  // CHECK-NEXT: %[[OFFSET:.*]] = affine.apply #[[$ESM2]]()[%[[OFF]], %o, %[[S0]], %[[S1]]]
  // CHECK-NEXT: %[[R:.*]] = memref.reinterpret_cast %[[B]] to offset: [%[[OFFSET]]], sizes: [%s], strides: [%[[STRIDE]]] : memref<f32> to memref<?xf32, strided<[?], offset: ?>>
  %0 = memref.subview %m[%o, 2][1, %s][1, 2] : memref<?x?xf32, strided<[?, ?], offset: ?>> to memref<?xf32, strided<[?], offset: ?>>
  return %0 : memref<?xf32, strided<[?], offset: ?>>
}

// -----

// A subview of a subview reads the first source's base buffer; the intermediate
// views disappear.

// CHECK-DAG:   #[[$ESM3:.*]] = affine_map<()[s0] -> (s0 * 16 + 2)>
// CHECK-DAG:   #[[$ESM4:.*]] = affine_map<()[s0, s1] -> (s0 + s1 + 16)>
// CHECK-LABEL: func.func @subview_chain
func.func @subview_chain(%m: memref<8x16xf32>, %i: index) -> memref<2x2xf32, strided<[32, 3], offset: ?>> {
  // CHECK-NEXT: %[[B:.*]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %m
  // CHECK-NEXT: %[[O1:.*]] = affine.apply #[[$ESM3]]()[%i]
  // CHECK-NEXT: %[[O2:.*]] = affine.apply #[[$ESM4]]()[%[[O1]], %i]
  // CHECK-NEXT: %[[R:.*]] = memref.reinterpret_cast %[[B]] to offset: [%[[O2]]], sizes: [2, 2], strides: [32, 3]
  // CHECK-NEXT: func.return %[[R]]
  %0 = memref.subview %m[%i, 2][4, 8][1, 1] : memref<8x16xf32> to memref<4x8xf32, strided<[16, 1], offset: ?>>
  %1 = memref.subview %0[1, %i][2, 2][2, 3] : memref<4x8xf32, strided<[16, 1], offset: ?>> to memref<2x2xf32, strided<[32, 3], offset: ?>>
  return %1 : memref<2x2xf32, strided<[32, 3], offset: ?>>
}

// -----

// CHECK-DAG:   #[[$ESM5:.*]] = affine_map<()[s0] -> (s0 * 16)>
// CHECK-LABEL: func.func @rank_reducing
func.func @rank_reducing(%m: memref<8x16xf32>, %i: index) -> memref<16xf32, strided<[1], offset: ?>> {
  // CHECK-NEXT: %[[B:.*]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %m
  // CHECK-NEXT: %[[O:.*]] = affine.apply #[[$ESM5]]()[%i]
  // CHECK-NEXT: memref.reinterpret_cast %[[B]] to offset: [%[[O]]], sizes: [16], strides: [1] : memref<f32> to memref<16xf32, strided<[1], offset: ?>>
  %0 = memref.subview %m[%i, 0][1, 16][1, 1] : memref<8x16xf32> to memref<16xf32, strided<[1], offset: ?>>
  return %0 : memref<16xf32, strided<[1], offset: ?>>
}

// -----

// collapse_shape: the product of the group's sizes, the stride of its innermost
// dimension.

// CHECK-DAG:   #[[$ESM6:.*]] = affine_map<()[s0, s1] -> ((s0 * s1) * 4)>
// CHECK-DAG:   #[[$ESM7:.*]] = affine_map<()[s0] -> (s0 * 4)>
// CHECK-LABEL: func.func @collapse
func.func @collapse(%m: memref<?x4x?xf32>, %s: memref<?x4x?xf32, strided<[?, ?, ?], offset: ?>>) -> (memref<?xf32>, memref<?x?xf32, strided<[?, ?], offset: ?>>) {
  // CHECK-NEXT: %[[B:.*]], %{{.*}}, %[[D0:.*]], %{{.*}}, %[[D2:.*]], %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %m
  // CHECK-NEXT: %[[N:.*]] = affine.apply #[[$ESM6]]()[%[[D0]], %[[D2]]]
  // CHECK-NEXT: %[[R:.*]] = memref.reinterpret_cast %[[B]] to offset: [0], sizes: [%[[N]]], strides: [1] : memref<f32> to memref<?xf32>
  %0 = memref.collapse_shape %m [[0, 1, 2]] : memref<?x4x?xf32> into memref<?xf32>
  // CHECK-NEXT: %[[SB:.*]], %[[SO:.*]], %[[SD0:.*]], %{{.*}}, %[[SD2:.*]], %{{.*}}, %[[ST1:.*]], %[[ST2:.*]] = memref.extract_strided_metadata %s
  // CHECK-NEXT: %[[SN:.*]] = affine.apply #[[$ESM7]]()[%[[SD0]]]
  // CHECK-NEXT: memref.reinterpret_cast %[[SB]] to offset: [%[[SO]]], sizes: [%[[SN]], %[[SD2]]], strides: [%[[ST1]], %[[ST2]]]
  %1 = memref.collapse_shape %s [[0, 1], [2]] : memref<?x4x?xf32, strided<[?, ?, ?], offset: ?>> into memref<?x?xf32, strided<[?, ?], offset: ?>>
  return %0, %1 : memref<?xf32>, memref<?x?xf32, strided<[?, ?], offset: ?>>
}

// -----

// expand_shape: the dynamic size is the source size divided by the static sizes of
// its group (as mlir-opt 22 computes it); strides are suffix products.

// CHECK-DAG:   #[[$ESM8:.*]] = affine_map<()[s0] -> (s0 floordiv 4)>
// CHECK-DAG:   #[[$ESM9:.*]] = affine_map<()[s0] -> (s0 * 4)>
// CHECK-DAG:   #[[$ESM10:.*]] = affine_map<()[s0] -> (s0 floordiv 2)>
// CHECK-DAG:   #[[$ESM11:.*]] = affine_map<()[s0, s1] -> (s0 * (s1 floordiv 2))>
// CHECK-LABEL: func.func @expand
func.func @expand(%m: memref<?xf32>, %n: index, %s: memref<?x?xf32, strided<[?, ?], offset: ?>>, %a: index, %b: index) -> (memref<?x4xf32>, memref<?x4x2x?xf32, strided<[?, ?, ?, ?], offset: ?>>) {
  // CHECK-NEXT: %[[B:.*]], %{{.*}}, %[[D:.*]], %{{.*}} = memref.extract_strided_metadata %m
  // CHECK-NEXT: %[[N:.*]] = affine.apply #[[$ESM8]]()[%[[D]]]
  // CHECK-NEXT: memref.reinterpret_cast %[[B]] to offset: [0], sizes: [%[[N]], 4], strides: [4, 1] : memref<f32> to memref<?x4xf32>
  %0 = memref.expand_shape %m [[0, 1]] output_shape [%n, 4] : memref<?xf32> into memref<?x4xf32>
  // CHECK-NEXT: %[[SB:.*]], %[[SO:.*]], %[[D0:.*]], %[[D1:.*]], %[[T0:.*]], %[[T1:.*]] = memref.extract_strided_metadata %s
  // CHECK-NEXT: %[[E0:.*]] = affine.apply #[[$ESM8]]()[%[[D0]]]
  // CHECK-NEXT: %[[F0:.*]] = affine.apply #[[$ESM9]]()[%[[T0]]]
  // CHECK-NEXT: %[[E3:.*]] = affine.apply #[[$ESM10]]()[%[[D1]]]
  // CHECK-NEXT: %[[F2:.*]] = affine.apply #[[$ESM11]]()[%[[T1]], %[[D1]]]
  // CHECK-NEXT: memref.reinterpret_cast %[[SB]] to offset: [%[[SO]]], sizes: [%[[E0]], 4, 2, %[[E3]]], strides: [%[[F0]], %[[T0]], %[[F2]], %[[T1]]]
  %1 = memref.expand_shape %s [[0, 1], [2, 3]] output_shape [%a, 4, 2, %b] : memref<?x?xf32, strided<[?, ?], offset: ?>> into memref<?x4x2x?xf32, strided<[?, ?, ?, ?], offset: ?>>
  return %0, %1 : memref<?x4xf32>, memref<?x4x2x?xf32, strided<[?, ?, ?, ?], offset: ?>>
}

// -----

// Two dynamic sizes in one group (mlir-opt 22 crashes here): the sizes come from
// output_shape.

// CHECK-DAG:   #[[$ESM12:.*]] = affine_map<()[s0] -> (s0 * 4)>
// CHECK-LABEL: func.func @expand_two_dynamic
func.func @expand_two_dynamic(%m: memref<?xf32>, %a: index, %b: index) -> memref<?x4x?xf32> {
  // CHECK-NEXT: %[[B:.*]], %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %m
  // CHECK-NEXT: %[[S0:.*]] = affine.apply #[[$ESM12]]()[%b]
  // CHECK-NEXT: memref.reinterpret_cast %[[B]] to offset: [0], sizes: [%a, 4, %b], strides: [%[[S0]], %b, 1] : memref<f32> to memref<?x4x?xf32>
  %0 = memref.expand_shape %m [[0, 1, 2]] output_shape [%a, 4, %b] : memref<?xf32> into memref<?x4x?xf32>
  return %0 : memref<?x4x?xf32>
}

// -----

// Rank 0: collapsing to rank 0 is the base buffer itself (the identity
// reinterpret_cast folds away); expanding from rank 0 has unit sizes and strides.

// CHECK-LABEL: func.func @rank_zero
func.func @rank_zero(%m: memref<1x1xf32>, %z: memref<f32>) -> (memref<f32>, memref<1x1xf32>) {
  // CHECK-NEXT: %[[MB:.*]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %m
  // CHECK-NEXT: %[[ZB:.*]], %{{.*}} = memref.extract_strided_metadata %z : memref<f32> -> memref<f32>, index
  // CHECK-NEXT: %[[E:.*]] = memref.reinterpret_cast %[[ZB]] to offset: [0], sizes: [1, 1], strides: [1, 1] : memref<f32> to memref<1x1xf32>
  // CHECK-NEXT: func.return %[[MB]], %[[E]]
  %0 = memref.collapse_shape %m [] : memref<1x1xf32> into memref<f32>
  %1 = memref.expand_shape %z [] output_shape [1, 1] : memref<f32> into memref<1x1xf32>
  return %0, %1 : memref<f32>, memref<1x1xf32>
}

// -----

// extract_strided_metadata of an allocation: offset 0, the allocation's sizes,
// row-major strides; the base buffer is the allocation viewed as rank 0.

// CHECK-LABEL: func.func @metadata_of_alloc
func.func @metadata_of_alloc(%n: index) -> (memref<f32>, index, index, index, index, index) {
  // CHECK-NEXT: %[[A:.*]] = memref.alloc(%n) : memref<?x4xf32>
  // CHECK-NEXT: %[[B:.*]] = memref.reinterpret_cast %[[A]] to offset: [0], sizes: [], strides: [] : memref<?x4xf32> to memref<f32>
  // CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
  // CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : index
  // CHECK-NEXT: %[[C4B:.*]] = arith.constant 4 : index
  // CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
  // CHECK-NEXT: func.return %[[B]], %[[C0]], %n, %[[C4]], %[[C4B]], %[[C1]]
  %0 = memref.alloc(%n) : memref<?x4xf32>
  %b, %o, %s:2, %t:2 = memref.extract_strided_metadata %0 : memref<?x4xf32> -> memref<f32>, index, index, index, index, index
  return %b, %o, %s#0, %s#1, %t#0, %t#1 : memref<f32>, index, index, index, index, index
}

// -----

// Metadata of a reinterpret_cast is its operands.

// CHECK-LABEL: func.func @metadata_of_reinterpret_cast
func.func @metadata_of_reinterpret_cast(%m: memref<?xf32>, %o: index, %s: index) -> (index, index, index) {
  // CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : index
  // CHECK-NEXT: func.return %o, %s, %[[ONE]] : index, index, index
  %0 = memref.reinterpret_cast %m to offset: [%o], sizes: [%s], strides: [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
  %b, %off, %sz, %st = memref.extract_strided_metadata %0 : memref<?xf32, strided<[1], offset: ?>> -> memref<f32>, index, index, index
  return %off, %sz, %st : index, index, index
}

// -----

// Through alloca, memory_space_cast and the base buffer of a base buffer.

// CHECK-LABEL: func.func @other_sources
func.func @other_sources(%m: memref<?xf32, 1>, %n: index) -> (index, index, memref<f32>, index) {
  // CHECK-NEXT: memref.alloca(%n) : memref<4x?xf32>
  // CHECK-NEXT: %[[B:.*]], %{{.*}}, %[[SZ:.*]], %{{.*}} = memref.extract_strided_metadata %m : memref<?xf32, 1> -> memref<f32, 1>, index, index, index
  // CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : index
  // CHECK-NEXT: %[[CAST:.*]] = memref.memory_space_cast %[[B]] : memref<f32, 1> to memref<f32>
  // CHECK-NEXT: func.return %n, %[[SZ]], %[[CAST]], %[[ZERO]]
  %0 = memref.alloca(%n) : memref<4x?xf32>
  %b, %o, %s:2, %t:2 = memref.extract_strided_metadata %0 : memref<4x?xf32> -> memref<f32>, index, index, index, index, index
  %1 = "memref.memory_space_cast"(%m) : (memref<?xf32, 1>) -> memref<?xf32>
  %b2, %o2, %s2, %t2 = memref.extract_strided_metadata %1 : memref<?xf32> -> memref<f32>, index, index, index
  %b3, %o3 = memref.extract_strided_metadata %b2 : memref<f32> -> memref<f32>, index
  return %t#0, %s2, %b3, %o3 : index, index, memref<f32>, index
}

// -----

// The aligned pointer of a view is the aligned pointer of its source.

// CHECK-LABEL: func.func @aligned_pointer_of_view
func.func @aligned_pointer_of_view(%m: memref<8x16xf32>, %i: index) -> index {
  // CHECK-NEXT: %[[B:.*]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %m
  // CHECK-NEXT: %[[P:.*]] = memref.extract_aligned_pointer_as_index %[[B]] : memref<f32> -> index
  // CHECK-NEXT: func.return %[[P]] : index
  %0 = memref.subview %m[%i, 2][4, 8][1, 1] : memref<8x16xf32> to memref<4x8xf32, strided<[16, 1], offset: ?>>
  %1 = "memref.extract_aligned_pointer_as_index"(%0) : (memref<4x8xf32, strided<[16, 1], offset: ?>>) -> index
  return %1 : index
}

// -----

// What cannot be expanded is reported, with the fix.

func.func @not_strided(%m: memref<4x4xf32, affine_map<(d0, d1) -> (d0 floordiv 2, d1)>>) -> memref<2x2xf32, strided<[?, ?], offset: ?>> {
  %0 = memref.subview %m[0, 0][2, 2][1, 1] : memref<4x4xf32, affine_map<(d0, d1) -> (d0 floordiv 2, d1)>> to memref<2x2xf32, strided<[?, ?], offset: ?>>
  return %0 : memref<2x2xf32, strided<[?, ?], offset: ?>>
}

// CHECK: expand-strided-metadata: 'memref.subview' op in @not_strided has an operand of type memref<4x4xf32, affine_map<(d0, d1) -> ((d0 floordiv 2), d1)>> whose layout is not strided; expand-strided-metadata needs strided layouts (normalize the layout first, e.g. with normalize-memrefs)

// -----

func.func @ambiguous(%m: memref<1x1x4xf32>) -> memref<1x4xf32, strided<[5, 1]>> {
  %0 = memref.subview %m[0, 0, 0][1, 1, 4][1, 1, 1] : memref<1x1x4xf32> to memref<1x4xf32, strided<[5, 1]>>
  return %0 : memref<1x4xf32, strided<[5, 1]>>
}

// CHECK: expand-strided-metadata: 'memref.subview' op in @ambiguous cannot tell which dimensions of memref<1x1x4xf32> the result type memref<1x4xf32, strided<[5, 1]>> drops

// -----

func.func @collapse_not_strided(%m: memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>) -> memref<16xf32> {
  %0 = memref.collapse_shape %m [[0, 1]] : memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>> into memref<16xf32>
  return %0 : memref<16xf32>
}

// CHECK: expand-strided-metadata: 'memref.collapse_shape' op in @collapse_not_strided has an operand of type memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>> whose layout is not strided; expand-strided-metadata needs strided layouts (normalize the layout first, e.g. with normalize-memrefs)
