"""A Hopper fused attention forward (FlashAttention-style) in MLIR, for given sizes.

``O = softmax(Q K^T * d^-0.5 [+ causal mask]) V`` with Q, K, V, O f16 in
``[batch, heads, seq, d]`` layout (contiguous; the kernel sees them as
``batch * heads * seq`` rows of ``d``), f32 softmax statistics, ``d`` 64 or 128.

Each CTA owns a 128-row block of queries of one (batch, head), ``seq / 128 x batch *
heads`` CTAs of two warpgroups (256 threads); warpgroup ``g`` owns rows ``64 g`` on:

* Q's block goes once by TMA (``d / 64`` boxes of 128 rows x 64 columns, 128-byte
  swizzled) into shared memory. K and V are walked in tiles of ``block_n`` keys, each
  ``d / 64`` boxes of ``block_n x 64``, through ``stages`` buffers with an mbarrier each
  for K and for V (thread 0 expects the bytes and issues the copies; every thread
  waits on the parity ``(tile / stages) % 2``).
* ``S = Q K^T``: ``d / 16`` wgmma m64 n``block_n`` k16 (``nvvm.wgmma.mma_async``) from
  shared-memory descriptors: K row-major ``[keys, d]`` is the K-major B operand.
  The descriptors are computed here (not by ``nvgpu.warpgroup.generate.descriptor``):
  start address ``>> 4`` in bits 0-13, leading byte offset ``>> 4`` from bit 16
  (K-major: unused; V: the distance between 64-column boxes), stride byte offset
  ``1024 >> 4`` from bit 32 (8 rows of 128 bytes), 128-byte swizzle (1) in bits 62-63.
* Online softmax in registers on the f32 fragments. Thread ``t`` of a warpgroup (warp
  ``w = t / 32``, lane ``l``) holds register ``i`` of an m64nN accumulator at row
  ``16 w + l / 4 + 8 ((i / 2) % 2)``, column ``8 (i / 4) + 2 (l % 4) + i % 2`` (PTX
  ISA, wgmma D fragments; as ``nvgpu.warpgroup.mma.store`` writes them): each thread
  has two rows, and the four lanes of a quad share them, so row maxima are reduced
  over the thread's registers then ``gpu.shuffle xor`` 1 and 2. Probabilities are
  ``exp2(s * c - m * c)``, ``c = log2(e) / sqrt(d)`` folded in (``math.exp2``:
  libdevice's ``__nv_exp2f``, ``ex2.approx``). The row sums stay per thread (a
  quad's lanes are rescaled alike) and are reduced across the quad once, at the end.
* ``O += P V``: ``block_n / 16`` wgmma m64 n``d`` k16 with A = P in registers
  (``xgpu.wgmma.mma_async.reg_a``): registers ``8 j .. 8 j + 7`` of S are, for 16-bit
  A, exactly A's fragment of the k-step ``j`` (rows ``l / 4``, ``+ 8``; columns
  ``2 (l % 4)``, ``+ 1``, ``+ 8``, ``+ 9``), packed in pairs into ``vector<2xf16>``.
  V row-major ``[keys, d]`` is the N-major B operand (transpose bit, ``<row>``).
* Before ``O`` is rescaled by ``exp2((m_old - m_new) c)`` and before the next
  wgmma reads P, every wgmma is waited for (``wgmma.wait_group 0``) and fenced.
  Once both warpgroups are done with a tile (``gpu.barrier``), thread 0 refills its
  buffers with the tile ``stages`` further on.
* ``producer``: a third warpgroup issues every copy instead (its first thread), each
  once the buffer's *empty* barrier says both consumer warpgroups are done with it
  (each warpgroup's first thread arrives, past the warpgroup's wgmma wait, on K's
  right after ``S``, on V's after ``P V``); no CTA-wide barrier
  in the loop, so the two consumer warpgroups drift apart (one's softmax beside the
  other's wgmma). ``nvvm.setmaxregister`` gives the producer's registers to the
  consumers (40 + 2 x 232 a thread).
* ``overlap`` (with ``producer``): FlashAttention-3's intra-warpgroup pipelining.
  Tile 0's S and softmax come first; then for each tile ``j >= 1``, ``S_j`` and
  ``O += P_(j-1) V_(j-1)`` are issued together, ``wgmma.wait_group 1`` lets the
  softmax of ``S_j`` run while the second product is in flight, and ``O`` is
  rescaled once it has landed (``wait_group 0``); the last tile's ``P V`` follows the
  loop. P is carried from one iteration to the next as its A fragments. Causal
  kernels mask every tile in this schedule (one loop: a second one for the diagonal
  made ptxas serialize the wgmma, C7513).
* Causal: only the tiles with a key at or before the block's last query are loaded;
  those wholly below the diagonal go through a loop without masking, the rest
  through a copy of the body that sets ``S`` to ``-inf`` where key > query.
* Epilogue: ``O / l`` (``l`` summed over the quad), converted to f16 pairs and
  stored from the registers.

The host side (``@attention``) makes the three tensor maps
(``nvgpu.tma.create.descriptor``) and launches the kernel. The benchmark launches the
compiled kernel itself (``KERNEL_ARGUMENTS`` says what its arguments are).

    python3 benchmarks/attention_kernel.py 4 16 4096 128 --causal > attention.mlir
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Iterable
from dataclasses import dataclass

BLOCK_M = 128  # queries per CTA
WG_ROWS = 64  # queries per warpgroup (one wgmma m64)
WARPGROUPS = BLOCK_M // WG_ROWS
THREADS = 128 * WARPGROUPS
BOX = 64  # f16 columns in 128 bytes: the widest box 128-byte swizzling allows
ROW_BYTES = BOX * 2
SWIZZLE_ATOM = 8 * ROW_BYTES  # 8 rows of 128 bytes: the stride byte offset
WGMMA_K = 16
ALIGNMENT_SLACK = 1024  # as nvgpu_gemm_kernel.ALIGNMENT_SLACK
MAX_SHARED = 227 * 1024
KERNEL_ARGUMENTS = ("Q's tensor map", "K's tensor map", "V's tensor map", "O")
"""The outlined kernel's arguments, in order (device pointers with
``kernel-bare-ptr-calling-convention=1``): the order of first use in the body."""
LOG2E = 1.4426950408889634
SMEM = "#gpu.address_space<workgroup>"


@dataclass(frozen=True)
class AttentionConfig:
    batch: int
    heads: int
    seq: int
    head_dim: int
    causal: bool = False
    block_n: int = 128  # keys per K/V tile
    stages: int = 2
    producer: bool = False  # a third warpgroup issues the TMA copies
    overlap: bool = False  # S_j beside P_(j-1) V (needs the producer)

    def __post_init__(self) -> None:
        if self.head_dim not in (64, 128):
            raise ValueError("head_dim is 64 or 128")
        if self.block_n % WGMMA_K or not WGMMA_K <= self.block_n <= 256:
            raise ValueError("block_n is a multiple of 16 from 16 to 256")
        if self.seq % BLOCK_M or self.seq % self.block_n:
            raise ValueError(
                f"seq must be a multiple of {BLOCK_M} and of block_n {self.block_n}"
            )
        if self.overlap and not self.producer:
            raise ValueError("overlap needs the producer warpgroup")
        if not 1 <= self.stages <= 4:
            raise ValueError("stages is 1 to 4")
        if self.block_n + self.head_dim > 320:
            raise ValueError(
                f"S (block_n / 2) and O (d / 2) accumulators take "
                f"{(self.block_n + self.head_dim) // 2} registers a thread: too many"
            )
        if self.shared_bytes > MAX_SHARED:
            raise ValueError(
                f"{self.shared_bytes} bytes of shared memory, more than {MAX_SHARED}"
            )

    @property
    def rows(self) -> int:
        return self.batch * self.heads * self.seq

    @property
    def grid(self) -> tuple[int, int, int]:
        return (self.seq // BLOCK_M, self.batch * self.heads, 1)

    @property
    def block(self) -> tuple[int, int, int]:
        return (THREADS + 128 * self.producer, 1, 1)

    @property
    def barriers(self) -> int:
        """Q's, then full K and V buffers; with a producer, empty K and V too."""
        return 1 + (4 if self.producer else 2) * self.stages

    @property
    def boxes(self) -> int:
        return self.head_dim // BOX

    @property
    def q_bytes(self) -> int:
        return BLOCK_M * self.head_dim * 2

    @property
    def kv_bytes(self) -> int:
        return self.block_n * self.head_dim * 2

    @property
    def k_base(self) -> int:
        return self.q_bytes

    @property
    def v_base(self) -> int:
        return self.q_bytes + self.stages * self.kv_bytes

    @property
    def shared_bytes(self) -> int:
        return self.q_bytes + 2 * self.stages * self.kv_bytes + ALIGNMENT_SLACK

    @property
    def flops(self) -> int:
        full = 4 * self.batch * self.heads * self.seq * self.seq * self.head_dim
        return full // 2 if self.causal else full

    @property
    def name(self) -> str:
        return (
            f"b{self.batch}h{self.heads}s{self.seq}d{self.head_dim}"
            f"{'.causal' if self.causal else ''}.n{self.block_n}.s{self.stages}"
            + (".producer" if self.producer else "")
            + (".overlap" if self.overlap else "")
        )


