"""MLIR's printed forms where xDSL prints its own: llvm types and flags, typed
``llvm.mlir.constant``, ``scf.parallel``'s custom form."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Callable
from typing import Any

from xdsl.ir import Attribute

from xdsl_gpu.compat._base import XdslChangedError, _mark, is_patched


def upstream_llvm_type_syntax() -> None:
    """Print types nested in llvm types as MLIR does (``!llvm.struct<(ptr, i64)>``,
    where xDSL prints ``!llvm.struct<(!llvm.ptr, i64)>``) and flag lists with MLIR's
    spacing (``#llvm.fastmath<nnan, ninf>``, ``overflow<nsw, nuw>``; xDSL omits the
    space). Both forms parse either way; this makes the printed text mlir-opt's."""
    from xdsl.dialects import llvm

    targets = {
        llvm.LLVMStructType: ("print_parameters", _print_struct_parameters),
        llvm.LLVMArrayType: ("print_parameters", _print_array_parameters),
        llvm.LLVMFunctionType: ("print_parameters", _print_function_parameters),
        llvm.FastMathAttr: ("print_parameter", _print_fastmath_parameter),
        llvm.OverflowAttr: ("print_parameter", _print_overflow_parameter),
    }
    for cls, (method, printer) in targets.items():
        current = getattr(cls, method, None)
        if not callable(current):
            raise XdslChangedError(
                f"xdsl.dialects.llvm.{cls.__name__}.{method} is gone"
            )
        if is_patched(current, "xdsl_gpu_upstream_syntax"):
            continue
        wrapper = _bound_printer(printer)
        _mark(wrapper, "xdsl_gpu_upstream_syntax", current)
        setattr(cls, method, wrapper)


_TYPE_TEXT_LIMIT = 4096
"""How many llvm types' printed parameters :func:`_bound_printer` remembers."""


def _bound_printer(printer: Callable[[Any, Any], None]) -> Callable[[Any, Any], None]:
    """``printer`` with its text remembered per type: a lowered program repeats a
    few struct types thousands of times (every memref descriptor), and printing
    one element by element was a third of printing the program. The text of an
    llvm type's parameters depends on the type alone (it holds types only)."""
    from xdsl.printer import Printer

    texts: dict[Any, str] = {}

    def print_parameters(self: Any, out: Any) -> None:
        text = texts.get(self)
        if text is None:
            stream = io.StringIO()
            printer(self, Printer(stream=stream))
            text = stream.getvalue()
            if len(texts) >= _TYPE_TEXT_LIMIT:
                texts.clear()
            texts[self] = text
        out.print_string(text)

    return print_parameters


def _print_nested_type(printer: Any, t: Attribute) -> None:
    """A type inside an llvm type as upstream prints it: ``ptr``, ``array<...>``,
    ``struct<...>``, ``void`` without the ``!llvm.`` prefix; any other type in full."""
    from xdsl.dialects import llvm

    short = {
        llvm.LLVMPointerType: "ptr",
        llvm.LLVMArrayType: "array",
        llvm.LLVMStructType: "struct",
    }
    for cls, keyword in short.items():
        if isinstance(t, cls):
            printer.print_string(keyword)
            t.print_parameters(printer)  # pyright: ignore[reportAttributeAccessIssue]
            return
    if isinstance(t, llvm.LLVMVoidType):
        printer.print_string("void")
    else:
        printer.print_attribute(t)


def _print_struct_parameters(self: Any, printer: Any) -> None:
    with printer.in_angle_brackets():
        if self.struct_name.data:
            printer.print_string_literal(self.struct_name.data)
            printer.print_string(", ")
        with printer.in_parens():
            printer.print_list(
                self.types.data, lambda t: _print_nested_type(printer, t)
            )


def _print_array_parameters(self: Any, printer: Any) -> None:
    with printer.in_angle_brackets():
        printer.print_int(self.size.data)
        printer.print_string(" x ")
        _print_nested_type(printer, self.type)


