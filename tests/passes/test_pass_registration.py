"""The pass override (xdsl_gpu/passes/registration.py): stock xdsl-opt runs xdsl-gpu's
``lower-affine``, ``convert-scf-to-cf``, ``reconcile-unrealized-casts`` and ``cse`` in
place of xDSL's.

If one of these fails after an xDSL upgrade, xdsl_gpu/passes/registration.py relies on something
that changed: revisit it before moving the pin in pyproject.toml.
"""

from __future__ import annotations

from xdsl.transforms import get_all_passes as xdsl_passes

from xdsl_gpu.passes import get_all_passes
from xdsl_gpu.passes.convert_scf_to_cf import ConvertScfToCfPass
from xdsl_gpu.passes.cse import CSEPass
from xdsl_gpu.passes.lower_affine import LowerAffinePass
from xdsl_gpu.passes.reconcile_unrealized_casts import ReconcileUnrealizedCastsPass
from xdsl_gpu.passes.registration import REPLACED_PASSES

STD_TO_LLVM = {
    "convert-arith-to-llvm",
    "convert-cf-to-llvm",
    "convert-func-to-llvm",
    "convert-index-to-llvm",
    "convert-math-to-llvm",
}


def test_xdsl_still_registers_the_passes_we_replace() -> None:
    own = xdsl_passes()
    for name in REPLACED_PASSES:
        assert name in own, (
            f"xDSL dropped '{name}': revisit xdsl_gpu/passes/registration.py"
        )
        assert own[name]() is not REPLACED_PASSES[name]()


def test_replaced_passes_are_not_registered_twice() -> None:
    # A second registration of a name makes get_multiverse() fail for every user.
    assert not set(REPLACED_PASSES) & set(get_all_passes())


def test_a_run_that_uses_xdsl_gpu_gets_our_passes() -> None:
    from xdsl.xdsl_opt_main import xDSLOptMain

    from xdsl_gpu.driver.dialect_choice import use_xdsl_gpu

    main = xDSLOptMain(args=[])
    assert main.available_passes["lower-affine"]() is not LowerAffinePass
    use_xdsl_gpu(main)
    passes = main.available_passes
    assert passes["lower-affine"]() is LowerAffinePass
    assert passes["convert-scf-to-cf"]() is ConvertScfToCfPass
    assert passes["reconcile-unrealized-casts"]() is ReconcileUnrealizedCastsPass
    assert passes["cse"]() is CSEPass
    for name in STD_TO_LLVM:
        assert passes[name]().name == name


def test_std_to_llvm_passes_are_registered_under_their_upstream_names() -> None:
    ours = get_all_passes()
    for name in STD_TO_LLVM:
        assert ours[name]().name == name
