// RUN: xdsl-opt %s -p convert-vector-to-llvm --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --convert-vector-to-llvm --split-input-file | filecheck %s %}
// RUN: xdsl-opt %s -p 'convert-vector-to-llvm{use-vector-alignment=true}' --split-input-file | filecheck %s --check-prefix=VEC-ALIGN
// RUN: %if mlir-opt %{ mlir-opt %s --convert-vector-to-llvm=use-vector-alignment=1 --split-input-file | filecheck %s --check-prefix=VEC-ALIGN %}
// n-D vectors as arrays of 1-D vectors, loads and stores with their alignment, 1-D
// transfers and masks, print str: the same lines check our output and mlir-opt-22's
// (tests/passes/test_vector_runner.py runs whole programs both ways).

// CHECK-LABEL: func.func @extract_row(
// CHECK:         %[[A:.*]] = builtin.unrealized_conversion_cast %{{.*}} : vector<3x4xf32> to !llvm.array<3 x vector<4xf32>>
// CHECK-NEXT:    %[[R:.*]] = llvm.extractvalue %[[A]][1] : !llvm.array<3 x vector<4xf32>>
// CHECK-NEXT:    return %[[R]] : vector<4xf32>
func.func @extract_row(%v: vector<3x4xf32>) -> vector<4xf32> {
  %r = vector.extract %v[1] : vector<4xf32> from vector<3x4xf32>
  return %r : vector<4xf32>
}

// -----

// CHECK-LABEL: func.func @extract_element(
// CHECK:         %[[ROW:.*]] = llvm.extractvalue %{{.*}}[2] : !llvm.array<3 x vector<4xf32>>
// CHECK-NEXT:    %[[I:.*]] = llvm.mlir.constant(3{{( : i64)?}}) : i64
// CHECK-NEXT:    %[[E:.*]] = llvm.extractelement %[[ROW]][%[[I]] : i64] : vector<4xf32>
// CHECK-NEXT:    return %[[E]] : f32
func.func @extract_element(%v: vector<3x4xf32>) -> f32 {
  %e = vector.extract %v[2, 3] : f32 from vector<3x4xf32>
  return %e : f32
}

// -----

