"""A Hopper tensor-core GEMM in MLIR's nvgpu dialect, written for given sizes.

``C[M][N] = A[M][K] * B[K][N]``: A and B row-major f16, C row-major f32. Each CTA
computes a 128 x 128w tile of C with w warpgroups (``warpgroups``, 1 or 2; 128 threads
each), warpgroup i the 128x128 block of columns 128i on, from the shared A slice:

* K is walked in 64-wide slices. A slice of A (128x64, 16 KiB) and of B (64x128w, as
  2w 64x64 TMA boxes, 16w KiB) go by TMA, 128-byte swizzled, into one of ``stages``
  buffers in dynamic shared memory; each buffer has its mbarrier, on which thread 0
  announces the bytes it expects and every thread waits (phase parity
  ``(slice / stages) % 2``).
* ``nvgpu.warpgroup.mma`` multiplies the buffer through wgmma descriptors (B is
  N-contiguous, hence ``transposeB``) into a 128x128 f32 accumulator in registers.
  With ``wait_group = 1`` a slice's wgmma group stays in flight while the next is
  issued, so the buffer freed after slice ``i`` is that of slice ``i - 1``; with 0
  each group is awaited and slice ``i``'s buffer is free at once.
* Once every thread is past its wait (``gpu.barrier``), thread 0 refills the free
  buffer with the slice ``stages`` further on: TMA runs ``stages - 1`` (or
  ``stages``) slices ahead of the tensor cores.
* ``nvgpu.warpgroup.mma.store`` writes the accumulator to C.
* CTAs are numbered in groups of ``group_m`` tile rows, column by column within a
  group, so that the CTAs resident at one time read fewer distinct A and B tiles.

The host side (``@gemm``) allocates nothing itself: it takes the three device
buffers, makes the two TMA descriptors (``nvgpu.tma.create.descriptor``) and
launches ``N/128w x M/128`` CTAs with ``stages * (16 + 16w) + 1`` KiB of dynamic
shared memory.
The benchmark launches the compiled kernel itself (``KERNEL_ARGUMENTS`` says what
its arguments are); the GPU test calls ``@gemm`` through the runtime.

    python3 benchmarks/nvgpu_gemm_kernel.py 8192 8192 8192 --stages 3 > gemm.mlir
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

TILE_M = 128
TILE_N = 128
TILE_K = 64
THREADS = 128  # one warpgroup
BOX = 64  # f16 elements in 128 bytes: the widest box 128-byte swizzling allows
A_BYTES = TILE_M * TILE_K * 2  # one A buffer
B_BYTES = TILE_K * TILE_N * 2  # one warpgroup's B buffer
ALIGNMENT_SLACK = 1024
"""Extra dynamic shared memory, so that the buffers can start 1024-byte aligned.

