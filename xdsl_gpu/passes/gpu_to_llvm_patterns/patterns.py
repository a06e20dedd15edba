"""One pattern per host-side gpu op of ``gpu-to-llvm``.

Each pattern takes the op's stream from :class:`~.streams.Streams` (which also makes it
wait for its other dependencies), emits the ``mgpu*`` call, and replaces the op's
token by the stream. Synchronous ops are lowered too (upstream leaves them in place):
``gpu.alloc``/``gpu.dealloc`` without dependencies pass a null stream (the runtime's
allocation and free are synchronous), ``gpu.memcpy``/``gpu.memset`` run on a temporary
stream that is synchronized and destroyed; with dependencies, any op runs on the
stream of its dependencies and the host then synchronizes that stream.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.dialects.builtin import (
    AnyFloat,
    IntegerType,
    MemRefType,
    UnrankedMemRefType,
    i8,
    i16,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from xdsl_gpu.gpu_dialect import llvm
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import LaunchFuncOp, LaunchOp
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import ModuleOp as GpuModuleOp
from xdsl_gpu.gpu_dialect.gpu.memory_ops import (
    AllocOp,
    DeallocOp,
    HostRegisterOp,
    HostUnregisterOp,
    MemcpyOp,
    MemsetOp,
    SetDefaultDeviceOp,
    WaitOp,
)
from xdsl_gpu.gpu_dialect.gpu.types import (
    AsyncTokenType,
    SparseDnTensorHandleType,
    SparseSpGEMMOpHandleType,
    SparseSpMatHandleType,
)
from xdsl_gpu.passes.finalize_memref_to_llvm import MemRefLoweringOptions
from xdsl_gpu.passes.gpu_to_llvm_patterns.runtime import PTR, RuntimeCalls, error
from xdsl_gpu.passes.gpu_to_llvm_patterns.streams import StreamOp, StreamPlan, Streams
from xdsl_gpu.passes.llvm_type_converter import LLVMTypeConverter, replace_op, to_llvm
from xdsl_gpu.passes.memref_descriptor import (
    MemRefDescriptor,
    UnrankedMemRefDescriptor,
    gep,
    index_constant,
    int_constant,
    is_identity_layout,
    mul,
    ptr_type,
)

_HANDLES = (
    AsyncTokenType,
    SparseDnTensorHandleType,
    SparseSpMatHandleType,
    SparseSpGEMMOpHandleType,
)


@dataclass(frozen=True)
class HostTypeConverter(LLVMTypeConverter):
    """The std→LLVM type converter plus gpu-to-llvm's opaque handles: a token (and a
    sparse handle) is an ``!llvm.ptr``, as upstream's ``addOpaquePointerConversion``."""

    def convert_type(self, t: Attribute) -> Attribute | None:
        if isinstance(t, _HANDLES):
            return PTR
        return super().convert_type(t)


@dataclass
class HostLowering:
    """What every pattern of the pass shares."""

    converter: HostTypeConverter
    memref: MemRefLoweringOptions
    runtime: RuntimeCalls
    streams: Streams
    kernel_bare_pointers: bool
    intersperse_sizes: bool

    @property
    def plan(self) -> StreamPlan:
        return self.streams.plan

    def call(
        self, rewriter: PatternRewriter, op: Operation, name: str, *args: SSAValue
    ) -> SSAValue | None:
        return self.runtime.call(rewriter, op, name, args)

    def null(self, rewriter: PatternRewriter) -> SSAValue:
        return rewriter.insert(llvm.ZeroOp.build(result_types=[PTR])).res

    def descriptor(
        self, rewriter: PatternRewriter, op: Operation, value: SSAValue
    ) -> MemRefDescriptor:
        assert isinstance(value.type, MemRefType)
        return MemRefDescriptor(
            to_llvm(value, self.memref.descriptor_type(op, value.type), rewriter)
        )

    def generic_ptr(self, rewriter: PatternRewriter, pointer: SSAValue) -> SSAValue:
        """``pointer`` in address space 0, where the runtime takes it."""
        if pointer.type == PTR:
            return pointer
        return rewriter.insert(llvm.AddrSpaceCastOp(pointer, PTR)).results[0]

    def num_elements(
        self,
        rewriter: PatternRewriter,
        memref_type: MemRefType,
        desc: MemRefDescriptor,
    ) -> SSAValue:
        """Static: a constant; dynamic: the product of the sizes (MLIR 22)."""
        index = self.converter.index_type
        if memref_type.has_static_shape():
            return index_constant(rewriter, index, prod(memref_type.get_shape()))
        sizes = [desc.size(rewriter, i) for i in range(memref_type.get_num_dims())]
        total = sizes[0]
        for size in sizes[1:]:
            total = mul(rewriter, total, size)
        return total

    def require_identity(self, op: Operation, t: MemRefType, what: str) -> None:
        if not is_identity_layout(t):
            raise error(
                op,
                f"needs {what} with the identity layout, not '{t}': the runtime "
                "works on contiguous buffers (copy through an identity-layout "
                "memref first)",
            )


