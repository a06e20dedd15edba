"""Types of the ``gpu`` dialect shared by several op families.

* ``!gpu.async.token`` (:class:`AsyncTokenType`),
* ``!gpu.mma_matrix<16x16xf16, "AOp">`` (:class:`MMAMatrixType`), the opaque warp-level
  matrix fragment of the ``gpu.subgroup_mma_*`` ops,
* the opaque handles of the sparse ops: ``!gpu.sparse.dntensor_handle``,
  ``!gpu.sparse.spmat_handle`` and ``!gpu.sparse.spgemmop_handle``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IntAttr,
    IntegerType,
    Signedness,
    StringAttr,
)
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

__all__ = [
    "MMA_OPERANDS",
    "TYPES",
    "AsyncTokenType",
    "MMAMatrixType",
    "SparseDnTensorHandleType",
    "SparseSpGEMMOpHandleType",
    "SparseSpMatHandleType",
]


@irdl_attr_definition
class AsyncTokenType(ParametrizedAttribute, TypeAttribute):
    """``!gpu.async.token``: orders asynchronous gpu operations."""

    name = "gpu.async.token"


MMA_OPERANDS = ("AOp", "BOp", "COp")
"""The operand kinds an ``!gpu.mma_matrix`` can be."""


def is_valid_mma_element_type(element_type: Attribute) -> bool:
    """Upstream ``MMAMatrixType::isValidElementType``: f16, f32, f64, si8, ui8 or a
    32-bit integer of any signedness."""
    if isinstance(element_type, Float16Type | Float32Type | Float64Type):
        return True
    if isinstance(element_type, IntegerType):
        width = element_type.width.data
        signedness = element_type.signedness.data
        if width == 8:
            return signedness in (Signedness.SIGNED, Signedness.UNSIGNED)
        return width == 32
    return False


@irdl_attr_definition
class MMAMatrixType(ParametrizedAttribute, TypeAttribute):
    """``!gpu.mma_matrix<16x16xf16, "AOp">``: a matrix fragment held by a subgroup.

    The shape has exactly two static dimensions; the element type is si8, ui8, i32,
    f16, f32 or f64; the operand says which MMA operand it is (``"AOp"``, ``"BOp"``
    or ``"COp"``).
    """

    name = "gpu.mma_matrix"

    shape: ArrayAttr[IntAttr]
    element_type: Attribute
    operand: StringAttr

    def __init__(
        self,
        shape: Iterable[int | IntAttr],
        element_type: Attribute,
        operand: str | StringAttr,
    ):
        super().__init__(
            ArrayAttr([d if isinstance(d, IntAttr) else IntAttr(d) for d in shape]),
            element_type,
            operand if isinstance(operand, StringAttr) else StringAttr(operand),
        )

    # Python accessors -------------------------------------------------------
    def get_shape(self) -> tuple[int, ...]:
        return tuple(d.data for d in self.shape.data)

    def get_num_dims(self) -> int:
        return len(self.shape.data)

    def get_element_type(self) -> Attribute:
        return self.element_type

    def get_operand(self) -> str:
        return self.operand.data

    @property
    def operand_kind(self) -> str:
        """``"AOp"``, ``"BOp"`` or ``"COp"``."""
        return self.operand.data

    # Syntax -----------------------------------------------------------------
    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        from xdsl_gpu.gpu_dialect.gpu.attributes import expect_punctuation, verified_at

        start = parser.pos
        expect_punctuation(parser, "<")
        dims_start = parser.pos
        dims = parser.parse_dimension_list()
        if any(d < 0 for d in dims):
            parser.raise_error("expected static shape", dims_start, parser.pos)
        if dims:
            parser.parse_shape_delimiter()
        element_type = parser.parse_type()
        expect_punctuation(parser, ",")
        operand = parser.parse_str_literal()
        expect_punctuation(parser, ">")
        params = (
            ArrayAttr([IntAttr(d) for d in dims]),
            element_type,
            StringAttr(operand),
        )
        with verified_at(parser, start):
            cls.new(params)
        return params

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            for dim in self.get_shape():
                printer.print_string(f"{dim}x")
            printer.print_attribute(self.element_type)
            printer.print_string(", ")
            printer.print_string_literal(self.operand.data)

    def verify(self) -> None:
        if self.operand.data not in MMA_OPERANDS:
            raise VerifyException("operand expected to be one of AOp, BOp or COp")
        if len(self.shape.data) != 2:
            raise VerifyException("MMAMatrixType must have exactly two dimensions")
        if not is_valid_mma_element_type(self.element_type):
            raise VerifyException(
                "MMAMatrixType elements must be SI8, UI8, I32, F16, F32, or F64"
            )


@irdl_attr_definition
class SparseDnTensorHandleType(ParametrizedAttribute, TypeAttribute):
    """``!gpu.sparse.dntensor_handle``: a dense tensor handle of the sparse ops."""

    name = "gpu.sparse.dntensor_handle"


@irdl_attr_definition
class SparseSpMatHandleType(ParametrizedAttribute, TypeAttribute):
    """``!gpu.sparse.spmat_handle``: a sparse matrix handle of the sparse ops."""

    name = "gpu.sparse.spmat_handle"


@irdl_attr_definition
class SparseSpGEMMOpHandleType(ParametrizedAttribute, TypeAttribute):
    """``!gpu.sparse.spgemmop_handle``: the SpGEMM descriptor of the sparse ops."""

    name = "gpu.sparse.spgemmop_handle"


TYPES = (
    AsyncTokenType,
    MMAMatrixType,
    SparseDnTensorHandleType,
    SparseSpMatHandleType,
    SparseSpGEMMOpHandleType,
)
"""Every type of the ``gpu`` dialect, for the ``Dialect`` in ``__init__.py``."""
