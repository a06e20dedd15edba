"""JIT-compile host LLVM IR that calls the ``mgpu*`` runtime, and run it.

The counterpart of ``mlir-runner`` with the CUDA runtime library: the module gets its
own MCJIT engine, its global constructors run on load (they load the GPU binaries),
its destructors on :meth:`JitModule.close`. MLIR's runner utilities
(``printMemrefF32``...) resolve to a preferred library's or to the built-in ones
(:mod:`~xdsl_gpu.targets.runtime.runner_utils`).
"""

from __future__ import annotations

import ctypes
from typing import Any

import llvmlite.binding as llvm

from xdsl_gpu.diagnostics import UserError
from xdsl_gpu.targets.runtime.runner_utils import bind
from xdsl_gpu.targets.runtime.runtime import CudaRuntime


class JitModule:
    """One host module, loaded and constructed."""

    def __init__(
        self, llvm_ir: str, runtime: CudaRuntime | None = None, opt_level: int = 2
    ) -> None:
        self.runtime = runtime or CudaRuntime.get()
        try:
            self.module = llvm.parse_assembly(llvm_ir)
            self.module.verify()
        except RuntimeError as e:
            raise UserError(f"the host LLVM IR is invalid: {e}") from e
        machine = llvm.Target.from_default_triple().create_target_machine(opt=opt_level)
        self.module.triple = machine.triple
        self.module.data_layout = str(machine.target_data)
        self.engine = llvm.create_mcjit_compiler(self.module, machine)
        # printMemrefF32, printF32...: a --shared-libs library's, else ours.
        bind([f.name for f in self.module.functions if f.is_declaration])
        self.engine.finalize_object()
        self._closed = False
        self.engine.run_static_constructors()
        self.runtime.raise_pending_error()

    def address(self, name: str) -> int:
        address = self.engine.get_function_address(name)
        if not address:
            raise UserError(f"the module has no function @{name}")
        return address

    def function(self, name: str, restype: Any, *argtypes: Any) -> Any:
        """A ctypes callable for ``@name`` that raises the runtime's error after each
        call."""
        raw = ctypes.CFUNCTYPE(restype, *argtypes)(self.address(name))
        runtime = self.runtime

        def call(*args: Any) -> Any:
            result = raw(*args)
            runtime.raise_pending_error()
            return result

        return call

    def close(self) -> None:
        """Run the global destructors (unload the GPU binaries)."""
        if not self._closed:
            self._closed = True
            self.runtime.synchronize()
            self.engine.run_static_destructors()
            self.runtime.raise_pending_error()

    def __enter__(self) -> JitModule:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
