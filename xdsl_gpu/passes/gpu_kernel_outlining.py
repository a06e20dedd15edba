"""``gpu-kernel-outlining``: every ``gpu.launch`` becomes a ``gpu.launch_func`` of a
kernel ``gpu.func`` in a new ``gpu.module`` (upstream ``GpuKernelOutliningPass`` in
``KernelOutlining.cpp``, same names, option and output as ``mlir-opt-22``).

For a launch in ``@fn`` (the closest symbol around it), the kernel is
``gpu.func @fn_kernel kernel`` in ``gpu.module @fn_kernel``, placed right after
``@fn``; ``module(@m)`` and ``function(@f)`` on the launch choose the names instead,
and ``module(@m)`` puts the kernel into an existing ``gpu.module @m``. A name already
taken gets ``_0``, ``_1``, ... with one counter for the whole module, as upstream's
symbol table does (so a second function's clash may get ``_2``).

The kernel takes the values the body uses from outside, in upstream's order (first
use, children first). Like mlir-opt 22, it does not copy constants in: run
``gpu-launch-sink-index-computations`` first for that. Block and thread ids and sizes
become ``gpu.block_id`` ... ``gpu.block_dim`` ops (and ``gpu.cluster_id`` /
``gpu.cluster_dim`` with clusters); constant launch sizes are recorded as
``known_block_size`` / ``known_grid_size``. Functions and globals the kernel refers
to are copied into its module.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
)
from xdsl.dialects.dlti import DataLayoutEntryAttr, DataLayoutSpecAttr
from xdsl.ir import Attribute, Block, Operation, ParametrizedAttribute, SSAValue
from xdsl.parser import Parser
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.traits import ConstantLike, SymbolOpInterface
from xdsl.traits import SymbolTable as SymbolTableTrait
from xdsl.utils.exceptions import ParseError, PassFailedException, VerifyException

from xdsl_gpu.compat.block_splicing import move_ops_to_end
from xdsl_gpu.diagnostics import at_op
from xdsl_gpu.gpu_dialect.gpu.compute_ops import (
    BlockDimOp,
    BlockIdOp,
    ClusterDimOp,
    ClusterIdOp,
    GPUIndexOp,
    GridDimOp,
    ThreadIdOp,
)
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import (
    CONTAINER_MODULE_ATTR_NAME,
    FuncOp,
    KernelDim3,
    LaunchFuncOp,
    LaunchOp,
    ReturnOp,
    TerminatorOp,
)
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import ModuleOp as GPUModuleOp
from xdsl_gpu.passes.gpu_launch_sink_index_computations import (
    is_inside,
    used_values_defined_above,
)
from xdsl_gpu.passes.ir_walk import postorder
from xdsl_gpu.passes.llvm_type_converter import describe

DATA_LAYOUT_ATTR_NAME = "dlti.dl_spec"
"""Where the ``data-layout-str`` spec goes on each new ``gpu.module``."""

_UINT32_MAX = 2**32 - 1


# --------------------------------------------------------------------------------------
# Symbol tables with upstream's renaming
# --------------------------------------------------------------------------------------


def symbol_name(op: Operation) -> str | None:
    trait = op.get_trait(SymbolOpInterface)
    if trait is None:
        return None
    name = trait.get_sym_attr_name(op)
    return None if name is None else name.data


def _set_symbol_name(op: Operation, name: str) -> None:
    if "sym_name" in op.properties:
        op.properties["sym_name"] = StringAttr(name)
    else:
        op.attributes["sym_name"] = StringAttr(name)


class _SymbolTable:
    """The symbols directly in one block, and upstream ``SymbolTable::insert``: a
    clashing name gets ``_<n>`` with a counter kept for the table's lifetime."""

    def __init__(self, block: Block):
        self.block = block
        self.symbols: dict[str, Operation] = {}
        self.counter = 0
        for op in block.ops:
            if (name := symbol_name(op)) is not None:
                self.symbols.setdefault(name, op)

    def lookup(self, name: str) -> Operation | None:
        return self.symbols.get(name)

    def insert(self, op: Operation, before: Operation | None = None) -> str:
        """Put ``op`` (when it is not in the block yet) before ``before`` or at the
        end, renaming it when its name is taken; return its name."""
        if op.parent_block() is None:
            if before is not None:
                self.block.insert_op_before(op, before)
            else:
                self.block.add_op(op)
        name = symbol_name(op)
        assert name is not None
        if self.symbols.get(name, op) is op:
            self.symbols[name] = op
            return name
        while True:
            candidate = f"{name}_{self.counter}"
            self.counter += 1
            if candidate not in self.symbols:
                break
        _set_symbol_name(op, candidate)
        self.symbols[candidate] = op
        return candidate


