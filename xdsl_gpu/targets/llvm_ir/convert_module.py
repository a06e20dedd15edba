"""A module of llvm-dialect ops → an LLVM IR module (text), for the host or NVPTX.

What ``mlir-translate --mlir-to-llvmir`` does for the llvm (and nvvm) dialect, in the
shape of xDSL's ``xdsl/backend/llvm/convert.py``: globals first, then function
declarations, then bodies; ``convert_module`` is the entry point.

Covered at module level:

* ``llvm.mlir.global``: linkage, visibility, ``dso_local``, ``thread_local``,
  ``unnamed_addr``, address space, ``externally_initialized``, constant, section,
  alignment; initializers from the value attribute or from the initializer region
  (constants, ``undef``/``poison``/``zero``, ``addressof``, ``insertvalue``);
* ``llvm.mlir.global_ctors``/``global_dtors`` → ``@llvm.global_ctors``/``dtors``;
* ``llvm.func``: linkage, visibility, ``unnamed_addr``, calling convention, argument
  and result attributes (``llvm.noalias``, ``llvm.align``, ``llvm.byval`` …),
  ``passthrough``, ``no_inline``/``always_inline``/``no_unwind``/``optimize_none``,
  ``target_cpu``/``target_features``/``frame_pointer``, section, alignment;
* NVVM: a function with ``nvvm.kernel`` gets the ``ptx_kernel`` calling convention
  (LLVM 22's kernel marker; no ``nvvm.annotations``), and ``nvvm.maxntid``,
  ``nvvm.reqntid``, ``nvvm.minctasm``, ``nvvm.maxnreg``, ``nvvm.cluster_dim``,
  ``nvvm.cluster_max_blocks`` (``"nvvm.maxclusterrank"``), ``nvvm.blocksareclusters``
  become the string function attributes LLVM 22's NVPTX backend reads
  (``"nvvm.maxntid"="128,1,1"``); an ``nvvm.grid_constant`` argument gets the
  ``"nvvm.grid_constant"`` parameter attribute.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
)
from xdsl.dialects.llvm import (
    LLVMArrayType,
    LLVMFunctionType,
    LLVMPointerType,
    LLVMStructType,
)
from xdsl.ir import Attribute, Operation, SSAValue

from xdsl_gpu.diagnostics import at_op, lowering_hint
from xdsl_gpu.targets.llvm_ir.convert_op import (
    FunctionEmitter,
    constant_literal,
)
from xdsl_gpu.targets.llvm_ir.convert_type import (
    LLVMIRTranslationError,
    convert_type,
    identifier,
    struct_body,
)

NVPTX_TRIPLE = "nvptx64-nvidia-cuda"
NVPTX_DATA_LAYOUT = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
"""What LLVM 22's NVPTX target machine reports for ``nvptx64-nvidia-cuda``."""

_ARG_FLAGS = {
    "llvm.noalias": "noalias",
    "llvm.nonnull": "nonnull",
    "llvm.noundef": "noundef",
    "llvm.nocapture": "captures(none)",
    "llvm.nofree": "nofree",
    "llvm.readonly": "readonly",
    "llvm.writeonly": "writeonly",
    "llvm.readnone": "readnone",
    "llvm.returned": "returned",
    "llvm.signext": "signext",
    "llvm.zeroext": "zeroext",
    "llvm.inreg": "inreg",
    "llvm.nest": "nest",
    "llvm.immarg": "immarg",
    "llvm.noinline": "noinline",
}
_ARG_INTS = {
    "llvm.align": "align",
    "llvm.dereferenceable": "dereferenceable",
    "llvm.dereferenceable_or_null": "dereferenceable_or_null",
    "llvm.stackalignment": "alignstack",
}
_ARG_TYPES = {
    "llvm.byval": "byval",
    "llvm.byref": "byref",
    "llvm.sret": "sret",
    "llvm.inalloca": "inalloca",
    "llvm.preallocated": "preallocated",
    "llvm.elementtype": "elementtype",
}
_FUNC_FLAGS = {
    "no_inline": "noinline",
    "always_inline": "alwaysinline",
    "inline_hint": "inlinehint",
    "no_unwind": "nounwind",
    "will_return": "willreturn",
    "optimize_none": "optnone",
    "convergent": "convergent",
    "no_signed_zeros_fp_math": '"no-signed-zeros-fp-math"="true"',
}
_FUNC_STRINGS = {
    "target_cpu": "target-cpu",
    "tune_cpu": "tune-cpu",
}
_NVVM_DIMS = ("nvvm.maxntid", "nvvm.reqntid", "nvvm.cluster_dim")
_NVVM_INTS = {
    "nvvm.minctasm": "nvvm.minctasm",
    "nvvm.maxnreg": "nvvm.maxnreg",
    "nvvm.cluster_max_blocks": "nvvm.maxclusterrank",
}
"""nvvm function attribute → the LLVM 22 string attribute NVPTX reads."""
_NVVM_FLAGS = ("nvvm.blocksareclusters",)


