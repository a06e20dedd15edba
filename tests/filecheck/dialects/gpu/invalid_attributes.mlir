// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s

// Every rule of the gpu dialect's attributes and types, worded as mlir-opt-22 words
// it (tests/gpu_dialect/test_attributes.py feeds every chunk to mlir-opt-22).

// Enum attributes: upstream's generated enum parsers.

func.func @address_space_unknown() attributes {x = #gpu.address_space<constant>} {
  func.return
}
// CHECK: @address_space_unknown(
// CHECK: expected ::mlir::gpu::AddressSpace to be one of: global, workgroup, private

// -----

func.func @address_space_not_keyword() attributes {x = #gpu.address_space<1>} {
  func.return
}
// CHECK: @address_space_not_keyword(
// CHECK: expected valid keyword or string

// -----

func.func @address_space_no_brackets() attributes {x = #gpu.address_space} {
  func.return
}
// CHECK: @address_space_no_brackets(
// CHECK: expected '<'

// -----

func.func @mapping_id_unknown() attributes {x = #gpu.block<w>} {
  func.return
}
// CHECK: @mapping_id_unknown(
// CHECK: expected ::mlir::gpu::MappingId to be one of: x, y, z, linear_dim_0, linear_dim_1, linear_dim_2, linear_dim_3, linear_dim_4, linear_dim_5, linear_dim_6, linear_dim_7, linear_dim_8, linear_dim_9

// -----

func.func @mapping_id_linear_dim_10() attributes {x = #gpu.thread<linear_dim_10>} {
  func.return
}
// CHECK: @mapping_id_linear_dim_10(
// CHECK: expected ::mlir::gpu::MappingId to be one of: x, y, z, linear_dim_0

// -----

func.func @mapping_id_upper_case() attributes {x = #gpu.warp<X>} {
  func.return
}
// CHECK: @mapping_id_upper_case(
// CHECK: expected ::mlir::gpu::MappingId to be one of: x, y, z, linear_dim_0

// -----

func.func @mapping_id_number() attributes {x = #gpu.lane<0>} {
  func.return
}
// CHECK: @mapping_id_number(
// CHECK: expected valid keyword or string

// -----

func.func @warpgroup_unknown() attributes {x = #gpu.warpgroup<w>} {
  func.return
}
// CHECK: @warpgroup_unknown(
// CHECK: expected ::mlir::gpu::MappingId to be one of: x, y, z, linear_dim_0

// -----

func.func @memory_space_unknown() attributes {x = #gpu.memory_space<constant>} {
  func.return
}
// CHECK: @memory_space_unknown(
// CHECK: expected ::mlir::gpu::AddressSpace to be one of: global, workgroup, private

// -----

func.func @mask_not_integer() attributes {x = #gpu.mask<x>} {
  func.return
}
// CHECK: @mask_not_integer(
// CHECK: expected integer value

// -----

func.func @mask_too_large() attributes {x = #gpu.mask<18446744073709551616>} {
  func.return
}
// CHECK: @mask_too_large(
// CHECK: integer value too large

// -----

func.func @mask_two_values() attributes {x = #gpu.mask<1, 2>} {
  func.return
}
// CHECK: @mask_two_values(
// CHECK: expected '>'

// -----

// #gpu.loop_dim_map: struct(processor, map, bound), all three required.

func.func @loop_dim_map_missing_field() attributes {x = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0)>} {
  func.return
}
// CHECK: @loop_dim_map_missing_field(
// CHECK: expected ','

// -----

func.func @loop_dim_map_empty() attributes {x = #gpu.loop_dim_map<>} {
  func.return
}
// CHECK: @loop_dim_map_empty(
// CHECK: expected valid keyword

// -----

func.func @loop_dim_map_unknown_processor() attributes {x = #gpu.loop_dim_map<processor = warp_x, map = (d0) -> (d0), bound = (d0) -> (d0)>} {
  func.return
}
// CHECK: @loop_dim_map_unknown_processor(
// CHECK: expected ::mlir::gpu::Processor to be one of: block_x, block_y, block_z, thread_x, thread_y, thread_z, sequential

// -----

