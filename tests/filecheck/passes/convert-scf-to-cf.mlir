// RUN: xdsl-opt --xdsl-gpu %s -p convert-scf-to-cf | filecheck %s
// RUN: xdsl-opt --xdsl-gpu %s -p 'convert-scf-to-cf{allow-pattern-rollback=false}' | filecheck %s

// xdsl-gpu's pass adds scf.while, scf.execute_region and scf.parallel to xDSL's
// scf.for/scf.if/scf.index_switch lowerings.

// The "before" region is the loop header; the results are the condition's operands.
// CHECK-LABEL: func.func @while_loop
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    cf.br ^[[HEAD:.*]](%n, %[[C0]] : i32, index)
// CHECK-NEXT:  ^[[HEAD]](%[[V:.*]]: i32, %[[S:.*]]: index):
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[GT:.*]] = arith.cmpi sgt, %[[V]], %[[ONE]] : i32
// CHECK-NEXT:    cf.cond_br %[[GT]], ^[[BODY:.*]](%[[V]], %[[S]] : i32, index), ^[[EXIT:.*]]
// CHECK-NEXT:  ^[[BODY]](%[[V1:.*]]: i32, %[[S1:.*]]: index):
// CHECK:         cf.br ^[[HEAD]](%{{.*}}, %{{.*}} : i32, index)
// CHECK-NEXT:  ^[[EXIT]]:
// CHECK-NEXT:    func.return %[[V]], %[[S]] : i32, index
func.func @while_loop(%n: i32) -> (i32, index) {
  %c0 = arith.constant 0 : index
  %r:2 = scf.while (%v = %n, %s = %c0) : (i32, index) -> (i32, index) {
    %one = arith.constant 1 : i32
    %gt = arith.cmpi sgt, %v, %one : i32
    scf.condition(%gt) %v, %s : i32, index
  } do {
  ^bb0(%v: i32, %s: index):
    %one = arith.constant 1 : i32
    %next = arith.subi %v, %one : i32
    %c1 = arith.constant 1 : index
    %s1 = arith.addi %s, %c1 : index
    scf.yield %next, %s1 : i32, index
  }
  func.return %r#0, %r#1 : i32, index
}

// CHECK-LABEL: func.func @region
// CHECK-NEXT:    cf.br ^[[ENTRY:.*]]
// CHECK-NEXT:  ^[[ENTRY]]:
// CHECK-NEXT:    %[[B:.*]] = arith.addi %a, %a : i32
// CHECK-NEXT:    cf.br ^[[CONT:.*]](%[[B]] : i32)
// CHECK-NEXT:  ^[[CONT]](%[[R:.*]]: i32):
// CHECK-NEXT:    cf.br ^[[REST:.*]]
// CHECK-NEXT:  ^[[REST]]:
// CHECK-NEXT:    func.return %[[R]] : i32
func.func @region(%a: i32) -> i32 {
  %r = scf.execute_region -> i32 {
    %b = arith.addi %a, %a : i32
    scf.yield %b : i32
  }
  func.return %r : i32
}

// scf.parallel becomes a nest of loops, outermost dimension first.
// CHECK-LABEL: func.func @parallel
// CHECK:         cf.br ^[[H0:.*]](%c0 : index)
// CHECK-NEXT:  ^[[H0]](%[[I:.*]]: index):
// CHECK-NEXT:    %{{.*}} = arith.cmpi slt, %[[I]], %c4 : index
// CHECK:         cf.br ^[[H1:.*]](%c0 : index)
// CHECK-NEXT:  ^[[H1]](%[[J:.*]]: index):
// CHECK:         memref.store %f, %m[%[[I]], %[[J]]] : memref<4x4xf32>
func.func @parallel(%m: memref<4x4xf32>, %f: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  "scf.parallel"(%c0, %c0, %c4, %c4, %c1, %c1) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}> ({
  ^bb0(%i: index, %j: index):
    memref.store %f, %m[%i, %j] : memref<4x4xf32>
    scf.reduce
  }) : (index, index, index, index, index, index) -> ()
  func.return
}
