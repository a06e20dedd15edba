"""``compat.mro_class_checks``: ``isinstance``/``issubclass`` against xDSL's op and
attribute classes give ``abc``'s answers, without its walk over the subclasses;
``abc`` alone once a class there is virtual."""

from __future__ import annotations

import abc

import pytest
from xdsl.dialects import arith, builtin
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, SSAValue
from xdsl.irdl import IRDLOperation

from xdsl_gpu.compat import class_checks
from xdsl_gpu.gpu_dialect.registration import install_hooks

install_hooks()


def _hierarchy(root: type) -> list[type]:
    found = [root]
    for cls in found:
        found += [s for s in cls.__subclasses__() if s not in found]
    return found


def test_every_class_has_the_metaclass() -> None:
    for root in (Operation, Attribute, SSAValue):
        assert all(type(c) is class_checks.MroABCMeta for c in _hierarchy(root))

    class DefinedLater(IRDLOperation):
        name = "test.defined_later"

    assert type(DefinedLater) is class_checks.MroABCMeta


def test_answers_are_the_mros() -> None:
    ops = _hierarchy(Operation)[:200]
    attributes = _hierarchy(Attribute)[:100]
    objects = [
        builtin.i32,
        builtin.StringAttr("x"),
        builtin.IntegerAttr(1, 32),
        arith.ConstantOp(builtin.IntegerAttr(1, 32)),
    ]
    for obj in objects:
        for cls in [*ops, *attributes]:
            assert isinstance(obj, cls) == (cls in type(obj).__mro__), (obj, cls)
    for sub in attributes[:40]:
        for cls in [*ops[:40], *attributes]:
            assert issubclass(sub, cls) == (cls in sub.__mro__), (sub, cls)


def test_a_first_no_asks_no_subclass(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[type] = []
    check = class_checks.MroABCMeta.__subclasscheck__

    def counted(cls: class_checks.MroABCMeta, subclass: type) -> bool:
        asked.append(cls)
        return check(cls, subclass)

    monkeypatch.setattr(class_checks.MroABCMeta, "__subclasscheck__", counted)

    class NeverChecked(ParametrizedAttribute):
        name = "test.never_checked"

    assert not issubclass(NeverChecked, IRDLOperation)
    # abc asks IRDLOperation's direct subclasses, and none of them its own.
    direct = len(IRDLOperation.__subclasses__())
    assert len(asked) <= direct + 1 < len(_hierarchy(IRDLOperation))


def test_a_virtual_subclass_is_abcs_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(class_checks, "_virtual", False)  # restored afterwards

    class Root(metaclass=class_checks.MroABCMeta):
        pass

    class Middle(Root):
        pass

    class Outside:
        pass

    assert not issubclass(Outside, Root)
    Middle.register(Outside)
    assert class_checks._virtual  # pyright: ignore[reportPrivateUsage]
    assert issubclass(Outside, Middle)
    assert issubclass(Outside, Root)  # abc's walk over Root's subclasses finds it


def test_a_subclass_hook_is_abcs_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(class_checks, "_virtual", False)

    class Root(metaclass=class_checks.MroABCMeta):
        pass

    class Hooked(Root):
        @classmethod
        def __subclasshook__(cls, subclass: type) -> bool:
            return subclass is int

    assert class_checks._virtual  # pyright: ignore[reportPrivateUsage]
    assert issubclass(int, Hooked)
    assert issubclass(int, Root)
    assert type(Root) is class_checks.MroABCMeta
    assert isinstance(class_checks.MroABCMeta, type)
    assert issubclass(class_checks.MroABCMeta, abc.ABCMeta)
