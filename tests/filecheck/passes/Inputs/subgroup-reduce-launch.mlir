func.func @main(%m: memref<32xi32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%a = %c32, %b = %c1, %c = %c1) {
    %v = memref.load %m[%tx] : memref<32xi32>
    %r = gpu.subgroup_reduce add %v uniform : (i32) -> i32
    %s = gpu.subgroup_reduce minui %r uniform : (i32) -> i32
    memref.store %s, %m[%tx] : memref<32xi32>
    gpu.terminator
  }
  return
}
