"""Which function a call reaches, and which functions only calls reach.

MLIR's dataflow framework follows calls (``CallOpInterface``/``CallableOpInterface``):
a call's results are what its callee returns, and a private function whose every
use is a call takes its arguments from those calls (and runs only if one of them
does). A public function, or one whose symbol is used some other way
(``func.constant``, an attribute), can be called from anywhere: its arguments are
unknown. This module gives the integer range analysis those facts for
``func.func``/``func.call`` and ``llvm.func``/``llvm.call`` (an ``llvm.func`` is a
public symbol whatever its linkage).
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    StringAttr,
    SymbolRefAttr,
)
from xdsl.ir import Attribute, Operation

_SYMBOL_TABLES = frozenset({"builtin.module", "gpu.module"})
FUNCTIONS = frozenset({"func.func", "llvm.func"})
CALLS = frozenset({"func.call", "llvm.call"})
RETURNS = frozenset({"func.return", "llvm.return"})


def _symbol_refs(attr: Attribute) -> Iterator[SymbolRefAttr]:
    if isinstance(attr, SymbolRefAttr):
        yield attr
    elif isinstance(attr, ArrayAttr):
        for element in attr.data:
            yield from _symbol_refs(element)
    elif isinstance(attr, DictionaryAttr):
        for element in attr.data.values():
            yield from _symbol_refs(element)


def _table_of(op: Operation) -> Operation | None:
    parent = op.parent_op()
    while parent is not None and parent.name not in _SYMBOL_TABLES:
        parent = parent.parent_op()
    return parent


class CallGraph:
    """The ``func.func``s under a root, their calls and other uses."""

    def __init__(self, root: Operation):
        self._functions: dict[tuple[int, str], Operation] = {}
        self._calls: dict[Operation, list[Operation]] = {}
        self._escaped: set[Operation] = set()
        for op in root.walk():
            if op.name in FUNCTIONS:
                name = op.properties.get("sym_name") or op.attributes.get("sym_name")
                if isinstance(name, StringAttr):
                    self._functions[(id(_table_of(op)), name.data)] = op
        for op in root.walk():
            callee = op.properties.get("callee") if op.name in CALLS else None
            for attr in (*op.properties.values(), *op.attributes.values()):
                for ref in _symbol_refs(attr):
                    target = self._resolve(op, ref)
                    if target is None:
                        continue
                    if attr is callee:
                        self._calls.setdefault(target, []).append(op)
                    else:
                        self._escaped.add(target)

    def _resolve(self, user: Operation, ref: SymbolRefAttr) -> Operation | None:
        if ref.nested_references.data:
            return None  # @module::@f: not followed
        table = _table_of(user)
        return self._functions.get((id(table), ref.root_reference.data))

    def callee(self, call: Operation) -> Operation | None:
        """The function a direct call calls, if it is defined here."""
        ref = call.properties.get("callee")
        if call.name not in CALLS or not isinstance(ref, SymbolRefAttr):
            return None
        return self._resolve(call, ref)

    def calls_to(self, func: Operation) -> list[Operation]:
        return self._calls.get(func, [])

    def only_called(self, func: Operation) -> bool:
        """A private function with a body whose every use is a call: its
        arguments come from its calls, and it runs only if a call does."""
        visibility = func.properties.get("sym_visibility") or func.attributes.get(
            "sym_visibility"
        )
        private = isinstance(visibility, StringAttr) and visibility.data == "private"
        has_body = bool(func.regions and func.regions[0].blocks)
        return private and has_body and func not in self._escaped
