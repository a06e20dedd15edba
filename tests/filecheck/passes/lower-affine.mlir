// RUN: xdsl-opt %s -p lower-affine | filecheck %s

// The map of seed 002 (upstream's loop-to-GPU mapping): semi-affine, s0 * s2 + s1.
// CHECK-LABEL: func.func @semi_affine
func.func @semi_affine(%a: index, %b: index, %c: index) -> index {
  // CHECK-NEXT: %[[MUL:.*]] = arith.muli %a, %c overflow<nsw> : index
  // CHECK-NEXT: %[[ADD:.*]] = arith.addi %[[MUL]], %b : index
  // CHECK-NEXT: func.return %[[ADD]] : index
  %0 = affine.apply affine_map<()[s0, s1, s2] -> (s0 * s2 + s1)>()[%a, %b, %c]
  func.return %0 : index
}

// mod is non-negative; floordiv and ceildiv round like upstream's expansions, also
// with a symbol as divisor.
// CHECK-LABEL: func.func @divisions
func.func @divisions(%a: index, %b: index) -> (index, index, index) {
  // CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : index
  // CHECK-NEXT: %[[REM:.*]] = arith.remsi %a, %[[C4]] : index
  // CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
  // CHECK-NEXT: %[[NEG:.*]] = arith.cmpi slt, %[[REM]], %[[C0]] : index
  // CHECK-NEXT: %[[FIX:.*]] = arith.addi %[[REM]], %[[C4]] : index
  // CHECK-NEXT: %[[MOD:.*]] = arith.select %[[NEG]], %[[FIX]], %[[REM]] : index
  %0 = affine.apply affine_map<(d0) -> (d0 mod 4)>(%a)
  // CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : index
  // CHECK-NEXT: %[[M1:.*]] = arith.constant -1 : index
  // CHECK-NEXT: %[[ANEG:.*]] = arith.cmpi slt, %a, %[[Z]] : index
  // CHECK-NEXT: %[[DEC:.*]] = arith.subi %[[M1]], %a : index
  // CHECK-NEXT: %[[DIVIDEND:.*]] = arith.select %[[ANEG]], %[[DEC]], %a : index
  // CHECK-NEXT: %[[Q:.*]] = arith.divsi %[[DIVIDEND]], %b : index
  // CHECK-NEXT: %[[QC:.*]] = arith.subi %[[M1]], %[[Q]] : index
  // CHECK-NEXT: %[[FLOOR:.*]] = arith.select %[[ANEG]], %[[QC]], %[[Q]] : index
  %1 = affine.apply affine_map<(d0)[s0] -> (d0 floordiv s0)>(%a)[%b]
  // CHECK-NEXT: %[[Z2:.*]] = arith.constant 0 : index
  // CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : index
  // CHECK-NEXT: %[[NP:.*]] = arith.cmpi sle, %a, %[[Z2]] : index
  // CHECK-NEXT: %[[NA:.*]] = arith.subi %[[Z2]], %a : index
  // CHECK-NEXT: %[[AM1:.*]] = arith.subi %a, %[[ONE]] : index
  // CHECK-NEXT: %[[D:.*]] = arith.select %[[NP]], %[[NA]], %[[AM1]] : index
  // CHECK-NEXT: %[[Q2:.*]] = arith.divsi %[[D]], %b : index
  // CHECK-NEXT: %[[NQ:.*]] = arith.subi %[[Z2]], %[[Q2]] : index
  // CHECK-NEXT: %[[IQ:.*]] = arith.addi %[[Q2]], %[[ONE]] : index
  // CHECK-NEXT: %[[CEIL:.*]] = arith.select %[[NP]], %[[NQ]], %[[IQ]] : index
  %2 = affine.apply affine_map<(d0)[s0] -> (d0 ceildiv s0)>(%a)[%b]
  // CHECK-NEXT: func.return %[[MOD]], %[[FLOOR]], %[[CEIL]] : index, index, index
  func.return %0, %1, %2 : index, index, index
}

