"""(being written)"""

from xdsl.ir import Dialect

ROCDL = Dialect("rocdl", [], [])