class ModuleEmitter:
    """Collects the parts of one LLVM IR module while its ops are translated."""

    def __init__(self) -> None:
        self.globals: dict[str, str] = {}
        """Symbol name → reference (``@name``), for ``addressof`` and calls."""
        self._declarations: dict[str, str] = {}
        self._defined: set[str] = set()
        self._metadata: dict[str, str] = {}

    def global_ref(self, name: str) -> str:
        if name not in self.globals:
            raise LLVMIRTranslationError(f"symbol @{name} is not defined in the module")
        return self.globals[name]

    def declare(self, name: str, ret: str, args: Sequence[str]) -> str:
        """Declare an intrinsic or external function once; its reference."""
        ref = identifier(name, "@")
        if name not in self._defined and name not in self._declarations:
            self._declarations[name] = f"declare {ret} {ref}({', '.join(args)})"
        return ref

    def metadata(self, node: str) -> str:
        """A module-level metadata node (deduplicated); its reference ``!N``."""
        if node not in self._metadata:
            self._metadata[node] = f"!{len(self._metadata)}"
        return self._metadata[node]

    def footer(self) -> list[str]:
        lines = list(self._declarations.values())
        lines += [f"{ref} = {node}" for node, ref in self._metadata.items()]
        return lines


# --------------------------------------------------------------------------------------
# Globals
# --------------------------------------------------------------------------------------


def _int_prop(op: Operation, name: str, default: int = 0) -> int:
    a = op.properties.get(name)
    return a.value.data if isinstance(a, IntegerAttr) else default


def _global_initializer(op: Operation, module: ModuleEmitter) -> str | None:
    value = op.properties.get("value")
    global_type = op.properties["global_type"]
    if value is not None:
        return constant_literal(value, global_type)
    region = op.regions[0] if op.regions else None
    if region is None or not region.blocks:
        return None
    return _fold_initializer(region.blocks[0].ops, module)


def _fold_initializer(ops: Iterable[Operation], module: ModuleEmitter) -> str:
    """Evaluate an initializer region to a constant. LLVM has no ``insertvalue``
    constant expression any more, so aggregates are folded here: a value is either a
    finished literal or the list of its element literals."""
    values: dict[SSAValue, str | list[str]] = {}

    def text(v: SSAValue) -> str:
        c = values[v]
        if isinstance(c, str):
            return c
        parts = [
            f"{convert_type(t)} {e}"
            for e, t in zip(c, _element_types(v.type), strict=True)
        ]
        if isinstance(v.type, LLVMStructType):
            return "{ " + ", ".join(parts) + " }"
        return "[" + ", ".join(parts) + "]"

    for op in ops:
        match op.name:
            case "llvm.mlir.constant":
                values[op.results[0]] = constant_literal(
                    op.properties["value"], op.results[0].type
                )
            case "llvm.mlir.undef" | "llvm.mlir.poison":
                values[op.results[0]] = op.name.rsplit(".", 1)[1]
            case "llvm.mlir.zero":
                # LLVM prints a null pointer as `null`, as upstream does.
                is_ptr = isinstance(op.results[0].type, LLVMPointerType)
                values[op.results[0]] = "null" if is_ptr else "zeroinitializer"
            case "llvm.mlir.addressof":
                ref = op.properties["global_name"]
                assert isinstance(ref, SymbolRefAttr)
                values[op.results[0]] = module.global_ref(ref.root_reference.data)
            case "llvm.insertvalue":
                container, value = op.operands
                base = values[container]
                n = len(_element_types(container.type))
                elts = list(base) if isinstance(base, list) else [base] * n
                position = op.properties["position"]
                assert isinstance(position, DenseArrayBase)
                index = position.get_values()
                if len(index) != 1:
                    raise LLVMIRTranslationError(
                        "global initializers with nested insertvalue positions"
                    )
                elts[int(index[0])] = text(value)
                values[op.results[0]] = elts
            case "llvm.return":
                return text(op.operands[0])
            case _:
                raise LLVMIRTranslationError(
                    f"'{op.name}' in a global's initializer region has no constant "
                    "form here"
                )
    raise LLVMIRTranslationError(
        "a global's initializer region must end in llvm.return"
    )


