// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s

// Every verifier rule of gpu.module, gpu.func, gpu.return, gpu.binary, gpu.launch,
// gpu.terminator and gpu.launch_func, worded as mlir-opt 22 words it:
// tests/gpu_dialect/test_kernel_ops.py checks that mlir-opt-22 rejects every chunk
// with the same message, except the chunks marked NO-MLIR-OPT.

gpu.module @no_targets [] {
}

// CHECK: 'gpu.module' op attribute 'targets' failed to satisfy constraint: array of GPU target attributes with at least 1 elements

// -----

"gpu.module"() <{sym_name = "block_arguments"}> ({
^bb0(%a: i32):
}) : () -> ()

// CHECK: 'gpu.module' op region should have no arguments

// -----

// The module asks each target to check it (here #nvvm.target's SM requirements).

gpu.module @cluster_ids_on_volta [#nvvm.target<chip = "sm_70">] {
  gpu.func @k() kernel {
    %0 = nvvm.read.ptx.sreg.clusterid.x : i32
    gpu.return
  }
}

// CHECK: 'nvvm.read.ptx.sreg.clusterid.x' op is not supported on sm_70

// -----

builtin.module @not_a_gpu_module {
  gpu.func @f() {
    gpu.return
  }
}

// CHECK: 'gpu.func' op expects parent op 'gpu.module'

// -----

gpu.module @m {
  gpu.func @unnamed(f32, f32) {
    gpu.return
  }
}

// CHECK: gpu.func requires named arguments

// -----

gpu.module @m {
  gpu.func @kernel() workgroup(%w: i32) {
    gpu.return
  }
}

// CHECK: 'gpu.func' op expected memref type in attribution

// -----

gpu.module @m {
  gpu.func @kernel() workgroup(%w: memref<4xf32, #gpu.address_space<private>>) {
    gpu.return
  }
}

// CHECK: 'gpu.func' op expected memory space workgroup in attribution

// -----

gpu.module @m {
  gpu.func @kernel() private(%p: memref<4xf32, #gpu.address_space<workgroup>>) {
    gpu.return
  }
}

// CHECK: 'gpu.func' op expected memory space private in attribution

// -----

gpu.module @m {
  gpu.func @kernel() -> index kernel {
    %0 = arith.constant 0 : index
    gpu.return %0 : index
  }
}

// CHECK: 'gpu.func' op expected void return type for kernel function

// -----

gpu.module @m {
  "gpu.func"() <{function_type = (f32, memref<?xf32>) -> ()}> ({
  ^bb0(%arg0: f32, %arg1: memref<?xf32>, %arg2: memref<5xf32, 3>, %arg3: memref<5xf32, 5>):
    "gpu.return"() : () -> ()
  }) {gpu.kernel, sym_name = "kernel_1", workgroup_attributions = 3 : i64} : () -> ()
}

// CHECK: 'gpu.func' op expected at least 5 arguments to body region

// -----

gpu.module @m {
  "gpu.func"() <{function_type = () -> ()}> ({
  }) {gpu.kernel, sym_name = "kernel"} : () -> ()
}

// CHECK: 'gpu.func' op expected body with at least one block

// -----

gpu.module @m {
  "gpu.func"() <{function_type = (f32) -> ()}> ({
  ^bb0(%arg0: i32):
    "gpu.return"() : () -> ()
  }) {sym_name = "kernel"} : () -> ()
}

// CHECK: 'gpu.func' op expected body region argument #0 to be of type 'f32', got 'i32'

// -----

gpu.module @m {
  gpu.func @kernel() kernel attributes {known_block_size = array<i32: 32, 1>} {
    gpu.return
  }
}

// CHECK: 'gpu.func' op attribute 'known_block_size' failed to satisfy constraint: i32 dense array attribute with 3 elements (if present)

// -----

