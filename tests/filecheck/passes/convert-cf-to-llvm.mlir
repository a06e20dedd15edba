// RUN: xdsl-opt %s -p convert-cf-to-llvm | filecheck %s
// RUN: xdsl-opt %s -p 'convert-cf-to-llvm{index-bitwidth=32}' | filecheck %s --check-prefix=IDX32

// Declarations and the message globals of cf.assert go to the start of the module,
// as upstream puts them.
// CHECK:      llvm.mlir.global private constant @assert_msg_0(dense<[115, 101, 99, 111, 110, 100, 0]> : tensor<7xi8>) {addr_space = 0 : i32} : !llvm.array<7 x i8>
// CHECK-NEXT: llvm.func @abort()
// CHECK-NEXT: llvm.func @puts(!llvm.ptr)
// CHECK-NEXT: llvm.mlir.global private constant @assert_msg(dense<[98, 111, 111, 109, 0]> : tensor<5xi8>) {addr_space = 0 : i32} : !llvm.array<5 x i8>

// Successor blocks get converted argument types; old uses see a cast back.
// CHECK-LABEL: func.func @branches
// IDX32-LABEL: func.func @branches
func.func @branches(%a: index, %c: i1, %m: memref<2xf32>) -> index {
  // CHECK-NEXT: %[[M:.*]] = builtin.unrealized_conversion_cast %m : memref<2xf32> to !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  // CHECK-NEXT: %[[A:.*]] = builtin.unrealized_conversion_cast %a : index to i64
  // CHECK-NEXT: llvm.cond_br %c, ^[[BB1:.*]](%[[A]] : i64), ^[[BB2:.*]]
  // IDX32:      %[[A:.*]] = builtin.unrealized_conversion_cast %a : index to i32
  // IDX32-NEXT: llvm.cond_br %c, ^{{.*}}(%[[A]] : i32), ^{{.*}}
  cf.cond_br %c, ^bb1(%a : index), ^bb2
// CHECK-NEXT: ^[[BB1]](%[[X:.*]]: i64):
^bb1(%x: index):
  // CHECK-NEXT: llvm.br ^[[BB3:.*]](%[[X]], %[[M]] : i64, !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>)
  cf.br ^bb3(%x, %m : index, memref<2xf32>)
// CHECK-NEXT: ^[[BB2]]:
^bb2:
  // CHECK-NEXT: %[[V:.*]] = arith.constant 5 : i32
  %v = arith.constant 5 : i32
  // CHECK-NEXT: llvm.switch %[[V]] : i32, ^[[BB3]](%[[A]], %[[M]] : i64, !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>) [
  // CHECK-NEXT:   42: ^[[BB1]](%[[A]] : i64),
  // CHECK-NEXT:   43: ^[[BB2]]
  // CHECK-NEXT: ]
  cf.switch %v : i32, [
    default: ^bb3(%a, %m : index, memref<2xf32>),
    42: ^bb1(%a : index),
    43: ^bb2
  ]
// CHECK-NEXT: ^[[BB3]](%[[Y:.*]]: i64, %{{.*}}: !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>):
// CHECK-NEXT: %[[YI:.*]] = builtin.unrealized_conversion_cast %[[Y]] : i64 to index
^bb3(%y: index, %mm: memref<2xf32>):
  // cf.assert splits the block: on failure, puts(message) and abort().
  // CHECK-NEXT: llvm.cond_br %c, ^[[OK1:.*]], ^[[FAIL1:.*]]
  cf.assert %c, "boom"
  // CHECK-NEXT: ^[[OK1]]:
  // CHECK-NEXT: llvm.cond_br %c, ^[[OK2:.*]], ^[[FAIL2:.*]]
  cf.assert %c, "second"
  // CHECK-NEXT: ^[[OK2]]:
  // CHECK-NEXT: func.return %[[YI]] : index
  func.return %y : index
  // CHECK-NEXT: ^[[FAIL1]]:
  // CHECK-NEXT: %[[MSG:.*]] = llvm.mlir.addressof @assert_msg : !llvm.ptr
  // CHECK-NEXT: %[[STR:.*]] = llvm.getelementptr %[[MSG]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<5 x i8>
  // CHECK-NEXT: llvm.call @puts(%[[STR]]) : (!llvm.ptr) -> ()
  // CHECK-NEXT: llvm.call @abort() : () -> ()
  // CHECK-NEXT: llvm.unreachable
  // CHECK-NEXT: ^[[FAIL2]]:
  // CHECK-NEXT: llvm.mlir.addressof @assert_msg_0 : !llvm.ptr
}

// A switch on index uses the converted width for its case values.
// CHECK-LABEL: func.func @switch_index
// IDX32-LABEL: func.func @switch_index
func.func @switch_index(%i: index) {
  // CHECK:      llvm.switch %{{.*}} : i64, ^{{.*}} [
  // IDX32:      llvm.switch %{{.*}} : i32, ^{{.*}} [
  // CHECK-NEXT:   7: ^{{.*}}
  cf.switch %i : index, [
    default: ^bb1,
    7: ^bb1
  ]
^bb1:
  func.return
}
