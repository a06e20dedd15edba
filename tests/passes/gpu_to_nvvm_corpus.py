"""Kernels that exercise every lowering of ``convert-gpu-to-nvvm``.

Shared by the differential test against ``mlir-opt-22``
(``test_gpu_to_nvvm_differential.py``) and, for the ones marked ``runs``, by the GPU
tests (``tests/gpu/test_gpu_to_nvvm_kernels.py``). Every kernel writes its results to
memory, so that nothing is dead and the result translates to LLVM IR and PTX.
"""

from __future__ import annotations

from dataclasses import dataclass

TARGET = '[#nvvm.target<chip = "sm_90">]'


@dataclass(frozen=True)
class Case:
    name: str
    text: str
    options: str = ""
    """``convert-gpu-to-nvvm`` options, ``key=value`` separated by spaces."""
    pre: tuple[str, ...] = ()
    """Passes to run first (upstream's pipeline runs them before)."""
    upstream_fails: bool = False
    """MLIR 22 cannot lower it ("failed to legalize"): we go beyond."""


def module(body: str, name: str = "kernels") -> str:
    return f"gpu.module @{name} {TARGET} {{\n{body}\n}}\n"


SIMPLE_MUL = module(
    """
  gpu.func @simple_mul(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %dim: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.global_id x
    %in = arith.cmpi ult, %tid, %dim : index
    cf.cond_br %in, ^body, ^end
  ^body:
    %x = memref.load %a[%tid] : memref<?xf32>
    %y = memref.load %b[%tid] : memref<?xf32>
    %p = arith.mulf %x, %y : f32
    memref.store %p, %c[%tid] : memref<?xf32>
    cf.br ^end
  ^end:
    gpu.return
  }"""
)

MATMUL = """
#map = affine_map<()[s0, s1, s2] -> (s0 * s2 + s1)>
gpu.module @test_parallel_kernel [#nvvm.target<chip = "sm_90">] {
  gpu.func @test_parallel_kernel(%arg0: index, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: memref<256x1024xf32>, %arg6: memref<1024x256xf32>, %arg7: index, %arg8: f32, %arg9: memref<256x256xf32>) kernel {
    %block_id_x = gpu.block_id x
    %block_id_y = gpu.block_id y
    %thread_id_x = gpu.thread_id x
    %thread_id_y = gpu.thread_id y
    %0 = affine.apply #map()[%arg0, %arg1, %block_id_x]
    %1 = affine.apply #map()[%arg2, %arg1, %block_id_y]
    %2 = affine.apply #map()[%arg3, %arg4, %thread_id_x]
    %3 = affine.apply #map()[%arg3, %arg4, %thread_id_y]
    %4 = arith.addi %2, %0 : index
    %5 = arith.addi %3, %1 : index
    %6 = scf.for %arg10 = %arg1 to %arg7 step %arg3 iter_args(%arg11 = %arg8) -> (f32) {
      %7 = memref.load %arg5[%4, %arg10] : memref<256x1024xf32>
      %8 = memref.load %arg6[%arg10, %5] : memref<1024x256xf32>
      %9 = arith.mulf %7, %8 : f32
      %10 = arith.addf %arg11, %9 : f32
      scf.yield %10 : f32
    }
    memref.store %6, %arg9[%4, %5] : memref<256x256xf32>
    gpu.return
  }
}
"""

INDEX_OPS = module(
    """
  gpu.func @index_ops(%out: memref<16xi32>) kernel attributes {known_block_size = array<i32: 32, 4, 1>, known_grid_size = array<i32: 8, 1, 1>, known_cluster_size = array<i32: 2, 1, 1>} {
    %v0 = gpu.thread_id x
    %v1 = gpu.thread_id y upper_bound 3
    %v2 = gpu.block_id x
    %v3 = gpu.block_id z
    %v4 = gpu.block_dim y
    %v5 = gpu.grid_dim x
    %v6 = gpu.lane_id
    %v7 = gpu.lane_id upper_bound 16
    %v8 = gpu.global_id x
    %v9 = gpu.cluster_id x
    %v10 = gpu.cluster_dim y upper_bound 4
    %v11 = gpu.cluster_block_id x
    %v12 = gpu.cluster_dim_blocks x
    %v13 = gpu.grid_dim z
    %v14 = gpu.block_dim x upper_bound 2147483647
    %s = arith.addi %v0, %v1 : index
    %s1 = arith.addi %s, %v2 : index
    %s2 = arith.addi %s1, %v3 : index
    %s3 = arith.addi %s2, %v4 : index
    %s4 = arith.addi %s3, %v5 : index
    %s5 = arith.addi %s4, %v6 : index
    %s6 = arith.addi %s5, %v7 : index
    %s7 = arith.addi %s6, %v8 : index
    %s8 = arith.addi %s7, %v9 : index
    %s9 = arith.addi %s8, %v10 : index
    %s10 = arith.addi %s9, %v11 : index
    %s11 = arith.addi %s10, %v12 : index
    %s12 = arith.addi %s11, %v13 : index
    %s13 = arith.addi %s12, %v14 : index
    %r = arith.index_cast %s13 : index to i32
    %c0 = arith.constant 0 : index
    memref.store %r, %out[%c0] : memref<16xi32>
    gpu.return
  }"""
)