gpu.module @m {
  "gpu.func"() <{function_type = (f32) -> (), arg_attrs = [{}, {}]}> ({
  ^bb0(%arg0: f32):
    "gpu.return"() : () -> ()
  }) {sym_name = "kernel"} : () -> ()
}

// CHECK: 'gpu.func' op expects argument attribute array to have the same number of elements as the number of function arguments, got 2, but expected 1

// -----

gpu.module @m {
  gpu.func @kernel() {
    %0 = arith.constant 0 : index
    gpu.return %0 : index
  }
}

// CHECK: 'gpu.return' op expected 0 result operands

// -----

gpu.module @m {
  gpu.func @device() -> f32 {
    %0 = arith.constant 0 : index
    gpu.return %0 : index
  }
}

// CHECK: 'gpu.return' op unexpected type `'index'' for operand #0

// -----

func.func @return_outside_func() {
  gpu.return
}

// CHECK: 'gpu.return' op expects parent op 'gpu.func'

// -----

func.func @terminator_outside_launch() {
  gpu.terminator
}

// CHECK: 'gpu.terminator' op expects parent op 'gpu.launch'

// -----

gpu.binary @no_objects []

// CHECK: 'gpu.binary' op attribute 'objects' failed to satisfy constraint: an array of GPU object attributes with at least 1 elements

// -----

func.func @launch_partial_cluster(%d: index) {
  "gpu.launch"(%d, %d, %d, %d, %d, %d, %d) <{operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0>}> ({
  ^bb0(%a0: index, %a1: index, %a2: index, %a3: index, %a4: index, %a5: index, %a6: index, %a7: index, %a8: index, %a9: index, %a10: index, %a11: index):
    gpu.terminator
  }) {workgroup_attributions = 0 : i64} : (index, index, index, index, index, index, index) -> ()
  return
}

// CHECK: 'gpu.launch' op cluster size must be all present

// -----

func.func @launch_too_few_region_arguments(%sz: index) {
  "gpu.launch"(%sz, %sz, %sz, %sz, %sz, %sz) <{operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0>}> ({
  ^bb1(%bx: index, %by: index, %bz: index, %tx: index, %ty: index, %tz: index):
    gpu.terminator
  }) : (index, index, index, index, index, index) -> ()
  return
}

// CHECK: 'gpu.launch' op unexpected number of region arguments

// -----

func.func @launch_requires_gpu_terminator(%sz: index) {
  gpu.launch blocks(%bx, %by, %bz) in (%sbx = %sz, %sby = %sz, %sbz = %sz)
             threads(%tx, %ty, %tz) in (%stx = %sz, %sty = %sz, %stz = %sz) {
    %one = arith.constant 1 : i32
    "gpu.yield"(%one) : (i32) -> ()
  }
  return
}

// CHECK: expected 'gpu.terminator' or a terminator with successors

// -----

func.func @launch_workgroup_space(%sz: index) {
  gpu.launch blocks(%bx, %by, %bz) in (%sbx = %sz, %sby = %sz, %sbz = %sz)
             threads(%tx, %ty, %tz) in (%stx = %sz, %sty = %sz, %stz = %sz)
             workgroup(%w: memref<4xf32, #gpu.address_space<private>>) {
    gpu.terminator
  }
  return
}

// CHECK: 'gpu.launch' op expected memory space workgroup in attribution

// -----

func.func @launch_private_space(%sz: index) {
  gpu.launch blocks(%bx, %by, %bz) in (%sbx = %sz, %sby = %sz, %sbz = %sz)
             threads(%tx, %ty, %tz) in (%stx = %sz, %sty = %sz, %stz = %sz)
             private(%p: memref<4xf32, #gpu.address_space<global>>) {
    gpu.terminator
  }
  return
}

// CHECK: 'gpu.launch' op expected memory space private in attribution

// -----

func.func @launch_attribution_not_memref(%sz: index) {
  gpu.launch blocks(%bx, %by, %bz) in (%sbx = %sz, %sby = %sz, %sbz = %sz)
             threads(%tx, %ty, %tz) in (%stx = %sz, %sty = %sz, %stz = %sz)
             private(%p: f32) {
    gpu.terminator
  }
  return
}

