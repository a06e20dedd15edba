// Two kernels as mlir-opt 22 leaves the body of their gpu.module after
//   mlir-opt-22 --pass-pipeline='builtin.module(convert-scf-to-cf,
//       gpu.module(convert-gpu-to-nvvm,reconcile-unrealized-casts))'
// Kept as text so that the GPU machine, which has no mlir-22-tools, runs the same
// input (tests/targets/test_llvm_ir.py). The source:
//
// module attributes {gpu.container_module} {
//   gpu.module @kernels {
//     gpu.func @saxpy_exp(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
//       %bid = gpu.block_id x
//       %bdim = gpu.block_dim x
//       %tid = gpu.thread_id x
//       %i0 = arith.muli %bid, %bdim : index
//       %i = arith.addi %i0, %tid : index
//       %in = arith.cmpi slt, %i, %n : index
//       scf.if %in {
//         %xv = memref.load %x[%i] : memref<?xf32>
//         %yv = memref.load %y[%i] : memref<?xf32>
//         %m = arith.mulf %a, %xv : f32
//         %s = arith.addf %m, %yv : f32
//         %e = math.exp %s : f32
//         memref.store %e, %y[%i] : memref<?xf32>
//       }
//       gpu.return
//     }
//     gpu.func @block_sum(%x: memref<?xf32>, %out: memref<?xf32>) workgroup(%tile: memref<128xf32, #gpu.address_space<workgroup>>) kernel {
//       %bid = gpu.block_id x
//       %bdim = gpu.block_dim x
//       %tid = gpu.thread_id x
//       %i0 = arith.muli %bid, %bdim : index
//       %i = arith.addi %i0, %tid : index
//       %v = memref.load %x[%i] : memref<?xf32>
//       %c1_i32 = arith.constant 1 : i32
//       %c32_i32 = arith.constant 32 : i32
//       %w, %valid = gpu.shuffle xor %v, %c1_i32, %c32_i32 : f32
//       %vw = arith.addf %v, %w : f32
//       memref.store %vw, %tile[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
//       gpu.barrier
//       %c0 = arith.constant 0 : index
//       %is0 = arith.cmpi eq, %tid, %c0 : index
//       scf.if %is0 {
//         %c1 = arith.constant 1 : index
//         %zero = arith.constant 0.0 : f32
//         %sum = scf.for %j = %c0 to %bdim step %c1 iter_args(%acc = %zero) -> f32 {
//           %t = memref.load %tile[%j] : memref<128xf32, #gpu.address_space<workgroup>>
//           %nacc = arith.addf %acc, %t : f32
//           scf.yield %nacc : f32
//         }
//         memref.store %sum, %out[%bid] : memref<?xf32>
//       }
//       gpu.return
//     }
//   }
// }