SHUFFLES = module(
    """
  gpu.func @shuffles(%out: memref<64xf32>, %iout: memref<64xi32>, %dout: memref<64xf64>, %lout: memref<64xi64>, %vout: memref<64xi32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %tid = gpu.thread_id x
    %t32 = arith.index_cast %tid : index to i32
    %f = arith.sitofp %t32 : i32 to f32
    %d = arith.extf %f : f32 to f64
    %l = arith.extsi %t32 : i32 to i64
    %c1 = arith.constant 1 : i32
    %c3 = arith.constant 3 : i32
    %c5 = arith.constant 5 : i32
    %c32 = arith.constant 32 : i32
    %r0, %p0 = gpu.shuffle xor %f, %c1, %c32 : f32
    %r1, %p1 = gpu.shuffle up %t32, %c3, %c32 : i32
    %r2, %p2 = gpu.shuffle down %d, %c5, %c32 : f64
    %r3, %p3 = gpu.shuffle idx %l, %c3, %c32 : i64
    memref.store %r0, %out[%tid] : memref<64xf32>
    memref.store %r1, %iout[%tid] : memref<64xi32>
    memref.store %r2, %dout[%tid] : memref<64xf64>
    memref.store %r3, %lout[%tid] : memref<64xi64>
    %v1 = arith.extui %p1 : i1 to i32
    %v2 = arith.extui %p2 : i1 to i32
    %v3 = arith.extui %p3 : i1 to i32
    %w1 = arith.shli %v2, %c1 : i32
    %w2 = arith.addi %v1, %w1 : i32
    %w3 = arith.shli %v3, %c3 : i32
    %w4 = arith.addi %w2, %w3 : i32
    memref.store %w4, %vout[%tid] : memref<64xi32>
    gpu.return
  }"""
)

ALL_REDUCE = module(
    """
  gpu.func @all_reduce(%in: memref<?xf32>, %iin: memref<?xi32>, %out: memref<8xf32>, %iout: memref<8xi32>) kernel attributes {known_block_size = array<i32: 96, 1, 1>} {
    %tid = gpu.thread_id x
    %v = memref.load %in[%tid] : memref<?xf32>
    %i = memref.load %iin[%tid] : memref<?xi32>
    %sum = gpu.all_reduce add %v uniform {} : (f32) -> f32
    %max = gpu.all_reduce maxnumf %v uniform {} : (f32) -> f32
    %imax = gpu.all_reduce maxsi %i uniform {} : (i32) -> i32
    %ixor = gpu.all_reduce xor %i uniform {} : (i32) -> i32
    %prod = gpu.all_reduce %v uniform {
    ^bb0(%a: f32, %b: f32):
      %m = arith.addf %a, %b : f32
      gpu.yield %m : f32
    } : (f32) -> f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    memref.store %sum, %out[%c0] : memref<8xf32>
    memref.store %max, %out[%c1] : memref<8xf32>
    memref.store %prod, %out[%c2] : memref<8xf32>
    memref.store %imax, %iout[%c0] : memref<8xi32>
    memref.store %ixor, %iout[%c1] : memref<8xi32>
    gpu.return
  }"""
)

REDUX = module(
    """
  gpu.func @redux(%iin: memref<?xi32>, %iout: memref<?xi32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %tid = gpu.thread_id x
    %i = memref.load %iin[%tid] : memref<?xi32>
    %a = gpu.subgroup_reduce add %i uniform : (i32) -> i32
    %b = gpu.subgroup_reduce and %i uniform : (i32) -> i32
    %c = gpu.subgroup_reduce or %i uniform : (i32) -> i32
    %d = gpu.subgroup_reduce xor %i uniform : (i32) -> i32
    %e = gpu.subgroup_reduce minsi %i uniform : (i32) -> i32
    %f = gpu.subgroup_reduce maxsi %i uniform : (i32) -> i32
    %ab = arith.addi %a, %b : i32
    %cd = arith.addi %c, %d : i32
    %ef = arith.addi %e, %f : i32
    %abcd = arith.addi %ab, %cd : i32
    %all = arith.addi %abcd, %ef : i32
    memref.store %all, %iout[%tid] : memref<?xi32>
    gpu.return
  }"""
)

