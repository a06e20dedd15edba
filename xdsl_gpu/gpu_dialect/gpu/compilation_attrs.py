"""Compilation attributes of the ``gpu`` dialect (upstream ``CompilationAttrs.td``).

* ``#gpu.object<#target, (properties = {..},)? (kernels = <[...]>,)?
  (offload|assembly|bin =)? "bytes">`` (:class:`ObjectAttr`): one serialized object of
  a ``gpu.binary``. The payload is arbitrary bytes; it prints with MLIR's escapes
  (``\\00``, ``\\C0``, ``\\22`` for ``"``, ``\\\\`` for ``\\``) and parses back exactly.
* ``#gpu.select_object``, ``#gpu.select_object<1 : i64>``,
  ``#gpu.select_object<#nvvm.target<...>>`` (:class:`SelectObjectAttr`): the default
  offloading handler of ``gpu.binary``.
* ``#gpu.kernel_metadata<"k", (i32) -> (), arg_attrs = [...], metadata = {...}>``
  (:class:`KernelMetadataAttr`) and ``#gpu.kernel_table<[...]>``
  (:class:`KernelTableAttr`), the optional per-kernel metadata of an object.

Targets: upstream requires the target of an object (and a non-integer
``select_object`` argument) to implement ``gpu::TargetAttrInterface``. Here that is an
attribute with an implementation of :class:`TargetAttrInterface` (``interfaces.py``:
in-class, by deriving from it, or as a registered external model), or one whose name
is in :data:`PROMISED_TARGET_ATTR_NAMES` (``#nvvm.target``, ``#rocdl.target``, ...:
upstream's "promised" interfaces, whose models register later).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import ClassVar, cast

from xdsl.dialects.builtin import (
    ArrayAttr,
    BytesAttr,
    DictionaryAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    NoneAttr,
    Signedness,
    StringAttr,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    BuiltinAttribute,
    Operation,
    ParametrizedAttribute,
    TypeAttribute,
)
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from xdsl_gpu.diagnostics import UserError
from xdsl_gpu.gpu_dialect.gpu.attributes import (
    _AngleEnumSyntax,
    expect_punctuation,
    parse_struct,
    verified_at,
)
from xdsl_gpu.gpu_dialect.gpu.interfaces import TargetAttrInterface, implements
from xdsl_gpu.gpu_dialect.string_literals import unescape_mlir_string

__all__ = [
    "ATTRIBUTES",
    "COMPILATION_TARGET_OPTIONS",
    "COMPILATION_TARGET_VALUES",
    "OPERATIONS",
    "PROMISED_TARGET_ATTR_NAMES",
    "CompilationTarget",
    "CompilationTargetAttr",
    "KernelMetadataAttr",
    "KernelTableAttr",
    "ObjectAttr",
    "SelectObjectAttr",
    "TargetAttrInterface",
    "escape_mlir_bytes",
    "is_gpu_target_attr",
    "unescape_mlir_string",
]


# ---------------------------------------------------------------------------------
# Targets
# ---------------------------------------------------------------------------------


PROMISED_TARGET_ATTR_NAMES = frozenset(
    {"nvvm.target", "rocdl.target", "xevm.target", "spirv.target_env"}
)
"""Attributes upstream MLIR 22 registers as ``gpu::TargetAttrInterface``, accepted by
name whatever Python class holds them."""


def is_gpu_target_attr(attr: Attribute) -> bool:
    """Upstream ``hasPromiseOrImplementsInterface<TargetAttrInterface>()``: the
    attribute implements :class:`TargetAttrInterface` (in-class or through a
    registered external model) or is one of :data:`PROMISED_TARGET_ATTR_NAMES`."""
    return getattr(attr, "name", None) in PROMISED_TARGET_ATTR_NAMES or implements(
        attr, TargetAttrInterface
    )


# ---------------------------------------------------------------------------------
# Byte strings with MLIR's escapes
# ---------------------------------------------------------------------------------

_ESCAPES = tuple(
    "\\\\"
    if b == 0x5C
    else (f"\\{b:02X}" if b < 0x20 or b > 0x7E or b == 0x22 else chr(b))
    for b in range(256)
)


def escape_mlir_bytes(data: bytes) -> str:
    """The body of MLIR's string literal for ``data`` (without the quotes).

    Same text as ``llvm::printEscapedString`` and xDSL's ``print_bytes_literal``
    (printable ASCII as is, ``\\\\`` for a backslash, ``\\XX`` uppercase hex for the
    rest and for ``"``), about 10x faster, which matters for multi-megabyte fatbins.
    """
    return "".join(map(_ESCAPES.__getitem__, data))


def _parse_bytes_literal(parser: AttrParser) -> bytes | None:
    """A string literal's exact bytes, whether xDSL lexes it as text or as bytes."""
    if (text := parser.parse_optional_str_literal()) is not None:
        return text.encode()
    return parser.parse_optional_bytes_literal()


def _expect_attr(
    parser: AttrParser, kind: type[Attribute] | tuple[type[Attribute], ...]
) -> Attribute:
    """Parse an attribute of ``kind`` with upstream's messages."""
    start = parser.pos
    attr = parser.parse_optional_attribute()
    if attr is None:
        parser.raise_error("expected attribute value")
    if not isinstance(attr, kind):
        parser.raise_error("invalid kind of attribute specified", start, parser.pos)
    return attr


# ---------------------------------------------------------------------------------
# #gpu.kernel_metadata and #gpu.kernel_table
# ---------------------------------------------------------------------------------


@irdl_attr_definition
class KernelMetadataAttr(ParametrizedAttribute):
    """``#gpu.kernel_metadata<"k", (i32) -> (), arg_attrs = [...], metadata = {...}>``.

    The kernel's name (non-empty) and function type, optionally its argument
    attributes (one dictionary per argument) and a metadata dictionary (register
    count, occupancy, ...).
    """

    name = "gpu.kernel_metadata"

    kernel_name: StringAttr
    function_type: Attribute
    arg_attrs: ArrayAttr | NoneAttr
    metadata: DictionaryAttr | NoneAttr

    def __init__(
        self,
        name: str | StringAttr,
        function_type: Attribute,
        arg_attrs: ArrayAttr | Sequence[Attribute] | None = None,
        metadata: DictionaryAttr | Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            StringAttr(name) if isinstance(name, str) else name,
            function_type,
            _array_or_none(arg_attrs),
            _dict_or_none(metadata),
        )

    @classmethod
    def from_kernel(
        cls,
        kernel: Operation,
        metadata: DictionaryAttr | Mapping[str, Attribute] | None = None,
    ) -> KernelMetadataAttr:
        """Upstream's builder from a ``FunctionOpInterface`` (``gpu.func``,
        ``func.func``, ``llvm.func``): its name, function type and argument attributes.
        """

        def get(name: str) -> Attribute | None:
            attr = kernel.properties.get(name)
            return kernel.attributes.get(name) if attr is None else attr

        sym_name, function_type = get("sym_name"), get("function_type")
        if not isinstance(sym_name, StringAttr) or function_type is None:
            raise ValueError(f"'{kernel.name}' is not a function: no name or type")
        arg_attrs = get("arg_attrs")
        if arg_attrs is not None and not isinstance(arg_attrs, ArrayAttr):
            arg_attrs = None
        return cls(sym_name, function_type, arg_attrs, metadata)

    # Accessors --------------------------------------------------------------
    @property
    def kernel(self) -> str:
        """The kernel's name."""
        return self.kernel_name.data

    def get_attr(self, key: str) -> Attribute | None:
        """The metadata entry ``key``, or None."""
        if isinstance(self.metadata, DictionaryAttr):
            return self.metadata.data.get(key)
        return None

    def get_arg_attr_dict(self, index: int) -> DictionaryAttr | None:
        if isinstance(self.arg_attrs, ArrayAttr):
            attr = self.arg_attrs.data[index]
            assert isinstance(attr, DictionaryAttr)
            return attr
        return None

    def get_arg_attr(self, index: int, name: str) -> Attribute | None:
        d = self.get_arg_attr_dict(index)
        return None if d is None else d.data.get(name)

    def append_metadata(self, attrs: Mapping[str, Attribute]) -> KernelMetadataAttr:
        """A copy with ``attrs`` added to the metadata dictionary."""
        if not attrs:
            return self
        merged = (
            dict(self.metadata.data)
            if isinstance(self.metadata, DictionaryAttr)
            else {}
        )
        merged.update(attrs)
        return KernelMetadataAttr(
            self.kernel_name, self.function_type, self.arg_attrs_or_none(), merged
        )

    def arg_attrs_or_none(self) -> ArrayAttr | None:
        return self.arg_attrs if isinstance(self.arg_attrs, ArrayAttr) else None

    # Verifier and syntax ----------------------------------------------------
    def verify(self) -> None:
        if not self.kernel_name.data:
            raise VerifyException("the kernel name can't be empty")
        if not isinstance(self.function_type, TypeAttribute):
            raise VerifyException("the function type must be a type")
        if isinstance(self.arg_attrs, ArrayAttr) and any(
            not isinstance(a, DictionaryAttr) for a in self.arg_attrs.data
        ):
            raise VerifyException(
                "all attributes in the array must be a dictionary attribute"
            )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        start = parser.pos
        expect_punctuation(parser, "<")
        name = _expect_attr(parser, StringAttr)
        expect_punctuation(parser, ",")
        function_type = parser.parse_type()
        fields: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation(",") is not None:
            fields = parse_struct(
                parser,
                {
                    "arg_attrs": lambda: _expect_attr(parser, ArrayAttr),
                    "metadata": lambda: _expect_attr(parser, DictionaryAttr),
                },
                all_required=False,
            )
        expect_punctuation(parser, ">")
        params: list[Attribute] = [
            name,
            function_type,
            fields.get("arg_attrs", NoneAttr()),
            fields.get("metadata", NoneAttr()),
        ]
        with verified_at(parser, start):
            cls.new(params)
        return params

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_string_literal(self.kernel_name.data)
        printer.print_string(", ")
        printer.print_attribute(self.function_type)
        if isinstance(self.arg_attrs, ArrayAttr):
            printer.print_string(", arg_attrs = ")
            printer.print_attribute(self.arg_attrs)
        if isinstance(self.metadata, DictionaryAttr):
            printer.print_string(", metadata = ")
            printer.print_attribute(self.metadata)
        printer.print_string(">")


@irdl_attr_definition
class KernelTableAttr(ParametrizedAttribute):
    """``#gpu.kernel_table<[#gpu.kernel_metadata<...>, ...]>`` (``<>`` when empty).

    Kept sorted by kernel name (the constructor and the parser sort, as upstream's
    builder does); names must be unique. Inside ``#gpu.object`` it prints stripped:
    ``kernels = <[...]>``.
    """

    name = "gpu.kernel_table"

    kernel_table: ArrayAttr[KernelMetadataAttr]

    def __init__(self, kernels: Iterable[KernelMetadataAttr] = ()):
        super().__init__(ArrayAttr(sorted(kernels, key=lambda k: k.kernel_name.data)))

    @property
    def kernels(self) -> tuple[KernelMetadataAttr, ...]:
        return self.kernel_table.data

    def lookup(self, name: str) -> KernelMetadataAttr | None:
        """The kernel called ``name``, or None."""
        for kernel in self.kernel_table.data:
            if kernel.kernel_name.data == name:
                return kernel
        return None

    def verify(self) -> None:
        names = [k.kernel_name.data for k in self.kernel_table.data]
        if len(set(names)) != len(names):
            raise VerifyException("expected all kernels to be uniquely named")
        if names != sorted(names):
            raise VerifyException("expected the kernels to be sorted by name")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        start = parser.pos
        expect_punctuation(parser, "<")
        kernels: list[KernelMetadataAttr] = []
        if parser.parse_optional_punctuation("[") is not None:
            while True:
                kernel = _expect_attr(parser, KernelMetadataAttr)
                assert isinstance(kernel, KernelMetadataAttr)
                kernels.append(kernel)
                if parser.parse_optional_punctuation(",") is None:
                    break
            expect_punctuation(parser, "]")
        expect_punctuation(parser, ">")
        with verified_at(parser, start):
            table = cls(kernels)
        return list(table.parameters)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        if self.kernel_table.data:
            printer.print_string("[")
            printer.print_list(self.kernel_table.data, printer.print_attribute)
            printer.print_string("]")
        printer.print_string(">")


def _parse_kernel_table_field(parser: AttrParser) -> KernelTableAttr:
    """``<[...]>`` (how it prints inside an object) or ``#gpu.kernel_table<[...]>``."""
    start = parser.pos
    attr = parser.parse_optional_attribute()
    if attr is None:
        return KernelTableAttr.new(KernelTableAttr.parse_parameters(parser))
    if not isinstance(attr, KernelTableAttr):
        # Upstream reads anything but a dialect attribute as the stripped form.
        message = (
            "expected '<'"
            if isinstance(attr, BuiltinAttribute)
            else "invalid kind of attribute specified"
        )
        parser.raise_error(message, start, parser.pos)
    return attr


# ---------------------------------------------------------------------------------
# #gpu.object
# ---------------------------------------------------------------------------------


class CompilationTarget(StrEnum):
    """``gpu::CompilationTarget``: the format of a ``#gpu.object``'s payload."""

    Offload = "offload"
    """Target-dependent; LLVM bitcode for NVVM and ROCDL."""
    Assembly = "assembly"
    """GPU assembly (PTX), JIT-compiled when loaded."""
    Binary = "bin"
    """Code for a single architecture (cubin)."""
    Fatbin = "fatbin"
    """A fat binary for several architectures: the default, elided when printing."""

    @property
    def int_value(self) -> int:
        return COMPILATION_TARGET_VALUES[self]

    @staticmethod
    def from_option(value: str) -> CompilationTarget:
        """Parse a ``format=`` option of ``gpu-module-to-binary`` (or
        ``cubin-format=`` of ``gpu-lower-to-nvvm-pipeline``) with upstream's names
        and aliases: ``offloading``/``llvm``, ``assembly``/``isa``, ``binary``/``bin``,
        ``fatbinary``/``fatbin``. Raises ``UserError`` for anything else."""
        if value not in COMPILATION_TARGET_OPTIONS:
            raise UserError(
                f"Invalid format specified: '{value}'; use one of "
                + ", ".join(sorted(COMPILATION_TARGET_OPTIONS))
            )
        return COMPILATION_TARGET_OPTIONS[value]


COMPILATION_TARGET_VALUES: dict[CompilationTarget, int] = {
    CompilationTarget.Offload: 1,
    CompilationTarget.Assembly: 2,
    CompilationTarget.Binary: 3,
    CompilationTarget.Fatbin: 4,
}
"""Upstream's integer values of :class:`CompilationTarget`."""

COMPILATION_TARGET_OPTIONS: dict[str, CompilationTarget] = {
    "offloading": CompilationTarget.Offload,
    "llvm": CompilationTarget.Offload,
    "assembly": CompilationTarget.Assembly,
    "isa": CompilationTarget.Assembly,
    "binary": CompilationTarget.Binary,
    "bin": CompilationTarget.Binary,
    "fatbinary": CompilationTarget.Fatbin,
    "fatbin": CompilationTarget.Fatbin,
}
"""The ``format=`` option values of ``gpu-module-to-binary`` (upstream's
``parseCompilationTarget``)."""


@irdl_attr_definition
class CompilationTargetAttr(_AngleEnumSyntax, EnumAttribute[CompilationTarget]):
    """Holds the ``format`` parameter of ``#gpu.object``; upstream has no stand-alone
    attribute for it, so this class is not registered in the dialect."""

    name = "gpu.compilation_target"
    cpp_enum_name = "::mlir::gpu::CompilationTarget"

    def __init__(self, value: CompilationTarget | str):
        super().__init__(CompilationTarget(value))


def _format_of(
    value: CompilationTarget | str | int | CompilationTargetAttr,
) -> CompilationTargetAttr:
    if isinstance(value, CompilationTargetAttr):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        for fmt, number in COMPILATION_TARGET_VALUES.items():
            if number == value:
                return CompilationTargetAttr(fmt)
        raise ValueError(f"no gpu object format has the value {value}")
    return CompilationTargetAttr(CompilationTarget(value))


def _array_or_none(
    value: ArrayAttr | Sequence[Attribute] | None,
) -> ArrayAttr | NoneAttr:
    if value is None or isinstance(value, NoneAttr):
        return NoneAttr()
    return value if isinstance(value, ArrayAttr) else ArrayAttr(value)


def _dict_or_none(
    value: DictionaryAttr | Mapping[str, Attribute] | None,
) -> DictionaryAttr | NoneAttr:
    if value is None or isinstance(value, NoneAttr):
        return NoneAttr()
    return value if isinstance(value, DictionaryAttr) else DictionaryAttr(dict(value))


@irdl_attr_definition
class ObjectAttr(ParametrizedAttribute):
    """``#gpu.object<#target, (properties = {..},)? (kernels = <[...]>,)?
    (offload|assembly|bin =)? "bytes">``: a serialized GPU object.

    ``ObjectAttr(target, data, format=CompilationTarget.Fatbin, properties=None,
    kernels=None)``; read the payload with :attr:`object_bytes` (exact bytes) and the
    format with :attr:`format`.
    """

    name = "gpu.object"

    target: Attribute
    object_format: CompilationTargetAttr
    object: BytesAttr
    properties: DictionaryAttr | NoneAttr
    kernels: KernelTableAttr | NoneAttr

    FORMAT_KEYWORDS: ClassVar[frozenset[str]] = frozenset(
        e.value for e in CompilationTarget
    )

    def __init__(
        self,
        target: Attribute,
        data: bytes | bytearray | memoryview | str | BytesAttr | StringAttr,
        format: CompilationTarget | str | int | CompilationTargetAttr = (
            CompilationTarget.Fatbin
        ),
        properties: DictionaryAttr | Mapping[str, Attribute] | None = None,
        kernels: KernelTableAttr | Iterable[KernelMetadataAttr] | None = None,
    ):
        if isinstance(data, StringAttr):
            data = data.data
        if isinstance(data, str):
            data = data.encode()
        if not isinstance(data, BytesAttr):
            data = BytesAttr(bytes(data))
        table: KernelTableAttr | NoneAttr
        if kernels is None or isinstance(kernels, NoneAttr):
            table = NoneAttr()
        elif isinstance(kernels, KernelTableAttr):
            table = kernels
        else:
            table = KernelTableAttr(kernels)
        super().__init__(
            target, _format_of(format), data, _dict_or_none(properties), table
        )

    # Accessors --------------------------------------------------------------
    @property
    def format(self) -> CompilationTarget:
        """The payload's format (``CompilationTarget.Fatbin`` by default)."""
        return cast(CompilationTarget, self.object_format.data)

    @property
    def object_bytes(self) -> bytes:
        """The payload, byte for byte."""
        return self.object.data

    @property
    def properties_dict(self) -> DictionaryAttr | None:
        return self.properties if isinstance(self.properties, DictionaryAttr) else None

    @property
    def kernel_table(self) -> KernelTableAttr | None:
        return self.kernels if isinstance(self.kernels, KernelTableAttr) else None

    def get_property(self, key: str) -> Attribute | None:
        """The ``properties`` entry ``key`` (``O``, ``section``, ...), or None."""
        d = self.properties_dict
        return None if d is None else d.data.get(key)

    # Verifier and syntax ----------------------------------------------------
    def verify(self) -> None:
        if not is_gpu_target_attr(self.target):
            raise VerifyException(
                "the target attribute must implement or promise the "
                "`gpu::TargetAttrInterface`"
            )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        start = parser.pos
        expect_punctuation(parser, "<")
        target = _expect_attr(parser, Attribute)
        expect_punctuation(parser, ",")
        properties: Attribute = NoneAttr()
        kernels: Attribute = NoneAttr()
        if parser.parse_optional_keyword("properties") is not None:
            expect_punctuation(parser, "=")
            properties = _expect_attr(parser, DictionaryAttr)
            expect_punctuation(parser, ",")
        if parser.parse_optional_keyword("kernels") is not None:
            expect_punctuation(parser, "=")
            kernels = _parse_kernel_table_field(parser)
            expect_punctuation(parser, ",")
        # custom<Object>($format, $object)
        fmt = CompilationTarget.Fatbin
        keyword_start = parser.pos
        keyword = parser.parse_optional_identifier()
        if keyword is not None:
            if keyword not in cls.FORMAT_KEYWORDS:
                parser.raise_error(
                    "expected keyword for GPU object format", keyword_start, parser.pos
                )
            fmt = CompilationTarget(keyword)
            expect_punctuation(parser, "=")
        data = _parse_bytes_literal(parser)
        if data is None:
            _expect_attr(
                parser, (StringAttr, BytesAttr)
            )  # raises with upstream's words
            raise AssertionError("unreachable")  # pragma: no cover
        expect_punctuation(parser, ">")
        params: list[Attribute] = [
            target,
            CompilationTargetAttr(fmt),
            BytesAttr(data),
            properties,
            kernels,
        ]
        with verified_at(parser, start):
            cls.new(params)
        return params

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.target)
        printer.print_string(", ")
        if isinstance(self.properties, DictionaryAttr):
            printer.print_string("properties = ")
            printer.print_attribute(self.properties)
            printer.print_string(", ")
        if isinstance(self.kernels, KernelTableAttr):
            printer.print_string("kernels = ")
            self.kernels.print_parameters(printer)
            printer.print_string(", ")
        if self.format != CompilationTarget.Fatbin:
            printer.print_string(f"{self.format.value} = ")
        printer.print_string(f'"{escape_mlir_bytes(self.object.data)}"')
        printer.print_string(">")


