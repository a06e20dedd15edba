"""A Hopper wgmma GEMM with K-major operands in MLIR's nvgpu dialect, for given sizes
and element types: FP8 (e4m3, e5m2) or f16.

A (M x K) and B (N x K) are both row-major with K innermost ("K-major": the only
layout wgmma takes for 8-bit inputs, and its native one for 16-bit inputs; B is
given transposed, as ``torch._scaled_mm`` takes its second operand column-major), the
products summed in f32:

* FP8 (``dtype`` ``e4m3``: ``f8E4M3FN``; ``e5m2``: ``f8E5M2``):
  ``C = bf16(scale_a * scale_b * (A @ B^T))``, the two per-tensor scales
  (``scales[0]``, ``scales[1]``, f32 in device memory) applied in the epilogue, C
  row-major bf16;
* ``f16``: ``C = A @ B^T``, C row-major f32.

Every size below that is given in bytes is the same for both widths: a K slice is
128 bytes of a row (128 FP8 or 64 f16 elements), a wgmma k step 32 bytes (k32 or
k16).

Each CTA computes a 128 x ``tile_n`` tile of C (``tile_n`` 128 or 256) with
``warpgroups`` warpgroups (1 or 2, 128 threads each):

* K is walked in 128-byte slices (the 128-byte swizzle span). The A slice
  (128 rows, 16 KiB) and the B slice (``tile_n`` rows) go by TMA, one box each,
  128-byte swizzled, into one of ``stages`` buffers in dynamic shared memory with
  its mbarrier (thread 0 expects the bytes, every thread waits on the parity).
* The tile's two 64-row blocks: warpgroup ``g`` owns blocks ``g, g + warpgroups``
  (both with one warpgroup, one each with two), and one ``64 x tile_n`` f32
  accumulator in registers for each.
  Every (block, 32-byte k step) is one ``nvgpu.warpgroup.mma`` of one wgmma
  instruction (m64 n``tile_n`` k32 or k16), whose descriptors point into the swizzled
  buffers: a k step moves both start addresses 32 bytes along the 128-byte rows,
  a block moves A's by 64 rows. The op's lowering would step through a larger tile
  itself, but MLIR 22's strides are those of a 16-bit 128x64 tile (A's next 64
  rows at ``K * K`` bytes, B's next k step ``rows_B * k`` bytes on, as for
  N-major B), wrong for 1-byte elements and for K-major B: one instruction per op
  leaves nothing for it to step.
* Each op commits its wgmma as a group and waits until at most ``wgmma_wait``
  groups are pending (0 to the ops of a slice); with ``wgmma_wait > 0`` the buffer
  freed after slice ``i`` is that of slice ``i - 1``, which thread 0 refills (after
  a ``gpu.barrier``) with the slice ``stages`` further on.
* Epilogue: once every wgmma is done, ``nvgpu.warpgroup.mma.store`` writes the
  accumulators into shared memory (f32, rows padded by 8 floats against bank
  conflicts; the pipeline buffers are reused), then every thread reads 4 floats at
  a time and stores them to C, coalesced: FP8 multiplies them by
  ``scale_a * scale_b`` and converts them to bf16 (``arith.truncf``, 8-byte
  stores), f16 stores the f32 sums (16-byte stores).
* CTAs are numbered in groups of ``group_m`` tile rows, as in
  ``nvgpu_gemm_kernel.py``.

The host side (``@gemm``) takes FP8 A and B as ``ui8`` memrefs, the bytes of the
values: ``nvgpu.tma.create.descriptor`` gives a tensor map the data type of its
element type, and MLIR 22 gives ``f8E4M3FN`` that of bf16 (2-byte elements: the
copies would be wrong) while ``ui8`` gives UINT8. The FP8 type is the wgmma
descriptors' element type, which is what selects ``.e4m3``/``.e5m2`` in the
instruction. f16 A and B are ``f16`` memrefs.
It makes the two tensor maps and launches ``N/tile_n x M/128`` CTAs.
The benchmark launches the compiled kernel itself (``KERNEL_ARGUMENTS`` says what
its arguments are); the GPU test calls ``@gemm`` through the runtime.

    python3 benchmarks/wgmma_gemm_kernel.py 8192 8192 8192 --stages 4 > fp8_gemm.mlir
    python3 benchmarks/wgmma_gemm_kernel.py 8192 8192 8192 --dtype f16 > f16_gemm.mlir
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from nvgpu_gemm_kernel import ALIGNMENT_SLACK, refill_after_slice

TILE_M = 128
SLICE_BYTES = 128  # of a row per K slice: the widest box 128-byte swizzling allows
BLOCK_M = 64  # rows of one wgmma
STEP_BYTES = 32  # of a swizzled row per wgmma k step (k32 for FP8, k16 for f16)
THREADS = 128  # one warpgroup
A_BYTES = TILE_M * SLICE_BYTES  # one A buffer


@dataclass(frozen=True)
class Element:
    """An input element type: its MLIR type, its tensor maps' element type, its
    width; and C's element type."""

    mlir: str
    map_type: str
    width: int  # bytes
    c_type: str

    @property
    def slice_k(self) -> int:
        """K of one slice, in elements."""
        return SLICE_BYTES // self.width

    @property
    def step_k(self) -> int:
        """k of one wgmma instruction."""
        return STEP_BYTES // self.width

    @property
    def scaled(self) -> bool:
        """FP8: per-tensor scales, bf16 out."""
        return self.width == 1