SUBGROUP_REDUCE = module(
    """
  gpu.func @subgroup_reduce(%in: memref<?xf32>, %iin: memref<?xi32>, %hin: memref<?xf16>, %out: memref<?xf32>, %iout: memref<?xi32>, %hout: memref<?xf16>, %vin: memref<?xvector<2xf32>>, %vout: memref<?xvector<2xf32>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    %v = memref.load %in[%tid] : memref<?xf32>
    %i = memref.load %iin[%tid] : memref<?xi32>
    %h = memref.load %hin[%tid] : memref<?xf16>
    %sum = gpu.subgroup_reduce add %v : (f32) -> f32
    %max4 = gpu.subgroup_reduce maximumf %v cluster(size = 4) : (f32) -> f32
    %mul = gpu.subgroup_reduce mul %i uniform : (i32) -> i32
    %min8 = gpu.subgroup_reduce minui %i cluster(size = 8, stride = 2) : (i32) -> i32
    %hsum = gpu.subgroup_reduce add %h uniform : (f16) -> f16
    %vec0 = memref.load %vin[%tid] : memref<?xvector<2xf32>>
    %vsum = gpu.subgroup_reduce add %vec0 cluster(size = 16) : (vector<2xf32>) -> vector<2xf32>
    %s = arith.addf %sum, %max4 : f32
    memref.store %s, %out[%tid] : memref<?xf32>
    %j = arith.addi %mul, %min8 : i32
    memref.store %j, %iout[%tid] : memref<?xi32>
    memref.store %hsum, %hout[%tid] : memref<?xf16>
    memref.store %vsum, %vout[%tid] : memref<?xvector<2xf32>>
    gpu.return
  }"""
)

PRINTF = module(
    """
  gpu.func @printf(%f: f32, %d: f64, %i: i32, %l: i64, %n: index, %h: f16) kernel {
    %tid = gpu.thread_id x
    gpu.printf "thread %lld: f32 %f f64 %f i32 %d i64 %lld index %lld f16 %f\\n", %tid, %f, %d, %i, %l, %n, %h : index, f32, f64, i32, i64, index, f16
    gpu.printf "no arguments\\n"
    gpu.return
  }"""
)

ATTRIBUTIONS = module(
    """
  gpu.func @tile(%in: memref<64xf32>, %out: memref<64xf32>) workgroup(%tile: memref<8x8xf32, #gpu.address_space<workgroup>> {llvm.align = 16}, %flag: memref<1xi32, #gpu.address_space<workgroup>>) private(%tmp: memref<4xf32, #gpu.address_space<private>> {llvm.align = 8}) kernel attributes {known_block_size = array<i32: 8, 8, 1>} {
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %c8 = arith.constant 8 : index
    %row = arith.muli %ty, %c8 : index
    %lin = arith.addi %row, %tx : index
    %v = memref.load %in[%lin] : memref<64xf32>
    memref.store %v, %tile[%ty, %tx] : memref<8x8xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %c0 = arith.constant 0 : index
    %t = memref.load %tile[%tx, %ty] : memref<8x8xf32, #gpu.address_space<workgroup>>
    memref.store %t, %tmp[%c0] : memref<4xf32, #gpu.address_space<private>>
    %u = memref.load %tmp[%c0] : memref<4xf32, #gpu.address_space<private>>
    memref.store %u, %out[%lin] : memref<64xf32>
    gpu.return
  }
  gpu.func @device(%x: f32) -> f32 workgroup(%w: memref<16xf64, #gpu.address_space<workgroup>>) private(%p: memref<2x3xi32, #gpu.address_space<private>>) {
    gpu.return %x : f32
  }"""
)

DYNAMIC_SHARED = module(
    """
  gpu.func @reverse(%in: memref<?xf32>, %out: memref<?xf32>, %n: index) kernel {
    %tid = gpu.thread_id x
    %shmem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %buf = memref.view %shmem[%c0][%n] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xf32, #gpu.address_space<workgroup>>
    %v = memref.load %in[%tid] : memref<?xf32>
    memref.store %v, %buf[%tid] : memref<?xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %c1 = arith.constant 1 : index
    %last = arith.subi %n, %c1 : index
    %src = arith.subi %last, %tid : index
    %w = memref.load %buf[%src] : memref<?xf32, #gpu.address_space<workgroup>>
    memref.store %w, %out[%tid] : memref<?xf32>
    gpu.return
  }"""
)

