"""Every change that xdsl-gpu makes inside xDSL, in one package.

xdsl-gpu extends xDSL by subclassing and through the ``xdsl.universe`` entry point.
What cannot be done that way is here, one :class:`Patch` each, written against
xDSL 0.74 (the minor that ``pyproject.toml`` pins). Each patch says why it exists and
has a test that stock xDSL still has the gap it fills (``tests/compat/
test_patches.py``, which runs xDSL's own code), so the suite fails as soon as a new
xDSL no longer needs one, and the patch can go.
Each one also fails loudly (:class:`XdslChangedError`) if the xDSL code it wraps is
no longer what it expects.

The patches only widen what xDSL accepts or how precisely it reports errors; none of
them changes what stock xDSL prints or computes for a program that it already
handles. ``tools/xdsl_own_suite.sh`` runs xDSL's own filecheck suite with and without
the package to show it.

A module per kind of change: ``dialects`` (dialects and op classes in xDSL's
place), ``linalg`` (MLIR's element casts in linalg contractions), ``locations``
(source locations), ``parser`` (MLIR text xDSL's parser
refused, hung or crashed on), ``printer`` (MLIR's printed forms), ``pipelines``
(MLIR's pass-pipeline syntax), ``opt_tool`` (``xdsl-opt``'s files, diagnostics and
command lines), ``performance`` (start-up and linear cost), ``parsing_speed``
(the cost of parsing an op); ``_base`` holds what they share. This module re-exports them all
and lists them in :data:`PATCHES`.

Nothing here imports the rest of the package (this package sits below the dialect
layer): the patches that need xdsl-gpu's code get it as an argument from
``xdsl_gpu.gpu_dialect.registration``, which applies them.
"""

from __future__ import annotations

from xdsl_gpu.compat._base import (
    XDSL_VERSION,
    Patch,
    XdslChangedError,
    is_patched,
    original,
)
from xdsl_gpu.compat.class_checks import mro_class_checks
from xdsl_gpu.compat.debug_info import (
    PRINT_LOCAL_SCOPE,
    debug_info_syntax,
    location_aliases,
)
from xdsl_gpu.compat.dialects import (
    dialects_allow_unknown_operations,
    remember_failing_ops,
    replace_context_dialect,
    verify_dialect_attributes_with,
    xdsl_dispatch_follows_subclasses,
)
from xdsl_gpu.compat.linalg import linalg_contractions_cast_inputs
from xdsl_gpu.compat.locations import (
    CHUNK_LINE_OFFSET,
    record_source_locations,
)
from xdsl_gpu.compat.op_verification import (
    linear_isolation_check,
    plain_op_verification,
    remembered_op_constraints,
)
from xdsl_gpu.compat.opt_tool import (
    InternalParseError,
    InternalPassError,
    InternalVerifyError,
    check_utf8_text,
    diagnose_internal_errors,
    dialects_chosen_per_run,
    read_input_file,
    safe_opt_files,
    upstream_command_lines,
    write_output_file,
)
from xdsl_gpu.compat.parser import (
    _LINEAR_STRING,
    _XDSL_STRING,
    DENSE_ELEMENT_LIMIT,
    NonAffineExpressionError,
    block_redeclaration_after_forward_use,
    bounded_dense_literals,
    empty_input_is_an_empty_module,
    fast_string_literals,
    hex_floats_in_dense_literals,
    is_symbolic_or_constant,
    linear_string_literals,
    semi_affine_expressions,
    spaced_shape_delimiters,
    upstream_scf_parallel_syntax,
    upstream_scf_while_syntax,
)
from xdsl_gpu.compat.parsing_speed import regex_tokens, statement_forms
from xdsl_gpu.compat.performance import (
    first_pass_input_as_text,
    indexed_symbol_lookup,
    lazy_assembly_formats,
    no_second_verification,
    parse_lazy_formats,
    plain_op_construction,
    remembered_builtin_types,
)
from xdsl_gpu.compat.pipelines import (
    PassPipelineError,
    mlir_pipeline_to_xdsl,
    upstream_pass_pipelines,
)
from xdsl_gpu.compat.printer import (
    llvm_constant_keeps_its_type,
    upstream_affine_map_aliases,
    upstream_block_predecessor_comments,
    upstream_llvm_type_syntax,
    upstream_memory_space_printing,
    upstream_scf_parallel_printing,
    upstream_special_float_printing,
)

