"""Shared-memory variables are aligned before nvJitLink assembles the PTX
(``xdsl_gpu/targets/nvvm/shared_alignment.py``).

nvJitLink's linker lays a kernel's shared variables out by declared alignment, so an
8-byte mbarrier went before two 4-byte-aligned TMA tiles and pushed them to 0x408
(``CUDA_ERROR_MISALIGNED_ADDRESS`` at the first bulk tensor copy; ptxas keeps the
declaration order and got 0x400). Here: the rule, the PTX rewrite, and that the PTX
nvJitLink is given (not the PTX ``format=isa`` prints) carries it. On the GPU,
``tests/gpu/test_tma_shared_layout.py`` runs such a kernel.
"""

from __future__ import annotations

import pytest

from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import CompilationTarget
from xdsl_gpu.targets.nvvm import serializer
from xdsl_gpu.targets.nvvm.shared_alignment import (
    MAX_ALIGNMENT,
    align_shared_variables,
    wanted_alignment,
)


@pytest.mark.parametrize(
    ("size", "declared", "expected"),
    [
        (8, 8, 8),  # an mbarrier stays as it is
        (16, 8, 16),
        (100, 2, 64),
        (1024, 4, 1024),
        (2048, 4, MAX_ALIGNMENT),
        (1 << 20, 16, MAX_ALIGNMENT),
        (4096, 4096, 4096),  # never lowered
        (1, 1, 1),  # a byte
        (4, 4, 4),
        # a byte declared over-aligned keeps what it asks for, no more (zero-length
        # arrays no longer come out as such stand-ins: dynamic_shared_memory.py)
        (1, 16, 16),
        (1, 2048, 2048),
        (0, 4, 4),
    ],
)
def test_the_rule(size: int, declared: int, expected: int) -> None:
    assert wanted_alignment(size, declared) == expected


def test_sized_shared_declarations_are_widened_and_nothing_else() -> None:
    ptx = "\n".join(
        [
            ".extern .shared .align 16 .b8 dynamic_smem[];",
            ".global .align 4 .b8 global_table[4096];",
            ".entry k()",
            "{",
            "\t.shared .align 4 .b8 tile_a[2048];",
            "\t.shared .align 8 .b8 __mbarrier[8];",
            "\t.shared .align 4 .f32 rows[16][32];",
            "\t.shared .align 16 .v4.b32 quad[3];",
            "\t.shared .align 4 .b32 scalar;",
            "\t.shared .align 16 .b8 one_byte;",
            "\tst.shared.b32 [tile_a], 0; // .shared .align 4 .b8 x[2048];",
            "}",
        ]
    )
    widened = align_shared_variables(ptx).splitlines()
    assert widened == [
        ".extern .shared .align 16 .b8 dynamic_smem[];",  # no size: untouched
        ".global .align 4 .b8 global_table[4096];",  # not shared memory
        ".entry k()",
        "{",
        "\t.shared .align 1024 .b8 tile_a[2048];",
        "\t.shared .align 8 .b8 __mbarrier[8];",
        "\t.shared .align 1024 .f32 rows[16][32];",  # 2048 bytes
        "\t.shared .align 32 .v4.b32 quad[3];",  # 48 bytes
        "\t.shared .align 4 .b32 scalar;",
        "\t.shared .align 16 .b8 one_byte;",
        "\tst.shared.b32 [tile_a], 0; // .shared .align 4 .b8 x[2048];",
        "}",
    ]
    assert align_shared_variables("\n".join(widened)) == "\n".join(widened)


# Two f32 tiles and an mbarrier-sized variable in shared memory, declared in that
# order, as the TMA programs declare them.
_SHARED_IR = """
@tile_a = internal addrspace(3) global [512 x float] undef, align 4
@tile_b = internal addrspace(3) global [1024 x float] undef, align 4
@barrier = internal addrspace(3) global [1 x i64] undef, align 8

define ptx_kernel void @k(ptr %out, float %x, i64 %y) {
  store volatile float %x, ptr addrspace(3) @tile_a
  store volatile float %x, ptr addrspace(3) getelementptr (float, ptr addrspace(3) @tile_b, i32 7)
  store volatile i64 %y, ptr addrspace(3) @barrier
  %a = load volatile float, ptr addrspace(3) @tile_a
  store float %a, ptr %out
  ret void
}
"""


def _options() -> serializer.NVVMOptions:
    return serializer.NVVMOptions(
        chip="sm_90", features="+ptx80", opt_level=3, module_name="k"
    )


def test_nvjitlink_gets_the_aligned_ptx_and_isa_keeps_llvms(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    nvjitlink = pytest.importorskip("cuda.bindings.nvjitlink")
    if serializer.assembler_cuda_version() is None:
        pytest.skip("nvJitLink is not installed")
    given: list[bytes] = []
    add_data = nvjitlink.add_data

    def spy(handle: int, kind: object, data: bytes, size: int, name: str) -> None:
        given.append(bytes(data))
        add_data(handle, kind, data, size, name)

    monkeypatch.setattr(nvjitlink, "add_data", spy)
    isa = serializer.serialize(_SHARED_IR, _options(), CompilationTarget.Assembly)
    assert isa.ptx is not None
    assert ".shared .align 4 .b8 tile_a[2048];" in isa.ptx  # LLVM's, as upstream's
    assert given == []
    cubin = serializer.serialize(_SHARED_IR, _options(), CompilationTarget.Binary)
    assert cubin.data[:4] == b"\x7fELF"
    (ptx,) = given
    text = ptx.rstrip(b"\0").decode()
    assert ".shared .align 1024 .b8 tile_a[2048];" in text
    assert ".shared .align 1024 .b8 tile_b[4096];" in text
    assert ".shared .align 8 .b8 barrier[8];" in text
    assert text == align_shared_variables(isa.ptx)