def _flat_symbol_uses(attr: Attribute, out: list[str]) -> None:
    """Every flat ``@symbol`` reference inside ``attr``, in order."""
    if isinstance(attr, SymbolRefAttr):
        if not attr.nested_references.data:
            out.append(attr.root_reference.data)
        return
    if isinstance(attr, ArrayAttr):
        for element in attr.data:
            _flat_symbol_uses(element, out)
    elif isinstance(attr, DictionaryAttr):
        for element in attr.data.values():
            _flat_symbol_uses(element, out)
    elif isinstance(attr, ParametrizedAttribute):
        for parameter in attr.parameters:
            _flat_symbol_uses(parameter, out)


def symbol_uses(op: Operation) -> list[str]:
    """The flat symbol references of ``op`` and the ops nested in it, without
    entering nested symbol tables (upstream ``SymbolTable::getSymbolUses``)."""
    out: list[str] = []
    tables: dict[type[Operation], bool] = {}  # a trait: the same for a class

    def visit(o: Operation) -> None:
        if o.properties or o.attributes:
            attrs = o.properties | o.attributes
            for key in sorted(attrs):
                _flat_symbol_uses(attrs[key], out)
        if o is not op:
            kind = type(o)
            table = tables.get(kind)
            if table is None:
                table = tables[kind] = o.has_trait(
                    SymbolTableTrait, value_if_unregistered=False
                )
            if table:
                return
        for region in o.regions:
            for block in region.blocks:
                for nested in block.ops:
                    visit(nested)

    visit(op)
    return out


# --------------------------------------------------------------------------------------
# Outlining one launch
# --------------------------------------------------------------------------------------


def constant_int(value: SSAValue) -> int | None:
    """The integer of a constant-like op's result (upstream ``m_ConstantInt``)."""
    if (attr := ConstantLike.get_constant_value(value)) is None:
        owner = value.owner
        if not isinstance(owner, Operation) or not owner.has_trait(
            ConstantLike, value_if_unregistered=False
        ):
            return None
        attr = owner.properties.get("value") or owner.attributes.get("value")
    if isinstance(attr, IntegerAttr):
        return attr.value.data
    return None


def known_sizes(dims: KernelDim3) -> list[int] | None:
    """The three sizes as upstream records them (``maybeConstantDimsAttr``): all
    constant and at most ``UINT32_MAX`` unsigned, stored as 32-bit integers."""
    sizes: list[int] = []
    for value in dims:
        constant = constant_int(value)
        if constant is None:
            return None
        unsigned = constant % 2**64
        if unsigned > _UINT32_MAX:
            return None
        sizes.append(unsigned - 2**32 if unsigned >= 2**31 else unsigned)
    return sizes


def _index_ops(has_cluster: bool) -> list[GPUIndexOp]:
    """The ops that replace the launch body's arguments, in their order."""
    kinds: list[type[GPUIndexOp]] = [BlockIdOp, ThreadIdOp, GridDimOp, BlockDimOp]
    if has_cluster:
        kinds += [ClusterIdOp, ClusterDimOp]
    return [kind(dim) for kind in kinds for dim in ("x", "y", "z")]


