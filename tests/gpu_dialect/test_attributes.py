"""Python API of the gpu dialect's attributes and types, the exact round trip of
``#gpu.object`` payloads, and the discardable attributes (which xDSL has no dialect
hook to verify, so they are checked here rather than in a filecheck file)."""

from __future__ import annotations

import io
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    Float16Type,
    Float32Type,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    StringAttr,
    UnitAttr,
    i1,
    i8,
    i32,
    i64,
)
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute
from xdsl.ir.affine import AffineMap
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Input
from xdsl.utils.mlir_lexer import StringLiteral

from tests.support.xdsl_tools import make_context, parse, print_module
from xdsl_gpu.gpu_dialect.gpu import GPU
from xdsl_gpu.gpu_dialect.gpu.attributes import (
    CONTAINER_MODULE_ATTR_NAME,
    KERNEL_ATTR_NAME,
    KNOWN_BLOCK_SIZE_ATTR_NAME,
    KNOWN_CLUSTER_SIZE_ATTR_NAME,
    KNOWN_GRID_SIZE_ATTR_NAME,
    AddressSpace,
    AddressSpaceAttr,
    GPUBlockMappingAttr,
    GPULaneMappingAttr,
    GPUMappingMaskAttr,
    GPUMemorySpaceMappingAttr,
    GPUThreadMappingAttr,
    GPUWarpgroupMappingAttr,
    GPUWarpMappingAttr,
    LoopDimMapAttr,
    MappingId,
    Processor,
    format_affine_map,
    verify_discardable_gpu_attr,
    verify_discardable_gpu_attrs,
)
from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import (
    CompilationTarget,
    KernelMetadataAttr,
    KernelTableAttr,
    ObjectAttr,
    SelectObjectAttr,
    TargetAttrInterface,
    escape_mlir_bytes,
    is_gpu_target_attr,
    unescape_mlir_string,
)
from xdsl_gpu.gpu_dialect.gpu.types import (
    AsyncTokenType,
    MMAMatrixType,
    SparseDnTensorHandleType,
    SparseSpGEMMOpHandleType,
    SparseSpMatHandleType,
)

MLIR_OPT = shutil.which("mlir-opt-22")
CONTAINER_MODULE_ERROR = (
    "expected 'gpu.container_module' attribute to be attached to 'builtin.module'"
)


@irdl_attr_definition
class FakeTargetAttr(ParametrizedAttribute, TargetAttrInterface):
    """A GPU target for these tests only, so that they need no target dialect."""

    name = "gputest.target"


def _context() -> Context:
    ctx = make_context()
    ctx.load_dialect(Dialect("gputest", [], [FakeTargetAttr]))
    return ctx


CTX = _context()


def text(attr: Attribute) -> str:
    out = io.StringIO()
    Printer(stream=out).print_attribute(attr)
    return out.getvalue()


def parse_attr(source: str) -> Attribute:
    return Parser(CTX, source).parse_attribute()


def roundtrip(attr: Attribute) -> Attribute:
    again = parse_attr(text(attr))
    assert again == attr
    assert text(again) == text(attr)
    return again


# --------------------------------------------------------------------------------------
# Address spaces, mapping attributes, loop_dim_map
# --------------------------------------------------------------------------------------


def test_address_space() -> None:
    attr = AddressSpaceAttr("workgroup")
    assert attr == AddressSpaceAttr(AddressSpace.Workgroup)
    assert attr.value is AddressSpace.Workgroup
    assert [AddressSpaceAttr(a).int_value for a in AddressSpace] == [1, 2, 3]
    assert text(attr) == "#gpu.address_space<workgroup>"
    roundtrip(attr)
    with pytest.raises(ValueError, match="constant"):
        AddressSpaceAttr("constant")


@pytest.mark.parametrize(
    ("cls", "mnemonic"),
    [
        (GPUBlockMappingAttr, "block"),
        (GPUThreadMappingAttr, "thread"),
        (GPUWarpMappingAttr, "warp"),
        (GPUWarpgroupMappingAttr, "warpgroup"),
        (GPULaneMappingAttr, "lane"),
    ],
)
def test_mapping_attrs(cls: type, mnemonic: str) -> None:
    for i, mapping_id in enumerate(MappingId):
        attr = cls(mapping_id)
        assert attr.mapping_id == i
        assert attr.is_linear_mapping == (i >= 3)
        assert attr.relative_index == (i - 3 if i >= 3 else i)
        assert text(attr) == f"#gpu.{mnemonic}<{mapping_id.value}>"
        roundtrip(attr)
    assert cls("linear_dim_9").relative_index == 9


