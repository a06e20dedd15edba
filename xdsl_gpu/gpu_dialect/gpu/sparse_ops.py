"""The host-side sparse ops of the ``gpu`` dialect (cuSPARSE / cuSPARSELt through
the ``mgpu*`` runtime), and their enums.

Upstream: ``GPUOps.td``, from ``GPU_CreateDnTensorOp`` to ``GPU_SetCsrPointersOp``.
Every op is asynchronous (:class:`AsyncOpInterface`): ``async [%deps]`` first, the
token last among the results. Upstream gives them no verifier beyond their operand,
result and attribute types. Matrix operands may carry a transpose mode in braces
(``%spmatA{TRANSPOSE}``); ``NON_TRANSPOSE``, the default, is not printed.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IndexType
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    Operation,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    AttrSizedResultSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum

from xdsl_gpu.gpu_dialect.gpu.attributes import expect_punctuation
from xdsl_gpu.gpu_dialect.gpu.constraints import (
    AnyMemRef,
    ODSIndex,
    PropertyOf,
    UpstreamEnumSyntax,
    instance_of,
    required_prop_def,
    variadic,
    verify_required_properties,
)
from xdsl_gpu.gpu_dialect.gpu.memory_ops import (
    ASYNC_PREFIX,
    AsyncOpInterface,
    async_dependencies_def,
    async_operands,
    async_result_types,
    async_token_def,
)
from xdsl_gpu.gpu_dialect.gpu.types import (
    SparseDnTensorHandleType,
    SparseSpGEMMOpHandleType,
    SparseSpMatHandleType,
)

Value = SSAValue | Operation
Values = Sequence[SSAValue | Operation]

# --------------------------------------------------------------------------------
# Enums
# --------------------------------------------------------------------------------


class Prune2To4SpMatFlag(StrEnum):
    """Pruning strategy of ``gpu.create_2to4_spmat``."""

    NONE = "NONE"
    PRUNE_ONLY = "PRUNE_ONLY"
    PRUNE_AND_CHECK = "PRUNE_AND_CHECK"


@irdl_attr_definition
class Prune2To4SpMatFlagAttr(
    UpstreamEnumSyntax, EnumAttribute[Prune2To4SpMatFlag], SpacedOpaqueSyntaxAttribute
):
    """``#gpu<prune_2to4_spmat_flag PRUNE_AND_CHECK>``"""

    name = "gpu.prune_2to4_spmat_flag"
    cpp_name = "::mlir::gpu::Prune2To4SpMatFlag"


class TransposeMode(StrEnum):
    """How a sparse op reads a matrix operand (values of cuSPARSE's
    ``cusparseOperation_t``: 0, 1, 2)."""

    NON_TRANSPOSE = "NON_TRANSPOSE"
    TRANSPOSE = "TRANSPOSE"
    CONJUGATE_TRANSPOSE = "CONJUGATE_TRANSPOSE"


@irdl_attr_definition
class TransposeModeAttr(
    UpstreamEnumSyntax, EnumAttribute[TransposeMode], SpacedOpaqueSyntaxAttribute
):
    """``#gpu<mat_transpose_mode TRANSPOSE>``"""

    name = "gpu.mat_transpose_mode"
    cpp_name = "::mlir::gpu::TransposeMode"


class SpGEMMWorkEstimationOrComputeKind(StrEnum):
    """Which cuSPARSE call ``gpu.spgemm_work_estimation_or_compute`` makes."""

    WORK_ESTIMATION = "WORK_ESTIMATION"
    COMPUTE = "COMPUTE"


@irdl_attr_definition
class SpGEMMWorkEstimationOrComputeKindAttr(
    UpstreamEnumSyntax,
    EnumAttribute[SpGEMMWorkEstimationOrComputeKind],
    SpacedOpaqueSyntaxAttribute,
):
    """``#gpu<spgemm_work_estimation_or_compute_kind COMPUTE>``"""

    name = "gpu.spgemm_work_estimation_or_compute_kind"
    cpp_name = "::mlir::gpu::SpGEMMWorkEstimationOrComputeKind"


# --------------------------------------------------------------------------------
# Shared pieces
# --------------------------------------------------------------------------------

_NON_TRANSPOSE = TransposeModeAttr(TransposeMode.NON_TRANSPOSE)

SpMatHandle = instance_of(
    SparseSpMatHandleType, "sparse matrix handle type", SparseSpMatHandleType()
)
"""ODS ``GPU_SparseSpMatHandle``."""

DnTensorHandle = instance_of(
    SparseDnTensorHandleType, "dense tensor handle type", SparseDnTensorHandleType()
)
"""ODS ``GPU_SparseDnTensorHandle``."""