MATH = module(
    """
  gpu.func @math(%f32in: memref<?xf32>, %f64in: memref<?xf64>, %f16in: memref<?xf16>, %f32out: memref<?xf32>, %f64out: memref<?xf64>, %f16out: memref<?xf16>, %iout: memref<?xi32>) kernel {
    %tid = gpu.thread_id x
    %x = memref.load %f32in[%tid] : memref<?xf32>
    %y = memref.load %f64in[%tid] : memref<?xf64>
    %h = memref.load %f16in[%tid] : memref<?xf16>
    %a0 = math.exp %x : f32
    %a1 = math.sin %x : f32
    %a2 = math.cos %x fastmath<afn> : f32
    %a3 = math.sqrt %x : f32
    %a4 = math.tanh %x : f32
    %a5 = math.log1p %x : f32
    %a6 = math.powf %x, %x : f32
    %a7 = math.atan2 %x, %a0 : f32
    %a8 = arith.remf %a6, %a0 : f32
    %a9 = math.rsqrt %a0 : f32
    %a10 = math.erf %x : f32
    %a11 = math.exp %x fastmath<afn> : f32
    %s0 = arith.addf %a0, %a1 : f32
    %s1 = arith.addf %s0, %a2 : f32
    %s2 = arith.addf %s1, %a3 : f32
    %s3 = arith.addf %s2, %a4 : f32
    %s4 = arith.addf %s3, %a5 : f32
    %s5 = arith.addf %s4, %a6 : f32
    %s6 = arith.addf %s5, %a7 : f32
    %s7 = arith.addf %s6, %a8 : f32
    %s8 = arith.addf %s7, %a9 : f32
    %s9 = arith.addf %s8, %a10 : f32
    %s10 = arith.addf %s9, %a11 : f32
    memref.store %s10, %f32out[%tid] : memref<?xf32>
    %b0 = math.exp %y : f64
    %b1 = math.log %y : f64
    %b2 = math.sin %y : f64
    %b3 = math.cbrt %y : f64
    %b4 = math.floor %y : f64
    %b5 = math.roundeven %y : f64
    %b6 = arith.maxnumf %b0, %b1 : f64
    %t0 = arith.addf %b0, %b1 : f64
    %t1 = arith.addf %t0, %b2 : f64
    %t2 = arith.addf %t1, %b3 : f64
    %t3 = arith.addf %t2, %b4 : f64
    %t4 = arith.addf %t3, %b5 : f64
    %t5 = arith.addf %t4, %b6 : f64
    memref.store %t5, %f64out[%tid] : memref<?xf64>
    %e0 = math.exp %h : f16
    %e1 = math.absf %h : f16
    %e2 = math.tanh %h : f16
    %u0 = arith.addf %e0, %e1 : f16
    %u1 = arith.addf %u0, %e2 : f16
    memref.store %u1, %f16out[%tid] : memref<?xf16>
    %n0 = math.isnan %x : f32
    %n1 = math.isinf %y : f64
    %n2 = math.isfinite %x : f32
    %z0 = arith.extui %n0 : i1 to i32
    %z1 = arith.extui %n1 : i1 to i32
    %z2 = arith.extui %n2 : i1 to i32
    %z3 = arith.addi %z0, %z1 : i32
    %z4 = arith.addi %z3, %z2 : i32
    memref.store %z4, %iout[%tid] : memref<?xi32>
    gpu.return
  }"""
)

MATH_VECTOR = module(
    """
  gpu.func @math_vector(%v: vector<2xf32>, %out: memref<2xvector<2xf32>>, %x: f32, %o: memref<2xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %e = math.exp %v : vector<2xf32>
    memref.store %e, %out[%c0] : memref<2xvector<2xf32>>
    %s, %c = math.sincos %x : f32
    memref.store %s, %o[%c0] : memref<2xf32>
    memref.store %c, %o[%c1] : memref<2xf32>
    gpu.return
  }"""
)

