// Seed 001: the gpu.launch printf example of MLIR's GPU dialect docs.
//   xdsl-gpu-run examples/hello/hello.mlir -e main --entry-point-result=void
// prints "Hello from 0" and "Hello from 1" (one line per GPU thread).
func.func @main() {
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  gpu.launch
      blocks(%0, %1, %2) in (%3 = %c1, %4 = %c1, %5 = %c1)
      threads(%6, %7, %8) in (%9 = %c2, %10 = %c1, %11 = %c1) {
    gpu.printf "Hello from %d\n" %6 : index
    gpu.terminator
  }
  return
}