SpGEMMOpHandle = instance_of(
    SparseSpGEMMOpHandleType,
    "SpGEMM operation handle type",
    SparseSpGEMMOpHandleType(),
)
"""ODS ``GPU_SparseSpGEMMOpHandle``."""


def _compute_type_def():
    """The ``computeType`` property: any type (upstream ``TypeAttr``), required."""
    return required_prop_def("computeType", TypeAttribute)


def _memref_type(operand: str) -> str:
    """``type($operand)`` of a memref operand, with upstream's parse error for a
    type of another kind."""
    return f"custom<MemRefKind>(type(${operand}))"


def _mode_def(prop_name: str):
    """A matrix transpose mode, ``NON_TRANSPOSE`` when absent (upstream's default)."""
    return prop_def(
        PropertyOf(prop_name, TransposeModeAttr),
        default_value=_NON_TRANSPOSE,
        prop_name=prop_name,
    )


def _mode(mode: TransposeMode | TransposeModeAttr) -> TransposeModeAttr:
    return mode if isinstance(mode, TransposeModeAttr) else TransposeModeAttr(mode)


@irdl_custom_directive
class EnumInBraces(CustomDirective):
    """`` `{` $enum `}` `` printed even when the enum has its default value, as
    upstream prints ``{PRUNE_AND_CHECK}`` (xDSL's formats elide default values)."""

    attr: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        expect_punctuation(parser, "{")
        self.attr.parse(parser, state)
        expect_punctuation(parser, "}")

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        attr = self.attr.get(op) or self.attr.default_value
        assert attr is not None
        state.print_whitespace(printer)
        printer.print_string("{")
        self.attr.print_attr(printer, attr)
        printer.print_string("}")


class _SparseOp(AsyncOpInterface, IRDLOperation):
    """Base of the sparse ops: builds ``operands`` after the dependencies and
    ``results`` before the optional token."""

    custom_directives = (*AsyncOpInterface.custom_directives, EnumInBraces)

    def verify_(self) -> None:
        verify_required_properties(self)

    def _build(
        self,
        operands: Sequence[Value | Values],
        results: Sequence[Attribute | Sequence[Attribute]],
        async_dependencies: Values,
        is_async: bool,
        properties: dict[str, Attribute] | None = None,
    ) -> None:
        IRDLOperation.__init__(
            self,
            operands=[async_operands(async_dependencies), *operands],
            result_types=[*results, async_result_types(is_async)],
            properties=properties or {},
        )


# --------------------------------------------------------------------------------
# Dense tensors
# --------------------------------------------------------------------------------


@irdl_op_definition
class CreateDnTensorOp(_SparseOp):
    """``%dn, %t = gpu.create_dn_tensor async [%dep] %mem, %dims : index, index into
    memref<?xf64>``: a dense tensor handle over a device buffer."""

    name = "gpu.create_dn_tensor"

    async_dependencies = async_dependencies_def()
    memref = operand_def(AnyMemRef)
    dims = var_operand_def(variadic(ODSIndex))
    dn_tensor = result_def(DnTensorHandle)
    async_token = async_token_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    assembly_format = (
        f"{ASYNC_PREFIX} $memref `,` $dims attr-dict `:` type($dims) "
        f"`into` {_memref_type('memref')}"
    )

    def __init__(
        self,
        memref: Value,
        dims: Values,
        *,
        async_dependencies: Values = (),
        is_async: bool = False,
    ):
        self._build(
            [memref, list(dims)],
            [SparseDnTensorHandleType()],
            async_dependencies,
            is_async,
        )


@irdl_op_definition
class DestroyDnTensorOp(_SparseOp):
    """``%t = gpu.destroy_dn_tensor async [%dep] %dnTensor``"""

    name = "gpu.destroy_dn_tensor"

    async_dependencies = async_dependencies_def()
    dn_tensor = operand_def(DnTensorHandle)
    async_token = async_token_def()

    assembly_format = f"{ASYNC_PREFIX} $dn_tensor attr-dict"

    def __init__(
        self,
        dn_tensor: Value,
        *,
        async_dependencies: Values = (),
        is_async: bool = False,
    ):
        self._build([dn_tensor], [], async_dependencies, is_async)


# --------------------------------------------------------------------------------
# Sparse matrices
# --------------------------------------------------------------------------------


class _CreateSpMatOp(_SparseOp):
    """Sizes (index) then three device buffers; returns a sparse matrix handle."""

    def __init__(
        self,
        rows: Value,
        cols: Value,
        nnz: Value,
        buffer0: Value,
        buffer1: Value,
        values: Value,
        *,
        async_dependencies: Values = (),
        is_async: bool = False,
    ):
        self._build(
            [rows, cols, nnz, buffer0, buffer1, values],
            [SparseSpMatHandleType()],
            async_dependencies,
            is_async,
        )


