// A block label ends with MLIR's note of its predecessors in runs that use xdsl-gpu,
// as mlir-opt-22 prints it (one entry per branch, in block order); stock xDSL runs
// print the label alone. The note is a comment: the output reads back the same.
// RUN: xdsl-opt --xdsl-gpu %s | filecheck %s
// RUN: xdsl-opt --xdsl-gpu %s | xdsl-opt --xdsl-gpu | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s | filecheck %s %}
// RUN: xdsl-opt %s | filecheck %s --check-prefix=STOCK

func.func @notes(%c: i1, %a: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2(%a : i32)
^bb1:
  cf.cond_br %c, ^bb2(%a : i32), ^bb2(%a : i32)
^bb2(%x: i32):
  cf.br ^bb4
^bb3:
  cf.br ^bb4
^bb4:
  cf.cond_br %c, ^bb5, ^bb5
^bb5:
  return %a : i32
}

// CHECK:      ^bb1:  // pred: ^bb0
// CHECK:      ^bb2(%{{.*}}: i32):  // 3 preds: ^bb0, ^bb1, ^bb1
// CHECK:      ^bb3:  // no predecessors
// CHECK:      ^bb4:  // 2 preds: ^bb2, ^bb3
// CHECK:      ^bb5:  // 2 preds: ^bb4, ^bb4

// STOCK:      ^bb1:{{$}}
// STOCK:      ^bb2(%x: i32):{{$}}
