// RUN: xdsl-opt %s -p convert-gpu-to-nvvm --split-input-file | filecheck %s
// RUN: xdsl-opt %s -p 'convert-gpu-to-nvvm{index-bitwidth=32}' --split-input-file | filecheck %s --check-prefix=IDX32
// RUN: xdsl-opt %s -p 'convert-gpu-to-nvvm{has-redux=true}' --split-input-file | filecheck %s --check-prefix=REDUX
// RUN: xdsl-opt %s -p 'convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=true}' --split-input-file | filecheck %s --check-prefix=BARE

// Index ops read special registers as i32, with a range from upper_bound or the
// known launch sizes, then sign-extend to the index width.

// CHECK-LABEL: gpu.module @index_ops
// CHECK:       llvm.func @ids(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64) attributes {gpu.kernel, gpu.known_block_size = array<i32: 128, 2, 1>, gpu.known_grid_size = array<i32: 16, 1, 1>, nvvm.kernel, nvvm.maxntid = array<i32: 128, 2, 1>}
// CHECK:       %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x range <i32, 0, 128> : i32
// CHECK-NEXT:  llvm.sext %[[TID]] : i32 to i64
// CHECK:       nvvm.read.ptx.sreg.ntid.y range <i32, 1, 3> : i32
// CHECK:       nvvm.read.ptx.sreg.ctaid.x range <i32, 0, 16> : i32
// CHECK:       nvvm.read.ptx.sreg.nctaid.x range <i32, 1, 5> : i32
// CHECK:       nvvm.read.ptx.sreg.laneid range <i32, 0, 32> : i32
// global_id: ctaid * ntid + tid
// CHECK:       %[[BID:.*]] = nvvm.read.ptx.sreg.ctaid.x range <i32, 0, 16> : i32
// CHECK-NEXT:  %[[BID64:.*]] = llvm.sext %[[BID]] : i32 to i64
// CHECK-NEXT:  %[[BDIM:.*]] = nvvm.read.ptx.sreg.ntid.x range <i32, 1, 129> : i32
// CHECK-NEXT:  %[[BDIM64:.*]] = llvm.sext %[[BDIM]] : i32 to i64
// CHECK-NEXT:  %[[MUL:.*]] = llvm.mul %[[BID64]], %[[BDIM64]] : i64
// CHECK-NEXT:  %[[T:.*]] = nvvm.read.ptx.sreg.tid.x range <i32, 0, 128> : i32
// CHECK-NEXT:  %[[T64:.*]] = llvm.sext %[[T]] : i32 to i64
// CHECK-NEXT:  llvm.add %[[T64]], %[[MUL]] : i64
// CHECK:       nvvm.read.ptx.sreg.clusterid.z : i32

// IDX32-LABEL: gpu.module @index_ops
// IDX32:       llvm.func @ids(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32)
// IDX32:       nvvm.read.ptx.sreg.tid.x range <i32, 0, 128> : i32
// IDX32-NOT:   llvm.sext
// IDX32:       llvm.return
gpu.module @index_ops {
  gpu.func @ids(%out: memref<8xindex>) kernel attributes {known_block_size = array<i32: 128, 2, 1>, known_grid_size = array<i32: 16, 1, 1>} {
    %0 = gpu.thread_id x
    %1 = gpu.block_dim y
    %2 = gpu.block_id x
    %3 = gpu.grid_dim x upper_bound 4
    %4 = gpu.lane_id
    %5 = gpu.global_id x
    %6 = gpu.cluster_id z
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    memref.store %0, %out[%c0] : memref<8xindex>
    memref.store %1, %out[%c1] : memref<8xindex>
    memref.store %2, %out[%c2] : memref<8xindex>
    memref.store %3, %out[%c3] : memref<8xindex>
    memref.store %4, %out[%c4] : memref<8xindex>
    memref.store %5, %out[%c5] : memref<8xindex>
    memref.store %6, %out[%c6] : memref<8xindex>
    gpu.return
  }
}

// -----

// Shuffles: mask -1 >> (32 - width), clamp width - 1 (32 - width for up), the
// struct form when `valid` is used. 64-bit values move as two halves.