def _element_types(t: Attribute) -> list[Attribute]:
    if isinstance(t, LLVMStructType):
        return list(t.types.data)
    if isinstance(t, LLVMArrayType):
        return [t.type] * t.size.data
    raise LLVMIRTranslationError(f"insertvalue into {t}")


def _convert_global(op: Operation, module: ModuleEmitter) -> str:
    p = op.properties
    name = p["sym_name"].data  # pyright: ignore
    linkage = p["linkage"].linkage.data  # pyright: ignore
    init = _global_initializer(op, module)
    words = [identifier(name, "@"), "="]
    if init is None and linkage in ("external", "extern_weak"):
        words.append(linkage)
    elif linkage != "external":
        words.append(linkage)
    if p.get("dso_local") is not None:  # LLVM wants it before the visibility
        words.append("dso_local")
    visibility = _int_prop(op, "visibility_")
    if visibility:
        words.append({1: "hidden", 2: "protected"}[visibility])
    if p.get("thread_local_") is not None:
        words.append("thread_local")
    unnamed = _int_prop(op, "unnamed_addr")
    if unnamed:
        words.append({1: "local_unnamed_addr", 2: "unnamed_addr"}[unnamed])
    space = _int_prop(op, "addr_space")
    if space:
        words.append(f"addrspace({space})")
    if p.get("externally_initialized") is not None:
        words.append("externally_initialized")
    words.append("constant" if p.get("constant") is not None else "global")
    words.append(convert_type(p["global_type"]))
    if init is not None:
        words.append(init)
    elif linkage not in ("external", "extern_weak"):
        words.append("undef")
    line = " ".join(words)
    if isinstance(section := p.get("section"), StringAttr):
        line += f', section "{section.data}"'
    if align := _int_prop(op, "alignment"):
        line += f", align {align}"
    return line


def _convert_xtors(op: Operation, module: ModuleEmitter) -> list[str]:
    """The ``{ i32, ptr, ptr }`` entries of one ``global_ctors``/``dtors`` op."""
    kind = "ctors" if op.name.endswith("ctors") else "dtors"
    funcs = op.properties[kind]
    priorities = op.properties["priorities"]
    data = op.properties.get("data")
    assert isinstance(funcs, ArrayAttr)
    assert isinstance(priorities, ArrayAttr)
    entries: list[str] = []
    for i, (fn, prio) in enumerate(zip(funcs, priorities, strict=True)):
        d = "null"
        if isinstance(data, ArrayAttr) and i < len(data):
            item = data.data[i]
            if item.name != "llvm.zero":
                d = module.global_ref(item.root_reference.data)  # pyright: ignore
        assert isinstance(prio, IntegerAttr)
        entries.append(
            f"{{ i32, ptr, ptr }} {{ i32 {prio.value.data}, ptr "
            f"{module.global_ref(fn.root_reference.data)}, ptr {d} }}"  # pyright: ignore
        )
    return entries


def _xtors_global(kind: str, entries: list[str]) -> str:
    array = f"[{len(entries)} x {{ i32, ptr, ptr }}]"
    return f"@llvm.global_{kind} = appending global {array} [{', '.join(entries)}]"