// CHECK-LABEL: func.func @insert_element(
// CHECK:         %[[A:.*]] = builtin.unrealized_conversion_cast %{{.*}} : vector<3x4xf32> to !llvm.array<3 x vector<4xf32>>
// CHECK-NEXT:    %[[ROW:.*]] = llvm.extractvalue %[[A]][1] : !llvm.array<3 x vector<4xf32>>
// CHECK-NEXT:    %[[I:.*]] = llvm.mlir.constant(2{{( : i64)?}}) : i64
// CHECK-NEXT:    %[[NEW:.*]] = llvm.insertelement %{{.*}}, %[[ROW]][%[[I]] : i64] : vector<4xf32>
// CHECK-NEXT:    %[[B:.*]] = llvm.insertvalue %[[NEW]], %[[A]][1] : !llvm.array<3 x vector<4xf32>>
// CHECK-NEXT:    builtin.unrealized_conversion_cast %[[B]] : !llvm.array<3 x vector<4xf32>> to vector<3x4xf32>
func.func @insert_element(%f: f32, %v: vector<3x4xf32>) -> vector<3x4xf32> {
  %w = vector.insert %f, %v [1, 2] : f32 into vector<3x4xf32>
  return %w : vector<3x4xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast(
// CHECK:         %[[ARR:.*]] = llvm.mlir.poison : !llvm.array<2 x vector<3xf32>>
// CHECK-NEXT:    %[[P:.*]] = llvm.mlir.poison : vector<3xf32>
// CHECK-NEXT:    %[[Z:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    %[[I:.*]] = llvm.insertelement %{{.*}}, %[[P]][%[[Z]] : i32] : vector<3xf32>
// CHECK-NEXT:    %[[S:.*]] = llvm.shufflevector %[[I]], %[[I]] [0, 0, 0] : vector<3xf32>
// CHECK-NEXT:    %[[R0:.*]] = llvm.insertvalue %[[S]], %[[ARR]][0] : !llvm.array<2 x vector<3xf32>>
// CHECK-NEXT:    %[[R1:.*]] = llvm.insertvalue %[[S]], %[[R0]][1] : !llvm.array<2 x vector<3xf32>>
func.func @broadcast(%f: f32) -> vector<2x3xf32> {
  %b = vector.broadcast %f : f32 to vector<2x3xf32>
  return %b : vector<2x3xf32>
}

// -----

// The alignment: the op's own, else the element's (4), else with
// use-vector-alignment the vector's (16). No inbounds on the address.
// CHECK-LABEL: func.func @load_store(
// CHECK:         %[[S0:.*]] = llvm.extractvalue %{{.*}}[4, 0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:    %[[M:.*]] = llvm.mul %{{.*}}, %[[S0]] : i64
// CHECK-NEXT:    %[[O:.*]] = llvm.add %[[M]], %{{.*}} : i64
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr %{{.*}}[%[[O]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    %[[X:.*]] = llvm.load %[[P]] {alignment = 4 : i64} : !llvm.ptr -> vector<4xf32>
// CHECK:         llvm.store %[[X]], %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr
// VEC-ALIGN-LABEL: func.func @load_store(
// VEC-ALIGN:       llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr -> vector<4xf32>
// VEC-ALIGN:       llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr
func.func @load_store(%m: memref<?x?xf32>, %i: index, %j: index) -> vector<4xf32> {
  %x = vector.load %m[%i, %j] : memref<?x?xf32>, vector<4xf32>
  vector.store %x, %m[%j, %i] {alignment = 16} : memref<?x?xf32>, vector<4xf32>
  return %x : vector<4xf32>
}

// -----

// CHECK-LABEL: func.func @masked(
// CHECK:         %[[P:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
// CHECK-NEXT:    %[[Y:.*]] = llvm.intr.masked.load %[[P]], %{{.*}}, %{{.*}} {alignment = 2 : i32} : (!llvm.ptr<1>, vector<8xi1>, vector<8xf16>) -> vector<8xf16>
// CHECK:         llvm.intr.masked.store %[[Y]], %{{.*}}, %{{.*}} {alignment = 16 : i32} : vector<8xf16>, vector<8xi1> into !llvm.ptr<1>
// VEC-ALIGN-LABEL: func.func @masked(
// VEC-ALIGN:       llvm.intr.masked.load %{{.*}} {alignment = 16 : i32}
func.func @masked(%m: memref<?xf16, 1>, %i: index, %mask: vector<8xi1>, %p: vector<8xf16>) {
  %y = vector.maskedload %m[%i], %mask, %p : memref<?xf16, 1>, vector<8xi1>, vector<8xf16> into vector<8xf16>
  vector.maskedstore %m[%i], %mask, %y {alignment = 16} : memref<?xf16, 1>, vector<8xi1>, vector<8xf16>
  return
}

// -----

// An out-of-bounds 1-D transfer_read: a masked load whose mask compares the lanes
// with dim - index (32-bit lanes), the padding as pass-through.
// CHECK-LABEL: func.func @transfer_out_of_bounds(
// CHECK-DAG:     %[[STEP:.*]] = arith.constant dense<[0, 1, 2, 3]> : vector<4xi32>
// CHECK-DAG:     %[[DIM:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<?xf32>
// CHECK-DAG:     %[[N:.*]] = arith.subi %[[DIM]], %{{.*}} : index
// CHECK:         %[[N32:.*]] = arith.index_cast %[[N]] : index to i32
// CHECK:         %[[NV:.*]] = llvm.shufflevector %{{.*}} [0, 0, 0, 0] : vector<4xi32>
// CHECK-NEXT:    %[[MASK:.*]] = arith.cmpi sgt, %[[NV]], %[[STEP]] : vector<4xi32>
// CHECK:         %[[PAD:.*]] = llvm.shufflevector %{{.*}} [0, 0, 0, 0] : vector<4xf32>
// CHECK:         llvm.intr.masked.load %{{.*}}, %[[MASK]], %[[PAD]] {alignment = 4 : i32} : (!llvm.ptr, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
func.func @transfer_out_of_bounds(%m: memref<?xf32>, %i: index, %pad: f32) -> vector<4xf32> {
  %v = vector.transfer_read %m[%i], %pad : memref<?xf32>, vector<4xf32>
  return %v : vector<4xf32>
}

// -----

// CHECK:       llvm.func @printString(!llvm.ptr)
// CHECK:       llvm.mlir.global private constant @vector_print_str(dense<[104, 105, 10, 0]> : tensor<4xi8>) {addr_space = 0 : i32} : !llvm.array<4 x i8>
// CHECK-LABEL: func.func @print_str(
// CHECK:         %[[G:.*]] = llvm.mlir.addressof @vector_print_str : !llvm.ptr
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr %[[G]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x i8>
// CHECK-NEXT:    llvm.call @printString(%[[P]]) : (!llvm.ptr) -> ()
func.func @print_str() {
  vector.print str "hi\n"
  return
}

// -----

// CHECK-LABEL: func.func @shuffles(
// CHECK-SAME:    %[[V:[^:]*]]: vector<8xf32>, %[[W:[^:]*]]: vector<2xf32>, %[[A:[^:]*]]: vector<4xi32>, %[[B:[^:]*]]: vector<4xi32>)
// CHECK:         %[[E:.*]] = llvm.shufflevector %[[V]], %[[V]] [2, 3, 4] : vector<8xf32>
// CHECK-NEXT:    %[[WIDE:.*]] = llvm.shufflevector %[[W]], %[[W]] [0, 1, 0, 0, 0, 0, 0, 0] : vector<2xf32>
// CHECK-NEXT:    %[[I:.*]] = llvm.shufflevector %[[WIDE]], %[[V]] [8, 9, 10, 11, 12, 0, 1, 15] : vector<8xf32>
// CHECK-NEXT:    %[[IL:.*]] = llvm.shufflevector %[[A]], %[[B]] [0, 4, 1, 5, 2, 6, 3, 7] : vector<4xi32>
// CHECK-NEXT:    %[[P:.*]] = llvm.mlir.poison : vector<4xi32>
// CHECK-NEXT:    %[[D0:.*]] = llvm.shufflevector %[[A]], %[[P]] [0, 2] : vector<4xi32>
// CHECK-NEXT:    %[[D1:.*]] = llvm.shufflevector %[[A]], %[[P]] [1, 3] : vector<4xi32>
// CHECK-NEXT:    return %[[E]], %[[I]], %[[IL]], %[[D0]], %[[D1]]
func.func @shuffles(%v: vector<8xf32>, %w: vector<2xf32>, %a: vector<4xi32>, %b: vector<4xi32>) -> (vector<3xf32>, vector<8xf32>, vector<8xi32>, vector<2xi32>, vector<2xi32>) {
  %e = vector.extract_strided_slice %v {offsets = [2], sizes = [3], strides = [1]} : vector<8xf32> to vector<3xf32>
  %i = vector.insert_strided_slice %w, %v {offsets = [5], strides = [1]} : vector<2xf32> into vector<8xf32>
  %il = vector.interleave %a, %b : vector<4xi32> -> vector<8xi32>
  %d0, %d1 = vector.deinterleave %a : vector<4xi32> -> vector<2xi32>
  return %e, %i, %il, %d0, %d1 : vector<3xf32>, vector<8xf32>, vector<8xi32>, vector<2xi32>, vector<2xi32>
}

// -----

// n-D fma: llvm.intr.fmuladd row by row (upstream starts from a zero array, we
// from poison: every row is written).
// CHECK-LABEL: func.func @fma_2d(
// CHECK:         %[[A:.*]] = builtin.unrealized_conversion_cast %{{.*}} : vector<2x4xf32> to !llvm.array<2 x vector<4xf32>>
// CHECK:         %[[R0:.*]] = llvm.extractvalue %[[A]][0] : !llvm.array<2 x vector<4xf32>>
// CHECK:         %[[F0:.*]] = llvm.intr.fmuladd(%[[R0]], %{{.*}}, %{{.*}}) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// CHECK-NEXT:    %[[I0:.*]] = llvm.insertvalue %[[F0]], %{{.*}}[0] : !llvm.array<2 x vector<4xf32>>
// CHECK:         %[[F1:.*]] = llvm.intr.fmuladd(%{{.*}}, %{{.*}}, %{{.*}}) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// CHECK-NEXT:    %[[I1:.*]] = llvm.insertvalue %[[F1]], %[[I0]][1] : !llvm.array<2 x vector<4xf32>>
func.func @fma_2d(%m: vector<2x4xf32>) -> vector<2x4xf32> {
  %f = vector.fma %m, %m, %m : vector<2x4xf32>
  return %f : vector<2x4xf32>
}

// -----

// expandload/compressstore: the pointer gets llvm.align only from the op's alignment.
// CHECK-LABEL: func.func @expand_compress(
// CHECK:         %[[P:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    %[[E:.*]] = "llvm.intr.masked.expandload"(%[[P]], %{{.*}}, %{{.*}}) : (!llvm.ptr, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
// CHECK:         "llvm.intr.masked.compressstore"(%[[E]], %{{.*}}, %{{.*}}) <{arg_attrs = [{}, {llvm.align = 16 : i64}, {}]}> : (vector<4xf32>, !llvm.ptr, vector<4xi1>) -> ()
func.func @expand_compress(%m: memref<?xf32>, %i: index, %mask: vector<4xi1>, %p: vector<4xf32>) {
  %e = vector.expandload %m[%i], %mask, %p : memref<?xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  vector.compressstore %m[%i], %mask, %e {alignment = 16} : memref<?xf32>, vector<4xi1>, vector<4xf32>
  return
}