def _create_spmat_format(b0: str, b1: str) -> str:
    return (
        f"{ASYNC_PREFIX} $rows `,` $cols `,` $nnz `,` ${b0} `,` ${b1} `,` $values "
        f"attr-dict `:` {_memref_type(b0)} `,` {_memref_type(b1)} `,` "
        f"{_memref_type('values')}"
    )


@irdl_op_definition
class CreateCooOp(_CreateSpMatOp):
    """``%spmat, %t = gpu.create_coo async [%dep] %rows, %cols, %nnz, %rowIdx,
    %colIdx, %values : memref<?xindex>, memref<?xindex>, memref<?xf64>`` (COO, SoA).
    """

    name = "gpu.create_coo"

    async_dependencies = async_dependencies_def()
    rows = operand_def(ODSIndex)
    cols = operand_def(ODSIndex)
    nnz = operand_def(ODSIndex)
    row_idxs = operand_def(AnyMemRef)
    col_idxs = operand_def(AnyMemRef)
    values = operand_def(AnyMemRef)
    spmat = result_def(SpMatHandle)
    async_token = async_token_def()

    assembly_format = _create_spmat_format("row_idxs", "col_idxs")


@irdl_op_definition
class CreateCooAoSOp(_SparseOp):
    """``%spmat, %t = gpu.create_coo_aos async [%dep] %rows, %cols, %nnz, %idxs,
    %values : memref<?xindex>, memref<?xf64>`` (COO from one interleaved index
    buffer; deprecated in cuSPARSE 11.2)."""

    name = "gpu.create_coo_aos"

    async_dependencies = async_dependencies_def()
    rows = operand_def(ODSIndex)
    cols = operand_def(ODSIndex)
    nnz = operand_def(ODSIndex)
    idxs = operand_def(AnyMemRef)
    values = operand_def(AnyMemRef)
    spmat = result_def(SpMatHandle)
    async_token = async_token_def()

    assembly_format = (
        f"{ASYNC_PREFIX} $rows `,` $cols `,` $nnz `,` $idxs `,` $values attr-dict "
        f"`:` {_memref_type('idxs')} `,` {_memref_type('values')}"
    )

    def __init__(
        self,
        rows: Value,
        cols: Value,
        nnz: Value,
        idxs: Value,
        values: Value,
        *,
        async_dependencies: Values = (),
        is_async: bool = False,
    ):
        self._build(
            [rows, cols, nnz, idxs, values],
            [SparseSpMatHandleType()],
            async_dependencies,
            is_async,
        )


@irdl_op_definition
class CreateCsrOp(_CreateSpMatOp):
    """``%spmat, %t = gpu.create_csr async [%dep] %rows, %cols, %nnz, %rowPos,
    %colIdx, %values : memref<?xindex>, memref<?xindex>, memref<?xf64>``"""

    name = "gpu.create_csr"

    async_dependencies = async_dependencies_def()
    rows = operand_def(ODSIndex)
    cols = operand_def(ODSIndex)
    nnz = operand_def(ODSIndex)
    row_pos = operand_def(AnyMemRef)
    col_idxs = operand_def(AnyMemRef)
    values = operand_def(AnyMemRef)
    spmat = result_def(SpMatHandle)
    async_token = async_token_def()

    assembly_format = _create_spmat_format("row_pos", "col_idxs")


@irdl_op_definition
class CreateCscOp(_CreateSpMatOp):
    """``%spmat, %t = gpu.create_csc async [%dep] %rows, %cols, %nnz, %colPos,
    %rowIdx, %values : memref<?xindex>, memref<?xindex>, memref<?xf64>``"""

    name = "gpu.create_csc"

    async_dependencies = async_dependencies_def()
    rows = operand_def(ODSIndex)
    cols = operand_def(ODSIndex)
    nnz = operand_def(ODSIndex)
    col_pos = operand_def(AnyMemRef)
    row_idxs = operand_def(AnyMemRef)
    values = operand_def(AnyMemRef)
    spmat = result_def(SpMatHandle)
    async_token = async_token_def()

    assembly_format = _create_spmat_format("col_pos", "row_idxs")