# --------------------------------------------------------------------------------------
# Functions
# --------------------------------------------------------------------------------------


def _param_attrs(attrs: Attribute | None) -> list[str]:
    if not isinstance(attrs, DictionaryAttr):
        return []
    out: list[str] = []
    for key, value in attrs.data.items():
        if key in _ARG_FLAGS:
            out.append(_ARG_FLAGS[key])
        elif key in _ARG_INTS and isinstance(value, IntegerAttr):
            out.append(
                f"{_ARG_INTS[key]}({value.value.data})"
                if key == "llvm.stackalignment" or key.startswith("llvm.deref")
                else f"{_ARG_INTS[key]} {value.value.data}"
            )
        elif key in _ARG_TYPES:
            out.append(f"{_ARG_TYPES[key]}({convert_type(value)})")
        elif key == "nvvm.grid_constant":
            out.append('"nvvm.grid_constant"')
        elif key == "llvm.range" and value.name == "llvm.constant_range":
            out.append(
                f"range({convert_type(getattr(value, 'int_type'))} "
                f"{getattr(value, 'lower')}, {getattr(value, 'upper')})"
            )
    return out


def _dims(value: Attribute) -> str:
    if isinstance(value, DenseArrayBase):
        return ",".join(str(v) for v in value.get_values())
    if isinstance(value, ArrayAttr):
        return ",".join(str(v.value.data) for v in value if isinstance(v, IntegerAttr))
    if isinstance(value, IntegerAttr):
        return str(value.value.data)
    raise LLVMIRTranslationError(f"expected an array of dimensions, got {value}")


def _function_attrs(op: Operation) -> list[str]:
    p, a = op.properties, op.attributes
    attrs: list[str] = []
    for key, word in _FUNC_FLAGS.items():
        if p.get(key) is not None or key in a:
            attrs.append(word)
    for key, word in _FUNC_STRINGS.items():
        if isinstance(v := p.get(key) or a.get(key), StringAttr):
            attrs.append(f'"{word}"="{v.data}"')
    if (tf := p.get("target_features") or a.get("target_features")) is not None:
        features = getattr(tf, "features", None)
        if isinstance(features, ArrayAttr):
            attrs.append(
                '"target-features"="'
                + ",".join(s.data for s in features if isinstance(s, StringAttr))
                + '"'
            )
    if (fp := p.get("frame_pointer") or a.get("frame_pointer")) is not None:
        attrs.append(f'"frame-pointer"="{getattr(fp, "data").value}"')
    passthrough = p.get("passthrough") or a.get("passthrough")
    if isinstance(passthrough, ArrayAttr):
        for item in passthrough:
            if isinstance(item, StringAttr):
                attrs.append(item.data)
            elif isinstance(item, ArrayAttr) and len(item) == 2:
                key, value = item.data
                assert isinstance(key, StringAttr)
                assert isinstance(value, StringAttr)
                attrs.append(f'"{key.data}"="{value.data}"')
    for key in _NVVM_DIMS:
        if key in a:
            attrs.append(f'"{key}"="{_dims(a[key])}"')
    for key, llvm_key in _NVVM_INTS.items():
        if isinstance(v := a.get(key), IntegerAttr):
            attrs.append(f'"{llvm_key}"="{v.value.data}"')
    attrs += [f'"{key}"' for key in _NVVM_FLAGS if key in a]
    return attrs


def _is_kernel(op: Operation) -> bool:
    return isinstance(op.attributes.get("nvvm.kernel"), UnitAttr) or (
        "nvvm.kernel" in op.attributes
    )


