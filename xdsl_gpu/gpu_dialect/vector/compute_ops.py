"""The computing ops of the ``vector`` dialect: ``fma``, ``reduction``,
``multi_reduction``, ``contract`` and ``outerproduct``."""

from __future__ import annotations

from typing import ClassVar, Self

from xdsl.dialects import vector as xvector
from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.builtin import (
    I64,
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    IndexType,
    IntegerType,
    StringAttr,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect.vector.attributes import (
    CombiningKindAttr,
    CombiningKindFlag,
    IteratorType,
    IteratorTypeAttr,
    i64_array,
    parse_i64_list,
    print_i64_list,
    quoted,
)
from xdsl_gpu.gpu_dialect.xdsl_format import RESET_FORMAT

FMAOp = xvector.FMAOp
"""``%r = vector.fma %a, %b, %c : vector<8xf32>``: xDSL's, unchanged."""

_INT_KINDS = {"and", "or", "xor", "minsi", "minui", "maxsi", "maxui"}
_FLOAT_KINDS = {"minnumf", "maxnumf", "minimumf", "maximumf"}


def is_supported_kind(kind: str, element: Attribute) -> bool:
    """Upstream's ``isSupportedCombiningKind``: which kinds combine which elements."""
    if kind in _INT_KINDS:
        return isinstance(element, IntegerType | IndexType)
    if kind in _FLOAT_KINDS:
        return isinstance(element, AnyFloat)
    return True


def _vec(t: Attribute) -> VectorType:
    assert isinstance(t, VectorType)
    return t  # pyright: ignore[reportUnknownVariableType]


@irdl_op_definition
class ReductionOp(xvector.ReductionOp):
    """``%r = vector.reduction <add>, %v (, %acc)? (fastmath<...>)? : vector<8xf32>
    into f32``"""

    D: ClassVar = VarConstraint("D", AnyAttr())
    vector = operand_def(VectorType)
    acc = opt_operand_def(D)
    dest = result_def(D)
    kind = prop_def(CombiningKindAttr)
    fastmath = prop_def(FastMathFlagsAttr, default_value=FastMathFlagsAttr("none"))
    traits = traits_def(Pure())
    assembly_format = (
        "$kind `,` $vector (`,` $acc^)? (`fastmath` `` $fastmath^)? attr-dict `:` "
        "type($vector) `into` type($dest)"
    )
    parse = RESET_FORMAT["parse"]
    print = RESET_FORMAT["print"]

    def verify_(self) -> None:
        source = _vec(self.vector.type)
        if source.get_num_dims() > 1:
            raise VerifyException(
                f"unsupported reduction rank: {source.get_num_dims()}"
            )
        if source.element_type != self.dest.type:
            raise VerifyException(
                "failed to verify that source operand and result have same element type"
            )
        if self.acc is not None and self.acc.type != self.dest.type:
            raise VerifyException(
                "failed to verify that all of {dest, acc} have same type"
            )
        kind = self.kind.data.value
        if not is_supported_kind(kind, self.dest.type):
            raise VerifyException(
                f"unsupported reduction type '{quoted(self.dest.type)}' for kind "
                f"'{kind}'"
            )


@irdl_op_definition
class MultiDimReductionOp(IRDLOperation):
    """``%r = vector.multi_reduction <add>, %v, %acc [1] : vector<4x8xf32> to
    vector<4xf32>``"""

    name = "vector.multi_reduction"
    source = operand_def(VectorType)
    acc = operand_def()
    dest = result_def()
    kind = prop_def(CombiningKindAttr)
    reduction_dims = prop_def(DenseArrayBase[I64])
    traits = traits_def(Pure())

    def __init__(
        self,
        kind: CombiningKindFlag,
        source: SSAValue | Operation,
        acc: SSAValue | Operation,
        reduction_dims: list[int],
    ):
        acc = SSAValue.get(acc)
        super().__init__(
            operands=[source, acc],
            result_types=[acc.type],
            properties={
                "kind": CombiningKindAttr(kind),
                "reduction_dims": i64_array(reduction_dims),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        kind = CombiningKindAttr(CombiningKindAttr.parse_parameter(parser))
        parser.parse_punctuation(",")
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        acc = parser.parse_unresolved_operand()
        dims = parse_i64_list(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_keyword("to")
        dest_type = parser.parse_type()
        return cls.create(
            operands=[
                parser.resolve_operand(source, source_type),
                parser.resolve_operand(acc, dest_type),
            ],
            result_types=[dest_type],
            properties={"kind": kind, "reduction_dims": i64_array(dims)},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(f" <{self.kind.data.value}>, ")
        printer.print_list([self.source, self.acc], printer.print_operand)
        printer.print_string(" ")
        print_i64_list(printer, self.reduction_dims.get_values())
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" to ")
        printer.print_attribute(self.dest.type)

    def reduced_mask(self) -> list[bool]:
        dims = set(self.reduction_dims.get_values())
        return [i in dims for i in range(_vec(self.source.type).get_num_dims())]

    def verify_(self) -> None:
        source = _vec(self.source.type)
        kept = [
            (s, bool(sc.value))
            for s, sc, red in zip(
                source.get_shape(), source.scalable_dims, self.reduced_mask()
            )
            if not red
        ]
        expected: Attribute = source.element_type
        if kept:
            expected = VectorType(
                source.element_type,
                [s for s, _ in kept],
                ArrayAttr(BoolAttr.from_bool(sc) for _, sc in kept),
            )
        if self.dest.type != expected:
            raise VerifyException(
                f"destination type {quoted(self.dest.type)} is incompatible with "
                f"source type {quoted(source)}"
            )
        if self.acc.type != self.dest.type:
            raise VerifyException(
                "failed to verify that all of {dest, acc} have same type"
            )


def _iterator_types(attr: Attribute) -> list[str]:
    assert isinstance(attr, ArrayAttr)
    out: list[str] = []
    for a in attr.data:
        if isinstance(a, IteratorTypeAttr):
            out.append(a.data.value)
        elif isinstance(a, StringAttr):
            out.append(a.data)
    return out


@irdl_op_definition
class ContractionOp(IRDLOperation):
    """``%r = vector.contract {indexing_maps = [...], iterator_types = ["parallel",
    "reduction"], kind = #vector.kind<add>} %a, %b, %acc : vector<2x3xf32>,
    vector<3x4xf32> into vector<2x4xf32>``"""

    name = "vector.contract"
    lhs = operand_def(VectorType)
    rhs = operand_def(VectorType)
    acc = operand_def()
    result = result_def()
    indexing_maps = prop_def(ArrayAttr[AffineMapAttr])
    iterator_types = prop_def(ArrayAttr[IteratorTypeAttr])
    kind = prop_def(CombiningKindAttr)
    traits = traits_def(Pure())

    def __init__(
        self,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        acc: SSAValue | Operation,
        indexing_maps: list[AffineMap],
        iterator_types: list[IteratorType],
        kind: CombiningKindFlag = CombiningKindFlag.ADD,
    ):
        acc = SSAValue.get(acc)
        super().__init__(
            operands=[lhs, rhs, acc],
            result_types=[acc.type],
            properties={
                "indexing_maps": ArrayAttr(AffineMapAttr(m) for m in indexing_maps),
                "iterator_types": ArrayAttr(
                    IteratorTypeAttr(t) for t in iterator_types
                ),
                "kind": CombiningKindAttr(kind),
            },
        )

    @property
    def maps(self) -> list[AffineMap]:
        return [m.data for m in self.indexing_maps.data]

    @property
    def iterators(self) -> list[str]:
        return _iterator_types(self.iterator_types)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        attrs = parser.parse_optional_attr_dict()
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        acc = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        lhs_t = parser.parse_type()
        parser.parse_punctuation(",")
        rhs_t = parser.parse_type()
        parser.parse_keyword("into")
        acc_t = parser.parse_type()
        props: dict[str, Attribute] = {}
        for name in ("indexing_maps", "iterator_types", "kind"):
            if (a := attrs.pop(name, None)) is not None:
                props[name] = a
        if "iterator_types" in props:
            props["iterator_types"] = ArrayAttr(
                IteratorTypeAttr(IteratorType(t))
                for t in _iterator_types(props["iterator_types"])
            )
        props.setdefault("kind", CombiningKindAttr(CombiningKindFlag.ADD))
        return cls.create(
            operands=[
                parser.resolve_operand(lhs, lhs_t),
                parser.resolve_operand(rhs, rhs_t),
                parser.resolve_operand(acc, acc_t),
            ],
            result_types=[acc_t],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" {indexing_maps = ")
        printer.print_attribute(self.indexing_maps)
        printer.print_string(", iterator_types = [")
        printer.print_string(", ".join(f'"{t}"' for t in self.iterators))
        printer.print_string("], kind = ")
        printer.print_attribute(self.kind)
        for name, attr in self.attributes.items():
            printer.print_string(f", {name} = ")
            printer.print_attribute(attr)
        printer.print_string("} ")
        printer.print_list([self.lhs, self.rhs, self.acc], printer.print_operand)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)
        printer.print_string(", ")
        printer.print_attribute(self.rhs.type)
        printer.print_string(" into ")
        printer.print_attribute(self.acc.type)

    def verify_(self) -> None:
        maps, iterators = self.maps, self.iterators
        operands = [self.lhs.type, self.rhs.type, self.acc.type]
        if len(maps) != 3:
            raise VerifyException("expected an indexing map for each vector operand")
        for i, (m, t) in enumerate(zip(maps, operands)):
            rank = t.get_num_dims() if isinstance(t, VectorType) else 0  # pyright: ignore
            if m.num_symbols:
                raise VerifyException(f"expected indexing map {i} to have no symbols")
            if m.num_dims != len(iterators):
                raise VerifyException(
                    f"expected indexing map {i} to have {len(iterators)} number of "
                    "inputs"
                )
            if len(m.results) != rank:
                raise VerifyException(
                    f"expected indexing map {i} to have {rank} number of outputs"
                )
            if any(not isinstance(e, AffineDimExpr) for e in m.results):
                raise VerifyException(
                    f"expected indexing map {i} to be a projected permutation of its "
                    "inputs"
                )
        sizes = self.iteration_sizes()
        lhs_shape, rhs_shape = (
            _vec(operands[0]).get_shape(),
            _vec(operands[1]).get_shape(),
        )
        reductions = {i for i, t in enumerate(iterators) if t == "reduction"}
        lhs_red = {
            e.position: lhs_shape[k]
            for k, e in enumerate(maps[0].results)
            if isinstance(e, AffineDimExpr) and e.position in reductions
        }
        rhs_red = {
            e.position: rhs_shape[k]
            for k, e in enumerate(maps[1].results)
            if isinstance(e, AffineDimExpr) and e.position in reductions
        }
        pairs = [(lhs_red[d], rhs_red[d]) for d in lhs_red if d in rhs_red]
        if not pairs or any(a != b for a, b in pairs):
            raise VerifyException("invalid contracting dimension map")
        acc_dims = [e.position for e in maps[2].results if isinstance(e, AffineDimExpr)]
        element = _vec(operands[0]).element_type
        res_t = self.result.type
        res_el = res_t.element_type if isinstance(res_t, VectorType) else res_t  # pyright: ignore
        expected: Attribute = res_el
        if acc_dims:
            expected = VectorType(res_el, [sizes.get(d, -1) for d in acc_dims])
        if expected != res_t or self.acc.type != res_t:
            raise VerifyException(
                f"invalid accumulator/result vector shape, expected: {quoted(expected)}"
            )
        if not is_supported_kind(self.kind.data.value, element):
            raise VerifyException(
                "An invalid combining kind was specified for the contraction"
            )

    def iteration_sizes(self) -> dict[int, int]:
        """The size of each iteration dim (by position), read from the operands."""
        sizes: dict[int, int] = {}
        for m, t in zip(self.maps[:2], (self.lhs.type, self.rhs.type)):
            for k, e in enumerate(m.results):
                if isinstance(e, AffineDimExpr):
                    sizes.setdefault(e.position, _vec(t).get_shape()[k])
        return sizes


@irdl_op_definition
class OuterProductOp(IRDLOperation):
    """``%o = vector.outerproduct %a, %b (, %acc {kind = ...})? : vector<4xf32>,
    vector<8xf32>`` (an ``f32`` right-hand side gives an AXPY)."""

    name = "vector.outerproduct"
    lhs = operand_def(VectorType)
    rhs = operand_def()
    acc = opt_operand_def(VectorType)
    result = result_def(VectorType)
    kind = prop_def(CombiningKindAttr)
    traits = traits_def(Pure())

    def __init__(
        self,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        acc: SSAValue | Operation | None = None,
        kind: CombiningKindFlag = CombiningKindFlag.ADD,
    ):
        lhs, rhs = SSAValue.get(lhs), SSAValue.get(rhs)
        super().__init__(
            operands=[lhs, rhs, acc],
            result_types=[self.result_type(lhs.type, rhs.type)],
            properties={"kind": CombiningKindAttr(kind)},
        )

    @staticmethod
    def result_type(lhs: Attribute, rhs: Attribute) -> VectorType:
        lhs_v = _vec(lhs)
        shape = list(lhs_v.get_shape())
        scalable = list(lhs_v.scalable_dims.data)
        if isinstance(rhs, VectorType):
            shape += list(rhs.get_shape())  # pyright: ignore[reportUnknownArgumentType]
            scalable += list(rhs.scalable_dims.data)  # pyright: ignore
        return VectorType(lhs_v.element_type, shape, ArrayAttr(scalable))

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operands = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        lhs_t = parser.parse_type()
        parser.parse_punctuation(",")
        rhs_t = parser.parse_type()
        if len(operands) not in (2, 3):
            parser.raise_error("expected at least 2 operands")
        result_t = cls.result_type(lhs_t, rhs_t)
        types = [lhs_t, rhs_t, result_t][: len(operands)]
        kind = attrs.pop("kind", CombiningKindAttr(CombiningKindFlag.ADD))
        return cls.create(
            operands=[parser.resolve_operand(o, t) for o, t in zip(operands, types)],
            result_types=[result_t],
            properties={"kind": kind},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        if self.acc is not None:
            printer.print_op_attributes({"kind": self.kind, **self.attributes})
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)
        printer.print_string(", ")
        printer.print_attribute(self.rhs.type)

    def verify_(self) -> None:
        lhs, rhs, result = _vec(self.lhs.type), self.rhs.type, _vec(self.result.type)
        if lhs.get_num_dims() != 1:
            raise VerifyException("expected 1-d vector for operand #1")
        rhs_el = rhs.element_type if isinstance(rhs, VectorType) else rhs  # pyright: ignore
        if rhs_el != result.element_type:
            raise VerifyException(
                "failed to verify that rhs operand and result have same element type"
            )
        if lhs.element_type != result.element_type:
            raise VerifyException(
                "failed to verify that lhs operand and result have same element type"
            )
        if isinstance(rhs, VectorType):
            if rhs.get_num_dims() != 1:  # pyright: ignore[reportUnknownMemberType]
                raise VerifyException("expected 1-d vector for operand #2")
            if result.get_num_dims() != 2:
                raise VerifyException("expected 2-d vector result")
            if lhs.get_shape()[0] != result.get_shape()[0]:
                raise VerifyException("expected #1 operand dim to match result dim #1")
            if rhs.get_shape()[0] != result.get_shape()[1]:  # pyright: ignore
                raise VerifyException("expected #2 operand dim to match result dim #2")
        elif result.get_num_dims() != 1 or lhs.get_shape() != result.get_shape():
            raise VerifyException("expected 1-d vector result")
        if self.acc is not None and self.acc.type != result:
            raise VerifyException("expected operand #3 of same type as result type")
        if not is_supported_kind(self.kind.data.value, result.element_type):
            raise VerifyException("unsupported outerproduct type")


__all__ = [
    "ContractionOp",
    "FMAOp",
    "MultiDimReductionOp",
    "OuterProductOp",
    "ReductionOp",
    "is_supported_kind",
]
