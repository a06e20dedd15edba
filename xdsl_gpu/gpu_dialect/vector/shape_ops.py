"""The ops of the ``vector`` dialect that move elements around without computing:
``broadcast``, ``extract``/``insert`` (static and dynamic positions), the strided
slices, ``shuffle``, ``transpose``, ``shape_cast``, ``bitcast``,
``from_elements``/``to_elements`` and ``interleave``/``deinterleave``."""

from __future__ import annotations

from math import prod
from typing import Self

from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    ArrayAttr,
    DenseArrayBase,
    FixedBitwidthType,
    IndexType,
    IntegerAttr,
    VectorType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import NoMemoryEffect, Pure
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect.vector.attributes import (
    i64_array,
    i64_array_attr,
    int_array,
    parse_i64_list,
    print_attr_dict,
    print_i64_list,
    quoted,
)
from xdsl_gpu.gpu_dialect.xdsl_format import RESET_FORMAT

_DEST = VarConstraint("DEST", base(VectorType))


def _vec(t: Attribute) -> VectorType:
    assert isinstance(t, VectorType)
    return t  # pyright: ignore[reportUnknownVariableType]


def _scalable(t: VectorType) -> tuple[bool, ...]:
    return tuple(bool(b.value) for b in t.scalable_dims)


@irdl_op_definition
class BroadcastOp(xvector.BroadcastOp):
    """``%v = vector.broadcast %s : f32 to vector<4x8xf32>``"""

    source = operand_def()
    vector = result_def(VectorType)
    traits = traits_def(Pure())
    parse = RESET_FORMAT["parse"]
    print = RESET_FORMAT["print"]

    def verify_(self) -> None:
        result = _vec(self.vector.type)
        source = self.source.type
        element = source.element_type if isinstance(source, VectorType) else source  # pyright: ignore
        if element != result.element_type:
            raise VerifyException(
                "failed to verify that source operand and result have same element type"
            )
        if not isinstance(source, VectorType):
            return
        src: VectorType = source  # pyright: ignore[reportUnknownVariableType]
        if src.get_num_dims() > result.get_num_dims():
            raise VerifyException("source rank higher than destination rank")
        lead = result.get_num_dims() - src.get_num_dims()
        for i, (s, d) in enumerate(
            zip(src.get_shape(), result.get_shape()[lead:], strict=True)
        ):
            s_scal, d_scal = _scalable(src)[i], _scalable(result)[lead + i]
            if (s == 1 and not s_scal) or (s == d and s_scal == d_scal):
                continue
            fmt = lambda n, sc: f"[{n}]" if sc else str(n)  # noqa: E731
            raise VerifyException(
                f"dimension mismatch ({fmt(s, s_scal)} vs. {fmt(d, d_scal)})"
            )


def _check_positions(
    positions: tuple[int, ...], shape: tuple[int, ...], what: str
) -> None:
    for i, (p, size) in enumerate(zip(positions, shape)):
        if p == DYNAMIC_INDEX:
            continue
        if p == -1 and what == "vector":
            continue
        if not 0 <= p < size:
            tail = (
                "vector dimension or poison (-1)"
                if what == "vector"
                else "dest vector dimension"
            )
            raise VerifyException(
                f"expected position attribute #{i + 1} to be a non-negative integer "
                f"smaller than the corresponding {tail}"
            )