func.func @loop_dim_map_duplicate_field() attributes {x = #gpu.loop_dim_map<processor = block_x, processor = block_x, map = (d0) -> (d0)>} {
  func.return
}
// CHECK: @loop_dim_map_duplicate_field(
// CHECK: duplicate or unknown struct parameter name: processor

// -----

func.func @loop_dim_map_unknown_field() attributes {x = #gpu.loop_dim_map<processor = block_x, foo = block_x, map = (d0) -> (d0)>} {
  func.return
}
// CHECK: @loop_dim_map_unknown_field(
// CHECK: duplicate or unknown struct parameter name: foo

// -----

func.func @loop_dim_map_extra_field() attributes {x = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0), processor = block_x>} {
  func.return
}
// CHECK: @loop_dim_map_extra_field(
// CHECK: expected '>'

// -----

// #gpu.select_object: an index >= 0 or a GPU target.

func.func @select_object_negative_index() attributes {x = #gpu.select_object<-1 : i64>} {
  func.return
}
// CHECK: @select_object_negative_index(
// CHECK: the object index must be positive

// -----

func.func @select_object_true() attributes {x = #gpu.select_object<true>} {
  func.return
}
// CHECK: @select_object_true(
// CHECK: the object index must be positive

// -----

func.func @select_object_not_a_target() attributes {x = #gpu.select_object<"x">} {
  func.return
}
// CHECK: @select_object_not_a_target(
// CHECK: the target attribute must be a GPU Target attribute

// -----

func.func @select_object_not_a_target_gpu_attr() attributes {x = #gpu.select_object<#gpu.address_space<global>>} {
  func.return
}
// CHECK: @select_object_not_a_target_gpu_attr(
// CHECK: the target attribute must be a GPU Target attribute

// -----

func.func @select_object_empty_brackets() attributes {x = #gpu.select_object<>} {
  func.return
}
// CHECK: @select_object_empty_brackets(
// CHECK: expected attribute value

// -----

func.func @select_object_two_targets() attributes {x = #gpu.select_object<1, 2>} {
  func.return
}
// CHECK: @select_object_two_targets(
// CHECK: expected '>'

// -----

// #gpu.kernel_metadata and #gpu.kernel_table.

func.func @kernel_metadata_empty_name() attributes {x = #gpu.kernel_metadata<"", () -> ()>} {
  func.return
}
// CHECK: @kernel_metadata_empty_name(
// CHECK: the kernel name can't be empty

// -----

func.func @kernel_metadata_arg_attrs_not_dicts() attributes {x = #gpu.kernel_metadata<"k", (i32) -> (), arg_attrs = [1]>} {
  func.return
}
// CHECK: @kernel_metadata_arg_attrs_not_dicts(
// CHECK: all attributes in the array must be a dictionary attribute

// -----

func.func @kernel_metadata_bare_name() attributes {x = #gpu.kernel_metadata<k, () -> ()>} {
  func.return
}
// CHECK: @kernel_metadata_bare_name(
// CHECK: expected attribute value

// -----

func.func @kernel_metadata_symbol_name() attributes {x = #gpu.kernel_metadata<@k, () -> ()>} {
  func.return
}
// CHECK: @kernel_metadata_symbol_name(
// CHECK: invalid kind of attribute specified

// -----

func.func @kernel_metadata_duplicate_field() attributes {x = #gpu.kernel_metadata<"k", () -> (), arg_attrs = [], arg_attrs = []>} {
  func.return
}
// CHECK: @kernel_metadata_duplicate_field(
// CHECK: duplicate or unknown struct parameter name: arg_attrs

// -----

func.func @kernel_metadata_unknown_field() attributes {x = #gpu.kernel_metadata<"k", () -> (), foo = []>} {
  func.return
}
// CHECK: @kernel_metadata_unknown_field(
// CHECK: duplicate or unknown struct parameter name: foo

// -----

func.func @kernel_metadata_trailing_comma() attributes {x = #gpu.kernel_metadata<"k", () -> (), arg_attrs = [], >} {
  func.return
}
// CHECK: @kernel_metadata_trailing_comma(
// CHECK: expected valid keyword