// CHECK-LABEL: func.func @min
func.func @min(%a: index, %b: index) -> index {
  // CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : index
  // CHECK-NEXT: %[[S:.*]] = arith.addi %b, %[[C2]] : index
  // CHECK-NEXT: %[[M:.*]] = arith.minsi %a, %[[S]] : index
  // CHECK-NEXT: func.return %[[M]] : index
  %0 = affine.min affine_map<(d0)[s0] -> (d0, s0 + 2)>(%a)[%b]
  func.return %0 : index
}

// Loops: bounds are the max (lower) and min (upper) of their map results; loads and
// stores apply their maps, symbols included.
// CHECK-LABEL: func.func @loops
func.func @loops(%m: memref<10x10xf32>, %n: index) -> index {
  // CHECK-NEXT: %[[LB:.*]] = arith.constant 0 : index
  // CHECK-NEXT: %[[UB:.*]] = arith.constant 10 : index
  // CHECK-NEXT: %[[STEP:.*]] = arith.constant 2 : index
  // CHECK-NEXT: scf.for %[[I:.*]] = %[[LB]] to %[[UB]] step %[[STEP]] {
  affine.for %i = 0 to 10 step 2 {
    // CHECK-NEXT: %[[LO:.*]] = arith.maxsi %[[I]], %n : index
    // CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : index
    // CHECK-NEXT: %[[I4:.*]] = arith.addi %[[I]], %[[C4]] : index
    // CHECK-NEXT: %[[C10:.*]] = arith.constant 10 : index
    // CHECK-NEXT: %[[HI:.*]] = arith.minsi %[[I4]], %[[C10]] : index
    // CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : index
    // CHECK-NEXT: scf.for %[[J:.*]] = %[[LO]] to %[[HI]] step %[[ONE]] {
    affine.for %j = max affine_map<(d0)[s0] -> (d0, s0)>(%i)[%n] to min affine_map<(d0) -> (d0 + 4, 10)>(%i) {
      // CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
      // CHECK-NEXT: %[[R:.*]] = arith.addi %[[I]], %[[C1]] : index
      // CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : index
      // CHECK-NEXT: %[[COL:.*]] = arith.muli %[[J]], %[[C2]] overflow<nsw> : index
      // CHECK-NEXT: %[[V:.*]] = memref.load %m[%[[R]], %[[COL]]] : memref<10x10xf32>
      %v = affine.load %m[%i + 1, %j * 2] : memref<10x10xf32>
      // CHECK-NEXT: memref.store %[[V]], %m[%[[J]], %[[I]]] : memref<10x10xf32>
      affine.store %v, %m[%j, %i] : memref<10x10xf32>
    }
  }
  // CHECK:      %[[STEP1:.*]] = arith.constant 1 : index
  // CHECK-NEXT: %[[SUM:.*]] = scf.for %[[K:.*]] = %n to %n step %[[STEP1]] iter_args(%[[ACC:.*]] = %n) -> (index) {
  // CHECK-NEXT:   %[[NEXT:.*]] = arith.addi %[[ACC]], %[[K]] : index
  // CHECK-NEXT:   scf.yield %[[NEXT]] : index
  // CHECK-NEXT: }
  %s = affine.for %k = %n to %n iter_args(%acc = %n) -> (index) {
    %next = arith.addi %acc, %k : index
    affine.yield %next : index
  }
  func.return %s : index
}

