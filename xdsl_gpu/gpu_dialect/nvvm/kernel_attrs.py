"""Discardable ``nvvm.*`` attributes on ``llvm.func`` kernels and their arguments.

* ``nvvm.kernel`` (unit): a kernel; translated to the ``ptx_kernel`` calling
  convention;
* ``nvvm.maxntid``, ``nvvm.reqntid``, ``nvvm.cluster_dim``: ``array<i32: x[, y[, z]]>``
  (1 to 3 values); translated to the function attributes ``"nvvm.maxntid"="x,y,z"``
  and so on;
* ``nvvm.minctasm``, ``nvvm.maxnreg``, ``nvvm.cluster_max_blocks``: an integer;
  translated to ``"nvvm.minctasm"="N"``, ``"nvvm.maxnreg"="N"`` and
  ``"nvvm.maxclusterrank"="N"``;
* ``nvvm.blocksareclusters`` (unit): needs ``nvvm.reqntid`` and ``nvvm.cluster_dim``;
* ``nvvm.grid_constant`` (unit, on a kernel argument that also has ``llvm.byval``):
  translated to the parameter attribute ``"nvvm.grid_constant"``.

:func:`verify_nvvm_attributes` checks an op's ``nvvm.*`` attributes (and, for a
function, its arguments' ``nvvm.grid_constant``) with upstream's rules and messages
(``NVVMDialect::verifyOperationAttribute`` and ``verifyRegionArgAttribute``). xDSL has
no hook for dialect attributes, so the op that carries them calls it (``llvm.func``'s
verifier, or a pass that sets them).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    IntegerAttr,
    UnitAttr,
    i32,
)
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import VerifyException

KERNEL = "nvvm.kernel"
MAXNTID = "nvvm.maxntid"
REQNTID = "nvvm.reqntid"
CLUSTER_DIM = "nvvm.cluster_dim"
CLUSTER_MAX_BLOCKS = "nvvm.cluster_max_blocks"
MINCTASM = "nvvm.minctasm"
MAXNREG = "nvvm.maxnreg"
BLOCKS_ARE_CLUSTERS = "nvvm.blocksareclusters"
GRID_CONSTANT = "nvvm.grid_constant"

DIM_ATTRS = (MAXNTID, REQNTID, CLUSTER_DIM)
"""Attributes holding 1 to 3 dimensions as ``array<i32: ...>``."""

INTEGER_ATTRS = (MINCTASM, MAXNREG, CLUSTER_MAX_BLOCKS)
"""Attributes holding one integer."""

LLVM_BYVAL = "llvm.byval"


def dims_attr(dims: Sequence[int]) -> DenseArrayBase:
    """``array<i32: ...>`` for ``nvvm.maxntid``/``reqntid``/``cluster_dim``."""
    return DenseArrayBase.from_list(i32, dims)


def _is_dims(value: Attribute) -> bool:
    return (
        isinstance(value, DenseArrayBase)
        and value.elt_type == i32
        and 1 <= len(value) <= 3
    )


def verify_nvvm_attributes(op: Operation) -> None:
    """Check the ``nvvm.*`` attributes of ``op`` and of its arguments.

    Raises ``VerifyException`` with upstream's message (its quoting included, e.g.
    ``'"nvvm.maxntid"' attribute must be integer array with maximum 3 index``).
    """
    attributes = op.attributes
    for name in sorted(attributes):
        value = attributes[name]
        if name == KERNEL and op.name != "llvm.func":
            raise VerifyException(f"'{KERNEL}' attribute attached to unexpected op")
        if name in DIM_ATTRS and not _is_dims(value):
            raise VerifyException(
                f"'\"{name}\"' attribute must be integer array with maximum 3 index"
            )
        if name in INTEGER_ATTRS and not isinstance(value, IntegerAttr):
            raise VerifyException(f"'\"{name}\"' attribute must be integer constant")
        if name == BLOCKS_ARE_CLUSTERS and not (
            REQNTID in attributes and CLUSTER_DIM in attributes
        ):
            raise VerifyException(
                f"'\"{name}\"' attribute must be used along with '{REQNTID}' and "
                f"'{CLUSTER_DIM}'"
            )
    _verify_argument_attributes(op)


def _verify_argument_attributes(op: Operation) -> None:
    arg_attrs = op.properties.get("arg_attrs") or op.attributes.get("arg_attrs")
    if not isinstance(arg_attrs, ArrayAttr):
        return
    is_kernel = KERNEL in op.attributes
    for arg in arg_attrs.data:
        if not isinstance(arg, DictionaryAttr) or GRID_CONSTANT not in arg.data:
            continue
        if not is_kernel:
            raise VerifyException(
                f"'\"{GRID_CONSTANT}\"' attribute must be present only on kernel "
                "arguments"
            )
        if not isinstance(arg.data[GRID_CONSTANT], UnitAttr):
            raise VerifyException(f"'\"{GRID_CONSTANT}\"' must be a unit attribute")
        if LLVM_BYVAL not in arg.data:
            raise VerifyException(
                f"'\"{GRID_CONSTANT}\"' attribute requires the argument to also have "
                f"attribute '{LLVM_BYVAL}'"
            )


__all__ = [
    "BLOCKS_ARE_CLUSTERS",
    "CLUSTER_DIM",
    "CLUSTER_MAX_BLOCKS",
    "DIM_ATTRS",
    "GRID_CONSTANT",
    "INTEGER_ATTRS",
    "KERNEL",
    "MAXNREG",
    "MAXNTID",
    "MINCTASM",
    "REQNTID",
    "dims_attr",
    "verify_nvvm_attributes",
]
