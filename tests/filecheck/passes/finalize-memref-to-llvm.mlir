// RUN: xdsl-opt %s -p finalize-memref-to-llvm --split-input-file --verify-diagnostics | filecheck %s
// RUN: xdsl-opt %s -p 'finalize-memref-to-llvm{use-aligned-alloc=true}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=ALIGNED-ALLOC
// RUN: xdsl-opt %s -p 'finalize-memref-to-llvm{use-generic-functions=true index-bitwidth=32}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=GENERIC

// Loads and stores: aligned pointer plus offset (omitted when statically 0), then
// the strided index (stride-1 dimensions add the index as is) with
// getelementptr inbounds|nuw and nsw/nuw index arithmetic.

// CHECK-LABEL: func.func @load_store
func.func @load_store(%m: memref<4x?xf32, strided<[?, 1], offset: ?>>, %s: memref<2x3xi64, strided<[3, 1], offset: 5>>, %z: memref<f64>, %i: index, %j: index, %v: f32) -> f32 {
  // CHECK-DAG:  %[[Z:.*]] = builtin.unrealized_conversion_cast %z : memref<f64> to !llvm.struct<(ptr, ptr, i64)>
  // CHECK-DAG:  %[[S:.*]] = builtin.unrealized_conversion_cast %s : memref<2x3xi64, strided<[3, 1], offset: 5>> to !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
  // CHECK-DAG:  %[[J:.*]] = builtin.unrealized_conversion_cast %j : index to i64
  // CHECK-DAG:  %[[I:.*]] = builtin.unrealized_conversion_cast %i : index to i64
  // CHECK-DAG:  %[[M:.*]] = builtin.unrealized_conversion_cast %m : memref<4x?xf32, strided<[?, 1], offset: ?>> to !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
  // CHECK:      %[[ALIGNED:.*]] = llvm.extractvalue %[[M]][1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
  // CHECK-NEXT: %[[OFFSET:.*]] = llvm.extractvalue %[[M]][2] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
  // CHECK-NEXT: %[[BASE:.*]] = llvm.getelementptr %[[ALIGNED]][%[[OFFSET]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  // CHECK-NEXT: %[[STRIDE:.*]] = llvm.extractvalue %[[M]][4, 0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
  // CHECK-NEXT: %[[ROW:.*]] = llvm.mul %[[I]], %[[STRIDE]] overflow<nsw, nuw> : i64
  // CHECK-NEXT: %[[IDX:.*]] = llvm.add %[[ROW]], %[[J]] overflow<nsw, nuw> : i64
  // CHECK-NEXT: %[[ADDR:.*]] = llvm.getelementptr inbounds|nuw %[[BASE]][%[[IDX]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  // CHECK-NEXT: %x = llvm.load %[[ADDR]] : !llvm.ptr -> f32
  %x = memref.load %m[%i, %j] : memref<4x?xf32, strided<[?, 1], offset: ?>>
  // CHECK:      %[[ADDR2:.*]] = llvm.getelementptr inbounds|nuw %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  // CHECK-NEXT: llvm.store %v, %[[ADDR2]] : f32, !llvm.ptr
  memref.store %v, %m[%i, %j] : memref<4x?xf32, strided<[?, 1], offset: ?>>
  // Static strides and offset become constants.
  // CHECK-NEXT: %[[SALIGNED:.*]] = llvm.extractvalue %[[S]][1]
  // CHECK-NEXT: %[[FIVE:.*]] = llvm.mlir.constant({{.*}}5{{.*}}) : i64
  // CHECK-NEXT: %[[SBASE:.*]] = llvm.getelementptr %[[SALIGNED]][%[[FIVE]]] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  // CHECK-NEXT: %[[THREE:.*]] = llvm.mlir.constant({{.*}}3{{.*}}) : i64
  // CHECK-NEXT: %[[SROW:.*]] = llvm.mul %[[I]], %[[THREE]] overflow<nsw, nuw> : i64
  // CHECK-NEXT: %[[SIDX:.*]] = llvm.add %[[SROW]], %[[J]] overflow<nsw, nuw> : i64
  // CHECK-NEXT: %[[SADDR:.*]] = llvm.getelementptr inbounds|nuw %[[SBASE]][%[[SIDX]]] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  // CHECK-NEXT: %y = llvm.load %[[SADDR]] : !llvm.ptr -> i64
  %y = memref.load %s[%i, %j] : memref<2x3xi64, strided<[3, 1], offset: 5>>
  // Rank 0: the aligned pointer itself.
  // CHECK-NEXT: %[[ZALIGNED:.*]] = llvm.extractvalue %[[Z]][1] : !llvm.struct<(ptr, ptr, i64)>
  // CHECK-NEXT: %w = llvm.load %[[ZALIGNED]] : !llvm.ptr -> f64
  %w = memref.load %z[] : memref<f64>
  // CHECK-NEXT: func.return %x : f32
  return %x : f32
}

// -----

// Heap allocation: malloc of the size in bytes (getelementptr on null, ptrtoint),
// and a descriptor with offset 0 and row-major strides. An alignment pads the
// allocation and bumps the pointer.

