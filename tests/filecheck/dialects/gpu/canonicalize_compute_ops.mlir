// RUN: xdsl-opt %s -p canonicalize --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --canonicalize --split-input-file | filecheck %s %}

// The canonicalization patterns and folders of gpu.barrier, gpu.all_reduce and
// gpu.subgroup_reduce. The same checks run on the output of mlir-opt-22.

// A barrier right before another one goes; the last one of a run stays.

// CHECK-LABEL: func.func @barriers
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    [[TID:%.+]] = gpu.thread_id x
// CHECK-NEXT:    gpu.printf "%d", [[TID]] : index
// CHECK-NEXT:    gpu.barrier {foo}
// CHECK-NEXT:    {{(func.)?}}return
func.func @barriers() {
  gpu.barrier
  gpu.barrier
  %tid = gpu.thread_id x
  gpu.printf "%d", %tid : index
  gpu.barrier
  gpu.barrier {foo}
  func.return
}

// -----

// A reduction over clusters of one lane is its value.

// CHECK-LABEL: func.func @single_lane_clusters
// CHECK-SAME:    ([[V:%.+]]: f32)
// CHECK-NEXT:    [[R:%.+]] = gpu.subgroup_reduce add [[V]] cluster(size = 2) : (f32) -> f32
// CHECK-NEXT:    {{(func.)?}}return [[V]], [[V]], [[R]] : f32, f32, f32
func.func @single_lane_clusters(%v: f32) -> (f32, f32, f32) {
  %0 = gpu.subgroup_reduce add %v cluster(size = 1) : (f32) -> f32
  %1 = gpu.subgroup_reduce mul %v uniform cluster(size = 1, stride = 4) : (f32) -> f32
  %2 = gpu.subgroup_reduce add %v cluster(size = 2) : (f32) -> f32
  func.return %0, %1, %2 : f32, f32, f32
}

// -----

// In the entry block of a gpu.launch body every work item runs the reduction, so it
// becomes uniform; not in other blocks, nor outside gpu.launch.

// CHECK-LABEL: func.func @uniform
// CHECK-SAME:    ([[V:%[^:]+]]: f32
// CHECK:         gpu.all_reduce add [[V]] {
// CHECK:         gpu.subgroup_reduce add [[V]] : (f32) -> f32
// CHECK:         gpu.launch
// CHECK-NEXT:      [[A:%.+]] = gpu.all_reduce add [[V]] uniform {
// CHECK-NEXT:      } : (f32) -> f32
// CHECK-NEXT:      [[S:%.+]] = gpu.subgroup_reduce mul [[A]] uniform : (f32) -> f32
// CHECK-NEXT:      [[T:%.+]] = gpu.all_reduce [[S]] uniform {
// CHECK:           cf.cond_br
// CHECK-NEXT:    ^bb1:
// CHECK-NEXT:      [[B:%.+]] = gpu.all_reduce add [[V]] {
// CHECK-NEXT:      } : (f32) -> f32
// CHECK-NEXT:      [[C:%.+]] = gpu.subgroup_reduce maxnumf [[V]] : (f32) -> f32
func.func @uniform(%v: f32, %n: index, %c: i1) -> (f32, f32) {
  %0 = gpu.all_reduce add %v {} : (f32) -> f32
  %1 = gpu.subgroup_reduce add %v : (f32) -> f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    %a = gpu.all_reduce add %v {} : (f32) -> f32
    %s = gpu.subgroup_reduce mul %a : (f32) -> f32
    %t = gpu.all_reduce %s {
    ^bb0(%lhs: f32, %rhs: f32):
      %m = arith.maximumf %lhs, %rhs : f32
      gpu.yield %m : f32
    } : (f32) -> f32
    gpu.printf "%f", %t : f32
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    %b = gpu.all_reduce add %v {} : (f32) -> f32
    %d = gpu.subgroup_reduce maxnumf %v : (f32) -> f32
    gpu.printf "%f %f", %b, %d : f32, f32
    gpu.terminator
  ^bb2:
    gpu.terminator
  }
  func.return %0, %1 : f32, f32
}
