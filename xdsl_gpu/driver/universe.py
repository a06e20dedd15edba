"""The ``xdsl.universe`` plugin: what stock ``xdsl-opt`` gets from xdsl-gpu.

Loading it (``Universe.get_multiverse()`` does, in every ``xdsl-opt`` run) registers
the dialects, passes and targets that only xdsl-gpu defines, gives ``xdsl-opt``
upstream's command lines and diagnostics instead of tracebacks, and lets each run
choose between xDSL's own ``gpu``, ``llvm``, ``arith``, ``math``, ``memref``,
``vector`` dialects and passes and ours (:mod:`xdsl_gpu.driver.dialect_choice`): a
program that uses nothing of xdsl-gpu runs exactly as with xDSL alone.
"""

from collections.abc import Callable

from xdsl.ir import Dialect
from xdsl.universe import Universe

from xdsl_gpu import compat
from xdsl_gpu.diagnostics import install_for_command_line_tools
from xdsl_gpu.driver import dialect_choice
from xdsl_gpu.gpu_dialect.registration import (
    NEW_DIALECTS,
    install_hooks,
    install_parser_fixes,
)
from xdsl_gpu.passes import get_all_passes
from xdsl_gpu.targets import get_all_targets

compat.lazy_assembly_formats()  # before any dialect module defines its ops
compat.upstream_pass_pipelines()
compat.upstream_command_lines()
compat.dialects_chosen_per_run(
    dialect_choice.add_arguments, dialect_choice.choose, dialect_choice.settle
)
compat.safe_opt_files()
compat.diagnose_internal_errors()
install_parser_fixes()
install_for_command_line_tools()


def _with_hooks(factory: Callable[[], Dialect]) -> Callable[[], Dialect]:
    """A dialect only xdsl-gpu defines needs the changes inside xDSL that its
    parsers, printers and verifiers rely on, in whichever xDSL tool loads it."""

    def load() -> Dialect:
        install_hooks()
        return factory()

    return load


XDSL_GPU_UNIVERSE = Universe(
    all_dialects={name: _with_hooks(f) for name, f in NEW_DIALECTS.items()},
    all_passes=get_all_passes(),
    all_targets=get_all_targets(),
)
"""The dialects, passes and targets that only xdsl-gpu defines."""
