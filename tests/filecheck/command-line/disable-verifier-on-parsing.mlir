// --mlir-very-unsafe-disable-verifier-on-parsing: the input is not verified after
// parsing; an invalid module is printed in the generic form (as mlir-opt's printer
// does), and a pass's output is still verified.
// RUN: xdsl-opt --xdsl-gpu %s --mlir-very-unsafe-disable-verifier-on-parsing | filecheck %s
// RUN: xdsl-opt --xdsl-gpu %s --mlir-very-unsafe-disable-verifier-on-parsing -verify-diagnostics | filecheck %s
// RUN: not xdsl-opt --xdsl-gpu %s 2>&1 | filecheck %s --check-prefix=VERIFIED
// RUN: not xdsl-opt --xdsl-gpu %s --mlir-very-unsafe-disable-verifier-on-parsing -p canonicalize 2>&1 | filecheck %s --check-prefix=VERIFIED
// RUN: not xdsl-opt --xdsl-gpu %s --mlir-very-unsafe-disable-verifier-on-parsing=false 2>&1 | filecheck %s --check-prefix=VERIFIED

// CHECK:      "gpu.module"() <{sym_name = "too_old", targets = [#nvvm.target<chip = "sm_70">]}> ({
// CHECK-NEXT:   "test.nvvm_requires_sm_80"() : () -> ()
// VERIFIED:   'test.nvvm_requires_sm_80' op is not supported on sm_70

gpu.module @too_old [#nvvm.target<chip = "sm_70">] {
  test.nvvm_requires_sm_80
}