def _print_function_parameters(self: Any, printer: Any) -> None:
    with printer.in_angle_brackets():
        _print_nested_type(printer, self.output)
        printer.print_string(" (")
        printer.print_list(self.inputs.data, lambda t: _print_nested_type(printer, t))
        if self.is_variadic:
            printer.print_string(", ..." if self.inputs.data else "...")
        printer.print_string(")")


def _print_fastmath_parameter(self: Any, printer: Any) -> None:
    from xdsl.dialects.utils import FastMathFlag

    with printer.in_angle_brackets():
        if not self.data:
            printer.print_string("none")
        elif len(self.data) == len(FastMathFlag):
            printer.print_string("fast")
        else:
            flags = [f.value for f in FastMathFlag if f in self.data]
            printer.print_list(flags, printer.print_string)


def _print_overflow_parameter(self: Any, printer: Any) -> None:
    from xdsl.dialects.llvm import OverflowFlag

    with printer.in_angle_brackets():
        flags = [f.value for f in OverflowFlag if f in self.data]
        printer.print_list(flags, printer.print_string)


def llvm_constant_keeps_its_type() -> None:
    """Print ``llvm.mlir.constant(1 : index) : i64`` as written. xDSL leaves out the
    value's type whenever the *result* is ``i64`` (``(1) : i64``), which turns an
    ``index`` value into an ``i64`` one when the text is read back; like MLIR, only
    an ``i64`` value is printed without its type."""
    from xdsl.dialects.builtin import IntegerAttr, i64
    from xdsl.dialects.llvm import ConstantOp

    current = ConstantOp.__dict__.get("print")
    if not callable(current):
        raise XdslChangedError("xdsl.dialects.llvm.ConstantOp.print is gone")
    if is_patched(current, "xdsl_gpu_constant_type"):
        return

    def print_constant(self: Any, printer: Any) -> None:
        value = self.value
        if isinstance(value, IntegerAttr) and value.type != i64:
            with printer.in_parens():
                printer.print_attribute(value)
            printer.print_string(" : ")
            printer.print_attribute(self.result.type)
            return
        current(self, printer)

    _mark(print_constant, "xdsl_gpu_constant_type", current)
    ConstantOp.print = print_constant  # type: ignore[method-assign]


def upstream_scf_parallel_printing() -> None:
    """Print ``scf.parallel`` in MLIR 22's custom form (xDSL 0.74 prints only the
    generic one): ``(%ivs) = (%lbs) to (%ubs) step (%steps)``, ``init (...)`` and
    ``-> types`` when it has results, the body with its ``scf.reduce``, then the
    attributes but ``operandSegmentSizes``. Only in runs that use xdsl-gpu: it
    changes what stock xDSL prints (the parser reads both forms in every run,
    :func:`xdsl_gpu.compat.upstream_scf_parallel_syntax`)."""
    from xdsl.dialects.scf import ParallelOp
    from xdsl.ir import Operation

    current = ParallelOp.__dict__.get("print")
    if current is not None:
        if is_patched(current, "xdsl_gpu_upstream_syntax"):
            return
        raise XdslChangedError(
            "xdsl.dialects.scf.ParallelOp has a printer of its own: check whether it "
            "prints MLIR's form, and drop upstream_scf_parallel_printing if so"
        )
    inherited = Operation.__dict__.get("print")
    if not callable(inherited):
        raise XdslChangedError("xdsl.ir.Operation.print is gone")

    def print_parallel(self: Any, printer: Any) -> None:
        block = self.body.blocks.first
        printer.print_string(" (")
        printer.print_list(block.args if block else (), printer.print_ssa_value)
        for keyword, values in (
            (") = (", self.lowerBound),
            (") to (", self.upperBound),
            (") step (", self.step),
        ):
            printer.print_string(keyword)
            printer.print_list(values, printer.print_ssa_value)
        printer.print_string(")")
        if self.initVals:
            printer.print_string(" init (")
            printer.print_list(self.initVals, printer.print_ssa_value)
            printer.print_string(")")
        if self.res:
            printer.print_string(" -> ")
            if len(self.res) == 1:
                printer.print_attribute(self.res[0].type)
            else:
                printer.print_string("(")
                printer.print_list(self.res.types, printer.print_attribute)
                printer.print_string(")")
        printer.print_string(" ")
        printer.print_region(
            self.body, print_entry_block_args=False, print_empty_block=False
        )
        printer.print_op_attributes(
            self.attributes, reserved_attr_names=("operandSegmentSizes",)
        )

    _mark(print_parallel, "xdsl_gpu_upstream_syntax", inherited)
    ParallelOp.print = print_parallel  # type: ignore[method-assign]
    _upstream_scf_reduce_printing()