ELEMENTS = {
    "e4m3": Element("f8E4M3FN", "ui8", 1, "bf16"),
    "e5m2": Element("f8E5M2", "ui8", 1, "bf16"),
    "f16": Element("f16", "f16", 2, "f32"),
}
EPILOGUE_PAD = 8
"""Floats of padding per row of the epilogue's f32 tile: the accumulator layout
stores 8 rows x 4 column pairs per warp instruction, which an unpadded row of a
multiple of 32 floats would put in 8 banks."""
MAX_SHARED = 227 * 1024  # the most dynamic shared memory a Hopper CTA can have
KERNEL_ARGUMENTS = ("A's tensor map", "B's tensor map", "scales", "C")
"""The outlined kernel's arguments, in order (device pointers with
``kernel-bare-ptr-calling-convention=1``): the order of first use in the body.
f16 has no scales."""


@dataclass(frozen=True)
class WgmmaGemmConfig:
    m: int
    n: int
    k: int
    stages: int = 4
    wgmma_wait: int = 1  # wgmma groups (one instruction each) left pending
    group_m: int = 1  # tile rows per raster group (1: row by row)
    warpgroups: int = 2
    tile_n: int = 256
    dtype: str = "e4m3"  # a key of ELEMENTS
    producer: bool = False  # a producer warpgroup issues the TMA copies
    cluster_m: int = 1  # CTAs of a cluster (along M) that share B's slices

    def __post_init__(self) -> None:
        if self.dtype not in ELEMENTS:
            raise ValueError(f"dtype is one of {', '.join(ELEMENTS)}, not {self.dtype}")
        if self.warpgroups not in (1, 2):
            raise ValueError("warpgroups is 1 or 2")
        if self.tile_n not in (128, 256):
            raise ValueError("tile_n is 128 or 256")
        if self.blocks * self.tile_n // 2 > 128:
            raise ValueError(
                f"{self.blocks} accumulators of 64x{self.tile_n} f32 per warpgroup "
                "take more than 128 registers a thread: use 2 warpgroups or tile_n 128"
            )
        slice_k = self.element.slice_k
        if self.m % TILE_M or self.n % self.tile_n or self.k % slice_k:
            raise ValueError(
                f"sizes must be multiples of {TILE_M}x{self.tile_n}x{slice_k}: "
                f"{self.m}x{self.n}x{self.k}"
            )
        if self.cluster_m not in (1, 2):
            raise ValueError("cluster_m is 1 or 2")
        if self.cluster_m > 1 and self.producer:
            raise ValueError("clusters are written for the kernel without a producer")
        rows = self.m // (TILE_M * self.cluster_m)
        if self.m % (TILE_M * self.cluster_m):
            raise ValueError(
                f"M {self.m} is not a multiple of {TILE_M * self.cluster_m}"
            )
        if self.group_m < 1 or rows % self.group_m:
            unit = "tile rows" if self.cluster_m == 1 else "rows of clusters"
            raise ValueError(f"group_m {self.group_m} does not divide {rows} {unit}")
        if not 0 <= self.wgmma_wait <= self.ops_per_slice:
            raise ValueError(
                f"wgmma_wait is 0 to {self.ops_per_slice} (the wgmma of one slice)"
            )
        if not 2 <= self.stages <= 7 or self.k // slice_k < self.stages:
            raise ValueError(
                f"{self.stages} stages for {self.k // slice_k} K slices (2 to 7, "
                "at most one per slice)"
            )
        if self.shared_bytes > MAX_SHARED:
            raise ValueError(
                f"{self.stages} stages need {self.shared_bytes} bytes of shared "
                f"memory, more than {MAX_SHARED}"
            )

    @property
    def element(self) -> Element:
        return ELEMENTS[self.dtype]

    @property
    def blocks(self) -> int:
        """64-row blocks (accumulators) per warpgroup."""
        return TILE_M // BLOCK_M // self.warpgroups

    @property
    def ops_per_slice(self) -> int:
        return self.blocks * (SLICE_BYTES // STEP_BYTES)

    @property
    def grid(self) -> tuple[int, int, int]:
        return (self.n // self.tile_n, self.m // TILE_M, 1)

    @property
    def block(self) -> tuple[int, int, int]:
        return (THREADS * (self.warpgroups + self.producer), 1, 1)

    @property
    def b_bytes(self) -> int:
        return self.tile_n * SLICE_BYTES

    @property
    def stage_bytes(self) -> int:
        return A_BYTES + self.b_bytes

    @property
    def epilogue_bytes(self) -> int:
        return TILE_M * (self.tile_n + EPILOGUE_PAD) * 4

    @property
    def shared_bytes(self) -> int:
        pipeline = self.stages * self.stage_bytes
        return max(pipeline, self.epilogue_bytes) + ALIGNMENT_SLACK

    @property
    def name(self) -> str:
        name = (
            f"{self.m}x{self.n}x{self.k}.s{self.stages}.w{self.wgmma_wait}"
            f".g{self.group_m}.wg{self.warpgroups}.n{self.tile_n}"
        )
        if self.producer:
            name += ".ws"
        if self.cluster_m > 1:
            name += f".c{self.cluster_m}"
        # e4m3 keeps the names it had when it was the only element type.
        return name if self.dtype == "e4m3" else f"{name}.{self.dtype}"


def wgmma_gemm_mlir(config: WgmmaGemmConfig) -> str:
    """The program: the types and ``@gemm`` (host side and kernel)."""
    m, n, k, stages = config.m, config.n, config.k, config.stages
    tile_n, warpgroups = config.tile_n, config.warpgroups
    element = config.element
    elt, map_elt, c_elt = element.mlir, element.map_type, element.c_type
    slice_k, steps = element.slice_k, SLICE_BYTES // STEP_BYTES
    slices = k // slice_k
    b_base = stages * A_BYTES  # all A buffers first, then all B buffers
    smem = "#gpu.address_space<workgroup>"
    accs = [f"%acc{j}" for j in range(config.blocks)]
    results = [
        f"%result#{j}" if config.blocks > 1 else "%result" for j in range(len(accs))
    ]
    # The buffer refilled after the wgmma of slice %i is that of slice %i - lag.
    lag = 1 if config.wgmma_wait else 0
    refill = refill_after_slice(
        lag,
        _load_slice(
            "%freed_stage", "%ahead", "          ", tile_n, element, config.cluster_m
        ),
    )
    prologue = _load_slice(
        "%s", "%s", "          ", tile_n, element, config.cluster_m
    ).lstrip("\n")
    mma = ""
    for step in range(steps):
        mma += f"""{_offset(f"%b_k{step}", f"%k_step{step}", step)}
        %tile_b{step} = memref.view %smem[{f"%b_k{step}" if step else "%b_offset"}][] : !smem to !tileB
        %db{step} = nvgpu.warpgroup.generate.descriptor %tile_b{step}, %map_b : !tileB, !mapB -> !descB"""
        for j, acc in enumerate(accs):
            name = f"{j}_{step}"
            mma += f"""{_offset(f"%a_at{name}", f"%k_a_step{name}", j + step, "%a_offset")}
        %tile_a{name} = memref.view %smem[{f"%a_at{name}" if j + step else "%a_offset"}][] : !smem to !tileA
        %da{name} = nvgpu.warpgroup.generate.descriptor %tile_a{name}, %map_a : !tileA, !mapA -> !descA
        {acc}_{step} = nvgpu.warpgroup.mma %da{name}, %db{step}, {_acc_in(acc, step)} {{waitGroup = {config.wgmma_wait}}} : !descA, !descB, !acc -> !acc"""
    last = steps - 1
    step_constants = "".join(
        f"\n      %k_step{step} = arith.constant {step * STEP_BYTES} : index"
        for step in range(steps)
        if step
    ) + "".join(
        f"\n      %k_a_step{j}_{step} = arith.constant "
        f"{j * warpgroups * BLOCK_M * SLICE_BYTES + step * STEP_BYTES} : index"
        for j in range(config.blocks)
        for step in range(steps)
        if j or step
    )
    pitch = tile_n + EPILOGUE_PAD
    stores = "".join(
        f"""
      %c_block{j} = memref.subview %c_tile[{j * warpgroups * BLOCK_M}, 0] [{BLOCK_M}, {tile_n}] [1, 1] : memref<{TILE_M}x{pitch}xf32, {smem}> to memref<{BLOCK_M}x{tile_n}xf32, strided<[{pitch}, 1], offset: {j * warpgroups * BLOCK_M * pitch}>, {smem}>
      nvgpu.warpgroup.mma.store {result}, %c_block{j} : !acc to memref<{BLOCK_M}x{tile_n}xf32, strided<[{pitch}, 1], offset: {j * warpgroups * BLOCK_M * pitch}>, {smem}>"""
        for j, result in enumerate(results)
    )
    acc_types = ", ".join("!acc" for _ in accs)
    iter_args = ", ".join(f"{acc} = %zero" for acc in accs)
    yields = ", ".join(f"{acc}_{last}" for acc in accs)
    if element.scaled:
        product = f"C = bf16(scale_a * scale_b * A * B^T), {m}x{k} {config.dtype} times ({n}x{k} {config.dtype})^T"
        scales_argument = ", %d_scales: memref<2xf32>"
        scales = """      %scale_a = memref.load %d_scales[%k0] : memref<2xf32>
      %scale_b = memref.load %d_scales[%k1] : memref<2xf32>
      %scale = arith.mulf %scale_a, %scale_b : f32
"""
        broadcast = """      %scales = vector.broadcast %scale : f32 to vector<4xf32>
"""
        convert = f"""        %scaled = arith.mulf %sum, %scales : vector<4xf32>
        %out = arith.truncf %scaled : vector<4xf32> to vector<4x{c_elt}>
"""
        out, store_alignment = "%out", 8
    else:
        product = (
            f"C = A * B^T, {m}x{k} {config.dtype} times ({n}x{k} {config.dtype})^T"
        )
        scales_argument = scales = broadcast = convert = ""
        out, store_alignment = "%sum", 16
    if config.cluster_m > 1:
        clusters = (
            "clusters(%cx, %cy, %cz) in (%csx = %c1, %csy = %c_cluster_m, %csz = %c1)\n"
            "               "
        )
        box_n = f"""
    %c_cluster_m = arith.constant {config.cluster_m} : index
    %c_box_n = arith.constant {tile_n // config.cluster_m} : index"""
        multicast = f"""
      // This CTA's half of each B slice: rows (and bytes) a rank further on, sent
      // to both CTAs of the cluster.
      %k_b_half_rows = arith.constant {tile_n // 2} : index
      %k_b_half_bytes = arith.constant {tile_n // 2 * SLICE_BYTES} : index
      %b_half_rows = arith.muli %rank, %k_b_half_rows : index
      %col_b = arith.addi %col, %b_half_rows : index
      %b_half_at = arith.muli %rank, %k_b_half_bytes : index
      %cluster_mask = arith.constant 3 : i16"""
        rank = """
      %rank = arith.remui %by, %k2 : index"""
    else:
        clusters = multicast = rank = box_n = ""
    box_n_name = "%c_box_n" if config.cluster_m > 1 else "%c_tile_n"
    first_uses = ", ".join(
        a for a in KERNEL_ARGUMENTS if element.scaled or a != "scales"
    )
    c_tile = (
        f"%c_tile = memref.view %smem[%pad][] : !smem to "
        f"memref<{TILE_M}x{pitch}xf32, {smem}>"
    )
    result_list = f"%result{':' + str(config.blocks) if config.blocks > 1 else ''}"
    wait_full = """
        %stage = arith.remui %i, %k_stages : index
        %round = arith.divui %i, %k_stages : index
        %odd = arith.remui %round, %k2 : index
        %parity = arith.cmpi ne, %odd, %k0 : index
        nvgpu.mbarrier.try_wait.parity %barriers[%stage], %parity, %ticks : !bars
        %a_rel = arith.muli %stage, %k_a_bytes : index
        %a_stage_at = arith.addi %pad, %a_rel : index
        %a_offset = arith.addi %a_stage_at, %wg_rows : index
        %b_rel = arith.muli %stage, %k_b_bytes : index
        %b_stage_at = arith.addi %b_rel, %b_offset0 : index
        %b_offset = arith.addi %b_stage_at, %pad : index"""
    # With a cluster, a CTA's copies of B land in both CTAs' buffers: a buffer is
    # refilled once every CTA of the cluster is done with it, and the barriers
    # must be initialized cluster-wide before the first copy.
    slice_barrier = "gpu.barrier"
    initialized = "gpu.barrier"
    if config.cluster_m > 1:
        slice_barrier = "nvvm.cluster.arrive\n        nvvm.cluster.wait"
        initialized = "nvvm.fence.mbarrier.init\n      nvvm.cluster.arrive\n      nvvm.cluster.wait"
    if not config.producer:
        main = f"""
      %barriers = nvgpu.mbarrier.create -> !bars
      scf.if %first {{
        scf.for %s = %k0 to %k_stages step %k1 {{
          nvgpu.mbarrier.init %barriers[%s], %k1 : !bars
        }}
      }}
      {initialized}
      // Prologue: every buffer gets its slice.
      scf.if %first {{
        scf.for %s = %k0 to %k_stages step %k1 {{
{prologue}
        }}
      }}
      %zero = nvgpu.warpgroup.mma.init.accumulator -> !acc
      {result_list} = scf.for %i = %k0 to %k_slices step %k1 iter_args({iter_args}) -> ({acc_types}) {{{wait_full}{mma}
        {slice_barrier}{refill}
        scf.yield {yields} : {acc_types}
      }}
      nvvm.wgmma.wait.group.sync.aligned 0
      // Every warpgroup is done with the buffers: the epilogue reuses them.
      gpu.barrier
      // nvgpu.warpgroup.mma.store places rows by %tid.x / 32: warpgroup g's block
      // lands 64 g rows down, on its own rows.
      {c_tile}{stores}"""
    else:
        main = _warp_specialized(
            config,
            prologue=_load_slice("%stage", "%i", "            ", tile_n, element),
            loop=f"""
        {result_list} = scf.for %i = %k0 to %k_slices step %k1 iter_args({iter_args}) -> ({acc_types}) {{{wait_full.replace(chr(10) + "        ", chr(10) + "          ")}{mma.replace(chr(10) + "        ", chr(10) + "          ")}{_release(lag)}
          scf.yield {yields} : {acc_types}
        }}""",
            c_tile=c_tile,
            stores=stores.replace("\n      ", "\n        "),
        )
    return f"""// Generated by benchmarks/wgmma_gemm_kernel.py: {config.name}
// {product}, f32 sums,
// 128x{tile_n} tiles, {warpgroups} warpgroup(s), {stages} stages, wgmma wait {config.wgmma_wait},
// {config.shared_bytes} bytes of dynamic shared memory.
!bars = !nvgpu.mbarrier.group<memorySpace = {smem}, num_barriers = {stages * (1 + config.producer)}>
!mapA = !nvgpu.tensormap.descriptor<tensor = memref<{TILE_M}x{slice_k}x{map_elt}, {smem}>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>
!mapB = !nvgpu.tensormap.descriptor<tensor = memref<{tile_n // config.cluster_m}x{slice_k}x{map_elt}, {smem}>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>
!tileA = memref<{BLOCK_M}x{element.step_k}x{elt}, {smem}>
!tileB = memref<{element.step_k}x{tile_n}x{elt}, {smem}>
!descA = !nvgpu.warpgroup.descriptor<tensor = !tileA>
!descB = !nvgpu.warpgroup.descriptor<tensor = !tileB>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<{BLOCK_M}x{tile_n}xf32>>
!smem = memref<?xi8, {smem}>

module attributes {{gpu.container_module}} {{
  func.func @gemm(%d_a: memref<{m}x{k}x{map_elt}>, %d_b: memref<{n}x{k}x{map_elt}>{scales_argument}, %d_c: memref<{m}x{n}x{c_elt}>) {{
    %c1 = arith.constant 1 : index
    %c_tile_m = arith.constant {TILE_M} : index
    %c_tile_n = arith.constant {tile_n} : index{box_n}
    %c_tile_k = arith.constant {slice_k} : index
    %grid_x = arith.constant {config.grid[0]} : index
    %grid_y = arith.constant {config.grid[1]} : index
    %c_threads = arith.constant {config.block[0]} : index
    %shared = arith.constant {config.shared_bytes} : i32
    %ua = memref.cast %d_a : memref<{m}x{k}x{map_elt}> to memref<*x{map_elt}>
    %ub = memref.cast %d_b : memref<{n}x{k}x{map_elt}> to memref<*x{map_elt}>
    %map_a = nvgpu.tma.create.descriptor %ua box[%c_tile_m, %c_tile_k] : memref<*x{map_elt}> -> !mapA
    %map_b = nvgpu.tma.create.descriptor %ub box[{box_n_name}, %c_tile_k] : memref<*x{map_elt}> -> !mapB
    gpu.launch {clusters}blocks(%bx, %by, %bz) in (%gx = %grid_x, %gy = %grid_y, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c_threads, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %shared {{
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %k2 = arith.constant 2 : index
      %k4 = arith.constant 4 : index
      %k_tile = arith.constant {TILE_M} : index
      %c_tile_k_in = arith.constant {slice_k} : index
      %k_stages = arith.constant {stages} : index
      %k_slices = arith.constant {slices} : index
      %false = arith.constant false
      %ticks = arith.constant 10000000 : index
      %k_a_bytes = arith.constant {A_BYTES} : index
      %b_offset0 = arith.constant {b_base} : index
      %k_stage_bytes = arith.constant {config.stage_bytes} : index
      %k_b_bytes = arith.constant {config.b_bytes} : index
      %k_block_bytes = arith.constant {BLOCK_M * SLICE_BYTES} : index
      %k_tile_n = arith.constant {tile_n} : index
      %k_wg_threads = arith.constant {THREADS} : index{step_constants}
      // Warpgroup %wg multiplies the 64-row blocks %wg, %wg + {warpgroups}, ... of the tile.
      %wg = arith.divui %tx, %k_wg_threads : index
      // First uses in this order: the kernel's arguments are {first_uses}.
      %first = arith.cmpi eq, %tx, %k0 : index
      scf.if %first {{
        nvgpu.tma.prefetch.descriptor %map_a : !mapA
        nvgpu.tma.prefetch.descriptor %map_b : !mapB
      }}
{scales}{rank}{_raster(config.group_m, config.grid[0], config.cluster_m)}{multicast}
      %smem = gpu.dynamic_shared_memory : !smem
      // The buffers start at the first 1024-byte boundary past the shared address of
      // %smem (see nvgpu_gemm_kernel.ALIGNMENT_SLACK).
      %k_align = arith.constant {ALIGNMENT_SLACK} : index
      %smem_at = memref.extract_aligned_pointer_as_index %smem : !smem -> index
      %misalign = arith.remui %smem_at, %k_align : index
      %pad = arith.subi %k_align, %misalign : index
      %wg_rows = arith.muli %wg, %k_block_bytes : index
{main.lstrip(chr(10))}
      gpu.barrier
      %k_vectors = arith.constant {TILE_M * tile_n // 4} : index
      %k_row_vectors = arith.constant {tile_n // 4} : index
{broadcast}      scf.for %v = %tx to %k_vectors step %sx {{
        %r = arith.divui %v, %k_row_vectors : index
        %q = arith.remui %v, %k_row_vectors : index
        %c = arith.muli %q, %k4 : index
        %sum = vector.load %c_tile[%r, %c] {{alignment = 16}} : memref<{TILE_M}x{pitch}xf32, {smem}>, vector<4xf32>
{convert}        %out_row = arith.addi %row, %r : index
        %out_col = arith.addi %col, %c : index
        vector.store {out}, %d_c[%out_row, %out_col] {{alignment = {store_alignment}}} : memref<{m}x{n}x{c_elt}>, vector<4x{c_elt}>
      }}
      gpu.terminator
    }}
    return
  }}
}}
"""


def _warp_specialized(
    config: WgmmaGemmConfig, prologue: str, loop: str, c_tile: str, stores: str
) -> str:
    """The kernel's pipeline with a producer warpgroup (the last one) that issues
    every TMA copy while the consumer warpgroups only wait and multiply.

    Barriers ``0 .. stages-1`` say a buffer is *full* (thread 0 of the producer
    expects its bytes, the copies deliver them); barriers ``stages ..`` say it is
    *empty* again (the first thread of each consumer warpgroup arrives once the
    warpgroup's wgmma no longer read it). The
    producer gives its registers to the consumers (``nvvm.setmaxregister``): with
    three warpgroups, 40 + 2 x 232 per thread fit the 64 K register file. After
    their last wgmma the consumers (alone: a named barrier) reuse the buffers for
    the epilogue's tile."""
    consumers = THREADS * config.warpgroups
    return f"""
      %barriers = nvgpu.mbarrier.create -> !bars
      %k_consumers = arith.constant {consumers} : index
      %k_warpgroups = arith.constant {config.warpgroups} : index
      scf.if %first {{
        scf.for %s = %k0 to %k_stages step %k1 {{
          nvgpu.mbarrier.init %barriers[%s], %k1 : !bars
          %empty = arith.addi %s, %k_stages : index
          nvgpu.mbarrier.init %barriers[%empty], %k_warpgroups : !bars
        }}
      }}
      gpu.barrier
      {c_tile}
      %producer = arith.cmpi uge, %tx, %k_consumers : index
      scf.if %producer {{
        nvvm.setmaxregister decrease 40
        %leader = arith.cmpi eq, %tx, %k_consumers : index
        scf.if %leader {{
          scf.for %i = %k0 to %k_slices step %k1 {{
            %stage = arith.remui %i, %k_stages : index
            // From the second round on, wait until the consumers emptied the buffer.
            %again = arith.cmpi uge, %i, %k_stages : index
            scf.if %again {{
              %round = arith.divui %i, %k_stages : index
              %before = arith.subi %round, %k1 : index
              %odd = arith.remui %before, %k2 : index
              %parity = arith.cmpi ne, %odd, %k0 : index
              %empty = arith.addi %stage, %k_stages : index
              nvgpu.mbarrier.try_wait.parity %barriers[%empty], %parity, %ticks : !bars
            }}{prologue}
          }}
        }}
      }} else {{
        nvvm.setmaxregister increase 232
        // The first thread of each consumer warpgroup speaks for it on the empty
        // barriers: the wgmma it waited for were the whole warpgroup's.
        %in_wg = arith.remui %tx, %k_wg_threads : index
        %wg_first = arith.cmpi eq, %in_wg, %k0 : index
        %zero = nvgpu.warpgroup.mma.init.accumulator -> !acc{loop}
        nvvm.wgmma.wait.group.sync.aligned 0
        // Both consumer warpgroups are done with the buffers (every copy has
        // landed: they waited for each): the epilogue's tile reuses them.
        %bar_id = arith.constant 1 : i32
        %bar_threads = arith.constant {consumers} : i32
        nvvm.barrier id = %bar_id number_of_threads = %bar_threads
        // nvgpu.warpgroup.mma.store places rows by %tid.x / 32: warpgroup g's block
        // lands 64 g rows down, on its own rows.{stores}
      }}"""


def _release(lag: int) -> str:
    """Each consumer warpgroup's arrival on the *empty* barrier of the buffer it no
    longer reads: with wgmma groups left in flight (``lag`` 1), that of the slice
    before."""
    if not lag:
        return """
          scf.if %wg_first {
            %empty = arith.addi %stage, %k_stages : index
            %released = nvgpu.mbarrier.arrive %barriers[%empty] : !bars -> !nvgpu.mbarrier.token
          }"""
    return """
          %started = arith.cmpi uge, %i, %k1 : index
          %release = arith.andi %started, %wg_first : i1
          scf.if %release {
            %freed = arith.subi %i, %k1 : index
            %freed_stage = arith.remui %freed, %k_stages : index
            %empty = arith.addi %freed_stage, %k_stages : index
            %released = nvgpu.mbarrier.arrive %barriers[%empty] : !bars -> !nvgpu.mbarrier.token
          }"""


def _raster(group_m: int, columns: int, cluster_m: int = 1) -> str:
    """``%tile_m`` and ``%tile_n`` of this CTA: consecutive CTAs take ``group_m``
    tile rows column by column; with 1, row by row as launched (written without the
    ``x % 1`` and ``x + 0`` that MLIR 22's arith-to-llvm conversion folds and ours
    keeps: LLVM folds them too, but the IR that reaches it stays the same). With
    clusters of 2 CTAs along M, the raster orders the clusters, and a CTA's tile row
    is its cluster's times 2 plus its rank ``%by % 2``."""
    if cluster_m > 1 and group_m > 1:
        return f"""
      // Grouped raster of 2-CTA clusters: consecutive clusters take group_m rows of
      // clusters column by column; each CTA takes its rank's tile row.
      %k_group = arith.constant {group_m} : index
      %k_per_group = arith.constant {group_m * columns} : index
      %pair = arith.divui %by, %k2 : index
      %pid_row = arith.muli %pair, %gx : index
      %pid = arith.addi %pid_row, %bx : index
      %group = arith.divui %pid, %k_per_group : index
      %first_m = arith.muli %group, %k_group : index
      %in_group = arith.remui %pid, %k_per_group : index
      %m_in_group = arith.remui %in_group, %k_group : index
      %pair_m = arith.addi %first_m, %m_in_group : index
      %tile_n = arith.divui %in_group, %k_group : index
      %pair_row = arith.muli %pair_m, %k2 : index
      %tile_m = arith.addi %pair_row, %rank : index
      %row = arith.muli %tile_m, %k_tile : index
      %col = arith.muli %tile_n, %k_tile_n : index"""
    if group_m == 1:
        return """
      %row = arith.muli %by, %k_tile : index
      %col = arith.muli %bx, %k_tile_n : index"""
    return f"""
      // Grouped raster: consecutive CTAs take group_m tile rows column by column.
      %k_group = arith.constant {group_m} : index
      %k_per_group = arith.constant {group_m * columns} : index
      %pid_row = arith.muli %by, %gx : index
      %pid = arith.addi %pid_row, %bx : index
      %group = arith.divui %pid, %k_per_group : index
      %first_m = arith.muli %group, %k_group : index
      %in_group = arith.remui %pid, %k_per_group : index
      %m_in_group = arith.remui %in_group, %k_group : index
      %tile_m = arith.addi %first_m, %m_in_group : index
      %tile_n = arith.divui %in_group, %k_group : index
      %row = arith.muli %tile_m, %k_tile : index
      %col = arith.muli %tile_n, %k_tile_n : index"""


def _offset(name: str, constant: str, nonzero: int, base: str = "%b_offset") -> str:
    """``name = base + constant``, or nothing where the constant is 0 and the view
    takes ``base`` itself: MLIR 22 folds ``x + 0`` while converting arith to LLVM,
    ours does not (LLVM folds it later; the IR that reaches LLVM stays the same)."""
    if not nonzero:
        return ""
    return f"\n        {name} = arith.addi {base}, {constant} : index"


def _acc_in(acc: str, step: int) -> str:
    return acc if step == 0 else f"{acc}_{step - 1}"


def _load_slice(
    stage: str,
    slice_: str,
    indent: str,
    tile_n: int,
    element: Element,
    cluster_m: int = 1,
) -> str:
    """Thread 0's part of filling buffer ``stage`` with K slice ``slice_``: the
    mbarrier expects the stage's bytes, one TMA copy of A's 128-row box and one of
    B's ``tile_n``-row box (128 bytes a row) deliver them. In a 2-CTA cluster, each
    CTA copies its half of B's box (``%b_half_at`` bytes on, from column
    ``%col_b``) into the same place of both CTAs' buffers (``multicast_mask``), so
    both barriers expect the whole stage."""
    smem = "#gpu.address_space<workgroup>"
    box_a = f"memref<{TILE_M}x{element.slice_k}x{element.map_type}, {smem}>"
    rows_b = tile_n // cluster_m
    box_b = f"memref<{rows_b}x{element.slice_k}x{element.map_type}, {smem}>"
    if cluster_m == 1:
        b_at = "%b_at = arith.addi %pad, %b_base : index"
        load_b = f"nvgpu.tma.async.load %map_b[%kk, %col], %barriers[{stage}] to %dst_b : !mapB, !bars -> {box_b}"
    else:
        b_at = """%b_mine = arith.addi %b_base, %b_half_at : index
%b_at = arith.addi %pad, %b_mine : index"""
        load_b = f"nvgpu.tma.async.load %map_b[%kk, %col_b], %barriers[{stage}] to %dst_b multicast_mask = %cluster_mask : !mapB, !bars -> {box_b}"
    lines = f"""
%a_from = arith.muli {stage}, %k_a_bytes : index
%a_at = arith.addi %pad, %a_from : index
%b_from = arith.muli {stage}, %k_b_bytes : index
%b_base = arith.addi %b_from, %b_offset0 : index
{b_at}
%dst_a = memref.view %smem[%a_at][] : !smem to {box_a}
%dst_b = memref.view %smem[%b_at][] : !smem to {box_b}
%kk = arith.muli {slice_}, %c_tile_k_in : index
nvgpu.mbarrier.arrive.expect_tx %barriers[{stage}], %k_stage_bytes : !bars
nvgpu.tma.async.load %map_a[%kk, %row], %barriers[{stage}] to %dst_a : !mapA, !bars -> {box_a}
{load_b}"""
    return "".join(f"\n{indent}{line}" for line in lines.strip().splitlines())


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("m", type=int)
    parser.add_argument("n", type=int)
    parser.add_argument("k", type=int)
    parser.add_argument("--stages", type=int, default=4)
    parser.add_argument("--wgmma-wait", type=int, default=1)
    parser.add_argument("--group-m", type=int, default=1)
    parser.add_argument("--warpgroups", type=int, default=2)
    parser.add_argument("--tile-n", type=int, default=256)
    parser.add_argument("--dtype", choices=list(ELEMENTS), default="e4m3")
    parser.add_argument(
        "--producer", action="store_true", help="a producer warpgroup issues the TMA"
    )
    args = parser.parse_args()
    config = WgmmaGemmConfig(
        args.m, args.n, args.k, args.stages, args.wgmma_wait, args.group_m,
        args.warpgroups, args.tile_n, args.dtype, args.producer,
    )  # fmt: skip
    print(wgmma_gemm_mlir(config), end="")


if __name__ == "__main__":
    main()