MLIR 22 lowers ``gpu.dynamic_shared_memory`` to a 16-byte aligned ``.shared``
variable, and ``nvgpu.mbarrier.create`` adds a static one: where ptxas places each
is its choice, and the dynamic bytes the launch asks for follow all static ones. The
kernel starts its buffers at the first 1024-byte boundary strictly past the variable's
shared address: at most 1024 bytes on, and past the few static bytes, so inside the
allocation whatever the order."""
KERNEL_ARGUMENTS = ("A's tensor map", "B's tensor map", "C")
"""The outlined kernel's arguments, in order (device pointers with
``kernel-bare-ptr-calling-convention=1``): the order of first use in the body."""


@dataclass(frozen=True)
class GemmConfig:
    m: int
    n: int
    k: int
    stages: int = 3
    wait_group: int = 1
    group_m: int = 1  # tile rows per raster group (1: row by row)
    warpgroups: int = 1  # each computes 128x128 of a 128 x (128 * warpgroups) tile

    def __post_init__(self) -> None:
        if self.warpgroups not in (1, 2):
            raise ValueError("warpgroups is 1 or 2")
        if self.m % TILE_M or self.n % self.tile_n or self.k % TILE_K:
            raise ValueError(
                f"sizes must be multiples of {TILE_M}x{self.tile_n}x{TILE_K}: "
                f"{self.m}x{self.n}x{self.k}"
            )
        if self.group_m < 1 or (self.m // TILE_M) % self.group_m:
            raise ValueError(
                f"group_m {self.group_m} does not divide {self.m // TILE_M} tile rows"
            )
        if self.wait_group not in (0, 1):
            raise ValueError("wait_group is 0 or 1")
        if not 2 <= self.stages <= 7 or self.k // TILE_K < self.stages:
            raise ValueError(
                f"{self.stages} stages for {self.k // TILE_K} K slices (2 to 7, "
                "at most one per slice)"
            )

    @property
    def grid(self) -> tuple[int, int, int]:
        return (self.n // self.tile_n, self.m // TILE_M, 1)

    @property
    def tile_n(self) -> int:
        return TILE_N * self.warpgroups

    @property
    def stage_bytes(self) -> int:
        return A_BYTES + B_BYTES * self.warpgroups

    @property
    def block(self) -> tuple[int, int, int]:
        return (THREADS * self.warpgroups, 1, 1)

    @property
    def shared_bytes(self) -> int:
        return self.stages * self.stage_bytes + ALIGNMENT_SLACK

    @property
    def name(self) -> str:
        return (
            f"{self.m}x{self.n}x{self.k}.s{self.stages}.w{self.wait_group}"
            f".g{self.group_m}" + (".wg2" if self.warpgroups == 2 else "")
        )


def gemm_mlir(config: GemmConfig) -> str:
    """The program: the types and ``@gemm`` (host side and kernel)."""
    m, n, k, stages = config.m, config.n, config.k, config.stages
    slices = k // TILE_K
    a_bytes = TILE_M * TILE_K * 2
    b_base = stages * a_bytes  # all A buffers first, then all B buffers
    b_stage = B_BYTES * config.warpgroups
    boxes = config.tile_n // BOX
    box_constants = "".join(
        f"\n      %k_box_bytes{j} = arith.constant {j * TILE_K * BOX * 2} : index"
        f"\n      %k_box_col{j} = arith.constant {j * BOX} : index"
        for j in range(boxes)
    )
    smem = "#gpu.address_space<workgroup>"
    refill = refill_after_slice(
        config.wait_group, _load_slice("%freed_stage", "%ahead", "          ", boxes)
    )
    prologue = _load_slice("%s", "%s", "          ", boxes).lstrip("\n")
    return f"""// Generated by benchmarks/nvgpu_gemm_kernel.py: {config.name}
// C = A * B, {m}x{k} f16 times {k}x{n} f16 into f32, 128x128 tiles, {stages} stages,
// wgmma wait_group {config.wait_group}, {config.shared_bytes} bytes of dynamic shared memory.
!bars = !nvgpu.mbarrier.group<memorySpace = {smem}, num_barriers = {stages}>
!mapA = !nvgpu.tensormap.descriptor<tensor = memref<{TILE_M}x{TILE_K}xf16, {smem}>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>
!mapB = !nvgpu.tensormap.descriptor<tensor = memref<{TILE_K}x{BOX}xf16, {smem}>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>
!descA = !nvgpu.warpgroup.descriptor<tensor = memref<{TILE_M}x{TILE_K}xf16, {smem}>>
!descB = !nvgpu.warpgroup.descriptor<tensor = memref<{TILE_K}x{TILE_N}xf16, {smem}>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<{TILE_M}x{TILE_N}xf32>>
!smem = memref<?xi8, {smem}>

