// RUN: xdsl-opt --xdsl-gpu %s --split-input-file --verify-diagnostics | filecheck %s

// The vector forms of the casts and of select are verified as upstream does.
func.func @cast_shape(%v: vector<4xi32>) -> vector<3xi64> {
  %0 = arith.extsi %v : vector<4xi32> to vector<3xi64>
  func.return %0 : vector<3xi64>
}

// CHECK: 'arith.extsi' op requires the same shape for all operands and results

// -----

func.func @cast_width(%v: vector<4xi32>) -> vector<4xi8> {
  %0 = arith.extui %v : vector<4xi32> to vector<4xi8>
  func.return %0 : vector<4xi8>
}

// CHECK: 'arith.extui' op operand type 'vector<4xi32>' and result type 'vector<4xi8>' are cast incompatible

// -----

func.func @index_cast_both_int(%v: vector<4xi32>) -> vector<4xi64> {
  %0 = arith.index_cast %v : vector<4xi32> to vector<4xi64>
  func.return %0 : vector<4xi64>
}

// CHECK: 'arith.index_cast' op operand type 'vector<4xi32>' and result type 'vector<4xi64>' are cast incompatible

// -----

func.func @select_shape(%c: vector<3xi1>, %v: vector<4xi32>) -> vector<4xi32> {
  %0 = arith.select %c, %v, %v : vector<3xi1>, vector<4xi32>
  func.return %0 : vector<4xi32>
}

// CHECK: 'arith.select' op failed to verify that condition is signless i1 or has matching shape
