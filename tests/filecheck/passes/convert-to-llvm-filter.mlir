// RUN: xdsl-opt %s -p 'convert-to-llvm{filter-dialects=arith,ub}' | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --convert-to-llvm=filter-dialects=arith,ub | filecheck %s %}

// filter-dialects: only the patterns of the dialects named.
// CHECK-LABEL: func.func @mixed
// CHECK: llvm.add %{{.*}}, %{{.*}} : i32
// CHECK: vector.extract
// CHECK: math.exp
// CHECK: llvm.mlir.poison : f32
// CHECK: cf.br ^bb1
// CHECK: return
func.func @mixed(%a: i32, %v: vector<4xf32>, %x: f32) -> f32 {
  %0 = arith.addi %a, %a : i32
  %1 = vector.extract %v[0] : f32 from vector<4xf32>
  %2 = math.exp %x : f32
  %3 = ub.poison : f32
  cf.br ^bb1
^bb1:
  return %1 : f32
}