// -----

func.func @kernel_metadata_comma_after_all_fields() attributes {x = #gpu.kernel_metadata<"k", () -> (), arg_attrs = [], metadata = {}, >} {
  func.return
}
// CHECK: @kernel_metadata_comma_after_all_fields(
// CHECK: expected valid keyword

// -----

func.func @kernel_metadata_arg_attrs_not_array() attributes {x = #gpu.kernel_metadata<"k", () -> (), arg_attrs = {}>} {
  func.return
}
// CHECK: @kernel_metadata_arg_attrs_not_array(
// CHECK: invalid kind of attribute specified

// -----

func.func @kernel_metadata_metadata_not_dict() attributes {x = #gpu.kernel_metadata<"k", () -> (), metadata = []>} {
  func.return
}
// CHECK: @kernel_metadata_metadata_not_dict(
// CHECK: invalid kind of attribute specified

// -----

func.func @kernel_table_duplicate_names() attributes {x = #gpu.kernel_table<[#gpu.kernel_metadata<"a", () -> ()>, #gpu.kernel_metadata<"a", (i32) -> ()>]>} {
  func.return
}
// CHECK: @kernel_table_duplicate_names(
// CHECK: expected all kernels to be uniquely named

// -----

func.func @kernel_table_not_kernel() attributes {x = #gpu.kernel_table<[#gpu.select_object]>} {
  func.return
}
// CHECK: @kernel_table_not_kernel(
// CHECK: invalid kind of attribute specified

// -----

// #gpu.object: syntax errors come before the target check, as upstream.

func.func @object_target_not_a_target() attributes {x = #gpu.object<"x", "abc">} {
  func.return
}
// CHECK: @object_target_not_a_target(
// CHECK: the target attribute must implement or promise the `gpu::TargetAttrInterface`

// -----

func.func @object_target_gpu_attr() attributes {x = #gpu.object<#gpu.address_space<global>, "abc">} {
  func.return
}
// CHECK: @object_target_gpu_attr(
// CHECK: the target attribute must implement or promise the `gpu::TargetAttrInterface`

// -----

func.func @object_no_target() attributes {x = #gpu.object<>} {
  func.return
}
// CHECK: @object_no_target(
// CHECK: expected attribute value

// -----

func.func @object_unknown_format() attributes {x = #gpu.object<#gpu.address_space<global>, isa = "abc">} {
  func.return
}
// CHECK: @object_unknown_format(
// CHECK: expected keyword for GPU object format

// -----

func.func @object_missing_equal() attributes {x = #gpu.object<#gpu.address_space<global>, bin "abc">} {
  func.return
}
// CHECK: @object_missing_equal(
// CHECK: expected '='

// -----

func.func @object_payload_not_string() attributes {x = #gpu.object<#gpu.address_space<global>, bin = 1>} {
  func.return
}
// CHECK: @object_payload_not_string(
// CHECK: invalid kind of attribute specified

// -----

func.func @object_payload_missing() attributes {x = #gpu.object<#gpu.address_space<global>>} {
  func.return
}
// CHECK: @object_payload_missing(
// CHECK: expected ','

// -----

func.func @object_payload_empty() attributes {x = #gpu.object<#gpu.address_space<global>, >} {
  func.return
}
// CHECK: @object_payload_empty(
// CHECK: expected attribute value

// -----

func.func @object_kernels_before_properties() attributes {x = #gpu.object<#gpu.address_space<global>, kernels = <>, properties = {a}, "abc">} {
  func.return
}
// CHECK: @object_kernels_before_properties(
// CHECK: expected keyword for GPU object format

// -----

func.func @object_properties_not_dict() attributes {x = #gpu.object<#gpu.address_space<global>, properties = [], "abc">} {
  func.return
}
// CHECK: @object_properties_not_dict(
// CHECK: invalid kind of attribute specified

// -----

func.func @object_kernels_not_table() attributes {x = #gpu.object<#gpu.address_space<global>, kernels = [], "abc">} {
  func.return
}
// CHECK: @object_kernels_not_table(
// CHECK: expected '<'

// -----