// CHECK: 'gpu.launch' op expected memref type in attribution

// -----

// NO-MLIR-OPT: beyond upstream, which accepts launch arguments of any type.

func.func @launch_region_argument_type(%sz: index) {
  "gpu.launch"(%sz, %sz, %sz, %sz, %sz, %sz) <{operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0>}> ({
  ^bb1(%bx: index, %by: index, %bz: index, %tx: index, %ty: index, %tz: index, %gx: index, %gy: index, %gz: i32, %sx: index, %sy: index, %sz2: index):
    gpu.terminator
  }) : (index, index, index, index, index, index) -> ()
  return
}

// CHECK: 'gpu.launch' op expected region argument #8 to be of type 'index', got 'i32'

// -----

// NO-MLIR-OPT: beyond upstream, which crashes printing a launch without a body.

func.func @launch_empty_body(%sz: index) {
  "gpu.launch"(%sz, %sz, %sz, %sz, %sz, %sz) <{operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0>}> ({
  }) : (index, index, index, index, index, index) -> ()
  return
}

// CHECK: 'gpu.launch' op expected a non-empty body region

// -----

func.func @launch_func_missing_parent_module_attribute(%sz: index) {
  gpu.launch_func @foo::@bar blocks in (%sz, %sz, %sz) threads in (%sz, %sz, %sz)
  return
}

// CHECK: 'gpu.launch_func' op expected the closest surrounding module to have the 'gpu.container_module' attribute

// -----

module attributes {gpu.container_module} {
  func.func @launch_func_undefined_module(%sz: index) {
    gpu.launch_func @kernels::@kernel_1 blocks in (%sz, %sz, %sz) threads in (%sz, %sz, %sz)
    return
  }
}

// CHECK: 'gpu.launch_func' op kernel container 'kernels' is undefined

// -----

module attributes {gpu.container_module} {
  module @kernels {
  }
  func.func @launch_func_missing_module_attribute(%sz: index) {
    gpu.launch_func @kernels::@kernel_1 blocks in (%sz, %sz, %sz) threads in (%sz, %sz, %sz)
    return
  }
}

// CHECK: 'gpu.launch_func' op kernel module 'kernels' is undefined

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
  }
  func.func @launch_func_undefined_function(%sz: index) {
    gpu.launch_func @kernels::@kernel_1 blocks in (%sz, %sz, %sz) threads in (%sz, %sz, %sz)
    return
  }
}

// CHECK: 'gpu.launch_func' op kernel function '@kernels::@kernel_1' is undefined

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    "memref.global"() <{sym_name = "kernel_1", sym_visibility = "private", type = memref<4xi32>, initial_value}> : () -> ()
  }
  func.func @launch_func_not_a_function(%sz: index) {
    gpu.launch_func @kernels::@kernel_1 blocks in (%sz, %sz, %sz) threads in (%sz, %sz, %sz)
    return
  }
}

// CHECK: 'gpu.launch_func' op referenced kernel '@kernels::@kernel_1' is not a function

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel_1(%arg1: !llvm.ptr) {
      gpu.return
    }
  }
  func.func @launch_func_missing_kernel_attr(%sz: index, %arg: !llvm.ptr) {
    gpu.launch_func @kernels::@kernel_1 blocks in (%sz, %sz, %sz) threads in (%sz, %sz, %sz) args(%arg : !llvm.ptr)
    return
  }
}

// CHECK: 'gpu.launch_func' op kernel function is missing the 'gpu.kernel' attribute

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel_1(%arg1: !llvm.ptr) kernel {
      gpu.return
    }
  }
  func.func @launch_func_kernel_operand_size(%sz: index, %arg: !llvm.ptr) {
    gpu.launch_func @kernels::@kernel_1 blocks in (%sz, %sz, %sz) threads in (%sz, %sz, %sz) args(%arg : !llvm.ptr, %arg : !llvm.ptr)
    return
  }
}

