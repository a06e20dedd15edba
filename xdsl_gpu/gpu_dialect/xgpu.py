"""``xgpu``: xdsl-gpu's extensions (no upstream counterpart) to the ``gpu`` dialect,
and ``xgpu.wgmma.mma_async.reg_a``, wgmma with A in registers
(:mod:`xdsl_gpu.gpu_dialect.xgpu_wgmma`), which ``nvvm`` lacks.

* ``#xgpu.object_file<#target, (properties = {...},)? (offload|assembly|bin|fatbin =)?
  "path">`` (:class:`ObjectFileAttr`): an object of a ``gpu.binary`` whose bytes
  are in a file (hand-written or NVRTC/nvcc-compiled kernels). The format comes from
  the keyword, else from the extension (``.ptx`` → assembly, ``.cubin`` → bin,
  ``.fatbin`` → fatbin, ``.bc`` → offload). The ``xgpu-embed-object-files`` pass
  reads the file (confined to a search path) and replaces it by a ``#gpu.object``::

    gpu.binary @kernels <#xgpu.select_best> [
      #xgpu.object_file<#nvvm.target<chip = "sm_80">, "kernels_sm_80.ptx">,
      #xgpu.object_file<#nvvm.target<chip = "sm_90">, "kernels_sm_90.cubin">
    ]

* ``#xgpu.select_best`` (:class:`SelectBestAttr`): an offloading handler, used like
  ``#gpu.select_object``, that embeds *every* object of the binary and loads, when the
  program starts, the one that fits the GPU best: the cubin for its exact SM, else the
  newest cubin it can run, else a fatbin (the driver picks the image), else the newest
  PTX not newer than the GPU (JIT-compiled). See ``xdsl_gpu/targets/runtime/object_selection.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import ClassVar, cast

from xdsl.dialects.builtin import DictionaryAttr, NoneAttr, StringAttr
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect.gpu.attributes import expect_punctuation, verified_at
from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import (
    CompilationTarget,
    CompilationTargetAttr,
    is_gpu_target_attr,
)
from xdsl_gpu.gpu_dialect.xgpu_wgmma import WgmmaMmaAsyncRegAOp

__all__ = [
    "EXTENSION_FORMATS",
    "XGPU",
    "ObjectFileAttr",
    "SelectBestAttr",
    "WgmmaMmaAsyncRegAOp",
]

EXTENSION_FORMATS: dict[str, CompilationTarget] = {
    ".ptx": CompilationTarget.Assembly,
    ".cubin": CompilationTarget.Binary,
    ".fatbin": CompilationTarget.Fatbin,
    ".bc": CompilationTarget.Offload,
}
"""The object format each file extension stands for."""


@irdl_attr_definition
class ObjectFileAttr(ParametrizedAttribute):
    """``#xgpu.object_file<#target, (properties = {..},)? (format =)? "path">``: a
    ``gpu.binary`` object whose bytes live in a file, found through the search path
    of ``xgpu-embed-object-files``."""

    name = "xgpu.object_file"

    target: Attribute
    object_format: CompilationTargetAttr | NoneAttr
    path_attr: StringAttr
    properties: DictionaryAttr | NoneAttr

    FORMAT_KEYWORDS: ClassVar[frozenset[str]] = frozenset(
        e.value for e in CompilationTarget
    )

    def __init__(
        self,
        target: Attribute,
        path: str | StringAttr,
        format: CompilationTarget | str | None = None,
        properties: DictionaryAttr | Mapping[str, Attribute] | None = None,
    ):
        fmt: CompilationTargetAttr | NoneAttr = (
            NoneAttr()
            if format is None
            else CompilationTargetAttr(CompilationTarget(format))
        )
        if properties is None:
            props: DictionaryAttr | NoneAttr = NoneAttr()
        elif isinstance(properties, DictionaryAttr):
            props = properties
        else:
            props = DictionaryAttr(dict(properties))
        super().__init__(
            target, fmt, StringAttr(path) if isinstance(path, str) else path, props
        )

    @property
    def path(self) -> str:
        return self.path_attr.data

    @property
    def explicit_format(self) -> CompilationTarget | None:
        if isinstance(self.object_format, CompilationTargetAttr):
            return cast(CompilationTarget, self.object_format.data)
        return None

    @property
    def format(self) -> CompilationTarget:
        """The explicit format, else the one the extension stands for."""
        if (explicit := self.explicit_format) is not None:
            return explicit
        return EXTENSION_FORMATS[PurePosixPath(self.path).suffix.lower()]

    @property
    def properties_dict(self) -> DictionaryAttr | None:
        return self.properties if isinstance(self.properties, DictionaryAttr) else None

    def verify(self) -> None:
        if not is_gpu_target_attr(self.target):
            raise VerifyException(
                "the target attribute must implement or promise the "
                '`gpu::TargetAttrInterface`, e.g. #nvvm.target<chip = "sm_80">'
            )
        if not self.path:
            raise VerifyException("the object file path can't be empty")
        suffix = PurePosixPath(self.path).suffix.lower()
        if self.explicit_format is None and suffix not in EXTENSION_FORMATS:
            raise VerifyException(
                f"cannot tell the format of '{self.path}' from its extension; name it "
                f'before the path, e.g. bin = "{self.path}" (one of offload, '
                "assembly, bin, fatbin), or use .ptx, .cubin, .fatbin or .bc"
            )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        start = parser.pos
        expect_punctuation(parser, "<")
        target = parser.parse_attribute()
        expect_punctuation(parser, ",")
        properties: Attribute = NoneAttr()
        if parser.parse_optional_keyword("properties") is not None:
            expect_punctuation(parser, "=")
            at = parser.pos
            properties = parser.parse_attribute()
            if not isinstance(properties, DictionaryAttr):
                parser.raise_error(
                    "expected a dictionary of properties", at, parser.pos
                )
            expect_punctuation(parser, ",")
        fmt: Attribute = NoneAttr()
        keyword_start = parser.pos
        keyword = parser.parse_optional_identifier()
        if keyword is not None:
            if keyword not in cls.FORMAT_KEYWORDS:
                parser.raise_error(
                    "expected an object format (offload, assembly, bin, fatbin) or a "
                    "path string",
                    keyword_start,
                    parser.pos,
                )
            fmt = CompilationTargetAttr(CompilationTarget(keyword))
            expect_punctuation(parser, "=")
        path = parser.parse_optional_str_literal()
        if path is None:
            parser.raise_error("expected the object file path as a string")
        expect_punctuation(parser, ">")
        params: list[Attribute] = [target, fmt, StringAttr(path), properties]
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
        if (explicit := self.explicit_format) is not None:
            printer.print_string(f"{explicit.value} = ")
        printer.print_string_literal(self.path)
        printer.print_string(">")


@irdl_attr_definition
class SelectBestAttr(ParametrizedAttribute):
    """``#xgpu.select_best``: embed all objects of a ``gpu.binary``; at load time
    pick the best one for the GPU (exact cubin > newest compatible cubin > fatbin >
    newest PTX not newer than the GPU) and report what was embedded when none fits.
    """

    name = "xgpu.select_best"

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        return []

    def print_parameters(self, printer: Printer) -> None:
        pass


XGPU = Dialect("xgpu", [WgmmaMmaAsyncRegAOp], [ObjectFileAttr, SelectBestAttr])