func.func @object_kernels_other_gpu_attr() attributes {x = #gpu.object<#gpu.address_space<global>, kernels = #gpu.select_object, "abc">} {
  func.return
}
// CHECK: @object_kernels_other_gpu_attr(
// CHECK: invalid kind of attribute specified

// -----

func.func @object_kernels_duplicate_names() attributes {x = #gpu.object<#gpu.address_space<global>, kernels = <[#gpu.kernel_metadata<"a", () -> ()>, #gpu.kernel_metadata<"a", () -> ()>]>, "abc">} {
  func.return
}
// CHECK: @object_kernels_duplicate_names(
// CHECK: expected all kernels to be uniquely named

// -----

// !gpu.mma_matrix: 2-D static shape, element si8/ui8/i32/f16/f32/f64, operand AOp/BOp/COp.

func.func @mma_matrix_signless_i8(%a: !gpu.mma_matrix<16x16xi8, "AOp">) {
  func.return
}
// CHECK: @mma_matrix_signless_i8(
// CHECK: MMAMatrixType elements must be SI8, UI8, I32, F16, F32, or F64

// -----

func.func @mma_matrix_bf16(%a: !gpu.mma_matrix<16x16xbf16, "AOp">) {
  func.return
}
// CHECK: @mma_matrix_bf16(
// CHECK: MMAMatrixType elements must be SI8, UI8, I32, F16, F32, or F64

// -----

func.func @mma_matrix_vector_element(%a: !gpu.mma_matrix<16x16xvector<2xf16>, "AOp">) {
  func.return
}
// CHECK: @mma_matrix_vector_element(
// CHECK: MMAMatrixType elements must be SI8, UI8, I32, F16, F32, or F64

// -----

func.func @mma_matrix_one_dim(%a: !gpu.mma_matrix<16xf16, "AOp">) {
  func.return
}
// CHECK: @mma_matrix_one_dim(
// CHECK: MMAMatrixType must have exactly two dimensions

// -----

func.func @mma_matrix_three_dims(%a: !gpu.mma_matrix<16x16x16xf16, "AOp">) {
  func.return
}
// CHECK: @mma_matrix_three_dims(
// CHECK: MMAMatrixType must have exactly two dimensions

// -----

func.func @mma_matrix_no_dims(%a: !gpu.mma_matrix<f16, "AOp">) {
  func.return
}
// CHECK: @mma_matrix_no_dims(
// CHECK: MMAMatrixType must have exactly two dimensions

// -----

func.func @mma_matrix_bad_operand(%a: !gpu.mma_matrix<16x16xf16, "DOp">) {
  func.return
}
// CHECK: @mma_matrix_bad_operand(
// CHECK: operand expected to be one of AOp, BOp or COp

// -----

func.func @mma_matrix_dynamic(%a: !gpu.mma_matrix<?x16xf16, "AOp">) {
  func.return
}
// CHECK: @mma_matrix_dynamic(
// CHECK: expected static shape

// -----

// Discardable attributes, checked wherever IR is verified (the verifier hook of
// xdsl_gpu/gpu_dialect/registration.py, as upstream's GPUDialect::verifyOperationAttribute).

func.func @known_block_size_two() attributes {gpu.known_block_size = array<i32: 1, 2>} {
  func.return
}
// CHECK: 'func.func' op gpu.known_block_size must contain exactly 3 elements

// -----

func.func @known_grid_size_i64() attributes {gpu.known_grid_size = array<i64: 1, 2, 3>} {
  func.return
}
// CHECK: 'func.func' op gpu.known_grid_size must be a dense i32 array

// -----

func.func @known_cluster_size_array() attributes {gpu.known_cluster_size = [1, 2, 3]} {
  func.return
}
// CHECK: 'func.func' op gpu.known_cluster_size must be a dense i32 array

// -----

func.func @container_module_on_a_function() attributes {gpu.container_module} {
  func.return
}
// CHECK: expected 'gpu.container_module' attribute to be attached to 'builtin.module'

// -----

func.func @select_object_float() attributes {x = #gpu.select_object<1.0 : f32>} {
  func.return
}
// CHECK: the target attribute must be a GPU Target attribute