// CHECK:      llvm.func @free(!llvm.ptr)
// CHECK-NEXT: llvm.func @malloc(i64) -> !llvm.ptr
// CHECK-LABEL: func.func @alloc
// ALIGNED-ALLOC:      llvm.func @free(!llvm.ptr)
// ALIGNED-ALLOC-NEXT: llvm.func @aligned_alloc(i64, i64) -> !llvm.ptr
// ALIGNED-ALLOC-LABEL: func.func @alloc
// GENERIC:      llvm.func @_mlir_memref_to_llvm_free(!llvm.ptr)
// GENERIC-NEXT: llvm.func @_mlir_memref_to_llvm_alloc(i32) -> !llvm.ptr
// GENERIC-LABEL: func.func @alloc
func.func @alloc(%n: index) {
  // CHECK-NEXT: %[[N:.*]] = builtin.unrealized_conversion_cast %n : index to i64
  // CHECK-NEXT: %[[C4:.*]] = llvm.mlir.constant({{.*}}4{{.*}}) : i64
  // CHECK-NEXT: %[[C1:.*]] = llvm.mlir.constant({{.*}}1{{.*}}) : i64
  // CHECK-NEXT: %[[COUNT:.*]] = llvm.mul %[[N]], %[[C4]] : i64
  // CHECK-NEXT: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
  // CHECK-NEXT: %[[END:.*]] = llvm.getelementptr %[[NULL]][%[[COUNT]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  // CHECK-NEXT: %[[BYTES:.*]] = llvm.ptrtoint %[[END]] : !llvm.ptr to i64
  // CHECK-NEXT: %[[PTR:.*]] = llvm.call @malloc(%[[BYTES]]) : (i64) -> !llvm.ptr
  // CHECK-NEXT: %[[D0:.*]] = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
  // CHECK-NEXT: %[[D1:.*]] = llvm.insertvalue %[[PTR]], %[[D0]][0]
  // CHECK-NEXT: %[[D2:.*]] = llvm.insertvalue %[[PTR]], %[[D1]][1]
  // CHECK-NEXT: %[[ZERO:.*]] = llvm.mlir.constant({{.*}}0{{.*}}) : i64
  // CHECK-NEXT: %[[D3:.*]] = llvm.insertvalue %[[ZERO]], %[[D2]][2]
  // CHECK-NEXT: %[[D4:.*]] = llvm.insertvalue %[[C4]], %[[D3]][3, 0]
  // CHECK-NEXT: %[[D5:.*]] = llvm.insertvalue %[[N]], %[[D4]][3, 1]
  // CHECK-NEXT: %[[D6:.*]] = llvm.insertvalue %[[N]], %[[D5]][4, 0]
  // CHECK-NEXT: %[[DESC:.*]] = llvm.insertvalue %[[C1]], %[[D6]][4, 1]
  // 4x? f32 is 16 bytes times n: a multiple of 16, no padding.
  // ALIGNED-ALLOC:      %[[A16:.*]] = llvm.mlir.constant({{.*}}16{{.*}}) : i64
  // ALIGNED-ALLOC-NEXT: %{{.*}} = llvm.call @aligned_alloc(%[[A16]], %{{.*}}) : (i64, i64) -> !llvm.ptr
  // GENERIC:      llvm.call @_mlir_memref_to_llvm_alloc(%{{.*}}) : (i32) -> !llvm.ptr
  // GENERIC-NEXT: llvm.mlir.poison : !llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)>
  %a = memref.alloc(%n) : memref<4x?xf32>
  // CHECK:      %[[ALIGN:.*]] = llvm.mlir.constant({{.*}}32{{.*}}) : i64
  // CHECK-NEXT: %[[PADDED:.*]] = llvm.add %{{.*}}, %[[ALIGN]] : i64
  // CHECK-NEXT: %[[RAW:.*]] = llvm.call @malloc(%[[PADDED]]) : (i64) -> !llvm.ptr
  // CHECK-NEXT: %[[RAWI:.*]] = llvm.ptrtoint %[[RAW]] : !llvm.ptr to i64
  // CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant({{.*}}1{{.*}}) : i64
  // CHECK-NEXT: %[[BUMP:.*]] = llvm.sub %[[ALIGN]], %[[ONE]] : i64
  // CHECK-NEXT: %[[BUMPED:.*]] = llvm.add %[[RAWI]], %[[BUMP]] : i64
  // CHECK-NEXT: %[[REM:.*]] = llvm.urem %[[BUMPED]], %[[ALIGN]] : i64
  // CHECK-NEXT: %[[ALIGNEDI:.*]] = llvm.sub %[[BUMPED]], %[[REM]] : i64
  // CHECK-NEXT: %[[ALIGNED:.*]] = llvm.inttoptr %[[ALIGNEDI]] : i64 to !llvm.ptr
  // CHECK-NEXT: %[[E0:.*]] = llvm.mlir.poison
  // CHECK-NEXT: %[[E1:.*]] = llvm.insertvalue %[[RAW]], %[[E0]][0]
  // CHECK-NEXT: llvm.insertvalue %[[ALIGNED]], %[[E1]][1]
  // ALIGNED-ALLOC:      %[[B32:.*]] = llvm.mlir.constant({{.*}}32{{.*}}) : i64
  // ALIGNED-ALLOC:      %{{.*}} = llvm.call @aligned_alloc(%[[B32]], %{{.*}}) : (i64, i64) -> !llvm.ptr
  %b = memref.alloc() {alignment = 32 : i64} : memref<3xf64>
  // 3 bytes, padded to a multiple of the 16-byte alignment for aligned_alloc.
  // ALIGNED-ALLOC:      %[[C16:.*]] = llvm.mlir.constant({{.*}}16{{.*}}) : i64
  // ALIGNED-ALLOC-NEXT: %[[CONE:.*]] = llvm.mlir.constant({{.*}}1{{.*}}) : i64
  // ALIGNED-ALLOC-NEXT: %[[CBUMP:.*]] = llvm.sub %[[C16]], %[[CONE]] : i64
  // ALIGNED-ALLOC-NEXT: %[[CBUMPED:.*]] = llvm.add %{{.*}}, %[[CBUMP]] : i64
  // ALIGNED-ALLOC-NEXT: %[[CREM:.*]] = llvm.urem %[[CBUMPED]], %[[C16]] : i64
  // ALIGNED-ALLOC-NEXT: %[[CSIZE:.*]] = llvm.sub %[[CBUMPED]], %[[CREM]] : i64
  // ALIGNED-ALLOC-NEXT: llvm.call @aligned_alloc(%[[C16]], %[[CSIZE]]) : (i64, i64) -> !llvm.ptr
  %c = memref.alloc() : memref<3xi8>
  // CHECK:      %[[FREED:.*]] = llvm.extractvalue %[[DESC]][0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
  // CHECK-NEXT: llvm.call @free(%[[FREED]]) : (!llvm.ptr) -> ()
  // GENERIC:    llvm.call @_mlir_memref_to_llvm_free(%{{.*}}) : (!llvm.ptr) -> ()
  memref.dealloc %a : memref<4x?xf32>
  return
}