@irdl_op_definition
class CreateBsrOp(_SparseOp):
    """``%spmat, %t = gpu.create_bsr async [%dep] %brows, %bcols, %bnnz,
    %rBlockSize, %cBlockSize, %bRowPos, %bColIdxs, %values : memref<?xindex>,
    memref<?xindex>, memref<?xf64>`` (block CSR; cuSPARSE wants square blocks)."""

    name = "gpu.create_bsr"

    async_dependencies = async_dependencies_def()
    brows = operand_def(ODSIndex)
    bcols = operand_def(ODSIndex)
    bnnz = operand_def(ODSIndex)
    r_block_size = operand_def(ODSIndex)
    c_block_size = operand_def(ODSIndex)
    b_row_pos = operand_def(AnyMemRef)
    b_col_idxs = operand_def(AnyMemRef)
    values = operand_def(AnyMemRef)
    spmat = result_def(SpMatHandle)
    async_token = async_token_def()

    assembly_format = (
        f"{ASYNC_PREFIX} $brows `,` $bcols `,` $bnnz `,` $r_block_size `,` "
        "$c_block_size `,` $b_row_pos `,` $b_col_idxs `,` $values attr-dict "
        f"`:` {_memref_type('b_row_pos')} `,` {_memref_type('b_col_idxs')} `,` "
        f"{_memref_type('values')}"
    )

    def __init__(
        self,
        brows: Value,
        bcols: Value,
        bnnz: Value,
        r_block_size: Value,
        c_block_size: Value,
        b_row_pos: Value,
        b_col_idxs: Value,
        values: Value,
        *,
        async_dependencies: Values = (),
        is_async: bool = False,
    ):
        self._build(
            [
                *(brows, bcols, bnnz, r_block_size, c_block_size),
                *(b_row_pos, b_col_idxs, values),
            ],
            [SparseSpMatHandleType()],
            async_dependencies,
            is_async,
        )


@irdl_op_definition
class Create2To4SpMatOp(_SparseOp):
    """``%spmat, %t = gpu.create_2to4_spmat async [%dep] {PRUNE_AND_CHECK} %rows,
    %cols, %mem : memref<?xf64>``: a dense matrix with 2:4 sparsity (cuSPARSELt)."""

    name = "gpu.create_2to4_spmat"

    async_dependencies = async_dependencies_def()
    rows = operand_def(ODSIndex)
    cols = operand_def(ODSIndex)
    prune_flag = prop_def(
        PropertyOf("pruneFlag", Prune2To4SpMatFlagAttr),
        default_value=Prune2To4SpMatFlagAttr(Prune2To4SpMatFlag.PRUNE_AND_CHECK),
        prop_name="pruneFlag",
    )
    memref = operand_def(AnyMemRef)
    spmat = result_def(SpMatHandle)
    async_token = async_token_def()

    assembly_format = (
        f"{ASYNC_PREFIX} custom<EnumInBraces>($pruneFlag) $rows `,` $cols `,` "
        f"$memref attr-dict `:` {_memref_type('memref')}"
    )

    def __init__(
        self,
        rows: Value,
        cols: Value,
        memref: Value,
        *,
        prune_flag: Prune2To4SpMatFlag = Prune2To4SpMatFlag.PRUNE_AND_CHECK,
        async_dependencies: Values = (),
        is_async: bool = False,
    ):
        self._build(
            [rows, cols, memref],
            [SparseSpMatHandleType()],
            async_dependencies,
            is_async,
            {"pruneFlag": Prune2To4SpMatFlagAttr(prune_flag)},
        )


@irdl_op_definition
class DestroySpMatOp(_SparseOp):
    """``%t = gpu.destroy_sp_mat async [%dep] %spmat``"""

    name = "gpu.destroy_sp_mat"

    async_dependencies = async_dependencies_def()
    spmat = operand_def(SpMatHandle)
    async_token = async_token_def()

    assembly_format = f"{ASYNC_PREFIX} $spmat attr-dict"

    def __init__(
        self,
        spmat: Value,
        *,
        async_dependencies: Values = (),
        is_async: bool = False,
    ):
        self._build([spmat], [], async_dependencies, is_async)


# --------------------------------------------------------------------------------
# SpMV, SpMM, SDDMM
# --------------------------------------------------------------------------------


