// An already-lowered program (llvm + nvvm in the gpu.module): device printf from two
// threads, then a host printf, then the result 42. Tests the output order.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90">] {
    llvm.mlir.global internal constant @fmt("Hello from %d\0A\00") {addr_space = 0 : i32}
    llvm.func @vprintf(!llvm.ptr, !llvm.ptr) -> i32
    llvm.func @hello() attributes {gpu.kernel, nvvm.kernel} {
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      %one = llvm.mlir.constant(1 : i64) : i64
      %buf = llvm.alloca %one x !llvm.struct<(i32)> : (i64) -> !llvm.ptr
      llvm.store %tid, %buf : i32, !llvm.ptr
      %f = llvm.mlir.addressof @fmt : !llvm.ptr
      %r = llvm.call @vprintf(%f, %buf) : (!llvm.ptr, !llvm.ptr) -> i32
      llvm.return
    }
  }
  llvm.mlir.global internal constant @done("host done\0A\00") {addr_space = 0 : i32}
  llvm.func @printf(!llvm.ptr, ...) -> i32
  llvm.func @main() -> i32 {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %c2 = llvm.mlir.constant(2 : i64) : i64
    gpu.launch_func @k::@hello blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) : i64
    %d = llvm.mlir.addressof @done : !llvm.ptr
    %r = llvm.call @printf(%d) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr) -> i32
    %c42 = llvm.mlir.constant(42 : i32) : i32
    llvm.return %c42 : i32
  }
}
