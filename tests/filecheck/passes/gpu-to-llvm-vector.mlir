// RUN: xdsl-opt %s -p gpu-to-llvm --split-input-file | filecheck %s
// RUN: xdsl-opt %s -p canonicalize --split-input-file | filecheck %s --check-prefix=CANON
// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-format=isa}' --split-input-file | filecheck %s --check-prefix=PIPE

// Host vector ops in gpu-to-llvm, as MLIR 22's pass lowers them (the vector
// dialect's LLVM patterns): scalar prints become calls to the runner utils, each
// element type with its own function and extension.

// CHECK:       llvm.func @printBF16(i16)
// CHECK-NEXT:  llvm.func @printF16(i16)
// CHECK-NEXT:  llvm.func @printComma()
// CHECK-NEXT:  llvm.func @printU64(i64)
// CHECK-NEXT:  llvm.func @printNewline()
// CHECK-NEXT:  llvm.func @printI64(i64)
// CHECK-LABEL: llvm.func @prints(
// CHECK-SAME:    %[[X:[^:]*]]: i64, %[[T:[^:]*]]: i1, %[[U:[^:]*]]: i8, %[[H:[^:]*]]: f16, %[[B:[^:]*]]: bf16)
// CHECK:         %[[C:.*]] = llvm.mlir.constant(-3 : i32) : i32
// CHECK-NEXT:    %[[S:.*]] = llvm.sext %[[C]] : i32 to i64
// CHECK-NEXT:    llvm.call @printI64(%[[S]]) : (i64) -> ()
// CHECK-NEXT:    llvm.call @printNewline() : () -> ()
// CHECK-NEXT:    llvm.call @printU64(%[[X]]) : (i64) -> ()
// CHECK-NEXT:    llvm.call @printComma() : () -> ()
// CHECK-NEXT:    %[[Z:.*]] = llvm.zext %[[T]] : i1 to i64
// CHECK-NEXT:    llvm.call @printI64(%[[Z]]) : (i64) -> ()
// CHECK-NEXT:    llvm.call @printNewline() : () -> ()
// CHECK-NEXT:    %[[UZ:.*]] = llvm.zext %[[U]] : i8 to i64
// CHECK-NEXT:    llvm.call @printU64(%[[UZ]]) : (i64) -> ()
// CHECK-NEXT:    llvm.call @printNewline() : () -> ()
// CHECK-NEXT:    %[[HB:.*]] = llvm.bitcast %[[H]] : f16 to i16
// CHECK-NEXT:    llvm.call @printF16(%[[HB]]) : (i16) -> ()
// CHECK-NEXT:    llvm.call @printNewline() : () -> ()
// CHECK-NEXT:    %[[BB:.*]] = llvm.bitcast %[[B]] : bf16 to i16
// CHECK-NEXT:    llvm.call @printBF16(%[[BB]]) : (i16) -> ()
// CHECK-NEXT:    llvm.call @printNewline() : () -> ()
// CHECK-NEXT:    llvm.return
// CHECK-NOT:   vector.
func.func @prints(%x: index, %t: i1, %u: ui8, %h: f16, %b: bf16) {
  %c = arith.constant -3 : i32
  vector.print %c : i32
  vector.print %x : index punctuation <comma>
  vector.print %t : i1
  vector.print %u : ui8
  vector.print %h : f16
  vector.print %b : bf16
  return
}

// -----

// 1-D transfers that are in bounds become loads and stores first (a mask operand
// makes a masked load); one that may run out of bounds stays, as upstream's pass
// materializes no masks (convert-vector-to-llvm does).