@irdl_op_definition
class SpMVBufferSizeOp(_SparseOp):
    """``%size, %t = gpu.spmv_buffer_size async [%dep] %spmatA{TRANSPOSE}, %dnX,
    %dnY into f32``: the workspace size that ``gpu.spmv`` needs."""

    name = "gpu.spmv_buffer_size"

    async_dependencies = async_dependencies_def()
    mode_a = _mode_def("modeA")
    spmat_a = operand_def(SpMatHandle)
    dn_x = operand_def(DnTensorHandle)
    dn_y = operand_def(DnTensorHandle)
    compute_type = _compute_type_def()
    buffer_sz = result_def(ODSIndex)
    async_token = async_token_def()

    assembly_format = (
        f"{ASYNC_PREFIX} $spmat_a (`{{` $modeA^ `}}`)? `,` $dn_x `,` $dn_y "
        "attr-dict `into` $computeType"
    )

    def __init__(
        self,
        spmat_a: Value,
        dn_x: Value,
        dn_y: Value,
        compute_type: Attribute,
        *,
        mode_a: TransposeMode | TransposeModeAttr = TransposeMode.NON_TRANSPOSE,
        async_dependencies: Values = (),
        is_async: bool = False,
    ):
        self._build(
            [spmat_a, dn_x, dn_y],
            [IndexType()],
            async_dependencies,
            is_async,
            {"modeA": _mode(mode_a), "computeType": compute_type},
        )


@irdl_op_definition
class SpMVOp(_SparseOp):
    """``%t = gpu.spmv async [%dep] %spmatA{TRANSPOSE}, %dnX, %dnY, %buffer :
    memref<?xf64> into bf16``: y = op(A)·x."""

    name = "gpu.spmv"

    async_dependencies = async_dependencies_def()
    mode_a = _mode_def("modeA")
    spmat_a = operand_def(SpMatHandle)
    dn_x = operand_def(DnTensorHandle)
    dn_y = operand_def(DnTensorHandle)
    compute_type = _compute_type_def()
    buffer = operand_def(AnyMemRef)
    async_token = async_token_def()

    assembly_format = (
        f"{ASYNC_PREFIX} $spmat_a (`{{` $modeA^ `}}`)? `,` $dn_x `,` $dn_y `,` "
        f"$buffer attr-dict `:` {_memref_type('buffer')} `into` $computeType"
    )

    def __init__(
        self,
        spmat_a: Value,
        dn_x: Value,
        dn_y: Value,
        buffer: Value,
        compute_type: Attribute,
        *,
        mode_a: TransposeMode | TransposeModeAttr = TransposeMode.NON_TRANSPOSE,
        async_dependencies: Values = (),
        is_async: bool = False,
    ):
        self._build(
            [spmat_a, dn_x, dn_y, buffer],
            [],
            async_dependencies,
            is_async,
            {"modeA": _mode(mode_a), "computeType": compute_type},
        )


@irdl_op_definition
class SpMMBufferSizeOp(_SparseOp):
    """``%sizes, %t = gpu.spmm_buffer_size async [%dep] %spmatA{TRANSPOSE},
    %dnmatB{TRANSPOSE}, %dnmatC : index into f32``: the workspace size(s) of
    ``gpu.spmm`` (one for SpMM, three for the 2:4 cuSPARSELt path)."""

    name = "gpu.spmm_buffer_size"

    async_dependencies = async_dependencies_def()
    mode_a = _mode_def("modeA")
    mode_b = _mode_def("modeB")
    spmat_a = operand_def(SpMatHandle)
    dnmat_b = operand_def(DnTensorHandle)
    dnmat_c = operand_def(DnTensorHandle)
    compute_type = _compute_type_def()
    buffer_szs = var_result_def(variadic(ODSIndex))
    async_token = async_token_def()

    irdl_options = (AttrSizedResultSegments(as_property=True),)

    assembly_format = (
        f"{ASYNC_PREFIX} $spmat_a (`{{` $modeA^ `}}`)? `,` $dnmat_b "
        "(`{` $modeB^ `}`)? `,` $dnmat_c attr-dict `:` type($buffer_szs) "
        "`into` $computeType"
    )

    def __init__(
        self,
        spmat_a: Value,
        dnmat_b: Value,
        dnmat_c: Value,
        compute_type: Attribute,
        *,
        num_buffer_sizes: int = 1,
        mode_a: TransposeMode | TransposeModeAttr = TransposeMode.NON_TRANSPOSE,
        mode_b: TransposeMode | TransposeModeAttr = TransposeMode.NON_TRANSPOSE,
        async_dependencies: Values = (),
        is_async: bool = False,
    ):
        self._build(
            [spmat_a, dnmat_b, dnmat_c],
            [[IndexType()] * num_buffer_sizes],
            async_dependencies,
            is_async,
            {
                "modeA": _mode(mode_a),
                "modeB": _mode(mode_b),
                "computeType": compute_type,
            },
        )