class HostPattern(RewritePattern):
    def __init__(self, lowering: HostLowering):
        self.lowering = lowering


class WaitLowering(HostPattern):
    """``gpu.wait``: synchronize and destroy each stream or event;
    ``gpu.wait async``: a new stream that waits for every dependency."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, WaitOp):
            return
        lowering = self.lowering
        if op.async_token is None:
            for dep in op.async_dependencies:
                value = to_llvm(dep, PTR, rewriter)
                kind = "Stream" if lowering.streams.is_stream(dep) else "Event"
                lowering.call(rewriter, op, f"mgpu{kind}Synchronize", value)
                lowering.call(rewriter, op, f"mgpu{kind}Destroy", value)
            replace_op(op, [], [], rewriter)
            return
        stream = lowering.streams.create(rewriter, op)
        lowering.streams.wait_for(rewriter, op, stream, op.async_dependencies)
        lowering.streams.finish(rewriter, op)
        replace_op(op, [], [stream], rewriter)


def _token(op: StreamOp, stream: SSAValue | None) -> list[SSAValue]:
    if op.async_token is None:
        return []
    assert stream is not None
    return [stream]


class AllocLowering(HostPattern):
    """``gpu.alloc``: ``mgpuMemAlloc(bytes, stream, host_shared)`` and a descriptor
    with offset 0 and row-major strides."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, AllocOp):
            return
        lowering = self.lowering
        t = op.memref.type
        assert isinstance(t, MemRefType)
        host_shared = op.host_shared is not None
        if host_shared and op.async_token is not None:
            raise error(
                op,
                "is async and host_shared: Host Shared allocation cannot be done "
                "async (managed memory is allocated synchronously): drop `async` "
                "and its dependencies",
            )
        lowering.require_identity(op, t, "a memref type")
        struct = lowering.memref.descriptor_type(op, t)
        element = lowering.memref.element_type(op, t)
        index = lowering.converter.index_type
        dynamic = [to_llvm(s, index, rewriter) for s in op.dynamic_sizes]
        stream, temporary = lowering.streams.acquire(rewriter, op)
        sizes, strides, size_bytes = lowering.memref.descriptor_sizes(
            rewriter, t, dynamic, element, in_bytes=True
        )
        stream_arg = stream if stream is not None else lowering.null(rewriter)
        shared = int_constant(rewriter, i8, int(host_shared))
        pointer = lowering.call(
            rewriter, op, "mgpuMemAlloc", size_bytes, stream_arg, shared
        )
        assert pointer is not None
        space = lowering.memref.address_space(op, t)
        if space != 0:
            pointer = rewriter.insert(
                llvm.AddrSpaceCastOp(pointer, ptr_type(space))
            ).results[0]
        desc = lowering.memref.descriptor(
            rewriter, struct, pointer, pointer, sizes, strides
        )
        lowering.streams.settle(rewriter, op, stream, temporary)
        replace_op(op, [], [desc.value, *_token(op, stream)], rewriter)


class DeallocLowering(HostPattern):
    """``gpu.dealloc``: ``mgpuMemFree(allocated, stream)``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, DeallocOp):
            return
        lowering = self.lowering
        desc = lowering.descriptor(rewriter, op, op.memref)
        stream, temporary = lowering.streams.acquire(rewriter, op)
        pointer = lowering.generic_ptr(rewriter, desc.allocated_ptr(rewriter))
        stream_arg = stream if stream is not None else lowering.null(rewriter)
        lowering.call(rewriter, op, "mgpuMemFree", pointer, stream_arg)
        lowering.streams.settle(rewriter, op, stream, temporary)
        replace_op(op, [], _token(op, stream), rewriter)


class MemcpyLowering(HostPattern):
    """``gpu.memcpy``: ``mgpuMemcpy(dst, src, bytes, stream)``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, MemcpyOp):
            return
        lowering = self.lowering
        src_type, dst_type = op.src.type, op.dst.type
        assert isinstance(src_type, MemRefType)
        assert isinstance(dst_type, MemRefType)
        lowering.require_identity(op, src_type, "a source")
        lowering.require_identity(op, dst_type, "a destination")
        src = lowering.descriptor(rewriter, op, op.src)
        dst = lowering.descriptor(rewriter, op, op.dst)
        stream, temporary = lowering.streams.acquire(rewriter, op)
        if stream is None:
            stream, temporary = lowering.streams.temporary(rewriter, op), True
        count = lowering.num_elements(rewriter, src_type, src)
        element = lowering.memref.element_type(op, src_type)
        end = gep(rewriter, lowering.null(rewriter), [count], element)
        size_bytes = rewriter.insert(
            llvm.PtrToIntOp(end, lowering.converter.index_type)
        ).output
        src_ptr = lowering.generic_ptr(rewriter, src.aligned_ptr(rewriter))
        dst_ptr = lowering.generic_ptr(rewriter, dst.aligned_ptr(rewriter))
        lowering.call(rewriter, op, "mgpuMemcpy", dst_ptr, src_ptr, size_bytes, stream)
        lowering.streams.settle(rewriter, op, stream, temporary)
        replace_op(op, [], _token(op, stream), rewriter)