def _upstream_scf_reduce_printing() -> None:
    """Print the regions of an ``scf.reduce`` with several reductions separated by
    commas, as MLIR does (xDSL's format puts them one after the other, which MLIR
    does not read)."""
    from xdsl.dialects.scf import ReduceOp

    current = ReduceOp.__dict__.get("print")
    if not callable(current):
        raise XdslChangedError("xdsl.dialects.scf.ReduceOp.print is gone")
    if is_patched(current, "xdsl_gpu_upstream_syntax"):
        return

    def print_reduce(self: Any, printer: Any) -> None:
        if self.args:
            printer.print_string("(")
            printer.print_list(self.args, printer.print_ssa_value)
            printer.print_string(" : ")
            printer.print_list(self.args.types, printer.print_attribute)
            printer.print_string(")")
        for i, region in enumerate(self.reductions):
            printer.print_string(", " if i else " ")
            printer.print_region(region)
        printer.print_op_attributes(self.attributes)

    _mark(print_reduce, "xdsl_gpu_upstream_syntax", current)
    ReduceOp.print = print_reduce  # type: ignore[method-assign]


def upstream_memory_space_printing() -> None:
    """Print an ``i64`` integer memory space without its type, as MLIR does
    (``memref<4xf32, 3>``; xDSL prints ``memref<4xf32, 3 : i64>``). Other widths keep
    theirs (``3 : i32``), as in MLIR. Both forms parse either way (an integer without
    a type is an ``i64``). Only in runs that use xdsl-gpu: it changes what stock xDSL
    prints."""
    from xdsl.dialects.builtin import MemRefType, NoneAttr, UnrankedMemRefType

    current = MemRefType.__dict__.get("print_builtin")
    unranked = UnrankedMemRefType.__dict__.get("print_builtin")
    if not callable(current) or not callable(unranked):
        raise XdslChangedError("xdsl.dialects.builtin MemRefType.print_builtin is gone")
    if is_patched(current, "xdsl_gpu_upstream_syntax"):
        return

    def print_memref(self: Any, printer: Any) -> None:
        printer.print_string("memref<")
        if self.shape.data:
            printer.print_dimension_list(self.get_shape())
            printer.print_string("x")
        printer.print_attribute(self.element_type)
        if not isinstance(self.layout, NoneAttr):
            printer.print_string(", ")
            printer.print_attribute(self.layout)
        _print_memory_space(printer, self.memory_space)
        printer.print_string(">")

    def print_unranked(self: Any, printer: Any) -> None:
        printer.print_string("memref<*x")
        printer.print_attribute(self.element_type)
        _print_memory_space(printer, self.memory_space)
        printer.print_string(">")

    _mark(print_memref, "xdsl_gpu_upstream_syntax", current)
    _mark(print_unranked, "xdsl_gpu_upstream_syntax", unranked)
    MemRefType.print_builtin = print_memref  # type: ignore[method-assign]
    UnrankedMemRefType.print_builtin = print_unranked  # type: ignore[method-assign]


def _print_memory_space(printer: Any, space: Attribute) -> None:
    """``, space`` (nothing for none), an ``i64`` integer without its type."""
    from xdsl.dialects.builtin import IntegerAttr, NoneAttr, i64

    if isinstance(space, NoneAttr):
        return
    printer.print_string(", ")
    if isinstance(space, IntegerAttr) and space.type == i64:
        printer.print_int(space.value.data)
    else:
        printer.print_attribute(space)


