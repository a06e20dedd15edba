"""Start-up and linear cost (issue 16): lazily parsed assembly formats, an indexed
symbol lookup, no second verification after a pass that verified its result, each
distinct builtin type text of an input parsed once, plain ops built from their
parts."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from typing import Any, ClassVar

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Operation
from xdsl.utils.exceptions import ParseError

from xdsl_gpu.compat._base import XdslChangedError, _mark, is_patched


def lazy_assembly_formats() -> None:
    """Parse an op's declarative assembly format when an op of that class is first
    parsed or printed, instead of when the class is defined: xdsl-opt defines about
    600 op classes per run and parsing their formats is ~90 ms of its start-up. A
    malformed format still raises ``PyRDLOpDefinitionError``, at first use (the
    test suite parses every format of xdsl-gpu's dialects)."""
    from xdsl.irdl.declarative_assembly_format import FormatProgram
    from xdsl.utils.exceptions import PyRDLOpDefinitionError

    from_str_ = FormatProgram.__dict__.get("from_str")
    if not isinstance(from_str_, staticmethod):
        raise XdslChangedError("FormatProgram.from_str is no longer a staticmethod")
    from_str = from_str_.__func__
    if is_patched(from_str, "xdsl_gpu_lazy_formats"):
        return

    class LazyFormatProgram:
        """A ``FormatProgram`` parsed on first use."""

        __slots__ = ("_op_def", "_program", "_text")

        def __init__(self, text: str, op_def: Any) -> None:
            self._text = text
            self._op_def = op_def
            self._program: Any = None

        def program(self) -> Any:
            if self._program is None:
                try:
                    self._program = from_str(self._text, self._op_def)
                except ParseError as e:
                    raise PyRDLOpDefinitionError(
                        "Error during the parsing of the assembly format: ", e.args
                    ) from e
            return self._program

        def parse(self, parser: Any, op_type: Any) -> Any:
            return self.program().parse(parser, op_type)

        def print(self, printer: Any, op: Any) -> Any:
            return self.program().print(printer, op)

        def __getattr__(self, name: str) -> Any:
            return getattr(self.program(), name)

    def lazy_from_str(input: str, op_def: Any) -> Any:
        return LazyFormatProgram(input, op_def)

    _mark(lazy_from_str, "xdsl_gpu_lazy_formats", from_str)
    FormatProgram.from_str = staticmethod(lazy_from_str)  # type: ignore[method-assign]


def parse_lazy_formats(operations: Iterable[type[Operation]]) -> int:
    """Parse now the lazy assembly formats (:func:`lazy_assembly_formats`) of
    ``operations``; how many there were. For a process that pays its start-up once
    and serves many runs (the compile server). A malformed format raises
    ``PyRDLOpDefinitionError``."""
    parsed = 0
    for op in operations:
        parse = getattr(op, "parse", None)
        function = getattr(parse, "__func__", parse)
        for cell in getattr(function, "__closure__", None) or ():
            try:
                contents = cell.cell_contents
            except ValueError:  # an empty cell
                continue
            if callable(getattr(contents, "program", None)):
                contents.program()
                parsed += 1
    return parsed


def indexed_symbol_lookup() -> None:
    """``SymbolTable.lookup_symbol`` through an index of each symbol table's block
    (name -> op) instead of a scan of the block per lookup: verifying a module with n
    calls and n functions was O(n^2) (64 copies of seed 002, 192 gpu.modules: seconds
    in llvm.call's and gpu.launch_func's verifiers). An indexed answer is checked
    (the op is still in that block under that name) and the index rebuilt when it
    is stale or has no answer, so the result is the scan's, except that with two
    ops of one name (IR that does not verify) it may be either of them."""
    from weakref import WeakKeyDictionary

    from xdsl.dialects.builtin import SymbolRefAttr
    from xdsl.traits import SymbolOpInterface, SymbolTable

    lookup_ = SymbolTable.__dict__.get("lookup_symbol")
    if not isinstance(lookup_, staticmethod):
        raise XdslChangedError("SymbolTable.lookup_symbol is no longer a staticmethod")
    lookup = lookup_.__func__
    if is_patched(lookup, "xdsl_gpu_symbol_index"):
        return
    indexes: WeakKeyDictionary[Any, dict[str, Operation]] = WeakKeyDictionary()

    def symbol_of(op: Operation) -> StringAttr | None:
        interface = op.get_trait(SymbolOpInterface)
        return None if interface is None else interface.get_sym_attr_name(op)

    def find(block: Any, name: StringAttr) -> Operation | None:
        index = indexes.get(block)
        if index is not None:
            op = index.get(name.data)
            if op is not None and op.parent is block and symbol_of(op) == name:
                return op
        index = {}
        for o in block.ops:
            if (symbol := symbol_of(o)) is not None:
                index.setdefault(symbol.data, o)
        indexes[block] = index
        return index.get(name.data)

    def lookup_symbol(
        op: Operation, name: str | StringAttr | SymbolRefAttr
    ) -> Operation | None:
        anchor: Operation | None = op
        while anchor is not None and not anchor.has_trait(SymbolTable):
            anchor = anchor.parent_op()
        if anchor is None:
            return lookup(op, name)  # xDSL's error
        if isinstance(name, str | StringAttr):
            name = SymbolRefAttr(name)
        found = find(anchor.regions[0].block, name.root_reference)
        if found is None or not name.nested_references:
            return found
        nested_root, *nested = name.nested_references.data
        return lookup_symbol(found, SymbolRefAttr(nested_root, nested))

    _mark(lookup_symbol, "xdsl_gpu_symbol_index", lookup)
    SymbolTable.lookup_symbol = staticmethod(lookup_symbol)  # type: ignore[method-assign]


VERIFIES_ITS_RESULT = "verifies_its_result"
"""The class attribute by which a pass says that it verifies the module it leaves
(``gpu-lower-to-nvvm-pipeline`` does, to blame the step that broke it)."""


def no_second_verification() -> None:
    """A pass pipeline's callback (``xdsl-opt`` verifies the module in it, after
    every pass) skips its first verification of a module that the pass before it
    has just verified, as an xdsl-gpu pass with ``verifies_its_result = True`` does
    at its end: the module is the one that pass verified, and a second
    verification of a large program is ~5% of its compile (64 copies of seed 002:
    0.2 s). Only xdsl-gpu's own passes are trusted so: after any other pass the
    callback may change the module before it verifies it (it rebuilds the ops that
    xDSL's passes made with xDSL's classes, ``driver/dialect_choice.py``). Every
    other verification, the input's before the first pass among them, runs as
    before."""
    import dataclasses

    from xdsl.passes import PassPipeline

    apply_ = PassPipeline.__dict__.get("apply")
    verify_ = Operation.__dict__.get("verify")
    if not callable(apply_) or not callable(verify_):
        raise XdslChangedError("PassPipeline.apply or Operation.verify is gone")
    if is_patched(apply_, "xdsl_gpu_no_second_verification"):
        return
    just_verified: list[Operation] = []  # a module whose next verification to skip

    def verify(self: Operation, verify_nested_ops: bool = True) -> None:
        if just_verified and just_verified[-1] is self and verify_nested_ops:
            just_verified.pop()  # once: the callback may change it afterwards
            return
        verify_(self, verify_nested_ops)

    def verified_its_result(pass_: Any) -> bool:
        return getattr(pass_, VERIFIES_ITS_RESULT, False) is True and type(
            pass_
        ).__module__.startswith("xdsl_gpu.")

    def apply(self: Any, ctx: Any, op: Any) -> None:
        callback = self.callback
        if callback is None or not any(verified_its_result(p) for p in self.passes):
            apply_(self, ctx, op)
            return

        def skipping_a_second_verification(
            previous: Any, module: Any, following: Any
        ) -> None:
            if not verified_its_result(previous):
                callback(previous, module, following)
                return
            depth = len(just_verified)
            just_verified.append(module)
            try:
                callback(previous, module, following)
            finally:
                del just_verified[depth:]

        apply_(
            dataclasses.replace(self, callback=skipping_a_second_verification), ctx, op
        )

    _mark(verify, "xdsl_gpu_no_second_verification", verify_)
    _mark(apply, "xdsl_gpu_no_second_verification", apply_)
    Operation.verify = verify  # type: ignore[method-assign]
    PassPipeline.apply = apply  # type: ignore[method-assign]


InputOffer = Callable[[Any, Operation, Callable[[], Any]], AbstractContextManager[None]]
"""``offer(first_pass, module, parse_again)``: a context entered around the passes
of a run whose module was just parsed (``pipeline_verification.input_as_text``)."""


def first_pass_input_as_text(offer: InputOffer) -> None:
    """``xdsl-opt`` hands its first pass the module it has just parsed from a chunk
    of text it still holds: the passes run inside ``offer(first_pass, module,
    parse_again)``, where ``parse_again()`` parses that chunk again, the same way
    (a new module, the same IR). A pass that copied its input only in case it had
    to replay its steps on a failure (``gpu-lower-to-nvvm-pipeline``, to blame the
    step that broke the IR: ~9 µs an op, 4% of compiling a 4000-op kernel) parses
    it again in that rare case instead. Input that is not a chunk of bytes in
    memory (standard input as it comes): nothing is offered."""
    import io

    from xdsl.xdsl_opt_main import xDSLOptMain

    parse_chunk = xDSLOptMain.__dict__.get("parse_chunk")
    apply_passes = xDSLOptMain.__dict__.get("apply_passes")
    if not callable(parse_chunk) or not callable(apply_passes):
        raise XdslChangedError("xDSLOptMain.parse_chunk or apply_passes is gone")
    if is_patched(apply_passes, "xdsl_gpu_input_as_text"):
        return

    def parse_chunk_kept(
        self: Any, chunk: Any, file_extension: str, start_offset: int = 0
    ) -> Any:
        text = chunk.getvalue() if isinstance(chunk, io.BytesIO) else None
        module = parse_chunk(self, chunk, file_extension, start_offset)
        if text is not None and module is not None:

            def parse_again() -> Any:
                # Through every wrapper of parse_chunk (source locations at the
                # chunk's line), as the first time; not kept in turn.
                again = self.parse_chunk(io.BytesIO(text), file_extension, start_offset)
                self.__dict__.pop("_xdsl_gpu_parsed", None)
                return again

            self.__dict__["_xdsl_gpu_parsed"] = (module, parse_again)
        return module

    def apply_passes_offering(self: Any, prog: Any) -> Any:
        parsed = self.__dict__.pop("_xdsl_gpu_parsed", None)
        passes = getattr(getattr(self, "pipeline", None), "passes", ())
        if parsed is None or parsed[0] is not prog or not passes:
            return apply_passes(self, prog)
        with offer(passes[0], prog, parsed[1]):
            return apply_passes(self, prog)

    _mark(parse_chunk_kept, "xdsl_gpu_input_as_text", parse_chunk)
    _mark(apply_passes_offering, "xdsl_gpu_input_as_text", apply_passes)
    xDSLOptMain.parse_chunk = parse_chunk_kept  # type: ignore[method-assign]
    xDSLOptMain.apply_passes = apply_passes_offering  # type: ignore[method-assign]


_REMEMBERED_TYPE_NAMES = frozenset({"memref", "vector", "tensor"})
_LONGEST_REMEMBERED_TYPE = 512
"""Longer type texts are parsed each time (and are rare)."""


def _type_text_end(text: str, start: int) -> int:
    """Where the builtin type written at ``text[start:]`` (``memref<`` ...) ends: just
    after its closing ``>``. -1 when that cannot be told from the characters alone
    (a string, a dictionary, a line break: parsed as usual instead)."""
    depth = 0
    end = min(len(text), start + _LONGEST_REMEMBERED_TYPE)
    i = text.find("<", start, end)
    if i < 0 or text[start:i] not in _REMEMBERED_TYPE_NAMES:
        return -1
    while i < end:
        c = text[i]
        if c == "<":
            depth += 1
        elif c == ">":
            if text[i - 1] != "-":  # the arrow of an affine map
                depth -= 1
                if depth == 0:
                    return i + 1
        elif c in "\"{}\n'":
            return -1
        i += 1
    return -1


def remembered_builtin_types() -> None:
    """Parse each distinct ``memref<...>``, ``vector<...>`` or ``tensor<...>`` text of
    an input once: a later occurrence of the same text is answered with the type
    parsed the first time, and parsing resumes after it. A GPU program repeats a
    few such types thousands of times, and building each (xDSL's ``MemRefType``
    checks its layout anew every time) was a quarter of parsing it. What the type
    means depends on its text and on this input's aliases only, so one parse's
    types are remembered for that input alone; a text whose end cannot be told
    from its characters (a string or dictionary inside) is parsed every time."""
    import weakref

    from xdsl.parser.attribute_parser import AttrParser
    from xdsl.utils.mlir_lexer import MLIRTokenKind

    current = AttrParser.__dict__.get("_parse_optional_builtin_parametrized_type")
    if not callable(current):
        raise XdslChangedError(
            "AttrParser._parse_optional_builtin_parametrized_type is gone"
        )
    if is_patched(current, "xdsl_gpu_remembered_types"):
        return

    class Remembered:
        """The types parsed from one input (held weakly: a new input starts
        afresh)."""

        source: ClassVar[Any] = None
        types: ClassVar[dict[str, Any]] = {}

        @classmethod
        def of(cls, source: Any) -> dict[str, Any]:
            if cls.source is None or cls.source() is not source:
                cls.source, cls.types = weakref.ref(source), {}
            return cls.types

    def parse(self: Any) -> Any:
        token = self._current_token
        if token.kind is not MLIRTokenKind.BARE_IDENT:
            return None
        source = self.lexer.input
        text = source.content
        start = token.span.start
        end = _type_text_end(text, start) if isinstance(text, str) else -1
        if end < 0:
            return current(self)
        types = Remembered.of(source)
        key = text[start:end]
        known = types.get(key)
        if known is not None:
            self._resume_from(end)
            return known
        parsed = current(self)
        after = self._current_token.span.start
        if parsed is not None and after >= end and not text[end:after].strip():
            types[key] = parsed  # it ended where the characters said
        return parsed

    _mark(parse, "xdsl_gpu_remembered_types", current)
    AttrParser._parse_optional_builtin_parametrized_type = parse  # type: ignore[method-assign]


_LIST_OR_TUPLE = (list, tuple)


def plain_op_construction() -> None:
    """Make ops without the general builder's cost: xDSL's ``irdl_op_init`` first
    normalizes every argument for the general case (lists, ``None``, ops standing
    for their result, regions made of blocks), asking ``isinstance`` of abstract
    classes (``Sequence``, ``SSAValue``: slow checks) for each, and then counts
    segments; that cost as much again as making the op (17 against 10 µs for an
    ``arith.addf``), for every op that parsing or a pass builds. Now:

    * an op whose definition has nothing variadic or optional and no segment
      sizes, given one value, type, region and successor per definition, is made
      from them directly; a value or type given in a list of one (as xDSL's
      parser gives each definition's) too, and options that only tell the parser
      and printer what to do (``ParsePropInAttrDict``: xDSL's ``llvm`` ops) do not
      stand in the way;
    * any other op takes xDSL's builder, whose argument checks answer each
      ``isinstance`` from a table per class of argument (the answer depends on
      the class alone), so wrong arguments get xDSL's own errors."""
    from abc import get_cache_token
    from collections.abc import Sequence

    from xdsl.ir import Attribute, Block, Region, SSAValue
    from xdsl.irdl import operations
    from xdsl.irdl.operations import (
        AttrSizedSegments,
        OptionalDef,
        SameVariadicSize,
        VariadicDef,
        irdl_build_region_arg,
    )

    names = (
        "irdl_op_init",
        "irdl_build_arg_list",
        "irdl_build_operations_arg",
        "irdl_build_regions_arg",
    )
    xdsl: dict[str, Callable[..., Any]] = {}
    for name in names:
        function = operations.__dict__.get(name)
        if not callable(function):
            raise XdslChangedError(f"xdsl.irdl.operations.{name} is gone")
        xdsl[name] = function
    if is_patched(xdsl["irdl_op_init"], "xdsl_gpu_plain_ops"):
        return
    classes: dict[type, tuple[bool, bool, bool, bool, bool, bool]] = {}
    abc_token: list[object] = [get_cache_token()]

    def class_of(x: Any) -> tuple[bool, bool, bool, bool, bool, bool]:
        """(SSAValue, Operation, Region, Block, Sequence, Attribute): remembered per
        class, where the class tells (not for an object that claims another
        ``__class__``, such as a proxy)."""
        if get_cache_token() != abc_token[0]:
            # A class registered with an ABC since (``Sequence.register``)
            # changes the answers: start afresh.
            classes.clear()
            abc_token[0] = get_cache_token()
        kind = type(x)
        known = classes.get(kind)
        if known is None:
            known = (
                isinstance(x, SSAValue),
                isinstance(x, Operation),
                isinstance(x, Region),
                isinstance(x, Block),
                isinstance(x, Sequence),
                isinstance(x, Attribute),
            )
            if x.__class__ is kind:
                classes[kind] = known
        return known

    def build_arg_list(
        construct: Any, args: Any, arg_defs: Any, error_prefix: str = ""
    ) -> tuple[list[Any], list[int]]:
        if len(args) != len(arg_defs):
            return xdsl["irdl_build_arg_list"](construct, args, arg_defs, error_prefix)
        res: list[Any] = []
        sizes: list[int] = []
        for (_, arg_def), arg in zip(arg_defs, args):
            if arg is None:
                if not isinstance(arg_def, OptionalDef):
                    break  # xDSL's error
                sizes.append(0)
            elif class_of(arg)[4]:
                if not isinstance(arg_def, VariadicDef) and len(arg) != 1:
                    break
                if isinstance(arg_def, OptionalDef) and len(arg) > 1:
                    break
                res.extend(arg)
                sizes.append(len(arg))
            else:
                res.append(arg)
                sizes.append(1)
        else:
            return res, sizes
        # an error: xDSL's own
        return xdsl["irdl_build_arg_list"](construct, args, arg_defs, error_prefix)

    def build_operations_arg(operand: Any) -> Any:
        if operand is None:
            return []
        kind = class_of(operand)
        if kind[0]:
            return operand
        if kind[1]:
            return SSAValue.get(operand)
        return [o if class_of(o)[0] else SSAValue.get(o) for o in operand]

    def build_regions_arg(r: Any) -> Any:
        if r is None:
            return []
        if class_of(r)[2]:
            return r
        if not len(r):
            return []
        first = class_of(r[0])
        if first[1]:
            return Region(Block(r))
        if first[3]:
            return Region(r)
        return [one if class_of(one)[2] else irdl_build_region_arg(one) for one in r]

    counts: dict[type, tuple[int, int, int, int] | None] = {}

    def plain_counts(op_def: Any) -> tuple[int, int, int, int] | None:
        # (the options xDSL's builder acts on; it passes over the others)
        if any(
            isinstance(o, AttrSizedSegments | SameVariadicSize) for o in op_def.options
        ):
            return None
        groups = (op_def.operands, op_def.results, op_def.regions, op_def.successors)
        if any(isinstance(d, VariadicDef) for group in groups for _, d in group):
            return None  # (an OptionalDef is a VariadicDef)
        return tuple(len(group) for group in groups)  # type: ignore[return-value]

    def singles(values: Any, which: int) -> list[Any] | None:
        """``values`` with each list or tuple of one replaced by its element, if
        every element then is of kind ``which`` of :func:`class_of` (and not a
        sequence); None if not."""
        found: list[Any] = []
        for value in values:
            if type(value) in _LIST_OR_TUPLE:
                if len(value) != 1:
                    return None
                value = value[0]
            kind = class_of(value)
            if not kind[which] or kind[4]:
                return None
            found.append(value)
        return found

    def irdl_op_init(
        self: Any,
        op_def: Any,
        *,
        operands: Any,
        result_types: Any,
        properties: Any,
        attributes: Any,
        successors: Any,
        regions: Any,
    ) -> None:
        kind = type(self)
        try:
            expected = counts[kind]
        except KeyError:
            expected = counts[kind] = plain_counts(op_def)
        if (
            expected is not None
            # (xDSL takes any iterable of operands or regions: those go its way)
            and type(operands) in _LIST_OR_TUPLE
            and type(result_types) in _LIST_OR_TUPLE
            and type(regions) in _LIST_OR_TUPLE
            and type(successors) in _LIST_OR_TUPLE
            and expected
            == (len(operands), len(result_types), len(regions), len(successors))
            and (values := singles(operands, 0)) is not None
            and (types := singles(result_types, 5)) is not None
            and all(class_of(r)[2] for r in regions)
            and all(class_of(b)[3] for b in successors)
        ):
            Operation.__init__(
                self,
                operands=values,
                result_types=types,
                properties={k: v for k, v in properties.items() if v is not None},
                attributes={k: v for k, v in attributes.items() if v is not None},
                successors=successors,
                regions=regions,
            )
            return
        xdsl["irdl_op_init"](
            self,
            op_def,
            operands=operands,
            result_types=result_types,
            properties=properties,
            attributes=attributes,
            successors=successors,
            regions=regions,
        )

    ours = {
        "irdl_op_init": irdl_op_init,
        "irdl_build_arg_list": build_arg_list,
        "irdl_build_operations_arg": build_operations_arg,
        "irdl_build_regions_arg": build_regions_arg,
    }
    for name, function in ours.items():
        _mark(function, "xdsl_gpu_plain_ops", xdsl[name])
        setattr(operations, name, function)
