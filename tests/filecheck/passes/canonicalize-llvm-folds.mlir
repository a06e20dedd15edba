// RUN: xdsl-opt --xdsl-gpu %s -p canonicalize | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --canonicalize | filecheck %s %}

// The folders of llvm.extractvalue and llvm.getelementptr, and llvm's constants
// uniqued at the front of the function, as MLIR 22's canonicalize does.

// CHECK-LABEL: llvm.func @extract(
// CHECK-SAME:     %[[A:[^:]*]]: i64, %[[B:[^:]*]]: f32, %[[S:[^:]*]]: !llvm.struct<(i64, f32)>)
// CHECK-NEXT:    %[[U:.*]] = llvm.mlir.poison : !llvm.struct<(i64, f32, i64, struct<(i64, f32)>)>
// CHECK-NEXT:    %[[P:.*]] = llvm.mlir.poison : !llvm.struct<(i64, struct<(i64, f32)>)>
// CHECK-NEXT:    %[[I:.*]] = llvm.insertvalue %[[B]], %[[S]][1] : !llvm.struct<(i64, f32)>
// CHECK-NEXT:    %[[O:.*]] = llvm.insertvalue %[[I]], %[[P]][1] : !llvm.struct<(i64, struct<(i64, f32)>)>
// CHECK-NEXT:    %[[X:.*]] = llvm.extractvalue %[[O]][1, 0] : !llvm.struct<(i64, struct<(i64, f32)>)>
// CHECK-NEXT:    %[[R0:.*]] = llvm.insertvalue %[[A]], %[[U]][0]
// CHECK-NEXT:    %[[R1:.*]] = llvm.insertvalue %[[B]], %[[R0]][1]
// CHECK-NEXT:    %[[R2:.*]] = llvm.insertvalue %[[X]], %[[R1]][2]
// CHECK-NEXT:    %[[R3:.*]] = llvm.insertvalue %[[I]], %[[R2]][3]
// CHECK-NEXT:    llvm.return %[[R3]]
llvm.func @extract(%a: i64, %b: f32, %s: !llvm.struct<(i64, f32)>) -> !llvm.struct<(i64, f32, i64, struct<(i64, f32)>)> {
  %p = llvm.mlir.poison : !llvm.struct<(i64, struct<(i64, f32)>)>
  %q = llvm.mlir.poison : !llvm.struct<(i64, struct<(i64, f32)>)>
  %i = llvm.insertvalue %b, %s[1] : !llvm.struct<(i64, f32)>
  %o = llvm.insertvalue %i, %p[1] : !llvm.struct<(i64, struct<(i64, f32)>)>
  %o2 = llvm.insertvalue %a, %o[0] : !llvm.struct<(i64, struct<(i64, f32)>)>
  // The value inserted at [0].
  %0 = llvm.extractvalue %o2[0] : !llvm.struct<(i64, struct<(i64, f32)>)>
  // Inside the value inserted at [1], then its insertvalue at [1].
  %1 = llvm.extractvalue %o2[1, 1] : !llvm.struct<(i64, struct<(i64, f32)>)>
  // Inside it, past its insertvalue at [1]: read from %s.
  %2 = llvm.extractvalue %o2[1, 0] : !llvm.struct<(i64, struct<(i64, f32)>)>
  // A whole element: the chain is skipped up to %o.
  %3 = llvm.extractvalue %o2[1] : !llvm.struct<(i64, struct<(i64, f32)>)>
  %u = llvm.mlir.poison : !llvm.struct<(i64, f32, i64, struct<(i64, f32)>)>
  %r0 = llvm.insertvalue %0, %u[0] : !llvm.struct<(i64, f32, i64, struct<(i64, f32)>)>
  %r1 = llvm.insertvalue %1, %r0[1] : !llvm.struct<(i64, f32, i64, struct<(i64, f32)>)>
  %r2 = llvm.insertvalue %2, %r1[2] : !llvm.struct<(i64, f32, i64, struct<(i64, f32)>)>
  %r3 = llvm.insertvalue %3, %r2[3] : !llvm.struct<(i64, f32, i64, struct<(i64, f32)>)>
  llvm.return %r3 : !llvm.struct<(i64, f32, i64, struct<(i64, f32)>)>
}


// CHECK-LABEL: llvm.func @gep(
// CHECK-SAME:     %[[P:[^:]*]]: !llvm.ptr, %[[N:[^:]*]]: i64)
// CHECK-NEXT:    %[[U:.*]] = llvm.mlir.poison : !llvm.struct<(ptr, ptr, ptr, ptr)>
// CHECK-NEXT:    %[[BIG:.*]] = llvm.mlir.constant(4294967296{{.*}}) : i64
// CHECK-NEXT:    %[[G1:.*]] = llvm.getelementptr %[[P]][8192] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT:    %[[G2:.*]] = llvm.getelementptr %[[P]][%[[N]], 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:    %[[G3:.*]] = llvm.getelementptr %[[P]][%[[BIG]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK-NEXT:    %[[R0:.*]] = llvm.insertvalue %[[P]], %[[U]][0]
// CHECK-NEXT:    %[[R1:.*]] = llvm.insertvalue %[[G1]], %[[R0]][1]
// CHECK-NEXT:    %[[R2:.*]] = llvm.insertvalue %[[G2]], %[[R1]][2]
// CHECK-NEXT:    %[[R3:.*]] = llvm.insertvalue %[[G3]], %[[R2]][3]
// CHECK-NEXT:    llvm.return %[[R3]]
llvm.func @gep(%p: !llvm.ptr, %n: i64) -> !llvm.struct<(ptr, ptr, ptr, ptr)> {
  %c0 = llvm.mlir.constant(0 : index) : i64
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c8192 = llvm.mlir.constant(8192 : index) : i64
  %big = llvm.mlir.constant(4294967296 : i64) : i64
  // gep %p[0] of the pointer's own type is %p.
  %0 = llvm.getelementptr %p[%c0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  // Constant indices become static ones...
  %1 = llvm.getelementptr %p[%c8192] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  %2 = llvm.getelementptr %p[%n, %c1] : (!llvm.ptr, i64, i32) -> !llvm.ptr, !llvm.array<4 x f32>
  // ... those that fit in 32 bits.
  %3 = llvm.getelementptr %p[%big] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  %u = llvm.mlir.poison : !llvm.struct<(ptr, ptr, ptr, ptr)>
  %r0 = llvm.insertvalue %0, %u[0] : !llvm.struct<(ptr, ptr, ptr, ptr)>
  %r1 = llvm.insertvalue %1, %r0[1] : !llvm.struct<(ptr, ptr, ptr, ptr)>
  %r2 = llvm.insertvalue %2, %r1[2] : !llvm.struct<(ptr, ptr, ptr, ptr)>
  %r3 = llvm.insertvalue %3, %r2[3] : !llvm.struct<(ptr, ptr, ptr, ptr)>
  llvm.return %r3 : !llvm.struct<(ptr, ptr, ptr, ptr)>
}
