"""(being written)"""

from xdsl.ir import Dialect

NVVM = Dialect("nvvm", [], [])