# ---------------------------------------------------------------------------------
# #gpu.select_object
# ---------------------------------------------------------------------------------


def _signed_value(attr: IntegerAttr) -> int:
    """``IntegerAttr::getInt()``: signless values read as signed (``true : i1`` is
    -1)."""
    value = attr.value.data
    t = attr.type
    if isinstance(t, IntegerType) and t.signedness.data == Signedness.SIGNLESS:
        width = t.width.data
        if width and value >= 1 << (width - 1):
            value -= 1 << width
    return value


@irdl_attr_definition
class SelectObjectAttr(ParametrizedAttribute):
    """``#gpu.select_object``, ``#gpu.select_object<1 : i64>`` or
    ``#gpu.select_object<#nvvm.target<...>>``: embed one object of a ``gpu.binary``.

    No argument selects the first object; an integer (≥ 0) selects by index; a target
    attribute selects the object with that target (the last one, if several match,
    as upstream's translation does).
    """

    name = "gpu.select_object"

    target: Attribute

    def __init__(self, target_or_index: Attribute | int | None = None):
        if target_or_index is None:
            target: Attribute = NoneAttr()
        elif isinstance(target_or_index, int):
            target = IntegerAttr(target_or_index, i64)
        else:
            target = target_or_index
        super().__init__(target)

    @property
    def index(self) -> int | None:
        """The object index when selecting by index (0 when there is no argument)."""
        if isinstance(self.target, NoneAttr):
            return 0
        if isinstance(self.target, IntegerAttr):
            return _signed_value(self.target)
        return None

    @property
    def target_attr(self) -> Attribute | None:
        """The target when selecting by target, else None."""
        if isinstance(self.target, NoneAttr | IntegerAttr):
            return None
        return self.target

    def select(self, objects: Sequence[ObjectAttr]) -> ObjectAttr:
        """The object of ``objects`` (a ``gpu.binary``'s) this handler embeds.

        Raises ``VerifyException`` with upstream's message when there is none.
        """
        index = self.index
        if index is None:
            index = -1
            for i, obj in enumerate(objects):
                if obj.target == self.target:
                    index = i
        if not 0 <= index < len(objects):
            raise VerifyException("the requested target object couldn't be found")
        return objects[index]

    def verify(self) -> None:
        if isinstance(self.target, NoneAttr):
            return
        if isinstance(self.target, IntegerAttr):
            if not isinstance(self.target.type, IntegerType | IndexType):
                raise VerifyException("the object index must be an integer")
            if _signed_value(self.target) < 0:
                raise VerifyException("the object index must be positive")
        elif not is_gpu_target_attr(self.target):
            raise VerifyException("the target attribute must be a GPU Target attribute")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        start = parser.pos
        target: Attribute = NoneAttr()
        if parser.parse_optional_punctuation("<") is not None:
            target = _expect_attr(parser, Attribute)
            expect_punctuation(parser, ">")
        with verified_at(parser, start):
            cls.new([target])
        return [target]

    def print_parameters(self, printer: Printer) -> None:
        if not isinstance(self.target, NoneAttr):
            printer.print_string("<")
            printer.print_attribute(self.target)
            printer.print_string(">")


OPERATIONS = ()
ATTRIBUTES = (ObjectAttr, SelectObjectAttr, KernelMetadataAttr, KernelTableAttr)