// CHECK: 'gpu.launch_func' op got 2 kernel operands but expected 1

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel_1(%arg1: f32) kernel {
      gpu.return
    }
  }
  func.func @launch_func_kernel_operand_types(%sz: index, %arg: f64) {
    gpu.launch_func @kernels::@kernel_1 blocks in (%sz, %sz, %sz) threads in (%sz, %sz, %sz) args(%arg : f64)
    return
  }
}

// CHECK: 'gpu.launch_func' op type of function argument 0 does not match

// -----

// The launch sizes share one type (index, i32 or i64).

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel_1() kernel {
      gpu.return
    }
  }
  func.func @launch_func_mixed_dim_types(%c: i32, %d: index) {
    "gpu.launch_func"(%c, %c, %c, %d, %c, %c) <{kernel = @kernels::@kernel_1, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>}> : (i32, i32, i32, index, i32, i32) -> ()
    return
  }
}

// CHECK: 'gpu.launch_func' op failed to verify that all of {gridSizeX, gridSizeY, gridSizeZ, blockSizeX, blockSizeY, blockSizeZ} have same type

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel_1() kernel {
      gpu.return
    }
  }
  func.func @launch_func_cluster_types(%c: i32, %d: index) {
    "gpu.launch_func"(%c, %c, %c, %c, %c, %c, %c, %d, %c) <{kernel = @kernels::@kernel_1, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0>}> : (i32, i32, i32, i32, i32, i32, i32, index, i32) -> ()
    return
  }
}

// CHECK: 'gpu.launch_func' op expects types of the cluster dimensions must be the same

// -----

// NO-MLIR-OPT: beyond upstream, which accepts it and then prints
// `clusters in (%c, , )`.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel_1() kernel {
      gpu.return
    }
  }
  func.func @launch_func_partial_cluster(%c: index) {
    "gpu.launch_func"(%c, %c, %c, %c, %c, %c, %c) <{kernel = @kernels::@kernel_1, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0>}> : (index, index, index, index, index, index, index) -> ()
    return
  }
}

// CHECK: 'gpu.launch_func' op cluster size must be all present

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel_1() kernel {
      gpu.return
    }
  }
  func.func @launch_func_dim_type(%c: f32, %t: !gpu.async.token) {
    "gpu.launch_func"(%t, %c, %c, %c, %c, %c, %c) <{kernel = @kernels::@kernel_1, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>}> : (!gpu.async.token, f32, f32, f32, f32, f32, f32) -> ()
    return
  }
}

// CHECK: 'gpu.launch_func' op operand #1 must be index or 32-bit signless integer or 64-bit signless integer, but got 'f32'

// -----

// NO-MLIR-OPT: beyond upstream, which checks only launches directly inside a
// function of the container module and accepts this one.

module attributes {gpu.container_module} {
  func.func @nested_launch(%sz: index) {
    scf.for %i = %sz to %sz step %sz {
      gpu.launch_func @kernels::@kernel_1 blocks in (%sz, %sz, %sz) threads in (%sz, %sz, %sz)
    }
    return
  }
}

// CHECK: 'gpu.launch_func' op kernel container 'kernels' is undefined

// -----

// NO-MLIR-OPT: beyond upstream, which silently drops a launch-size hint of the wrong
// element type.

gpu.module @m {
  gpu.func @kernel() kernel attributes {known_grid_size = array<i64: 1, 1, 1>} {
    gpu.return
  }
}

// CHECK: Expected attribute i32 but got i64

// -----

// NO-MLIR-OPT: beyond upstream, which says only "expected ','" here.
func.func @launch_two_block_ids(%c: index) {
  gpu.launch blocks(%bx, %by) in (%gx = %c, %gy = %c) threads(%tx, %ty, %tz) in (%sx = %c, %sy = %c, %sz = %c) {
    gpu.terminator
  }
  func.return
}