@irdl_op_definition
class ExtractOp(xvector.ExtractOp):
    """``%e = vector.extract %v[1, %i] : f32 from vector<4x8xf32>``"""

    static_position = prop_def(DenseArrayBase.constr(i64))
    vector = operand_def(VectorType)
    dynamic_position = var_operand_def(IndexType)
    result = result_def()
    traits = traits_def(Pure())
    parse = RESET_FORMAT["parse"]
    print = RESET_FORMAT["print"]

    def verify_(self) -> None:
        positions = self.static_position.get_values()
        n_dynamic = sum(p == DYNAMIC_INDEX for p in positions)
        if n_dynamic != len(self.dynamic_position):
            raise VerifyException(
                f"expected {n_dynamic} dynamic positions, got "
                f"{len(self.dynamic_position)}"
            )
        vector = _vec(self.vector.type)
        if len(positions) > vector.get_num_dims():
            raise VerifyException(
                "expected position attribute of rank no greater than vector rank"
            )
        _check_positions(positions, vector.get_shape(), "vector")
        rest = vector.get_shape()[len(positions) :]
        inferred: Attribute = vector.element_type
        if rest:
            inferred = VectorType(
                vector.element_type,
                rest,
                ArrayAttr(vector.scalable_dims.data[len(positions) :]),
            )
        if inferred != self.result.type:
            raise VerifyException(
                f"inferred type(s) {quoted(inferred)} are incompatible with return "
                f"type(s) of operation {quoted(self.result.type)}"
            )


@irdl_op_definition
class InsertOp(xvector.InsertOp):
    """``%r = vector.insert %s, %v [1, %i] : f32 into vector<4x8xf32>``"""

    static_position = prop_def(DenseArrayBase.constr(i64))
    source = operand_def()
    dest = operand_def(_DEST)
    dynamic_position = var_operand_def(IndexType)
    result = result_def(_DEST)
    traits = traits_def(Pure())
    parse = RESET_FORMAT["parse"]
    print = RESET_FORMAT["print"]

    def verify_(self) -> None:
        positions = self.static_position.get_values()
        n_dynamic = sum(p == DYNAMIC_INDEX for p in positions)
        if n_dynamic != len(self.dynamic_position):
            raise VerifyException(
                f"expected {n_dynamic} dynamic positions, got "
                f"{len(self.dynamic_position)}"
            )
        dest = _vec(self.dest.type)
        if len(positions) > dest.get_num_dims():
            raise VerifyException(
                "expected position attribute of rank no greater than dest vector rank"
            )
        source = self.source.type
        src_rank = source.get_num_dims() if isinstance(source, VectorType) else 0  # pyright: ignore
        if len(positions) + src_rank != dest.get_num_dims():
            raise VerifyException(
                "expected position attribute rank + source rank to match dest vector "
                "rank"
            )
        _check_positions(positions, dest.get_shape(), "dest")


def _confined(
    name: str,
    values: list[int],
    lower: list[int],
    upper: list[int],
    *,
    sum_of: str = "",
) -> None:
    for i, (v, lo, hi) in enumerate(zip(values, lower, upper)):
        if not lo <= v < hi:
            what = f"sum({sum_of}) dimension {i}" if sum_of else name
            if sum_of:
                raise VerifyException(f"expected {what} to be confined to [{lo}, {hi})")
            raise VerifyException(f"expected {name} to be confined to [{lo}, {hi})")


