"""xDSL's pattern worklist, finding its ops by ``id``.

``PatternRewriteWalker``'s ``Worklist`` keeps a map from each op to its place on
the stack; every push, pop and removal hashes the op, and an IRDL op's ``__hash__``
is a Python call: on a 4000-op kernel, ~8000 of them per walk of a greedy pass.
:class:`OpWorklist` keeps the same stack in the same order, with the map keyed by
``id`` (an op on the stack is alive, so its ``id`` is its own). Not a patch: xDSL
is unchanged; a walker of ours (``passes/greedy_dispatch.py``) uses it. It relies
on ``Worklist``'s private ``_stack`` and ``_MISSING`` (xDSL 0.74), which
``tests/compat/test_op_worklist.py`` checks.
"""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.utils.worklist import _MISSING, Worklist  # pyright: ignore[reportPrivateUsage]

__all__ = ["OpWorklist"]


class OpWorklist(Worklist[Operation]):
    """xDSL's ``Worklist`` with its ops found by ``id``: an IRDL op's ``__hash__``
    is a Python call, made on every push, pop and removal. The same stack, in the
    same order (an op in it is alive, so its ``id`` is its own)."""

    def __init__(self) -> None:
        super().__init__()
        self._ids: dict[int, int] = {}

    def __bool__(self) -> bool:
        stack = self._stack
        while stack and stack[-1] is _MISSING:
            stack.pop()
        return bool(stack)

    def push(self, item: Operation) -> None:
        key = id(item)
        if key not in self._ids:
            self._ids[key] = len(self._stack)
            self._stack.append(item)

    def pop(self) -> Operation:
        stack = self._stack
        try:
            while (item := stack.pop()) is _MISSING:
                pass
        except IndexError:
            raise IndexError("pop from empty worklist") from None
        del self._ids[id(item)]
        return item  # pyright: ignore[reportReturnType]

    def remove(self, item: Operation) -> None:
        index = self._ids.pop(id(item), None)
        if index is not None:
            self._stack[index] = _MISSING
