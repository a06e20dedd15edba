"""The ``xdsl.universe`` plugin: what stock ``xdsl-opt`` gets from xdsl-gpu."""

from xdsl.universe import Universe

from xdsl_gpu.gpu_dialect.diagnostics import install_for_command_line_tools
from xdsl_gpu.gpu_dialect.registration import NEW_DIALECTS, override_xdsl_dialects
from xdsl_gpu.passes import get_all_passes
from xdsl_gpu.passes.registration import override_xdsl_passes
from xdsl_gpu.targets import get_all_targets

override_xdsl_dialects()
override_xdsl_passes()
install_for_command_line_tools()

XDSL_GPU_UNIVERSE = Universe(
    all_dialects=dict(NEW_DIALECTS),
    all_passes=get_all_passes(),
    all_targets=get_all_targets(),
)