class MemsetLowering(HostPattern):
    """``gpu.memset``: ``mgpuMemset32``/``mgpuMemset16(dst, bits, count, stream)``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, MemsetOp):
            return
        lowering = self.lowering
        t = op.dst.type
        assert isinstance(t, MemRefType)
        value_type = lowering.converter.convert_type(op.value.type)
        width = _scalar_width(value_type)
        if width not in (16, 32):
            raise error(
                op,
                f"sets {op.value.type} values: the runtime sets 16- or 32-bit "
                "elements only (mgpuMemset16/mgpuMemset32); store wider or narrower "
                "elements with a kernel",
            )
        assert value_type is not None
        lowering.require_identity(op, t, "a destination")
        dst = lowering.descriptor(rewriter, op, op.dst)
        stream, temporary = lowering.streams.acquire(rewriter, op)
        if stream is None:
            stream, temporary = lowering.streams.temporary(rewriter, op), True
        count = lowering.num_elements(rewriter, t, dst)
        bits_type = i32 if width == 32 else i16
        value = to_llvm(op.value, value_type, rewriter)
        if value.type != bits_type:
            value = rewriter.insert(llvm.BitcastOp(value, bits_type)).results[0]
        pointer = lowering.generic_ptr(rewriter, dst.aligned_ptr(rewriter))
        name = f"mgpuMemset{width}"
        lowering.call(rewriter, op, name, pointer, value, count, stream)
        lowering.streams.settle(rewriter, op, stream, temporary)
        replace_op(op, [], _token(op, stream), rewriter)


def _scalar_width(t: Attribute | None) -> int | None:
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, AnyFloat):
        return t.bitwidth
    return None


class HostRegisterLowering(HostPattern):
    """``gpu.host_register``/``host_unregister``:
    ``mgpuMemHost[Un]RegisterMemRef(rank, descriptor, element bytes)``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, HostRegisterOp | HostUnregisterOp):
            return
        lowering = self.lowering
        t = op.value.type
        assert isinstance(t, UnrankedMemRefType)
        struct = lowering.memref.convert(op, t)
        desc = UnrankedMemRefDescriptor(to_llvm(op.value, struct, rewriter))
        element = lowering.memref.element_type(op, t)
        size = lowering.memref.size_in_bytes(rewriter, element)
        rank = desc.rank(rewriter)
        pointer = desc.memref_desc_ptr(rewriter)
        which = "Register" if isinstance(op, HostRegisterOp) else "Unregister"
        lowering.call(rewriter, op, f"mgpuMemHost{which}MemRef", rank, pointer, size)
        replace_op(op, [], [], rewriter)


