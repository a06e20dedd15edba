"""The pattern families of ``convert-gpu-to-nvvm`` (``xdsl_gpu/passes/convert_gpu_to_nvvm.py``).

* :mod:`.index_ops`: thread/block/grid/cluster ids and sizes, ``lane_id``,
  ``subgroup_size``; rewrites of ``global_id``, ``subgroup_id``, ``num_subgroups``;
* :mod:`.shuffle`: ``shuffle``, ``rotate``, ``subgroup_broadcast``;
* :mod:`.reductions`: ``all_reduce`` and ``subgroup_reduce``;
* :mod:`.printf`: ``printf`` → ``vprintf``;
* :mod:`.attributions`: workgroup/private attributions, ``dynamic_shared_memory``;
* :mod:`.func`: ``gpu.func``/``gpu.return``;
* :mod:`.libdevice`: math → ``__nv_*``, ``cf.assert`` → ``__assertfail``;
* :mod:`.common`: the shared lowering state and the "failed to legalize" diagnostic.
"""

from xdsl_gpu.passes.gpu_to_nvvm_patterns.attributions import attribution_patterns
from xdsl_gpu.passes.gpu_to_nvvm_patterns.common import (
    PASS_NAME,
    LegalizationError,
    NVVMLowering,
    legalize_error,
)
from xdsl_gpu.passes.gpu_to_nvvm_patterns.func import func_patterns
from xdsl_gpu.passes.gpu_to_nvvm_patterns.index_ops import (
    index_expansion_patterns,
    index_patterns,
)
from xdsl_gpu.passes.gpu_to_nvvm_patterns.libdevice import libdevice_patterns
from xdsl_gpu.passes.gpu_to_nvvm_patterns.printf import printf_patterns
from xdsl_gpu.passes.gpu_to_nvvm_patterns.reductions import (
    expansion_patterns,
    reduction_patterns,
)
from xdsl_gpu.passes.gpu_to_nvvm_patterns.shuffle import shuffle_patterns

__all__ = [
    "PASS_NAME",
    "LegalizationError",
    "NVVMLowering",
    "attribution_patterns",
    "expansion_patterns",
    "func_patterns",
    "index_expansion_patterns",
    "index_patterns",
    "legalize_error",
    "libdevice_patterns",
    "printf_patterns",
    "reduction_patterns",
    "shuffle_patterns",
]