// CHECK-LABEL: llvm.func @transfers(
// CHECK:         llvm.intr.masked.load %{{.*}}, %{{.*}}, %{{.*}} {alignment = 4 : i32} : (!llvm.ptr, vector<2xi1>, vector<2xf32>) -> vector<2xf32>
// CHECK:         llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> vector<2xf32>
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<2xf32>, !llvm.ptr
// CHECK:         vector.transfer_read %{{.*}}[%{{.*}}], %{{.*}} : memref<5xf32>, vector<2xf32>
// CHECK:         llvm.return
func.func @transfers(%m: memref<5xf32>, %i: index, %mask: vector<2xi1>) -> (vector<2xf32>, vector<2xf32>, vector<2xf32>) {
  %p = arith.constant 0.0 : f32
  %a = vector.transfer_read %m[%i], %p, %mask {in_bounds = [true]} : memref<5xf32>, vector<2xf32>
  %b = vector.transfer_read %m[%i], %p {in_bounds = [true]} : memref<5xf32>, vector<2xf32>
  vector.transfer_write %b, %m[%i] {in_bounds = [true]} : vector<2xf32>, memref<5xf32>
  %c = vector.transfer_read %m[%i], %p : memref<5xf32>, vector<2xf32>
  return %a, %b, %c : vector<2xf32>, vector<2xf32>, vector<2xf32>
}

// -----

// canonicalize (and convert-vector-to-scf, as upstream's greedy driver folds) marks
// the dims that are provably in bounds: a constant index into a static dim with room
// for the vector; broadcast dims once the others are. Upstream's gpu-to-cubin test
// relies on it: the pipeline then lowers its host transfer_read to a plain load.

// CANON-DAG:   #[[$BCAST:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CANON-LABEL: func.func @in_bounds(
// CANON:         vector.transfer_read %{{.*}}[%{{.*}}], %{{.*}} {in_bounds = [true]} : memref<5xf32>, vector<2xf32>
// CANON-NEXT:    vector.transfer_read %{{.*}}[%{{.*}}], %{{.*}} : memref<5xf32>, vector<2xf32>
// CANON-NEXT:    vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [false, true]} : memref<?x8xf32>, vector<2x4xf32>
// CANON-NEXT:    vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true, true], permutation_map = #[[$BCAST]]} : memref<?x8xf32>, vector<2x4xf32>
// CANON-NEXT:    vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}] {in_bounds = [true]} : vector<2xf32>, memref<5xf32>

func.func @in_bounds(%m: memref<5xf32>, %d: memref<?x8xf32>, %v: vector<2xf32>) -> (vector<2xf32>, vector<2xf32>, vector<2x4xf32>, vector<2x4xf32>) {
  %p = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %a = vector.transfer_read %m[%c0], %p : memref<5xf32>, vector<2xf32>
  %b = vector.transfer_read %m[%c4], %p : memref<5xf32>, vector<2xf32>
  %c = vector.transfer_read %d[%c0, %c4], %p : memref<?x8xf32>, vector<2x4xf32>
  %e = vector.transfer_read %d[%c4, %c0], %p {permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<?x8xf32>, vector<2x4xf32>
  vector.transfer_write %v, %m[%c0] : vector<2xf32>, memref<5xf32>
  return %a, %b, %c, %e : vector<2xf32>, vector<2xf32>, vector<2x4xf32>, vector<2x4xf32>
}

// -----

// Upstream's gpu-to-cubin test in short: a host read of a static memref at a constant
// index, printed. Through the whole pipeline: a plain load, the print loop of
// convert-vector-to-scf as calls, nothing of vector and no cast left.

// PIPE-LABEL:  llvm.func @host_read(
// PIPE:          llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> vector<2xf32>
// PIPE:          llvm.call @printOpen() : () -> ()
// PIPE:          llvm.call @printF32(%{{.*}}) : (f32) -> ()
// PIPE:          llvm.call @printComma() : () -> ()
// PIPE:          llvm.call @printClose() : () -> ()
// PIPE-NEXT:     llvm.call @printNewline() : () -> ()
// PIPE-NOT:      vector.
// PIPE-NOT:      builtin.unrealized_conversion_cast
func.func @host_read(%m: memref<5xf32>) {
  %p = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %a = vector.transfer_read %m[%c0], %p : memref<5xf32>, vector<2xf32>
  vector.print %a : vector<2xf32>
  return
}
