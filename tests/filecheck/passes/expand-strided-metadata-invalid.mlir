// RUN: xdsl-opt %s -p expand-strided-metadata --split-input-file --verify-diagnostics | filecheck %s
// RUN: not xdsl-opt %s -p expand-strided-metadata 2>&1 | filecheck %s --check-prefix=EXIT

// A failure is one line naming the pass, the op and the reason, with exit status 1.
// EXIT-NOT:  Traceback
// EXIT:      {{.*}}.mlir:{{[0-9]+:[0-9]+}}: error: expand-strided-metadata: 'memref.subview' op in @not_strided
// EXIT-NOT:  Traceback

func.func @not_strided(%m: memref<8xf32, affine_map<(d0) -> (d0 floordiv 2)>>) -> memref<4xf32, strided<[1], offset: ?>> {
  %0 = memref.subview %m[2] [4] [1] : memref<8xf32, affine_map<(d0) -> (d0 floordiv 2)>> to memref<4xf32, strided<[1], offset: ?>>
  func.return %0 : memref<4xf32, strided<[1], offset: ?>>
}

// CHECK: expand-strided-metadata: 'memref.subview' op in @not_strided has an operand of type memref<8xf32, affine_map<(d0) -> ((d0 floordiv 2))>> whose layout is not strided
