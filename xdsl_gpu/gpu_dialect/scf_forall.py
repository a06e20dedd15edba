"""``scf.forall`` and ``scf.forall.in_parallel`` (MLIR 22), which xDSL 0.74's ``scf``
dialect lacks, and :data:`SCF`: xDSL's ``scf`` dialect with them added.

``scf.forall`` is the loop the GPU transform ops map to blocks and threads
(``transform.gpu.map_forall_to_blocks``, ``map_nested_forall_to_threads``)::

    scf.forall (%i, %j) in (%c7, 9) { ... } {mapping = [#gpu.block<x>, #gpu.block<y>]}
    scf.forall (%i) = (0) to (%n) step (2) shared_outs(%o = %t) -> (tensor<8xf32>) {
      ...
      scf.forall.in_parallel { ... }
    }

Each bound is a constant (kept in ``staticLowerBound``/``staticUpperBound``/
``staticStep``) or an ``index`` value; the ``in`` form means lower bounds 0 and steps
1. The body takes one ``index`` per loop, then one argument per ``shared_outs``
value, and ends with ``scf.forall.in_parallel`` (implicit when the loop has no
results, as MLIR prints it). Syntax, printed form and verifier messages are
upstream's (``mlir/lib/Dialect/SCF/IR/SCF.cpp``).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    i32,
    i64,
)
from xdsl.dialects.scf import Scf
from xdsl.dialects.utils.dynamic_index_list import (
    get_dynamic_index_list,
    parse_dynamic_index_list_without_types,
    print_dynamic_index_list,
)
from xdsl.ir import Attribute, Block, Dialect, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    IsTerminator,
    NoTerminator,
    RecursiveMemoryEffect,
    SingleBlockImplicitTerminator,
    ensure_terminator,
)
from xdsl.utils.exceptions import VerifyException

_PAREN = Parser.Delimiter.PAREN


def _i64_array(values: Sequence[int]) -> DenseArrayBase[I64]:
    return DenseArrayBase.from_list(i64, list(values))


@irdl_op_definition
class InParallelOp(IRDLOperation):
    """``scf.forall.in_parallel { ... }``: the terminator of ``scf.forall``, whose
    region holds the ops that combine each iteration's results into the shared
    outputs (``tensor.parallel_insert_slice``)."""

    name = "scf.forall.in_parallel"

    region = region_def("single_block")

    traits = traits_def(NoTerminator(), IsTerminator())

    def __init__(self, ops: Sequence[IRDLOperation] = ()) -> None:
        super().__init__(regions=[Region(Block(ops))])

    @classmethod
    def parse(cls, parser: Parser) -> InParallelOp:
        region = parser.parse_region()
        if not region.blocks:
            region.add_block(Block())
        attributes = parser.parse_optional_attr_dict()
        op = cls.create(regions=[region])
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_region(
            self.region, print_entry_block_args=False, print_empty_block=False
        )
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if not isinstance(self.parent_op(), ForallOp):
            raise VerifyException("expected forall op parent")
        for op in self.region.ops:
            # tensor.parallel_insert_slice is the one op MLIR 22 has that
            # implements ParallelCombiningOpInterface.
            if op.name != "tensor.parallel_insert_slice":
                raise VerifyException(
                    "expected only ParallelCombiningOpInterface ops (found "
                    f"'{op.name}'; tensor.parallel_insert_slice is one)"
                )


@irdl_op_definition
class ForallOp(IRDLOperation):
    """``scf.forall``: a multi-dimensional loop whose iterations may run in parallel
    (see the module docstring)."""

    name = "scf.forall"

    dynamicLowerBound = var_operand_def(IndexType)
    dynamicUpperBound = var_operand_def(IndexType)
    dynamicStep = var_operand_def(IndexType)
    outputs = var_operand_def()

    staticLowerBound = prop_def(DenseArrayBase.constr(i64))
    staticUpperBound = prop_def(DenseArrayBase.constr(i64))
    staticStep = prop_def(DenseArrayBase.constr(i64))
    mapping = opt_prop_def(ArrayAttr)

    res = var_result_def()

    body = region_def("single_block")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    traits = traits_def(
        SingleBlockImplicitTerminator(InParallelOp), RecursiveMemoryEffect()
    )

    def __init__(
        self,
        lower: Sequence[SSAValue | int],
        upper: Sequence[SSAValue | int],
        step: Sequence[SSAValue | int],
        outputs: Sequence[SSAValue],
        body: Region,
        mapping: ArrayAttr | None = None,
    ) -> None:
        def split(values: Sequence[SSAValue | int]) -> tuple[list[SSAValue], list[int]]:
            return (
                [v for v in values if isinstance(v, SSAValue)],
                [v if isinstance(v, int) else DYNAMIC_INDEX for v in values],
            )

        (dyn_lb, st_lb), (dyn_ub, st_ub), (dyn_st, st_st) = (
            split(lower),
            split(upper),
            split(step),
        )
        properties: dict[str, Attribute] = {
            "staticLowerBound": _i64_array(st_lb),
            "staticUpperBound": _i64_array(st_ub),
            "staticStep": _i64_array(st_st),
        }
        if mapping is not None:
            properties["mapping"] = mapping
        super().__init__(
            operands=[dyn_lb, dyn_ub, dyn_st, outputs],
            result_types=[[o.type for o in outputs]],
            properties=properties,
            regions=[body],
        )
        for trait in self.get_traits_of_type(SingleBlockImplicitTerminator):
            ensure_terminator(self, trait)

    # -- accessors (upstream's names) --------------------------------------------------

    @property
    def rank(self) -> int:
        return len(self.staticLowerBound.get_values())

    @property
    def induction_vars(self) -> tuple[SSAValue, ...]:
        return tuple(self.body.block.args[: self.rank])

    @property
    def region_out_args(self) -> tuple[SSAValue, ...]:
        return tuple(self.body.block.args[self.rank :])

    def _mixed(
        self, static: DenseArrayBase[I64], dynamic: Sequence[SSAValue]
    ) -> list[SSAValue | int]:
        return get_dynamic_index_list(
            [int(v) for v in static.get_values()], dynamic, DYNAMIC_INDEX
        )

    @property
    def mixed_lower_bound(self) -> list[SSAValue | int]:
        return self._mixed(self.staticLowerBound, self.dynamicLowerBound)

    @property
    def mixed_upper_bound(self) -> list[SSAValue | int]:
        return self._mixed(self.staticUpperBound, self.dynamicUpperBound)

    @property
    def mixed_step(self) -> list[SSAValue | int]:
        return self._mixed(self.staticStep, self.dynamicStep)

    def is_normalized(self) -> bool:
        """Lower bounds all 0 and steps all 1 (constants, as upstream checks)."""
        return all(constant_index(v) == 0 for v in self.mixed_lower_bound) and all(
            constant_index(v) == 1 for v in self.mixed_step
        )

    @property
    def terminator(self) -> InParallelOp | None:
        last = self.body.block.last_op
        return last if isinstance(last, InParallelOp) else None

    # -- syntax ------------------------------------------------------------------------

    @classmethod
    def parse(cls, parser: Parser) -> ForallOp:
        index = IndexType()
        ivs = parser.parse_comma_separated_list(
            _PAREN, lambda: parser.parse_argument(expect_type=False)
        )

        def bounds() -> tuple[list[SSAValue], list[int]]:
            start = parser.pos
            operands, static = parse_dynamic_index_list_without_types(
                parser, DYNAMIC_INDEX, delimiter=_PAREN
            )
            values = parser.resolve_operands(
                list(operands), [index] * len(operands), start
            )
            return list(values), list(static)

        if parser.parse_optional_keyword("in") is not None:
            dyn_ub, st_ub = bounds()
            dyn_lb, st_lb = [], [0] * len(ivs)
            dyn_st, st_st = [], [1] * len(ivs)
        else:
            parser.parse_punctuation("=")
            dyn_lb, st_lb = bounds()
            parser.parse_keyword("to")
            dyn_ub, st_ub = bounds()
            parser.parse_keyword("step")
            dyn_st, st_st = bounds()

        out_args = []
        outputs: list[SSAValue] = []
        types: list[Attribute] = []
        if parser.parse_optional_keyword("shared_outs") is not None:
            start = parser.pos

            def assignment():
                arg = parser.parse_argument(expect_type=False)
                parser.parse_punctuation("=")
                return arg, parser.parse_unresolved_operand()

            pairs = parser.parse_comma_separated_list(_PAREN, assignment)
            if parser.parse_optional_punctuation("->") is not None:
                types = parser.parse_comma_separated_list(_PAREN, parser.parse_type)
            if len(types) != len(pairs):
                parser.raise_error(
                    "mismatch between out operands and types", start, parser.pos
                )
            outputs = list(parser.resolve_operands([o for _, o in pairs], types, start))
            out_args = [a for a, _ in pairs]

        region = parser.parse_region(
            [iv.resolve(index) for iv in ivs]
            + [a.resolve(t) for a, t in zip(out_args, types)]
        )
        attributes = parser.parse_optional_attr_dict()
        mapping = attributes.pop("mapping", None)
        op = cls.create(
            operands=[*dyn_lb, *dyn_ub, *dyn_st, *outputs],
            result_types=types,
            properties={
                "staticLowerBound": _i64_array(st_lb),
                "staticUpperBound": _i64_array(st_ub),
                "staticStep": _i64_array(st_st),
                "operandSegmentSizes": DenseArrayBase.from_list(
                    i32, [len(dyn_lb), len(dyn_ub), len(dyn_st), len(outputs)]
                ),
                **({"mapping": mapping} if mapping is not None else {}),
            },
            regions=[region],
        )
        op.attributes |= attributes
        if not region.blocks:
            region.add_block(Block())
        last = region.block.last_op
        if last is None or not last.has_trait(IsTerminator):
            region.block.add_op(InParallelOp())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" (")
        printer.print_list(self.induction_vars, printer.print_ssa_value)
        if self.is_normalized():
            printer.print_string(") in ")
            self._print_bounds(printer, self.staticUpperBound, self.dynamicUpperBound)
        else:
            printer.print_string(") = ")
            self._print_bounds(printer, self.staticLowerBound, self.dynamicLowerBound)
            printer.print_string(" to ")
            self._print_bounds(printer, self.staticUpperBound, self.dynamicUpperBound)
            printer.print_string(" step ")
            self._print_bounds(printer, self.staticStep, self.dynamicStep)
        if self.outputs:
            printer.print_string(" shared_outs(")
            printer.print_list(
                zip(self.region_out_args, self.outputs),
                lambda pair: (
                    printer.print_ssa_value(pair[0]),
                    printer.print_string(" = "),
                    printer.print_ssa_value(pair[1]),
                ),
            )
            printer.print_string(")")
        printer.print_string(" ")
        if self.outputs:
            printer.print_string("-> (")
            printer.print_list(self.res.types, printer.print_attribute)
            printer.print_string(") ")
        printer.print_region(
            self.body,
            print_entry_block_args=False,
            print_block_terminators=bool(self.res),
        )
        extra: dict[str, Attribute] = dict(self.attributes)
        if self.mapping is not None:
            extra = {"mapping": self.mapping, **extra}
        printer.print_op_attributes(extra)

    @staticmethod
    def _print_bounds(
        printer: Printer, static: DenseArrayBase[I64], dynamic: Sequence[SSAValue]
    ) -> None:
        print_dynamic_index_list(
            printer,
            DYNAMIC_INDEX,
            dynamic,
            [int(v) for v in static.get_values()],
            delimiter=_PAREN,
        )

    # -- verifier ----------------------------------------------------------------------

    def verify_(self) -> None:
        rank = self.rank
        if len(self.res) != len(self.outputs):
            raise VerifyException(
                f"produces {len(self.res)} results, but has only "
                f"{len(self.outputs)} outputs"
            )
        args = self.body.block.args
        if len(args) != rank + len(self.outputs):
            raise VerifyException(f"region expects {rank} arguments")
        for i in range(rank):
            if not isinstance(args[i].type, IndexType):
                raise VerifyException(f"expects {i}-th block argument to be an index")
        for i, output in enumerate(self.outputs):
            if args[rank + i].type != output.type:
                raise VerifyException(
                    f"type mismatch between {i}-th output and corresponding block "
                    "argument"
                )
        if self.mapping is not None and self.mapping.data:
            mappings = [a for a in self.mapping.data if is_device_mapping(a)]
            if len(mappings) != rank:
                raise VerifyException("mapping attribute size must match op rank")
            if sum(1 for a in self.mapping.data if is_device_mask(a)) > 1:
                raise VerifyException(
                    "mapping supports at most one device masking attribute"
                )
        for what, static, dynamic in (
            ("lower bound", self.staticLowerBound, self.dynamicLowerBound),
            ("upper bound", self.staticUpperBound, self.dynamicUpperBound),
            ("step", self.staticStep, self.dynamicStep),
        ):
            values = static.get_values()
            if len(values) != rank:
                raise VerifyException(
                    f"expected {rank} {what} values, got {len(values)}"
                )
            dynamic_count = sum(1 for v in values if v == DYNAMIC_INDEX)
            if len(dynamic) != dynamic_count:
                raise VerifyException(f"expected {dynamic_count} dynamic {what} values")


def constant_index(value: SSAValue | int) -> int | None:
    """The integer ``value`` is (an ``int``, or the result of an ``arith.constant``),
    or None (upstream's ``getConstantIntValue``)."""
    if isinstance(value, int):
        return value
    from xdsl.dialects.arith import ConstantOp
    from xdsl.dialects.builtin import IntegerAttr

    owner = value.owner
    if isinstance(owner, ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def is_device_mapping(attr: Attribute) -> bool:
    """Upstream's ``DeviceMappingAttrInterface``: the ``#gpu.block/thread/warp/
    warpgroup/lane`` mapping attributes."""
    from xdsl_gpu.gpu_dialect.gpu.attributes import (
        GPUBlockMappingAttr,
        GPULaneMappingAttr,
        GPUThreadMappingAttr,
        GPUWarpgroupMappingAttr,
        GPUWarpMappingAttr,
    )

    return isinstance(
        attr,
        GPUBlockMappingAttr
        | GPUThreadMappingAttr
        | GPUWarpMappingAttr
        | GPUWarpgroupMappingAttr
        | GPULaneMappingAttr,
    )


def is_device_mask(attr: Attribute) -> bool:
    """Upstream's ``DeviceMaskingAttrInterface``: ``#gpu.mask<...>``."""
    return getattr(attr, "name", None) == "gpu.mask"


SCF = Dialect(
    "scf",
    [*Scf.operations, ForallOp, InParallelOp],
    [*Scf.attributes],
)
"""xDSL's ``scf`` dialect with ``scf.forall`` and ``scf.forall.in_parallel``."""

__all__ = ["SCF", "ForallOp", "InParallelOp", "constant_index"]