@irdl_op_definition
class SpMMOp(_SparseOp):
    """``%t = gpu.spmm async [%dep] %spmatA{TRANSPOSE}, %dnmatB{TRANSPOSE},
    %dnmatC, %buffers : memref<?xf64>, ... into f32``: C = op(A)·op(B)."""

    name = "gpu.spmm"

    async_dependencies = async_dependencies_def()
    mode_a = _mode_def("modeA")
    mode_b = _mode_def("modeB")
    spmat_a = operand_def(SpMatHandle)
    dnmat_b = operand_def(DnTensorHandle)
    dnmat_c = operand_def(DnTensorHandle)
    compute_type = _compute_type_def()
    buffers = var_operand_def(variadic(AnyMemRef))
    async_token = async_token_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    assembly_format = (
        f"{ASYNC_PREFIX} $spmat_a (`{{` $modeA^ `}}`)? `,` $dnmat_b "
        "(`{` $modeB^ `}`)? `,` $dnmat_c `,` $buffers attr-dict `:` "
        "type($buffers) `into` $computeType"
    )

    def __init__(
        self,
        spmat_a: Value,
        dnmat_b: Value,
        dnmat_c: Value,
        buffers: Values,
        compute_type: Attribute,
        *,
        mode_a: TransposeMode | TransposeModeAttr = TransposeMode.NON_TRANSPOSE,
        mode_b: TransposeMode | TransposeModeAttr = TransposeMode.NON_TRANSPOSE,
        async_dependencies: Values = (),
        is_async: bool = False,
    ):
        self._build(
            [spmat_a, dnmat_b, dnmat_c, list(buffers)],
            [],
            async_dependencies,
            is_async,
            {
                "modeA": _mode(mode_a),
                "modeB": _mode(mode_b),
                "computeType": compute_type,
            },
        )


@irdl_op_definition
class SDDMMBufferSizeOp(_SparseOp):
    """``%size, %t = gpu.sddmm_buffer_size async [%dep] %dnmatA{TRANSPOSE},
    %dnmatB{TRANSPOSE}, %spmatC into f32``: the workspace size of ``gpu.sddmm``."""

    name = "gpu.sddmm_buffer_size"

    async_dependencies = async_dependencies_def()
    mode_a = _mode_def("modeA")
    mode_b = _mode_def("modeB")
    dnmat_a = operand_def(DnTensorHandle)
    dnmat_b = operand_def(DnTensorHandle)
    spmat_c = operand_def(SpMatHandle)
    compute_type = _compute_type_def()
    buffer_sz = result_def(ODSIndex)
    async_token = async_token_def()

    assembly_format = (
        f"{ASYNC_PREFIX} $dnmat_a (`{{` $modeA^ `}}`)? `,` $dnmat_b "
        "(`{` $modeB^ `}`)? `,` $spmat_c attr-dict `into` $computeType"
    )

    def __init__(
        self,
        dnmat_a: Value,
        dnmat_b: Value,
        spmat_c: Value,
        compute_type: Attribute,
        *,
        mode_a: TransposeMode | TransposeModeAttr = TransposeMode.NON_TRANSPOSE,
        mode_b: TransposeMode | TransposeModeAttr = TransposeMode.NON_TRANSPOSE,
        async_dependencies: Values = (),
        is_async: bool = False,
    ):
        self._build(
            [dnmat_a, dnmat_b, spmat_c],
            [IndexType()],
            async_dependencies,
            is_async,
            {
                "modeA": _mode(mode_a),
                "modeB": _mode(mode_b),
                "computeType": compute_type,
            },
        )


@irdl_op_definition
class SDDMMOp(_SparseOp):
    """``%t = gpu.sddmm async [%dep] %dnmatA{TRANSPOSE}, %dnmatB{TRANSPOSE},
    %spmatC, %buffer : memref<?xf64> into f32``: C = (op(A)·op(B)) ∘ spy(C)."""

    name = "gpu.sddmm"

    async_dependencies = async_dependencies_def()
    mode_a = _mode_def("modeA")
    mode_b = _mode_def("modeB")
    dnmat_a = operand_def(DnTensorHandle)
    dnmat_b = operand_def(DnTensorHandle)
    spmat_c = operand_def(SpMatHandle)
    compute_type = _compute_type_def()
    buffer = operand_def(AnyMemRef)
    async_token = async_token_def()

    assembly_format = (
        f"{ASYNC_PREFIX} $dnmat_a (`{{` $modeA^ `}}`)? `,` $dnmat_b "
        "(`{` $modeB^ `}`)? `,` $spmat_c `,` $buffer attr-dict `:` "
        f"{_memref_type('buffer')} "
        "`into` $computeType"
    )

    def __init__(
        self,
        dnmat_a: Value,
        dnmat_b: Value,
        spmat_c: Value,
        buffer: Value,
        compute_type: Attribute,
        *,
        mode_a: TransposeMode | TransposeModeAttr = TransposeMode.NON_TRANSPOSE,
        mode_b: TransposeMode | TransposeModeAttr = TransposeMode.NON_TRANSPOSE,
        async_dependencies: Values = (),
        is_async: bool = False,
    ):
        self._build(
            [dnmat_a, dnmat_b, spmat_c, buffer],
            [],
            async_dependencies,
            is_async,
            {
                "modeA": _mode(mode_a),
                "modeB": _mode(mode_b),
                "computeType": compute_type,
            },
        )


