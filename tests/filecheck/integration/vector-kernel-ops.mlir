// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void --print-host-llvm | filecheck %s --check-prefix=COMPILE
// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void | filecheck %s
// REQUIRES: gpu

// Vector ops in a kernel, lowered inside convert-gpu-to-nvvm: a reduction, an n-D
// broadcast with a row extracted, 1-D and 2-D fma, a strided slice, an interleave and
// an element inserted. Two threads, four floats each.

memref.global "private" constant @data : memref<8xf32> = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]>

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = memref.alloc() : memref<8xf32>
  %g = memref.get_global @data : memref<8xf32>
  memref.copy %g, %a : memref<8xf32> to memref<8xf32>
  %out = memref.alloc() : memref<16xf32>
  %a_u = memref.cast %a : memref<8xf32> to memref<*xf32>
  gpu.host_register %a_u : memref<*xf32>
  %out_u = memref.cast %out : memref<16xf32> to memref<*xf32>
  gpu.host_register %out_u : memref<*xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%nx = %c2, %ny = %c1, %nz = %c1) {
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %i = arith.muli %tx, %c4 : index
    %x = vector.load %a[%i] {alignment = 16} : memref<8xf32>, vector<4xf32>
    %s = vector.reduction <add>, %x : vector<4xf32> into f32
    %b = vector.broadcast %s : f32 to vector<2x4xf32>
    %r = vector.extract %b[1] : vector<4xf32> from vector<2x4xf32>
    %f = vector.fma %x, %r, %x : vector<4xf32>
    %m = vector.fma %b, %b, %b : vector<2x4xf32>
    %sc = vector.extract %m[0, 3] : f32 from vector<2x4xf32>
    %e = vector.extract_strided_slice %f {offsets = [1], sizes = [2], strides = [1]} : vector<4xf32> to vector<2xf32>
    %il = vector.interleave %e, %e : vector<2xf32> -> vector<4xf32>
    %il2 = vector.insert %sc, %il [3] : f32 into vector<4xf32>
    %o = arith.muli %tx, %c8 : index
    %o4 = arith.addi %o, %c4 : index
    vector.store %f, %out[%o] {alignment = 16} : memref<16xf32>, vector<4xf32>
    vector.store %il2, %out[%o4] {alignment = 16} : memref<16xf32>, vector<4xf32>
    gpu.terminator
  }
  call @printMemrefF32(%out_u) : (memref<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(memref<*xf32>)

// COMPILE: define void @main()
// COMPILE: declare void @printMemrefF32(i64, ptr)

// CHECK: Unranked Memref
// CHECK-SAME: rank = 1 offset = 0 sizes = [16] strides = [1] data =
// CHECK-NEXT: [11,  22,  33,  44,  22,  22,  33,  110,  135,  162,  189,  216,  162,  162,  189,  702]