module {
    llvm.func @__nv_expf(f32) -> f32
    llvm.func @saxpy_exp(%arg0: f32, %arg1: !llvm.ptr, %arg2: !llvm.ptr, %arg3: i64, %arg4: i64, %arg5: i64, %arg6: !llvm.ptr, %arg7: !llvm.ptr, %arg8: i64, %arg9: i64, %arg10: i64, %arg11: i64) attributes {gpu.kernel, gpu.known_block_size = array<i32: 128, 1, 1>, nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>} {
      %0 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %1 = llvm.insertvalue %arg6, %0[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %2 = llvm.insertvalue %arg7, %1[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %3 = llvm.insertvalue %arg8, %2[2] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %4 = llvm.insertvalue %arg9, %3[3, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %5 = llvm.insertvalue %arg10, %4[4, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %6 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %7 = llvm.insertvalue %arg1, %6[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %8 = llvm.insertvalue %arg2, %7[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %9 = llvm.insertvalue %arg3, %8[2] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %10 = llvm.insertvalue %arg4, %9[3, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %11 = llvm.insertvalue %arg5, %10[4, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %12 = nvvm.read.ptx.sreg.ctaid.x : i32
      %13 = llvm.sext %12 : i32 to i64
      %14 = nvvm.read.ptx.sreg.ntid.x range <i32, 1, 129> : i32
      %15 = llvm.sext %14 : i32 to i64
      %16 = nvvm.read.ptx.sreg.tid.x range <i32, 0, 128> : i32
      %17 = llvm.sext %16 : i32 to i64
      %18 = llvm.mul %13, %15 : i64
      %19 = llvm.add %18, %17 : i64
      %20 = llvm.icmp "slt" %19, %arg11 : i64
      llvm.cond_br %20, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %21 = llvm.extractvalue %11[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %22 = llvm.getelementptr inbounds|nuw %21[%19] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %23 = llvm.load %22 : !llvm.ptr -> f32
      %24 = llvm.extractvalue %5[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %25 = llvm.getelementptr inbounds|nuw %24[%19] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %26 = llvm.load %25 : !llvm.ptr -> f32
      %27 = llvm.fmul %arg0, %23 : f32
      %28 = llvm.fadd %27, %26 : f32
      %29 = llvm.call @__nv_expf(%28) : (f32) -> f32
      %30 = llvm.extractvalue %5[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %31 = llvm.getelementptr inbounds|nuw %30[%19] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %29, %31 : f32, !llvm.ptr
      llvm.br ^bb2
    ^bb2:  // 2 preds: ^bb0, ^bb1
      llvm.return
    }
    llvm.mlir.global internal @__wg_block_sum_0() {addr_space = 3 : i32} : !llvm.array<128 x f32>
    llvm.func @block_sum(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i64, %arg3: i64, %arg4: i64, %arg5: !llvm.ptr, %arg6: !llvm.ptr, %arg7: i64, %arg8: i64, %arg9: i64) attributes {gpu.kernel, nvvm.kernel} {
      %0 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %1 = llvm.insertvalue %arg5, %0[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %2 = llvm.insertvalue %arg6, %1[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %3 = llvm.insertvalue %arg7, %2[2] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %4 = llvm.insertvalue %arg8, %3[3, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %5 = llvm.insertvalue %arg9, %4[4, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %6 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %7 = llvm.insertvalue %arg0, %6[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %8 = llvm.insertvalue %arg1, %7[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %9 = llvm.insertvalue %arg2, %8[2] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %10 = llvm.insertvalue %arg3, %9[3, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %11 = llvm.insertvalue %arg4, %10[4, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %12 = llvm.mlir.addressof @__wg_block_sum_0 : !llvm.ptr<3>
      %13 = llvm.getelementptr %12[0, 0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, !llvm.array<128 x f32>
      %14 = llvm.mlir.poison : !llvm.struct<(ptr<3>, ptr<3>, i64, array<1 x i64>, array<1 x i64>)>
      %15 = llvm.insertvalue %13, %14[0] : !llvm.struct<(ptr<3>, ptr<3>, i64, array<1 x i64>, array<1 x i64>)>
      %16 = llvm.insertvalue %13, %15[1] : !llvm.struct<(ptr<3>, ptr<3>, i64, array<1 x i64>, array<1 x i64>)>
      %17 = llvm.mlir.constant(0 : index) : i64
      %18 = llvm.insertvalue %17, %16[2] : !llvm.struct<(ptr<3>, ptr<3>, i64, array<1 x i64>, array<1 x i64>)>
      %19 = llvm.mlir.constant(128 : index) : i64
      %20 = llvm.insertvalue %19, %18[3, 0] : !llvm.struct<(ptr<3>, ptr<3>, i64, array<1 x i64>, array<1 x i64>)>
      %21 = llvm.mlir.constant(1 : index) : i64
      %22 = llvm.insertvalue %21, %20[4, 0] : !llvm.struct<(ptr<3>, ptr<3>, i64, array<1 x i64>, array<1 x i64>)>
      %23 = llvm.mlir.constant(0.000000e+00 : f32) : f32
      %24 = llvm.mlir.constant(1 : index) : i64
      %25 = llvm.mlir.constant(0 : index) : i64
      %26 = llvm.mlir.constant(32 : i32) : i32
      %27 = llvm.mlir.constant(1 : i32) : i32
      %28 = nvvm.read.ptx.sreg.ctaid.x : i32
      %29 = llvm.sext %28 : i32 to i64
      %30 = nvvm.read.ptx.sreg.ntid.x : i32
      %31 = llvm.sext %30 : i32 to i64
      %32 = nvvm.read.ptx.sreg.tid.x : i32
      %33 = llvm.sext %32 : i32 to i64
      %34 = llvm.mul %29, %31 : i64
      %35 = llvm.add %34, %33 : i64
      %36 = llvm.extractvalue %11[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %37 = llvm.getelementptr inbounds|nuw %36[%35] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %38 = llvm.load %37 : !llvm.ptr -> f32
      %39 = llvm.mlir.constant(1 : i32) : i32
      %40 = llvm.mlir.constant(-1 : i32) : i32
      %41 = llvm.mlir.constant(32 : i32) : i32
      %42 = llvm.sub %41, %26 : i32
      %43 = llvm.lshr %40, %42 : i32
      %44 = llvm.sub %26, %39 : i32
      %45 = nvvm.shfl.sync  bfly %43, %38, %27, %44 : f32 -> f32
      %46 = llvm.fadd %38, %45 : f32
      %47 = llvm.extractvalue %22[1] : !llvm.struct<(ptr<3>, ptr<3>, i64, array<1 x i64>, array<1 x i64>)>
      %48 = llvm.getelementptr inbounds|nuw %47[%33] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
      llvm.store %46, %48 : f32, !llvm.ptr<3>
      nvvm.barrier0
      %49 = llvm.icmp "eq" %33, %25 : i64
      llvm.cond_br %49, ^bb1, ^bb5
    ^bb1:  // pred: ^bb0
      llvm.br ^bb2(%25, %23 : i64, f32)
    ^bb2(%50: i64, %51: f32):  // 2 preds: ^bb1, ^bb3
      %52 = llvm.icmp "slt" %50, %31 : i64
      llvm.cond_br %52, ^bb3, ^bb4
    ^bb3:  // pred: ^bb2
      %53 = llvm.extractvalue %22[1] : !llvm.struct<(ptr<3>, ptr<3>, i64, array<1 x i64>, array<1 x i64>)>
      %54 = llvm.getelementptr inbounds|nuw %53[%50] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
      %55 = llvm.load %54 : !llvm.ptr<3> -> f32
      %56 = llvm.fadd %51, %55 : f32
      %57 = llvm.add %50, %24 : i64
      llvm.br ^bb2(%57, %56 : i64, f32)
    ^bb4:  // pred: ^bb2
      %58 = llvm.extractvalue %5[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %59 = llvm.getelementptr inbounds|nuw %58[%29] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %51, %59 : f32, !llvm.ptr
      llvm.br ^bb5
    ^bb5:  // 2 preds: ^bb0, ^bb4
      llvm.return
    }

}