__all__ = [
    "CHUNK_LINE_OFFSET",
    "DENSE_ELEMENT_LIMIT",
    "PATCHES",
    "PRINT_LOCAL_SCOPE",
    "XDSL_VERSION",
    "_LINEAR_STRING",
    "_XDSL_STRING",
    "InternalParseError",
    "InternalPassError",
    "InternalVerifyError",
    "NonAffineExpressionError",
    "PassPipelineError",
    "Patch",
    "XdslChangedError",
    "block_redeclaration_after_forward_use",
    "bounded_dense_literals",
    "check_utf8_text",
    "debug_info_syntax",
    "diagnose_internal_errors",
    "dialects_allow_unknown_operations",
    "dialects_chosen_per_run",
    "empty_input_is_an_empty_module",
    "fast_string_literals",
    "first_pass_input_as_text",
    "hex_floats_in_dense_literals",
    "indexed_symbol_lookup",
    "is_patched",
    "is_symbolic_or_constant",
    "lazy_assembly_formats",
    "linalg_contractions_cast_inputs",
    "linear_isolation_check",
    "linear_string_literals",
    "llvm_constant_keeps_its_type",
    "location_aliases",
    "mlir_pipeline_to_xdsl",
    "mro_class_checks",
    "no_second_verification",
    "original",
    "parse_lazy_formats",
    "plain_op_construction",
    "plain_op_verification",
    "read_input_file",
    "record_source_locations",
    "regex_tokens",
    "remember_failing_ops",
    "remembered_builtin_types",
    "remembered_op_constraints",
    "replace_context_dialect",
    "safe_opt_files",
    "semi_affine_expressions",
    "spaced_shape_delimiters",
    "statement_forms",
    "upstream_affine_map_aliases",
    "upstream_block_predecessor_comments",
    "upstream_command_lines",
    "upstream_llvm_type_syntax",
    "upstream_memory_space_printing",
    "upstream_pass_pipelines",
    "upstream_scf_parallel_printing",
    "upstream_scf_parallel_syntax",
    "upstream_scf_while_syntax",
    "upstream_special_float_printing",
    "verify_dialect_attributes_with",
    "write_output_file",
    "xdsl_dispatch_follows_subclasses",
]

# -- the list ----------------------------------------------------------------------------

