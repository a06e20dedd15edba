"""The SM requirement of every nvvm op (``RequiresSM``) against MLIR 22's, and where
the ``gpu.module`` verifier reports an op that the target chip does not support.

The messages themselves are checked against mlir-opt 22 in
tests/filecheck/dialects/nvvm/check-target-sm.mlir.
"""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.diagnostics import located_message
from xdsl_gpu.gpu_dialect import register_dialects
from xdsl_gpu.gpu_dialect.nvvm import NVVM, RequiresSM, SMVersion
from xdsl_gpu.gpu_dialect.nvvm.wgmma_ops import WgmmaGroupSyncAlignedOp

MLIR_OPT = shutil.which("mlir-opt-22")

# Both sides of each minimum that MLIR 22 uses, its arch-accelerated chips and
# neighbours of those, and the `f` suffix (MLIR 22 reads sm_90f as sm_90).
CHIPS = (
    "sm_20", "sm_29", "sm_30", "sm_79", "sm_80", "sm_89", "sm_90", "sm_90a",
    "sm_90f", "sm_91a", "sm_100", "sm_100a", "sm_100f", "sm_101a", "sm_103a",
    "sm_110a", "sm_120", "sm_120a",
)  # fmt: skip


def _unsupported_by_mlir_22(op_names: list[str]) -> set[tuple[str, str]]:
    """The (op, chip) pairs that mlir-opt 22 rejects with "is not supported on".

    Each op is written generically, without operands: MLIR verifies the gpu.module
    (and so its target) before the ops inside, so an op's own complaints come after
    the target's and do not hide them."""
    chunks = [
        f'gpu.module @m [#nvvm.target<chip = "{chip}">] {{ "{name}"() : () -> () }}'
        for name in op_names
        for chip in CHIPS
    ]
    assert MLIR_OPT is not None
    done = subprocess.run(
        [MLIR_OPT, "--split-input-file", "-"],
        input="\n// -----\n".join(chunks),
        capture_output=True,
        text=True,
        timeout=300,
    )
    found = re.findall(r"error: '([\w.]+)' op is not supported on (\w+)", done.stderr)
    return set(found)


@pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 not installed")
def test_every_op_requires_what_mlir_22_requires() -> None:
    ops = list(NVVM.operations)
    rejected = _unsupported_by_mlir_22([op.name for op in ops])
    # The probe sees MLIR 22's requirements at all (it is not vacuous).
    assert ("nvvm.wgmma.fence.aligned", "sm_90") in rejected
    assert ("nvvm.redux.sync", "sm_79") in rejected
    mismatches: list[str] = []
    for op in ops:
        requirement = op.get_trait(RequiresSM)
        for chip in CHIPS:
            ours = requirement is None or requirement.is_compatible_with(_version(chip))
            theirs = (op.name, chip) not in rejected
            if ours != theirs:
                mismatches.append(f"{op.name} on {chip}: ours {ours}, MLIR 22 {theirs}")
    assert not mismatches, "\n".join(mismatches)


def _parse(text: str) -> ModuleOp:
    ctx = Context()
    register_dialects(ctx)
    return Parser(ctx, text).parse_module()


def test_the_error_is_at_the_op_not_at_the_gpu_module() -> None:
    module = _parse(
        'gpu.module @m [#nvvm.target<chip = "sm_90">] {\n'
        "  llvm.func @k() {\n"
        "    nvvm.wgmma.fence.aligned\n"
        "    llvm.return\n"
        "  }\n"
        "}\n"
    )
    with pytest.raises(VerifyException) as error:
        module.verify()
    failing = getattr(error.value, "failing_op", None)
    assert failing is not None
    assert failing.name == "nvvm.wgmma.fence.aligned"
    assert located_message(error.value).endswith(
        "'nvvm.wgmma.fence.aligned' op is not supported on sm_90"
    )


def _version(chip: str) -> SMVersion:
    version = SMVersion.from_chip(chip)
    assert version is not None
    return version


def test_arch_accelerated_chip_of_the_same_sm_only() -> None:
    trait = WgmmaGroupSyncAlignedOp.get_trait(RequiresSM)
    assert trait is not None
    accepted = [
        chip
        for chip in ("sm_90", "sm_90a", "sm_90f", "sm_100a", "sm_120")
        if trait.is_compatible_with(_version(chip))
    ]
    assert accepted == ["sm_90a"]