// CHECK-LABEL: gpu.module @shuffles
// CHECK:       llvm.func @shuffle(%[[V:.*]]: f32, %[[D:.*]]: f64, %[[OFF:.*]]: i32, %[[W:.*]]: i32, %{{.*}}: !llvm.ptr
// CHECK:       %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:  %[[M1:.*]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK-NEXT:  %[[C32:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK-NEXT:  %[[INACTIVE:.*]] = llvm.sub %[[C32]], %[[W]] : i32
// CHECK-NEXT:  %[[MASK:.*]] = llvm.lshr %[[M1]], %[[INACTIVE]] : i32
// CHECK-NEXT:  %[[CLAMP:.*]] = llvm.sub %[[W]], %[[ONE]] : i32
// CHECK-NEXT:  %[[S:.*]] = nvvm.shfl.sync bfly %[[MASK]], %[[V]], %[[OFF]], %[[CLAMP]] {return_value_and_is_valid} : f32 -> !llvm.struct<(f32, i1)>
// CHECK-NEXT:  llvm.extractvalue %[[S]][0] : !llvm.struct<(f32, i1)>
// CHECK-NEXT:  llvm.extractvalue %[[S]][1] : !llvm.struct<(f32, i1)>
// CHECK:       %[[UPINACTIVE:.*]] = llvm.sub %{{.*}}, %[[W]] : i32
// CHECK-NEXT:  %[[UPMASK:.*]] = llvm.lshr %{{.*}}, %[[UPINACTIVE]] : i32
// CHECK-NEXT:  nvvm.shfl.sync up %[[UPMASK]], %[[V]], %[[OFF]], %[[UPINACTIVE]] : f32 -> f32
// CHECK:       %[[BITS:.*]] = llvm.bitcast %[[D]] : f64 to i64
// CHECK-NEXT:  %[[C32_64:.*]] = llvm.mlir.constant(32{{( : index)?}}) : i64
// CHECK-NEXT:  %[[LO:.*]] = llvm.trunc %[[BITS]] : i64 to i32
// CHECK-NEXT:  %[[HI64:.*]] = llvm.lshr %[[BITS]], %[[C32_64]] : i64
// CHECK-NEXT:  %[[HI:.*]] = llvm.trunc %[[HI64]] : i64 to i32
// CHECK-NEXT:  nvvm.shfl.sync idx %{{.*}}, %[[LO]], %[[OFF]], %{{.*}} : i32 -> i32
// CHECK-NEXT:  nvvm.shfl.sync idx %{{.*}}, %[[HI]], %[[OFF]], %{{.*}} : i32 -> i32
// CHECK:       llvm.bitcast %{{.*}} : i64 to f64
gpu.module @shuffles {
  gpu.func @shuffle(%v: f32, %d: f64, %offset: i32, %width: i32, %out: memref<4xf32>, %dout: memref<4xf64>, %vout: memref<4xi1>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r0, %p0 = gpu.shuffle xor %v, %offset, %width : f32
    %r1, %p1 = gpu.shuffle up %v, %offset, %width : f32
    %r2, %p2 = gpu.shuffle idx %d, %offset, %width : f64
    memref.store %r0, %out[%c0] : memref<4xf32>
    memref.store %r1, %out[%c1] : memref<4xf32>
    memref.store %r2, %dout[%c0] : memref<4xf64>
    memref.store %p0, %vout[%c0] : memref<4xi1>
    gpu.return
  }
}

// -----

// gpu.barrier, gpu.printf (floats promoted to f64), the format string as a global.

// CHECK-LABEL: gpu.module @printf
// CHECK-NEXT:  llvm.mlir.global internal constant @printfFormat_0("x=%f i=%d\0A\00") {addr_space = 0 : i32}
// CHECK-NEXT:  llvm.func @vprintf(!llvm.ptr, !llvm.ptr) -> i32
// CHECK:       llvm.func @print(%[[X:.*]]: f32, %[[I:.*]]: i32)
// CHECK-NEXT:  nvvm.barrier0
// CHECK-NEXT:  %[[ADDR:.*]] = llvm.mlir.addressof @printfFormat_0 : !llvm.ptr
// CHECK-NEXT:  %[[FMT:.*]] = llvm.getelementptr %[[ADDR]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<11 x i8>
// CHECK-NEXT:  %[[XD:.*]] = llvm.fpext %[[X]] : f32 to f64
// CHECK-NEXT:  %[[ONE:.*]] = llvm.mlir.constant(1{{( : index)?}}) : i64
// CHECK-NEXT:  %[[BUF:.*]] = llvm.alloca %[[ONE]] x !llvm.struct<(f64, i32)> : (i64) -> !llvm.ptr
// CHECK-NEXT:  %[[P0:.*]] = llvm.getelementptr %[[BUF]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(f64, i32)>
// CHECK-NEXT:  llvm.store %[[XD]], %[[P0]] : f64, !llvm.ptr
// CHECK-NEXT:  %[[P1:.*]] = llvm.getelementptr %[[BUF]][0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(f64, i32)>
// CHECK-NEXT:  llvm.store %[[I]], %[[P1]] : i32, !llvm.ptr
// CHECK-NEXT:  llvm.call @vprintf(%[[FMT]], %[[BUF]]) : (!llvm.ptr, !llvm.ptr) -> i32
gpu.module @printf {
  gpu.func @print(%x: f32, %i: i32) kernel {
    gpu.barrier
    gpu.printf "x=%f i=%d\n", %x, %i : f32, i32
    gpu.return
  }
}

