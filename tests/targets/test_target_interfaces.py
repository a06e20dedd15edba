"""The gpu dialect's attribute interfaces and their external models (issue 11):
the registry, ``gpu-module-to-binary`` asking the target's ``TargetAttrInterface``,
and the offloading translation asking the handler's
``OffloadingTranslationAttrInterface``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute, Operation, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.utils.exceptions import PassFailedException

from tests.support.xdsl_tools import parse, print_module
from xdsl_gpu.diagnostics import UserError
from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import (
    CompilationTarget,
    ObjectAttr,
    SelectObjectAttr,
    is_gpu_target_attr,
)
from xdsl_gpu.gpu_dialect.gpu.interfaces import (
    AttrInterface,
    OffloadingTranslationAttrInterface,
    TargetAttrInterface,
    TargetOptions,
    get_external_model,
    lookup,
    register_external_model,
    unregister_external_model,
)
from xdsl_gpu.gpu_dialect.nvvm.target import NVVMTargetAttr
from xdsl_gpu.gpu_dialect.rocdl import ROCDLTargetAttr
from xdsl_gpu.gpu_dialect.xgpu import SelectBestAttr
from xdsl_gpu.passes.gpu_module_to_binary import GpuModuleToBinaryPass
from xdsl_gpu.targets import register_target_interfaces
from xdsl_gpu.targets.nvvm.target_interface import NVVMTargetAttrImpl
from xdsl_gpu.targets.offloading.common import OffloadingError
from xdsl_gpu.targets.offloading.select_best import SelectBestAttrImpl
from xdsl_gpu.targets.offloading.select_object import SelectObjectAttrImpl
from xdsl_gpu.targets.offloading.translation import lower_offloading


@irdl_attr_definition
class _ToyTargetAttr(ParametrizedAttribute):
    name = "test.toy_target"

    chip: StringAttr


@irdl_attr_definition
class _InClassTargetAttr(ParametrizedAttribute, TargetAttrInterface):
    """A target implementing the interface in-class."""

    name = "test.in_class_target"

    def serialize_to_object(
        self, attr: Attribute, module: Operation, options: TargetOptions
    ) -> bytes | None:
        return b"in-class"


class _ToyTargetImpl(TargetAttrInterface):
    def serialize_to_object(
        self, attr: Attribute, module: Operation, options: TargetOptions
    ) -> bytes | None:
        name = module.properties["sym_name"]
        assert isinstance(name, StringAttr)
        return f"{name.data} for {attr.name}".encode()

    def create_object(
        self,
        attr: Attribute,
        module: Operation,
        serialized: bytes,
        options: TargetOptions,
    ) -> Attribute:
        return ObjectAttr(attr, serialized, options.compilation_target)


@pytest.fixture
def without_model() -> Iterator[Any]:
    """Detach a model for the test; put it back afterwards."""
    removed: list[tuple[type[Attribute], type[AttrInterface], AttrInterface]] = []

    def detach(attr_class: type[Attribute], interface: type[AttrInterface]) -> None:
        model = unregister_external_model(attr_class, interface)
        if model is not None:
            removed.append((attr_class, interface, model))

    yield detach
    for attr_class, interface, model in removed:
        register_external_model(attr_class, interface, model)


@pytest.fixture
def with_model() -> Iterator[Any]:
    """Attach a model for the test; restore what was there afterwards."""
    saved: list[tuple[type[Attribute], type[AttrInterface], AttrInterface | None]] = []

    def attach(
        attr_class: type[Attribute], interface: type[AttrInterface], impl: Any
    ) -> None:
        saved.append((attr_class, interface, get_external_model(attr_class, interface)))
        register_external_model(attr_class, interface, impl)

    yield attach
    for attr_class, interface, model in reversed(saved):
        unregister_external_model(attr_class, interface)
        if model is not None:
            register_external_model(attr_class, interface, model)


# ---------------------------------------------------------------------------------
# The registry
# ---------------------------------------------------------------------------------


def test_registered_models_are_found() -> None:
    register_target_interfaces()
    nvvm = NVVMTargetAttr(chip="sm_90")
    assert isinstance(lookup(nvvm, TargetAttrInterface), NVVMTargetAttrImpl)
    assert isinstance(
        lookup(SelectObjectAttr(), OffloadingTranslationAttrInterface),
        SelectObjectAttrImpl,
    )
    assert isinstance(
        lookup(SelectBestAttr(), OffloadingTranslationAttrInterface),
        SelectBestAttrImpl,
    )
    # Only the interface that was registered.
    assert lookup(nvvm, OffloadingTranslationAttrInterface) is None
    assert lookup(SelectObjectAttr(), TargetAttrInterface) is None


def test_no_model_without_registration(without_model: Any) -> None:
    without_model(NVVMTargetAttr, TargetAttrInterface)
    assert lookup(NVVMTargetAttr(chip="sm_90"), TargetAttrInterface) is None
    assert lookup(_ToyTargetAttr(StringAttr("x")), TargetAttrInterface) is None
    assert lookup(ROCDLTargetAttr(), TargetAttrInterface) is None


def test_register_lookup_and_subclasses(with_model: Any) -> None:
    impl = _ToyTargetImpl()
    with_model(_ToyTargetAttr, TargetAttrInterface, impl)
    toy = _ToyTargetAttr(StringAttr("x"))
    assert lookup(toy, TargetAttrInterface) is impl
    assert get_external_model(_ToyTargetAttr, TargetAttrInterface) is impl
    # Upstream: implementing the interface makes it a GPU target attribute.
    assert is_gpu_target_attr(toy)


def test_unregistered_attribute_is_not_a_target() -> None:
    assert not is_gpu_target_attr(_ToyTargetAttr(StringAttr("x")))
    # The promised ones are, registered or not.
    assert is_gpu_target_attr(ROCDLTargetAttr())


def test_in_class_implementation_is_the_attribute_itself() -> None:
    attr = _InClassTargetAttr()
    assert lookup(attr, TargetAttrInterface) is attr
    assert is_gpu_target_attr(attr)


def test_register_rejects_a_model_of_another_interface() -> None:
    with pytest.raises(TypeError, match="does not implement TargetAttrInterface"):
        register_external_model(
            _ToyTargetAttr,
            TargetAttrInterface,
            SelectObjectAttrImpl(),  # pyright: ignore[reportArgumentType]
        )
    with pytest.raises(TypeError, match="not an attribute interface"):
        register_external_model(_ToyTargetAttr, int, 3)  # pyright: ignore


def test_registration_is_idempotent_and_keeps_user_models(with_model: Any) -> None:
    register_target_interfaces()
    first = get_external_model(NVVMTargetAttr, TargetAttrInterface)
    register_target_interfaces()
    assert get_external_model(NVVMTargetAttr, TargetAttrInterface) is first
    mine = _ToyTargetImpl()
    with_model(NVVMTargetAttr, TargetAttrInterface, mine)
    register_target_interfaces()
    assert get_external_model(NVVMTargetAttr, TargetAttrInterface) is mine


def test_registration_after_unregistering_restores(without_model: Any) -> None:
    without_model(SelectBestAttr, OffloadingTranslationAttrInterface)
    register_target_interfaces()
    assert isinstance(
        lookup(SelectBestAttr(), OffloadingTranslationAttrInterface),
        SelectBestAttrImpl,
    )


# ---------------------------------------------------------------------------------
# gpu-module-to-binary through TargetAttrInterface
# ---------------------------------------------------------------------------------

ROCDL_MODULE = """
gpu.module @amd [#rocdl.target<chip = "gfx90a">] {
}
"""

NVVM_MODULE = """
gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
  llvm.func @k() attributes {gpu.kernel, nvvm.kernel} {
    llvm.return
  }
}
"""


def _to_binary(text: str, **options: Any) -> str:
    module = parse(text)
    GpuModuleToBinaryPass(**options).apply(Context(), module)
    return print_module(module)


def test_rocdl_has_no_serializer() -> None:
    with pytest.raises(PassFailedException) as info:
        _to_binary(ROCDL_MODULE)
    assert str(info.value) == (
        "'gpu.module' op the target attribute #rocdl.target<chip = \"gfx90a\"> has "
        "no serializer registered: xdsl-gpu serializes only #nvvm.target"
    )
    # The error is about the gpu.module (for the located diagnostic).
    assert getattr(info.value, "failing_op").name == "gpu.module"


def test_unregistered_nvvm_says_how_to_register(without_model: Any) -> None:
    without_model(NVVMTargetAttr, TargetAttrInterface)
    with pytest.raises(PassFailedException) as info:
        _to_binary(NVVM_MODULE)
    message = str(info.value)
    assert message.startswith(
        "'gpu.module' op the target attribute #nvvm.target<chip = \"sm_90\"> has no "
        "serializer registered"
    )
    assert "xdsl_gpu.register_dialects(ctx)" in message
    assert "xdsl_gpu.targets.register_target_interfaces()" in message


def test_a_new_target_plugs_in(with_model: Any) -> None:
    """What docs/targets.md shows: a model for #rocdl.target, and the pass uses it."""
    with_model(ROCDLTargetAttr, TargetAttrInterface, _ToyTargetImpl())
    text = _to_binary(ROCDL_MODULE, format="isa")
    assert (
        'gpu.binary @amd [#gpu.object<#rocdl.target<chip = "gfx90a">, '
        'assembly = "amd for rocdl.target">]'
    ) in text


