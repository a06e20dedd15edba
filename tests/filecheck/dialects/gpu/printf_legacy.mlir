// RUN: xdsl-opt %s | filecheck %s
// RUN: xdsl-opt %s | mlir-opt-22 | filecheck %s --check-prefix=UPSTREAM

// NO-MLIR-OPT: the comma-less argument list of the GPU dialect docs (seed 001) is
// accepted here and printed in upstream's form, which MLIR 22 reads.

func.func @legacy(%a: index, %b: f32) {
  gpu.printf "Hello from %d\n" %a : index
  gpu.printf "%d %f\n" %a, %b : index, f32
  return
}

// CHECK:      gpu.printf "Hello from %d\0A", %a : index
// CHECK-NEXT: gpu.printf "%d %f\0A", %a, %b : index, f32
// UPSTREAM:      gpu.printf "Hello from %d\0A", %{{.*}} : index
// UPSTREAM-NEXT: gpu.printf "%d %f\0A", %{{.*}}, %{{.*}} : index, f32
