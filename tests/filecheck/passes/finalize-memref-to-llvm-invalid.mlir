// RUN: xdsl-opt %s -p finalize-memref-to-llvm --split-input-file --verify-diagnostics | filecheck %s
// RUN: not xdsl-opt %s -p finalize-memref-to-llvm 2>&1 | filecheck %s --check-prefix=EXIT

// A failure is one line naming the pass, the op and the reason, with exit status 1.
// EXIT-NOT:  Traceback
// EXIT:      {{.*}}.mlir:{{[0-9]+:[0-9]+}}: error: finalize-memref-to-llvm: 'memref.alloc' op in @strided_alloc
// EXIT-NOT:  Traceback

func.func @strided_alloc() -> memref<4xf32, strided<[2]>> {
  %0 = memref.alloc() : memref<4xf32, strided<[2]>>
  func.return %0 : memref<4xf32, strided<[2]>>
}

// CHECK: finalize-memref-to-llvm: 'memref.alloc' op in @strided_alloc allocates a memref of type memref<4xf32, strided<[2]>> with a layout

// -----

func.func @not_strided(%m: memref<4xf32, affine_map<(d0) -> (d0 floordiv 2)>>, %i: index) -> f32 {
  %0 = memref.load %m[%i] : memref<4xf32, affine_map<(d0) -> (d0 floordiv 2)>>
  func.return %0 : f32
}

// CHECK: finalize-memref-to-llvm: 'memref.load' op in @not_strided has a memref of type memref<4xf32, affine_map<(d0) -> ((d0 floordiv 2))>>, whose layout is not strided

// -----

func.func @malloc() {
  func.return
}

func.func @alloc() -> memref<4xf32> {
  %0 = memref.alloc() : memref<4xf32>
  func.return %0 : memref<4xf32>
}

// CHECK: finalize-memref-to-llvm: 'memref.alloc' op in @alloc needs the runtime function @malloc, but the module already defines @malloc as 'func.func'