// -----

// Attributions: workgroup buffers become addr_space 3 globals, private ones allocas;
// dynamic shared memory is @__dynamic_shmem__0 (external: see
// convert-gpu-to-nvvm-dynamic-shared.mlir).

// CHECK-LABEL: gpu.module @attributions
// CHECK-NEXT:  llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-NEXT:  llvm.mlir.global internal @__wg_tile_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x f32>
// CHECK:       llvm.func @tile(%{{.*}}: i64)
// CHECK:       %[[WG:.*]] = llvm.mlir.addressof @__wg_tile_0 : !llvm.ptr<3>
// CHECK-NEXT:  llvm.getelementptr %[[WG]][0, 0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, !llvm.array<64 x f32>
// CHECK:       %[[N:.*]] = llvm.mlir.constant(4{{.*}}) : i64
// CHECK-NEXT:  llvm.alloca %[[N]] x i32 {alignment = 8 : i64} : (i64) -> !llvm.ptr
// CHECK:       %[[DYN:.*]] = llvm.mlir.addressof @__dynamic_shmem__0 : !llvm.ptr<3>
// CHECK-NEXT:  llvm.getelementptr %[[DYN]][0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
gpu.module @attributions {
  gpu.func @tile(%i: index) workgroup(%w: memref<8x8xf32, #gpu.address_space<workgroup>> {llvm.align = 16}) private(%p: memref<4xi32, #gpu.address_space<private>> {llvm.align = 8}) kernel {
    %c0 = arith.constant 0 : index
    %x = memref.load %w[%i, %c0] : memref<8x8xf32, #gpu.address_space<workgroup>>
    %y = memref.load %p[%i] : memref<4xi32, #gpu.address_space<private>>
    %shmem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %z = memref.load %shmem[%i] : memref<?xi8, #gpu.address_space<workgroup>>
    memref.store %x, %w[%c0, %i] : memref<8x8xf32, #gpu.address_space<workgroup>>
    memref.store %y, %p[%c0] : memref<4xi32, #gpu.address_space<private>>
    memref.store %z, %shmem[%c0] : memref<?xi8, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// Kernel signatures: memrefs as expanded descriptors, or bare pointers; device
// functions and func.func (with a C wrapper) too.

// CHECK-LABEL: gpu.module @signatures
// CHECK:       llvm.func @device(%{{.*}}: f32) -> f32 {
// CHECK:       llvm.func @host_like(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64) attributes {llvm.emit_c_interface}
// CHECK:       llvm.func @_mlir_ciface_host_like(%{{.*}}: !llvm.ptr) attributes {llvm.emit_c_interface}
// CHECK:       llvm.func @kernel(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: f32) attributes {gpu.kernel, nvvm.kernel}

// BARE-LABEL:  gpu.module @signatures
// BARE:        llvm.func @host_like(%{{.*}}: !llvm.ptr) attributes {llvm.emit_c_interface} {
// BARE-NOT:    _mlir_ciface_host_like
// BARE:        llvm.func @kernel(%{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: f32) attributes {gpu.kernel, nvvm.kernel}
// BARE:        llvm.mlir.constant(4{{( : index)?}}) : i64
gpu.module @signatures {
  gpu.func @device(%x: f32) -> f32 {
    gpu.return %x : f32
  }
  func.func @host_like(%m: memref<4xf32>) {
    return
  }
  gpu.func @kernel(%m: memref<4x4xf32> {llvm.noalias}, %f: f32) kernel {
    %c0 = arith.constant 0 : index
    memref.store %f, %m[%c0, %c0] : memref<4x4xf32>
    gpu.return
  }
}

// -----

// Math through libdevice: f32 with the f suffix, f64 the base name, f16 through
// f32, fastmath<afn> the fast variants; declarations before the first user.

// CHECK-LABEL: gpu.module @math
// CHECK-NEXT:  llvm.func @__nv_expf(f32) -> f32
// CHECK-NEXT:  llvm.func @__nv_exp(f64) -> f64
// CHECK-NEXT:  llvm.func @__nv_fast_expf(f32) -> f32
// CHECK-NEXT:  llvm.func @__nv_isnanf(f32) -> i32
// CHECK-NEXT:  llvm.func @math(%[[X:.*]]: f32, %[[Y:.*]]: f64, %[[H:.*]]: f16,
// CHECK:       llvm.call @__nv_expf(%[[X]]) : (f32) -> f32
// CHECK-NEXT:  llvm.call @__nv_exp(%[[Y]]) : (f64) -> f64
// CHECK-NEXT:  %[[HX:.*]] = llvm.fpext %[[H]] : f16 to f32
// CHECK-NEXT:  %[[HE:.*]] = llvm.call @__nv_expf(%[[HX]]) : (f32) -> f32
// CHECK-NEXT:  llvm.fptrunc %[[HE]] : f32 to f16
// CHECK-NEXT:  llvm.call @__nv_fast_expf(%[[X]]) : (f32) -> f32
// CHECK-NEXT:  %[[NAN:.*]] = llvm.call @__nv_isnanf(%[[X]]) : (f32) -> i32
// CHECK-NEXT:  %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:  llvm.icmp "ne" %[[NAN]], %[[ZERO]] : i32
// Math without a libdevice function: an LLVM intrinsic.
// CHECK:       llvm.intr.trunc
gpu.module @math {
  gpu.func @math(%x: f32, %y: f64, %h: f16, %out: memref<4xf32>, %dout: memref<4xf64>, %hout: memref<4xf16>, %bout: memref<4xi1>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = math.exp %x : f32
    %b = math.exp %y : f64
    %c = math.exp %h : f16
    %d = math.exp %x fastmath<afn> : f32
    %e = math.isnan %x : f32
    %f = math.trunc %x : f32
    memref.store %a, %out[%c0] : memref<4xf32>
    memref.store %d, %out[%c1] : memref<4xf32>
    memref.store %b, %dout[%c0] : memref<4xf64>
    memref.store %c, %hout[%c0] : memref<4xf16>
    memref.store %e, %bout[%c0] : memref<4xi1>
    memref.store %f, %out[%c0] : memref<4xf32>
    gpu.return
  }
}

// -----

// cf.assert calls __assertfail with the message, file, line and function.

// CHECK-LABEL: gpu.module @asserts
// CHECK-NEXT:  llvm.mlir.global internal constant @assert_func_0("(unknown)\00") {addr_space = 0 : i32}
// CHECK-NEXT:  llvm.mlir.global internal constant @assert_file_0("kernel.mlir\00") {addr_space = 0 : i32}
// CHECK-NEXT:  llvm.mlir.global internal constant @assert_message_0("must hold\00") {addr_space = 0 : i32}
// CHECK-NEXT:  llvm.func @__assertfail(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64) attributes {passthrough = ["noreturn"]}
// CHECK:       llvm.cond_br %{{.*}}, ^[[OK:.*]], ^[[FAIL:.*]]
// CHECK-NEXT:  ^[[FAIL]]:
// CHECK:       %[[LINE:.*]] = llvm.mlir.constant(12 : i32) : i32
// CHECK:       llvm.call @__assertfail(%{{.*}}, %{{.*}}, %[[LINE]], %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64) -> ()
// CHECK-NEXT:  llvm.br ^[[OK]]
// CHECK-NEXT:  ^[[OK]]:
// CHECK-NEXT:  llvm.return
gpu.module @asserts {
  gpu.func @check(%c: i1) kernel {
    cf.assert %c, "must hold" loc("kernel.mlir":12:5)
    gpu.return
  }
}

// -----

// subgroup_reduce: a butterfly of xor shuffles over the warp, or nvvm.redux.sync
// for uniform i32 with has-redux.

// CHECK-LABEL: gpu.module @subgroup_reduce
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK-NOT:   nvvm.shfl.sync
// CHECK:       llvm.return

// REDUX-LABEL: gpu.module @subgroup_reduce
// REDUX:       %[[MASK:.*]] = llvm.mlir.constant(-1 : i32) : i32
// REDUX-NEXT:  nvvm.redux.sync umax %{{.*}}, %[[MASK]] : i32 -> i32
// REDUX-NOT:   nvvm.shfl.sync
// REDUX:       llvm.return
gpu.module @subgroup_reduce {
  gpu.func @reduce(%i: i32, %out: memref<1xi32>) kernel {
    %r = gpu.subgroup_reduce maxui %i uniform : (i32) -> i32
    %c0 = arith.constant 0 : index
    memref.store %r, %out[%c0] : memref<1xi32>
    gpu.return
  }
}

// -----

// all_reduce: two warp reductions (each five shuffles within a partial warp, five
// within a full one), a workgroup buffer of 32 values, two barriers.

// CHECK-LABEL: gpu.module @all_reduce
// CHECK-NEXT:  llvm.mlir.global internal @__wg_sum_0() {addr_space = 3 : i32} : !llvm.array<32 x f32>
// CHECK-COUNT-10: nvvm.shfl.sync
// CHECK:       nvvm.barrier0
// CHECK-COUNT-10: nvvm.shfl.sync
// CHECK:       nvvm.barrier0
// CHECK-NOT:   nvvm.shfl.sync
// CHECK:       llvm.return
gpu.module @all_reduce {
  gpu.func @sum(%v: f32, %out: memref<1xf32>) kernel {
    %r = gpu.all_reduce add %v uniform {} : (f32) -> f32
    %c0 = arith.constant 0 : index
    memref.store %r, %out[%c0] : memref<1xf32>
    gpu.return
  }
}

// -----

// Beyond MLIR 22: subgroup_size, subgroup_id, num_subgroups, rotate and
// subgroup_broadcast.

// CHECK-LABEL: gpu.module @beyond
// CHECK:       llvm.mlir.constant(32{{( : index)?}}) : i64
// CHECK:       %[[L:.*]] = nvvm.read.ptx.sreg.laneid range <i32, 0, 32> : i32
// CHECK-NEXT:  %[[OFF:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT:  %[[SRC:.*]] = llvm.add %[[L]], %[[OFF]] : i32
// CHECK-NEXT:  %[[SEG:.*]] = llvm.mlir.constant(6175 : i32) : i32
// CHECK-NEXT:  %[[ACTIVE:.*]] = llvm.call_intrinsic "llvm.nvvm.activemask"() : () -> i32
// CHECK-NEXT:  nvvm.shfl.sync idx %[[ACTIVE]], %{{.*}}, %[[SRC]], %[[SEG]] : i32 -> i32
// CHECK:       %[[ACTIVE2:.*]] = llvm.call_intrinsic "llvm.nvvm.activemask"() : () -> i32
// CHECK-NEXT:  %[[FIRST:.*]] = "llvm.intr.cttz"(%[[ACTIVE2]]) <{is_zero_poison = false}> : (i32) -> i32
// CHECK-NEXT:  %[[C31:.*]] = llvm.mlir.constant(31 : i32) : i32
// CHECK-NEXT:  nvvm.shfl.sync idx %[[ACTIVE2]], %{{.*}}, %[[FIRST]], %[[C31]] : f32 -> f32
gpu.module @beyond {
  gpu.func @queries(%x: i32, %f: f32, %out: memref<4xindex>, %iout: memref<4xi32>, %fout: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %size = gpu.subgroup_size : index
    %id = gpu.subgroup_id : index
    %count = gpu.num_subgroups : index
    memref.store %size, %out[%c0] : memref<4xindex>
    memref.store %id, %out[%c1] : memref<4xindex>
    memref.store %count, %out[%c2] : memref<4xindex>
    %r, %ok = gpu.rotate %x, 3, 8 : i32
    memref.store %r, %iout[%c0] : memref<4xi32>
    %b = gpu.subgroup_broadcast %f, first_active_lane : f32
    memref.store %b, %fout[%c0] : memref<4xf32>
    gpu.return
  }
}
