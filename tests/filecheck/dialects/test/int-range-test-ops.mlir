// RUN: xdsl-opt --xdsl-gpu %s | filecheck %s
// RUN: xdsl-opt --xdsl-gpu %s --print-op-generic | xdsl-opt --xdsl-gpu | filecheck %s
// RUN: xdsl-opt --xdsl-gpu %s --split-input-file --verify-diagnostics --parsing-diagnostics -p int-range-optimizations | filecheck %s --check-prefix=RANGES
// RUN: %if mlir-opt %{ mlir-opt-22 %s | filecheck %s %}
// RUN: %if mlir-opt %{ mlir-opt-22 %s -int-range-optimizations | filecheck %s --check-prefix=RANGES %}

// test.with_bounds and test.reflect_bounds, the ops of MLIR's test dialect that
// upstream's integer range tests use: the dictionary prints sorted, as mlir-opt-22
// prints it.

// CHECK-LABEL: func.func @ops
// CHECK:         %[[B:.*]] = test.with_bounds {smax = 5 : i8, smin = -5 : i8, umax = -56 : i8, umin = 3 : i8} : i8
// CHECK-NEXT:    test.reflect_bounds %[[B]] : i8
// CHECK-NEXT:    test.reflect_bounds {smax = 1 : index, smin = 0 : index, umax = 1 : index, umin = 0 : index} %{{.*}} : index
// CHECK-NEXT:    test.reflect_bounds %{{.*}} : vector<2xi32>
// RANGES-LABEL: func.func @ops
// RANGES:         test.reflect_bounds {smax = 5 : si8, smin = -5 : si8, umax = 200 : ui8, umin = 3 : ui8}
// RANGES-NEXT:    test.reflect_bounds {smax = 9223372036854775807 : index, smin = -9223372036854775808 : index, umax = -1 : index, umin = 0 : index}
// RANGES-NEXT:    test.reflect_bounds {smax = 2147483647 : si32, smin = -2147483648 : si32, umax = 4294967295 : ui32, umin = 0 : ui32}
func.func @ops(%i: index, %v: vector<2xi32>) {
  %0 = test.with_bounds {umin = 3 : i8, umax = 200 : i8, smin = -5 : i8, smax = 5 : i8} : i8
  %1 = test.reflect_bounds %0 : i8
  %2 = test.reflect_bounds {umin = 0 : index, umax = 1 : index, smin = 0 : index, smax = 1 : index} %i : index
  %3 = test.reflect_bounds %v : vector<2xi32>
  return
}