def test_targets_options_reach_the_model(with_model: Any) -> None:
    seen: list[TargetOptions] = []

    class Recorder(_ToyTargetImpl):
        def serialize_to_object(
            self, attr: Attribute, module: Operation, options: TargetOptions
        ) -> bytes | None:
            seen.append(options)
            return b""

    with_model(ROCDLTargetAttr, TargetAttrInterface, Recorder())
    _to_binary(
        ROCDL_MODULE,
        format="bin",
        toolkit="/tk",
        l=("a.bc",),
        opts="-v",
        section="s",
    )
    assert seen == [
        TargetOptions(
            compilation_target=CompilationTarget.Binary,
            toolkit_path="/tk",
            libraries_to_link=("a.bc",),
            cmd_options="-v",
            elf_section="s",
        )
    ]


def test_serializer_failures_are_diagnostics_at_the_module(with_model: Any) -> None:
    class Failing(_ToyTargetImpl):
        def serialize_to_object(
            self, attr: Attribute, module: Operation, options: TargetOptions
        ) -> bytes | None:
            raise UserError("the assembler is missing")

    class ReturnsNone(_ToyTargetImpl):
        def serialize_to_object(
            self, attr: Attribute, module: Operation, options: TargetOptions
        ) -> bytes | None:
            return None

    with_model(ROCDLTargetAttr, TargetAttrInterface, Failing())
    with pytest.raises(
        PassFailedException, match=r"^gpu\.module @amd: the assembler is missing$"
    ):
        _to_binary(ROCDL_MODULE)
    with_model(ROCDLTargetAttr, TargetAttrInterface, ReturnsNone())
    with pytest.raises(PassFailedException, match="error happened while serializing"):
        _to_binary(ROCDL_MODULE)