def test_memory_space_and_mask() -> None:
    space = GPUMemorySpaceMappingAttr("private")
    assert space.address_space is AddressSpace.Private
    assert text(roundtrip(space)) == "#gpu.memory_space<private>"

    mask = GPUMappingMaskAttr(5)
    assert mask.mask == 5
    assert [mask.is_active(i) for i in range(4)] == [True, False, True, False]
    assert text(roundtrip(mask)) == "#gpu.mask<5>"
    assert GPUMappingMaskAttr(-1).mask == 2**64 - 1
    assert parse_attr("#gpu.mask<-1>") == GPUMappingMaskAttr(2**64 - 1)
    with pytest.raises(VerifyException):
        GPUMappingMaskAttr(2**64)


def test_loop_dim_map() -> None:
    identity = AffineMap.identity(1)
    attr = LoopDimMapAttr("thread_y", identity, AffineMapAttr(identity))
    assert attr.processor_kind is Processor.ThreadY
    assert text(attr) == (
        "#gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), "
        "bound = (d0) -> (d0)>"
    )
    roundtrip(attr)
    reordered = parse_attr(
        "#gpu.loop_dim_map<bound = (d0) -> (d0), processor = thread_y, "
        "map = (d0) -> (d0)>"
    )
    assert reordered == attr


@pytest.mark.parametrize(
    "source",
    [
        "(d0) -> (d0 * 2 - 1)",
        "(d0) -> (-d0)",
        "(d0, d1) -> (d1 - d0)",
        "(d0, d1) -> (d0 - d1 * 3)",
        "(d0)[s0] -> (d0 floordiv 2 + s0 mod 3)",
        "(d0) -> ((d0 floordiv 2) * 4)",
        "(d0) -> (d0 ceildiv 4, 0)",
        "() -> ()",
        "(d0)[s0, s1] -> (d0 + s0 * 2 + s1 - 7)",
    ],
)
def test_affine_maps_print_like_mlir(source: str) -> None:
    attr = parse_attr(f"affine_map<{source}>")
    assert isinstance(attr, AffineMapAttr)
    assert format_affine_map(attr.data) == source


# --------------------------------------------------------------------------------------
# Types
# --------------------------------------------------------------------------------------


def test_mma_matrix_type() -> None:
    t = MMAMatrixType([16, 8], Float16Type(), "AOp")
    assert t.get_shape() == (16, 8)
    assert t.get_num_dims() == 2
    assert t.get_element_type() == Float16Type()
    assert t.get_operand() == t.operand_kind == "AOp"
    assert text(t) == '!gpu.mma_matrix<16x8xf16, "AOp">'
    roundtrip(t)
    for element in (
        IntegerType(8, Signedness.SIGNED),
        IntegerType(8, Signedness.UNSIGNED),
        i32,
        IntegerType(32, Signedness.UNSIGNED),
        Float32Type(),
    ):
        MMAMatrixType([16, 16], element, "COp")


@pytest.mark.parametrize(
    ("shape", "element", "operand", "message"),
    [
        (
            [16, 16],
            Float16Type(),
            "DOp",
            "operand expected to be one of AOp, BOp or COp",
        ),
        ([16], Float16Type(), "AOp", "MMAMatrixType must have exactly two dimensions"),
        (
            [2, 2, 2],
            Float16Type(),
            "AOp",
            "MMAMatrixType must have exactly two dimensions",
        ),
        ([16, 16], i8, "AOp", "MMAMatrixType elements must be SI8, UI8, I32, F16, F32"),
        ([16, 16], i1, "AOp", "MMAMatrixType elements must be SI8, UI8, I32, F16, F32"),
    ],
)
def test_mma_matrix_type_verifier(
    shape: list[int], element: Attribute, operand: str, message: str
) -> None:
    with pytest.raises(VerifyException, match=message):
        MMAMatrixType(shape, element, operand)


def test_sparse_handle_types() -> None:
    for cls, name in (
        (SparseDnTensorHandleType, "!gpu.sparse.dntensor_handle"),
        (SparseSpMatHandleType, "!gpu.sparse.spmat_handle"),
        (SparseSpGEMMOpHandleType, "!gpu.sparse.spgemmop_handle"),
        (AsyncTokenType, "!gpu.async.token"),
    ):
        assert text(cls()) == name
        roundtrip(cls())
        assert cls in GPU.attributes


