"""Passes of xdsl-gpu that take the place of xDSL's own, under the same upstream name.

``Universe.get_multiverse()`` refuses two plugins that register the same pass name,
so a replacement cannot simply be listed in :func:`xdsl_gpu.passes.get_all_passes`.
A stock ``xdsl-opt`` run that uses xdsl-gpu gets the factories of
:data:`REPLACED_PASSES` in place of xDSL's (``xdsl_gpu/driver/dialect_choice.py``);
any other run keeps xDSL's.

Replaced:

* ``lower-affine``: xDSL's ignores map symbols and loop-bound operands, lowers ``mod``
  wrongly for negative values and has no ``affine.if``/``min``/``parallel``; ours
  (``xdsl_gpu/passes/lower_affine.py``) follows upstream, semi-affine maps included.
* ``convert-scf-to-cf``: xDSL's leaves ``scf.while``, ``scf.execute_region`` and
  ``scf.parallel`` unlowered; ours (``xdsl_gpu/passes/convert_scf_to_cf.py``) adds them to
  xDSL's ``for``/``if``/``index_switch`` patterns.
* ``reconcile-unrealized-casts``: xDSL's keeps a whole cast chain as soon as one cast
  in it is live and prints a Python warning per kept cast; ours
  (``xdsl_gpu/passes/reconcile_unrealized_casts.py``) is upstream's algorithm.
* ``canonicalize``: xDSL's leaves constants where they are; ours
  (``xdsl_gpu/passes/canonicalize.py``) first hoists and uniques them as MLIR's
  greedy driver does.
* ``cse``: xDSL's hashes each op three times on a hit and copies its table of known
  ops for every region; ours (``xdsl_gpu/passes/cse.py``) gives the same result
  without either.
* ``transform-interpreter``: xDSL's, with the GPU/NVGPU pattern descriptors of the
  ``transform`` dialect that xdsl-gpu adds (``xdsl_gpu/passes/transform_interpreter.py``).

``tests/passes/test_pass_registration.py`` fails loudly if a new xDSL no longer
registers a replaced name.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass


def _lower_affine() -> type[ModulePass]:
    from xdsl_gpu.passes.lower_affine import LowerAffinePass

    return LowerAffinePass


def _reconcile_unrealized_casts() -> type[ModulePass]:
    from xdsl_gpu.passes.reconcile_unrealized_casts import ReconcileUnrealizedCastsPass

    return ReconcileUnrealizedCastsPass


def _canonicalize() -> type[ModulePass]:
    from xdsl_gpu.passes.canonicalize import CanonicalizePass

    return CanonicalizePass


def _cse() -> type[ModulePass]:
    from xdsl_gpu.passes.cse import CSEPass

    return CSEPass


def _transform_interpreter() -> type[ModulePass]:
    from xdsl_gpu.passes.transform_interpreter import TransformInterpreterPass

    return TransformInterpreterPass


def _convert_scf_to_cf() -> type[ModulePass]:
    from xdsl_gpu.passes.convert_scf_to_cf import ConvertScfToCfPass

    return ConvertScfToCfPass


REPLACED_PASSES: dict[str, Callable[[], type[ModulePass]]] = {
    "canonicalize": _canonicalize,
    "convert-scf-to-cf": _convert_scf_to_cf,
    "cse": _cse,
    "lower-affine": _lower_affine,
    "reconcile-unrealized-casts": _reconcile_unrealized_casts,
    "transform-interpreter": _transform_interpreter,
}
"""Passes that xDSL registers too: ours take their place."""
