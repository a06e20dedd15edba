// Host code already lowered, taking bare pointers: y += a * x on n floats.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
    llvm.func @axpy(%a: f32, %x: !llvm.ptr, %y: !llvm.ptr, %n: i64) attributes {gpu.kernel, nvvm.kernel} {
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %b = nvvm.read.ptx.sreg.ctaid.x : i32
      %d = nvvm.read.ptx.sreg.ntid.x : i32
      %bd = llvm.mul %b, %d : i32
      %i32 = llvm.add %bd, %t : i32
      %i = llvm.zext %i32 : i32 to i64
      %in = llvm.icmp "slt" %i, %n : i64
      llvm.cond_br %in, ^body, ^end
    ^body:
      %px = llvm.getelementptr %x[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %py = llvm.getelementptr %y[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %vx = llvm.load %px : !llvm.ptr -> f32
      %vy = llvm.load %py : !llvm.ptr -> f32
      %m = llvm.fmul %a, %vx : f32
      %s = llvm.fadd %m, %vy : f32
      llvm.store %s, %py : f32, !llvm.ptr
      llvm.br ^end
    ^end:
      llvm.return
    }
  }
  llvm.func @axpy(%a: f32, %x: !llvm.ptr, %y: !llvm.ptr, %n: i64) {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %c256 = llvm.mlir.constant(256 : i64) : i64
    %c255 = llvm.mlir.constant(255 : i64) : i64
    %n255 = llvm.add %n, %c255 : i64
    %blocks = llvm.udiv %n255, %c256 : i64
    gpu.launch_func @kernels::@axpy blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1) : i64 args(%a : f32, %x : !llvm.ptr, %y : !llvm.ptr, %n : i64)
    llvm.return
  }
}
