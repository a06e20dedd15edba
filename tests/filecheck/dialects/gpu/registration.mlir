// RUN: xdsl-opt %s | filecheck %s
// RUN: xdsl-opt --print-op-generic %s | filecheck %s --check-prefix=GENERIC

// Stock xdsl-opt loads xdsl-gpu's `gpu` dialect (custom syntax), not xDSL's own.

// CHECK-LABEL: func.func @tokens
// GENERIC: "gpu.wait"() : () -> !gpu.async.token
func.func @tokens() {
  // CHECK-NEXT: %0 = gpu.wait async
  %0 = gpu.wait async
  // CHECK-NEXT: gpu.wait [%0]
  gpu.wait [%0]
  func.return
}