// -----

// An element that is not a scalar is aligned to its own size.

// CHECK-LABEL: func.func @alloc_vector
func.func @alloc_vector() {
  // CHECK:      llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, vector<4xf32>
  // CHECK:      %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
  // CHECK-NEXT: %[[ONE:.*]] = llvm.getelementptr %[[NULL]][1] : (!llvm.ptr) -> !llvm.ptr, vector<4xf32>
  // CHECK-NEXT: %[[SIZE:.*]] = llvm.ptrtoint %[[ONE]] : !llvm.ptr to i64
  // CHECK-NEXT: %[[PADDED:.*]] = llvm.add %{{.*}}, %[[SIZE]] : i64
  // CHECK-NEXT: llvm.call @malloc(%[[PADDED]]) : (i64) -> !llvm.ptr
  // CHECK:      llvm.urem %{{.*}}, %[[SIZE]] : i64
  %a = memref.alloc() : memref<2xvector<4xf32>>
  return
}

// -----

// CHECK-LABEL: func.func @alloca
func.func @alloca(%n: index) {
  // CHECK-NEXT: %[[N:.*]] = builtin.unrealized_conversion_cast %n : index to i64
  // CHECK-NEXT: %[[C2:.*]] = llvm.mlir.constant({{.*}}2{{.*}}) : i64
  // CHECK-NEXT: %[[C1:.*]] = llvm.mlir.constant({{.*}}1{{.*}}) : i64
  // CHECK-NEXT: %[[COUNT:.*]] = llvm.mul %[[C2]], %[[N]] : i64
  // CHECK-NEXT: %[[PTR:.*]] = llvm.alloca %[[COUNT]] x i32 : (i64) -> !llvm.ptr
  // CHECK-NEXT: llvm.mlir.poison
  // CHECK-NEXT: llvm.insertvalue %[[PTR]], %{{.*}}[0]
  // CHECK-NEXT: llvm.insertvalue %[[PTR]], %{{.*}}[1]
  %a = memref.alloca(%n) : memref<?x2xi32>
  // CHECK:      llvm.alloca %{{.*}} x f32 {alignment = 16 : i64} : (i64) -> !llvm.ptr
  %b = memref.alloca() {alignment = 16 : i64} : memref<4xf32>
  return
}

// -----

// CHECK-LABEL: func.func @dealloc_unranked
func.func @dealloc_unranked(%u: memref<*xf32>) {
  // CHECK-NEXT: %[[U:.*]] = builtin.unrealized_conversion_cast %u : memref<*xf32> to !llvm.struct<(i64, ptr)>
  // CHECK-NEXT: %[[DESC:.*]] = llvm.extractvalue %[[U]][1] : !llvm.struct<(i64, ptr)>
  // CHECK-NEXT: %[[ALLOCATED:.*]] = llvm.load %[[DESC]] : !llvm.ptr -> !llvm.ptr
  // CHECK-NEXT: llvm.call @free(%[[ALLOCATED]]) : (!llvm.ptr) -> ()
  memref.dealloc %u : memref<*xf32>
  return
}

// -----

// free takes a generic pointer: a memref in another address space is cast first.

// CHECK-LABEL: func.func @dealloc_address_space
func.func @dealloc_address_space(%m: memref<4xf32, 1>) {
  // CHECK:      %[[P:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)>
  // CHECK-NEXT: %[[G:.*]] = llvm.addrspacecast %[[P]] : !llvm.ptr<1> to !llvm.ptr
  // CHECK-NEXT: llvm.call @free(%[[G]]) : (!llvm.ptr) -> ()
  memref.dealloc %m : memref<4xf32, 1>
  return
}

// -----

// CHECK-LABEL: func.func @alloca_scope
func.func @alloca_scope(%v: f32) -> f32 {
  // CHECK-NEXT:   %[[SAVED:.*]] = llvm.intr.stacksave : !llvm.ptr
  // CHECK-NEXT:   llvm.br ^[[BODY:.*]]
  // CHECK-NEXT: ^[[BODY]]:
  // CHECK:        llvm.alloca
  // CHECK:        %x = llvm.load
  // CHECK-NEXT:   llvm.intr.stackrestore %[[SAVED]] : !llvm.ptr
  // CHECK-NEXT:   llvm.br ^[[CONT:.*]](%x : f32)
  // CHECK-NEXT: ^[[CONT]](%r: f32):
  // CHECK-NEXT:   llvm.br ^[[REST:.*]]
  // CHECK-NEXT: ^[[REST]]:
  // CHECK-NEXT:   func.return %r : f32
  %r = "memref.alloca_scope"() ({
    %t = memref.alloca() : memref<f32>
    memref.store %v, %t[] : memref<f32>
    %x = memref.load %t[] : memref<f32>
    "memref.alloca_scope.return"(%x) : (f32) -> ()
  }) : () -> f32
  return %r : f32
}

// -----

// CHECK-LABEL: func.func @assume_alignment
func.func @assume_alignment(%m: memref<?xf32, strided<[1], offset: ?>>) -> memref<?xf32, strided<[1], offset: ?>> {
  // CHECK:      %[[PTR:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  // CHECK-NEXT: %[[TRUE:.*]] = llvm.mlir.constant(true) : i1
  // CHECK-NEXT: %[[ALIGN:.*]] = llvm.mlir.constant({{.*}}16{{.*}}) : i64
  // CHECK-NEXT: llvm.intr.assume %[[TRUE]] ["align"(%[[PTR]], %[[ALIGN]] : !llvm.ptr, i64)] : i1
  %0 = memref.assume_alignment %m, 16 : memref<?xf32, strided<[1], offset: ?>>
  return %0 : memref<?xf32, strided<[1], offset: ?>>
}

