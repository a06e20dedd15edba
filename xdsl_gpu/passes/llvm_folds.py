"""The folders of MLIR's ``llvm`` ops that xDSL's lack, as patterns for
``canonicalize`` (``xdsl_gpu/passes/canonicalize.py``), matched by op name so that
they reach the ops whichever class (xDSL's or ours) made them:

* ``llvm.extractvalue``: an element read back from an ``llvm.insertvalue`` chain is
  the value inserted there (upstream ``ExtractValueOp::fold``, without its
  constant-splat case);
* ``llvm.getelementptr``: a constant dynamic index that fits in 32 bits becomes a
  static one, and ``gep %p[0]`` of the pointer's own type is ``%p`` (upstream
  ``GEPOp::fold``);
* :func:`is_constant`: the ``llvm`` ops that are ``ConstantLike`` in MLIR
  (``llvm.mlir.constant``, ``poison``, ``undef``, ``zero``, ``addressof``), which
  MLIR's canonicalizer uniques and hoists with the other constants.
"""

from __future__ import annotations

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, i32, i64
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.traits import ConstantLike

LLVM_CONSTANTS = frozenset(
    {
        "llvm.mlir.constant",
        "llvm.mlir.poison",
        "llvm.mlir.undef",
        "llvm.mlir.zero",
        "llvm.mlir.addressof",
    }
)
"""The ``llvm`` ops that are ``ConstantLike`` in MLIR (xDSL's lack the trait)."""

GEP_DYNAMIC_INDEX = -2147483648
"""``rawConstantIndices``' mark of an index given by an operand."""


def is_constant(op: Operation) -> bool:
    return op.name in LLVM_CONSTANTS or op.has_trait(ConstantLike)


def _position(op: Operation) -> list[int]:
    position = op.properties["position"]
    assert isinstance(position, DenseArrayBase)
    return [int(v) for v in position.get_values()]


def _insert_value(value: SSAValue) -> Operation | None:
    owner = value.owner
    return owner if isinstance(owner, Operation) and owner.name == "llvm.insertvalue" else None  # fmt: skip


class FoldExtractValue(RewritePattern):
    """Upstream ``LLVM::ExtractValueOp::fold`` (without its constant-splat case)."""

    acts_on_names = ("llvm.extractvalue",)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name != "llvm.extractvalue" or len(op.operands) != 1:
            return
        container = op.operands[0]
        if (outer := container.owner) is not None and (
            isinstance(outer, Operation) and outer.name == "llvm.extractvalue"
        ):
            # extractvalue(extractvalue(c)[p])[q] -> extractvalue(c)[p, q]
            op.properties["position"] = DenseArrayBase.from_list(
                i64, _position(outer) + _position(op)
            )
            op.operands[0] = outer.operands[0]
            rewriter.notify_op_modified(op)
            return
        extract = _position(op)
        insert = _insert_value(container)
        switched = False
        changed = False
        while insert is not None:
            position = _position(insert)
            if extract == position:
                rewriter.replace(op, [], [insert.operands[1]])
                return
            if len(extract) > len(position) and extract[: len(position)] == position:
                # Read inside the inserted value.
                insert = _insert_value(insert.operands[1])
                extract = extract[len(position) :]
                switched = True
                continue
            shortest = min(len(extract), len(position))
            if extract[:shortest] == position[:shortest]:
                break  # one holds the other: the chain cannot be skipped
            if not switched:
                op.operands[0] = insert.operands[0]
                changed = True
            insert = _insert_value(insert.operands[0])
        if changed:
            rewriter.notify_op_modified(op)


def _constant_index(value: SSAValue) -> int | None:
    owner = value.owner
    if not isinstance(owner, Operation) or not is_constant(owner):
        return None
    attr = owner.properties.get("value")
    if attr is None:
        attr = owner.attributes.get("value")
    return attr.value.data if isinstance(attr, IntegerAttr) else None


class FoldGEP(RewritePattern):
    """Upstream ``LLVM::GEPOp::fold``."""

    acts_on_names = ("llvm.getelementptr",)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name != "llvm.getelementptr":
            return
        raw = op.properties["rawConstantIndices"]
        assert isinstance(raw, DenseArrayBase)
        base, dynamic = op.operands[0], list(op.operands[1:])
        indices: list[int | SSAValue] = []
        next_dynamic = iter(dynamic)
        for index in raw.get_values():
            indices.append(
                next(next_dynamic) if index == GEP_DYNAMIC_INDEX else int(index)
            )
        if base.type == op.results[0].type and len(indices) == 1:
            first = indices[0]
            value = first if isinstance(first, int) else _constant_index(first)
            if value == 0:
                rewriter.replace(op, [], [base])
                return
        changed = False
        for i, index in enumerate(indices):
            if isinstance(index, int):
                continue
            value = _constant_index(index)
            if value is not None and -(2**31) <= value < 2**31:
                indices[i] = value
                changed = True
        if not changed:
            return
        op.properties["rawConstantIndices"] = DenseArrayBase.from_list(
            i32,
            [GEP_DYNAMIC_INDEX if isinstance(i, SSAValue) else i for i in indices],
        )
        op.operands = [base, *(i for i in indices if isinstance(i, SSAValue))]
        rewriter.notify_op_modified(op)