# --------------------------------------------------------------------------------
# SpGEMM
# --------------------------------------------------------------------------------


@irdl_op_definition
class SpGEMMCreateDescrOp(_SparseOp):
    """``%desc, %t = gpu.spgemm_create_descr async [%dep]``: the descriptor that
    carries a SpGEMM computation through its ``gpu.spgemm_*`` steps."""

    name = "gpu.spgemm_create_descr"

    async_dependencies = async_dependencies_def()
    desc = result_def(SpGEMMOpHandle)
    async_token = async_token_def()

    assembly_format = f"{ASYNC_PREFIX} attr-dict"

    def __init__(self, *, async_dependencies: Values = (), is_async: bool = False):
        self._build([], [SparseSpGEMMOpHandleType()], async_dependencies, is_async)


@irdl_op_definition
class SpGEMMDestroyDescrOp(_SparseOp):
    """``%t = gpu.spgemm_destroy_descr async [%dep] %desc``"""

    name = "gpu.spgemm_destroy_descr"

    async_dependencies = async_dependencies_def()
    desc = operand_def(SpGEMMOpHandle)
    async_token = async_token_def()

    assembly_format = f"{ASYNC_PREFIX} $desc attr-dict"

    def __init__(
        self, desc: Value, *, async_dependencies: Values = (), is_async: bool = False
    ):
        self._build([desc], [], async_dependencies, is_async)


@irdl_op_definition
class SpGEMMWorkEstimationOrComputeOp(_SparseOp):
    """``%size, %t = gpu.spgemm_work_estimation_or_compute async [%dep] {COMPUTE}
    %spmatA{NON_TRANSPOSE}, %spmatB{NON_TRANSPOSE}, %spmatC, %desc, %size0, %buffer
    : f32 into memref<0xi8>``: cusparseSpGEMM_workEstimation or _compute,
    C' = alpha·op(A)·op(B) + beta·C; returns the buffer size needed."""

    name = "gpu.spgemm_work_estimation_or_compute"

    async_dependencies = async_dependencies_def()
    desc = operand_def(SpGEMMOpHandle)
    mode_a = _mode_def("modeA")
    mode_b = _mode_def("modeB")
    spmat_a = operand_def(SpMatHandle)
    spmat_b = operand_def(SpMatHandle)
    spmat_c = operand_def(SpMatHandle)
    compute_type = _compute_type_def()
    buffer_sz = operand_def(ODSIndex)
    buffer = operand_def(AnyMemRef)
    kind = required_prop_def("kind", SpGEMMWorkEstimationOrComputeKindAttr)
    buffer_sz_new = result_def(ODSIndex)
    async_token = async_token_def()

    assembly_format = (
        f"{ASYNC_PREFIX} custom<EnumInBraces>($kind) $spmat_a (`{{` $modeA^ `}}`)? `,` "
        "$spmat_b (`{` $modeB^ `}`)? `,` $spmat_c `,` $desc `,` $buffer_sz `,` "
        f"$buffer attr-dict `:` $computeType `into` {_memref_type('buffer')}"
    )

    def __init__(
        self,
        desc: Value,
        spmat_a: Value,
        spmat_b: Value,
        spmat_c: Value,
        buffer_sz: Value,
        buffer: Value,
        compute_type: Attribute,
        *,
        kind: SpGEMMWorkEstimationOrComputeKind = (
            SpGEMMWorkEstimationOrComputeKind.WORK_ESTIMATION
        ),
        mode_a: TransposeMode | TransposeModeAttr = TransposeMode.NON_TRANSPOSE,
        mode_b: TransposeMode | TransposeModeAttr = TransposeMode.NON_TRANSPOSE,
        async_dependencies: Values = (),
        is_async: bool = False,
    ):
        self._build(
            [desc, spmat_a, spmat_b, spmat_c, buffer_sz, buffer],
            [IndexType()],
            async_dependencies,
            is_async,
            {
                "modeA": _mode(mode_a),
                "modeB": _mode(mode_b),
                "computeType": compute_type,
                "kind": SpGEMMWorkEstimationOrComputeKindAttr(kind),
            },
        )


