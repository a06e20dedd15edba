// RUN: xdsl-opt %s -p convert-index-to-llvm | filecheck %s
// RUN: xdsl-opt %s -p 'convert-index-to-llvm{index-bitwidth=32}' | filecheck %s --check-prefix=IDX32

// CHECK-LABEL: func.func @binary
// IDX32-LABEL: func.func @binary
func.func @binary(%a: index, %b: index) {
  // CHECK-NEXT: %[[B:.*]] = builtin.unrealized_conversion_cast %b : index to i64
  // CHECK-NEXT: %[[A:.*]] = builtin.unrealized_conversion_cast %a : index to i64
  // IDX32-NEXT: %[[B:.*]] = builtin.unrealized_conversion_cast %b : index to i32
  // IDX32-NEXT: %[[A:.*]] = builtin.unrealized_conversion_cast %a : index to i32
  // CHECK-NEXT: llvm.add %[[A]], %[[B]] : i64
  // IDX32-NEXT: llvm.add %[[A]], %[[B]] : i32
  %0 = index.add %a, %b
  // CHECK-NEXT: llvm.sub %[[A]], %[[B]] : i64
  %1 = index.sub %a, %b
  // CHECK-NEXT: llvm.mul %[[A]], %[[B]] : i64
  %2 = index.mul %a, %b
  // CHECK-NEXT: llvm.sdiv %[[A]], %[[B]] : i64
  %3 = index.divs %a, %b
  // CHECK-NEXT: llvm.udiv %[[A]], %[[B]] : i64
  %4 = index.divu %a, %b
  // CHECK-NEXT: llvm.srem %[[A]], %[[B]] : i64
  %5 = index.rems %a, %b
  // CHECK-NEXT: llvm.urem %[[A]], %[[B]] : i64
  %6 = index.remu %a, %b
  // CHECK-NEXT: llvm.intr.smax(%[[A]], %[[B]]) : (i64, i64) -> i64
  %7 = index.maxs %a, %b
  // CHECK-NEXT: llvm.intr.umax(%[[A]], %[[B]]) : (i64, i64) -> i64
  %8 = index.maxu %a, %b
  // CHECK-NEXT: llvm.intr.smin(%[[A]], %[[B]]) : (i64, i64) -> i64
  %9 = index.mins %a, %b
  // CHECK-NEXT: llvm.intr.umin(%[[A]], %[[B]]) : (i64, i64) -> i64
  %10 = index.minu %a, %b
  // CHECK-NEXT: llvm.shl %[[A]], %[[B]] : i64
  %11 = index.shl %a, %b
  // CHECK-NEXT: llvm.ashr %[[A]], %[[B]] : i64
  %12 = index.shrs %a, %b
  // CHECK-NEXT: llvm.lshr %[[A]], %[[B]] : i64
  %13 = index.shru %a, %b
  // CHECK-NEXT: llvm.and %[[A]], %[[B]] : i64
  %14 = index.and %a, %b
  // CHECK-NEXT: llvm.or %[[A]], %[[B]] : i64
  %15 = index.or %a, %b
  // CHECK-NEXT: llvm.xor %[[A]], %[[B]] : i64
  %16 = index.xor %a, %b
  // CHECK-NEXT: llvm.icmp "ult" %[[A]], %[[B]] : i64
  %17 = index.cmp ult(%a, %b)
  // CHECK-NEXT: func.return
  func.return
}

