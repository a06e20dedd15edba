"""The ``xdsl.universe`` plugin: what stock ``xdsl-opt`` gets from xdsl-gpu.

Loading it (``Universe.get_multiverse()`` does, in every ``xdsl-opt`` run) puts our
``gpu``, ``llvm``, ``arith``, ``math``, ``memref`` dialects and our ``lower-affine``,
``convert-scf-to-cf``, ``reconcile-unrealized-casts`` passes in place of xDSL's, applies
the changes inside xDSL that they need (:mod:`xdsl_gpu.compat`), attaches the NVVM
target's serialization and offloading models, and gives our command-line tools
diagnostics instead of tracebacks.
"""

from xdsl.universe import Universe

from xdsl_gpu import compat
from xdsl_gpu.diagnostics import install_for_command_line_tools
from xdsl_gpu.gpu_dialect.registration import (
    NEW_DIALECTS,
    REPLACED_DIALECTS,
    install_hooks,
)
from xdsl_gpu.passes import get_all_passes
from xdsl_gpu.passes.registration import REPLACED_PASSES
from xdsl_gpu.targets import get_all_targets, register_target_interfaces

compat.replace_universe_entries(REPLACED_DIALECTS, REPLACED_PASSES)
install_hooks()
compat.upstream_pass_pipelines()
compat.upstream_command_lines()
compat.safe_opt_files()
compat.diagnose_internal_errors()
register_target_interfaces()
install_for_command_line_tools()

XDSL_GPU_UNIVERSE = Universe(
    all_dialects=dict(NEW_DIALECTS),
    all_passes=get_all_passes(),
    all_targets=get_all_targets(),
)
"""The dialects, passes and targets that only xdsl-gpu defines."""
