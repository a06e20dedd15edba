"""The ``llvm.intr.matrix.*`` ops: LLVM's matrix intrinsics on matrices flattened to
1-D vectors, which MLIR 22's convert-vector-to-llvm makes of a ``vector.contract``
with ``vector-contract-lowering=llvmintr`` and of a ``vector.transpose`` with
``vector-transpose-lowering=llvmintr``::

    %c = llvm.intr.matrix.multiply %a, %b {lhs_columns = 3 : i32, lhs_rows = 2 : i32,
        rhs_columns = 4 : i32} : (vector<6xf32>, vector<12xf32>) -> vector<8xf32>
    %t = llvm.intr.matrix.transpose %c {columns = 2 : i32, rows = 4 : i32}
        : vector<8xf32> into vector<8xf32>

Their LLVM IR is a call of ``@llvm.matrix.multiply.<res>.<lhs>.<rhs>`` /
``@llvm.matrix.transpose.<res>`` with the shape as trailing ``i32 immarg``s
(``xdsl_gpu/targets/llvm_ir/convert_op.py``'s intrinsic table), as
mlir-translate-22 writes it. They join the ``llvm`` dialect through its op list.
"""

from __future__ import annotations

from xdsl.dialects.builtin import I32, IntegerAttr, VectorType, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


def _size(t: Attribute) -> int:
    assert isinstance(t, VectorType)
    return t.get_shape()[0]  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]


@irdl_op_definition
class MatrixMultiplyOp(IRDLOperation):
    """``lhs`` (``lhs_rows x lhs_columns``) times ``rhs`` (``lhs_columns x
    rhs_columns``), each flattened, into a ``lhs_rows x rhs_columns`` result."""

    name = "llvm.intr.matrix.multiply"

    lhs = operand_def(VectorType)
    rhs = operand_def(VectorType)
    res = result_def(VectorType)
    lhs_columns = prop_def(IntegerAttr[I32])
    lhs_rows = prop_def(IntegerAttr[I32])
    rhs_columns = prop_def(IntegerAttr[I32])

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type($res)"
    )

    def __init__(
        self,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        result_type: VectorType,
        lhs_rows: int,
        lhs_columns: int,
        rhs_columns: int,
    ):
        super().__init__(
            operands=[lhs, rhs],
            result_types=[result_type],
            properties={
                "lhs_columns": IntegerAttr(lhs_columns, i32),
                "lhs_rows": IntegerAttr(lhs_rows, i32),
                "rhs_columns": IntegerAttr(rhs_columns, i32),
            },
        )

    def verify_(self) -> None:
        rows, inner = self.lhs_rows.value.data, self.lhs_columns.value.data
        columns = self.rhs_columns.value.data
        for what, value, expected in (
            ("lhs", self.lhs.type, rows * inner),
            ("rhs", self.rhs.type, inner * columns),
            ("result", self.res.type, rows * columns),
        ):
            if _size(value) != expected:
                raise VerifyException(
                    f"{what} {value} does not hold a {rows if what != 'rhs' else inner}"
                    f"x{inner if what == 'lhs' else columns} matrix"
                )


@irdl_op_definition
class MatrixTransposeOp(IRDLOperation):
    """The ``rows x columns`` matrix ``matrix``, flattened, transposed."""

    name = "llvm.intr.matrix.transpose"

    matrix = operand_def(VectorType)
    res = result_def(VectorType)
    columns = prop_def(IntegerAttr[I32])
    rows = prop_def(IntegerAttr[I32])

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$matrix attr-dict `:` type($matrix) `into` type($res)"

    def __init__(self, matrix: SSAValue | Operation, rows: int, columns: int):
        value = SSAValue.get(matrix)
        super().__init__(
            operands=[value],
            result_types=[value.type],
            properties={
                "columns": IntegerAttr(columns, i32),
                "rows": IntegerAttr(rows, i32),
            },
        )

    def verify_(self) -> None:
        size = self.rows.value.data * self.columns.value.data
        for what, value in (("operand", self.matrix.type), ("result", self.res.type)):
            if _size(value) != size:
                raise VerifyException(
                    f"{what} {value} does not hold a {self.rows.value.data}x"
                    f"{self.columns.value.data} matrix"
                )


MATRIX_OPS = (MatrixMultiplyOp, MatrixTransposeOp)

__all__ = ["MATRIX_OPS", "MatrixMultiplyOp", "MatrixTransposeOp"]
