"""``gpu-module-to-binary``: every ``gpu.module`` becomes a ``gpu.binary`` with one
``#gpu.object`` per target (upstream's ``ModuleToBinary.cpp``; same options).

The NVVM serialization itself lives in ``xdsl_gpu/targets/nvvm/serializer.py``: LLVM IR →
PTX (llvmlite) → cubin (nvJitLink) → fatbin (nvFatbin), no CUDA toolkit needed.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import PassFailedException

from xdsl_gpu.diagnostics import UserError
from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import ObjectAttr
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import BinaryOp
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import ModuleOp as GPUModuleOp
from xdsl_gpu.gpu_dialect.nvvm.target import NVVMTargetAttr
from xdsl_gpu.targets.llvm_ir import NVPTX_DATA_LAYOUT, convert_module
from xdsl_gpu.targets.nvvm.serializer import NVVMOptions, ObjectFormat, serialize

# Properties that hold integers of 32 bits upstream; the timings are 64-bit.
_I32_PROPERTIES = frozenset({"O"})


@dataclass(frozen=True)
class GpuModuleToBinaryPass(ModulePass):
    """Serialize each ``gpu.module`` for each of its targets.

    Options (upstream's): ``format`` (``offloading``/``llvm``, ``assembly``/``isa``,
    ``binary``/``bin``, ``fatbinary``/``fatbin``; default ``fatbin``), ``toolkit`` (a
    CUDA toolkit folder: libdevice from there, and ``ptxas``/``fatbinary`` instead of
    nvJitLink/nvFatbin), ``l`` (more bitcode files to link), ``opts`` (options for
    the assembler; ``-32`` is dropped like upstream routes it to fatbinary),
    ``section`` (ELF section of the embedded binary).
    """

    name = "gpu-module-to-binary"

    format: str = "fatbin"
    toolkit: str = ""
    l: tuple[str, ...] = ()  # noqa: E741 (upstream's option name)
    opts: str = ""
    section: str = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            fmt = ObjectFormat.from_option(self.format)
        except UserError as e:
            raise PassFailedException(f"gpu-module-to-binary: {e}") from None
        for module in [m for m in op.walk() if isinstance(m, GPUModuleOp)]:
            binary = BinaryOp(
                module.sym_name,
                [self._object(module, target, fmt) for target in _targets(module)],
                module.offloading_handler,
            )
            Rewriter.replace_op(module, binary)

    def _object(
        self, module: GPUModuleOp, target: Attribute, fmt: ObjectFormat
    ) -> ObjectAttr:
        name = module.sym_name.data
        if not isinstance(target, NVVMTargetAttr):
            raise PassFailedException(
                f"gpu.module @{name}: cannot serialize for {target}; this build "
                "serializes #nvvm.target only"
            )
        _check_lowered(module)
        options = NVVMOptions(
            chip=target.chip,
            features=target.features,
            opt_level=target.opt_level,
            triple=target.triple,
            fast=target.fast_math,
            ftz=target.ftz,
            link=(*target.link_files, *self.l),
            ptxas_options=(*target.ptxas_options, *_assembler_options(self.opts)),
            toolkit=self.toolkit,
            use_toolkit=bool(self.toolkit),
            module_name=name,
        )
        try:
            llvm_ir = convert_module(
                module,
                triple=target.triple,
                data_layout=NVPTX_DATA_LAYOUT,
                module_name=name,
            )
            serialized = serialize(llvm_ir, options, fmt)
        except UserError as e:
            raise PassFailedException(f"gpu.module @{name}: {e}") from None
        properties: dict[str, Attribute] = {
            key: IntegerAttr(value, i32 if key in _I32_PROPERTIES else i64)
            for key, value in serialized.properties.items()
        }
        if self.section:
            properties["section"] = StringAttr(self.section)
        return ObjectAttr(
            target,
            serialized.data,
            format=fmt.value,
            properties=DictionaryAttr(properties) if properties else None,
        )


def _targets(module: GPUModuleOp) -> list[Attribute]:
    targets = list(module.targets.data) if isinstance(module.targets, ArrayAttr) else []
    if not targets:
        raise PassFailedException(
            f"gpu.module @{module.sym_name.data} has no target attribute: run "
            "nvvm-attach-target (e.g. -p 'nvvm-attach-target{chip=sm_90}') or write "
            '[#nvvm.target<chip = "sm_90">] on the module'
        )
    return targets


def _check_lowered(module: GPUModuleOp) -> None:
    for op in module.body.walk():
        if not _is_llvm_level(op):
            raise PassFailedException(
                f"gpu.module @{module.sym_name.data} still contains '{op.name}', "
                "which has no LLVM IR form: lower the module with convert-gpu-to-nvvm "
                "(or gpu-lower-to-nvvm-pipeline) first"
            )


def _is_llvm_level(op: Operation) -> bool:
    return (
        op.name.startswith(("llvm.", "nvvm."))
        or op.name == "builtin.unrealized_conversion_cast"
    )


def _assembler_options(opts: str) -> tuple[str, ...]:
    # Upstream passes -32 to fatbinary; nvFatbin builds 64-bit images only.
    return tuple(o for o in shlex.split(opts) if o != "-32")