@irdl_op_definition
class ExtractStridedSliceOp(IRDLOperation):
    """``%s = vector.extract_strided_slice %v {offsets = [0, 2], sizes = [2, 4],
    strides = [1, 1]} : vector<4x8xf32> to vector<2x4xf32>``"""

    name = "vector.extract_strided_slice"
    source = operand_def(VectorType)
    offsets = prop_def(ArrayAttr[IntegerAttr])
    sizes = prop_def(ArrayAttr[IntegerAttr])
    strides = prop_def(ArrayAttr[IntegerAttr])
    result = result_def(VectorType)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        source = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_keyword("to")
        result_type = parser.parse_type()
        props = {
            n: a for n in ("offsets", "sizes", "strides") if (a := attrs.pop(n, None))
        }
        return cls.create(
            operands=[parser.resolve_operand(source, source_type)],
            result_types=[result_type],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        print_attr_dict(printer, {**self.properties, **self.attributes})
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" to ")
        printer.print_attribute(self.result.type)

    def __init__(
        self,
        source: SSAValue | Operation,
        offsets: list[int],
        sizes: list[int],
        strides: list[int],
        result_type: VectorType,
    ):
        super().__init__(
            operands=[source],
            result_types=[result_type],
            properties={
                "offsets": i64_array_attr(offsets),
                "sizes": i64_array_attr(sizes),
                "strides": i64_array_attr(strides),
            },
        )

    def verify_(self) -> None:
        source = _vec(self.source.type)
        offsets = int_array(self.offsets) or []
        sizes = int_array(self.sizes) or []
        strides = int_array(self.strides) or []
        if not len(offsets) == len(sizes) == len(strides):
            raise VerifyException(
                "expected offsets, sizes and strides attributes of same size"
            )
        if len(offsets) > source.get_num_dims():
            raise VerifyException(
                "expected offsets attribute of rank no greater than vector rank"
            )
        shape = list(source.get_shape())
        n = len(offsets)
        _confined("offsets", offsets, [0] * n, shape[:n])
        _confined("sizes", sizes, [1] * n, [s + 1 for s in shape[:n]])
        _confined("strides", strides, [1] * n, [2] * n)
        sums = [o + s for o, s in zip(offsets, sizes)]
        _confined(
            "", sums, [1] * n, [s + 1 for s in shape[:n]], sum_of="offsets, sizes"
        )
        expected = VectorType(
            source.element_type,
            [*sizes, *shape[n:]],
            source.scalable_dims,
        )
        if expected != self.result.type:
            raise VerifyException(f"expected result type to be {quoted(expected)}")


@irdl_op_definition
class InsertStridedSliceOp(IRDLOperation):
    """``%r = vector.insert_strided_slice %s, %v {offsets = [0, 2], strides = [1]} :
    vector<4xf32> into vector<4x8xf32>``"""

    name = "vector.insert_strided_slice"
    valueToStore = operand_def(VectorType)
    dest = operand_def(VectorType)
    offsets = prop_def(ArrayAttr[IntegerAttr])
    strides = prop_def(ArrayAttr[IntegerAttr])
    res = result_def(VectorType)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        dest = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_keyword("into")
        dest_type = parser.parse_type()
        props = {n: a for n in ("offsets", "strides") if (a := attrs.pop(n, None))}
        return cls.create(
            operands=[
                parser.resolve_operand(source, source_type),
                parser.resolve_operand(dest, dest_type),
            ],
            result_types=[dest_type],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.valueToStore, self.dest], printer.print_operand)
        print_attr_dict(printer, {**self.properties, **self.attributes})
        printer.print_string(" : ")
        printer.print_attribute(self.valueToStore.type)
        printer.print_string(" into ")
        printer.print_attribute(self.dest.type)

    def __init__(
        self,
        source: SSAValue | Operation,
        dest: SSAValue | Operation,
        offsets: list[int],
        strides: list[int],
    ):
        dest = SSAValue.get(dest)
        super().__init__(
            operands=[source, dest],
            result_types=[dest.type],
            properties={
                "offsets": i64_array_attr(offsets),
                "strides": i64_array_attr(strides),
            },
        )

    def verify_(self) -> None:
        source, dest = _vec(self.valueToStore.type), _vec(self.dest.type)
        offsets = int_array(self.offsets) or []
        strides = int_array(self.strides) or []
        if len(offsets) != dest.get_num_dims():
            raise VerifyException(
                "expected offsets of same size as destination vector rank"
            )
        if len(strides) != source.get_num_dims():
            raise VerifyException("expected strides of same size as source vector rank")
        if source.get_num_dims() > dest.get_num_dims():
            raise VerifyException(
                "expected source rank to be no greater than destination rank"
            )
        d_shape = list(dest.get_shape())
        n = len(offsets)
        _confined("offsets", offsets, [0] * n, d_shape)
        _confined("strides", strides, [1] * len(strides), [2] * len(strides))
        lead = dest.get_num_dims() - source.get_num_dims()
        src_full = [1] * lead + list(source.get_shape())
        sums = [o + s for o, s in zip(offsets, src_full)]
        _confined(
            "",
            sums,
            [1] * n,
            [s + 1 for s in d_shape],
            sum_of="offsets, source vector shape",
        )
        if self.res.type != dest:
            raise VerifyException("expected result type to match dest type")


