"""(being written)"""

OPERATIONS = ()
ATTRIBUTES = ()
