"""What every ``convert-gpu-to-nvvm`` pattern family shares: the lowering state (type
converter, calling convention, the ``gpu.module`` being lowered, symbol helpers) and
the "failed to legalize" diagnostic."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.builder import Builder
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    TensorType,
    i8,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint
from xdsl.traits import SymbolTable

from xdsl_gpu.diagnostics import at_op
from xdsl_gpu.gpu_dialect import llvm
from xdsl_gpu.gpu_dialect.gpu import kernel_ops
from xdsl_gpu.passes.convert_func_to_llvm import FuncConventions
from xdsl_gpu.passes.llvm_type_converter import ConversionError, LLVMTypeConverter

PASS_NAME = "convert-gpu-to-nvvm"

WARP_SIZE = 32
"""Lanes in an NVIDIA warp (the subgroup of the ``gpu`` dialect)."""


class LegalizationError(ConversionError):
    """An op inside a ``gpu.module`` that the pass cannot lower."""


def _where(op: Operation) -> str:
    """`` in @f`` for the nearest enclosing symbol (the op's own name for a symbol)."""
    parent: Operation | None = op
    while parent is not None:
        name = parent.properties.get("sym_name") or parent.attributes.get("sym_name")
        if name is not None and hasattr(name, "data"):
            return f" in @{name.data}"  # pyright: ignore[reportAttributeAccessIssue]
        parent = parent.parent_op()
    return ""


def legalize_error(op: Operation, why: str = "") -> LegalizationError:
    """``convert-gpu-to-nvvm: failed to legalize operation 'x' in @f: why``:
    upstream's words, with the place and the fix."""
    reason = f": {why}" if why else ""
    error = LegalizationError(
        f"{PASS_NAME}: failed to legalize operation '{op.name}'{_where(op)}{reason}"
    )
    return at_op(error, op)  # type: ignore[return-value]


def enclosing_function(op: Operation) -> Operation | None:
    """The ``gpu.func``, ``func.func`` or ``llvm.func`` around ``op``."""
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, kernel_ops.FuncOp | func.FuncOp | llvm.FuncOp):
            return parent
        parent = parent.parent_op()
    return None