def upstream_special_float_printing() -> None:
    """Print a NaN or infinite float as MLIR does: its bit pattern in upper-case hex
    (``0x7E00 : f16``; xDSL writes ``0x7e00``). Both parse the same. Only in runs
    that use xdsl-gpu: it changes what stock xDSL prints."""
    import math

    from xdsl.printer import Printer

    current = Printer.__dict__.get("print_float")
    if not callable(current):
        raise XdslChangedError("xdsl.printer.Printer.print_float is gone")
    if is_patched(current, "xdsl_gpu_upstream_syntax"):
        return
    stock = current

    def print_float(self: Any, value: float, type: Any) -> None:
        if math.isnan(value) or math.isinf(value):
            self.print_string("0x" + type.pack((value,))[::-1].hex().upper())
            return
        stock(self, value, type)

    _mark(print_float, "xdsl_gpu_upstream_syntax", current)
    Printer.print_float = print_float  # type: ignore[method-assign]


def upstream_block_predecessor_comments() -> None:
    """End a printed block label with MLIR's note of its predecessors
    (``^bb1:  // pred: ^bb0``, ``^bb1(%0: i64):  // 2 preds: ^bb0, ^bb2``,
    ``// no predecessors`` for an unreachable block); xDSL prints the label alone and
    upstream's tests check the note. Only in runs that use xdsl-gpu: it changes what
    stock xDSL prints (comments: the text parses as before)."""
    from xdsl.ir import Block
    from xdsl.printer import Printer

    current = Printer.__dict__.get("print_block")
    helpers = ("_print_new_line", "_populate_block_name", "print_block_name")
    if not callable(current) or not all(hasattr(Printer, h) for h in helpers):
        raise XdslChangedError("xdsl.printer.Printer.print_block changed")
    if is_patched(current, "xdsl_gpu_upstream_syntax"):
        return
    stock = current

    def print_block(
        self: Any,
        block: Block,
        print_block_args: bool = True,
        print_block_terminator: bool = True,
    ) -> None:
        if print_block_args:
            self._print_new_line()
            if block not in getattr(self, "_blocks", {}):
                self._populate_block_name(block)
            self.print_block_name(block)
            if block.args:
                with self.in_parens():
                    self.print_list(block.args, self.print_block_argument)
            self.print_string(":")
            _print_predecessor_note(self, block)
        stock(self, block, False, print_block_terminator)

    _mark(print_block, "xdsl_gpu_upstream_syntax", current)
    Printer.print_block = print_block  # type: ignore[method-assign]


def _print_predecessor_note(printer: Any, block: Any) -> None:
    """MLIR's ``  // ...`` after a block label: one entry per branch to the block,
    in the order of the blocks in their region."""
    region = block.parent
    if region is None:
        return
    preds = list(block.predecessors())
    if not preds:
        if block is not region.first_block:
            printer.print_string("  // no predecessors")
        return
    if len(preds) == 1:
        printer.print_string("  // pred: ")
        printer.print_block_name(preds[0])
        return
    order = {b: i for i, b in enumerate(region.blocks)}
    preds.sort(key=lambda b: order.get(b, len(order)))
    printer.print_string(f"  // {len(preds)} preds: ")
    printer.print_list(preds, printer.print_block_name)