PATCHES: tuple[Patch, ...] = (
    Patch(
        "dialects_chosen_per_run",
        "Universe.get_multiverse() refuses a plugin that defines a dialect or pass "
        "name xDSL defines too, and xdsl-opt reads the plugins once, before its "
        "arguments: xdsl-gpu chooses per run between xDSL's gpu, llvm, arith, "
        "math, memref, vector, lower-affine, convert-scf-to-cf, "
        "reconcile-unrealized-casts and its own, so that a program that does not "
        "use xdsl-gpu runs as with xDSL alone.",
    ),
    Patch(
        "verify_dialect_attributes_with",
        "xDSL has no Dialect::verifyOperationAttribute: discardable gpu.* and nvvm.* "
        "attributes are checked by wrapping Operation.verify.",
    ),
    Patch(
        "dialects_allow_unknown_operations",
        "xDSL accepts ops it does not know only for a whole Context "
        "(allow_unregistered); MLIR's test dialect accepts any test.* op "
        "(Dialect::allowsUnknownOperations), which upstream's GPU tests rely on "
        '("test.use.shared.memory"(%0) without -allow-unregistered-dialect).',
    ),
    Patch(
        "remember_failing_ops",
        "xDSL's verification errors do not say which op failed, so diagnostics "
        "could not give its file:line:col.",
    ),
    Patch(
        "record_source_locations",
        "xDSL's parser leaves every op at loc(unknown); MLIR records file:line:col.",
    ),
    Patch(
        "fast_string_literals",
        "xDSL decodes string literals one character at a time in Python: seconds per "
        "megabyte of embedded GPU binary.",
    ),
    Patch(
        "semi_affine_expressions",
        "xDSL raises NotImplementedError for semi-affine products and divisions "
        "that MLIR accepts (seed 002's loop-to-GPU map).",
    ),
    Patch(
        "upstream_llvm_type_syntax",
        "xDSL prints types nested in llvm types fully qualified and flag lists "
        "without spaces; MLIR's printed form is the project's contract. This one "
        "changes what stock xDSL prints for llvm types and flags (both forms parse "
        "either way).",
    ),
    Patch(
        "upstream_pass_pipelines",
        "xDSL's pipeline parser reads neither MLIR's op anchors "
        "(builtin.module(gpu.module(...))) nor bare option values such as "
        "cubin-features=+ptx80, and reports an unknown pass or option as a bare "
        "ValueError (a traceback).",
    ),
    Patch(
        "safe_opt_files",
        "xdsl-opt opens -o for writing before it reads the input (-o in.mlir "
        "destroys the input; a failed run leaves an empty file) and lets a missing, "
        "binary or directory input end in a traceback.",
    ),
    Patch(
        "diagnose_internal_errors",
        "An exception that a parser, verifier or pass raises on input it did not "
        "foresee (AttributeError, an out-of-range ValueError, ...) ends xdsl-opt in "
        "a traceback.",
    ),
    Patch(
        "linear_string_literals",
        "xDSL's string-literal pattern backtracks exponentially on a string left "
        "open: a missing quote hangs xdsl-opt.",
    ),
    Patch(
        "spaced_shape_delimiters",
        "xDSL's parser refuses a memref or tensor shape with spaces around its "
        "x (memref<2 x 32 x f32>, upstream's transform-gpu.mlir): 'Expected 'x' in "
        "shape delimiter'. Runs that use xdsl-gpu only.",
    ),
    Patch(
        "upstream_scf_while_syntax",
        "xDSL's scf.while parser refuses `scf.while : () -> ()`, the form MLIR "
        "prints for a loop without operands.",
    ),
    Patch(
        "upstream_scf_parallel_syntax",
        "xDSL's scf.parallel has no custom format: `scf.parallel (%i) = (%lb) to "
        "(%ub) step (%s) {...}`, the form MLIR prints and upstream's tests use, is "
        "'does not have a custom format'.",
    ),
    Patch(
        "upstream_scf_parallel_printing",
        "xDSL prints scf.parallel in generic form only; MLIR's printed form is the "
        "project's contract. Runs that use xdsl-gpu only (it changes what stock "
        "xDSL prints).",
    ),
    Patch(
        "upstream_memory_space_printing",
        "xDSL prints an integer memory space with its type (memref<4xf32, 3 : "
        "i64>); MLIR elides an i64 one (memref<4xf32, 3>), and upstream's tests "
        "check that form. Runs that use xdsl-gpu only (it changes what stock xDSL "
        "prints).",
    ),
    Patch(
        "upstream_special_float_printing",
        "xDSL prints a NaN or infinite float's bit pattern in lower-case hex "
        "(0x7e00 : f16); MLIR in upper case (0x7E00), which upstream's tests check. "
        "Runs that use xdsl-gpu only (it changes what stock xDSL prints).",
    ),
    Patch(
        "upstream_affine_map_aliases",
        "xDSL prints each affine map where it is used, in its own syntax "
        "(affine.apply affine_map<()[s0] -> ((s0 floordiv 16))> ()[%t]); MLIR names "
        "the maps it prints once, before the module (#map = affine_map<()[s0] -> (s0 "
        "floordiv 16)>, affine.apply #map()[%t]), and upstream's tests check the "
        "aliases. Runs that use xdsl-gpu only (it changes what stock xDSL prints).",
    ),
    Patch(
        "upstream_block_predecessor_comments",
        "xDSL prints a block label alone; MLIR adds a note of its predecessors "
        "(^bb1:  // 2 preds: ^bb0, ^bb2), which upstream's tests check. Runs that "
        "use xdsl-gpu only (it changes what stock xDSL prints).",
    ),
    Patch(
        "hex_floats_in_dense_literals",
        "xDSL reads a hexadecimal literal in a dense<...> of floats as an integer "
        "value instead of the element's bit pattern (a silent miscompile of what "
        "mlir-opt prints).",
    ),
    Patch(
        "upstream_command_lines",
        "xdsl-opt has no --pass-pipeline, no flag per pass "
        '(-gpu-lower-to-nvvm-pipeline="..."), no --mlir-print-ir-after-all or '
        "--mlir-timing, and argparse takes no single-dash long options "
        "(-split-input-file; -pass-pipeline=... is -p ass-pipeline=...) and no "
        "llvm::cl booleans (=1): upstream's command lines fail.",
    ),
    Patch(
        "bounded_dense_literals",
        "xDSL expands a dense splat into one Python value per element: "
        "dense<1> : vector<2147483647xi32> never finishes.",
    ),
    Patch(
        "block_redeclaration_after_forward_use",
        "xDSL's parser fails with a KeyError on a block label defined twice after "
        "a branch used it first.",
    ),
    Patch(
        "empty_input_is_an_empty_module",
        "xDSL's parser refuses an input without operations (Could not parse entire "
        "input!); MLIR reads it as an empty module.",
    ),
    Patch(
        "llvm_constant_keeps_its_type",
        "xDSL prints llvm.mlir.constant(1 : index) : i64 as (1) : i64, which reads "
        "back as an i64 value.",
    ),
    Patch(
        "xdsl_dispatch_follows_subclasses",
        "xdsl-run's interpreter and the -t llvm backend look ops up by exact class "
        "with no extension point, so our subclasses of xDSL's ops are unknown there.",
    ),
    Patch(
        "linalg_contractions_cast_inputs",
        "xDSL's linalg.matmul multiplies its inputs without casting them to the "
        "output's element type (f16 x f16 -> f32 lowers to an ill-typed arith.addf "
        "of f16 and f32) and its conv ops extend only integers (an assertion for "
        "floats); MLIR casts each input first (extf, extsi, sitofp, ...; unsigned "
        "with {cast = #linalg.type_fn<cast_unsigned>}, an attribute xDSL lacks). "
        "Runs that use xdsl-gpu only.",
    ),
    Patch(
        "lazy_assembly_formats",
        "xDSL parses every op's declarative assembly format when the class is "
        "defined: about 600 formats, ~90 ms of every xdsl-opt start.",
    ),
    Patch(
        "indexed_symbol_lookup",
        "SymbolTable.lookup_symbol scans the table's block on every lookup: "
        "verifying n calls to n functions is quadratic (seconds at 192 gpu.modules).",
    ),
    Patch(
        "no_second_verification",
        "xdsl-opt verifies the module after the last pass even when that pass "
        "(gpu-lower-to-nvvm-pipeline) has just verified it: 0.2 s of compiling 64 "
        "copies of seed 002.",
    ),
    Patch(
        "first_pass_input_as_text",
        "xdsl-opt keeps no way to get its input again but a copy: "
        "gpu-lower-to-nvvm-pipeline copied every input (~9 µs an op) only to "
        "replay its steps should its result fail to verify.",
    ),
    Patch(
        "remembered_builtin_types",
        "xDSL builds every memref<...>, vector<...>, tensor<...> of the input anew "
        "(MemRefType checks its layout each time): a quarter of parsing a GPU "
        "program that repeats a few types thousands of times.",
    ),
    Patch(
        "plain_op_construction",
        "xDSL's op builder normalizes every argument for variadic and optional "
        "parts and counts segments even for an op that has none: as costly as "
        "making the op, for every op parsed or built by a pass.",
    ),
    Patch(
        "plain_op_verification",
        "xDSL's verifier checks an op's operand and result counts through its "
        "general variadic machinery even for ops that have no variadic part: 40% "
        "of verifying a 4000-op kernel.",
    ),
    Patch(
        "remembered_op_constraints",
        "xDSL checks every op against its definition's constraints anew, though for "
        "an op without regions the answer depends only on the definition and the "
        "op's types and attributes, which a large kernel repeats thousands of times: "
        "70% of verifying a 4000-op kernel (14 µs an op; mlir-opt-22 verifies it "
        "whole in a few ms).",
    ),
    Patch(
        "linear_isolation_check",
        "xDSL's IsolatedFromAbove.verify walks up the parents of every operand's "
        "definition inside the isolated op (is_ancestor): a cost per operand that "
        "grows with the nesting, 10% of verifying a 4000-op kernel in a gpu.launch.",
    ),
    Patch(
        "statement_forms",
        "xDSL's lexer, parser and assembly-format interpreter do the same work for "
        "every statement of a repeated form (%x5 = arith.mulf %x4, %x2 : f32): "
        "~80 µs each, 4000 statements of a large kernel 0.32 s where mlir-opt-22 "
        "compiles it whole in 0.13 s.",
    ),
    Patch(
        "regex_tokens",
        "xDSL's MLIR lexer tries one character class at a time through several "
        "method calls: ~3 µs a token, a quarter of parsing what is not a repeated "
        "statement.",
    ),
    Patch(
        "debug_info_syntax",
        "xDSL's parser refuses MLIR's builtin distinct[N]<...> attributes (the id "
        "of a debug-info compile unit), fused locations with metadata "
        "(loc(fused<#di_subprogram>[...])) and location aliases used before their "
        "definition after the module, as MLIR prints them.",
    ),
    Patch(
        "location_aliases",
        "xDSL prints every location in place; MLIR's -mlir-print-debuginfo prints "
        "loc(#loc3) and the definitions after the module, which upstream's CHECK "
        "lines match ([[LOC:#loc[0-9]*]] = loc(...)). Runs that use xdsl-gpu only "
        "(it changes what stock xDSL prints); -mlir-print-local-scope keeps them "
        "in place.",
    ),
    Patch(
        "mro_class_checks",
        "xDSL's op and attribute classes are ABCs: the first isinstance(x, C) that "
        "is false for a class of x asks every subclass of C in turn, recursively "
        "(~0.8 ms against Operation with ~570 op classes), ~40k such questions in "
        "a stock xdsl-opt run on seed 002. Runs that use xdsl-gpu only.",
    ),
    Patch(
        "replace_context_dialect",
        "Context.register_dialect refuses a second registration of a name and has "
        "no way to replace one: register_dialects(ctx) puts our gpu, llvm, arith, "
        "math, memref in place of xDSL's in a user's Context.",
    ),
)
"""Every patch of this module, with the test of the gap it fills."""