// CHECK: expected 3 identifiers (x, y, z), got 2

// -----

// NO-MLIR-OPT: beyond upstream, which says only "expected ','" here.
func.func @launch_two_block_sizes(%c: index) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c, %gy = %c) threads(%tx, %ty, %tz) in (%sx = %c, %sy = %c, %sz = %c) {
    gpu.terminator
  }
  func.return
}

// CHECK: expected 3 size assignments (x, y, z), got 2

// -----

// Upstream checks an op's own operand count before the ops in its body: the
// misplaced gpu.yield is not the first error.
func.func @launch_four_sizes(%n: index) {
  "gpu.launch"(%n, %n, %n, %n) ({
    %c = arith.constant 0 : i32
    "gpu.yield"(%c) : (i32) -> ()
  }) {operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0>} : (index, index, index, index) -> ()
  func.return
}

// CHECK: 'gpu.launch' op expected 6 or more operands, but found 4

// -----

func.func @launch_func_three_sizes(%n: index) {
  "gpu.launch_func"(%n, %n, %n) <{kernel = @m::@k, operandSegmentSizes = array<i32: 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0>}> : (index, index, index) -> ()
  func.return
}

// CHECK: 'gpu.launch_func' op expected 6 or more operands, but found 3

// -----

module attributes {gpu.container_module} {
  func.func @launch_func_boolean_kernel(%n: index) {
    gpu.launch_func true blocks in (%n, %n, %n) threads in (%n, %n, %n)
    func.return
  }
}

// CHECK: custom op 'gpu.launch_func' invalid kind of attribute specified

// -----

module attributes {gpu.container_module} {
  func.func @launch_func_integer_kernel(%n: index) {
    gpu.launch_func 7 blocks in (%n, %n, %n) threads in (%n, %n, %n)
    func.return
  }
}

// CHECK: integer literal not valid for specified type

// -----

module attributes {gpu.container_module} {
  func.func @launch_func_args_without_comma(%n: index, %x: f32) {
    gpu.launch_func @m::@k blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%x : f32 %x : f32)
    func.return
  }
}

// CHECK: expected ')' in argument list

// -----

// The kernel's result type is reported before its gpu.return, which returns
// nothing.
gpu.module @kernel_with_result {
  gpu.func @k(%x: f32) -> f32 kernel {
    gpu.return
  }
}

// CHECK: 'gpu.func' op expected void return type for kernel function

// -----

gpu.module @function_type_not_a_function {
  "gpu.func"() ({
    gpu.return
  }) {sym_name = "k", function_type = index} : () -> ()
}

// CHECK: 'gpu.func' op attribute 'function_type' failed to satisfy constraint: type attribute of function type

// -----

gpu.module @unnamed_arguments {
  gpu.func @k(index, f32) {
    gpu.return
  }
}

// CHECK: custom op 'gpu.func' gpu.func requires named arguments

// -----

gpu.module @named_after_unnamed {
  gpu.func @k(index, %y: index) {
    gpu.return
  }
}

// CHECK: custom op 'gpu.func' expected type instead of SSA identifier

// -----

gpu.module @unnamed_after_named {
  gpu.func @k(%x: index, f32) {
    gpu.return
  }
}

// CHECK: custom op 'gpu.func' expected SSA identifier

// -----

gpu.module @string_target ["sm_90"] {
}

// CHECK: 'gpu.module' op attribute 'targets' failed to satisfy constraint: array of GPU target attributes with at least 1 elements

// -----

gpu.binary @string_handler <"embed"> [#gpu.object<#nvvm.target, "">]

// CHECK: 'gpu.binary' op attribute 'offloadingHandler' failed to satisfy constraint: any attribute with the `OffloadingTranslationAttrTrait` trait.

// -----

gpu.binary @integer_object [42]

// CHECK: 'gpu.binary' op attribute 'objects' failed to satisfy constraint: an array of GPU object attributes with at least 1 elements
