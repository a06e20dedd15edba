// Loads and stores: plain with an alignment, masked by create_mask/constant_mask,
// 1-D transfers in and out of bounds, reductions (run by test_vector_runner.py).
memref.global "private" constant @data : memref<10xi32> = dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]>

func.func @main() {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant -100 : i32
  %g = memref.get_global @data : memref<10xi32>
  %m = memref.alloc() : memref<10xi32>
  memref.copy %g, %m : memref<10xi32> to memref<10xi32>
  %v = vector.load %m[%c4] {alignment = 4} : memref<10xi32>, vector<4xi32>
  vector.print %v : vector<4xi32>
  %mask = vector.create_mask %c3 : vector<4xi1>
  %zero = arith.constant dense<0> : vector<4xi32>
  %ml = vector.maskedload %m[%c0], %mask, %zero : memref<10xi32>, vector<4xi1>, vector<4xi32> into vector<4xi32>
  vector.print %ml : vector<4xi32>
  %cm = vector.constant_mask [2] : vector<4xi1>
  vector.maskedstore %m[%c0], %cm, %v : memref<10xi32>, vector<4xi1>, vector<4xi32>
  %t = vector.transfer_read %m[%c8], %pad : memref<10xi32>, vector<4xi32>
  vector.print %t : vector<4xi32>
  %s = vector.reduction <add>, %t : vector<4xi32> into i32
  vector.print %s : i32
  %big = arith.constant dense<[11, 12, 13, 14]> : vector<4xi32>
  vector.transfer_write %big, %m[%c8] : vector<4xi32>, memref<10xi32>
  vector.store %big, %m[%c3] : memref<10xi32>, vector<4xi32>
  %all = vector.transfer_read %m[%c0], %pad {in_bounds = [true]} : memref<10xi32>, vector<10xi32>
  vector.print %all : vector<10xi32>
  %mx = vector.reduction <maxsi>, %all : vector<10xi32> into i32
  vector.print %mx : i32
  return
}