// -----

// dim: a constant for a static size, the descriptor field for a dynamic one, a
// stack copy of the sizes for an index known at run time; unranked: through the
// pointer to the ranked descriptor. rank: a constant.

// CHECK-LABEL: func.func @dim
func.func @dim(%m: memref<4x?xf32>, %u: memref<*xf32>, %i: index) -> (index, index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK:      %[[STATIC:.*]] = llvm.mlir.constant({{.*}}4{{.*}}) : i64
  %0 = memref.dim %m, %c0 : memref<4x?xf32>
  // CHECK:      llvm.extractvalue %{{.*}}[3, 1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
  %1 = memref.dim %m, %c1 : memref<4x?xf32>
  // CHECK:      %[[SIZES:.*]] = llvm.extractvalue %{{.*}}[3] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
  // CHECK-NEXT: %[[SLOT:.*]] = llvm.alloca %{{.*}} x !llvm.array<2 x i64> : (i64) -> !llvm.ptr
  // CHECK-NEXT: llvm.store %[[SIZES]], %[[SLOT]] : !llvm.array<2 x i64>, !llvm.ptr
  // CHECK-NEXT: %[[AT:.*]] = llvm.getelementptr %[[SLOT]][0, %{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<2 x i64>
  // CHECK-NEXT: llvm.load %[[AT]] : !llvm.ptr -> i64
  %2 = memref.dim %m, %i : memref<4x?xf32>
  // CHECK:      %[[RANKED:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(i64, ptr)>
  // CHECK-NEXT: %[[OFFSETP:.*]] = llvm.getelementptr %[[RANKED]][0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, ptr, i64)>
  // CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant({{.*}}1{{.*}}) : i64
  // CHECK-NEXT: %[[PLUS:.*]] = llvm.add %[[ONE]], %{{.*}} : i64
  // CHECK-NEXT: %[[SIZEP:.*]] = llvm.getelementptr %[[OFFSETP]][%[[PLUS]]] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  // CHECK-NEXT: llvm.load %[[SIZEP]] : !llvm.ptr -> i64
  %3 = memref.dim %u, %i : memref<*xf32>
  // CHECK:      llvm.mlir.constant({{.*}}2{{.*}}) : i64
  %4 = "memref.rank"(%m) : (memref<4x?xf32>) -> index
  return %0, %1, %2, %3, %4 : index, index, index, index, index
}

// -----

// Ranked to ranked: the same descriptor. Ranked to unranked: a stack copy and the
// rank. Unranked to ranked: a load through the pointer.

// CHECK-LABEL: func.func @casts
func.func @casts(%m: memref<4x?xf32>, %u: memref<*xf32>) -> (memref<?x?xf32>, memref<*xf32>, memref<4x?xf32>) {
  // CHECK-NEXT: %[[U:.*]] = builtin.unrealized_conversion_cast %u : memref<*xf32> to !llvm.struct<(i64, ptr)>
  // CHECK-NEXT: %[[M:.*]] = builtin.unrealized_conversion_cast %m : memref<4x?xf32> to !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
  // CHECK-NEXT: %[[SAME:.*]] = builtin.unrealized_conversion_cast %[[M]] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> to memref<?x?xf32>
  %0 = "memref.cast"(%m) : (memref<4x?xf32>) -> memref<?x?xf32>
  // CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant({{.*}}1{{.*}}) : i64
  // CHECK-NEXT: %[[SLOT:.*]] = llvm.alloca %[[ONE]] x !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> : (i64) -> !llvm.ptr
  // CHECK-NEXT: llvm.store %[[M]], %[[SLOT]] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, !llvm.ptr
  // CHECK-NEXT: %[[RANK:.*]] = llvm.mlir.constant({{.*}}2{{.*}}) : i64
  // CHECK-NEXT: %[[P:.*]] = llvm.mlir.poison : !llvm.struct<(i64, ptr)>
  // CHECK-NEXT: %[[P1:.*]] = llvm.insertvalue %[[RANK]], %[[P]][0] : !llvm.struct<(i64, ptr)>
  // CHECK-NEXT: %[[P2:.*]] = llvm.insertvalue %[[SLOT]], %[[P1]][1] : !llvm.struct<(i64, ptr)>
  %1 = "memref.cast"(%m) : (memref<4x?xf32>) -> memref<*xf32>
  // CHECK:      %[[DESCP:.*]] = llvm.extractvalue %[[U]][1] : !llvm.struct<(i64, ptr)>
  // CHECK-NEXT: llvm.load %[[DESCP]] : !llvm.ptr -> !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
  %2 = "memref.cast"(%u) : (memref<*xf32>) -> memref<4x?xf32>
  return %0, %1, %2 : memref<?x?xf32>, memref<*xf32>, memref<4x?xf32>
}

// -----

// Contiguous on both sides: memcpy of (number of elements) x (element size) between
// the first elements. Otherwise: memrefCopy on stack copies of unranked descriptors.