@irdl_op_definition
class ShuffleOp(xvector.ShuffleOp):
    """``%s = vector.shuffle %a, %b [0, 4, 1, 5] : vector<4xf32>, vector<4xf32>``"""

    v1 = operand_def(
        VectorType.constr(xvector.ShuffleOp.T, shape=xvector.ShuffleOp.V1_SHAPE)
    )
    v2 = operand_def(
        VectorType.constr(xvector.ShuffleOp.T, shape=xvector.ShuffleOp.V2_SHAPE)
    )
    mask = prop_def(xvector.ShuffleOp.MASK)
    result = result_def(xvector.ShuffleOp.RES)
    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(NoMemoryEffect())
    parse = RESET_FORMAT["parse"]
    print = RESET_FORMAT["print"]

    def verify_(self) -> None:
        v1, v2 = _vec(self.v1.type), _vec(self.v2.type)
        if v1.get_num_dims() != v2.get_num_dims():
            raise VerifyException("rank mismatch")
        if v1.get_shape()[1:] != v2.get_shape()[1:]:
            raise VerifyException("dimension mismatch")
        mask = self.mask.get_values()
        result = _vec(self.result.type)
        if len(mask) != result.get_shape()[0]:
            raise VerifyException("mask length mismatch")
        total = (v1.get_shape() or (1,))[0] + (v2.get_shape() or (1,))[0]
        for i, m in enumerate(mask):
            if not -1 <= m < total:
                raise VerifyException(f"mask index #{i + 1} out of range")