class SetDefaultDeviceLowering(HostPattern):
    """``gpu.set_default_device``: ``mgpuSetDefaultDevice(i32)``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, SetDefaultDeviceOp):
            return
        device = to_llvm(op.dev_index, i32, rewriter)
        self.lowering.call(rewriter, op, "mgpuSetDefaultDevice", device)
        replace_op(op, [], [], rewriter)


class LaunchFuncLowering(HostPattern):
    """``gpu.launch_func`` stays, with LLVM-typed operands and its stream as
    ``<%stream : !llvm.ptr>`` (the offloading translation turns it into
    ``mgpuLaunchKernel``). A synchronous launch without dependencies gets no stream,
    as upstream (the translation creates one); with dependencies, it runs on their
    stream and the host synchronizes it."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, LaunchFuncOp) or op.async_object is not None:
            return
        lowering = self.lowering
        args = self._kernel_arguments(op, rewriter)
        grid = [self._size(v, op, rewriter) for v in op.grid_size_operands]
        block = [self._size(v, op, rewriter) for v in op.block_size_operands]
        clusters = (op.cluster_size_x, op.cluster_size_y, op.cluster_size_z)
        cluster = None
        if all(c is not None for c in clusters):
            cluster = [self._size(c, op, rewriter) for c in clusters if c is not None]
        smem = op.dynamic_shared_memory_size
        if smem is not None:
            smem = to_llvm(smem, i32, rewriter)
        stream, temporary = lowering.streams.acquire(rewriter, op)
        launch = LaunchFuncOp(
            op.kernel,
            grid,
            block,
            args,
            cluster=cluster,
            dynamic_shared_memory_size=smem,
            stream=stream,
        )
        launch.location = op.location
        rewriter.insert(launch)
        lowering.streams.settle(rewriter, op, stream, temporary)
        replace_op(op, [], _token(op, stream), rewriter)

    def _size(
        self, value: SSAValue, op: Operation, rewriter: PatternRewriter
    ) -> SSAValue:
        converted = self.lowering.converter.convert_type(value.type)
        assert converted is not None  # index, i32 or i64 (verified)
        return to_llvm(value, converted, rewriter)

    def _kernel_arguments(
        self, op: LaunchFuncOp, rewriter: PatternRewriter
    ) -> list[SSAValue]:
        """Upstream's ``promoteOperands``: a memref becomes its descriptor fields, or
        its aligned pointer with bare pointers (then, with
        intersperse-sizes-for-kernels, followed by its size in bytes)."""
        lowering = self.lowering
        bare = lowering.kernel_bare_pointers
        args: list[SSAValue] = []
        sizes: list[int | None] = []
        for i, value in enumerate(op.kernel_operands):
            t = value.type
            converted = lowering.converter.convert_type(t)
            if converted is None:
                raise error(
                    op,
                    f"passes kernel operand #{i} of type '{t}', which has no LLVM "
                    "equivalent",
                )
            llvm_value = to_llvm(value, converted, rewriter)
            if isinstance(t, MemRefType):
                desc = MemRefDescriptor(llvm_value)
                if bare:
                    args.append(desc.aligned_ptr(rewriter))
                else:
                    args += desc.unpack(rewriter)
            elif isinstance(t, UnrankedMemRefType):
                if bare:
                    raise error(
                        op,
                        f"passes the unranked memref '{t}' (kernel operand #{i}) "
                        "with bare pointers: cast it to a ranked memref, or drop "
                        "use-bare-pointers-for-kernels",
                    )
                udesc = UnrankedMemRefDescriptor(llvm_value)
                args += [udesc.rank(rewriter), udesc.memref_desc_ptr(rewriter)]
            else:
                args.append(llvm_value)
            sizes.append(_static_bytes(t))
        if not lowering.intersperse_sizes:
            return args
        if not bare:
            raise error(
                op,
                "cannot intersperse sizes with memref descriptors: "
                "intersperse-sizes-for-kernels needs use-bare-pointers-for-kernels "
                "(or use-bare-pointers-for-host)",
            )
        with_sizes: list[SSAValue] = []
        for i, (arg, size) in enumerate(zip(args, sizes, strict=True)):
            if size is None:
                raise error(
                    op,
                    f"cannot intersperse the size of kernel operand #{i} of type "
                    f"'{op.kernel_operands[i].type}': with "
                    "intersperse-sizes-for-kernels every kernel operand must be a "
                    "memref with a static shape and byte-sized integer or float "
                    "elements",
                )
            constant = index_constant(rewriter, lowering.converter.index_type, size)
            with_sizes += [arg, constant]
        return with_sizes


def _static_bytes(t: Attribute) -> int | None:
    """The byte size of a static memref of byte-sized ints or floats."""
    if not isinstance(t, MemRefType) or not t.has_static_shape():
        return None
    width = _scalar_width(t.element_type)
    if width is None or width % 8:
        return None
    return width // 8 * prod(t.get_shape())


class UnsupportedGpuOp(HostPattern):
    """Any other gpu op in host code: a diagnostic instead of an op left behind."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not op.name.startswith("gpu.") or isinstance(op, LaunchFuncOp):
            return
        if isinstance(op, LaunchOp):
            raise error(
                op,
                "must be outlined before gpu-to-llvm: run gpu-kernel-outlining first",
            )
        if isinstance(op, GpuModuleOp):
            return
        raise error(
            op,
            "has no host lowering in gpu-to-llvm (it lowers gpu.wait, alloc, "
            "dealloc, memcpy, memset, host_register, host_unregister, "
            "set_default_device and launch_func)",
        )


def gpu_to_llvm_patterns(lowering: HostLowering) -> list[RewritePattern]:
    """The gpu op lowerings, for the pass to put in front of the std→LLVM ones."""
    return [
        pattern(lowering)
        for pattern in (
            WaitLowering,
            AllocLowering,
            DeallocLowering,
            MemcpyLowering,
            MemsetLowering,
            HostRegisterLowering,
            SetDefaultDeviceLowering,
            LaunchFuncLowering,
            UnsupportedGpuOp,
        )
    ]
