"""Integer range analysis: MLIR's ``ConstantIntRanges`` lattice, the range facts of
the arith, gpu, nvvm and test ops, and a sparse forward dataflow over SSA values.

Used by ``-int-range-optimizations`` (``xdsl_gpu/passes/int_range_optimizations.py``).
"""