def outline_kernel_func(launch: LaunchOp, name: str) -> tuple[FuncOp, list[SSAValue]]:
    """Build ``gpu.func @name kernel`` from the body of ``launch`` (which is moved,
    not copied: ``launch`` is left with an empty body) and return it with the values
    the launch must pass, in order."""
    operands = used_values_defined_above(launch.body)
    known_block = known_sizes(launch.block_size_operands)
    known_grid = known_sizes(launch.grid_size_operands)
    func = FuncOp(
        name,
        ([v.type for v in operands], []),
        workgroup=[a.type for a in launch.workgroup_attributions],
        private=[a.type for a in launch.private_attributions],
        kernel=True,
        known_block_size=known_block,
        known_grid_size=known_grid,
    )
    func.location = launch.location
    entry = func.body.blocks[0]
    index_ops = _index_ops(launch.has_cluster_size)
    for index_op in index_ops:
        index_op.location = launch.location
    entry.add_ops(index_ops)

    body = launch.body
    launch_entry = body.blocks[0]
    replacements = [
        *zip(launch_entry.args, (o.result for o in index_ops)),
        *zip(launch.workgroup_attributions, func.workgroup_attributions),
        *zip(launch.private_attributions, func.private_attributions),
    ]
    for old, new in replacements:
        old.replace_all_uses_with(new)
    for value, arg in zip(operands, func.arguments):
        value.replace_uses_with_if(arg, lambda use: is_inside(use.operation, body))
        arg.name_hint = None  # a kernel argument, not the host value (`%arg0`)

    for block in body.blocks:
        if isinstance(terminator := block.last_op, TerminatorOp):
            ret = ReturnOp()
            ret.location = terminator.location
            Rewriter.replace_op(terminator, ret)

    # The launch's entry block continues the function's entry block; the others
    # follow it.
    move_ops_to_end(launch_entry, entry)  # one splice, not one move per op
    for block in list(body.blocks)[1:]:
        body.detach_block(block)
        func.body.add_block(block)
    return func, operands


def _launch_func(
    launch: LaunchOp, kernel: SymbolRefAttr, operands: list[SSAValue]
) -> LaunchFuncOp:
    launch_func = LaunchFuncOp(
        kernel,
        launch.grid_size_operands,
        launch.block_size_operands,
        operands,
        async_dependencies=launch.async_dependencies,
        is_async=launch.async_token is not None,
        cluster=launch.cluster_size_operands,
        dynamic_shared_memory_size=launch.dynamic_shared_memory_size,
    )
    launch_func.location = launch.location
    return launch_func


# --------------------------------------------------------------------------------------
# The pass
# --------------------------------------------------------------------------------------


def parse_data_layout(ctx: Context, text: str) -> DataLayoutSpecAttr:
    """``#dlti.dl_spec<key = value, ...>``, or the older
    ``#dlti.dl_spec<#dlti.dl_entry<key, value>, ...>`` that mlir-opt 22 also reads."""
    parser = Parser(ctx, text, "data-layout-str")
    try:
        if parser.parse_optional_characters("#dlti.dl_spec") is None:
            parser.raise_error("expected '#dlti.dl_spec<...>'")

        def parse_entry() -> DataLayoutEntryAttr:
            start = parser.pos
            key = parser.parse_attribute()
            if isinstance(key, DataLayoutEntryAttr):
                return key
            if parser.parse_optional_punctuation("=") is None:
                parser.raise_error("expected '= value' after the key", start)
            return DataLayoutEntryAttr(key, parser.parse_attribute())  # pyright: ignore[reportArgumentType]

        entries = parser.parse_comma_separated_list(parser.Delimiter.ANGLE, parse_entry)
        if parser.pos < len(text.rstrip()):
            parser.raise_error("unexpected text after the data layout spec")
        spec = DataLayoutSpecAttr(ArrayAttr(entries))
        spec.verify()
        return spec
    except ParseError as e:
        column = e.span.start + 1
        why = f"{e.msg} at character {column}"
    except VerifyException as e:
        why = str(e)
    raise PassFailedException(
        f"gpu-kernel-outlining: data-layout-str={text!r} is not a DLTI data layout "
        f"spec ({why}); write it like '#dlti.dl_spec<index = 32 : i64>'"
    )


