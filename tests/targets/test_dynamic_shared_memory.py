"""Zero-length shared arrays become dynamic shared memory, aligned for TMA
(``xdsl_gpu/targets/nvvm/dynamic_shared_memory.py``).

On the GPU, ``tests/gpu/test_tma_shared_layout.py`` reads the offsets back from a
kernel, and upstream's sm90 GEMM (two such arrays and ``gpu.dynamic_shared_memory``
taken as one memory) is the program that needed it.
"""

from __future__ import annotations

import pytest

from xdsl_gpu.targets.nvvm import dynamic_shared_memory as dsm

_IR = """\
@__dynamic_shmem__0 = internal addrspace(3) global [0 x i8] undef, align 16
@tiles = private addrspace(3) global [0 x half] undef, align 16
@tiles2 = internal addrspace(3) global [4 x half] undef, align 4
@host_empty = internal global [0 x i8] zeroinitializer, align 16

define ptx_kernel void @k(ptr %out) {
  store volatile i8 1, ptr addrspace(3) @__dynamic_shmem__0
  store volatile i8 2, ptr addrspace(3) @tiles
  store volatile half 0.0, ptr addrspace(3) @tiles2
  store volatile i8 3, ptr @host_empty
  ret void
}
"""


def test_zero_length_shared_arrays_become_one_external_declaration() -> None:
    text = dsm.declare_dynamic_shared_memory(_IR)
    lines = text.splitlines()
    assert lines[0] == (
        "@__dynamic_shmem__0 = external addrspace(3) global [0 x i8], align 16"
    )
    # the second one is gone, its uses renamed; a longer name that starts the same
    # and a zero-length array outside shared memory are untouched
    assert "@tiles " not in text
    assert "@tiles\n" not in text
    assert "store volatile i8 2, ptr addrspace(3) @__dynamic_shmem__0" in text
    assert "@tiles2 = internal addrspace(3) global [4 x half] undef, align 4" in text
    assert "store volatile half 0.0, ptr addrspace(3) @tiles2" in text
    assert "@host_empty = internal global [0 x i8] zeroinitializer, align 16" in text
    assert dsm.declare_dynamic_shared_memory(text) == text


def test_the_largest_alignment_is_kept_and_text_without_any_is_unchanged() -> None:
    ir = (
        "@small = internal addrspace(3) global [0 x i32] undef, align 4\n"
        "@big = internal addrspace(3) global [0 x i32] undef, align 4096\n"
    )
    assert dsm.declare_dynamic_shared_memory(ir) == (
        "@small = external addrspace(3) global [0 x i32], align 4096\n"
    )
    plain = "@t = internal addrspace(3) global [4 x i32] undef, align 4\n"
    assert dsm.declare_dynamic_shared_memory(plain) == plain


def test_dynamic_memory_is_aligned_for_tma_in_ptx() -> None:
    ptx = (
        ".extern .shared .align 16 .b8 dyn[];\n"
        "\t.extern .shared .align 4096 .b8 big[];\n"
        ".shared .align 16 .b8 static_one[16];\n"
    )
    assert dsm.align_dynamic_shared_memory(ptx) == (
        ".extern .shared .align 1024 .b8 dyn[];\n"
        "\t.extern .shared .align 4096 .b8 big[];\n"
        ".shared .align 16 .b8 static_one[16];\n"
    )


def test_the_ir_compiles_to_one_extern_array() -> None:
    from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import CompilationTarget
    from xdsl_gpu.targets.nvvm import serializer

    options = serializer.NVVMOptions(chip="sm_90", opt_level=3, module_name="k")
    ptx = serializer.serialize(_IR, options, CompilationTarget.Assembly).data.decode()
    assert ".extern .shared .align 1024 .b8 __dynamic_shmem__0[];" in ptx
    assert "tiles[" not in ptx.replace("tiles2[", "")


_PTX = """\
.extern .shared .align 1024 .b8 dyn[];
.shared .align 8 .b8 shared_bar[16];
.visible .entry first()
{
\t.shared .align 1024 .b8 tile[2048];
\t.shared .align 8 .b8 own_bar[8];
\tst.shared.b32 [shared_bar], 0;
\tret;
}
.visible .entry second()
{
\tst.shared.b32 [dyn], 0;
\tret;
}
.visible .entry third()
{
\tst.shared.b32 [shared_bar+8], 0;
\tret;
}
"""


def test_each_kernel_grows_its_least_aligned_variable_to_the_boundary(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # as CUDA 13.0's nvJitLink lays them out: reserved 1 KiB, then the variables
    sizes = {"first": 0x400 + 2048 + 8 + 16, "third": 0x400 + 16}
    monkeypatch.setattr(dsm, "static_shared_sizes", lambda cubin: sizes)
    padded = dsm.pad_static_shared_memory(_PTX, b"")
    # first: own_bar (8-byte aligned, declared last of the 8-byte ones) takes
    # 1024 - 24 more bytes; third: shared_bar takes 1024 - 16; second has none
    assert "\t.shared .align 8 .b8 own_bar[1008];" in padded
    assert ".shared .align 8 .b8 shared_bar[1024];" in padded
    assert "\t.shared .align 1024 .b8 tile[2048];" in padded
    assert padded.count("\n") == _PTX.count("\n")


def test_nothing_changes_when_the_layout_already_holds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(dsm, "static_shared_sizes", lambda cubin: {"first": 4096})
    assert dsm.pad_static_shared_memory(_PTX, b"") == _PTX
    # dynamic memory 16-byte aligned: nothing to keep aligned
    monkeypatch.setattr(dsm, "static_shared_sizes", lambda cubin: {"first": 0x418})
    ptx = _PTX.replace(".align 1024 .b8 dyn[]", ".align 16 .b8 dyn[]")
    assert dsm.pad_static_shared_memory(ptx, b"") == ptx


def test_static_sizes_are_read_from_a_linked_cubin() -> None:
    from xdsl_gpu.targets.nvvm import serializer

    if serializer.assembler_cuda_version() is None:
        pytest.skip("nvJitLink is not installed")
    ptx = (
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".shared .align 8 .b8 bar[16];\n"
        ".visible .entry k()\n{\n\tst.shared.b32 [bar], 0;\n\tret;\n}\n"
    )
    options = serializer.NVVMOptions(chip="sm_90", opt_level=3, module_name="k")
    cubin = serializer.assemble_cubin(ptx, options)
    # the reserved 1 KiB, then the 16-byte variable
    assert dsm.static_shared_sizes(cubin) == {"k": 0x400 + 16}
    assert dsm.static_shared_sizes(b"not an ELF") == {}
