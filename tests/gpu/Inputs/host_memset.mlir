// gpu.memset of f32/i32 (mgpuMemset32) and f16/i16 (mgpuMemset16) elements into
// views of one allocation, sync and async. tests/gpu/test_host_runtime_ops.py runs it.
module {
  func.func @memsets(%vf: f32, %vi: i32, %vh: f16, %vs: i16, %pf: f32, %pi: i32, %ph: f16, %ps: i16, %out: memref<24576xi8>) {
    %c0 = arith.constant 0 : index
    %c4096 = arith.constant 4096 : index
    %c8192 = arith.constant 8192 : index
    %c12288 = arith.constant 12288 : index
    %c16384 = arith.constant 16384 : index
    %c18432 = arith.constant 18432 : index
    %c20480 = arith.constant 20480 : index
    %c22528 = arith.constant 22528 : index
    %raw = gpu.alloc () : memref<24576xi8>
    %f_lo = memref.view %raw[%c0][] : memref<24576xi8> to memref<1024xf32>
    %f_hi = memref.view %raw[%c4096][] : memref<24576xi8> to memref<1024xf32>
    %i_lo = memref.view %raw[%c8192][] : memref<24576xi8> to memref<32x32xi32>
    %i_hi = memref.view %raw[%c12288][] : memref<24576xi8> to memref<32x32xi32>
    %h_lo = memref.view %raw[%c16384][] : memref<24576xi8> to memref<1024xf16>
    %h_hi = memref.view %raw[%c18432][] : memref<24576xi8> to memref<1024xf16>
    %s_lo = memref.view %raw[%c20480][] : memref<24576xi8> to memref<32x32xi16>
    %s_hi = memref.view %raw[%c22528][] : memref<24576xi8> to memref<32x32xi16>
    // The upper half of each region first: a memset that wrote bytes instead of
    // elements would overwrite it.
    gpu.memset %f_hi, %pf : memref<1024xf32>, f32
    gpu.memset %f_lo, %vf : memref<1024xf32>, f32
    gpu.memset %h_hi, %ph : memref<1024xf16>, f16
    gpu.memset %h_lo, %vh : memref<1024xf16>, f16
    %t0 = gpu.wait async
    %t1 = gpu.memset async [%t0] %i_hi, %pi : memref<32x32xi32>, i32
    %t2 = gpu.memset async [%t1] %i_lo, %vi : memref<32x32xi32>, i32
    %t3 = gpu.memset async [%t2] %s_hi, %ps : memref<32x32xi16>, i16
    %t4 = gpu.memset async [%t3] %s_lo, %vs : memref<32x32xi16>, i16
    gpu.wait [%t4]
    gpu.memcpy %out, %raw : memref<24576xi8>, memref<24576xi8>
    gpu.dealloc %raw : memref<24576xi8>
    return
  }
}
