// A 3x4 transfer_read and transfer_write on a 3x5 memref, out of bounds in both dims (run by test_vector_runner.py).
memref.global "private" constant @data : memref<3x5xf32> = dense<[[1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0], [11.0, 12.0, 13.0, 14.0, 15.0]]>

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %pad = arith.constant -1.0 : f32
  %m = memref.get_global @data : memref<3x5xf32>
  %buf = memref.alloc() : memref<3x5xf32>
  memref.copy %m, %buf : memref<3x5xf32> to memref<3x5xf32>
  // rows 1..2 (row 3 is out of bounds), cols 2..5 (col 5 out of bounds)
  %v = vector.transfer_read %buf[%c1, %c2], %pad : memref<3x5xf32>, vector<3x4xf32>
  %r0 = vector.extract %v[0] : vector<4xf32> from vector<3x4xf32>
  %r1 = vector.extract %v[1] : vector<4xf32> from vector<3x4xf32>
  %r2 = vector.extract %v[2] : vector<4xf32> from vector<3x4xf32>
  %s = arith.addf %r0, %r1 : vector<4xf32>
  %t = arith.addf %s, %r2 : vector<4xf32>
  %sum = vector.reduction <add>, %t : vector<4xf32> into f32
  vector.print %sum : f32
  %e = vector.extract %t[3] : f32 from vector<4xf32>
  vector.print %e : f32
  // write back doubled, partly out of bounds
  %d = arith.addf %v, %v : vector<3x4xf32>
  vector.transfer_write %d, %buf[%c0, %c2] : vector<3x4xf32>, memref<3x5xf32>
  %x = memref.load %buf[%c2, %c4] : memref<3x5xf32>
  vector.print %x : f32
  return
}