def test_marker_only_target_has_no_serializer() -> None:
    """An attribute deriving from the interface without implementing it."""

    @irdl_attr_definition
    class MarkerTargetAttr(ParametrizedAttribute, TargetAttrInterface):
        name = "test.marker_target"

    from xdsl_gpu.gpu_dialect.gpu.kernel_ops import ModuleOp as GPUModuleOp
    from xdsl_gpu.passes.gpu_module_to_binary import serialize_module

    module = parse(ROCDL_MODULE)
    gpu_module = next(op for op in module.walk() if isinstance(op, GPUModuleOp))
    options = TargetOptions(compilation_target=CompilationTarget.Fatbin)
    with pytest.raises(PassFailedException, match="has no serializer registered"):
        serialize_module(gpu_module, MarkerTargetAttr(), options)


def test_nvvm_serializes_through_the_interface() -> None:
    text = _to_binary(NVVM_MODULE, format="isa", section="ptx_section")
    assert 'gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90">' in text
    assert "properties = {O = 2 : i32, LLVMIRToISATimeInMs = " in text
    assert 'section = "ptx_section"' in text
    assert "assembly = " in text
    assert ".entry k" in text


def test_compilation_target_options() -> None:
    assert CompilationTarget.from_option("isa") is CompilationTarget.Assembly
    assert CompilationTarget.from_option("offloading") is CompilationTarget.Offload
    assert CompilationTarget.from_option("binary") is CompilationTarget.Binary
    assert CompilationTarget.from_option("fatbin") is CompilationTarget.Fatbin
    with pytest.raises(UserError, match="Invalid format specified: 'elf'"):
        CompilationTarget.from_option("elf")


# ---------------------------------------------------------------------------------
# The offloading translation through OffloadingTranslationAttrInterface
# ---------------------------------------------------------------------------------

HOST = """
module attributes {gpu.container_module} {
  gpu.binary @kernels {HANDLER} [#gpu.object<#nvvm.target<chip = "sm_90">, bin = "x">]
  llvm.func @run(%n: i64) {
    gpu.launch_func @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n) : i64
    llvm.return
  }
}
"""


def test_unregistered_select_object_says_how_to_register(without_model: Any) -> None:
    without_model(SelectObjectAttr, OffloadingTranslationAttrInterface)
    module = parse(HOST.replace("{HANDLER}", ""))
    with pytest.raises(OffloadingError) as info:
        lower_offloading(module)
    message = str(info.value)
    assert "offloading handler #gpu.select_object is not supported" in message
    assert "xdsl_gpu.targets.register_target_interfaces()" in message


def test_handlers_are_asked(with_model: Any) -> None:
    calls: list[str] = []

    class Recorder(OffloadingTranslationAttrInterface):
        def embed_binary(
            self, attr: Attribute, binary_op: Operation, host_builder: Any
        ) -> None:
            calls.append(f"embed {attr}")

        def launch_kernel(
            self,
            attr: Attribute,
            launch_func_op: Operation,
            binary_op: Operation,
            host_builder: Any,
        ) -> None:
            calls.append(f"launch {attr}")
            launch_func_op.detach()
            launch_func_op.erase()

    with_model(SelectBestAttr, OffloadingTranslationAttrInterface, Recorder())
    module = parse(HOST.replace("{HANDLER}", "<#xgpu.select_best>"))
    lower_offloading(module)
    assert calls == ["launch #xgpu.select_best", "embed #xgpu.select_best"]


def test_default_handler_embeds_the_object() -> None:
    register_target_interfaces()
    module = parse(HOST.replace("{HANDLER}", ""))
    lower_offloading(module)
    text = print_module(module)
    assert "@kernels_binary" in text
    assert "mgpuLaunchKernel" in text
    assert "gpu.binary" not in text
    assert "gpu.launch_func @kernels::@k blocks" not in text