@irdl_op_definition
class SpGEMMCopyOp(_SparseOp):
    """``%t = gpu.spgemm_copy async [%dep] %spmatA, %spmatB, %spmatC, %desc : f32``:
    copies the result of a SpGEMM computation into C."""

    name = "gpu.spgemm_copy"

    async_dependencies = async_dependencies_def()
    desc = operand_def(SpGEMMOpHandle)
    mode_a = _mode_def("modeA")
    mode_b = _mode_def("modeB")
    spmat_a = operand_def(SpMatHandle)
    spmat_b = operand_def(SpMatHandle)
    spmat_c = operand_def(SpMatHandle)
    compute_type = _compute_type_def()
    async_token = async_token_def()

    assembly_format = (
        f"{ASYNC_PREFIX} $spmat_a (`{{` $modeA^ `}}`)? `,` $spmat_b "
        "(`{` $modeB^ `}`)? `,` $spmat_c `,` $desc attr-dict `:` $computeType"
    )

    def __init__(
        self,
        desc: Value,
        spmat_a: Value,
        spmat_b: Value,
        spmat_c: Value,
        compute_type: Attribute,
        *,
        mode_a: TransposeMode | TransposeModeAttr = TransposeMode.NON_TRANSPOSE,
        mode_b: TransposeMode | TransposeModeAttr = TransposeMode.NON_TRANSPOSE,
        async_dependencies: Values = (),
        is_async: bool = False,
    ):
        self._build(
            [desc, spmat_a, spmat_b, spmat_c],
            [],
            async_dependencies,
            is_async,
            {
                "modeA": _mode(mode_a),
                "modeB": _mode(mode_b),
                "computeType": compute_type,
            },
        )


@irdl_op_definition
class SpMatGetSizeOp(_SparseOp):
    """``%rows, %cols, %nnz, %t = gpu.spmat_get_size async [%dep] %spmat``"""

    name = "gpu.spmat_get_size"

    async_dependencies = async_dependencies_def()
    spmat = operand_def(SpMatHandle)
    rows = result_def(ODSIndex)
    cols = result_def(ODSIndex)
    nnz = result_def(ODSIndex)
    async_token = async_token_def()

    assembly_format = f"{ASYNC_PREFIX} $spmat attr-dict"

    def __init__(
        self, spmat: Value, *, async_dependencies: Values = (), is_async: bool = False
    ):
        self._build(
            [spmat],
            [IndexType(), IndexType(), IndexType()],
            async_dependencies,
            is_async,
        )


@irdl_op_definition
class SetCsrPointersOp(_SparseOp):
    """``%t = gpu.set_csr_pointers async [%dep] %spmat, %positions, %coordinates,
    %values : memref<?xindex>, memref<?xindex>, memref<?xf32>``: points a CSR
    descriptor at new device buffers."""

    name = "gpu.set_csr_pointers"

    async_dependencies = async_dependencies_def()
    spmat = operand_def(SpMatHandle)
    positions = operand_def(AnyMemRef)
    coordinates = operand_def(AnyMemRef)
    values = operand_def(AnyMemRef)
    async_token = async_token_def()

    assembly_format = (
        f"{ASYNC_PREFIX} $spmat `,` $positions `,` $coordinates `,` $values "
        f"attr-dict `:` {_memref_type('positions')} `,` "
        f"{_memref_type('coordinates')} `,` {_memref_type('values')}"
    )

    def __init__(
        self,
        spmat: Value,
        positions: Value,
        coordinates: Value,
        values: Value,
        *,
        async_dependencies: Values = (),
        is_async: bool = False,
    ):
        self._build(
            [spmat, positions, coordinates, values], [], async_dependencies, is_async
        )


OPERATIONS = (
    CreateDnTensorOp,
    DestroyDnTensorOp,
    CreateCooOp,
    CreateCooAoSOp,
    CreateCsrOp,
    CreateCscOp,
    CreateBsrOp,
    Create2To4SpMatOp,
    DestroySpMatOp,
    SpMVBufferSizeOp,
    SpMVOp,
    SpMMBufferSizeOp,
    SpMMOp,
    SDDMMBufferSizeOp,
    SDDMMOp,
    SpGEMMCreateDescrOp,
    SpGEMMDestroyDescrOp,
    SpGEMMWorkEstimationOrComputeOp,
    SpGEMMCopyOp,
    SpMatGetSizeOp,
    SetCsrPointersOp,
)
ATTRIBUTES = (
    Prune2To4SpMatFlagAttr,
    TransposeModeAttr,
    SpGEMMWorkEstimationOrComputeKindAttr,
)