SIGNATURES = module(
    """
  gpu.func @params(%a: memref<?x?xf32>, %s: memref<f32>, %g: memref<4xf32, #gpu.address_space<global>>, %i: index, %p: i1, %h: f16, %u: memref<*xf32>) kernel {
    %c0 = arith.constant 0 : index
    %x = memref.load %a[%c0, %i] : memref<?x?xf32>
    memref.store %x, %s[] : memref<f32>
    memref.store %x, %g[%c0] : memref<4xf32, #gpu.address_space<global>>
    gpu.return
  }
  func.func @helper(%x: f32, %m: memref<4xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %y = memref.load %m[%c0] : memref<4xf32>
    %z = arith.addf %x, %y : f32
    return %z : f32
  }
  gpu.func @caller(%x: f32, %m: memref<4xf32>) kernel {
    %y = func.call @helper(%x, %m) : (f32, memref<4xf32>) -> f32
    %c1 = arith.constant 1 : index
    memref.store %y, %m[%c1] : memref<4xf32>
    gpu.return
  }"""
)

BARE = module(
    """
  gpu.func @bare(%a: memref<16xf32> {llvm.noalias}, %b: memref<4x4xf32>, %n: index, %f: f32 {llvm.noundef}) kernel attributes {known_block_size = array<i32: 16, 1, 1>} {
    %tid = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %x = memref.load %b[%c0, %n] : memref<4x4xf32>
    %y = arith.addf %x, %f : f32
    memref.store %y, %a[%tid] : memref<16xf32>
    gpu.return
  }"""
)

ASSERT = module(
    """
  gpu.func @check(%x: f32, %out: memref<4xf32>) kernel {
    %zero = arith.constant 0.0 : f32
    %ok = arith.cmpf oge, %x, %zero : f32
    cf.assert %ok, "x must not be negative" loc("check.py":42:7)
    %c0 = arith.constant 0 : index
    memref.store %x, %out[%c0] : memref<4xf32>
    gpu.return
  }"""
)

BEYOND = module(
    """
  gpu.func @beyond(%out: memref<?xi32>, %fout: memref<?xf32>, %hout: memref<?xf16>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    %t32 = arith.index_cast %tid : index to i32
    %f = arith.sitofp %t32 : i32 to f32
    %h = arith.truncf %f : f32 to f16
    %size = gpu.subgroup_size : index
    %sid = gpu.subgroup_id : index
    %nsg = gpu.num_subgroups : index
    %r, %ok = gpu.rotate %t32, 3, 32 : i32
    %r16, %ok16 = gpu.rotate %f, 5, 16 : f32
    %c2 = arith.constant 2 : i32
    %b = gpu.subgroup_broadcast %t32, specific_lane %c2 : i32
    %first = gpu.subgroup_broadcast %f, first_active_lane : f32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %hs, %hv = gpu.shuffle xor %h, %c1, %c32 : f16
    %a = arith.index_cast %size : index to i32
    %b2 = arith.index_cast %sid : index to i32
    %c = arith.index_cast %nsg : index to i32
    %s0 = arith.addi %a, %b2 : i32
    %s1 = arith.addi %s0, %c : i32
    %s2 = arith.addi %s1, %r : i32
    %s3 = arith.addi %s2, %b : i32
    %okr = arith.extui %ok16 : i1 to i32
    %s4 = arith.addi %s3, %okr : i32
    memref.store %s4, %out[%tid] : memref<?xi32>
    %fs = arith.addf %r16, %first : f32
    memref.store %fs, %fout[%tid] : memref<?xf32>
    memref.store %hs, %hout[%tid] : memref<?xf16>
    gpu.return
  }"""
)

CASES: tuple[Case, ...] = (
    Case("simple_mul", SIMPLE_MUL),
    Case("matmul", MATMUL, pre=("lower-affine", "convert-scf-to-cf")),
    Case("index_ops", INDEX_OPS),
    Case("index_ops_32", INDEX_OPS, options="index-bitwidth=32"),
    Case("shuffles", SHUFFLES),
    Case("all_reduce", ALL_REDUCE),
    Case("redux", REDUX, options="has-redux=true"),
    Case("printf", PRINTF),
    Case("attributions", ATTRIBUTIONS),
    Case("dynamic_shared", DYNAMIC_SHARED),
    Case("math", MATH),
    Case("math_vector", MATH_VECTOR),
    Case("signatures", SIGNATURES),
    Case("bare", BARE, options="use-bare-ptr-memref-call-conv=true"),
    Case("assert", ASSERT),
    Case("subgroup_reduce", SUBGROUP_REDUCE, upstream_fails=True),
    Case("redux_fallback", REDUX, upstream_fails=True),
    Case("beyond", BEYOND, upstream_fails=True),
)