// CHECK:       llvm.func @memrefCopy(i64, !llvm.ptr, !llvm.ptr)
// CHECK-LABEL: func.func @copy
func.func @copy(%a: memref<4x?xf32>, %b: memref<4x?xf32>, %c: memref<4x4xf32, strided<[8, 1], offset: ?>>, %d: memref<4x4xf32>) {
  // CHECK:      %[[ELT:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr to i64
  // CHECK-NEXT: %[[TOTAL:.*]] = llvm.mul %{{.*}}, %[[ELT]] : i64
  // CHECK-NEXT: %[[SA:.*]] = llvm.extractvalue %[[A:.*]][1]
  // CHECK-NEXT: %[[SO:.*]] = llvm.extractvalue %[[A]][2]
  // CHECK-NEXT: %[[SRC:.*]] = llvm.getelementptr %[[SA]][%[[SO]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  // CHECK-NEXT: %[[DA:.*]] = llvm.extractvalue %[[B:.*]][1]
  // CHECK-NEXT: %[[DO:.*]] = llvm.extractvalue %[[B]][2]
  // CHECK-NEXT: %[[DST:.*]] = llvm.getelementptr %[[DA]][%[[DO]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  // CHECK-NEXT: "llvm.intr.memcpy"(%[[DST]], %[[SRC]], %[[TOTAL]]) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  "memref.copy"(%a, %b) : (memref<4x?xf32>, memref<4x?xf32>) -> ()
  // CHECK-NEXT: %[[SAVED:.*]] = llvm.intr.stacksave : !llvm.ptr
  // CHECK:      %[[SRCU:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[1] : !llvm.struct<(i64, ptr)>
  // CHECK:      %[[DSTU:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[1] : !llvm.struct<(i64, ptr)>
  // CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant({{.*}}1{{.*}}) : i64
  // CHECK-NEXT: %[[SRCP:.*]] = llvm.alloca %[[ONE]] x !llvm.struct<(i64, ptr)> : (i64) -> !llvm.ptr
  // CHECK-NEXT: llvm.store %[[SRCU]], %[[SRCP]]
  // CHECK-NEXT: %[[DSTP:.*]] = llvm.alloca %[[ONE]] x !llvm.struct<(i64, ptr)> : (i64) -> !llvm.ptr
  // CHECK-NEXT: llvm.store %[[DSTU]], %[[DSTP]]
  // CHECK:      %[[ELEM:.*]] = llvm.ptrtoint
  // CHECK-NEXT: llvm.call @memrefCopy(%[[ELEM]], %[[SRCP]], %[[DSTP]]) : (i64, !llvm.ptr, !llvm.ptr) -> ()
  // CHECK-NEXT: llvm.intr.stackrestore %[[SAVED]] : !llvm.ptr
  "memref.copy"(%c, %d) : (memref<4x4xf32, strided<[8, 1], offset: ?>>, memref<4x4xf32>) -> ()
  return
}

// -----

// Globals: nested arrays, private or external linkage, the initializer (a scalar at
// rank 0), an undef initializer region for "uninitialized", the alignment and the
// address space (#gpu.address_space maps as convert-gpu-to-nvvm maps it).