@dataclass
class NVVMLowering:
    """The state of one ``gpu.module``'s lowering, shared by its patterns."""

    converter: LLVMTypeConverter
    module: kernel_ops.ModuleOp
    use_bare_ptr_memref_call_conv: bool = False
    has_redux: bool = False
    conv: FuncConventions = field(init=False)
    _strings: dict[tuple[str, str], str] = field(
        default_factory=dict[tuple[str, str], str]
    )
    _functions: dict[str, llvm.FuncOp] = field(default_factory=dict[str, llvm.FuncOp])
    """The ``llvm.func`` found or declared under each name: asked again per call of
    a libdevice function, and a symbol table lookup is most of a small call's cost."""

    def __post_init__(self) -> None:
        self.conv = FuncConventions(self.converter, self.use_bare_ptr_memref_call_conv)

    @property
    def index_type(self) -> IntegerType:
        return self.converter.index_type

    # -- symbols -------------------------------------------------------------------

    @property
    def body(self) -> Block:
        return self.module.body.block

    def lookup(self, name: str) -> Operation | None:
        return SymbolTable.lookup_symbol(self.module, name)

    def fresh_name(self, name: str) -> str:
        """``name`` if no symbol has it, else the first free ``name_<n>``."""
        return name if self.lookup(name) is None else self.unique_name(name)

    def unique_name(self, base: str) -> str:
        """``base_0``, ``base_1``...: the first one not taken in the module."""
        counter = 0
        while self.lookup(f"{base}_{counter}") is not None:
            counter += 1
        return f"{base}_{counter}"

    def insert_at_start(self, op: Operation) -> None:
        block = self.body
        if block.first_op is None:
            block.add_op(op)
        else:
            block.insert_op_before(op, block.first_op)

    def declare_function(
        self,
        name: str,
        fn_type: llvm.LLVMFunctionType,
        user: Operation | None = None,
        passthrough: Sequence[str] = (),
    ) -> llvm.FuncOp:
        """The external ``llvm.func @name``, declared once: right before the
        function that first uses it (as upstream's ``OpToFuncCallLowering``), or at
        the start of the module."""
        existing = self.declared_function(name)
        if existing is not None:
            return existing
        other: dict[str, Attribute | None] = {}
        if passthrough:
            other["passthrough"] = ArrayAttr([StringAttr(p) for p in passthrough])
        decl = llvm.FuncOp(
            name, fn_type, linkage=llvm.LinkageAttr("external"), other_props=other
        )
        anchor = self._top_level_ancestor(user) if user is not None else None
        if anchor is not None:
            self.body.insert_op_before(decl, anchor)
        else:
            self.insert_at_start(decl)
        if self.lookup(name) is decl:
            self._functions[name] = decl
        return decl

    def declared_function(self, name: str) -> llvm.FuncOp | None:
        """The ``llvm.func @name`` of the module, if there is one."""
        known = self._functions.get(name)
        # Other patterns may erase or rename it: remembered only while it is still
        # in the module under that name (what the symbol table would answer).
        if (
            known is not None
            and known.parent is self.body
            and known.sym_name.data == name
        ):
            return known
        existing = self.lookup(name)
        if not isinstance(existing, llvm.FuncOp):
            self._functions.pop(name, None)
            return None
        self._functions[name] = existing
        return existing

    def _top_level_ancestor(self, op: Operation) -> Operation | None:
        current: Operation | None = op
        while current is not None and current.parent_op() is not self.module:
            current = current.parent_op()
        return current

    def string_global(self, base: str, text: str) -> llvm.GlobalOp:
        """An internal constant ``!llvm.array<N x i8>`` global holding ``text`` and a
        NUL, named ``base_<n>`` and put at the start of the module; one per distinct
        text."""
        key = (base, text)
        if key in self._strings:
            existing = self.lookup(self._strings[key])
            if isinstance(existing, llvm.GlobalOp):
                return existing
        data = [*text.encode(), 0]
        array = llvm.LLVMArrayType(len(data), i8)
        value: Attribute
        if text.isascii():
            value = StringAttr(text + "\0")  # printed "...\00", as upstream
        else:
            value = DenseIntOrFPElementsAttr.from_list(
                TensorType(i8, [len(data)]), data
            )
        name = self.unique_name(base)
        glob = llvm.GlobalOp(array, name, "internal", constant=True, value=value)
        self.insert_at_start(glob)
        self._strings[key] = name
        return glob


# -- small builders ------------------------------------------------------------------


def i32_constant(builder: Builder, value: int) -> SSAValue:
    op = builder.insert(
        llvm.ConstantOp(IntegerAttr(value, 32, truncate_bits=True), IntegerType(32))
    )
    return op.results[0]


def int_constant(builder: Builder, value: int, t: IntegerType) -> SSAValue:
    op = builder.insert(llvm.ConstantOp(IntegerAttr(value, t, truncate_bits=True), t))
    return op.results[0]


def string_pointer(builder: Builder, glob: llvm.GlobalOp) -> SSAValue:
    """``addressof`` plus ``getelementptr [0, 0]``: a pointer to the first byte."""
    address = builder.insert(llvm.AddressOfOp(glob.sym_name, llvm.LLVMPointerType()))
    gep = builder.insert(llvm.GEPOp(address, [0, 0], glob.global_type))
    return gep.results[0]


def entry_block(function: Operation) -> Block:
    block = function.regions[0].blocks.first
    assert block is not None
    return block


def at_function_entry(op: Operation) -> InsertPoint:
    """The start of the entry block of the function around ``op`` (where allocas
    go), or right before ``op`` if there is none."""
    function = enclosing_function(op)
    if function is None or not function.regions[0].blocks:
        return InsertPoint.before(op)
    return InsertPoint.at_start(entry_block(function))


def dims(values: Sequence[int]) -> DenseArrayBase:
    from xdsl.dialects.builtin import i32

    return DenseArrayBase.from_list(i32, values)
