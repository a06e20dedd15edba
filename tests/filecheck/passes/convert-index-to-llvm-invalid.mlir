// RUN: not xdsl-opt %s -p 'convert-index-to-llvm{index-bitwidth=-8}' 2>&1 | filecheck %s
// RUN: not xdsl-opt %s -p 'convert-index-to-llvm{index-bitwidth=wide}' 2>&1 | filecheck %s --check-prefix=TYPE

// TYPE-NOT: Traceback
// TYPE:     xdsl-opt: error: convert-index-to-llvm: Incompatible types: given ('wide',), expected <class 'int'>

// A bad option is a one-line diagnostic that names the pass, with exit status 1.
// CHECK-NOT: Traceback
// CHECK:     xdsl-opt: error: convert-index-to-llvm: index-bitwidth=-8 is not a bit width: use a positive width, or 0 for the default (64)
// CHECK-NOT: Traceback

func.func @f(%a: index) -> index {
  %0 = index.add %a, %a
  func.return %0 : index
}