# --------------------------------------------------------------------------------------
# Kernel metadata and tables
# --------------------------------------------------------------------------------------


def _fn(*inputs: Attribute) -> FunctionType:
    return FunctionType.from_lists(list(inputs), [])


def test_kernel_metadata() -> None:
    k = KernelMetadataAttr(
        "k",
        _fn(i32),
        [DictionaryAttr({"llvm.noalias": UnitAttr()})],
        {"n": IntegerAttr(1, i32)},
    )
    assert k.kernel == "k"
    assert k.get_attr("n") == IntegerAttr(1, i32)
    assert k.get_attr("missing") is None
    assert k.get_arg_attr(0, "llvm.noalias") == UnitAttr()
    assert text(k) == (
        '#gpu.kernel_metadata<"k", (i32) -> (), arg_attrs = [{llvm.noalias}], '
        "metadata = {n = 1 : i32}>"
    )
    roundtrip(k)
    bare = KernelMetadataAttr("k", _fn())
    assert bare.get_arg_attr_dict(0) is None
    assert text(bare) == '#gpu.kernel_metadata<"k", () -> ()>'
    more = bare.append_metadata({"reg_count": IntegerAttr(10, i32)})
    assert more.get_attr("reg_count") == IntegerAttr(10, i32)
    assert bare.append_metadata({}) is bare
    with pytest.raises(VerifyException, match="the kernel name can't be empty"):
        KernelMetadataAttr("", _fn())
    with pytest.raises(VerifyException, match="must be a dictionary attribute"):
        KernelMetadataAttr("k", _fn(i32), [IntegerAttr(1, i32)])


def test_kernel_metadata_from_a_function() -> None:
    module = parse(
        "func.func @kern(%a: i32 {llvm.noalias}) attributes {gpu.kernel} {\n"
        "  func.return\n}\n"
    )
    func = next(iter(module.body.block.ops))
    k = KernelMetadataAttr.from_kernel(func, {"x": UnitAttr()})
    assert k.kernel == "kern"
    assert k.function_type == _fn(i32)
    assert k.get_arg_attr(0, "llvm.noalias") == UnitAttr()
    assert k.get_attr("x") == UnitAttr()


def test_kernel_table_sorts_and_looks_up() -> None:
    b, upper_b, a = (KernelMetadataAttr(n, _fn()) for n in ("b", "B", "a"))
    table = KernelTableAttr([b, upper_b, a])
    assert [k.kernel for k in table.kernels] == ["B", "a", "b"]
    assert table.lookup("a") is a
    assert table.lookup("c") is None
    assert text(KernelTableAttr()) == "#gpu.kernel_table<>"
    roundtrip(table)
    roundtrip(KernelTableAttr())
    with pytest.raises(VerifyException, match="uniquely named"):
        KernelTableAttr([a, KernelMetadataAttr("a", _fn(i32))])
    with pytest.raises(VerifyException, match="sorted"):
        KernelTableAttr.new([ArrayAttr([b, a])])


# --------------------------------------------------------------------------------------
# #gpu.object and #gpu.select_object
# --------------------------------------------------------------------------------------


def test_object_builder_and_accessors() -> None:
    target = FakeTargetAttr()
    obj = ObjectAttr(target, b"\x00abc\xff")
    assert obj.format is CompilationTarget.Fatbin
    assert obj.object_bytes == b"\x00abc\xff"
    assert obj.properties_dict is None
    assert obj.kernel_table is None
    assert text(obj) == '#gpu.object<#gputest.target, "\\00abc\\FF">'

    for fmt in ("bin", 3, CompilationTarget.Binary):
        assert ObjectAttr(target, b"", format=fmt).format is CompilationTarget.Binary
    assert [f.int_value for f in CompilationTarget] == [1, 2, 3, 4]

    ptx = ObjectAttr(
        target,
        ".version 8.0\n",
        format="assembly",
        properties={"O": IntegerAttr(3, i32)},
        kernels=[KernelMetadataAttr("k", _fn())],
    )
    assert ptx.object_bytes == b".version 8.0\n"
    assert ptx.get_property("O") == IntegerAttr(3, i32)
    assert ptx.get_property("section") is None
    assert ptx.kernel_table is not None
    assert ptx.kernel_table.lookup("k") is not None
    assert text(ptx) == (
        "#gpu.object<#gputest.target, properties = {O = 3 : i32}, "
        'kernels = <[#gpu.kernel_metadata<"k", () -> ()>]>, '
        'assembly = ".version 8.0\\0A">'
    )
    roundtrip(ptx)
    assert ObjectAttr(target, StringAttr("x")).object_bytes == b"x"
    with pytest.raises(ValueError, match="no gpu object format has the value 7"):
        ObjectAttr(target, b"", format=7)
    with pytest.raises(VerifyException, match="TargetAttrInterface"):
        ObjectAttr(StringAttr("nvvm"), b"")


