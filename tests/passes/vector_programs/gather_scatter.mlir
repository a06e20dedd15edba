// gather (1-D with i32 indices, 2-D with index indices, into a 2-D memref) and
// scatter on the host (run by test_vector_runner.py); masked-off lanes keep the
// pass-through or are not written.
memref.global "private" constant @data : memref<2x8xf32> = dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0]]>

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %g = memref.get_global @data : memref<2x8xf32>
  %m = memref.alloc() : memref<2x8xf32>
  memref.copy %g, %m : memref<2x8xf32> to memref<2x8xf32>
  %idx = arith.constant dense<[7, 0, 5, 2]> : vector<4xi32>
  %mask = arith.constant dense<[true, false, true, true]> : vector<4xi1>
  %pass = arith.constant dense<-1.0> : vector<4xf32>
  %r = vector.gather %m[%c1, %c0] [%idx], %mask, %pass : memref<2x8xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  vector.print %r : vector<4xf32>
  %idx2 = arith.constant dense<[[0, 3, 9], [4, 1, 2]]> : vector<2x3xindex>
  %mask2 = arith.constant dense<[[true, true, true], [false, true, true]]> : vector<2x3xi1>
  %pass2 = arith.constant dense<0.5> : vector<2x3xf32>
  %r2 = vector.gather %m[%c0, %c1] [%idx2], %mask2, %pass2 : memref<2x8xf32>, vector<2x3xindex>, vector<2x3xi1>, vector<2x3xf32> into vector<2x3xf32>
  vector.print %r2 : vector<2x3xf32>
  %v = arith.constant dense<[100.0, 200.0, 300.0, 400.0]> : vector<4xf32>
  vector.scatter %m[%c0, %c1] [%idx], %mask, %v {alignment = 4} : memref<2x8xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32>
  %row0 = vector.load %m[%c0, %c0] : memref<2x8xf32>, vector<8xf32>
  %row1 = vector.load %m[%c1, %c0] : memref<2x8xf32>, vector<8xf32>
  vector.print %row0 : vector<8xf32>
  vector.print %row1 : vector<8xf32>
  return
}
