"""What xDSL's parser refuses, hangs on or crashes on in MLIR text: string literals,
semi-affine maps, upstream's ``scf.while`` and ``scf.parallel`` forms, hex floats in dense literals, huge
dense literals, block labels defined twice, inputs without operations."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from xdsl.utils.exceptions import ParseError

from xdsl_gpu.compat._base import XdslChangedError, _mark, is_patched


def fast_string_literals(unescape: Callable[[str], bytes]) -> None:
    """Decode string literals with ``unescape`` (a C codec; same bytes as xDSL's
    decoder, which still reports malformed escapes with their location). GPU binaries
    are printed as escaped strings and xDSL's pure-Python decoder takes seconds per
    megabyte."""
    from xdsl.utils import mlir_lexer

    literal = getattr(mlir_lexer, "StringLiteral", None)
    current = getattr(literal, "bytes_contents", None)
    if literal is None or not isinstance(current, property) or current.fget is None:
        raise XdslChangedError(
            "xdsl.utils.mlir_lexer.StringLiteral.bytes_contents is gone"
        )
    xdsl_decoder = current.fget
    if is_patched(xdsl_decoder, "xdsl_gpu_fast"):
        return

    def bytes_contents(self: object) -> bytes:
        try:
            return unescape(self.text[1:-1])  # type: ignore[attr-defined]
        except ValueError:
            return xdsl_decoder(self)  # raises the located ParseError

    _mark(bytes_contents, "xdsl_gpu_fast", xdsl_decoder)
    literal.bytes_contents = property(bytes_contents)


def semi_affine_expressions() -> None:
    """Give xDSL's ``AffineExpr`` MLIR's semi-affine operators.

    MLIR lets a product have a symbolic factor and lets ``floordiv``, ``ceildiv`` and
    ``mod`` divide by a symbolic expression (``affine_map<()[s0, s1, s2] -> (s0 * s2
    + s1)>``, upstream's loop-to-GPU mapping, seed 002). xDSL 0.74 parses the map and
    then raises ``NotImplementedError`` in ``AffineExpr.__mul__`` and friends: a
    traceback on IR that mlir-opt prints. The wrappers send a constant operand to
    xDSL's own code, unchanged; otherwise they build the node as MLIR's
    ``simplifyMul`` does (the symbolic factor to the right; a divisor must be
    symbolic), and what is not even semi-affine becomes a parse error with MLIR's
    wording at the operator."""
    from xdsl.ir.affine import AffineBinaryOpKind, AffineExpr
    from xdsl.parser.affine_parser import AffineParser
    from xdsl.utils.exceptions import ParseError

    if is_patched(AffineExpr.__mul__, "xdsl_gpu_semi_affine"):
        return
    kinds = {
        "__mul__": (AffineBinaryOpKind.Mul, "*"),
        "__floordiv__": (AffineBinaryOpKind.FloorDiv, "floordiv"),
        "ceil_div": (AffineBinaryOpKind.CeilDiv, "ceildiv"),
        "__mod__": (AffineBinaryOpKind.Mod, "mod"),
    }
    for method, (kind, token) in kinds.items():
        original = getattr(AffineExpr, method, None)
        if not callable(original):
            raise XdslChangedError(f"xdsl.ir.affine.AffineExpr.{method} is gone")
        wrapper = _semi_affine_operator(original, kind, token)
        _mark(wrapper, "xdsl_gpu_semi_affine", original)
        setattr(AffineExpr, method, wrapper)

    create = AffineParser.__dict__.get("_create_binop_expr")
    if not callable(create):
        raise XdslChangedError("AffineParser._create_binop_expr is gone")

    def _create_binop_expr(self: Any, lhs: Any, rhs: Any, binop: Any) -> Any:
        try:
            return create(self, lhs, rhs, binop)
        except NonAffineExpressionError as e:
            raise ParseError(binop.span, str(e)) from None

    _mark(_create_binop_expr, "xdsl_gpu_semi_affine", create)
    AffineParser._create_binop_expr = _create_binop_expr  # type: ignore[method-assign]


class NonAffineExpressionError(ValueError):
    """An expression that is not even semi-affine (MLIR rejects it too)."""


def is_symbolic_or_constant(expr: Any) -> bool:
    """True if ``expr`` has no dimension in it (MLIR's ``isSymbolicOrConstant``)."""
    from xdsl.ir.affine import AffineDimExpr

    return not any(isinstance(e, AffineDimExpr) for e in expr.dfs())


def _semi_affine_operator(
    original: Callable[[Any, Any], Any], kind: Any, token: str
) -> Callable[[Any, Any], Any]:
    from xdsl.ir.affine import AffineBinaryOpExpr, AffineConstantExpr, AffineExpr

    def operator(self: Any, other: Any) -> Any:
        other = AffineExpr.constant(other) if isinstance(other, int) else other
        if isinstance(other, AffineConstantExpr) or (
            token == "*" and isinstance(self, AffineConstantExpr)
        ):
            return original(self, other)
        if token == "*":
            if not is_symbolic_or_constant(self) and not is_symbolic_or_constant(other):
                raise NonAffineExpressionError(
                    "non-affine expression: at least one of the multiply operands has "
                    "to be either a constant or symbolic"
                )
            if not is_symbolic_or_constant(other):
                self, other = other, self
        elif not is_symbolic_or_constant(other):
            raise NonAffineExpressionError(
                f"non-affine expression: right operand of {token} has to be either "
                "a constant or symbolic"
            )
        return AffineBinaryOpExpr(kind, self, other)

    return operator


def linear_string_literals() -> None:
    """Lex string literals in linear time. xDSL's pattern nests a ``+`` inside a
    ``*``: on a string left open on its line it backtracks exponentially, so a
    missing quote hangs ``xdsl-opt``. The replacement matches the same strings one
    character at a time."""
    from xdsl.utils.mlir_lexer import MLIRLexer

    current = getattr(MLIRLexer, "_unescaped_characters_regex", None)
    if not isinstance(current, re.Pattern):
        raise XdslChangedError("MLIRLexer._unescaped_characters_regex is gone")
    if current.pattern == _LINEAR_STRING.pattern:
        return
    if current.pattern != _XDSL_STRING:
        raise XdslChangedError("MLIRLexer's string-literal pattern changed")
    MLIRLexer._unescaped_characters_regex = _LINEAR_STRING  # type: ignore[misc]


_XDSL_STRING = r'"(?:[^"\\\n\v\f]+|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"'
_LINEAR_STRING = re.compile(r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"')


def upstream_scf_while_syntax() -> None:
    """Read ``scf.while : () -> () { ... } do { ... }``, the form MLIR prints for a
    loop without operands (upstream's integration programs use it); xDSL's parser
    wants ``scf.while () : () -> ()`` ("'(' expected"). Every form xDSL reads is read
    as before, and it still prints its own (which MLIR reads too)."""
    from xdsl.dialects.scf import WhileOp

    current = WhileOp.__dict__.get("parse")
    if not isinstance(current, classmethod):
        raise XdslChangedError("xdsl.dialects.scf.WhileOp.parse is gone")
    parse = current.__func__
    if is_patched(parse, "xdsl_gpu_upstream_syntax"):
        return

    def parse_without_operands(cls: Any, parser: Any) -> Any:
        if parser.parse_optional_punctuation(":") is None:
            return parse(cls, parser)
        where = parser.pos
        function_type = parser.parse_function_type()
        if function_type.inputs.data:
            parser.raise_error(
                "expected '(' and the loop's initial values before the type: "
                f"the loop takes {len(function_type.inputs.data)} operands",
                where,
                parser.pos,
            )
        before = parser.parse_region()
        parser.parse_characters("do")
        after = parser.parse_region()
        attributes = parser.parse_optional_attr_dict_with_keyword()
        op = cls((), function_type.outputs.data, before, after)
        if attributes is not None:
            op.attributes |= attributes.data
        return op

    _mark(parse_without_operands, "xdsl_gpu_upstream_syntax", parse)
    WhileOp.parse = classmethod(parse_without_operands)  # type: ignore[method-assign,assignment]


def upstream_scf_parallel_syntax() -> None:
    """Read ``scf.parallel``'s custom form, which xDSL 0.74's ``ParallelOp`` lacks
    ("does not have a custom format"; it reads and prints only the generic form):

        scf.parallel (%i, %j) = (%lb0, %lb1) to (%ub0, %ub1) step (%s0, %s1)
            [init (%v0, ...) -> type | (type, ...)] { body } [{attr-dict}]

    as MLIR 22 does: the induction variables are ``index`` block arguments, a body
    without ``scf.reduce`` gets one. Every form xDSL reads is read as before; what it
    prints is :func:`xdsl_gpu.compat.upstream_scf_parallel_printing`'s business."""
    from xdsl.dialects.builtin import IndexType
    from xdsl.dialects.scf import ParallelOp
    from xdsl.ir import Operation
    from xdsl.parser import Parser
    from xdsl.traits import SingleBlockImplicitTerminator, ensure_terminator

    current = ParallelOp.__dict__.get("parse")
    if current is not None:
        if isinstance(current, classmethod) and is_patched(
            current.__func__, "xdsl_gpu_upstream_syntax"
        ):
            return
        raise XdslChangedError(
            "xdsl.dialects.scf.ParallelOp has a parser of its own: check whether it "
            "reads MLIR's form, and drop upstream_scf_parallel_syntax if so"
        )
    inherited = Operation.__dict__.get("parse")
    if not isinstance(inherited, classmethod):
        raise XdslChangedError("xdsl.ir.Operation.parse is gone")

    def parse_parallel(cls: Any, parser: Any) -> Any:
        paren = Parser.Delimiter.PAREN
        ivs = parser.parse_comma_separated_list(
            paren, lambda: parser.parse_argument(expect_type=False)
        )
        index = IndexType()

        def bounds(what: str) -> Any:
            start = parser.pos
            operands = parser.parse_comma_separated_list(
                paren, parser.parse_unresolved_operand
            )
            if len(operands) != len(ivs):
                parser.raise_error(
                    f"expected {len(ivs)} {what}{'s' if len(ivs) != 1 else ''}, one "
                    f"per induction variable, got {len(operands)}",
                    start,
                    parser.pos,
                )
            return parser.resolve_operands(operands, [index] * len(operands), start)

        parser.parse_punctuation("=")
        lower = bounds("lower bound")
        parser.parse_keyword("to")
        upper = bounds("upper bound")
        parser.parse_keyword("step")
        steps = bounds("step")
        start = parser.pos
        inits = []
        if parser.parse_optional_keyword("init"):
            inits = parser.parse_comma_separated_list(
                paren, parser.parse_unresolved_operand
            )
        types = []
        if parser.parse_optional_punctuation("->"):
            types = parser.parse_optional_comma_separated_list(
                paren, parser.parse_type
            ) or [parser.parse_type()]
        if len(inits) != len(types):
            parser.raise_error(
                f"expected one result type after '->' per value of 'init (...)': got "
                f"{len(inits)} values and {len(types)} types",
                start,
                parser.pos,
            )
        init_values = parser.resolve_operands(inits, types, start)
        body = parser.parse_region([iv.resolve(index) for iv in ivs])
        attributes = parser.parse_optional_attr_dict()
        op = cls(lower, upper, steps, body, init_values)
        op.attributes |= attributes
        for trait in op.get_traits_of_type(SingleBlockImplicitTerminator):
            ensure_terminator(op, trait)
        return op

    _mark(parse_parallel, "xdsl_gpu_upstream_syntax", inherited.__func__)
    ParallelOp.parse = classmethod(parse_parallel)  # type: ignore[method-assign,assignment]
    _upstream_scf_reduce_syntax()


REDUCE_FORMAT = "(`(` $args^ `:` type($args) `)`)? $reductions attr-dict"
"""xDSL 0.74's format of ``scf.reduce``: MLIR 22's, but xDSL reads and prints the
regions of a variadic region list one after the other where MLIR separates them with
commas (``scf.reduce(%a, %b : f32, i32) {...}, {...}``)."""


def _upstream_scf_reduce_syntax() -> None:
    """Read ``scf.reduce`` with several reductions as MLIR writes it, the regions
    separated by commas; xDSL's form (no commas) is read as before."""
    from xdsl.dialects.scf import ReduceOp
    from xdsl.parser import Parser

    if ReduceOp.assembly_format != REDUCE_FORMAT:
        raise XdslChangedError("xdsl.dialects.scf.ReduceOp's format changed")
    current = ReduceOp.__dict__.get("parse")
    if not isinstance(current, classmethod):
        raise XdslChangedError("xdsl.dialects.scf.ReduceOp.parse is gone")
    if is_patched(current.__func__, "xdsl_gpu_upstream_syntax"):
        return

    def parse_reduce(cls: Any, parser: Any) -> Any:
        args = []
        start = parser.pos
        if parser.parse_optional_punctuation("(") is not None:
            operands = parser.parse_comma_separated_list(
                Parser.Delimiter.NONE, parser.parse_unresolved_operand
            )
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(
                Parser.Delimiter.NONE, parser.parse_type
            )
            parser.parse_punctuation(")")
            if len(operands) != len(types):
                parser.raise_error(
                    f"expected one type per reduced value: got {len(operands)} "
                    f"values and {len(types)} types",
                    start,
                    parser.pos,
                )
            args = parser.resolve_operands(operands, types, start)
        regions = []
        region = parser.parse_optional_region()
        while region is not None:
            regions.append(region)
            if parser.parse_optional_punctuation(",") is not None:
                region = parser.parse_region()
            else:  # xDSL's own form: the next region, if any, follows directly
                region = parser.parse_optional_region()
        attributes = parser.parse_optional_attr_dict()
        op = cls(args, regions)
        op.attributes |= attributes
        return op

    _mark(parse_reduce, "xdsl_gpu_upstream_syntax", current.__func__)
    ReduceOp.parse = classmethod(parse_reduce)  # type: ignore[method-assign,assignment]


def hex_floats_in_dense_literals() -> None:
    """Read a hexadecimal literal in a ``dense<...>`` of floats as the bit pattern of
    the element, as MLIR does (``dense<0x7FC00000> : tensor<2xf32>`` is a NaN;
    mlir-opt prints inexact f64 constants that way). xDSL reads it as an integer
    value, so ``0x7FC00000`` became the float 2143289344.0: a silent miscompile. A
    pattern wider than the element is a parse error, as in MLIR."""
    import struct

    from xdsl.dialects.builtin import AnyFloat
    from xdsl.parser.attribute_parser import AttrParser

    element = AttrParser._TensorLiteralElement  # pyright: ignore[reportPrivateUsage]
    current = element.__dict__.get("to_type")
    if not callable(current):
        raise XdslChangedError("AttrParser._TensorLiteralElement.to_type is gone")
    if is_patched(current, "xdsl_gpu_hex_floats"):
        return

    def to_type(self: Any, parser: Any, type: Any) -> Any:
        text = self.span.text.lstrip("-")
        if not (isinstance(type, AnyFloat) and text[:2] in ("0x", "0X")):
            return current(self, parser, type)
        bits, width = int(text, 16), type.bitwidth
        if self.is_negative or bits >> width:
            parser.raise_error(
                f"hexadecimal float constant out of range for type {type}",
                at_position=self.span,
            )
        formats = {16: "<e", 32: "<f", 64: "<d"}
        if type.name == "bf16":
            return struct.unpack("<f", struct.pack("<I", bits << 16))[0]
        if width not in formats:
            parser.raise_error(
                f"a hexadecimal {type} constant is not supported here",
                at_position=self.span,
            )
        raw = bits.to_bytes(width // 8, "little")
        return struct.unpack(formats[width], raw)[0]

    _mark(to_type, "xdsl_gpu_hex_floats", current)
    element.to_type = to_type  # type: ignore[method-assign]


DENSE_ELEMENT_LIMIT = 1 << 24
"""The most elements a ``dense<...>`` may have here (2^24, 16M)."""


def bounded_dense_literals() -> None:
    """Refuse a ``dense<...>`` of more than :data:`DENSE_ELEMENT_LIMIT` elements with
    a diagnostic. MLIR keeps a splat as one value; xDSL expands it into a Python list,
    so ``dense<1> : vector<2147483647xi32>`` ran out of time and memory."""
    import math

    from xdsl.parser.attribute_parser import AttrParser

    parse_type = AttrParser.__dict__.get("_parse_dense_literal_type")
    parse_dense = AttrParser.__dict__.get("parse_dense_int_or_fp_elements_attr")
    if not callable(parse_type) or not callable(parse_dense):
        raise XdslChangedError("AttrParser's dense literal parsing is gone")
    if is_patched(parse_type, "xdsl_gpu_bounded_dense"):
        return

    def check(parser: Any, type: Any, where: Any = None) -> None:
        count = math.prod(type.get_shape())
        if count > DENSE_ELEMENT_LIMIT:
            parser.raise_error(
                f"a dense attribute of {count} elements ({type}) is larger than "
                f"xdsl-gpu handles ({DENSE_ELEMENT_LIMIT} elements): xDSL stores every "
                "element; give the data in a smaller attribute or as a file",
                *(() if where is None else (where, parser.pos)),
            )

    def _parse_dense_literal_type(self: Any) -> Any:
        where = self.pos
        type = parse_type(self)
        check(self, type, where)
        return type

    def parse_dense_int_or_fp_elements_attr(self: Any, type: Any) -> Any:
        if type is not None:
            check(self, type)
        return parse_dense(self, type)

    _mark(_parse_dense_literal_type, "xdsl_gpu_bounded_dense", parse_type)
    _mark(parse_dense_int_or_fp_elements_attr, "xdsl_gpu_bounded_dense", parse_dense)
    AttrParser._parse_dense_literal_type = _parse_dense_literal_type  # type: ignore[method-assign]
    AttrParser.parse_dense_int_or_fp_elements_attr = parse_dense_int_or_fp_elements_attr  # type: ignore[method-assign]


def block_redeclaration_after_forward_use() -> None:
    """Report a block label defined twice after a branch used it first
    (``cf.br ^bb2`` ... ``^bb2:`` ... ``^bb2:``) as MLIR does, "re-declaration of
    block". xDSL's parser forgets the first definition of a forward-referenced block
    and fails on the second with a ``KeyError``."""
    from xdsl.parser import Parser

    current = Parser.__dict__.get("_parse_block")
    if not callable(current):
        raise XdslChangedError("xdsl.parser.Parser._parse_block is gone")
    if is_patched(current, "xdsl_gpu_block_labels"):
        return

    def _parse_block(self: Any) -> Any:
        token = getattr(self, "_current_token", None)
        try:
            return current(self)
        except KeyError:
            if token is None:
                raise
            raise ParseError(
                token.span, f"re-declaration of block '{token.text[1:]}'"
            ) from None

    _mark(_parse_block, "xdsl_gpu_block_labels", current)
    Parser._parse_block = _parse_block  # type: ignore[method-assign]


def empty_input_is_an_empty_module() -> None:
    """Read an input without operations (an empty file, only comments or aliases)
    as an empty module, as MLIR does (``mlir-opt /dev/null`` prints ``module {}``).
    xDSL reports "Could not parse entire input!" at its end."""
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.parser import Parser
    from xdsl.utils.mlir_lexer import MLIRTokenKind

    current = Parser.__dict__.get("parse_module")
    if not callable(current):
        raise XdslChangedError("xdsl.parser.Parser.parse_module is gone")
    if is_patched(current, "xdsl_gpu_empty_input"):
        return

    def parse_module(self: Any, allow_implicit_module: bool = True) -> Any:
        try:
            return current(self, allow_implicit_module)
        except ParseError as error:
            token = getattr(self, "_current_token", None)
            if (
                "Could not parse entire input!" not in str(error)
                or not allow_implicit_module
                or token is None
                or token.kind != MLIRTokenKind.EOF
                or getattr(self, "forward_ssa_references", None)
            ):
                raise
            return ModuleOp([])

    _mark(parse_module, "xdsl_gpu_empty_input", current)
    Parser.parse_module = parse_module  # type: ignore[method-assign]


def spaced_shape_delimiters() -> None:
    """Read a shape written with spaces around its ``x`` (``memref<2 x 32 x f32>``,
    ``tensor<4 x ? x i8>``), as MLIR's lexer does. xDSL's ``parse_dimension_list``
    takes an ``x`` not followed by a dimension back by one character, which lands on
    the space before the element type ("Expected 'x' in shape delimiter, got f32").
    The replacement takes it back to the ``x`` itself; without spaces nothing
    changes (the ``x`` is then one character before the type)."""
    from xdsl.parser.attribute_parser import AttrParser
    from xdsl.utils.mlir_lexer import MLIRTokenKind

    current = AttrParser.__dict__.get("parse_dimension_list")
    if not callable(current):
        raise XdslChangedError("AttrParser.parse_dimension_list is gone")
    if is_patched(current, "xdsl_gpu_spaced_shapes"):
        return
    if not callable(AttrParser.__dict__.get("_parse_optional_shape_delimiter")):
        raise XdslChangedError("AttrParser._parse_optional_shape_delimiter is gone")
    dimension_kinds = (MLIRTokenKind.INTEGER_LIT, MLIRTokenKind.QUESTION)

    def parse_dimension_list(self: Any) -> list[int]:
        dims: list[int] = []
        if self._current_token.kind not in dimension_kinds:
            return dims
        dims.append(self.parse_shape_dimension())
        while True:
            delimiter = self._current_token.span.start
            if self._parse_optional_shape_delimiter() is None:
                return dims
            if self._current_token.kind not in dimension_kinds:
                # The 'x' before the element type: the caller reads it.
                self._resume_from(delimiter)
                return dims
            dims.append(self.parse_shape_dimension())

    _mark(parse_dimension_list, "xdsl_gpu_spaced_shapes", current)
    AttrParser.parse_dimension_list = parse_dimension_list  # type: ignore[method-assign]
