"""Lowerings of ``vector`` ops to ``llvm`` shared by convert-vector-to-llvm and
convert-gpu-to-nvvm, one concept per module (:mod:`.memory`: the accesses)."""