@irdl_op_definition
class TransposeOp(IRDLOperation):
    """``%t = vector.transpose %v, [1, 0] : vector<2x4xf32> to vector<4x2xf32>``"""

    name = "vector.transpose"
    vector = operand_def(VectorType)
    permutation = prop_def(DenseArrayBase[I64])
    result = result_def(VectorType)
    traits = traits_def(Pure())

    def __init__(
        self,
        vector: SSAValue | Operation,
        permutation: list[int],
        result_type: VectorType | None = None,
    ):
        vector = SSAValue.get(vector)
        if result_type is None:
            source = _vec(vector.type)
            result_type = VectorType(
                source.element_type,
                [source.get_shape()[p] for p in permutation],
                ArrayAttr(source.scalable_dims.data[p] for p in permutation),
            )
        super().__init__(
            operands=[vector],
            result_types=[result_type],
            properties={"permutation": i64_array(permutation)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        permutation = parse_i64_list(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_keyword("to")
        result_type = parser.parse_type()
        op = cls.create(
            operands=[parser.resolve_operand(source, source_type)],
            result_types=[result_type],
            properties={"permutation": i64_array(permutation)},
            attributes=attrs,
        )
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.vector)
        printer.print_string(", ")
        print_i64_list(printer, self.permutation.get_values())
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.vector.type)
        printer.print_string(" to ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        source, result = _vec(self.vector.type), _vec(self.result.type)
        perm = list(self.permutation.get_values())
        rank = source.get_num_dims()
        if len(perm) != rank or result.get_num_dims() != rank:
            raise VerifyException(f"transposition length mismatch: {len(perm)}")
        seen: set[int] = set()
        for p in perm:
            if not 0 <= p < rank:
                raise VerifyException(f"transposition index out of range: {p}")
            if p in seen:
                raise VerifyException(f"duplicate position index: {p}")
            seen.add(p)
        for i, p in enumerate(perm):
            if source.get_shape()[p] != result.get_shape()[i]:
                raise VerifyException(f"dimension size mismatch at: {p}")
        if source.element_type != result.element_type:
            raise VerifyException(
                "failed to verify that all of {vector, result} have same element type"
            )


@irdl_op_definition
class ShapeCastOp(IRDLOperation):
    """``%c = vector.shape_cast %v : vector<2x4xf32> to vector<8xf32>``"""

    name = "vector.shape_cast"
    source = operand_def(VectorType)
    result = result_def(VectorType)
    traits = traits_def(Pure())
    assembly_format = "$source attr-dict `:` type($source) `to` type($result)"

    def __init__(self, source: SSAValue | Operation, result_type: VectorType):
        super().__init__(operands=[source], result_types=[result_type])

    def verify_(self) -> None:
        source, result = _vec(self.source.type), _vec(self.result.type)
        if source.element_type != result.element_type:
            raise VerifyException("has different source and result element types")
        ns, nr = prod(source.get_shape()), prod(result.get_shape())
        if ns != nr:
            raise VerifyException(
                f"has different number of elements at source ({ns}) and result ({nr})"
            )
        if source.get_num_scalable_dims() > 1 or result.get_num_scalable_dims() > 1:
            raise VerifyException("has more than one scalable dimension")


@irdl_op_definition
class BitcastOp(xvector.BitcastOp):
    """``%b = vector.bitcast %v : vector<4xf32> to vector<4xi32>``"""

    source = operand_def(VectorType)
    result = result_def(VectorType)
    traits = traits_def(Pure())
    parse = RESET_FORMAT["parse"]
    print = RESET_FORMAT["print"]

    def verify_(self) -> None:
        source, result = _vec(self.source.type), _vec(self.result.type)
        if source.get_num_dims() != result.get_num_dims():
            raise VerifyException(
                "failed to verify that all of {source, result} have same rank"
            )
        for i in range(source.get_num_dims() - 1):
            if source.get_shape()[i] != result.get_shape()[i]:
                raise VerifyException(f"dimension size mismatch at: {i}")
        s_el, r_el = source.element_type, result.element_type
        if not isinstance(s_el, FixedBitwidthType) or not isinstance(
            r_el, FixedBitwidthType
        ):
            return
        minor = lambda t, el: (t.get_shape() or (1,))[-1] * el.bitwidth  # noqa: E731
        if minor(source, s_el) != minor(result, r_el):
            raise VerifyException(
                "source/result bitwidth of the minor 1-D vectors must be equal"
            )


@irdl_op_definition
class FromElementsOp(IRDLOperation):
    """``%v = vector.from_elements %a, %b, %c, %d : vector<2x2xf32>``"""

    name = "vector.from_elements"
    elements = var_operand_def()
    dest = result_def(VectorType)
    traits = traits_def(Pure())

    def __init__(self, elements: list[SSAValue | Operation], result_type: VectorType):
        super().__init__(operands=[elements], result_types=[result_type])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        elements = parser.parse_optional_undelimited_comma_separated_list(
            parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand
        )
        elements = elements or []
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        result_type = parser.parse_type()
        if not isinstance(result_type, VectorType):
            parser.raise_error("expected a vector type", pos)
        n = prod(result_type.get_shape())
        if len(elements) != n:
            parser.raise_error(
                f"number of operands and types do not match: got {len(elements)} "
                f"operands and {n} types",
                pos,
            )
        element = result_type.element_type  # pyright: ignore[reportUnknownMemberType]
        return cls.create(
            operands=[parser.resolve_operand(e, element) for e in elements],
            result_types=[result_type],
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        if self.elements:
            printer.print_string(" ")
            printer.print_list(self.elements, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.dest.type)

    def verify_(self) -> None:
        dest = _vec(self.dest.type)
        if len(self.elements) != prod(dest.get_shape()):
            raise VerifyException(
                f"incorrect number of elements: {len(self.elements)}, expected "
                f"{prod(dest.get_shape())}"
            )
        for e in self.elements:
            if e.type != dest.element_type:
                raise VerifyException(
                    "failed to verify that operand types match result element type"
                )


@irdl_op_definition
class ToElementsOp(IRDLOperation):
    """``%a:4 = vector.to_elements %v : vector<2x2xf32>``"""

    name = "vector.to_elements"
    source = operand_def(VectorType)
    elements = var_result_def()
    traits = traits_def(Pure())

    def __init__(self, source: SSAValue | Operation):
        source = SSAValue.get(source)
        t = _vec(source.type)
        super().__init__(
            operands=[source],
            result_types=[[t.element_type] * prod(t.get_shape())],
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        source = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        t = parser.parse_type()
        if not isinstance(t, VectorType):
            parser.raise_error("expected a vector type", pos)
        return cls.create(
            operands=[parser.resolve_operand(source, t)],
            result_types=[t.element_type] * prod(t.get_shape()),  # pyright: ignore
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)

    def verify_(self) -> None:
        t = _vec(self.source.type)
        if len(self.elements) != prod(t.get_shape()) or any(
            r.type != t.element_type for r in self.elements
        ):
            raise VerifyException(
                "failed to verify that result types match source element type"
            )


def _halved(t: VectorType) -> VectorType:
    shape = list(t.get_shape())
    shape[-1] //= 2
    return VectorType(t.element_type, shape, t.scalable_dims)


@irdl_op_definition
class InterleaveOp(IRDLOperation):
    """``%i = vector.interleave %a, %b : vector<4xf32> -> vector<8xf32>``"""

    name = "vector.interleave"
    lhs = operand_def(VectorType)
    rhs = operand_def(VectorType)
    result = result_def(VectorType)
    traits = traits_def(Pure())

    def __init__(self, lhs: SSAValue | Operation, rhs: SSAValue | Operation):
        lhs = SSAValue.get(lhs)
        t = _vec(lhs.type)
        shape = list(t.get_shape() or (1,))
        shape[-1] *= 2
        super().__init__(
            operands=[lhs, rhs],
            result_types=[VectorType(t.element_type, shape, t.scalable_dims)],
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        parser.parse_punctuation("->")
        result = parser.parse_type()
        return cls.create(
            operands=[parser.resolve_operand(lhs, t), parser.resolve_operand(rhs, t)],
            result_types=[result],
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.lhs, self.rhs], printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        lhs, result = _vec(self.lhs.type), _vec(self.result.type)
        if self.rhs.type != lhs:
            raise VerifyException(
                "failed to verify that all of {lhs, rhs} have same type"
            )
        if lhs.get_num_dims() == 0:
            ok = result.get_shape() == (2,)
        else:
            ok = result.get_num_dims() == lhs.get_num_dims() and _halved(result) == lhs
        if not ok or result.get_shape()[-1] % 2:
            raise VerifyException(
                "failed to verify that type of 'result' is double the width of the "
                "inputs"
            )


@irdl_op_definition
class DeinterleaveOp(IRDLOperation):
    """``%a, %b = vector.deinterleave %v : vector<8xf32> -> vector<4xf32>``"""

    name = "vector.deinterleave"
    source = operand_def(VectorType)
    res1 = result_def(VectorType)
    res2 = result_def(VectorType)
    traits = traits_def(Pure())

    def __init__(self, source: SSAValue | Operation):
        source = SSAValue.get(source)
        half = _halved(_vec(source.type))
        super().__init__(operands=[source], result_types=[half, half])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        source = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        parser.parse_punctuation("->")
        result = parser.parse_type()
        return cls.create(
            operands=[parser.resolve_operand(source, t)],
            result_types=[result, result],
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.res1.type)

    def verify_(self) -> None:
        source = _vec(self.source.type)
        if not source.get_shape() or source.get_shape()[-1] % 2:
            raise VerifyException(
                "failed to verify that the trailing dimension of the source vector has "
                "an even number of elements"
            )
        if self.res1.type != self.res2.type or self.res1.type != _halved(source):
            raise VerifyException(
                "failed to verify that the trailing dimension of the results is half "
                "the width of source trailing dimension"
            )


__all__ = [
    "BitcastOp",
    "BroadcastOp",
    "DeinterleaveOp",
    "ExtractOp",
    "ExtractStridedSliceOp",
    "FromElementsOp",
    "InsertOp",
    "InsertStridedSliceOp",
    "InterleaveOp",
    "ShapeCastOp",
    "ShuffleOp",
    "ToElementsOp",
    "TransposeOp",
]