// affine.if: the conjunction of its constraints (>= 0, == 0) against zero.
// CHECK-LABEL: func.func @conditions
func.func @conditions(%a: index, %b: index) -> index {
  // CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : index
  // CHECK-NEXT: %[[CM2:.*]] = arith.constant -2 : index
  // CHECK-NEXT: %[[E1:.*]] = arith.addi %a, %[[CM2]] : index
  // CHECK-NEXT: %[[T1:.*]] = arith.cmpi sge, %[[E1]], %[[Z]] : index
  // CHECK-NEXT: %[[CM1:.*]] = arith.constant -1 : index
  // CHECK-NEXT: %[[NA:.*]] = arith.muli %a, %[[CM1]] overflow<nsw> : index
  // CHECK-NEXT: %[[E2:.*]] = arith.addi %[[NA]], %b : index
  // CHECK-NEXT: %[[T2:.*]] = arith.cmpi eq, %[[E2]], %[[Z]] : index
  // CHECK-NEXT: %[[C:.*]] = arith.andi %[[T1]], %[[T2]] : i1
  // CHECK-NEXT: %[[R:.*]] = scf.if %[[C]] -> (index) {
  // CHECK-NEXT:   scf.yield %a : index
  // CHECK-NEXT: } else {
  // CHECK-NEXT:   scf.yield %b : index
  // CHECK-NEXT: }
  %r = "affine.if"(%a, %b) <{condition = affine_set<(d0)[s0] : (d0 - 2 >= 0, -d0 + s0 == 0)>}> ({
    "affine.yield"(%a) : (index) -> ()
  }, {
    "affine.yield"(%b) : (index) -> ()
  }) : (index, index) -> index
  func.return %r : index
}

// affine.parallel without reductions becomes scf.parallel.
// CHECK-LABEL: func.func @parallel
func.func @parallel(%m: memref<10x10xf32>, %n: index) {
  // CHECK-NEXT: %[[LB0:.*]] = arith.constant 0 : index
  // CHECK-NEXT: %[[UB0:.*]] = arith.constant 8 : index
  // CHECK-NEXT: %[[LB1:.*]] = arith.constant 0 : index
  // CHECK-NEXT: %[[ST0:.*]] = arith.constant 2 : index
  // CHECK-NEXT: %[[ST1:.*]] = arith.constant 1 : index
  // CHECK-NEXT: scf.parallel (%x, %y) = (%[[LB0]], %[[LB1]]) to (%[[UB0]], %n) step (%[[ST0]], %[[ST1]]) {
  // CHECK:        scf.reduce
  "affine.parallel"(%n) <{lowerBoundsMap = affine_map<() -> (0, 0)>, lowerBoundsGroups = dense<1> : vector<2xi32>, upperBoundsMap = affine_map<()[s0] -> (8, s0)>, upperBoundsGroups = dense<1> : vector<2xi32>, steps = [2 : i64, 1 : i64], reductions = []}> ({
  ^bb0(%x: index, %y: index):
    %w = affine.load %m[%x, %y] : memref<10x10xf32>
    affine.store %w, %m[%y, %x] : memref<10x10xf32>
    "affine.yield"() : () -> ()
  }) : (index) -> ()
  func.return
}

// Seed 002's kernels: the map upstream's loop-to-GPU mapping emits, inside a gpu.func.
// CHECK-LABEL: gpu.func @seed_kernel
// CHECK:         %[[BX:.*]] = gpu.block_id x
// CHECK-NEXT:    %[[MUL:.*]] = arith.muli %arg0, %[[BX]] overflow<nsw> : index
// CHECK-NEXT:    %[[ADD:.*]] = arith.addi %[[MUL]], %arg1 : index
// CHECK-NEXT:    memref.store %arg2, %arg3[%[[ADD]]] : memref<256xf32>
builtin.module attributes {gpu.container_module} {
  gpu.module @seed {
    gpu.func @seed_kernel(%arg0: index, %arg1: index, %arg2: f32, %arg3: memref<256xf32>) kernel {
      %block_id_x = gpu.block_id x
      %0 = affine.apply affine_map<()[s0, s1, s2] -> (s0 * s2 + s1)>()[%arg0, %arg1, %block_id_x]
      memref.store %arg2, %arg3[%0] : memref<256xf32>
      gpu.return
    }
  }
}