def test_object_format_keywords() -> None:
    for keyword, fmt in (
        ("offload", CompilationTarget.Offload),
        ("assembly", CompilationTarget.Assembly),
        ("bin", CompilationTarget.Binary),
        ("fatbin", CompilationTarget.Fatbin),
    ):
        obj = parse_attr(f'#gpu.object<#gputest.target, {keyword} = "x">')
        assert isinstance(obj, ObjectAttr)
        assert obj.format is fmt
    # The default format is elided.
    assert text(parse_attr('#gpu.object<#gputest.target, fatbin = "x">')) == (
        '#gpu.object<#gputest.target, "x">'
    )
    # Both spellings of the kernel table parse; the stripped one prints.
    full = parse_attr('#gpu.object<#gputest.target, kernels = #gpu.kernel_table<>, "">')
    assert text(full) == '#gpu.object<#gputest.target, kernels = <>, "">'


def test_object_payload_of_every_escape_form() -> None:
    # Escapes that MLIR accepts but never prints: \n \t \" \\ and lower-case hex,
    # and raw UTF-8.
    obj = parse_attr('#gpu.object<#gputest.target, "a\\n\\t\\"\\\\b\\0a\\fFé">')
    assert isinstance(obj, ObjectAttr)
    assert obj.object_bytes == b'a\n\t"\\b\n\xff' + "é".encode()
    assert (
        text(obj)
        == '#gpu.object<#gputest.target, "a\\0A\\09\\22\\\\b\\0A\\FF\\C3\\A9">'
    )


@pytest.mark.parametrize("seed", range(8))
def test_random_object_bytes_roundtrip_exactly(seed: int) -> None:
    """Arbitrary payloads (NULs, quotes, backslashes, invalid UTF-8, valid UTF-8)
    survive print -> parse byte for byte, through the whole module printer too."""
    rng = random.Random(seed)
    sizes = [0, 1, 2, 3, 7, 16, 255, 256, 1000, 4096, rng.randrange(1, 70000)]
    for size in sizes:
        payload = rng.randbytes(size)
        if size >= 256 and seed % 2 == 0:
            # Every byte value at least once.
            payload = bytes(range(256)) + payload[256:]
        for fmt in CompilationTarget:
            obj = ObjectAttr(FakeTargetAttr(), payload, format=fmt)
            again = parse_attr(text(obj))
            assert isinstance(again, ObjectAttr)
            assert again.object_bytes == payload
            assert again.format is fmt
            assert again == obj


def test_object_bytes_survive_a_module_roundtrip() -> None:
    payload = bytes(range(256)) * 3 + b'"\\\\"\x00'
    obj = ObjectAttr(FakeTargetAttr(), payload, format="bin")
    module = ModuleOp([])
    module.attributes["obj"] = obj
    for generic in (False, True):
        printed = print_module(module, generic=generic)
        again = Parser(CTX, printed).parse_module()
        assert again.attributes["obj"] == obj


def test_escape_matches_xdsl_and_mlir_text() -> None:
    rng = random.Random(42)
    for size in (0, 1, 5, 300, 5000):
        data = rng.randbytes(size)
        out = io.StringIO()
        Printer(stream=out).print_bytes_literal(data)
        assert f'"{escape_mlir_bytes(data)}"' == out.getvalue()


def test_unescape_matches_xdsl_lexer() -> None:
    """The fast decoder gives the same bytes, and refuses the same bodies, as xDSL's
    ``StringLiteral.bytes_contents``."""
    rng = random.Random(7)
    pieces = [
        "\\\\",
        "\\n",
        "\\t",
        '\\"',
        "a",
        "n",
        "5",
        "C",
        "é",
        "\\0a",
        "\\5C",
        "\\Ff",
        "x",
        "\\41",
        "\\",
        "g",
    ]
    for _ in range(20000):
        body = "".join(rng.choice(pieces) for _ in range(rng.randrange(12)))
        try:
            expected: bytes | None = StringLiteral(
                0, len(body) + 2, Input(f'"{body}"', "t")
            ).bytes_contents
        except ParseError:
            expected = None
        try:
            got: bytes | None = unescape_mlir_string(body)
        except ValueError:
            got = None
        assert got == expected, body
    data = random.Random(8).randbytes(1 << 16)
    assert unescape_mlir_string(escape_mlir_bytes(data)) == data


@pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 not installed")
def test_object_bytes_roundtrip_through_mlir_opt() -> None:
    """Our printed objects go through mlir-opt-22 unchanged, and we read back exactly
    the bytes it prints."""
    assert MLIR_OPT is not None
    rng = random.Random(3)
    payloads = [bytes(range(256)), b"", b'"\\', "é".encode(), rng.randbytes(3000)]
    payloads += [rng.randbytes(rng.randrange(1, 600)) for _ in range(20)]
    target = parse_attr('#nvvm.target<chip = "sm_90">')
    module = ModuleOp([])
    for i, payload in enumerate(payloads):
        fmt = list(CompilationTarget)[i % 4]
        module.attributes[f"test.o{i}"] = ObjectAttr(target, payload, format=fmt)
    ours = print_module(module)
    done = subprocess.run(
        [MLIR_OPT], input=ours, capture_output=True, text=True, check=True
    )
    for i, payload in enumerate(payloads):
        assert f'"{escape_mlir_bytes(payload)}">' in done.stdout
    again = Parser(CTX, done.stdout).parse_module()
    for i, payload in enumerate(payloads):
        obj = again.attributes[f"test.o{i}"]
        assert isinstance(obj, ObjectAttr)
        assert obj.object_bytes == payload
        assert obj == module.attributes[f"test.o{i}"]


def test_targets() -> None:
    assert is_gpu_target_attr(FakeTargetAttr())
    assert not is_gpu_target_attr(StringAttr("nvvm.target"))
    assert not is_gpu_target_attr(AddressSpaceAttr("global"))


def test_select_object() -> None:
    target, other = FakeTargetAttr(), SelectObjectAttr()
    default = SelectObjectAttr()
    assert default.index == 0
    assert default.target_attr is None
    assert text(default) == "#gpu.select_object"
    by_index = SelectObjectAttr(1)
    assert by_index.index == 1
    assert by_index.target_attr is None
    assert text(by_index) == "#gpu.select_object<1 : i64>"
    assert SelectObjectAttr(IntegerAttr(2, IndexType())).index == 2
    by_target = SelectObjectAttr(target)
    assert by_target.index is None
    assert by_target.target_attr == target
    assert text(by_target) == "#gpu.select_object<#gputest.target>"
    for attr in (default, by_index, by_target):
        roundtrip(attr)
    del other

    objects = [
        ObjectAttr(target, b"0"),
        ObjectAttr(target, b"1"),
        ObjectAttr(target, b"2"),
    ]
    assert default.select(objects).object_bytes == b"0"
    assert by_index.select(objects).object_bytes == b"1"
    # Upstream keeps the last object whose target matches.
    assert by_target.select(objects).object_bytes == b"2"
    with pytest.raises(VerifyException, match="couldn't be found"):
        SelectObjectAttr(3).select(objects)
    with pytest.raises(VerifyException, match="couldn't be found"):
        default.select([])

    with pytest.raises(VerifyException, match="the object index must be positive"):
        SelectObjectAttr(-1)
    with pytest.raises(VerifyException, match="the object index must be positive"):
        SelectObjectAttr(IntegerAttr(1, i1))  # `true` is -1 as a signless i1
    with pytest.raises(VerifyException, match="must be a GPU Target attribute"):
        SelectObjectAttr(StringAttr("x"))


# --------------------------------------------------------------------------------------
# Discardable attributes
# --------------------------------------------------------------------------------------


def _i32_array(*values: int) -> DenseArrayBase:
    return DenseArrayBase.from_list(i32, values)


