// An i64 integer memory space prints without its type in runs that use xdsl-gpu,
// as mlir-opt-22 prints it; other widths keep theirs. Stock xDSL runs print as
// xDSL does. Both forms read back as the same type.
// RUN: xdsl-opt --xdsl-gpu %s | filecheck %s
// RUN: xdsl-opt --xdsl-gpu %s | xdsl-opt --xdsl-gpu | filecheck %s
// RUN: xdsl-opt %s | filecheck %s --check-prefix=STOCK

func.func @spaces(%a: memref<4xf32, 3>, %b: memref<4xf32, 3 : i64>,
                  %c: memref<?x4xf32, strided<[4, 1]>, 5>, %d: memref<*xf32, 1>,
                  %e: memref<4xf32, 2 : i32>, %f: memref<*xf32, 7 : i8>,
                  %g: memref<4xf32, -1>) {
  return
}

// CHECK:      func.func @spaces(%a: memref<4xf32, 3>, %b: memref<4xf32, 3>,
// CHECK-SAME: %c: memref<?x4xf32, strided<[4, 1]>, 5>, %d: memref<*xf32, 1>,
// CHECK-SAME: %e: memref<4xf32, 2 : i32>, %f: memref<*xf32, 7 : i8>,
// CHECK-SAME: %g: memref<4xf32, -1>)

// STOCK:      func.func @spaces(%a: memref<4xf32, 3 : i64>, %b: memref<4xf32, 3 : i64>,
// STOCK-SAME: %d: memref<*xf32, 1 : i64>,
// STOCK-SAME: %e: memref<4xf32, 2 : i32>