def _function_header(op: Operation) -> tuple[str, list[str]]:
    p = op.properties
    name = p["sym_name"].data  # pyright: ignore
    ftype = p["function_type"]
    assert isinstance(ftype, LLVMFunctionType)
    is_definition = bool(op.regions and op.regions[0].blocks)
    linkage = p["linkage"].linkage.data  # pyright: ignore
    words = ["define" if is_definition else "declare"]
    if linkage != "external":
        words.append(linkage)
    if "dso_local" in op.attributes or p.get("dso_local") is not None:
        words.append("dso_local")
    if vis := _int_prop(op, "visibility_"):
        words.append({1: "hidden", 2: "protected"}[vis])
    cconv = p.get("CConv")
    conv = cconv.convention.data if cconv is not None else "ccc"  # pyright: ignore
    if _is_kernel(op):
        conv = "ptx_kernel"
    if conv != "ccc":
        words.append(conv)
    res_attrs = p.get("res_attrs")
    if isinstance(res_attrs, ArrayAttr) and res_attrs.data:
        words += _param_attrs(res_attrs.data[0])
    words.append(convert_type(ftype.output))
    arg_attrs = p.get("arg_attrs")
    arg_names = [f"%arg{i}" for i in range(len(ftype.inputs))]
    params: list[str] = []
    for i, t in enumerate(ftype.inputs.data):
        attrs = (
            _param_attrs(arg_attrs.data[i])
            if isinstance(arg_attrs, ArrayAttr) and i < len(arg_attrs)
            else []
        )
        param = " ".join([convert_type(t), *attrs])
        params.append(f"{param} {arg_names[i]}" if is_definition else param)
    if ftype.is_variadic:
        params.append("...")
    header = " ".join(words) + f" {identifier(name, '@')}({', '.join(params)})"
    if unnamed := _int_prop(op, "unnamed_addr"):
        header += " " + {1: "local_unnamed_addr", 2: "unnamed_addr"}[unnamed]
    if fattrs := _function_attrs(op):
        header += " " + " ".join(fattrs)
    if isinstance(section := p.get("section"), StringAttr):
        header += f' section "{section.data}"'
    if align := _int_prop(op, "alignment"):
        header += f" align {align}"
    return header, arg_names


def _convert_function(op: Operation, module: ModuleEmitter) -> list[str]:
    header, args = _function_header(op)
    if not (op.regions and op.regions[0].blocks):
        return [header]
    body = FunctionEmitter(module).emit_body(list(op.regions[0].blocks), args)
    return [header + " {", *body, "}"]


# --------------------------------------------------------------------------------------
# The module
# --------------------------------------------------------------------------------------

_SKIPPED = frozenset(
    # A nested builtin.module (the emptied transform script a schedule leaves)
    # translates to nothing, as in mlir-translate.
    {"llvm.module_flags", "llvm.comdat", "llvm.mlir.ident", "builtin.module"}
)


def module_body(module: Operation) -> list[Operation]:
    """The ops of a ``builtin.module`` or of a module-like op (``gpu.module``)."""
    if not module.regions or not module.regions[0].blocks:
        return []
    return list(module.regions[0].blocks[0].ops)


