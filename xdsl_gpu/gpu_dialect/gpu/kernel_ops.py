"""The ops that give GPU code its structure: ``gpu.module``, ``gpu.func``,
``gpu.return``, ``gpu.binary``, ``gpu.launch``, ``gpu.terminator`` and
``gpu.launch_func``.

Upstream: ``GPUOps.td`` (``GPU_GPUModuleOp``, ``GPU_GPUFuncOp``, ``GPU_ReturnOp``,
``GPU_BinaryOp``, ``GPU_LaunchOp``, ``GPU_TerminatorOp``, ``GPU_LaunchFuncOp``); the
custom syntax and the verifier texts are those of ``GPUDialect.cpp`` as mlir-opt 22
prints them (``'gpu.func' op ...``).

Each op stores its attributes where upstream does, so the generic form matches
mlir-opt's too: ``gpu.func`` keeps ``sym_name``, ``gpu.kernel`` and
``workgroup_attributions`` (the number of workgroup attributions) in its attribute
dictionary and the rest in properties; ``gpu.launch`` keeps ``workgroup_attributions``
in its attribute dictionary.

Target and offloading-handler attributes (``#nvvm.target``, ``#gpu.select_object``,
``#gpu.object``) are defined elsewhere; here any attribute is accepted in their place,
parsed with the generic attribute parser. A target attribute that has a method
``verify_target(module_op)`` is asked to check the ``gpu.module`` it is attached to.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar, NamedTuple

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    FlatSymbolRefAttrConstr,
    FunctionType,
    IndexType,
    IntegerAttr,
    MemRefType,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    UnitAttr,
    i32,
    i64,
)
from xdsl.dialects.builtin import (
    ModuleOp as BuiltinModuleOp,
)
from xdsl.ir import (
    Attribute,
    Block,
    BlockArgument,
    Operation,
    Region,
    SSAValue,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    attr_def,
    irdl_op_definition,
    operand_def,
    opt_attr_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    OptionalOperandVariable,
    ParsingState,
    PrintingState,
    TypeDirective,
    VariadicOperandVariable,
    irdl_custom_directive,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.printer import Printer
from xdsl.rewriter import InsertPoint
from xdsl.traits import (
    CallableOpInterface,
    HasCanonicalizationPatternsTrait,
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    NoTerminator,
    Pure,
    RecursiveMemoryEffect,
    SymbolOpInterface,
    SymbolTable,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from xdsl_gpu.gpu_dialect.gpu.async_syntax import (
    AsyncDependencies,
    parse_async_dependencies,
    print_async_dependencies,
)
from xdsl_gpu.gpu_dialect.gpu.attributes import AddressSpace, AddressSpaceAttr
from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import (
    ObjectAttr,
    SelectObjectAttr,
    is_gpu_target_attr,
)
from xdsl_gpu.gpu_dialect.gpu.interfaces import (
    OffloadingTranslationAttrInterface,
    implements,
)
from xdsl_gpu.gpu_dialect.gpu.memory_ops import AsyncOpInterface
from xdsl_gpu.gpu_dialect.gpu.types import AsyncTokenType
from xdsl_gpu.gpu_dialect.gpu.verify_order import (
    VerifiedOnEntrance,
    verify_ods,
    verify_operand_count,
)

if TYPE_CHECKING:
    from xdsl.irdl import Operand, OptOperand

__all__ = [
    "ATTRIBUTES",
    "CONTAINER_MODULE_ATTR_NAME",
    "KERNEL_ATTR_NAME",
    "OPERATIONS",
    "BinaryOp",
    "FuncOp",
    "KernelDim3",
    "LaunchFuncOp",
    "LaunchOp",
    "ModuleOp",
    "ReturnOp",
    "TerminatorOp",
    "default_offloading_handler",
]

KERNEL_ATTR_NAME = "gpu.kernel"
"""The unit attribute that marks a function as a kernel (``gpu.func ... kernel``)."""

CONTAINER_MODULE_ATTR_NAME = "gpu.container_module"
"""The unit attribute of the ``builtin.module`` that holds gpu modules and launches."""

WORKGROUP_ATTRIBUTIONS_ATTR_NAME = "workgroup_attributions"
"""Where ``gpu.func`` and ``gpu.launch`` keep their number of workgroup attributions."""


class _HasParent(HasParent):
    """``HasParent`` with upstream's wording (``'gpu.func' op expects parent op
    'gpu.module'``)."""

    def verify(self, op: Operation) -> None:
        parent = op.parent_op()
        if parent is not None and not isinstance(parent, self.op_types):
            raise VerifyException(
                f"'{op.name}' op expects parent op '{self.op_types[0].name}'"
            )


class KernelDim3(NamedTuple):
    """Three values along x, y and z (upstream ``KernelDim3``)."""

    x: SSAValue
    y: SSAValue
    z: SSAValue


def _dim3(values: Sequence[SSAValue | Operation], what: str) -> KernelDim3:
    if len(values) != 3:
        raise ValueError(f"{what} needs three values (x, y, z), got {len(values)}")
    x, y, z = (SSAValue.get(v) for v in values)
    return KernelDim3(x, y, z)


# --------------------------------------------------------------------------------------
# Memory attributions, shared by gpu.func and gpu.launch
# --------------------------------------------------------------------------------------


class _MemoryAttributions:
    """The memory attributions of ``gpu.func`` and ``gpu.launch``: the entry-block
    arguments after the first ``_attributions_start`` ones, workgroup buffers first,
    then private buffers; the ``workgroup_attributions`` attribute counts the
    former."""

    if TYPE_CHECKING:
        body: Region
        workgroup_attribution_count: IntegerAttr | None

        @property
        def _attributions_start(self) -> int: ...

    @property
    def num_workgroup_attributions(self) -> int:
        return _count(self.workgroup_attribution_count)

    @property
    def workgroup_attributions(self) -> tuple[BlockArgument, ...]:
        """The entry-block arguments that are buffers in workgroup memory."""
        start = self._attributions_start
        end = start + self.num_workgroup_attributions
        return tuple(self.body.blocks[0].args[start:end])

    @property
    def num_private_attributions(self) -> int:
        args = len(self.body.blocks[0].args) if self.body.blocks else 0
        return args - self._attributions_start - self.num_workgroup_attributions

    @property
    def private_attributions(self) -> tuple[BlockArgument, ...]:
        """The entry-block arguments that are buffers in private memory."""
        start = self._attributions_start + self.num_workgroup_attributions
        return tuple(self.body.blocks[0].args[start:])

    def add_workgroup_attribution(self, type: Attribute) -> BlockArgument:
        """Add a workgroup buffer after the last one; return its block argument."""
        n = self.num_workgroup_attributions
        arg = self.body.blocks[0].insert_arg(type, self._attributions_start + n)
        self.workgroup_attribution_count = _count_attr(n + 1)
        return arg

    def add_private_attribution(self, type: Attribute) -> BlockArgument:
        """Add a private buffer after the last one; return its block argument."""
        block = self.body.blocks[0]
        return block.insert_arg(type, len(block.args))

    def _verify_attributions(self, op_name: str) -> None:
        for values, space in (
            (self.workgroup_attributions, AddressSpace.Workgroup),
            (self.private_attributions, AddressSpace.Private),
        ):
            for value in values:
                if not isinstance(value.type, MemRefType):
                    raise VerifyException(
                        f"'{op_name}' op expected memref type in attribution"
                    )
                # Like upstream, only a #gpu.address_space is checked: a memory
                # space that was already lowered to a number is left alone.
                actual = value.type.memory_space
                if isinstance(actual, AddressSpaceAttr) and actual.data != space:
                    raise VerifyException(
                        f"'{op_name}' op expected memory space {space.value} in "
                        "attribution"
                    )


def _parse_attributions(
    parser: Parser, keyword: str, *, allow_attrs: bool
) -> tuple[list[Parser.Argument], list[dict[str, Attribute]]]:
    """``keyword `(` (%name `:` type attr-dict?)* `)```, if the keyword is there."""
    if parser.parse_optional_keyword(keyword) is None:
        return [], []

    def parse_one() -> tuple[Parser.Argument, dict[str, Attribute]]:
        arg = parser.parse_argument()
        attrs = parser.parse_optional_dictionary_attr_dict() if allow_attrs else {}
        arg.location = parser.parse_optional_location()
        return arg, attrs

    pairs = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parse_one)
    return [arg for arg, _ in pairs], [attrs for _, attrs in pairs]


def _print_attributions(
    printer: Printer,
    keyword: str,
    values: Sequence[BlockArgument],
    attrs: ArrayAttr[DictionaryAttr] | None = None,
) -> None:
    if not values:
        return
    printer.print_string(f" {keyword}(")
    for i, value in enumerate(values):
        if i:
            printer.print_string(", ")
        printer.print_ssa_value(value)
        printer.print_string(" : ")
        printer.print_attribute(value.type)
        if attrs is not None and i < len(attrs.data) and attrs.data[i].data:
            printer.print_op_attributes(attrs.data[i].data)
    printer.print_string(")")


def _attribution_attrs(
    attrs: Sequence[Mapping[str, Attribute]],
) -> ArrayAttr[DictionaryAttr] | None:
    """Per-attribution dictionaries as upstream stores them: none at all unless one
    of them is non-empty."""
    if not any(attrs):
        return None
    return ArrayAttr([DictionaryAttr(dict(a)) for a in attrs])


def _count_attr(n: int) -> IntegerAttr:
    return IntegerAttr(n, i64)


def _count(attr: IntegerAttr | None) -> int:
    return 0 if attr is None else attr.value.data


# --------------------------------------------------------------------------------------
# gpu.module
# --------------------------------------------------------------------------------------


@irdl_op_definition
class ModuleOp(IRDLOperation):
    """``gpu.module @name (<handler>)? ([targets])? attributes {...} {...}``: a device
    compilation unit.

    ``targets`` (at least one when present) say how ``gpu-module-to-binary`` compiles
    the module, one object per target; the optional offloading handler is passed on
    to the ``gpu.binary`` that replaces the module.
    """

    name = "gpu.module"

    sym_name = prop_def(SymbolNameConstraint())
    targets = opt_prop_def(ArrayAttr)
    offloading_handler = opt_prop_def(Attribute, prop_name="offloadingHandler")

    body = region_def("single_block")

    traits = traits_def(
        IsolatedFromAbove(), NoTerminator(), SymbolOpInterface(), SymbolTable()
    )

    def __init__(
        self,
        name: str | StringAttr,
        body: Region | None = None,
        *,
        targets: Sequence[Attribute] | ArrayAttr | None = None,
        offloading_handler: Attribute | None = None,
    ):
        if isinstance(name, str):
            name = StringAttr(name)
        if targets is not None and not isinstance(targets, ArrayAttr):
            targets = ArrayAttr(targets) if targets else None
        super().__init__(
            properties={
                "sym_name": name,
                "targets": targets,
                "offloadingHandler": offloading_handler,
            },
            regions=[body if body is not None else Region(Block())],
        )

    def has_target(self, target: Attribute) -> bool:
        return self.targets is not None and target in self.targets.data

    def set_targets(self, targets: Sequence[Attribute]) -> None:
        self.targets = ArrayAttr(targets)

    @classmethod
    def parse(cls, parser: Parser) -> ModuleOp:
        properties: dict[str, Attribute] = {"sym_name": parser.parse_symbol_name()}
        if parser.parse_optional_punctuation("<") is not None:
            properties["offloadingHandler"] = parser.parse_attribute()
            parser.parse_punctuation(">")
        if parser.parse_optional_punctuation("[") is not None:
            targets: list[Attribute] = []
            if parser.parse_optional_punctuation("]") is None:
                targets = parser.parse_comma_separated_list(
                    parser.Delimiter.NONE, parser.parse_attribute
                )
                parser.parse_punctuation("]")
            properties["targets"] = ArrayAttr(targets)
        attributes = parser.parse_optional_attr_dict_with_keyword(
            ("sym_name", "targets", "offloadingHandler")
        )
        body = parser.parse_region()
        if not body.blocks:  # `{}`: one empty block, as upstream builds it
            body.add_block(Block())
        return cls.create(
            properties=properties,
            attributes=dict(attributes.data) if attributes is not None else {},
            regions=[body],
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        if self.offloading_handler is not None:
            printer.print_string(" <")
            printer.print_attribute(self.offloading_handler)
            printer.print_string(">")
        if self.targets is not None:
            printer.print_string(" ")
            printer.print_attribute(self.targets)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_empty_block=False)

    def verify_(self) -> None:
        if self.body.blocks and self.body.block.args:
            raise VerifyException("'gpu.module' op region should have no arguments")
        if self.targets is None:
            return
        if not self.targets.data or not all(
            is_gpu_target_attr(t) for t in self.targets.data
        ):
            raise VerifyException(
                "'gpu.module' op attribute 'targets' failed to satisfy constraint: "
                "array of GPU target attributes with at least 1 elements"
            )
        for target in self.targets.data:
            verify_target = getattr(target, "verify_target", None)
            if callable(verify_target):
                verify_target(self)


# --------------------------------------------------------------------------------------
# gpu.func and gpu.return
# --------------------------------------------------------------------------------------


class _GPUFuncCallable(CallableOpInterface):
    @classmethod
    def get_callable_region(cls, op: Operation) -> Region:
        assert isinstance(op, FuncOp)
        return op.body

    @classmethod
    def get_argument_types(cls, op: Operation) -> tuple[Attribute, ...]:
        assert isinstance(op, FuncOp)
        return tuple(op.function_type.inputs.data)

    @classmethod
    def get_result_types(cls, op: Operation) -> tuple[Attribute, ...]:
        assert isinstance(op, FuncOp)
        return tuple(op.function_type.outputs.data)


_DIM_SIZE_HINT = DenseArrayBase.constr(i32)

_LAUNCH_SIZE_HINTS = ("known_block_size", "known_grid_size", "known_cluster_size")
"""The ``gpu.func`` properties that the custom syntax shows in ``attributes {...}``."""


def _parse_function_results(
    parser: Parser,
) -> tuple[list[Attribute], list[dict[str, Attribute]]]:
    """``(-> type | -> (type attr-dict?, ...))?``."""
    if parser.parse_optional_punctuation("->") is None:
        return [], []
    results = parser.parse_optional_comma_separated_list(
        parser.Delimiter.PAREN,
        lambda: (parser.parse_type(), parser.parse_optional_dictionary_attr_dict()),
    )
    if results is None:
        return [parser.parse_type()], [{}]
    return [t for t, _ in results], [a for _, a in results]


def _print_function_results(
    printer: Printer,
    types: Sequence[Attribute],
    attrs: ArrayAttr[DictionaryAttr] | None,
) -> None:
    """Upstream ``printFunctionResultList``: parentheses for several results, a
    function type or attributes on the first result."""
    if not types:
        return
    printer.print_string(" -> ")
    dicts = [d.data for d in attrs.data] if attrs is not None else [{}] * len(types)
    parens = len(types) > 1 or isinstance(types[0], FunctionType) or bool(dicts[0])
    if parens:
        printer.print_string("(")
    for i, (t, d) in enumerate(zip(types, dicts, strict=True)):
        if i:
            printer.print_string(", ")
        printer.print_attribute(t)
        if d:
            printer.print_op_attributes(d)
    if parens:
        printer.print_string(")")


@irdl_op_definition
class FuncOp(_MemoryAttributions, VerifiedOnEntrance, IRDLOperation):
    """``gpu.func``: a kernel (``kernel``) or device function inside a
    ``gpu.module``.

    ```
    gpu.func @foo(%arg0: index)
        workgroup(%workgroup : memref<32xf32, #gpu.address_space<workgroup>>)
        private(%private : memref<1xf32, #gpu.address_space<private>>)
        kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
    ```

    The entry block takes the function arguments, then the workgroup attributions,
    then the private attributions; ``workgroup_attributions`` holds how many
    workgroup attributions there are.
    """

    name = "gpu.func"

    sym_name = attr_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    workgroup_attrib_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    private_attrib_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    known_block_size = opt_prop_def(_DIM_SIZE_HINT)
    known_grid_size = opt_prop_def(_DIM_SIZE_HINT)
    known_cluster_size = opt_prop_def(_DIM_SIZE_HINT)

    kernel = opt_attr_def(UnitAttr, attr_name=KERNEL_ATTR_NAME)
    workgroup_attribution_count = opt_attr_def(
        IntegerAttr[I64], attr_name=WORKGROUP_ATTRIBUTIONS_ATTR_NAME
    )

    body = region_def()

    traits = traits_def(
        IsolatedFromAbove(),
        _HasParent(ModuleOp),
        SymbolOpInterface(),
        _GPUFuncCallable(),
    )

    def __init__(
        self,
        name: str | StringAttr,
        function_type: FunctionType | tuple[Sequence[Attribute], Sequence[Attribute]],
        region: Region | None = None,
        *,
        workgroup: Sequence[Attribute] = (),
        private: Sequence[Attribute] = (),
        kernel: bool = False,
        known_block_size: Sequence[int] | None = None,
        known_grid_size: Sequence[int] | None = None,
        known_cluster_size: Sequence[int] | None = None,
        arg_attrs: ArrayAttr[DictionaryAttr] | None = None,
        res_attrs: ArrayAttr[DictionaryAttr] | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        """Build a ``gpu.func``.

        ``workgroup`` and ``private`` are the types of the memory attributions. Without
        a ``region``, the body is one empty block whose arguments are the function
        arguments followed by the attributions; with one, its entry block must have
        them already.
        """
        if isinstance(function_type, tuple):
            function_type = FunctionType.from_lists(*function_type)
        if region is None:
            region = Region(
                Block(arg_types=(*function_type.inputs.data, *workgroup, *private))
            )

        def hint(values: Sequence[int] | None) -> DenseArrayBase | None:
            return None if values is None else DenseArrayBase.from_list(i32, values)

        attrs: dict[str, Attribute] = dict(attributes or {})
        attrs["sym_name"] = StringAttr(name) if isinstance(name, str) else name
        attrs[WORKGROUP_ATTRIBUTIONS_ATTR_NAME] = _count_attr(len(workgroup))
        if kernel:
            attrs[KERNEL_ATTR_NAME] = UnitAttr()
        super().__init__(
            properties={
                "function_type": function_type,
                "arg_attrs": arg_attrs,
                "res_attrs": res_attrs,
                "known_block_size": hint(known_block_size),
                "known_grid_size": hint(known_grid_size),
                "known_cluster_size": hint(known_cluster_size),
            },
            attributes=attrs,
            regions=[region],
        )

    # Accessors ----------------------------------------------------------------------

    @property
    def is_kernel(self) -> bool:
        """Whether the function is a kernel, launched from the host."""
        return self.kernel is not None

    @is_kernel.setter
    def is_kernel(self, value: bool) -> None:
        self.kernel = UnitAttr() if value else None

    @property
    def num_arguments(self) -> int:
        return len(self.function_type.inputs.data)

    @property
    def arguments(self) -> tuple[BlockArgument, ...]:
        """The entry-block arguments that are function arguments."""
        return tuple(self.body.blocks[0].args[: self.num_arguments])

    @property
    def _attributions_start(self) -> int:
        return self.num_arguments

    # Syntax -------------------------------------------------------------------------

    _ELIDED: ClassVar[frozenset[str]] = frozenset(
        {
            "sym_name",
            "function_type",
            "arg_attrs",
            "res_attrs",
            "workgroup_attrib_attrs",
            "private_attrib_attrs",
            KERNEL_ATTR_NAME,
            WORKGROUP_ATTRIBUTIONS_ATTR_NAME,
        }
    )

    @classmethod
    def parse(cls, parser: Parser) -> FuncOp:
        name = parser.parse_symbol_name()
        signature_pos = parser.pos

        # As upstream's function parser: all arguments named or all bare types (the
        # first one decides), and then gpu.func wants them named.
        named: list[bool] = []

        def parse_argument() -> tuple[Parser.Argument | None, dict[str, Attribute]]:
            pos = parser.pos
            arg = parser.parse_optional_argument()
            if named and named[0] != (arg is not None):
                parser.raise_error(
                    "custom op 'gpu.func' expected SSA identifier"
                    if named[0]
                    else "custom op 'gpu.func' expected type instead of SSA identifier",
                    pos,
                )
            named.append(arg is not None)
            if arg is None:
                parser.parse_type()
            attrs = parser.parse_optional_dictionary_attr_dict()
            location = parser.parse_optional_location()
            if arg is not None:
                arg.location = location
            return arg, attrs

        pairs = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parse_argument, " in argument list"
        )
        args = [arg for arg, _ in pairs if arg is not None]
        if len(args) != len(pairs):
            parser.raise_error(
                "custom op 'gpu.func' gpu.func requires named arguments", signature_pos
            )
        result_types, result_attrs = _parse_function_results(parser)
        function_type = FunctionType.from_lists([a.type for a in args], result_types)

        workgroup, workgroup_attrs = _parse_attributions(
            parser, "workgroup", allow_attrs=True
        )
        private, private_attrs = _parse_attributions(
            parser, "private", allow_attrs=True
        )

        attributes: dict[str, Attribute] = {
            "sym_name": name,
            WORKGROUP_ATTRIBUTIONS_ATTR_NAME: _count_attr(len(workgroup)),
        }
        if parser.parse_optional_keyword("kernel") is not None:
            attributes[KERNEL_ATTR_NAME] = UnitAttr()
        properties: dict[str, Attribute | None] = {
            "function_type": function_type,
            "arg_attrs": _attribution_attrs([a for _, a in pairs]),
            "res_attrs": _attribution_attrs(result_attrs),
            "workgroup_attrib_attrs": _attribution_attrs(workgroup_attrs),
            "private_attrib_attrs": _attribution_attrs(private_attrs),
        }
        extra = parser.parse_optional_attr_dict_with_keyword(
            sorted(cls._ELIDED - {KERNEL_ATTR_NAME})
        )
        if extra is not None:
            for key, value in extra.data.items():
                # Inherent attributes written in the dictionary become properties,
                # as in upstream.
                if key in _LAUNCH_SIZE_HINTS:
                    properties[key] = value
                else:
                    attributes[key] = value

        entry_args = [*args, *workgroup, *private]
        body = parser.parse_region(entry_args or None)
        return cls.create(
            properties={k: v for k, v in properties.items() if v is not None},
            attributes=attributes,
            regions=[body],
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        inputs = self.function_type.inputs.data
        printer.print_string("(")
        if self.body.blocks:
            arg_dicts = (
                [d.data for d in self.arg_attrs.data]
                if self.arg_attrs is not None
                else [{}] * len(inputs)
            )
            for i, (arg, attrs) in enumerate(zip(self.arguments, arg_dicts)):
                if i:
                    printer.print_string(", ")
                printer.print_block_argument(arg)
                if attrs:
                    printer.print_op_attributes(attrs)
        else:
            printer.print_list(inputs, printer.print_attribute)
        printer.print_string(")")
        _print_function_results(
            printer, self.function_type.outputs.data, self.res_attrs
        )

        if self.body.blocks:
            _print_attributions(
                printer,
                "workgroup",
                self.workgroup_attributions,
                self.workgroup_attrib_attrs,
            )
            _print_attributions(
                printer, "private", self.private_attributions, self.private_attrib_attrs
            )
        if self.is_kernel:
            printer.print_string(" kernel")

        shown = {
            k: v
            for k, v in (self.properties | self.attributes).items()
            if k not in self._ELIDED
        }
        printer.print_op_attributes(dict(sorted(shown.items())), print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)

    # Verification -------------------------------------------------------------------

    def verify_on_entrance_(self) -> None:
        # All of upstream's checks of gpu.func run before its body's, its return
        # type's among them (a gpu.return of a kernel with results is wrong too).
        function_type = self.properties.get("function_type")
        if function_type is None:
            raise VerifyException("'gpu.func' op requires attribute 'function_type'")
        if not isinstance(function_type, FunctionType):
            raise VerifyException(
                "'gpu.func' op attribute 'function_type' failed to satisfy "
                "constraint: type attribute of function type"
            )
        self.verify_()

    def verify_(self) -> None:
        n_inputs = len(self.function_type.inputs.data)
        n_results = len(self.function_type.outputs.data)
        for attrs, expected, what in (
            (self.arg_attrs, n_inputs, "argument"),
            (self.res_attrs, n_results, "result"),
        ):
            if attrs is not None and len(attrs.data) != expected:
                raise VerifyException(
                    f"'gpu.func' op expects {what} attribute array to have the same "
                    f"number of elements as the number of function {what}s, got "
                    f"{len(attrs.data)}, but expected {expected}"
                )
        for hint in _LAUNCH_SIZE_HINTS:
            value = self.properties.get(hint)
            if isinstance(value, DenseArrayBase) and len(value) != 3:
                raise VerifyException(
                    f"'gpu.func' op attribute '{hint}' failed to satisfy constraint: "
                    "i32 dense array attribute with 3 elements (if present)"
                )

        # verifyType
        if self.is_kernel and n_results:
            raise VerifyException(
                "'gpu.func' op expected void return type for kernel function"
            )

        # verifyBody
        if not self.body.blocks:
            raise VerifyException("'gpu.func' op expected body with at least one block")
        block_args = self.body.blocks[0].args
        needed = n_inputs + self.num_workgroup_attributions
        if len(block_args) < needed:
            raise VerifyException(
                f"'gpu.func' op expected at least {needed} arguments to body region"
            )
        for i, (expected_type, arg) in enumerate(
            zip(self.function_type.inputs.data, block_args)
        ):
            if arg.type != expected_type:
                raise VerifyException(
                    f"'gpu.func' op expected body region argument #{i} to be of type "
                    f"'{expected_type}', got '{arg.type}'"
                )
        self._verify_attributions("gpu.func")


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """``gpu.return (%values : types)?``: the terminator of ``gpu.func``."""

    name = "gpu.return"

    args = var_operand_def()

    traits = traits_def(IsTerminator(), _HasParent(FuncOp), Pure())

    assembly_format = "attr-dict ($args^ `:` type($args))?"

    def __init__(self, values: Sequence[SSAValue | Operation] = ()):
        super().__init__(operands=[values])

    def verify_(self) -> None:
        func = self.parent_op()
        if not isinstance(func, FuncOp):
            return  # HasParent says why.
        function_type = func.properties.get("function_type")
        if not isinstance(function_type, FunctionType):
            return  # the gpu.func's own verification says what is wrong with it
        expected = function_type.outputs.data
        if len(expected) != len(self.args):
            raise VerifyException(
                f"'gpu.return' op expected {len(expected)} result operands"
            )
        for i, (t, value) in enumerate(zip(expected, self.args)):
            if value.type != t:
                raise VerifyException(
                    f"'gpu.return' op unexpected type `'{value.type}'' for operand #{i}"
                )


# --------------------------------------------------------------------------------------
# gpu.binary
# --------------------------------------------------------------------------------------


def default_offloading_handler() -> SelectObjectAttr:
    """``#gpu.select_object``: the handler of a ``gpu.binary`` that names none (it
    embeds the first object)."""
    return SelectObjectAttr()


_PROMISED_HANDLER_NAMES = frozenset({"gpu.select_object", "xgpu.select_best"})
"""The offloading handlers there are, accepted by name even before their models are
registered (``xdsl_gpu.register_dialects``)."""


def _is_offloading_handler(attr: Attribute) -> bool:
    """Upstream ``OffloadingTranslationAttrTrait``: an attribute that can embed a
    ``gpu.binary`` and launch its kernels."""
    return getattr(attr, "name", None) in _PROMISED_HANDLER_NAMES or implements(
        attr, OffloadingTranslationAttrInterface
    )


@irdl_op_definition
class BinaryOp(IRDLOperation):
    """``gpu.binary @name (<handler>)? [#gpu.object<...>, ...]``: the compiled
    objects of a ``gpu.module``.

    The offloading handler decides, at translation to LLVM IR, how the objects are
    embedded and how ``gpu.launch_func`` launches their kernels. Without one,
    ``#gpu.select_object`` (the first object) is used; it is not printed.
    """

    name = "gpu.binary"

    sym_name = prop_def(SymbolNameConstraint())
    offloading_handler = opt_prop_def(Attribute, prop_name="offloadingHandler")
    objects = prop_def(ArrayAttr)

    traits = traits_def(SymbolOpInterface())

    def __init__(
        self,
        name: str | StringAttr,
        objects: Sequence[Attribute] | ArrayAttr,
        offloading_handler: Attribute | None = None,
    ):
        if isinstance(name, str):
            name = StringAttr(name)
        if not isinstance(objects, ArrayAttr):
            objects = ArrayAttr(objects)
        if offloading_handler is None:
            offloading_handler = default_offloading_handler()
        super().__init__(
            properties={
                "sym_name": name,
                "objects": objects,
                "offloadingHandler": offloading_handler,
            }
        )

    @classmethod
    def parse(cls, parser: Parser) -> BinaryOp:
        name = parser.parse_symbol_name()
        if parser.parse_optional_punctuation("<") is not None:
            handler = parser.parse_attribute()
            parser.parse_punctuation(">")
        else:
            handler = default_offloading_handler()
        attributes = parser.parse_optional_attr_dict_with_reserved_attr_names(
            ("sym_name", "objects", "offloadingHandler")
        )
        pos = parser.pos
        objects = parser.parse_attribute()
        if not isinstance(objects, ArrayAttr):
            parser.raise_error("expected an array of GPU objects", pos, parser.pos)
        return cls.create(
            properties={
                "sym_name": name,
                "offloadingHandler": handler,
                "objects": objects,
            },
            attributes=attributes.data if attributes is not None else {},
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        handler = self.offloading_handler
        if handler is not None and handler != default_offloading_handler():
            printer.print_string(" <")
            printer.print_attribute(handler)
            printer.print_string(">")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" ")
        printer.print_attribute(self.objects)

    def verify_(self) -> None:
        # xdsl-gpu's #xgpu.object_file (bytes in a file, embedded by
        # xgpu-embed-object-files) stands where upstream has an object; named here
        # because the xgpu dialect builds on this one.
        if not self.objects.data or not all(
            isinstance(o, ObjectAttr) or o.name == "xgpu.object_file"
            for o in self.objects.data
        ):
            raise VerifyException(
                "'gpu.binary' op attribute 'objects' failed to satisfy constraint: "
                "an array of GPU object attributes with at least 1 elements"
            )
        handler = self.offloading_handler
        if handler is not None and not _is_offloading_handler(handler):
            raise VerifyException(
                "'gpu.binary' op attribute 'offloadingHandler' failed to satisfy "
                "constraint: any attribute with the `OffloadingTranslationAttrTrait` "
                "trait."
            )


# --------------------------------------------------------------------------------------
# gpu.launch and gpu.terminator
# --------------------------------------------------------------------------------------


class _LaunchSizes:
    """Accessors of the size operands, named alike in ``gpu.launch`` and
    ``gpu.launch_func``."""

    if TYPE_CHECKING:
        grid_size_x: Operand
        grid_size_y: Operand
        grid_size_z: Operand
        block_size_x: Operand
        block_size_y: Operand
        block_size_z: Operand
        cluster_size_x: OptOperand
        cluster_size_y: OptOperand
        cluster_size_z: OptOperand

    @property
    def grid_size_operands(self) -> KernelDim3:
        return KernelDim3(self.grid_size_x, self.grid_size_y, self.grid_size_z)

    @property
    def block_size_operands(self) -> KernelDim3:
        return KernelDim3(self.block_size_x, self.block_size_y, self.block_size_z)

    @property
    def cluster_size_operands(self) -> KernelDim3 | None:
        """The cluster size, when all three are there."""
        x, y, z = self.cluster_size_x, self.cluster_size_y, self.cluster_size_z
        if x is None or y is None or z is None:
            return None
        return KernelDim3(x, y, z)

    @property
    def has_cluster_size(self) -> bool:
        return self.cluster_size_operands is not None

    def _verify_cluster_sizes(self, op_name: str) -> None:
        clusters = (self.cluster_size_x, self.cluster_size_y, self.cluster_size_z)
        if not self.has_cluster_size and any(c is not None for c in clusters):
            raise VerifyException(f"'{op_name}' op cluster size must be all present")
        if len({c.type for c in clusters if c is not None}) > 1:
            raise VerifyException(
                f"'{op_name}' op expects types of the cluster dimensions must be the "
                "same"
            )


_NUM_CONFIG_REGION_ARGS = 12
"""Block ids, thread ids, grid sizes and block sizes, 3 each."""

_NUM_CLUSTER_REGION_ARGS = 6
"""Cluster ids and cluster sizes, 3 each, when the launch has clusters."""


def _parse_size_assignment(
    parser: Parser,
) -> tuple[
    list[Parser.UnresolvedArgument],
    list[Parser.UnresolvedArgument],
    list[UnresolvedOperand],
]:
    """``(%id_x, %id_y, %id_z) in (%size_x = %a, %size_y = %b, %size_z = %c)``;
    return (ids, sizes, size operands)."""
    ids = parser.parse_comma_separated_list(
        parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
    )
    if len(ids) != 3:
        parser.raise_error(f"expected 3 identifiers (x, y, z), got {len(ids)}")
    parser.parse_keyword("in")

    def parse_assignment() -> tuple[Parser.UnresolvedArgument, UnresolvedOperand]:
        arg = parser.parse_argument(expect_type=False)
        parser.parse_punctuation("=")
        return arg, parser.parse_unresolved_operand()

    pairs = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parse_assignment)
    if len(pairs) != 3:
        parser.raise_error(f"expected 3 size assignments (x, y, z), got {len(pairs)}")
    return ids, [a for a, _ in pairs], [o for _, o in pairs]


def _print_size_assignment(
    printer: Printer,
    keyword: str,
    ids: KernelDim3,
    sizes: KernelDim3,
    values: KernelDim3,
) -> None:
    printer.print_string(f" {keyword}(")
    printer.print_list(ids, printer.print_ssa_value)
    printer.print_string(") in (")
    for i, (size, value) in enumerate(zip(sizes, values)):
        if i:
            printer.print_string(", ")
        printer.print_ssa_value(size)
        printer.print_string(" = ")
        printer.print_ssa_value(value)
    printer.print_string(")")


class _LaunchCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (FoldLaunchArguments(),)


@irdl_op_definition
class LaunchOp(
    _LaunchSizes,
    _MemoryAttributions,
    VerifiedOnEntrance,
    AsyncOpInterface,
    IRDLOperation,
):
    """``gpu.launch``: a kernel written inline, run on a grid of thread blocks.

    ```
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %a, %gy = %b, %gz = %c)
               threads(%tx, %ty, %tz) in (%sx = %d, %sy = %e, %sz = %f) {
      ...
      gpu.terminator
    }
    ```

    The body's entry block has, in order: block ids (0-2), thread ids (3-5), grid
    sizes (6-8) and block sizes (9-11); with ``clusters(...)``, cluster ids (12-14)
    and cluster sizes (15-17); then the workgroup and the private attributions.
    """

    name = "gpu.launch"

    async_dependencies = var_operand_def(AsyncTokenType)
    grid_size_x = operand_def(IndexType)
    grid_size_y = operand_def(IndexType)
    grid_size_z = operand_def(IndexType)
    block_size_x = operand_def(IndexType)
    block_size_y = operand_def(IndexType)
    block_size_z = operand_def(IndexType)
    cluster_size_x = opt_operand_def(IndexType)
    cluster_size_y = opt_operand_def(IndexType)
    cluster_size_z = opt_operand_def(IndexType)
    dynamic_shared_memory_size = opt_operand_def(i32)
    async_token = opt_result_def(AsyncTokenType)

    module = opt_prop_def(FlatSymbolRefAttrConstr)
    function = opt_prop_def(FlatSymbolRefAttrConstr)
    workgroup_attribution_count = opt_attr_def(
        IntegerAttr[I64], attr_name=WORKGROUP_ATTRIBUTIONS_ATTR_NAME
    )

    body = region_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    traits = traits_def(RecursiveMemoryEffect(), _LaunchCanonicalization())

    def __init__(
        self,
        grid_size: Sequence[SSAValue | Operation],
        block_size: Sequence[SSAValue | Operation],
        body: Region | None = None,
        *,
        cluster_size: Sequence[SSAValue | Operation] | None = None,
        dynamic_shared_memory_size: SSAValue | Operation | None = None,
        async_dependencies: Sequence[SSAValue | Operation] = (),
        is_async: bool = False,
        workgroup: Sequence[Attribute] = (),
        private: Sequence[Attribute] = (),
        module: str | SymbolRefAttr | None = None,
        function: str | SymbolRefAttr | None = None,
    ):
        """Build a ``gpu.launch``.

        Without a ``body``, the body is one empty block with the index arguments
        (12, or 18 with ``cluster_size``) followed by the attributions of types
        ``workgroup`` and ``private``; the caller fills it and ends it with a
        ``gpu.terminator``. A given ``body`` must have those arguments already.
        """
        grid = _dim3(grid_size, "grid_size")
        block = _dim3(block_size, "block_size")
        cluster = None if cluster_size is None else _dim3(cluster_size, "cluster_size")
        if body is None:
            n_index = _NUM_CONFIG_REGION_ARGS + (
                _NUM_CLUSTER_REGION_ARGS if cluster is not None else 0
            )
            body = Region(
                Block(arg_types=(*([IndexType()] * n_index), *workgroup, *private))
            )

        def symbol(name: str | SymbolRefAttr | None) -> SymbolRefAttr | None:
            return SymbolRefAttr(name) if isinstance(name, str) else name

        super().__init__(
            operands=[
                [SSAValue.get(d) for d in async_dependencies],
                *grid,
                *block,
                *(([c] for c in cluster) if cluster is not None else ([], [], [])),
                []
                if dynamic_shared_memory_size is None
                else [dynamic_shared_memory_size],
            ],
            result_types=[[AsyncTokenType()] if is_async else []],
            properties={"module": symbol(module), "function": symbol(function)},
            attributes={WORKGROUP_ATTRIBUTIONS_ATTR_NAME: _count_attr(len(workgroup))},
            regions=[body],
        )

    # Accessors ----------------------------------------------------------------------

    @property
    def num_config_region_arguments(self) -> int:
        """12, or 18 with clusters: the index arguments before the attributions."""
        return _NUM_CONFIG_REGION_ARGS + (
            _NUM_CLUSTER_REGION_ARGS if self.has_cluster_size else 0
        )

    def _args(self, start: int) -> KernelDim3:
        args = self.body.blocks[0].args
        return KernelDim3(args[start], args[start + 1], args[start + 2])

    @property
    def block_ids(self) -> KernelDim3:
        return self._args(0)

    @property
    def thread_ids(self) -> KernelDim3:
        return self._args(3)

    @property
    def grid_size(self) -> KernelDim3:
        """The body's view of the grid size (block arguments 6-8)."""
        return self._args(6)

    @property
    def block_size(self) -> KernelDim3:
        """The body's view of the block size (block arguments 9-11)."""
        return self._args(9)

    @property
    def cluster_ids(self) -> KernelDim3 | None:
        return self._args(12) if self.has_cluster_size else None

    @property
    def cluster_size(self) -> KernelDim3 | None:
        """The body's view of the cluster size (block arguments 15-17)."""
        return self._args(15) if self.has_cluster_size else None

    @property
    def _attributions_start(self) -> int:
        return self.num_config_region_arguments

    # Syntax -------------------------------------------------------------------------

    _ELIDED: ClassVar[frozenset[str]] = frozenset(
        {
            AttrSizedOperandSegments.attribute_name,
            WORKGROUP_ATTRIBUTIONS_ATTR_NAME,
            "module",
            "function",
        }
    )

    @classmethod
    def parse(cls, parser: Parser) -> LaunchOp:
        index = IndexType()
        is_async, deps = parse_async_dependencies(parser)
        dependencies = parser.resolve_operands(
            deps, [AsyncTokenType()] * len(deps), parser.pos
        )

        cluster = None
        if parser.parse_optional_keyword("clusters") is not None:
            cluster = _parse_size_assignment(parser)
        parser.parse_keyword("blocks")
        block_ids, grid_args, grid = _parse_size_assignment(parser)
        parser.parse_keyword("threads")
        thread_ids, block_args, block = _parse_size_assignment(parser)

        shared_memory = None
        if parser.parse_optional_keyword("dynamic_shared_memory_size") is not None:
            shared_memory = parser.parse_operand(i32)

        properties: dict[str, Attribute] = {}
        for keyword in ("module", "function"):
            if parser.parse_optional_keyword(keyword) is not None:
                parser.parse_punctuation("(")
                properties[keyword] = SymbolRefAttr(parser.parse_symbol_name())
                parser.parse_punctuation(")")

        config = [*block_ids, *thread_ids, *grid_args, *block_args]
        if cluster is not None:
            config += [*cluster[0], *cluster[1]]
        region_args = [a.resolve(index) for a in config]
        workgroup, _ = _parse_attributions(parser, "workgroup", allow_attrs=False)
        private, _ = _parse_attributions(parser, "private", allow_attrs=False)
        body = parser.parse_region([*region_args, *workgroup, *private])
        attributes = parser.parse_optional_attr_dict()

        def resolve(operands: Sequence[UnresolvedOperand]) -> list[SSAValue]:
            return [parser.resolve_operand(o, index) for o in operands]

        return cls.build(
            operands=[
                dependencies,
                *resolve(grid),
                *resolve(block),
                *(([v] for v in resolve(cluster[2])) if cluster else ([], [], [])),
                [] if shared_memory is None else [shared_memory],
            ],
            result_types=[[AsyncTokenType()] if is_async else []],
            properties=properties,
            attributes={
                **attributes,
                WORKGROUP_ATTRIBUTIONS_ATTR_NAME: _count_attr(len(workgroup)),
            },
            regions=[body],
        )

    def print(self, printer: Printer) -> None:
        # Upstream prints the dependencies only with `async`, which loses those of a
        # synchronous launch; they are printed in both cases here.
        if self.async_token is not None or self.async_dependencies:
            printer.print_string(" ")
            print_async_dependencies(
                printer, self.async_token is not None, self.async_dependencies
            )
        if self.body.blocks:
            if (cluster := self.cluster_size_operands) is not None:
                _print_size_assignment(
                    printer, "clusters", self._args(12), self._args(15), cluster
                )
            _print_size_assignment(
                printer,
                "blocks",
                self.block_ids,
                self.grid_size,
                self.grid_size_operands,
            )
            _print_size_assignment(
                printer,
                "threads",
                self.thread_ids,
                self.block_size,
                self.block_size_operands,
            )
        if self.dynamic_shared_memory_size is not None:
            printer.print_string(" dynamic_shared_memory_size ")
            printer.print_ssa_value(self.dynamic_shared_memory_size)
        for keyword in ("module", "function"):
            if (symbol := self.properties.get(keyword)) is not None:
                printer.print_string(f" {keyword}(")
                printer.print_attribute(symbol)
                printer.print_string(")")
        if self.body.blocks:
            _print_attributions(printer, "workgroup", self.workgroup_attributions)
            _print_attributions(printer, "private", self.private_attributions)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)
        printer.print_op_attributes(
            {
                k: v
                for k, v in (self.properties | self.attributes).items()
                if k not in self._ELIDED
            }
        )

    # Verification -------------------------------------------------------------------

    def verify_on_entrance_(self) -> None:
        # Upstream's AtLeastNOperands<6> and verify(); the region checks below are
        # its verifyRegions, run after the body.
        verify_operand_count(self, 6)
        verify_ods(self)
        self._verify_cluster_sizes("gpu.launch")

    def verify_(self) -> None:
        self._verify_cluster_sizes("gpu.launch")
        if not self.body.blocks:
            raise VerifyException("'gpu.launch' op expected a non-empty body region")
        args = self.body.blocks[0].args
        if (
            len(args)
            < self.num_config_region_arguments + self.num_workgroup_attributions
        ):
            raise VerifyException(
                "'gpu.launch' op unexpected number of region arguments"
            )
        for i, arg in enumerate(args[: self.num_config_region_arguments]):
            if not isinstance(arg.type, IndexType):
                raise VerifyException(
                    f"'gpu.launch' op expected region argument #{i} to be of type "
                    f"'index', got '{arg.type}'"
                )
        self._verify_attributions("gpu.launch")
        # Blocks without successors leave the kernel: they end in gpu.terminator.
        for block in self.body.blocks:
            last = block.last_op
            if last is None or last.successors:
                continue
            if not isinstance(last, TerminatorOp):
                raise VerifyException(
                    "expected 'gpu.terminator' or a terminator with successors"
                )