// CHECK-LABEL: func.func @divisions
func.func @divisions(%a: index, %b: index) {
  // ceildivs: x = b > 0 ? -1 : 1; a != 0 && (a > 0) == (b > 0) ? (a + x) / b + 1 : -(-a / b)
  // CHECK:      %[[ZERO:.*]] = llvm.mlir.constant(0) : i64
  // CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1) : i64
  // CHECK-NEXT: %[[MONE:.*]] = llvm.mlir.constant(-1) : i64
  // CHECK-NEXT: %[[BPOS:.*]] = llvm.icmp "sgt" %[[B:.*]], %[[ZERO]] : i64
  // CHECK-NEXT: %[[X:.*]] = llvm.select %[[BPOS]], %[[MONE]], %[[ONE]] : i1, i64
  // CHECK-NEXT: %[[AX:.*]] = llvm.add %[[A:.*]], %[[X]] : i64
  // CHECK-NEXT: %[[Q:.*]] = llvm.sdiv %[[AX]], %[[B]] : i64
  // CHECK-NEXT: %[[POS:.*]] = llvm.add %[[Q]], %[[ONE]] : i64
  // CHECK-NEXT: %[[NA:.*]] = llvm.sub %[[ZERO]], %[[A]] : i64
  // CHECK-NEXT: %[[NQ:.*]] = llvm.sdiv %[[NA]], %[[B]] : i64
  // CHECK-NEXT: %[[NEG:.*]] = llvm.sub %[[ZERO]], %[[NQ]] : i64
  // CHECK-NEXT: %[[APOS:.*]] = llvm.icmp "sgt" %[[A]], %[[ZERO]] : i64
  // CHECK-NEXT: %[[SAME:.*]] = llvm.icmp "eq" %[[APOS]], %[[BPOS]] : i1
  // CHECK-NEXT: %[[ANZ:.*]] = llvm.icmp "ne" %[[A]], %[[ZERO]] : i64
  // CHECK-NEXT: %[[COND:.*]] = llvm.and %[[SAME]], %[[ANZ]] : i1
  // CHECK-NEXT: llvm.select %[[COND]], %[[POS]], %[[NEG]] : i1, i64
  %0 = index.ceildivs %a, %b
  // ceildivu: a == 0 ? 0 : (a - 1) / b + 1
  // CHECK-NEXT: %[[Z:.*]] = llvm.mlir.constant(0) : i64
  // CHECK-NEXT: %[[O:.*]] = llvm.mlir.constant(1) : i64
  // CHECK-NEXT: %[[AM1:.*]] = llvm.sub %[[A]], %[[O]] : i64
  // CHECK-NEXT: %[[QU:.*]] = llvm.udiv %[[AM1]], %[[B]] : i64
  // CHECK-NEXT: %[[QP1:.*]] = llvm.add %[[QU]], %[[O]] : i64
  // CHECK-NEXT: %[[AZ:.*]] = llvm.icmp "eq" %[[A]], %[[Z]] : i64
  // CHECK-NEXT: llvm.select %[[AZ]], %[[Z]], %[[QP1]] : i1, i64
  %1 = index.ceildivu %a, %b
  // floordivs: x = b < 0 ? 1 : -1; a != 0 && (a < 0) != (b < 0) ? -1 - (x - a) / b : a / b
  // CHECK-NEXT: %[[Z2:.*]] = llvm.mlir.constant(0) : i64
  // CHECK-NEXT: %[[P1:.*]] = llvm.mlir.constant(1) : i64
  // CHECK-NEXT: %[[M1:.*]] = llvm.mlir.constant(-1) : i64
  // CHECK-NEXT: %[[BNEG:.*]] = llvm.icmp "slt" %[[B]], %[[Z2]] : i64
  // CHECK-NEXT: %[[X2:.*]] = llvm.select %[[BNEG]], %[[P1]], %[[M1]] : i1, i64
  // CHECK-NEXT: %[[XA:.*]] = llvm.sub %[[X2]], %[[A]] : i64
  // CHECK-NEXT: %[[Q2:.*]] = llvm.sdiv %[[XA]], %[[B]] : i64
  // CHECK-NEXT: %[[NEG2:.*]] = llvm.sub %[[M1]], %[[Q2]] : i64
  // CHECK-NEXT: %[[POS2:.*]] = llvm.sdiv %[[A]], %[[B]] : i64
  // CHECK-NEXT: %[[ANEG:.*]] = llvm.icmp "slt" %[[A]], %[[Z2]] : i64
  // CHECK-NEXT: %[[DIFF:.*]] = llvm.icmp "ne" %[[ANEG]], %[[BNEG]] : i1
  // CHECK-NEXT: %[[ANZ2:.*]] = llvm.icmp "ne" %[[A]], %[[Z2]] : i64
  // CHECK-NEXT: %[[C2:.*]] = llvm.and %[[DIFF]], %[[ANZ2]] : i1
  // CHECK-NEXT: llvm.select %[[C2]], %[[NEG2]], %[[POS2]] : i1, i64
  %2 = index.floordivs %a, %b
  func.return
}

// CHECK-LABEL: func.func @constants_and_casts
// IDX32-LABEL: func.func @constants_and_casts
func.func @constants_and_casts(%i: i32, %j: i64, %x: index) -> (index, i32, index, index) {
  // CHECK-NEXT: %[[X:.*]] = builtin.unrealized_conversion_cast %x : index to i64
  // IDX32-NEXT: %[[X:.*]] = builtin.unrealized_conversion_cast %x : index to i32
  // CHECK-NEXT: llvm.mlir.constant(42) : i64
  // IDX32-NEXT: llvm.mlir.constant(42 : i32) : i32
  %0 = index.constant 42
  // CHECK-NEXT: llvm.mlir.constant(true) : i1
  // IDX32-NEXT: llvm.mlir.constant(true) : i1
  %1 = index.bool.constant true
  // CHECK-NEXT: llvm.mlir.constant(64) : i64
  // IDX32-NEXT: llvm.mlir.constant(32 : i32) : i32
  %2 = index.sizeof
  // casts sign-extends, castu zero-extends, both truncate; a cast between equal
  // widths disappears.
  // CHECK-NEXT: %[[S:.*]] = llvm.sext %i : i32 to i64
  // CHECK-NEXT: %[[SI:.*]] = builtin.unrealized_conversion_cast %[[S]] : i64 to index
  // IDX32-NEXT: %[[SI:.*]] = builtin.unrealized_conversion_cast %i : i32 to index
  %3 = index.casts %i : i32 to index
  // CHECK-NEXT: %[[T:.*]] = llvm.trunc %[[X]] : i64 to i32
  %4 = index.castu %x : index to i32
  // CHECK-NEXT: %[[Z:.*]] = llvm.zext %i : i32 to i64
  // CHECK-NEXT: %[[ZI:.*]] = builtin.unrealized_conversion_cast %[[Z]] : i64 to index
  // IDX32-NEXT: %[[ZI:.*]] = builtin.unrealized_conversion_cast %i : i32 to index
  %5 = index.castu %i : i32 to index
  // CHECK-NEXT: %[[J:.*]] = builtin.unrealized_conversion_cast %j : i64 to index
  // IDX32-NEXT: %[[JT:.*]] = llvm.trunc %j : i64 to i32
  // IDX32-NEXT: %[[J:.*]] = builtin.unrealized_conversion_cast %[[JT]] : i32 to index
  %6 = index.casts %j : i64 to index
  // CHECK-NEXT: func.return %[[SI]], %[[T]], %[[ZI]], %[[J]] : index, i32, index, index
  // IDX32-NEXT: func.return %[[SI]], %[[X]], %[[ZI]], %[[J]] : index, i32, index, index
  func.return %3, %4, %5, %6 : index, i32, index, index
}