@dataclass(frozen=True)
class GpuKernelOutliningPass(ModulePass):
    """Outline each ``gpu.launch`` into a kernel ``gpu.func`` in a ``gpu.module``
    and launch it with ``gpu.launch_func``.

    Option (upstream's): ``data-layout-str``, a DLTI data layout spec (e.g.
    ``#dlti.dl_spec<index = 32 : i64>``) set as ``dlti.dl_spec`` on each
    ``gpu.module`` that receives a kernel.
    """

    name = "gpu-kernel-outlining"

    data_layout_str: str = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        spec = (
            parse_data_layout(ctx, self.data_layout_str)
            if self.data_layout_str
            else None
        )
        table = _SymbolTable(op.body.block)
        modified = False
        for func in list(op.body.block.ops):
            if func.get_trait(SymbolOpInterface) is None:
                continue
            insert_before = func.next_op
            launches = [o for o in postorder(func) if isinstance(o, LaunchOp)]
            for launch in launches:
                self._outline(launch, table, insert_before, spec)
                modified = True
        if modified:
            op.attributes[CONTAINER_MODULE_ATTR_NAME] = UnitAttr()

    def _outline(
        self,
        launch: LaunchOp,
        table: _SymbolTable,
        insert_before: Operation | None,
        spec: DataLayoutSpecAttr | None,
    ) -> None:
        if launch.function is not None:
            kernel_name = launch.function.root_reference.data
        else:
            kernel_name = f"{_enclosing_symbol_name(launch)}_kernel"
        func, operands = outline_kernel_func(launch, kernel_name)

        module: GPUModuleOp | None = None
        if launch.module is not None:
            existing = table.lookup(launch.module.root_reference.data)
            if isinstance(existing, GPUModuleOp):
                module = existing
            module_name = launch.module.root_reference.data
        else:
            module_name = kernel_name
        if module is None:
            module = GPUModuleOp(module_name)
            module.location = func.location
        if spec is not None:
            module.attributes[DATA_LAYOUT_ATTR_NAME] = spec

        module_table = _SymbolTable(module.body.block)
        module_table.insert(func)
        self._copy_referenced_symbols(func, module_table, table)
        table.insert(module, insert_before)

        kernel = SymbolRefAttr(module.sym_name, [func.sym_name])
        launch_func = _launch_func(launch, kernel, operands)
        new_results = (
            [launch_func.async_token] if launch.async_token is not None else []
        )
        Rewriter.replace_op(launch, launch_func, new_results)

    @staticmethod
    def _copy_referenced_symbols(
        func: FuncOp, module_table: _SymbolTable, parent_table: _SymbolTable
    ) -> None:
        """Copy into the kernel's module every symbol of the parent module that the
        kernel refers to, recursively (upstream ``createKernelModule``)."""
        worklist: list[Operation] = [func]
        while worklist:
            for name in symbol_uses(worklist.pop()):
                if module_table.lookup(name) is not None:
                    continue
                definition = parent_table.lookup(name)
                if definition is None:
                    raise at_op(
                        PassFailedException(
                            f"gpu-kernel-outlining: {describe(func)} refers to @{name}, "
                            "which is not defined in the module around the launch; "
                            "define it there so that it can be copied into the "
                            "kernel's gpu.module"
                        ),
                        func,
                    )
                clone = definition.clone()
                worklist.append(clone)
                module_table.insert(clone)


def _enclosing_symbol_name(op: Operation) -> str:
    parent = op.parent_op()
    while parent is not None:
        if parent.get_trait(SymbolOpInterface) is not None:
            return symbol_name(parent) or ""
        parent = parent.parent_op()
    return ""
