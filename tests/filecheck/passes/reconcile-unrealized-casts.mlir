// RUN: xdsl-opt --xdsl-gpu %s -p reconcile-unrealized-casts | filecheck %s
// RUN: xdsl-opt --xdsl-gpu %s -p reconcile-unrealized-casts 2>&1 | filecheck %s --check-prefix=QUIET

// xdsl-gpu's pass (upstream's algorithm) replaces xDSL's, which printed a Python
// warning for every cast it kept.
// QUIET-NOT: Warning

// A chain that round-trips disappears.
// CHECK-LABEL: func.func @roundtrip(%a: i32) -> i32 {
// CHECK-NEXT:    func.return %a : i32
func.func @roundtrip(%a: i32) -> i32 {
  %0 = builtin.unrealized_conversion_cast %a : i32 to i64
  %1 = builtin.unrealized_conversion_cast %0 : i64 to index
  %2 = builtin.unrealized_conversion_cast %1 : index to i32
  func.return %2 : i32
}

// A cast that is still used stays; the round trip through it still folds.
// CHECK-LABEL: func.func @mixed(%a: i32) -> (i32, i64) {
// CHECK-NEXT:    %0 = builtin.unrealized_conversion_cast %a : i32 to i64
// CHECK-NEXT:    func.return %a, %0 : i32, i64
func.func @mixed(%a: i32) -> (i32, i64) {
  %0 = builtin.unrealized_conversion_cast %a : i32 to i64
  %1 = builtin.unrealized_conversion_cast %0 : i64 to i32
  func.return %1, %0 : i32, i64
}

// A chain that does not come back to its source type stays (silently, as upstream).
// CHECK-LABEL: func.func @chain(%a: i32) -> i16 {
// CHECK-NEXT:    %0 = builtin.unrealized_conversion_cast %a : i32 to i64
// CHECK-NEXT:    %1 = builtin.unrealized_conversion_cast %0 : i64 to i16
// CHECK-NEXT:    func.return %1 : i16
func.func @chain(%a: i32) -> i16 {
  %0 = builtin.unrealized_conversion_cast %a : i32 to i64
  %1 = builtin.unrealized_conversion_cast %0 : i64 to i16
  func.return %1 : i16
}

// Dead casts go; casts of several values fold as a whole.
// CHECK-LABEL: func.func @multi(%a: i32, %b: f32) -> (i32, f32) {
// CHECK-NEXT:    func.return %a, %b : i32, f32
func.func @multi(%a: i32, %b: f32) -> (i32, f32) {
  %dead = builtin.unrealized_conversion_cast %a : i32 to i8
  %0:2 = builtin.unrealized_conversion_cast %a, %b : i32, f32 to i64, f64
  %1:2 = builtin.unrealized_conversion_cast %0#0, %0#1 : i64, f64 to i32, f32
  func.return %1#0, %1#1 : i32, f32
}
