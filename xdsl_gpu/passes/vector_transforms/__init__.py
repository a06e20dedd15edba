"""Vector-to-vector rewrites that the lowerings rely on, as upstream's
``mlir/lib/Dialect/Vector/Transforms`` (MLIR 22), one concept per module:

* :mod:`.transfer_unroll`: an n-D ``transfer_read``/``transfer_write`` becomes
  (n-1)-D transfers, one per row, with a bounds check for rows that may be out of
  bounds (``convert-vector-to-scf{full-unroll=true}``);
* :mod:`.transfer_to_load_store`: a 1-D minor-identity transfer becomes
  ``vector.load``/``store`` (in bounds) or ``create_mask`` +
  ``maskedload``/``maskedstore`` (upstream's ``populateVectorTransferLoweringPatterns``
  and mask materialization, run by ``convert-vector-to-llvm``);
* :mod:`.mask_lowering`: a 1-D ``create_mask``/``constant_mask`` becomes a comparison
  of a step vector with the bound.
"""