class _Body:
    """Straight-line MLIR text with fresh SSA names."""

    def __init__(self, indent: str) -> None:
        self.lines: list[str] = []
        self.indent = indent
        self.count = 0

    def fresh(self, stem: str) -> str:
        self.count += 1
        return f"%{stem}{self.count}"

    def op(self, stem: str, text: str) -> str:
        name = self.fresh(stem)
        self.lines.append(f"{self.indent}{name} = {text}")
        return name

    def raw(self, text: str) -> None:
        self.lines.append(f"{self.indent}{text}")

    def text(self) -> str:
        return "\n".join(self.lines)


def _struct(count: int, element: str = "f32") -> str:
    return f"!llvm.struct<({', '.join([element] * count)})>"


def _tree(body: _Body, op: str, values: list[str], stem: str) -> str:
    """``values`` combined pairwise by ``op`` (f32): a short dependency chain."""
    while len(values) > 1:
        paired = [
            body.op(stem, f"{op} {values[i]}, {values[i + 1]} : f32")
            for i in range(0, len(values) - 1, 2)
        ]
        values = paired + ([values[-1]] if len(values) % 2 else [])
    return values[0]


def _row_half(register: int) -> int:
    """Which of a thread's two rows accumulator register ``register`` is on."""
    return (register // 2) % 2


def _column(register: int) -> int:
    """Accumulator register ``register``'s column, less ``2 (lane % 4)``."""
    return 8 * (register // 4) + register % 2


class _Kernel:
    """The kernel body's pieces for one configuration."""

    def __init__(self, config: AttentionConfig) -> None:
        self.c = config
        self.s_regs = config.block_n // 2
        self.o_regs = config.head_dim // 2
        self.acc_s = "!accS"  # type aliases (attention_mlir defines them)
        self.acc_o = "!accO"
        self.reg_a = "!fragA"

    # -- TMA ---------------------------------------------------------------------------

    def load_kv(self, body: _Body, stage: str, tile: str) -> None:
        """One thread's copies of K's and V's tile ``tile`` into buffer ``stage``."""
        self.load(body, "k", stage, tile)
        self.load(body, "v", stage, tile)

    def load(self, body: _Body, operand: str, stage: str, tile: str) -> None:
        """The copy of ``operand``'s (``k`` or ``v``) tile ``tile`` into buffer
        ``stage``, announced to its full barrier."""
        c = self.c
        box = f"memref<{c.block_n}x{BOX}xf16, {SMEM}>"
        rows = body.op("kv_rows", f"arith.muli {tile}, %k_block_n : index")
        row = body.op("kv_row", f"arith.addi %kv_row0, {rows} : index")
        stage_at = body.op("stage_at", f"arith.muli {stage}, %k_kv_bytes : index")
        bar = body.op("bar", f"arith.addi {stage}, %k_{operand}_full0 : index")
        body.raw(f"nvgpu.mbarrier.arrive.expect_tx %bars[{bar}], %k_kv_bytes : !bars")
        for b in range(c.boxes):
            at = body.op("at", f"arith.addi {stage_at}, %k_off_{operand}{b} : index")
            buf = body.op("buf", f"arith.addi %pad, {at} : index")
            dst = body.op("dst", f"memref.view %smem[{buf}][] : !smem to {box}")
            body.raw(
                f"nvgpu.tma.async.load %map_{operand}[%k_col{b}, {row}], "
                f"%bars[{bar}] to {dst} : !mapKV, !bars -> {box}"
            )

    # -- the loop body -----------------------------------------------------------------

    def tile_body(self, masked: bool) -> str:
        """One K/V tile ``%j``: S, softmax, O, one after the other. Reads and
        yields ``%o, %m0, %m1, %l0, %l1``."""
        c = self.c
        body = _Body("        ")
        stage, parity = self._stage(body, "%j")
        desc_k, desc_v = self._descriptors(body, stage)
        self._wait(body, "k", stage, parity)
        body.raw("nvvm.wgmma.fence.aligned")
        s = self._issue_s(body, desc_k)
        body.raw("nvvm.wgmma.commit.group.sync.aligned")
        body.raw("nvvm.wgmma.wait.group.sync.aligned 0")
        if c.producer:  # this thread no longer reads the K buffer
            self._release(body, "k", stage)
        fragments, alphas, maxima, sums = self._softmax(
            body, s, masked, "%j", ("%m0", "%m1"), ("%l0", "%l1")
        )
        o = self._scale_o(body, "%o", alphas)
        self._wait(body, "v", stage, parity)
        body.raw("nvvm.wgmma.fence.aligned")
        o = self._issue_pv(body, fragments, desc_v, o)
        body.raw("nvvm.wgmma.commit.group.sync.aligned")
        body.raw("nvvm.wgmma.wait.group.sync.aligned 0")
        if c.producer:
            self._release(body, "v", stage)
        else:
            # Both warpgroups are done with the buffers: thread 0 refills them.
            body.raw("gpu.barrier")
            ahead = body.op("ahead", "arith.addi %j, %k_stages : index")
            wanted = body.op("wanted", f"arith.cmpi ult, {ahead}, %n_tiles : index")
            issue = body.op("issue", f"arith.andi %first, {wanted} : i1")
            body.raw(f"scf.if {issue} {{")
            inner = _Body(body.indent + "  ")
            inner.count = body.count
            self.load_kv(inner, stage, ahead)
            body.lines += inner.lines
            body.count = inner.count
            body.raw("}")
        body.raw(
            f"scf.yield {o}, {maxima[0]}, {maxima[1]}, {sums[0]}, {sums[1]} : "
            f"{self.acc_o}, f32, f32, f32, f32"
        )
        return body.text()

    def overlapped_first(self) -> tuple[str, list[str], list[str]]:
        """Tile 0 of the overlapped schedule: S and its softmax (masked where
        causal: the mask leaves a tile below the diagonal as it is). Its text, P's
        fragments, and the rows' maxima and sums."""
        c = self.c
        body = _Body("        ")
        body.count = 400000
        self._wait(body, "k", "%k0", "%false")
        body.raw("nvvm.wgmma.fence.aligned")
        s = self._issue_s(body, "%desc_k0")
        body.raw("nvvm.wgmma.commit.group.sync.aligned")
        body.raw("nvvm.wgmma.wait.group.sync.aligned 0")
        self._release(body, "k", "%k0")
        fragments, _, maxima, sums = self._softmax(
            body, s, c.causal, "%k0", ("%ninf", "%ninf"), ("%f0", "%f0")
        )
        return body.text(), fragments, maxima + sums

    def overlapped_body(self, masked: bool) -> str:
        """Tile ``%j`` >= 1 of the overlapped schedule (FlashAttention-3's
        intra-warpgroup pipelining): ``S_j`` and ``O += P_(j-1) V_(j-1)`` are issued
        together; the softmax of ``S_j`` runs while the second is in flight, and
        ``O`` is rescaled once it lands. Reads ``%o, %m0, %m1, %l0, %l1, %p0 ..``
        (P of tile ``j - 1``) and yields the same for tile ``j``."""
        body = _Body("        ")
        stage, parity = self._stage(body, "%j")
        previous = body.op("prev", "arith.subi %j, %k1 : index")
        p_stage, p_parity = self._stage(body, previous)
        desc_k, _ = self._descriptors(body, stage)
        _, desc_v = self._descriptors(body, p_stage)
        self._wait(body, "k", stage, parity)
        body.raw("nvvm.wgmma.fence.aligned")
        s = self._issue_s(body, desc_k)
        body.raw("nvvm.wgmma.commit.group.sync.aligned")
        self._wait(body, "v", p_stage, p_parity)
        body.raw("nvvm.wgmma.fence.aligned")
        o = self._issue_pv(body, self.fragment_args(), desc_v, "%o")
        body.raw("nvvm.wgmma.commit.group.sync.aligned")
        body.raw("nvvm.wgmma.wait.group.sync.aligned 1")  # S_j has landed
        self._release(body, "k", stage)
        fragments, alphas, maxima, sums = self._softmax(
            body, s, masked, "%j", ("%m0", "%m1"), ("%l0", "%l1")
        )
        body.raw("nvvm.wgmma.wait.group.sync.aligned 0")  # so has O
        self._release(body, "v", p_stage)
        o = self._scale_o(body, o, alphas)
        values = [o, *maxima, *sums, *fragments]
        types = [self.acc_o, "f32", "f32", "f32", "f32"] + [self.reg_a] * len(fragments)
        body.raw(f"scf.yield {', '.join(values)} : {', '.join(types)}")
        return body.text()

    def overlapped_last(self, result: str) -> tuple[str, str]:
        """The last tile's ``O += P V`` (its V buffer needs no release): the text
        and O."""
        body = _Body("        ")
        body.count = 500000
        last = body.op("last", "arith.subi %n_tiles, %k1 : index")
        stage, parity = self._stage(body, last)
        _, desc_v = self._descriptors(body, stage)
        self._wait(body, "v", stage, parity)
        body.raw("nvvm.wgmma.fence.aligned")
        fragments = [f"{result}#{5 + j}" for j in range(self.c.block_n // WGMMA_K)]
        o = self._issue_pv(body, fragments, desc_v, f"{result}#0")
        body.raw("nvvm.wgmma.commit.group.sync.aligned")
        body.raw("nvvm.wgmma.wait.group.sync.aligned 0")
        return body.text(), o

    def fragment_args(self) -> list[str]:
        return [f"%p{j}" for j in range(self.c.block_n // WGMMA_K)]

    # -- pieces of a tile --------------------------------------------------------------

    @staticmethod
    def _stage(body: _Body, tile: str) -> tuple[str, str]:
        """Tile ``tile``'s buffer and the parity of its barriers' phase."""
        stage = body.op("stage", f"arith.remui {tile}, %k_stages : index")
        use = body.op("use", f"arith.divui {tile}, %k_stages : index")
        odd = body.op("odd", f"arith.remui {use}, %k2 : index")
        parity = body.op("parity", f"arith.cmpi ne, {odd}, %k0 : index")
        return stage, parity

    @staticmethod
    def _descriptors(body: _Body, stage: str) -> tuple[str, str]:
        """The wgmma descriptors of buffer ``stage``'s K and V tiles."""
        stage64 = body.op("stage64", f"arith.index_cast {stage} : index to i64")
        field = body.op("stage_field", f"arith.muli {stage64}, %d_kv_field : i64")
        desc_k = body.op("desc_k", f"arith.addi %desc_k0, {field} : i64")
        desc_v = body.op("desc_v", f"arith.addi %desc_v0, {field} : i64")
        return desc_k, desc_v

    @staticmethod
    def _wait(body: _Body, operand: str, stage: str, parity: str) -> None:
        bar = body.op("full", f"arith.addi {stage}, %k_{operand}_full0 : index")
        body.raw(
            f"nvgpu.mbarrier.try_wait.parity %bars[{bar}], {parity}, %ticks : !bars"
        )

    def _issue_s(self, body: _Body, desc_k: str) -> str:
        """``S = Q K^T``: d / 16 k-steps, a step 32 bytes along a box's rows."""
        c = self.c
        s = "%zero_s"
        for t in range(c.head_dim // WGMMA_K):
            box, inner = divmod(t, BOX // WGMMA_K)
            q_off = (box * BLOCK_M * ROW_BYTES + inner * 32) >> 4
            k_off = (box * c.block_n * ROW_BYTES + inner * 32) >> 4
            dq = (
                body.op("dq", f"arith.addi %desc_q, %d{q_off} : i64")
                if q_off
                else "%desc_q"
            )
            dk = (
                body.op("dk", f"arith.addi {desc_k}, %d{k_off} : i64")
                if k_off
                else desc_k
            )
            scale = "one" if t else "zero"
            s = body.op(
                "s",
                f"nvvm.wgmma.mma_async {dq}, {dk}, {s}, <m = 64, n = {c.block_n}, "
                f"k = 16>, D[<f32>, <{scale}>, <wrapped>], A[<f16>, <one>, <row>], "
                f"B[<f16>, <one>, <col>] : {self.acc_s} -> {self.acc_s}",
            )
        return s

    def _softmax(
        self,
        body: _Body,
        s: str,
        masked: bool,
        tile: str,
        m: tuple[str, str],
        sums_in: tuple[str, str],
    ) -> tuple[list[str], list[str], list[str], list[str]]:
        """The online softmax of tile ``tile``'s S: P's A fragments, the rescaling
        factors of the two rows, their new maxima and (per thread) sums."""
        op, raw = body.op, body.raw
        x = [
            op("x", f"llvm.extractvalue {s}[{i}] : {self.acc_s}")
            for i in range(self.s_regs)
        ]
        if masked:
            x = self._mask(body, x, tile)
        # Row maxima over the thread's registers, then over the quad.
        alphas: list[str] = []
        neg_scaled: list[str] = []
        maxima: list[str] = []
        for h in range(2):
            mine = [x[i] for i in range(self.s_regs) if _row_half(i) == h]
            top = _tree(body, "arith.maxnumf", mine, "mx")
            for lane_mask in ("%i1", "%i2"):
                other = body.fresh("sh")
                raw(
                    f"{other}, {body.fresh('ok')} = gpu.shuffle xor {top}, "
                    f"{lane_mask}, %i32 : f32"
                )
                top = op("mx", f"arith.maxnumf {top}, {other} : f32")
            m_new = op("m_new", f"arith.maxnumf {m[h]}, {top} : f32")
            m_scaled = op("m_c", f"arith.mulf {m_new}, %scale : f32")
            neg = op("neg_mc", f"arith.negf {m_scaled} : f32")
            old = op("old", f"math.fma {m[h]}, %scale, {neg} : f32")
            alphas.append(op("alpha", f"math.exp2 {old} : f32"))
            neg_scaled.append(neg)
            maxima.append(m_new)
        p = []
        for i in range(self.s_regs):
            arg = op(
                "arg", f"math.fma {x[i]}, %scale, {neg_scaled[_row_half(i)]} : f32"
            )
            p.append(op("p", f"math.exp2 {arg} : f32"))
        sums = []
        for h in range(2):
            mine = [p[i] for i in range(self.s_regs) if _row_half(i) == h]
            total = _tree(body, "arith.addf", mine, "sum")
            kept = op("kept", f"arith.mulf {sums_in[h]}, {alphas[h]} : f32")
            sums.append(op("l_new", f"arith.addf {kept}, {total} : f32"))
        # P as A fragments: registers 8j .. 8j + 7 of S are k-step j's a0 .. a7.
        fragments = []
        for j in range(self.c.block_n // WGMMA_K):
            fragment = "%undef_a"
            for r in range(4):
                pair = _pack(body, p[8 * j + 2 * r], p[8 * j + 2 * r + 1])
                fragment = op(
                    "pa", f"llvm.insertvalue {pair}, {fragment}[{r}] : {self.reg_a}"
                )
            fragments.append(fragment)
        return fragments, alphas, maxima, sums

    def _scale_o(self, body: _Body, o: str, alphas: list[str]) -> str:
        """``O *= alpha``, row by row."""
        for i in range(self.o_regs):
            value = body.op("ov", f"llvm.extractvalue {o}[{i}] : {self.acc_o}")
            scaled = body.op("os", f"arith.mulf {value}, {alphas[_row_half(i)]} : f32")
            o = body.op("o", f"llvm.insertvalue {scaled}, {o}[{i}] : {self.acc_o}")
        return o

    def _issue_pv(self, body: _Body, fragments: list[str], desc_v: str, o: str) -> str:
        """``O += P V``: block_n / 16 k-steps of 16 keys (2048 bytes of a box)."""
        c = self.c
        for j, fragment in enumerate(fragments):
            v_off = (j * WGMMA_K * ROW_BYTES) >> 4
            dv = (
                body.op("dv", f"arith.addi {desc_v}, %d{v_off} : i64")
                if v_off
                else desc_v
            )
            o = body.op(
                "o",
                f"xgpu.wgmma.mma_async.reg_a {fragment}, {dv}, {o}, <m = 64, "
                f"n = {c.head_dim}, k = 16>, D[<f32>, <one>], A[<f16>, <one>], "
                f"B[<f16>, <one>, <row>] : {self.reg_a}, {self.acc_o} -> {self.acc_o}",
            )
        return o

    @staticmethod
    def _release(body: _Body, operand: str, stage: str) -> None:
        """Arrive on the empty barrier of ``operand``'s buffer ``stage``: the first
        thread of the warpgroup, past the warpgroup's wgmma wait (its wgmma, which
        read the buffer, are the whole warpgroup's)."""
        bar = body.op("empty", f"arith.addi {stage}, %k_{operand}_empty0 : index")
        body.raw("scf.if %wg_leader {")
        body.raw(
            f"  {body.fresh('token')} = nvgpu.mbarrier.arrive %bars[{bar}] : !bars "
            "-> !nvgpu.mbarrier.token"
        )
        body.raw("}")

    def producer(self) -> str:
        """The producer warpgroup's part: its leader copies Q, then every K and V
        tile, each once the consumers emptied its buffer (from the second round
        on)."""
        body = _Body("          ")
        body.count = 300000
        body.raw("scf.for %i = %k0 to %n_tiles step %k1 {")
        body.indent += "  "
        stage = body.op("stage", "arith.remui %i, %k_stages : index")
        again = body.op("again", "arith.cmpi uge, %i, %k_stages : index")
        for operand in ("k", "v"):
            body.raw(f"scf.if {again} {{")
            inner = _Body(body.indent + "  ")
            inner.count = body.count
            round_ = inner.op("round", "arith.divui %i, %k_stages : index")
            before = inner.op("before", f"arith.subi {round_}, %k1 : index")
            odd = inner.op("odd", f"arith.remui {before}, %k2 : index")
            parity = inner.op("parity", f"arith.cmpi ne, {odd}, %k0 : index")
            bar = inner.op("empty", f"arith.addi {stage}, %k_{operand}_empty0 : index")
            inner.raw(
                f"nvgpu.mbarrier.try_wait.parity %bars[{bar}], {parity}, %ticks : !bars"
            )
            body.lines += inner.lines
            body.count = inner.count
            body.raw("}")
            self.load(body, operand, stage, "%i")
        body.indent = body.indent[:-2]
        body.raw("}")
        return body.text()

    def _mask(self, body: _Body, x: list[str], tile: str) -> list[str]:
        """``-inf`` where the key is past the query: key ``j block_n + 2 (l % 4) +
        col(i)``, query ``q_start + row + 8 h(i)``; masked when ``key - query > 0``,
        i.e. ``delta > 8 h(i) - col(i)`` with ``delta`` this thread's
        ``j block_n + 2 (l % 4) - q_start - row``."""
        keys = body.op("keys", f"arith.muli {tile}, %k_block_n : index")
        key0 = body.op("key0", f"arith.addi {keys}, %pair_col : index")
        delta = body.op("delta", f"arith.subi {key0}, %query0 : index")
        limits: dict[int, str] = {}
        out = []
        for i, value in enumerate(x):
            limit = 8 * _row_half(i) - _column(i)
            if limit not in limits:
                limits[limit] = body.op("lim", f"arith.constant {limit} : index")
            past = body.op("past", f"arith.cmpi sgt, {delta}, {limits[limit]} : index")
            out.append(body.op("xm", f"arith.select {past}, %ninf, {value} : f32"))
        return out

    # -- epilogue ------------------------------------------------------------------------

    def epilogue(self, o: str, sums: tuple[str, str]) -> str:
        """``O / l`` (``l`` summed over the quad) as f16 pairs, to O's rows."""
        c = self.c
        body = _Body("      ")
        body.count = 200000  # names apart from the loops'
        op = body.op
        inverse = []
        for h in range(2):
            total = sums[h]
            for lane_mask in ("%i1", "%i2"):
                other = body.fresh("sh")
                body.raw(
                    f"{other}, {body.fresh('ok')} = gpu.shuffle xor {total}, "
                    f"{lane_mask}, %i32 : f32"
                )
                total = op("l", f"arith.addf {total}, {other} : f32")
            inverse.append(op("inv", f"arith.divf %f1, {total} : f32"))
        rows = [op("out_row", "arith.addi %row_q, %my_row : index")]
        rows.append(op("out_row", f"arith.addi {rows[0]}, %k8 : index"))
        columns: dict[int, str] = {}
        for i in range(0, self.o_regs, 2):
            h = _row_half(i)
            col = 8 * (i // 4)
            if col not in columns:
                columns[col] = op("out_col", f"arith.addi %pair_col, %k{col} : index")
            values = []
            for r in (i, i + 1):
                value = op("ov", f"llvm.extractvalue {o}[{r}] : {self.acc_o}")
                values.append(op("on", f"arith.mulf {value}, {inverse[h]} : f32"))
            pair = _pack(body, values[0], values[1])
            body.raw(
                f"vector.store {pair}, %d_o[{rows[h]}, {columns[col]}] "
                f"{{alignment = 4}} : memref<{c.rows}x{c.head_dim}xf16>, vector<2xf16>"
            )
        return body.text()

    def column_constants(self) -> Iterable[int]:
        defined = {0, 1, 2, 4, 8, 16, 32}  # index constants the kernel has anyway
        return sorted({8 * (i // 4) for i in range(0, self.o_regs, 2)} - defined)


def _pack(body: _Body, low: str, high: str) -> str:
    """Two f32 as a ``vector<2xf16>`` (``low`` in element 0, the low half of the
    32-bit register): one ``cvt.rn.f16x2.f32``."""
    v0 = body.op(
        "pk", f"llvm.insertelement {low}, %undef_v2[%i0 : i32] : vector<2xf32>"
    )
    v1 = body.op("pk", f"llvm.insertelement {high}, {v0}[%i1 : i32] : vector<2xf32>")
    return body.op("ph", f"arith.truncf {v1} : vector<2xf32> to vector<2xf16>")


def _plain_loops(kernel: _Kernel) -> tuple[str, str]:
    """The tile loops of the plain schedule (and, causal, their masked copy), and
    the epilogue."""
    iter_types = f"{kernel.acc_o}, f32, f32, f32, f32"
    loops = f"""
      %full:5 = scf.for %j = %k0 to %n_full step %k1 iter_args(%o = %zero_o, %m0 = %ninf, %m1 = %ninf, %l0 = %f0, %l1 = %f0) -> ({iter_types}) {{
{kernel.tile_body(masked=False)}
      }}"""
    result = "%full"
    if kernel.c.causal:
        loops += f"""
      %diag:5 = scf.for %j = %n_full to %n_tiles step %k1 iter_args(%o = %full#0, %m0 = %full#1, %m1 = %full#2, %l0 = %full#3, %l1 = %full#4) -> ({iter_types}) {{
{kernel.tile_body(masked=True)}
      }}"""
        result = "%diag"
    return loops, kernel.epilogue(f"{result}#0", (f"{result}#3", f"{result}#4"))


def _overlapped_loops(kernel: _Kernel) -> tuple[str, str]:
    """Tile 0's S and softmax, the loops over tiles 1 on (S_j beside P_(j-1) V),
    the last tile's P V, and the epilogue."""
    first, fragments, statistics = kernel.overlapped_first()
    count = 5 + len(fragments)
    names = ["%o", "%m0", "%m1", "%l0", "%l1", *kernel.fragment_args()]
    types = [kernel.acc_o] + ["f32"] * 4 + [kernel.reg_a] * len(fragments)
    initial = ["%zero_o", *statistics, *fragments]

    def loop(
        result: str, lower: str, upper: str, start: list[str], masked: bool
    ) -> str:
        args = ", ".join(f"{n} = {v}" for n, v in zip(names, start, strict=True))
        return f"""
      {result}:{count} = scf.for %j = {lower} to {upper} step %k1 iter_args({args}) -> ({", ".join(types)}) {{
{kernel.overlapped_body(masked)}
      }}"""

    # One loop, masked throughout where causal (the mask leaves the tiles below
    # the diagonal as they are): with a second loop for the diagonal, LLVM's copies
    # of the carried registers between the loops made ptxas serialize the wgmma.
    loops = "\n" + first + loop("%tiles", "%k1", "%n_tiles", initial, kernel.c.causal)
    result = "%tiles"
    last, o = kernel.overlapped_last(result)
    loops += "\n" + last
    return loops, kernel.epilogue(o, (f"{result}#3", f"{result}#4"))


def attention_mlir(config: AttentionConfig) -> str:
    """The program: the types and ``@attention`` (host side and kernel)."""
    c = config
    kernel = _Kernel(c)
    d, bn, stages = c.head_dim, c.block_n, c.stages
    scale = LOG2E / math.sqrt(d)
    tensor = f"memref<{c.rows}x{d}xf16>"
    box_q = f"memref<{BLOCK_M}x{BOX}xf16, {SMEM}>"
    k_major = (1 << 62) | ((SWIZZLE_ATOM >> 4) << 32) | (1 << 16)
    v_major = (1 << 62) | ((SWIZZLE_ATOM >> 4) << 32) | (((bn * ROW_BYTES) >> 4) << 16)
    # i64 constants: descriptor steps (>> 4) used by the loop bodies.
    steps = {0}
    for t in range(d // WGMMA_K):
        box, inner = divmod(t, BOX // WGMMA_K)
        steps.add((box * BLOCK_M * ROW_BYTES + inner * 32) >> 4)
        steps.add((box * bn * ROW_BYTES + inner * 32) >> 4)
    for j in range(bn // WGMMA_K):
        steps.add((j * WGMMA_K * ROW_BYTES) >> 4)
    step_constants = "".join(
        f"\n      %d{v} = arith.constant {v} : i64" for v in sorted(steps - {0})
    )
    offsets = "".join(
        f"\n      %k_off_{name}{b} = arith.constant {base + b * bn * ROW_BYTES} : index"
        for name, base in (("k", c.k_base), ("v", c.v_base))
        for b in range(c.boxes)
    ) + "".join(
        f"\n      %k_col{b} = arith.constant {b * BOX} : index" for b in range(c.boxes)
    )
    column_constants = "".join(
        f"\n      %k{v} = arith.constant {v} : index" for v in kernel.column_constants()
    )
    q_loads = "".join(
        f"""
        %q_buf{b} = arith.addi %pad, %k_q_off{b} : index
        %q_dst{b} = memref.view %smem[%q_buf{b}][] : !smem to {box_q}
        nvgpu.tma.async.load %map_q[%k_col{b}, %row_q], %bars[%k0] to %q_dst{b} : !mapQ, !bars -> {box_q}"""
        for b in range(c.boxes)
    )
    q_offsets = "".join(
        f"\n      %k_q_off{b} = arith.constant {b * BLOCK_M * ROW_BYTES} : index"
        for b in range(c.boxes)
    )
    prologue = _Body("          ")
    prologue.count = 100000
    kernel.load_kv(prologue, "%s", "%s")
    if c.causal:
        tiles = """
      %q_end = arith.addi %q_start, %k_tile_end : index
      %n_tiles = arith.divui %q_end, %k_block_n : index
      %n_full = arith.divui %q_start, %k_block_n : index"""
    else:
        tiles = f"""
      %n_tiles = arith.constant {c.seq // bn} : index
      %n_full = arith.constant {c.seq // bn} : index"""
    if c.overlap:
        loops, epilogue = _overlapped_loops(kernel)
    else:
        loops, epilogue = _plain_loops(kernel)
    if c.producer:
        pipeline = f"""
      %k_consumers = arith.constant {THREADS} : index
      %k_warpgroups = arith.constant {WARPGROUPS} : index
      scf.if %first {{
        nvgpu.mbarrier.init %bars[%k0], %k1 : !bars
        scf.for %s = %k0 to %k_stages step %k1 {{
          %k_full = arith.addi %s, %k_k_full0 : index
          nvgpu.mbarrier.init %bars[%k_full], %k1 : !bars
          %v_full = arith.addi %s, %k_v_full0 : index
          nvgpu.mbarrier.init %bars[%v_full], %k1 : !bars
          %k_empty = arith.addi %s, %k_k_empty0 : index
          nvgpu.mbarrier.init %bars[%k_empty], %k_warpgroups : !bars
          %v_empty = arith.addi %s, %k_v_empty0 : index
          nvgpu.mbarrier.init %bars[%v_empty], %k_warpgroups : !bars
        }}
      }}
      gpu.barrier
      // Warp specialization: the last warpgroup copies, the two others compute; the
      // producer's registers go to the consumers (40 + 2 x 232 per thread fit).
      %is_producer = arith.cmpi uge, %tx, %k_consumers : index
      scf.if %is_producer {{
        nvvm.setmaxregister decrease 40
        %leader = arith.cmpi eq, %tx, %k_consumers : index
        scf.if %leader {{
          nvgpu.mbarrier.arrive.expect_tx %bars[%k0], %k_q_bytes : !bars{q_loads}
{kernel.producer()}
        }}
      }} else {{
        nvvm.setmaxregister increase 232
        nvgpu.mbarrier.try_wait.parity %bars[%k0], %false, %ticks : !bars{loops}
{epilogue}
      }}"""
    else:
        pipeline = f"""
      scf.if %first {{
        scf.for %s = %k0 to %k_bars step %k1 {{
          nvgpu.mbarrier.init %bars[%s], %k1 : !bars
        }}
      }}
      gpu.barrier
      // Prologue: Q, and the first tiles of K and V.
      scf.if %first {{
        nvgpu.mbarrier.arrive.expect_tx %bars[%k0], %k_q_bytes : !bars{q_loads}
        %preload = arith.minui %n_tiles, %k_stages : index
        scf.for %s = %k0 to %preload step %k1 {{
{prologue.text()}
        }}
      }}
      nvgpu.mbarrier.try_wait.parity %bars[%k0], %false, %ticks : !bars{loops}
{epilogue}"""
    return f"""// Generated by benchmarks/attention_kernel.py: {c.name}
// O = softmax(Q K^T / sqrt({d}){" + causal mask" if c.causal else ""}) V, [{c.batch}, {c.heads}, {c.seq}, {d}] f16,
// 128 queries per CTA (two warpgroups{" and a producer" if c.producer else ""}), {bn}-key K/V tiles, {stages} stages,
// {c.shared_bytes} bytes of dynamic shared memory.
!bars = !nvgpu.mbarrier.group<memorySpace = {SMEM}, num_barriers = {c.barriers}>
!mapQ = !nvgpu.tensormap.descriptor<tensor = {box_q}, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>
!mapKV = !nvgpu.tensormap.descriptor<tensor = memref<{bn}x{BOX}xf16, {SMEM}>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>
!smem = memref<?xi8, {SMEM}>
!accS = {_struct(kernel.s_regs)}
!accO = {_struct(kernel.o_regs)}
!fragA = {_struct(4, "vector<2xf16>")}

module attributes {{gpu.container_module}} {{
  func.func @attention(%d_q: {tensor}, %d_k: {tensor}, %d_v: {tensor}, %d_o: {tensor}) {{
    %c1 = arith.constant 1 : index
    %c_box = arith.constant {BOX} : index
    %c_block_m = arith.constant {BLOCK_M} : index
    %c_block_n = arith.constant {bn} : index
    %grid_x = arith.constant {c.grid[0]} : index
    %grid_y = arith.constant {c.grid[1]} : index
    %c_threads = arith.constant {c.block[0]} : index
    %shared = arith.constant {c.shared_bytes} : i32
    %uq = memref.cast %d_q : {tensor} to memref<*xf16>
    %uk = memref.cast %d_k : {tensor} to memref<*xf16>
    %uv = memref.cast %d_v : {tensor} to memref<*xf16>
    %map_q = nvgpu.tma.create.descriptor %uq box[%c_block_m, %c_box] : memref<*xf16> -> !mapQ
    %map_k = nvgpu.tma.create.descriptor %uk box[%c_block_n, %c_box] : memref<*xf16> -> !mapKV
    %map_v = nvgpu.tma.create.descriptor %uv box[%c_block_n, %c_box] : memref<*xf16> -> !mapKV
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %grid_x, %gy = %grid_y, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c_threads, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %shared {{
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %k2 = arith.constant 2 : index
      %k4 = arith.constant 4 : index
      %k8 = arith.constant 8 : index
      %k16 = arith.constant 16 : index
      %k32 = arith.constant 32 : index
      %k_wg_rows = arith.constant {WG_ROWS} : index
      %k_wg_threads = arith.constant 128 : index
      %k_block_m = arith.constant {BLOCK_M} : index
      %k_block_n = arith.constant {bn} : index
      %k_tile_end = arith.constant {BLOCK_M + bn - 1} : index
      %k_seq = arith.constant {c.seq} : index
      %k_stages = arith.constant {stages} : index
      %k_k_full0 = arith.constant 1 : index
      %k_v_full0 = arith.constant {1 + stages} : index
      %k_k_empty0 = arith.constant {1 + 2 * stages} : index
      %k_v_empty0 = arith.constant {1 + 3 * stages} : index
      %k_bars = arith.constant {c.barriers} : index
      %k_q_bytes = arith.constant {c.q_bytes} : index
      %k_kv_bytes = arith.constant {c.kv_bytes} : index
      %k_align = arith.constant {ALIGNMENT_SLACK} : index{q_offsets}{offsets}{column_constants}
      %ticks = arith.constant 10000000 : index
      %false = arith.constant false
      %i0 = arith.constant 0 : i32
      %i1 = arith.constant 1 : i32
      %i2 = arith.constant 2 : i32
      %i32 = arith.constant 32 : i32
      %f0 = arith.constant 0.0 : f32
      %f1 = arith.constant 1.0 : f32
      %ninf = arith.constant 0xFF800000 : f32
      %scale = arith.constant {scale!r} : f32
      %d_field_mask = arith.constant {(1 << 18) - 1} : i64
      %d_shift = arith.constant 4 : i64
      %d_k_major = arith.constant {k_major} : i64
      %d_v_major = arith.constant {v_major} : i64
      %d_q_wg = arith.constant {(WG_ROWS * ROW_BYTES) >> 4} : i64
      %d_k_base = arith.constant {c.k_base >> 4} : i64
      %d_v_base = arith.constant {c.v_base >> 4} : i64
      %d_kv_field = arith.constant {c.kv_bytes >> 4} : i64{step_constants}
      %zero_s = llvm.mlir.zero : {kernel.acc_s}
      %zero_o = llvm.mlir.zero : {kernel.acc_o}
      %undef_a = llvm.mlir.undef : {kernel.reg_a}
      %undef_v2 = llvm.mlir.undef : vector<2xf32>
      // First uses in this order: the kernel's arguments are Q's, K's and V's maps, O.
      %first = arith.cmpi eq, %tx, %k0 : index
      scf.if %first {{
        nvgpu.tma.prefetch.descriptor %map_q : !mapQ
        nvgpu.tma.prefetch.descriptor %map_k : !mapKV
        nvgpu.tma.prefetch.descriptor %map_v : !mapKV
      }}
      // This CTA: queries [q_start, q_start + 128) of (batch, head) %by.
      %q_start = arith.muli %bx, %k_block_m : index
      %kv_row0 = arith.muli %by, %k_seq : index
      %row_q = arith.addi %kv_row0, %q_start : index
      // Thread: warpgroup, warp, lane; its rows (and + 8) and first column pair.
      %wg = arith.divui %tx, %k_wg_threads : index
      %in_wg = arith.remui %tx, %k_wg_threads : index
      %wg_leader = arith.cmpi eq, %in_wg, %k0 : index
      %warp = arith.divui %in_wg, %k32 : index
      %lane = arith.remui %tx, %k32 : index
      %quad = arith.remui %lane, %k4 : index
      %group = arith.divui %lane, %k4 : index
      %wg_row = arith.muli %wg, %k_wg_rows : index
      %warp_row = arith.muli %warp, %k16 : index
      %rows_above = arith.addi %wg_row, %warp_row : index
      %my_row = arith.addi %rows_above, %group : index
      %pair_col = arith.muli %quad, %k2 : index
      %query0 = arith.addi %q_start, %my_row : index{tiles}
      %smem = gpu.dynamic_shared_memory : !smem
      // The buffers start at the first 1024-byte boundary past the shared address of
      // %smem (see nvgpu_gemm_kernel.ALIGNMENT_SLACK): Q, then the K buffers, then V's.
      %smem_at = memref.extract_aligned_pointer_as_index %smem : !smem -> index
      %misalign = arith.remui %smem_at, %k_align : index
      %pad = arith.subi %k_align, %misalign : index
      %base_at = arith.addi %smem_at, %pad : index
      // wgmma descriptors of the buffers' starts: address >> 4 in bits 0-13.
      %base64 = arith.index_cast %base_at : index to i64
      %base_low = arith.andi %base64, %d_field_mask : i64
      %base_field = arith.shrui %base_low, %d_shift : i64
      %desc_base = arith.ori %base_field, %d_k_major : i64
      %wg64 = arith.index_cast %wg : index to i64
      %wg_field = arith.muli %wg64, %d_q_wg : i64
      %desc_q = arith.addi %desc_base, %wg_field : i64
      %desc_k0 = arith.addi %desc_base, %d_k_base : i64
      %desc_v_base = arith.ori %base_field, %d_v_major : i64
      %desc_v0 = arith.addi %desc_v_base, %d_v_base : i64
      %bars = nvgpu.mbarrier.create -> !bars{pipeline}
      gpu.terminator
    }}
    return
  }}
}}
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("batch", type=int)
    parser.add_argument("heads", type=int)
    parser.add_argument("seq", type=int)
    parser.add_argument("head_dim", type=int)
    parser.add_argument("--causal", action="store_true")
    parser.add_argument("--block-n", type=int, default=128)
    parser.add_argument("--stages", type=int, default=2)
    parser.add_argument(
        "--producer", action="store_true", help="a producer warpgroup issues the TMA"
    )
    parser.add_argument(
        "--overlap", action="store_true", help="S_j beside P_(j-1) V (with --producer)"
    )
    args = parser.parse_args()
    config = AttentionConfig(
        args.batch, args.heads, args.seq, args.head_dim, args.causal, args.block_n,
        args.stages, args.producer, args.overlap,
    )  # fmt: skip
    print(attention_mlir(config), end="")


if __name__ == "__main__":
    main()
