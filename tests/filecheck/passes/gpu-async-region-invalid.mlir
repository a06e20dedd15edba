// RUN: xdsl-opt %s -p gpu-async-region --verify-diagnostics | filecheck %s
// RUN: not xdsl-opt %s -p gpu-async-region 2>&1 | filecheck %s --check-prefix=EXIT

// A gpu.launch must be outlined first (upstream: "replace with gpu.launch_func first").

func.func @inline_launch() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}

// CHECK:     gpu-async-region: 'gpu.launch' op in @inline_launch: replace with gpu.launch_func first (run gpu-kernel-outlining before gpu-async-region)
// EXIT-NOT:  Traceback
// EXIT:      {{.*}}.mlir:{{[0-9]+:[0-9]+}}: error: gpu-async-region: 'gpu.launch' op in @inline_launch: replace with gpu.launch_func first (run gpu-kernel-outlining before gpu-async-region)