// CHECK:      llvm.mlir.global private constant @cst(dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>) {addr_space = 0 : i32} : !llvm.array<2 x array<3 x f32>>
// CHECK-NEXT: llvm.mlir.global external @pub() {addr_space = 0 : i32} : !llvm.array<4 x i32> {
// CHECK-NEXT:   %{{.*}} = llvm.mlir.undef : !llvm.array<4 x i32>
// CHECK-NEXT:   llvm.return %{{.*}} : !llvm.array<4 x i32>
// CHECK-NEXT: }
// CHECK-NEXT: llvm.mlir.global private @scalar(1.500000e+00 : f64) {addr_space = 0 : i32, alignment = 64 : i64} : f64
// CHECK-NEXT: llvm.mlir.global private @shared() {addr_space = 3 : i32} : !llvm.array<8 x f32> {
// CHECK:      llvm.mlir.global private @space1() {addr_space = 1 : i32} : !llvm.array<8 x f32> {
"memref.global"() <{sym_name = "cst", sym_visibility = "private", type = memref<2x3xf32>, initial_value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>, constant}> : () -> ()
"memref.global"() <{sym_name = "pub", sym_visibility = "public", type = memref<4xi32>, initial_value}> : () -> ()
"memref.global"() <{sym_name = "scalar", sym_visibility = "private", type = memref<f64>, initial_value = dense<1.5> : tensor<f64>, alignment = 64 : i64}> : () -> ()
"memref.global"() <{sym_name = "shared", sym_visibility = "private", type = memref<8xf32, #gpu.address_space<workgroup>>, initial_value}> : () -> ()
"memref.global"() <{sym_name = "space1", sym_visibility = "private", type = memref<8xf32, 1>, initial_value}> : () -> ()

// get_global: the address of the first element; the allocated pointer is a
// recognizable bad value (0xdeadbeef), as upstream.

// CHECK-LABEL: func.func @get_global
func.func @get_global() -> (memref<2x3xf32>, memref<f64>, memref<8xf32, #gpu.address_space<workgroup>>) {
  // CHECK:      %[[G:.*]] = llvm.mlir.addressof @cst : !llvm.ptr
  // CHECK-NEXT: %[[FIRST:.*]] = llvm.getelementptr %[[G]][0, 0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<2 x array<3 x f32>>
  // CHECK-NEXT: %[[BEEF:.*]] = llvm.mlir.constant({{.*}}3735928559{{.*}}) : i64
  // CHECK-NEXT: %[[BAD:.*]] = llvm.inttoptr %[[BEEF]] : i64 to !llvm.ptr
  // CHECK-NEXT: %[[D:.*]] = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
  // CHECK-NEXT: %[[D1:.*]] = llvm.insertvalue %[[BAD]], %[[D]][0]
  // CHECK-NEXT: llvm.insertvalue %[[FIRST]], %[[D1]][1]
  %0 = memref.get_global @cst : memref<2x3xf32>
  // CHECK:      %[[S:.*]] = llvm.mlir.addressof @scalar : !llvm.ptr
  // CHECK-NEXT: llvm.getelementptr %[[S]][0] : (!llvm.ptr) -> !llvm.ptr, f64
  %1 = memref.get_global @scalar : memref<f64>
  // CHECK:      %[[W:.*]] = llvm.mlir.addressof @shared : !llvm.ptr<3>
  // CHECK-NEXT: llvm.getelementptr %[[W]][0, 0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, !llvm.array<8 x f32>
  // CHECK:      llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
  // CHECK-NEXT: llvm.mlir.poison : !llvm.struct<(ptr<3>, ptr<3>, i64, array<1 x i64>, array<1 x i64>)>
  %2 = memref.get_global @shared : memref<8xf32, #gpu.address_space<workgroup>>
  return %0, %1, %2 : memref<2x3xf32>, memref<f64>, memref<8xf32, #gpu.address_space<workgroup>>
}

// -----

// CHECK-LABEL: func.func @reinterpret_cast
func.func @reinterpret_cast(%m: memref<?x?xf32>, %o: index, %s: index) -> memref<?x4xf32, strided<[?, 1], offset: ?>> {
  // CHECK-NEXT: %[[S:.*]] = builtin.unrealized_conversion_cast %s : index to i64
  // CHECK-NEXT: %[[O:.*]] = builtin.unrealized_conversion_cast %o : index to i64
  // CHECK-NEXT: %[[M:.*]] = builtin.unrealized_conversion_cast %m
  // CHECK-NEXT: %[[D:.*]] = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
  // CHECK-NEXT: %[[ALLOC:.*]] = llvm.extractvalue %[[M]][0]
  // CHECK-NEXT: %[[ALIGN:.*]] = llvm.extractvalue %[[M]][1]
  // CHECK-NEXT: %[[D1:.*]] = llvm.insertvalue %[[ALLOC]], %[[D]][0]
  // CHECK-NEXT: %[[D2:.*]] = llvm.insertvalue %[[ALIGN]], %[[D1]][1]
  // CHECK-NEXT: %[[D3:.*]] = llvm.insertvalue %[[O]], %[[D2]][2]
  // CHECK-NEXT: %[[D4:.*]] = llvm.insertvalue %[[S]], %[[D3]][3, 0]
  // CHECK-NEXT: %[[D5:.*]] = llvm.insertvalue %[[S]], %[[D4]][4, 0]
  // CHECK-NEXT: %[[C4:.*]] = llvm.mlir.constant({{.*}}4{{.*}}) : i64
  // CHECK-NEXT: %[[D6:.*]] = llvm.insertvalue %[[C4]], %[[D5]][3, 1]
  // CHECK-NEXT: %[[C1:.*]] = llvm.mlir.constant({{.*}}1{{.*}}) : i64
  // CHECK-NEXT: %[[D7:.*]] = llvm.insertvalue %[[C1]], %[[D6]][4, 1]
  // CHECK-NEXT: %[[R:.*]] = builtin.unrealized_conversion_cast %[[D7]] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> to memref<?x4xf32, strided<[?, 1], offset: ?>>
  // CHECK-NEXT: func.return %[[R]]
  %0 = memref.reinterpret_cast %m to offset: [%o], sizes: [%s, 4], strides: [%s, 1] : memref<?x?xf32> to memref<?x4xf32, strided<[?, 1], offset: ?>>
  return %0 : memref<?x4xf32, strided<[?, 1], offset: ?>>
}

// -----

// CHECK-LABEL: func.func @metadata
func.func @metadata(%m: memref<?x4xf32, strided<[?, 1], offset: ?>>) -> (memref<f32>, index, index, index, index, index, index) {
  // CHECK-NEXT: %[[M:.*]] = builtin.unrealized_conversion_cast %m
  // CHECK-NEXT: %[[ALLOC:.*]] = llvm.extractvalue %[[M]][0]
  // CHECK-NEXT: %[[ALIGN:.*]] = llvm.extractvalue %[[M]][1]
  // CHECK-NEXT: %[[B:.*]] = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64)>
  // CHECK-NEXT: %[[B1:.*]] = llvm.insertvalue %[[ALLOC]], %[[B]][0] : !llvm.struct<(ptr, ptr, i64)>
  // CHECK-NEXT: %[[B2:.*]] = llvm.insertvalue %[[ALIGN]], %[[B1]][1] : !llvm.struct<(ptr, ptr, i64)>
  // CHECK-NEXT: %[[ZERO:.*]] = llvm.mlir.constant({{.*}}0{{.*}}) : i64
  // CHECK-NEXT: %[[B3:.*]] = llvm.insertvalue %[[ZERO]], %[[B2]][2] : !llvm.struct<(ptr, ptr, i64)>
  // CHECK-NEXT: %[[OFF:.*]] = llvm.extractvalue %[[M]][2]
  // CHECK-NEXT: %[[S0:.*]] = llvm.extractvalue %[[M]][3, 0]
  // CHECK-NEXT: %[[S1:.*]] = llvm.extractvalue %[[M]][3, 1]
  // CHECK-NEXT: %[[T0:.*]] = llvm.extractvalue %[[M]][4, 0]
  // CHECK-NEXT: %[[T1:.*]] = llvm.extractvalue %[[M]][4, 1]
  // CHECK-NEXT: %b = builtin.unrealized_conversion_cast %[[B3]] : !llvm.struct<(ptr, ptr, i64)> to memref<f32>
  // CHECK-NEXT: %o = builtin.unrealized_conversion_cast %[[OFF]] : i64 to index
  %b, %o, %s:2, %t:2 = memref.extract_strided_metadata %m : memref<?x4xf32, strided<[?, 1], offset: ?>> -> memref<f32>, index, index, index, index, index
  // CHECK:      %[[A:.*]] = llvm.extractvalue %[[M]][1]
  // CHECK-NEXT: %[[AI:.*]] = llvm.ptrtoint %[[A]] : !llvm.ptr to i64
  // CHECK-NEXT: %p = builtin.unrealized_conversion_cast %[[AI]] : i64 to index
  %p = "memref.extract_aligned_pointer_as_index"(%m) : (memref<?x4xf32, strided<[?, 1], offset: ?>>) -> index
  return %b, %o, %s#0, %s#1, %t#0, %t#1, %p : memref<f32>, index, index, index, index, index, index
}

// -----

// view: the aligned pointer moves by the byte shift; offset 0; sizes and
// contiguous strides from the innermost dimension out.

// CHECK-LABEL: func.func @view
func.func @view(%b: memref<2048xi8>, %shift: index, %n: index) -> memref<?x4xf32> {
  // CHECK-NEXT: %[[N:.*]] = builtin.unrealized_conversion_cast %n : index to i64
  // CHECK-NEXT: %[[SHIFT:.*]] = builtin.unrealized_conversion_cast %shift : index to i64
  // CHECK-NEXT: %[[B:.*]] = builtin.unrealized_conversion_cast %b
  // CHECK-NEXT: %[[D:.*]] = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
  // CHECK-NEXT: %[[ALLOC:.*]] = llvm.extractvalue %[[B]][0]
  // CHECK-NEXT: %[[D1:.*]] = llvm.insertvalue %[[ALLOC]], %[[D]][0]
  // CHECK-NEXT: %[[ALIGN:.*]] = llvm.extractvalue %[[B]][1]
  // CHECK-NEXT: %[[MOVED:.*]] = llvm.getelementptr %[[ALIGN]][%[[SHIFT]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  // CHECK-NEXT: %[[D2:.*]] = llvm.insertvalue %[[MOVED]], %[[D1]][1]
  // CHECK-NEXT: %[[ZERO:.*]] = llvm.mlir.constant({{.*}}0{{.*}}) : i64
  // CHECK-NEXT: %[[D3:.*]] = llvm.insertvalue %[[ZERO]], %[[D2]][2]
  // CHECK-NEXT: %[[C4:.*]] = llvm.mlir.constant({{.*}}4{{.*}}) : i64
  // CHECK-NEXT: %[[D4:.*]] = llvm.insertvalue %[[C4]], %[[D3]][3, 1]
  // CHECK-NEXT: %[[C1:.*]] = llvm.mlir.constant({{.*}}1{{.*}}) : i64
  // CHECK-NEXT: %[[D5:.*]] = llvm.insertvalue %[[C1]], %[[D4]][4, 1]
  // CHECK-NEXT: %[[D6:.*]] = llvm.insertvalue %[[N]], %[[D5]][3, 0]
  // CHECK-NEXT: %[[C4B:.*]] = llvm.mlir.constant({{.*}}4{{.*}}) : i64
  // CHECK-NEXT: llvm.insertvalue %[[C4B]], %[[D6]][4, 0]
  %0 = memref.view %b[%shift][%n] : memref<2048xi8> to memref<?x4xf32>
  return %0 : memref<?x4xf32>
}

// -----

// CHECK-LABEL: func.func @memory_space_cast
func.func @memory_space_cast(%m: memref<?xf32, 1>) -> memref<?xf32> {
  // CHECK:      %[[A:.*]] = llvm.extractvalue %[[M:.*]][0] : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)>
  // CHECK-NEXT: %[[B:.*]] = llvm.extractvalue %[[M]][1]
  // CHECK-NEXT: %[[O:.*]] = llvm.extractvalue %[[M]][2]
  // CHECK-NEXT: %[[S:.*]] = llvm.extractvalue %[[M]][3, 0]
  // CHECK-NEXT: %[[T:.*]] = llvm.extractvalue %[[M]][4, 0]
  // CHECK-NEXT: %[[A0:.*]] = llvm.addrspacecast %[[A]] : !llvm.ptr<1> to !llvm.ptr
  // CHECK-NEXT: %[[B0:.*]] = llvm.addrspacecast %[[B]] : !llvm.ptr<1> to !llvm.ptr
  // CHECK-NEXT: %[[D:.*]] = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  // CHECK-NEXT: %[[D1:.*]] = llvm.insertvalue %[[A0]], %[[D]][0]
  // CHECK-NEXT: %[[D2:.*]] = llvm.insertvalue %[[B0]], %[[D1]][1]
  // CHECK-NEXT: %[[D3:.*]] = llvm.insertvalue %[[O]], %[[D2]][2]
  // CHECK-NEXT: %[[D4:.*]] = llvm.insertvalue %[[S]], %[[D3]][3, 0]
  // CHECK-NEXT: llvm.insertvalue %[[T]], %[[D4]][4, 0]
  %0 = "memref.memory_space_cast"(%m) : (memref<?xf32, 1>) -> memref<?xf32>
  return %0 : memref<?xf32>
}

// -----

// atomic_rmw: llvm.atomicrmw acq_rel; mulf/muli (no atomicrmw form): a cmpxchg
// loop, on the bits of a float.

// CHECK-LABEL: func.func @atomics
func.func @atomics(%m: memref<10xf32>, %i: index, %v: f32) -> (f32, f32) {
  // CHECK:        %[[P:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  // CHECK-NEXT:   %[[OLD:.*]] = llvm.atomicrmw fadd %[[P]], %v acq_rel : !llvm.ptr, f32
  %0 = "memref.atomic_rmw"(%v, %m, %i) <{kind = 0 : i64}> : (f32, memref<10xf32>, index) -> f32
  // CHECK:        %[[Q:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  // CHECK-NEXT:   %[[INIT:.*]] = llvm.load %[[Q]] : !llvm.ptr -> i32
  // CHECK-NEXT:   llvm.br ^[[LOOP:.*]](%[[INIT]] : i32)
  // CHECK-NEXT: ^[[LOOP]](%[[CUR:.*]]: i32):
  // CHECK-NEXT:   %[[CURF:.*]] = llvm.bitcast %[[CUR]] : i32 to f32
  // CHECK-NEXT:   %[[NEWF:.*]] = llvm.fmul %[[CURF]], %v : f32
  // CHECK-NEXT:   %[[NEW:.*]] = llvm.bitcast %[[NEWF]] : f32 to i32
  // CHECK-NEXT:   %[[PAIR:.*]] = llvm.cmpxchg %[[Q]], %[[CUR]], %[[NEW]] acq_rel monotonic : !llvm.ptr, i32
  // CHECK-NEXT:   %[[SEEN:.*]] = llvm.extractvalue %[[PAIR]][0] : !llvm.struct<(i32, i1)>
  // CHECK-NEXT:   %[[OK:.*]] = llvm.extractvalue %[[PAIR]][1] : !llvm.struct<(i32, i1)>
  // CHECK-NEXT:   %[[RESULT:.*]] = llvm.bitcast %[[SEEN]] : i32 to f32
  // CHECK-NEXT:   llvm.cond_br %[[OK]], ^[[DONE:.*]], ^[[LOOP]](%[[SEEN]] : i32)
  // CHECK-NEXT: ^[[DONE]]:
  // CHECK-NEXT:   func.return %[[OLD]], %[[RESULT]] : f32, f32
  %1 = "memref.atomic_rmw"(%v, %m, %i) <{kind = 12 : i64}> : (f32, memref<10xf32>, index) -> f32
  return %0, %1 : f32, f32
}

// -----

// What this pass cannot lower is reported, not left behind.

func.func @subview(%m: memref<8x16xf32>) -> memref<4x4xf32, strided<[16, 1], offset: 2>> {
  %0 = memref.subview %m[0, 2][4, 4][1, 1] : memref<8x16xf32> to memref<4x4xf32, strided<[16, 1], offset: 2>>
  return %0 : memref<4x4xf32, strided<[16, 1], offset: 2>>
}

// CHECK: finalize-memref-to-llvm: 'memref.subview' op in @subview must be expanded before this pass: run expand-strided-metadata (which rewrites subview into reinterpret_cast) before finalize-memref-to-llvm

// -----

func.func @collapse(%m: memref<2x4xf32>) -> memref<8xf32> {
  %0 = memref.collapse_shape %m [[0, 1]] : memref<2x4xf32> into memref<8xf32>
  return %0 : memref<8xf32>
}

// CHECK: finalize-memref-to-llvm: 'memref.collapse_shape' op in @collapse must be expanded before this pass: run expand-strided-metadata (which rewrites collapse_shape into reinterpret_cast) before finalize-memref-to-llvm

// -----

func.func @expand(%m: memref<8xf32>) -> memref<2x4xf32> {
  %0 = memref.expand_shape %m [[0, 1]] output_shape [2, 4] : memref<8xf32> into memref<2x4xf32>
  return %0 : memref<2x4xf32>
}

// CHECK: finalize-memref-to-llvm: 'memref.expand_shape' op in @expand must be expanded before this pass: run expand-strided-metadata (which rewrites expand_shape into reinterpret_cast) before finalize-memref-to-llvm

// -----

func.func @alloc_layout() -> memref<4xf32, affine_map<(d0) -> (d0 * 2)>> {
  %0 = memref.alloc() : memref<4xf32, affine_map<(d0) -> (d0 * 2)>>
  return %0 : memref<4xf32, affine_map<(d0) -> (d0 * 2)>>
}

// CHECK: finalize-memref-to-llvm: 'memref.alloc' op in @alloc_layout allocates a memref of type memref<4xf32, affine_map<(d0) -> ((d0 * 2))>> with a layout; allocations must have the identity layout (normalize-memrefs, or allocate and reinterpret_cast)

// -----

func.func @not_strided(%m: memref<4x4xf32, affine_map<(d0, d1) -> (d0 floordiv 2, d1)>>, %i: index) -> f32 {
  %0 = memref.load %m[%i, %i] : memref<4x4xf32, affine_map<(d0, d1) -> (d0 floordiv 2, d1)>>
  return %0 : f32
}

// CHECK: finalize-memref-to-llvm: 'memref.load' op in @not_strided has a memref of type memref<4x4xf32, affine_map<(d0, d1) -> ((d0 floordiv 2), d1)>>, whose layout is not strided: normalize the layout first (normalize-memrefs)

// -----

func.func @memory_space(%m: memref<4xf32, "shared">, %i: index) -> f32 {
  %0 = memref.load %m[%i] : memref<4xf32, "shared">
  return %0 : f32
}

// CHECK: finalize-memref-to-llvm: 'memref.load' op in @memory_space uses memory space "shared" (in memref<4xf32, "shared">), which has no LLVM address space: use an integer memory space or #gpu.address_space<global|workgroup|private>

// -----

func.func @cas_in_scf_for(%m: memref<4xi32>, %v: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %0 = "memref.atomic_rmw"(%v, %m, %i) <{kind = 13 : i64}> : (i32, memref<4xi32>, index) -> i32
  }
  return
}

// CHECK: finalize-memref-to-llvm: 'memref.atomic_rmw' op in @cas_in_scf_for is inside 'scf.for', whose body must stay one block, and its lowering needs branches: run convert-scf-to-cf (after lower-affine) before finalize-memref-to-llvm

// -----

func.func @dma(%a: memref<4xf32>, %b: memref<4xf32, 1>, %tag: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  "memref.dma_start"(%a, %c0, %b, %c0, %c4, %tag, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>} : (memref<4xf32>, index, memref<4xf32, 1>, index, index, memref<1xi32>, index) -> ()
  return
}

// CHECK: finalize-memref-to-llvm: 'memref.dma_start' op in @dma has no lowering to the llvm dialect in finalize-memref-to-llvm

// -----

func.func private @malloc(i64) -> i64
func.func @clash() {
  %0 = memref.alloc() : memref<4xf32>
  return
}

// CHECK: finalize-memref-to-llvm: 'memref.alloc' op in @clash needs the runtime function @malloc, but the module already defines @malloc as 'func.func'
