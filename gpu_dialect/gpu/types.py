"""Types of the ``gpu`` dialect shared by several op families."""

from xdsl.ir import ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition


@irdl_attr_definition
class AsyncTokenType(ParametrizedAttribute, TypeAttribute):
    """``!gpu.async.token``: orders asynchronous gpu operations."""

    name = "gpu.async.token"