module attributes {{gpu.container_module}} {{
  func.func @gemm(%d_a: memref<{m}x{k}xf16>, %d_b: memref<{k}x{n}xf16>, %d_c: memref<{m}x{n}xf32>) {{
    %c1 = arith.constant 1 : index
    %c_box = arith.constant {BOX} : index
    %c_tile_m = arith.constant {TILE_M} : index
    %c_tile_k = arith.constant {TILE_K} : index
    %grid_x = arith.constant {config.grid[0]} : index
    %grid_y = arith.constant {config.grid[1]} : index
    %c_threads = arith.constant {config.block[0]} : index
    %shared = arith.constant {config.shared_bytes} : i32
    %ua = memref.cast %d_a : memref<{m}x{k}xf16> to memref<*xf16>
    %ub = memref.cast %d_b : memref<{k}x{n}xf16> to memref<*xf16>
    %map_a = nvgpu.tma.create.descriptor %ua box[%c_tile_m, %c_tile_k] : memref<*xf16> -> !mapA
    %map_b = nvgpu.tma.create.descriptor %ub box[%c_tile_k, %c_box] : memref<*xf16> -> !mapB
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %grid_x, %gy = %grid_y, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c_threads, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %shared {{
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %k2 = arith.constant 2 : index
      %k_tile = arith.constant {TILE_M} : index
      %c_tile_k_in = arith.constant {TILE_K} : index
      %k_stages = arith.constant {stages} : index
      %k_slices = arith.constant {slices} : index
      %false = arith.constant false
      %ticks = arith.constant 10000000 : index
      %k_a_bytes = arith.constant {a_bytes} : index
      %b_offset0 = arith.constant {b_base} : index
      %k_stage_bytes = arith.constant {config.stage_bytes} : index
      %k_b_stage = arith.constant {b_stage} : index
      %k_b_bytes = arith.constant {B_BYTES} : index
      %k_tile_n = arith.constant {config.tile_n} : index
      %k_wg_threads = arith.constant {THREADS} : index{box_constants}
      // Warpgroup %wg multiplies B's columns [128 %wg, 128 %wg + 128) of the tile.
      %wg = arith.divui %tx, %k_wg_threads : index
      // First uses in this order: the kernel's arguments are A's map, B's map, C.
      %first = arith.cmpi eq, %tx, %k0 : index
      scf.if %first {{
        nvgpu.tma.prefetch.descriptor %map_a : !mapA
        nvgpu.tma.prefetch.descriptor %map_b : !mapB
      }}
      // Grouped raster: consecutive CTAs take group_m tile rows column by column,
      // so that the CTAs resident together share A and B tiles in L2.
      %k_group = arith.constant {config.group_m} : index
      %k_per_group = arith.constant {config.group_m * config.grid[0]} : index
      %pid_row = arith.muli %by, %gx : index
      %pid = arith.addi %pid_row, %bx : index
      %group = arith.divui %pid, %k_per_group : index
      %first_m = arith.muli %group, %k_group : index
      %in_group = arith.remui %pid, %k_per_group : index
      %m_in_group = arith.remui %in_group, %k_group : index
      %tile_m = arith.addi %first_m, %m_in_group : index
      %tile_n = arith.divui %in_group, %k_group : index
      %row = arith.muli %tile_m, %k_tile : index
      %col = arith.muli %tile_n, %k_tile_n : index
      %wg_cols = arith.muli %wg, %k_tile : index
      %wg_col = arith.addi %col, %wg_cols : index
      %smem = gpu.dynamic_shared_memory : !smem
      // The buffers start at the first 1024-byte boundary past the shared address of
      // %smem (128-byte swizzling repeats every 1024 bytes; wgmma descriptors have
      // base offset 0): see ALIGNMENT_SLACK.
      %k_align = arith.constant {ALIGNMENT_SLACK} : index
      %smem_at = memref.extract_aligned_pointer_as_index %smem : !smem -> index
      %misalign = arith.remui %smem_at, %k_align : index
      %pad = arith.subi %k_align, %misalign : index
      %barriers = nvgpu.mbarrier.create -> !bars
      scf.if %first {{
        scf.for %s = %k0 to %k_stages step %k1 {{
          nvgpu.mbarrier.init %barriers[%s], %k1 : !bars
        }}
      }}
      gpu.barrier
      // Prologue: every buffer gets its slice.
      scf.if %first {{
        scf.for %s = %k0 to %k_stages step %k1 {{
{prologue}
        }}
      }}
      %zero = nvgpu.warpgroup.mma.init.accumulator -> !acc
      %result = scf.for %i = %k0 to %k_slices step %k1 iter_args(%sum = %zero) -> (!acc) {{
        %stage = arith.remui %i, %k_stages : index
        %round = arith.divui %i, %k_stages : index
        %odd = arith.remui %round, %k2 : index
        %parity = arith.cmpi ne, %odd, %k0 : index
        nvgpu.mbarrier.try_wait.parity %barriers[%stage], %parity, %ticks : !bars
        %a_rel = arith.muli %stage, %k_a_bytes : index
        %a_offset = arith.addi %pad, %a_rel : index
        %b_rel = arith.muli %stage, %k_b_stage : index
        %b_stage_at = arith.addi %b_offset0, %b_rel : index
        %b_at_pad = arith.addi %b_stage_at, %pad : index
        %wg_b = arith.muli %wg, %k_b_bytes : index
        %b_offset = arith.addi %b_at_pad, %wg_b : index
        %tile_a = memref.view %smem[%a_offset][] : !smem to memref<{TILE_M}x{TILE_K}xf16, {smem}>
        %tile_b = memref.view %smem[%b_offset][] : !smem to memref<{TILE_K}x{TILE_N}xf16, {smem}>
        %da = nvgpu.warpgroup.generate.descriptor %tile_a, %map_a : memref<{TILE_M}x{TILE_K}xf16, {smem}>, !mapA -> !descA
        %db = nvgpu.warpgroup.generate.descriptor %tile_b, %map_b : memref<{TILE_K}x{TILE_N}xf16, {smem}>, !mapB -> !descB
        %next = nvgpu.warpgroup.mma %da, %db, %sum {{transposeB, waitGroup = {config.wait_group}}} : !descA, !descB, !acc -> !acc
        gpu.barrier{refill}
        scf.yield %next : !acc
      }}
      nvvm.wgmma.wait.group.sync.aligned 0
      // nvgpu.warpgroup.mma.store places rows by %tid.x / 32 (MLIR 22's lowering,
      // and ours): threads 128-255 land 64 rows lower, so warpgroup 1's view of C
      // starts 64 rows higher.
      %k_wg_rows = arith.constant 64 : index
      %wg_shift = arith.muli %wg, %k_wg_rows : index
      %store_row = arith.subi %row, %wg_shift : index
      %c_tile = memref.subview %d_c[%store_row, %wg_col] [{TILE_M}, {TILE_N}] [1, 1] : memref<{m}x{n}xf32> to memref<{TILE_M}x{TILE_N}xf32, strided<[{n}, 1], offset: ?>>
      nvgpu.warpgroup.mma.store %result, %c_tile : !acc to memref<{TILE_M}x{TILE_N}xf32, strided<[{n}, 1], offset: ?>>
      gpu.terminator
    }}
    return
  }}
}}
"""


def refill_after_slice(lag: int, load: str) -> str:
    """Thread 0's refill at the end of K slice ``%i``: the buffer freed is that of
    slice ``%i - lag`` (``lag`` 1 while a wgmma group stays in flight), refilled
    with the slice ``stages`` further on (``%ahead``) by ``load`` (its lines, which
    use ``%freed_stage``), if there is one."""
    if lag:
        wanted = """
        %started = arith.cmpi uge, %i, %k1 : index
        %wanted = arith.andi %started, %in_range : i1"""
    else:
        wanted = """
        %wanted = arith.ori %in_range, %false : i1"""
    return f"""
        %freed = arith.subi %i, %k{lag} : index
        %ahead = arith.addi %freed, %k_stages : index
        %in_range = arith.cmpi ult, %ahead, %k_slices : index{wanted}
        %issue = arith.andi %first, %wanted : i1
        scf.if %issue {{
          %freed_stage = arith.remui %freed, %k_stages : index{load}
        }}"""


def _load_slice(stage: str, slice_: str, indent: str, boxes: int) -> str:
    """Thread 0's part of filling buffer ``stage`` with K slice ``slice_``: the
    mbarrier expects the stage's bytes, TMA copies of A's 128x64 box and of
    ``boxes`` 64x64 boxes of B deliver them."""
    smem = "#gpu.address_space<workgroup>"
    box_b = f"memref<{TILE_K}x{BOX}xf16, {smem}>"
    lines = f"""