@irdl_op_definition
class TerminatorOp(IRDLOperation):
    """``gpu.terminator``: the end of a ``gpu.launch`` body."""

    name = "gpu.terminator"

    traits = traits_def(_HasParent(LaunchOp), IsTerminator(), Pure())

    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()


def _is_constant_one(value: SSAValue) -> bool:
    owner = value.owner
    return (
        isinstance(owner, arith.ConstantOp)
        and isinstance(owner.value, IntegerAttr)
        and owner.value.value.data == 1
    )


def _constant_insertion_point(op: Operation) -> InsertPoint:
    """Where upstream's greedy rewriter puts a new constant: the start of the entry
    block of the closest isolated-from-above ancestor (the function)."""
    region = op.parent_region()
    while region is not None:
        parent = region.parent_op()
        if parent is None or parent.has_trait(IsolatedFromAbove):
            return InsertPoint.at_start(region.blocks[0])
        region = parent.parent_region()
    return InsertPoint.before(op)


class FoldLaunchArguments(RewritePattern):
    """A block or thread id along a dimension of size (constant) 1 is 0 (upstream
    ``FoldLaunchArguments``, the canonicalization of ``gpu.launch``).

    The zero goes where MLIR's rewriter would hoist it, so that ``-p canonicalize``
    prints what ``mlir-opt --canonicalize`` prints."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: LaunchOp, rewriter: PatternRewriter, /):
        if not op.body.blocks:
            return
        zero: arith.ConstantOp | None = None
        ids = (*op.block_ids, *op.thread_ids)
        sizes = (*op.grid_size_operands, *op.block_size_operands)
        for id_, size in zip(ids, sizes):
            if not id_.uses or not _is_constant_one(size):
                continue
            if zero is None:
                zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
                zero.result.name_hint = "c0"
                rewriter.insert(zero, _constant_insertion_point(op))
            rewriter.replace_all_uses_with(id_, zero.result)


# --------------------------------------------------------------------------------------
# gpu.launch_func
# --------------------------------------------------------------------------------------


@irdl_custom_directive
class LaunchDimType(CustomDirective):
    """``(`:` type)?`` after the launch sizes: the type of every size operand,
    printed unless it is ``index`` (upstream ``custom<LaunchDimType>``)."""

    grid_x: TypeDirective
    grid_y: TypeDirective
    grid_z: TypeDirective
    block_x: TypeDirective
    block_y: TypeDirective
    block_z: TypeDirective
    cluster_x: TypeDirective
    cluster_y: TypeDirective
    cluster_z: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        if parser.parse_optional_punctuation(":") is not None:
            dim_type = parser.parse_type()
        else:
            dim_type = IndexType()
        for sizes in (
            *(self.grid_x, self.grid_y, self.grid_z),
            *(self.block_x, self.block_y, self.block_z),
        ):
            sizes.set(state, (dim_type,))
        for sizes in (self.cluster_x, self.cluster_y, self.cluster_z):
            # The optional `clusters in (...)` group was parsed before this.
            operand = sizes.inner
            assert isinstance(operand, OptionalOperandVariable)
            present = bool(state.operands[operand.index])
            sizes.set(state, (dim_type,) if present else ())

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        (dim_type,) = self.grid_x.get(op)
        if isinstance(dim_type, IndexType):
            return
        state.print_whitespace(printer)
        printer.print_string(": ")
        printer.print_attribute(dim_type)


_NUMBER_LITERALS = {
    MLIRTokenKind.INTEGER_LIT: "integer literal",
    MLIRTokenKind.FLOAT_LIT: "floating point value",
}


@irdl_custom_directive
class KernelSymbol(CustomDirective):
    """``$kernel``: a symbol reference; anything else fails as upstream's generated
    parser words it, at the attribute (xDSL would read any attribute and reject
    the op once built)."""

    kernel: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        start = parser.pos
        literal = parser._current_token.kind  # pyright: ignore[reportPrivateUsage]
        attr = parser.parse_attribute()
        if literal in _NUMBER_LITERALS:
            # Upstream reads a number as an attribute of no type, which fails first.
            parser.raise_error(
                f"{_NUMBER_LITERALS[literal]} not valid for specified type",
                start,
                parser.pos,
            )
        if not isinstance(attr, SymbolRefAttr):
            parser.raise_error(
                "custom op 'gpu.launch_func' invalid kind of attribute specified",
                start,
                parser.pos,
            )
        self.kernel.set(state, attr)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_attribute(self.kernel.get(op) or SymbolRefAttr(""))


@irdl_custom_directive
class LaunchFuncOperands(CustomDirective):
    """``(`args` `(` %value `:` type, ... `)`)?``: the kernel arguments."""

    operands: VariadicOperandVariable
    types: TypeDirective

    def is_present(self, op: IRDLOperation) -> bool:
        return bool(self.operands.get(op))

    def set_empty(self, state: ParsingState) -> None:
        self.operands.set(state, ())
        self.types.set(state, ())

    def parse(self, parser: Parser, state: ParsingState) -> None:
        if parser.parse_optional_keyword("args") is None:
            self.set_empty(state)
            return

        parser.parse_punctuation("(")
        pairs: list[tuple[UnresolvedOperand, Attribute]] = []
        if parser.parse_optional_punctuation(")") is None:
            while True:
                operand = parser.parse_unresolved_operand()
                parser.parse_punctuation(":")
                pairs.append((operand, parser.parse_type()))
                if parser.parse_optional_punctuation(",") is not None:
                    continue
                if parser.parse_optional_punctuation(")") is None:
                    # Upstream's words (an argument takes no attributes here).
                    parser.raise_error(
                        "custom op 'gpu.launch_func' expected ')' in argument list"
                    )
                break
        self.operands.set(state, [o for o, _ in pairs])
        self.types.set(state, [t for _, t in pairs])

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        operands = self.operands.get(op)
        if not operands:
            return
        state.print_whitespace(printer)
        printer.print_string("args(")
        for i, operand in enumerate(operands):
            if i:
                printer.print_string(", ")
            printer.print_ssa_value(operand)
            printer.print_string(" : ")
            printer.print_attribute(operand.type)
        printer.print_string(")")


def _is_launch_index(t: Attribute) -> bool:
    """Upstream ``LaunchIndx``: ``index``, ``i32`` or ``i64``."""
    return isinstance(t, IndexType) or t in (i32, i64)


def _is_function(op: Operation) -> bool:
    """Upstream ``FunctionOpInterface``: an op with a function type."""
    return op.has_trait(CallableOpInterface) or "function_type" in (
        op.properties | op.attributes
    )


@irdl_op_definition
class LaunchFuncOp(_LaunchSizes, VerifiedOnEntrance, AsyncOpInterface, IRDLOperation):
    """``gpu.launch_func``: launch a kernel of a ``gpu.module`` (or ``gpu.binary``)
    on a grid of thread blocks.

    ```
    %t = gpu.launch_func async [%t0] @kernels::@kernel_1
        clusters in (%c, %c, %c)     // optional
        blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64  // type unless index
        dynamic_shared_memory_size %s   // optional, i32
        args(%arg0 : f32, %arg1 : memref<?xf32>)
    ```

    The launch waits for ``async_dependencies``; with ``async`` it returns a token
    instead of blocking. The enclosing ``builtin.module`` must have the
    ``gpu.container_module`` attribute. ``<%stream : !llvm.ptr>`` (``async_object``)
    is the stream that ``gpu-to-llvm`` adds.
    """

    name = "gpu.launch_func"

    async_dependencies = var_operand_def(AsyncTokenType)
    grid_size_x = operand_def()
    grid_size_y = operand_def()
    grid_size_z = operand_def()
    block_size_x = operand_def()
    block_size_y = operand_def()
    block_size_z = operand_def()
    cluster_size_x = opt_operand_def()
    cluster_size_y = opt_operand_def()
    cluster_size_z = opt_operand_def()
    dynamic_shared_memory_size = opt_operand_def(i32)
    kernel_operands = var_operand_def()
    async_object = opt_operand_def()
    async_token = opt_result_def(AsyncTokenType)

    kernel = prop_def(SymbolRefAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    custom_directives: ClassVar[tuple[type[CustomDirective], ...]] = (
        AsyncDependencies,
        KernelSymbol,
        LaunchDimType,
        LaunchFuncOperands,
    )

    assembly_format = (
        "custom<AsyncDependencies>(type($async_token), $async_dependencies) "
        "(` ` `<` $async_object^ `:` type($async_object) `>`)? "
        "custom<KernelSymbol>($kernel) "
        "(`clusters` `in` ` ` `(` $cluster_size_x^ `,` $cluster_size_y `,` "
        "$cluster_size_z `)`)? "
        "`blocks` `in` ` ` `(` $grid_size_x `,` $grid_size_y `,` $grid_size_z `)` "
        "`threads` `in` ` ` `(` $block_size_x `,` $block_size_y `,` $block_size_z `)` "
        "custom<LaunchDimType>(type($grid_size_x), type($grid_size_y), "
        "type($grid_size_z), type($block_size_x), type($block_size_y), "
        "type($block_size_z), type($cluster_size_x), type($cluster_size_y), "
        "type($cluster_size_z)) "
        "(`dynamic_shared_memory_size` $dynamic_shared_memory_size^)? "
        "custom<LaunchFuncOperands>($kernel_operands, type($kernel_operands)) "
        "attr-dict"
    )

    def __init__(
        self,
        kernel: SymbolRefAttr | FuncOp,
        grid: Sequence[SSAValue | Operation],
        block: Sequence[SSAValue | Operation],
        args: Sequence[SSAValue | Operation] = (),
        *,
        async_dependencies: Sequence[SSAValue | Operation] = (),
        is_async: bool = False,
        cluster: Sequence[SSAValue | Operation] | None = None,
        dynamic_shared_memory_size: SSAValue | Operation | None = None,
        stream: SSAValue | Operation | None = None,
    ):
        """Build a ``gpu.launch_func`` of ``kernel`` (``@module::@func``, or the
        ``gpu.func`` itself, which must sit in its ``gpu.module``)."""
        if isinstance(kernel, FuncOp):
            module = kernel.parent_op()
            if not isinstance(module, ModuleOp):
                raise ValueError(
                    f"kernel @{kernel.sym_name.data} is not inside a gpu.module"
                )
            kernel = SymbolRefAttr(module.sym_name, [kernel.sym_name])
        cluster_operands = (
            ([], [], [])
            if cluster is None
            else ([c] for c in _dim3(cluster, "cluster"))
        )
        super().__init__(
            operands=[
                [SSAValue.get(d) for d in async_dependencies],
                *_dim3(grid, "grid"),
                *_dim3(block, "block"),
                *cluster_operands,
                []
                if dynamic_shared_memory_size is None
                else [dynamic_shared_memory_size],
                [SSAValue.get(a) for a in args],
                [] if stream is None else [stream],
            ],
            result_types=[[AsyncTokenType()] if is_async else []],
            properties={"kernel": kernel},
        )

    # Accessors ----------------------------------------------------------------------

    @property
    def kernel_module_name(self) -> str:
        """The ``gpu.module`` (or ``gpu.binary``) that holds the kernel."""
        return self.kernel.root_reference.data

    @property
    def kernel_name(self) -> str:
        """The kernel's own name inside its module."""
        nested = self.kernel.nested_references.data
        return nested[-1].data if nested else self.kernel.root_reference.data

    # Verification -------------------------------------------------------------------

    def verify_on_entrance_(self) -> None:
        # Upstream's AtLeastNOperands<6>, before the operand segments are looked at.
        # The kernel's checks stay where they were: not run twice per launch.
        verify_operand_count(self, 6)
        verify_ods(self)

    def verify_(self) -> None:
        clusters = (self.cluster_size_x, self.cluster_size_y, self.cluster_size_z)
        all_sizes = (
            *self.grid_size_operands,
            *self.block_size_operands,
            *(c for c in clusters if c is not None),
        )
        for i, size in enumerate(all_sizes, start=len(self.async_dependencies)):
            if not _is_launch_index(size.type):
                raise VerifyException(
                    f"'gpu.launch_func' op operand #{i} must be index or 32-bit "
                    "signless integer or 64-bit signless integer, but got "
                    f"'{size.type}'"
                )
        sizes = (*self.grid_size_operands, *self.block_size_operands)
        if any(size.type != sizes[0].type for size in sizes):
            raise VerifyException(
                "'gpu.launch_func' op failed to verify that all of {gridSizeX, "
                "gridSizeY, gridSizeZ, blockSizeX, blockSizeY, blockSizeZ} have same "
                "type"
            )
        module = self.parent_op()
        while module is not None and not isinstance(module, BuiltinModuleOp):
            module = module.parent_op()
        if module is None:
            raise VerifyException("'gpu.launch_func' op expected to belong to a module")
        if not isinstance(module.attributes.get(CONTAINER_MODULE_ATTR_NAME), UnitAttr):
            raise VerifyException(
                "'gpu.launch_func' op expected the closest surrounding module to have "
                f"the '{CONTAINER_MODULE_ATTR_NAME}' attribute"
            )
        self._verify_cluster_sizes("gpu.launch_func")
        self._verify_kernel(module)

    def _verify_kernel(self, module: BuiltinModuleOp) -> None:
        """What upstream checks when it verifies ``gpu.container_module``: the kernel
        exists, is a kernel, and takes what the launch passes. Upstream checks only
        launches directly inside a function of the module; this checks every one."""
        container_name = self.kernel_module_name
        container = SymbolTable.lookup_symbol(module, container_name)
        if container is None:
            raise VerifyException(
                f"'gpu.launch_func' op kernel container '{container_name}' is undefined"
            )
        if isinstance(container, BinaryOp):
            return
        if not isinstance(container, ModuleOp):
            raise VerifyException(
                f"'gpu.launch_func' op kernel module '{container_name}' is undefined"
            )
        kernel = SymbolTable.lookup_symbol(module, self.kernel)
        if kernel is None:
            raise VerifyException(
                f"'gpu.launch_func' op kernel function '{self.kernel}' is undefined"
            )
        if not _is_function(kernel):
            raise VerifyException(
                f"'gpu.launch_func' op referenced kernel '{self.kernel}' is not a "
                "function"
            )
        if not isinstance(kernel.attributes.get(KERNEL_ATTR_NAME), UnitAttr):
            raise VerifyException(
                "'gpu.launch_func' op kernel function is missing the "
                f"'{KERNEL_ATTR_NAME}' attribute"
            )
        if not isinstance(kernel, FuncOp):
            # Separate compilation: the kernel may be lowered already (llvm.func),
            # with types that no longer match one to one.
            return
        expected = kernel.function_type.inputs.data
        if len(self.kernel_operands) != len(expected):
            raise VerifyException(
                f"'gpu.launch_func' op got {len(self.kernel_operands)} kernel operands "
                f"but expected {len(expected)}"
            )
        for i, (operand, t) in enumerate(zip(self.kernel_operands, expected)):
            if operand.type != t:
                raise VerifyException(
                    f"'gpu.launch_func' op type of function argument {i} does not match"
                )


OPERATIONS = (
    ModuleOp,
    FuncOp,
    ReturnOp,
    BinaryOp,
    LaunchOp,
    TerminatorOp,
    LaunchFuncOp,
)
ATTRIBUTES = ()
