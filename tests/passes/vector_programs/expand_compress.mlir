// expandload and compressstore (with and without an alignment) on the host (run by
// test_vector_runner.py).
memref.global "private" constant @data : memref<8xf32> = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]>

func.func @main() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %g = memref.get_global @data : memref<8xf32>
  %m = memref.alloc() : memref<8xf32>
  memref.copy %g, %m : memref<8xf32> to memref<8xf32>
  %mask = arith.constant dense<[true, false, true, true]> : vector<4xi1>
  %pass = arith.constant dense<-1.0> : vector<4xf32>
  %e = vector.expandload %m[%c2], %mask, %pass : memref<8xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  vector.print %e : vector<4xf32>
  %v = arith.constant dense<[10.0, 20.0, 30.0, 40.0]> : vector<4xf32>
  vector.compressstore %m[%c0], %mask, %v {alignment = 16} : memref<8xf32>, vector<4xi1>, vector<4xf32>
  %all = vector.load %m[%c0] : memref<8xf32>, vector<8xf32>
  vector.print %all : vector<8xf32>
  return
}