%a_from = arith.muli {stage}, %k_a_bytes : index
%a_at = arith.addi %pad, %a_from : index
%b_from = arith.muli {stage}, %k_b_stage : index
%b_base = arith.addi %b_offset0, %b_from : index
%b_at = arith.addi %pad, %b_base : index
%dst_a = memref.view %smem[%a_at][] : !smem to memref<{TILE_M}x{TILE_K}xf16, {smem}>
%kk = arith.muli {slice_}, %c_tile_k_in : index
nvgpu.mbarrier.arrive.expect_tx %barriers[{stage}], %k_stage_bytes : !bars
nvgpu.tma.async.load %map_a[%kk, %row], %barriers[{stage}] to %dst_a : !mapA, !bars -> memref<{TILE_M}x{TILE_K}xf16, {smem}>"""
    for j in range(boxes):
        lines += f"""
%b_at{j} = arith.addi %b_at, %k_box_bytes{j} : index
%col{j} = arith.addi %col, %k_box_col{j} : index
%dst_b{j} = memref.view %smem[%b_at{j}][] : !smem to {box_b}
nvgpu.tma.async.load %map_b[%col{j}, %kk], %barriers[{stage}] to %dst_b{j} : !mapB, !bars -> {box_b}"""
    return "".join(f"\n{indent}{line}" for line in lines.strip().splitlines())


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("m", type=int)
    parser.add_argument("n", type=int)
    parser.add_argument("k", type=int)
    parser.add_argument("--stages", type=int, default=3)
    parser.add_argument("--wait-group", type=int, default=1)
    parser.add_argument("--group-m", type=int, default=1)
    parser.add_argument("--warpgroups", type=int, default=1)
    args = parser.parse_args()
    config = GemmConfig(
        args.m, args.n, args.k, args.stages, args.wait_group, args.group_m,
        args.warpgroups,
    )  # fmt: skip
    print(gemm_mlir(config), end="")


if __name__ == "__main__":
    main()
