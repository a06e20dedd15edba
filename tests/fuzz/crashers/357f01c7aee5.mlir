// PIPELINE: gpu-to-llvm
// FOUND: form: no location (VerifyException), scalable vector argument


// broadcast, extract/insert (static, dynamic, poison), strided slices, shuffle
// CHECK-LABEL: func.func @shapes(
func.func @shapes(%f: f32, %i: index, %v: vector<4xf32>, %v2: vector<2x4xf32>, %v0: vector<f32>, %s: vector<[4]xf32>) {
  // CHECK-NEXT: %0 = vector.broadcast %f : f32 to vector<4xf32>
  %0 = vector.broadcast %f : f32 to vector<4xf32>
  // CHECK-NEXT: %1 = vector.broadcast %v : vector<4xf32> to vector<3x4xf32>
  %1 = vector.broadcast %v : vector<4xf32> to vector<3x4xf32>
  // CHECK-NEXT: %2 = vector.broadcast %v0 : vector<f32> to vector<2x4xf32>
  %2 = vector.broadcast %v0 : vector<f32> to vector<2x4xf32>
  // CHECK-NEXT: %3 = vector.broadcast %f : f32 to vector<[4]xf32>
  %3 = vector.broadcast %f : f32 to vector<[4]xf32>
  // CHECK-NEXT: %4 = vector.extract %v2[1] : vector<4xf32> from vector<2x4xf32>
  %4 = vector.extract %v2[1] : vector<4xf32> from vector<2x4xf32>
  // CHECK-NEXT: %5 = vector.extract %v2[1, 3] : f32 from vector<2x4xf32>
  %5 = vector.extract %v2[1, 3] : f32 from vector<2x4xf32>
  // CHECK-NEXT: %6 = vector.extract %v2[%i, 2] : f32 from vector<2x4xf32>
  %6 = vector.extract %v2[%i, 2] : f32 from vector<2x4xf32>
  // CHECK-NEXT: %7 = vector.extract %v2[-1] : vector<4xf32> from vector<2x4xf32>
  %7 = vector.extract %v2[-1] : vector<4xf32> from vector<2x4xf32>
  // CHECK-NEXT: %8 = vector.extract %s[%i] : f32 from vector<[4]xf32>
  %8 = vector.extract %s[%i] : f32 from vector<[4]xf32>
  // CHECK-NEXT: %9 = vector.insert %f, %v2 [1, 2] : f32 into vector<2x4xf32>
  %9 = vector.insert %f, %v2 [1, 2] : f32 into vector<2x4xf32>
  // CHECK-NEXT: %10 = vector.insert %v, %v2 [%i] : vector<4xf32> into vector<2x4xf32>
  %10 = vector.insert %v, %v2 [%i] : vector<4xf32> into vector<2x4xf32>
  // CHECK-NEXT: %11 = vector.extract_strided_slice %v2 {offsets = [0, 1], sizes = [2, 2], strides = [1, 1]} : vector<2x4xf(32> to vector<2x2xf32>
  %11 = vector.extract_strided_slice %v2 {offsets = [0, 1], sizes = [2, 2], strides = [1, 1]} : vector<2x4xf32> to vector<2x2xf32>
  // CHECK-NEXT: %12 = vector.extract_strided_slice %v2 {offsets = [1], sizes = [1], strides = [1]} : vector<2x4xf32> to vector<1x4xf32>
  %12 = vector.extract_strided_slice %v2 {offsets = [1], sizes = [1], strides = [1]} : vector<2x4xf32> to vector<1x4xf32>
  // CHECK-NEXT: %13 = vector.insert_strided_slice %v, %v2 {offsets = [1, 0], strides = [1]} : vector<4xf32> into vector<2x4xf32>
  %13 = vector.insert_strided_slice %v, %v2 {offsets = [1, 0], strides = [1]} : vector<4xf32> into vector<2x4xf32>
  // CHECK-NEXT: %14 = vector.shuffle %v, %v [0, 4, 1, 5, -1] : vector<4xf32>, vector<4xf32>
  %14 = vector.shuffle %v, %v [0, 4, 1, 5, -1] : vector<4xf32>, vector<4xf32>
  // CHECK-NEXT: %15 = vector.shuffle %v2, %v2 [3, 0] : vector<2x4xf32>, vector<2x4xf32>
  %15 = vector.shuffle %v2, %v2 [3, 0] : vector<2x4xf32>, vector<2x4xf32>
  // CHECK-NEXT: %16 = vector.shuffle %v0, %v0 [0, 1] : vector<f32>, vector<f32>
  %16 = vector.shuffle %v0, %v0 [0, 1] : vector<f32>, vector<f32>
  // CHECK-NEXT: func.return
  return
}