def upstream_affine_map_aliases(format_map: Callable[[Any], str]) -> None:
    """Print the affine maps of a module's op attributes as MLIR does: once, as
    ``#map = affine_map<()[s0] -> (s0 floordiv 128)>`` lines before the module
    (``#map``, ``#map1``, ... in order of first use), referred to by name
    (``affine.apply #map()[%tid]``), the expressions in MLIR's syntax
    (``format_map``). xDSL writes each map where it is used, in its own syntax
    (``affine_map<()[s0] -> ((s0 floordiv 128))> ()[%tid]``), and upstream's tests
    check the aliases. Only in runs that use xdsl-gpu: it changes what stock xDSL
    prints (both forms parse either way)."""
    from xdsl.dialects.affine import ApplyOp
    from xdsl.dialects.builtin import AffineMapAttr
    from xdsl.printer import Printer

    print_op = Printer.__dict__.get("print_op")
    print_map = AffineMapAttr.__dict__.get("print_builtin")
    print_apply = ApplyOp.__dict__.get("print")
    if not callable(print_op) or not callable(print_map) or not callable(print_apply):
        raise XdslChangedError(
            "Printer.print_op, AffineMapAttr.print_builtin or affine.ApplyOp.print "
            "is gone"
        )
    if is_patched(print_op, "xdsl_gpu_map_aliases"):
        return

    def print_module_op(self: Any, op: Any, *args: Any, **kwargs: Any) -> None:
        if (
            op.parent is not None
            or op.name != "builtin.module"
            or getattr(self, "_xdsl_gpu_map_aliases", None) is not None
            or getattr(self, "_xdsl_gpu_map_record", None) is not None
            or not (candidates := _attribute_affine_maps(op))
        ):
            print_op(self, op, *args, **kwargs)
            return
        # MLIR names only the maps it prints (an op's printer may elide one, as
        # vector.transfer_read elides an identity permutation_map): print once
        # into nothing to see which, as MLIR's alias initializer does.
        dry = dataclasses.replace(self, stream=io.StringIO())
        record: dict[Any, None] = {}
        dry._xdsl_gpu_map_record = record  # pyright: ignore
        print_op(dry, op, *args, **kwargs)
        printed = [m for m in record if m in candidates]
        aliases = {m: f"map{i or ''}" for i, m in enumerate(printed)}
        for attr, name in aliases.items():
            self.print_string(f"#{name} = affine_map<{format_map(attr.data)}>\n")
        self._xdsl_gpu_map_aliases = aliases  # pyright: ignore
        try:
            print_op(self, op, *args, **kwargs)
        finally:
            self._xdsl_gpu_map_aliases = None  # pyright: ignore

    def print_builtin(self: Any, printer: Any) -> None:
        record = getattr(printer, "_xdsl_gpu_map_record", None)
        if record is not None:
            record[self] = None
        aliases = getattr(printer, "_xdsl_gpu_map_aliases", None)
        if aliases and self in aliases:
            printer.print_string(f"#{aliases[self]}")
        else:
            print_map(self, printer)

    def print_affine_apply(self: Any, printer: Any) -> None:
        amap = self.map.data
        operands = list(self.mapOperands)
        printer.print_string(" ")
        printer.print_attribute(self.map)
        printer.print_string("(")
        printer.print_list(operands[: amap.num_dims], printer.print_operand)
        printer.print_string(")")
        if amap.num_symbols:
            printer.print_string("[")
            printer.print_list(operands[amap.num_dims :], printer.print_operand)
            printer.print_string("]")
        printer.print_op_attributes(
            {
                **self.attributes,
                **{k: v for k, v in self.properties.items() if k != "map"},
            }
        )

    _mark(print_module_op, "xdsl_gpu_map_aliases", print_op)
    _mark(print_builtin, "xdsl_gpu_map_aliases", print_map)
    _mark(print_affine_apply, "xdsl_gpu_map_aliases", print_apply)
    Printer.print_op = print_module_op  # type: ignore[method-assign]
    AffineMapAttr.print_builtin = print_builtin  # type: ignore[method-assign]
    ApplyOp.print = print_affine_apply  # type: ignore[method-assign]


def _attribute_affine_maps(root: Any) -> set[Any]:
    """The affine maps in the attributes and properties of ``root``'s ops (nested
    in arrays and dictionaries too)."""
    from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, DictionaryAttr

    found: set[Any] = set()

    def visit(attr: Attribute) -> None:
        if isinstance(attr, AffineMapAttr):
            found.add(attr)
        elif isinstance(attr, ArrayAttr):
            for item in attr.data:
                visit(item)
        elif isinstance(attr, DictionaryAttr):
            for item in attr.data.values():
                visit(item)

    for op in root.walk():
        for attr in (*op.properties.values(), *op.attributes.values()):
            visit(attr)
    return found