@pytest.mark.parametrize(
    "name",
    [
        KNOWN_BLOCK_SIZE_ATTR_NAME,
        KNOWN_GRID_SIZE_ATTR_NAME,
        KNOWN_CLUSTER_SIZE_ATTR_NAME,
    ],
)
def test_known_launch_sizes(name: str) -> None:
    op = ModuleOp([])
    verify_discardable_gpu_attr(op, name, _i32_array(1, 2, 3))
    with pytest.raises(
        VerifyException, match=f"^{name} must contain exactly 3 elements$"
    ):
        verify_discardable_gpu_attr(op, name, _i32_array(1, 2))
    for wrong in (
        DenseArrayBase.from_list(i64, [1, 2, 3]),
        IntegerAttr(1, i64),
        ArrayAttr([]),
    ):
        with pytest.raises(
            VerifyException, match=f"^{name} must be a dense i32 array$"
        ):
            verify_discardable_gpu_attr(op, name, wrong)


def test_container_module_and_kernel() -> None:
    module = ModuleOp([])
    verify_discardable_gpu_attr(module, CONTAINER_MODULE_ATTR_NAME, UnitAttr())
    func = parse("func.func @f() {\n  func.return\n}\n").body.block.first_op
    assert func is not None
    with pytest.raises(
        VerifyException,
        match=re.escape(CONTAINER_MODULE_ERROR),
    ):
        verify_discardable_gpu_attr(func, CONTAINER_MODULE_ATTR_NAME, UnitAttr())
    # Not unit: upstream does not look at it; neither does it look at gpu.kernel.
    verify_discardable_gpu_attr(func, CONTAINER_MODULE_ATTR_NAME, IntegerAttr(1, i64))
    verify_discardable_gpu_attr(func, KERNEL_ATTR_NAME, IntegerAttr(1, i64))
    verify_discardable_gpu_attr(func, "gpu.anything", IntegerAttr(1, i64))


@pytest.mark.parametrize(
    ("attrs", "message"),
    [
        (
            "gpu.known_block_size = array<i32: 1, 2>",
            "'func.func' op gpu.known_block_size must contain exactly 3 elements",
        ),
        (
            "gpu.known_grid_size = array<i64: 1, 2, 3>",
            "'func.func' op gpu.known_grid_size must be a dense i32 array",
        ),
        (
            "gpu.known_cluster_size = [1, 2, 3]",
            "'func.func' op gpu.known_cluster_size must be a dense i32 array",
        ),
        (
            "gpu.container_module",
            CONTAINER_MODULE_ERROR,
        ),
    ],
)
def test_verify_discardable_attrs_of_a_tree(attrs: str, message: str) -> None:
    source = f"func.func @f() attributes {{{attrs}}} {{\n  func.return\n}}\n"
    module = Parser(make_context(), source).parse_module()
    with pytest.raises(VerifyException) as info:
        verify_discardable_gpu_attrs(module)
    assert str(info.value) == message
    # Ordinary verification checks them too (the hook of xdsl_gpu/gpu_dialect/registration.py).
    with pytest.raises(VerifyException, match=re.escape(message)):
        module.verify()
    if MLIR_OPT is not None:
        upstream = subprocess.run(
            [MLIR_OPT],
            input=source.replace("func.return", "return"),
            capture_output=True,
            text=True,
            check=False,
        )
        assert upstream.returncode != 0
        assert message in upstream.stderr


def test_valid_discardable_attrs_of_a_tree() -> None:
    module = parse(
        "module attributes {gpu.container_module} {\n"
        "  func.func @f() attributes {gpu.kernel, gpu.known_block_size = "
        "array<i32: 1, 2, 3>, gpu.known_grid_size = array<i32: 4, 5, 6>} {\n"
        "    func.return\n  }\n}\n"
    )
    verify_discardable_gpu_attrs(module)


# --------------------------------------------------------------------------------------
# Upstream rejects each invalid chunk with our message
# --------------------------------------------------------------------------------------

INVALID = (
    Path(__file__).parents[1]
    / "filecheck"
    / "dialects"
    / "gpu"
    / "invalid_attributes.mlir"
)
INVALID_CHUNKS = INVALID.read_text().split("// -----")


@pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 not installed")
@pytest.mark.parametrize("chunk", INVALID_CHUNKS)
def test_upstream_rejects_each_invalid_chunk_with_our_message(chunk: str) -> None:
    assert MLIR_OPT is not None
    messages = [
        line.removeprefix("// CHECK: ")
        for line in chunk.splitlines()
        if line.startswith("// CHECK: ") and not line.startswith("// CHECK: @")
    ]
    assert len(messages) == 1
    done = subprocess.run(
        [MLIR_OPT],
        input=chunk.replace("func.return", "return"),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0, f"mlir-opt-22 accepts:\n{chunk}"
    assert f"error: {messages[0]}" in done.stderr
