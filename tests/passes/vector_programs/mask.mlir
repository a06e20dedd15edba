// vector.mask (run by test_vector_runner.py): masked reductions of each kind
// (llvm.intr.vp.reduce.*, or a select for maximumf/minimumf), a masked contraction
// (masked dot products), a masked outer product (a select per row), and masked
// transfers and a gather that lower-vector-mask folds into the ops.
func.func @main() {
  %v = arith.constant dense<[1.0, -2.0, 3.0, 8.0, -5.0, 6.0, 7.0, 0.5]> : vector<8xf32>
  %vi = arith.constant dense<[1, -2, 3, 8, -5, 6, 7, 12]> : vector<8xi32>
  %m = arith.constant dense<[true, true, false, true, false, true, true, false]> : vector<8xi1>
  %acc = arith.constant 10.0 : f32
  %acci = arith.constant 10 : i32
  %r0 = vector.mask %m { vector.reduction <add>, %v : vector<8xf32> into f32 } : vector<8xi1> -> f32
  vector.print %r0 : f32
  %r1 = vector.mask %m { vector.reduction <add>, %v, %acc : vector<8xf32> into f32 } : vector<8xi1> -> f32
  vector.print %r1 : f32
  %r2 = vector.mask %m { vector.reduction <mul>, %v : vector<8xf32> into f32 } : vector<8xi1> -> f32
  vector.print %r2 : f32
  %r3 = vector.mask %m { vector.reduction <maxnumf>, %v : vector<8xf32> into f32 } : vector<8xi1> -> f32
  vector.print %r3 : f32
  %r4 = vector.mask %m { vector.reduction <minnumf>, %v, %acc : vector<8xf32> into f32 } : vector<8xi1> -> f32
  vector.print %r4 : f32
  %r5 = vector.mask %m { vector.reduction <maximumf>, %v : vector<8xf32> into f32 } : vector<8xi1> -> f32
  vector.print %r5 : f32
  %r6 = vector.mask %m { vector.reduction <minimumf>, %v, %acc : vector<8xf32> into f32 } : vector<8xi1> -> f32
  vector.print %r6 : f32
  %i0 = vector.mask %m { vector.reduction <add>, %vi, %acci : vector<8xi32> into i32 } : vector<8xi1> -> i32
  vector.print %i0 : i32
  %i1 = vector.mask %m { vector.reduction <maxsi>, %vi : vector<8xi32> into i32 } : vector<8xi1> -> i32
  vector.print %i1 : i32
  %i2 = vector.mask %m { vector.reduction <minui>, %vi : vector<8xi32> into i32 } : vector<8xi1> -> i32
  vector.print %i2 : i32
  %i3 = vector.mask %m { vector.reduction <xor>, %vi : vector<8xi32> into i32 } : vector<8xi1> -> i32
  vector.print %i3 : i32
  %i4 = vector.mask %m { vector.reduction <mul>, %vi : vector<8xi32> into i32 } : vector<8xi1> -> i32
  vector.print %i4 : i32
  // masked matmul: lanes (i, j, k) with k < 2 only, and (1, 1, 2)
  %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : vector<2x3xf32>
  %b = arith.constant dense<[[1.0, 0.5], [2.0, -1.0], [1.0, 3.0]]> : vector<3x2xf32>
  %c = arith.constant dense<[[10.0, 20.0], [30.0, 40.0]]> : vector<2x2xf32>
  %mc = arith.constant dense<[[[true, true, false], [true, true, false]], [[true, true, false], [true, true, true]]]> : vector<2x2x3xi1>
  %d = vector.mask %mc { vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x3xf32>, vector<3x2xf32> into vector<2x2xf32> } : vector<2x2x3xi1> -> vector<2x2xf32>
  vector.print %d : vector<2x2xf32>
  // masked outer product
  %x = arith.constant dense<[1.0, 2.0]> : vector<2xf32>
  %y = arith.constant dense<[3.0, 4.0, 5.0]> : vector<3xf32>
  %oacc = arith.constant dense<[[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]]> : vector<2x3xf32>
  %om = arith.constant dense<[[true, false, true], [false, true, true]]> : vector<2x3xi1>
  %o = vector.mask %om { vector.outerproduct %x, %y, %oacc {kind = #vector.kind<add>} : vector<2xf32>, vector<3xf32> } : vector<2x3xi1> -> vector<2x3xf32>
  vector.print %o : vector<2x3xf32>
  // masked transfers and gather (lower-vector-mask)
  %mem = memref.alloca() : memref<8xf32>
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %bc = vector.broadcast %zero : f32 to vector<8xf32>
  vector.transfer_write %bc, %mem[%c0] : vector<8xf32>, memref<8xf32>
  vector.mask %m { vector.transfer_write %v, %mem[%c0] : vector<8xf32>, memref<8xf32> } : vector<8xi1>
  %all = vector.transfer_read %mem[%c0], %zero : memref<8xf32>, vector<8xf32>
  vector.print %all : vector<8xf32>
  %pad = arith.constant -1.0 : f32
  %m4 = arith.constant dense<[false, true, true, false]> : vector<4xi1>
  %c2 = arith.constant 2 : index
  %part = vector.mask %m4 { vector.transfer_read %mem[%c2], %pad : memref<8xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
  vector.print %part : vector<4xf32>
  %idx = arith.constant dense<[7, 0, 3, 1]> : vector<4xi32>
  %own = arith.constant dense<true> : vector<4xi1>
  %pt = arith.constant dense<9.0> : vector<4xf32>
  %g = vector.mask %m4 { vector.gather %mem[%c0][%idx], %own, %pt : memref<8xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32> into vector<4xf32> } : vector<4xi1> -> vector<4xf32>
  vector.print %g : vector<4xf32>
  return
}
