"""``compat.block_splicing.move_ops_to_end`` leaves the blocks as moving the ops
one by one does, and xDSL still moves them one by one (the gap)."""

from __future__ import annotations

import pytest
from xdsl.dialects import test
from xdsl.ir import Block, Operation, Region
from xdsl.rewriter import InsertPoint, Rewriter

from xdsl_gpu.compat.block_splicing import move_ops_to_end


def _blocks(source_ops: int, dest_ops: int) -> tuple[Block, Block]:
    source = Block([test.TestOp.create() for _ in range(source_ops)])
    dest = Block([test.TestOp.create() for _ in range(dest_ops)])
    return source, dest


def _links(
    block: Block,
) -> list[tuple[Operation | None, Operation | None, Block | None]]:
    return [(op.prev_op, op.next_op, op.parent) for op in block.ops]


@pytest.mark.parametrize(("source_ops", "dest_ops"), [(3, 2), (3, 0), (0, 2), (1, 1)])
def test_as_moving_one_by_one(source_ops: int, dest_ops: int) -> None:
    source, dest = _blocks(source_ops, dest_ops)
    expected = [*dest.ops, *source.ops]
    move_ops_to_end(source, dest)
    assert list(dest.ops) == expected
    assert source.first_op is None
    assert source.last_op is None
    assert dest.first_op is (expected[0] if expected else None)
    assert dest.last_op is (expected[-1] if expected else None)
    assert all(op.parent is dest for op in dest.ops)
    # The same links as the op-by-op moves make.
    again_source, again_dest = _blocks(source_ops, dest_ops)
    for op in list(again_source.ops):
        again_source.detach_op(op)
        again_dest.add_op(op)
    index = {id(op): i for i, op in enumerate(dest.ops)}
    again = {id(op): i for i, op in enumerate(again_dest.ops)}

    def shape(block: Block, where: dict[int, int]) -> list[tuple[int, int]]:
        return [
            (
                -1 if op.prev_op is None else where[id(op.prev_op)],
                -1 if op.next_op is None else where[id(op.next_op)],
            )
            for op in block.ops
        ]

    assert shape(dest, index) == shape(again_dest, again)
    assert _links(source) == _links(again_source) == []


def test_a_block_inside_an_op_it_moves_is_refused() -> None:
    inner = Block()
    holder = test.TestOp.create(regions=[Region(inner)])
    source = Block([holder])
    with pytest.raises(ValueError, match="contained in the operation"):
        move_ops_to_end(source, inner)


def test_gap_xdsl_moves_ops_one_by_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """xDSL's inline_block attaches each op on its own (the ancestor walk each)."""
    attached: list[Operation] = []
    attach = Block._attach_op  # pyright: ignore[reportPrivateUsage]

    def counted(self: Block, op: Operation) -> None:
        attached.append(op)
        attach(self, op)

    monkeypatch.setattr(Block, "_attach_op", counted)
    source, dest = _blocks(3, 1)
    Region([dest, source])
    attached.clear()
    Rewriter.inline_block(source, InsertPoint.at_end(dest))
    assert len(attached) == 3
    assert hasattr(dest, "_first_op")
    assert hasattr(dest, "_last_op")