def convert_module(
    module: ModuleOp | Operation,
    *,
    triple: str | None = None,
    data_layout: str | None = None,
    module_name: str = "LLVMDialectModule",
) -> str:
    """Translate a module of llvm-dialect (and nvvm) ops to LLVM IR text.

    Args:
        module: a ``builtin.module``, or another op with one region holding the
            module's ops (a ``gpu.module``).
        triple: the target triple. ``llvm.target_triple`` on the module wins; with
            neither, the host's (llvmlite's default triple).
        data_layout: the data layout; ``llvm.data_layout`` on the module wins; with
            neither, none is written (LLVM's default).
        module_name: the ``ModuleID``/``source_filename``.

    Returns:
        LLVM IR text that ``llvmlite.binding.parse_assembly`` reads (see
        :func:`parse_module`).

    Raises:
        LLVMIRTranslationError: for an op, type or attribute without LLVM IR form;
            the message names it.
    """
    if isinstance(t := module.attributes.get("llvm.target_triple"), StringAttr):
        triple = t.data
    if triple is None:
        import llvmlite.binding as llvm

        triple = llvm.get_default_triple()
    if isinstance(dl := module.attributes.get("llvm.data_layout"), StringAttr):
        data_layout = dl.data

    emitter = ModuleEmitter()
    ops = module_body(module)
    named_structs: dict[str, LLVMStructType] = {}
    for op in ops:
        for t in _types_of(op):
            _collect_named_structs(t, named_structs)
        if op.name in ("llvm.mlir.global", "llvm.func", "llvm.mlir.alias"):
            name = op.properties["sym_name"].data  # pyright: ignore
            emitter.globals[name] = identifier(name, "@")
            if op.name == "llvm.func":
                emitter._defined.add(name)

    lines = [
        f"; ModuleID = '{module_name}'",
        f'source_filename = "{module_name}"',
    ]
    if data_layout:
        lines.append(f'target datalayout = "{data_layout}"')
    lines.append(f'target triple = "{triple}"')
    lines.append("")
    lines += [
        f"{identifier(n, '%')} = type {struct_body(s)}"
        for n, s in named_structs.items()
    ]
    for op in ops:
        if op.name == "llvm.mlir.global":
            with _in_symbol(op):
                lines.append(_convert_global(op, emitter))
    # Several ctors/dtors ops append to one global, as in mlir-translate.
    xtors: dict[str, list[str]] = {}
    for op in ops:
        if op.name in ("llvm.mlir.global_ctors", "llvm.mlir.global_dtors"):
            with _in_symbol(op):
                xtors.setdefault(op.name[-5:], []).extend(_convert_xtors(op, emitter))
    lines += [_xtors_global(kind, entries) for kind, entries in xtors.items()]
    for op in ops:
        if op.name == "llvm.func":
            lines.append("")
            with _in_symbol(op):
                lines += _convert_function(op, emitter)
        elif op.name not in (
            "llvm.mlir.global",
            "llvm.mlir.global_ctors",
            "llvm.mlir.global_dtors",
            *_SKIPPED,
        ):
            raise at_op(
                LLVMIRTranslationError(
                    f"'{op.name}' at module level has no LLVM IR translation; "
                    f"{lowering_hint(op.name)}"
                ),
                op,
            )
    footer = emitter.footer()
    if footer:
        lines.append("")
        lines += footer
    return "\n".join(lines) + "\n"


@contextmanager
def _in_symbol(op: Operation) -> Iterator[None]:
    """Name the global or function in errors raised while translating it."""
    try:
        yield
    except LLVMIRTranslationError as e:
        name = op.properties.get("sym_name")
        where = f"@{name.data}" if isinstance(name, StringAttr) else f"'{op.name}'"
        error = LLVMIRTranslationError(f"in {where}: {e}")
        raise at_op(error, getattr(e, "failing_op", op)) from None


def _types_of(op: Operation) -> list[Attribute]:
    types: list[Attribute] = [r.type for r in op.results]
    for key in ("global_type", "function_type", "elem_type"):
        if (t := op.properties.get(key)) is not None:
            types.append(t)
    for region in op.regions:
        for inner in region.walk():
            types += [r.type for r in inner.results]
            for key in ("elem_type",):
                if (t := inner.properties.get(key)) is not None:
                    types.append(t)
    return types


def _collect_named_structs(t: Attribute, out: dict[str, LLVMStructType]) -> None:
    if isinstance(t, LLVMStructType):
        if t.struct_name.data and t.struct_name.data not in out:
            out[t.struct_name.data] = t
        for e in t.types.data:
            _collect_named_structs(e, out)
    elif isinstance(t, LLVMFunctionType):
        for e in [*t.inputs.data, t.output]:
            _collect_named_structs(e, out)
    elif (inner := getattr(t, "type", None)) is not None and isinstance(
        inner, Attribute
    ):
        _collect_named_structs(inner, out)


def parse_module(llvm_ir: str):  # -> llvmlite.binding.ModuleRef
    """Parse and verify LLVM IR with llvmlite; a verifier error becomes an
    :class:`LLVMIRTranslationError` quoting LLVM's message."""
    import llvmlite.binding as llvm

    try:
        ref = llvm.parse_assembly(llvm_ir)
        ref.verify()
    except RuntimeError as e:
        raise LLVMIRTranslationError(f"LLVM rejected the translated module: {e}") from e
    return ref
