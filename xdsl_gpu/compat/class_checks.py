"""``isinstance``/``issubclass`` against xDSL's op and attribute classes without
``abc``'s recursive walk over every subclass.

xDSL's ``Operation``, ``Attribute`` and ``SSAValue`` are ``abc.ABC``\\ s, so every
class of op and attribute is an ``ABCMeta`` class. The first time ``abc`` answers
"no" to ``isinstance(x, C)`` for a given class of ``x``, it asks each subclass of
``C`` in turn, recursively (one of them could have a registered virtual subclass
or a ``__subclasshook__``): ``isinstance(i32, Operation)`` visits the ~570 op
classes a GPU run defines (~0.8 ms). A run checks many classes against many
bases once each: in a stock ``xdsl-opt`` run on seed 002 that was ~40k such
visits. With no virtual subclass and no hook anywhere in these hierarchies (the
case: neither xDSL nor xdsl-gpu registers any), "``C`` is in the MRO of ``x``'s
class" answers each of those subclasses. :func:`mro_class_checks` gives each class
of the hierarchies a subclass of ``ABCMeta`` as its metaclass (new classes inherit
it): ``abc`` still answers ``isinstance``/``issubclass`` (with its caches, so a
repeated check costs what it did), but each subclass it then asks answers from
its MRO instead of asking its own subclasses in turn. As soon as a class of the
hierarchies is registered as a virtual subclass or has a ``__subclasshook__`` of
its own, ``abc`` answers alone, as before.
"""

from __future__ import annotations

import abc
from typing import Any

from xdsl_gpu.compat._base import XdslChangedError

__all__ = ["MroABCMeta", "mro_class_checks"]

_virtual = False
"""Whether some class of the hierarchies has a registered virtual subclass or a
``__subclasshook__`` of its own: ``abc`` then answers, as it would have."""


class MroABCMeta(abc.ABCMeta):
    """``ABCMeta`` that answers ``abc``'s questions about its subclasses from their
    MRO while no class of the hierarchies is virtual."""

    def __init__(cls, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "__subclasshook__" in cls.__dict__:
            _note_virtual()

    def register(cls, subclass: Any) -> Any:
        _note_virtual()
        return super().register(subclass)

    def __subclasscheck__(cls, subclass: Any) -> bool:
        global _asking
        if _virtual:
            return super().__subclasscheck__(subclass)
        if _asking and isinstance(subclass, type):
            # abc asks each subclass of the class it checks: the MRO answers.
            return cls in subclass.__mro__
        # abc's own check (and its caches), its walk over the subclasses
        # answered above.
        _asking += 1
        try:
            return super().__subclasscheck__(subclass)
        finally:
            _asking -= 1


_asking = 0
"""How many of abc's own checks are under way (it asks the subclasses then)."""


def _note_virtual() -> None:
    global _virtual
    _virtual = True


def mro_class_checks() -> None:
    """Give every class under xDSL's ``Operation``, ``Attribute`` and ``SSAValue``
    (and, through inheritance, every class defined under them later)
    :class:`MroABCMeta` as its metaclass."""
    from xdsl.ir import Attribute, Operation, SSAValue

    roots = (Operation, Attribute, SSAValue)
    if all(type(root) is MroABCMeta for root in roots):
        return  # done: the classes defined since inherit the metaclass
    for root in roots:
        if not isinstance(root, abc.ABCMeta):
            raise XdslChangedError(f"xdsl.ir.{root.__name__} is no longer an ABC")
        for cls in _hierarchy(root):
            if type(cls) is MroABCMeta:
                continue
            if type(cls) is not abc.ABCMeta:  # a metaclass with checks of its own
                _note_virtual()
                continue
            if "__subclasshook__" in cls.__dict__ or _registered(cls):
                _note_virtual()
            cls.__class__ = MroABCMeta


def _registered(cls: type) -> bool:
    """Whether ``cls`` has registered virtual subclasses (``abc``'s registry)."""
    dump = getattr(abc, "_get_dump", None)
    if dump is not None:
        return bool(dump(cls)[0])
    return bool(getattr(cls, "_abc_registry", ()))  # the pure-Python abc


def _hierarchy(root: type) -> list[type]:
    found = [root]
    seen = {root}
    for cls in found:  # grows as it goes
        for sub in cls.__subclasses__():
            if sub not in seen:
                seen.add(sub)
                found.append(sub)
    return found
