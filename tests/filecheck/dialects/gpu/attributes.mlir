// RUN: XDSL_ROUNDTRIP
// RUN: xdsl-opt %s --split-input-file | filecheck %s

// The attributes and types of the gpu dialect in upstream's syntax, as discardable
// attributes of func.func (where mlir-opt-22 accepts any attribute). Every chunk is
// also checked against mlir-opt-22 by tests/test_mlir_conformance.py.

// CHECK-LABEL: func.func @address_spaces()
// CHECK-SAME: attributes {a = #gpu.address_space<global>, b = #gpu.address_space<workgroup>, c = #gpu.address_space<private>, d = #gpu.address_space<global>}
func.func @address_spaces() attributes {a = #gpu.address_space<global>, b = #gpu.address_space<workgroup>, c = #gpu.address_space<private>, d = #gpu.address_space<"global">} {
  func.return
}

// -----

// CHECK-LABEL: func.func @address_space_in_memref
// CHECK-SAME: (%a: memref<4xf32, #gpu.address_space<workgroup>>, %b: memref<?xi8, #gpu.address_space<private>>)
func.func @address_space_in_memref(%a: memref<4xf32, #gpu.address_space<workgroup>>, %b: memref<?xi8, #gpu.address_space<private>>) {
  func.return
}

// -----

// Mapping ids: x, y, z and linear_dim_0 ... linear_dim_9.

// CHECK-LABEL: func.func @mapping_ids()
// CHECK-SAME: attributes {b = #gpu.block<x>, t = #gpu.thread<linear_dim_0>, w = #gpu.warp<y>, wg = #gpu.warpgroup<z>, l = #gpu.lane<x>, t9 = #gpu.thread<linear_dim_9>, b5 = #gpu.block<linear_dim_5>}
func.func @mapping_ids() attributes {b = #gpu.block<x>, t = #gpu.thread<linear_dim_0>, w = #gpu.warp<y>, wg = #gpu.warpgroup<z>, l = #gpu.lane<x>, t9 = #gpu.thread<linear_dim_9>, b5 = #gpu.block<linear_dim_5>} {
  func.return
}

// -----

// CHECK-LABEL: func.func @memory_space_and_mask()
// CHECK-SAME: attributes {g = #gpu.memory_space<global>, w = #gpu.memory_space<workgroup>, p = #gpu.memory_space<private>, m = #gpu.mask<5>, z = #gpu.mask<0>, all = #gpu.mask<18446744073709551615>, hex = #gpu.mask<16>}
func.func @memory_space_and_mask() attributes {g = #gpu.memory_space<global>, w = #gpu.memory_space<workgroup>, p = #gpu.memory_space<private>, m = #gpu.mask<5>, z = #gpu.mask<0>, all = #gpu.mask<-1>, hex = #gpu.mask<0x10>} {
  func.return
}

// -----

// The fields of loop_dim_map may come in any order; they print in one.

// CHECK-LABEL: func.func @loop_dim_map()
// CHECK-SAME: attributes {a = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>,
// CHECK-SAME: b = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0 * 4), bound = (d0) -> (d0 ceildiv 4)>,
// CHECK-SAME: c = #gpu.loop_dim_map<processor = thread_z, map = (d0, d1)[s0] -> (d0 floordiv 2 + s0 mod 3, -d0, d0 * 2 - 1, d1 - d0), bound = () -> ()>}
func.func @loop_dim_map() attributes {
  a = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>,
  b = #gpu.loop_dim_map<bound = (d0) -> (d0 ceildiv 4), map = (d0) -> (d0 * 4), processor = sequential>,
  c = #gpu.loop_dim_map<processor = thread_z, map = (d0, d1)[s0] -> (d0 floordiv 2 + s0 mod 3, -d0, d0 * 2 - 1, d1 - d0), bound = () -> ()>
} {
  func.return
}

// -----

// CHECK-LABEL: func.func @loop_dim_map_processors()
// CHECK-SAME: #gpu.loop_dim_map<processor = block_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
// CHECK-SAME: #gpu.loop_dim_map<processor = block_z, map = (d0) -> (d0), bound = (d0) -> (d0)>
// CHECK-SAME: #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
// CHECK-SAME: #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func @loop_dim_map_processors() attributes {
  mapping = [#gpu.loop_dim_map<processor = block_y, map = (d0) -> (d0), bound = (d0) -> (d0)>,
             #gpu.loop_dim_map<processor = block_z, map = (d0) -> (d0), bound = (d0) -> (d0)>,
             #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>,
             #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>]
} {
  func.return
}

// -----

// Discardable attributes the dialect verifies.

// CHECK: builtin.module attributes {gpu.container_module}
module attributes {gpu.container_module} {
  // CHECK-LABEL: func.func @known_sizes()
  // CHECK-SAME: attributes {gpu.kernel, gpu.known_block_size = array<i32: 128, 1, 1>, gpu.known_grid_size = array<i32: 4, 2, 1>, gpu.known_cluster_size = array<i32: 2, 1, 1>}
  func.func @known_sizes() attributes {gpu.kernel, gpu.known_block_size = array<i32: 128, 1, 1>, gpu.known_grid_size = array<i32: 4, 2, 1>, gpu.known_cluster_size = array<i32: 2, 1, 1>} {
    func.return
  }
}

// -----

// CHECK-LABEL: func.func @select_object()
// CHECK-SAME: attributes {a = #gpu.select_object, b = #gpu.select_object<1 : i64>, c = #gpu.select_object<2 : i64>, d = #gpu.select_object<0 : index>, e = #gpu.select_object<3 : i32>}
func.func @select_object() attributes {a = #gpu.select_object, b = #gpu.select_object<1 : i64>, c = #gpu.select_object<2>, d = #gpu.select_object<0 : index>, e = #gpu.select_object<3 : i32>} {
  func.return
}

// -----

// CHECK-LABEL: func.func @kernel_metadata()
// CHECK-SAME: a = #gpu.kernel_metadata<"k", (i32) -> (), arg_attrs = [{llvm.noalias}], metadata = {reg_count = 10 : i32}>
// CHECK-SAME: b = #gpu.kernel_metadata<"k", (i32, f32) -> ()>
// CHECK-SAME: c = #gpu.kernel_metadata<"k", (memref<4xf32>) -> (), arg_attrs = [{}], metadata = {a}>
// CHECK-SAME: d = #gpu.kernel_metadata<"k", () -> ()>
// CHECK-SAME: e = #gpu.kernel_metadata<"k\00", () -> (), metadata = {}>
// CHECK-SAME: f = #gpu.kernel_metadata<"kernel name", () -> (), arg_attrs = []>
func.func @kernel_metadata() attributes {
  a = #gpu.kernel_metadata<"k", (i32) -> (), arg_attrs = [{llvm.noalias}], metadata = {reg_count = 10 : i32}>,
  b = #gpu.kernel_metadata<"k", (i32, f32) -> ()>,
  c = #gpu.kernel_metadata<"k", (memref<4xf32>) -> (), metadata = {a}, arg_attrs = [{}]>,
  d = #gpu.kernel_metadata<"k", () -> (), >,
  e = #gpu.kernel_metadata<"k\00", () -> (), metadata = {}>,
  f = #gpu.kernel_metadata<"kernel name", () -> (), arg_attrs = []>
} {
  func.return
}

// -----

// A kernel table is sorted by name (bytewise: "B" < "a" < "b").

// CHECK-LABEL: func.func @kernel_table()
// CHECK-SAME: a = #gpu.kernel_table<>
// CHECK-SAME: b = #gpu.kernel_table<[#gpu.kernel_metadata<"B", () -> ()>, #gpu.kernel_metadata<"a", (i32) -> (), metadata = {x = 1 : i64}>, #gpu.kernel_metadata<"b", () -> ()>]>
func.func @kernel_table() attributes {
  a = #gpu.kernel_table<>,
  b = #gpu.kernel_table<[#gpu.kernel_metadata<"b", () -> ()>, #gpu.kernel_metadata<"B", () -> ()>, #gpu.kernel_metadata<"a", (i32) -> (), metadata = {x = 1}>]>
} {
  func.return
}

// -----

// CHECK-LABEL: func.func @types
// CHECK-SAME: (%a: !gpu.mma_matrix<16x16xf16, "AOp">, %b: !gpu.mma_matrix<16x8xsi8, "BOp">, %c: !gpu.mma_matrix<8x32xf32, "COp">,
// CHECK-SAME: %d: !gpu.mma_matrix<16x16xui8, "AOp">, %e: !gpu.mma_matrix<16x16xi32, "COp">, %f: !gpu.mma_matrix<8x8xf64, "COp">,
// CHECK-SAME: %g: !gpu.mma_matrix<16x16xsi32, "COp">, %h: !gpu.mma_matrix<0x16xf16, "AOp">,
// CHECK-SAME: %i: !gpu.sparse.dntensor_handle, %j: !gpu.sparse.spmat_handle, %k: !gpu.sparse.spgemmop_handle, %l: !gpu.async.token)
func.func @types(%a: !gpu.mma_matrix<16x16xf16, "AOp">, %b: !gpu.mma_matrix<16x8xsi8, "BOp">, %c: !gpu.mma_matrix<8x32xf32,"COp">,
                 %d: !gpu.mma_matrix<16x16xui8, "AOp">, %e: !gpu.mma_matrix<16x16xi32, "COp">, %f: !gpu.mma_matrix<8x8xf64, "COp">,
                 %g: !gpu.mma_matrix<16x16xsi32, "COp">, %h: !gpu.mma_matrix<0x16xf16, "AOp">,
                 %i: !gpu.sparse.dntensor_handle, %j: !gpu.sparse.spmat_handle, %k: !gpu.sparse.spgemmop_handle, %l: !gpu.async.token) {
  func.return
}

// -----

// Objects: the default format (fatbin) is elided; the payload is any bytes, printed
// with MLIR's escapes.

// CHECK-LABEL: func.func @objects()
// CHECK-SAME: a = #gpu.object<#nvvm.target, "abc">
// CHECK-SAME: b = #gpu.object<#nvvm.target, "fat">
// CHECK-SAME: c = #gpu.object<#nvvm.target<chip = "sm_90">, bin = "\00\01\7F\80\C0\FF\22\\">
// CHECK-SAME: d = #gpu.object<#nvvm.target, offload = "BC\C0\DE">
// CHECK-SAME: e = #gpu.object<#nvvm.target<O = 3>, properties = {O = 3 : i32, section = "sec"}, assembly = "\0A\09\22\\ptx\00">
// CHECK-SAME: f = #gpu.object<#nvvm.target, "">
// CHECK-SAME: g = #gpu.object<#nvvm.target, "\C3\A9">
func.func @objects() attributes {
  a = #gpu.object<#nvvm.target, "abc">,
  b = #gpu.object<#nvvm.target, fatbin = "fat">,
  c = #gpu.object<#nvvm.target<chip = "sm_90">, bin = "\00\01\7f\80\C0\ff\22\\">,
  d = #gpu.object<#nvvm.target, offload = "BC\C0\DE">,
  e = #gpu.object<#nvvm.target<O = 3>, properties = {O = 3 : i32, section = "sec"}, assembly = "\n\t\"\\ptx\00">,
  f = #gpu.object<#nvvm.target, "">,
  g = #gpu.object<#nvvm.target, "é">
} {
  func.return
}

// -----

// Kernel tables inside objects print stripped (`kernels = <...>`), sorted by name.

// CHECK-LABEL: func.func @objects_with_kernels()
// CHECK-SAME: a = #gpu.object<#nvvm.target, kernels = <>, "x">
// CHECK-SAME: b = #gpu.object<#nvvm.target, properties = {a}, kernels = <[#gpu.kernel_metadata<"a", (i32) -> (), metadata = {x = 1 : i64}>, #gpu.kernel_metadata<"b", () -> ()>]>, bin = "y">
func.func @objects_with_kernels() attributes {
  a = #gpu.object<#nvvm.target, kernels = #gpu.kernel_table<>, "x">,
  b = #gpu.object<#nvvm.target, properties = {a}, kernels = <[#gpu.kernel_metadata<"b", () -> ()>, #gpu.kernel_metadata<"a", (i32) -> (), metadata = {x = 1}>]>, bin = "y">
} {
  func.return
}

// -----

// CHECK-LABEL: func.func @select_object_by_target()
// CHECK-SAME: attributes {a = #gpu.select_object<#nvvm.target>, b = #gpu.select_object<#nvvm.target<chip = "sm_90">>}
func.func @select_object_by_target() attributes {a = #gpu.select_object<#nvvm.target>, b = #gpu.select_object<#nvvm.target<chip = "sm_90">>} {
  func.return
}

// -----

// Every value of every enum attribute of the dialect, on its own (not only inside an
// op's custom syntax).

// CHECK-LABEL: func.func @enum_dim()
// CHECK-SAME: attributes {a = #gpu<dim x>, b = #gpu<dim y>, c = #gpu<dim z>}
func.func @enum_dim() attributes {a = #gpu<dim x>, b = #gpu<dim y>, c = #gpu<dim z>} {
  func.return
}

// -----

// CHECK-LABEL: func.func @enum_all_reduce_op()
// CHECK-SAME: attributes {a = #gpu<all_reduce_op add>, b = #gpu<all_reduce_op mul>, c = #gpu<all_reduce_op minui>, d = #gpu<all_reduce_op minsi>, e = #gpu<all_reduce_op minnumf>, f = #gpu<all_reduce_op maxui>, g = #gpu<all_reduce_op maxsi>, h = #gpu<all_reduce_op maxnumf>, i = #gpu<all_reduce_op and>, j = #gpu<all_reduce_op or>, k = #gpu<all_reduce_op xor>, l = #gpu<all_reduce_op minimumf>, m = #gpu<all_reduce_op maximumf>}
func.func @enum_all_reduce_op() attributes {a = #gpu<all_reduce_op add>, b = #gpu<all_reduce_op mul>, c = #gpu<all_reduce_op minui>, d = #gpu<all_reduce_op minsi>, e = #gpu<all_reduce_op minnumf>, f = #gpu<all_reduce_op maxui>, g = #gpu<all_reduce_op maxsi>, h = #gpu<all_reduce_op maxnumf>, i = #gpu<all_reduce_op and>, j = #gpu<all_reduce_op or>, k = #gpu<all_reduce_op xor>, l = #gpu<all_reduce_op minimumf>, m = #gpu<all_reduce_op maximumf>} {
  func.return
}

// -----

// CHECK-LABEL: func.func @enum_shuffle_mode()
// CHECK-SAME: attributes {a = #gpu<shuffle_mode xor>, b = #gpu<shuffle_mode up>, c = #gpu<shuffle_mode down>, d = #gpu<shuffle_mode idx>}
func.func @enum_shuffle_mode() attributes {a = #gpu<shuffle_mode xor>, b = #gpu<shuffle_mode up>, c = #gpu<shuffle_mode down>, d = #gpu<shuffle_mode idx>} {
  func.return
}

// -----

// CHECK-LABEL: func.func @enum_broadcast()
// CHECK-SAME: attributes {a = #gpu<broadcast first_active_lane>, b = #gpu<broadcast specific_lane>}
func.func @enum_broadcast() attributes {a = #gpu<broadcast first_active_lane>, b = #gpu<broadcast specific_lane>} {
  func.return
}

// -----

// CHECK-LABEL: func.func @enum_mma_element_wise()
// CHECK-SAME: attributes {a = #gpu<mma_element_wise addf>, b = #gpu<mma_element_wise mulf>, c = #gpu<mma_element_wise subf>, d = #gpu<mma_element_wise maxf>, e = #gpu<mma_element_wise minf>, f = #gpu<mma_element_wise divf>, g = #gpu<mma_element_wise addi>, h = #gpu<mma_element_wise muli>, i = #gpu<mma_element_wise subi>, j = #gpu<mma_element_wise divs>, k = #gpu<mma_element_wise divu>, l = #gpu<mma_element_wise negatef>, m = #gpu<mma_element_wise negates>, n = #gpu<mma_element_wise extf>}
func.func @enum_mma_element_wise() attributes {a = #gpu<mma_element_wise addf>, b = #gpu<mma_element_wise mulf>, c = #gpu<mma_element_wise subf>, d = #gpu<mma_element_wise maxf>, e = #gpu<mma_element_wise minf>, f = #gpu<mma_element_wise divf>, g = #gpu<mma_element_wise addi>, h = #gpu<mma_element_wise muli>, i = #gpu<mma_element_wise subi>, j = #gpu<mma_element_wise divs>, k = #gpu<mma_element_wise divu>, l = #gpu<mma_element_wise negatef>, m = #gpu<mma_element_wise negates>, n = #gpu<mma_element_wise extf>} {
  func.return
}

// -----

// CHECK-LABEL: func.func @enum_prune_2to4_spmat_flag()
// CHECK-SAME: attributes {a = #gpu<prune_2to4_spmat_flag NONE>, b = #gpu<prune_2to4_spmat_flag PRUNE_ONLY>, c = #gpu<prune_2to4_spmat_flag PRUNE_AND_CHECK>}
func.func @enum_prune_2to4_spmat_flag() attributes {a = #gpu<prune_2to4_spmat_flag NONE>, b = #gpu<prune_2to4_spmat_flag PRUNE_ONLY>, c = #gpu<prune_2to4_spmat_flag PRUNE_AND_CHECK>} {
  func.return
}

// -----

// CHECK-LABEL: func.func @enum_mat_transpose_mode()
// CHECK-SAME: attributes {a = #gpu<mat_transpose_mode NON_TRANSPOSE>, b = #gpu<mat_transpose_mode TRANSPOSE>, c = #gpu<mat_transpose_mode CONJUGATE_TRANSPOSE>}
func.func @enum_mat_transpose_mode() attributes {a = #gpu<mat_transpose_mode NON_TRANSPOSE>, b = #gpu<mat_transpose_mode TRANSPOSE>, c = #gpu<mat_transpose_mode CONJUGATE_TRANSPOSE>} {
  func.return
}

// -----

// CHECK-LABEL: func.func @enum_spgemm_work_estimation_or_compute_kind()
// CHECK-SAME: attributes {a = #gpu<spgemm_work_estimation_or_compute_kind WORK_ESTIMATION>, b = #gpu<spgemm_work_estimation_or_compute_kind COMPUTE>}
func.func @enum_spgemm_work_estimation_or_compute_kind() attributes {a = #gpu<spgemm_work_estimation_or_compute_kind WORK_ESTIMATION>, b = #gpu<spgemm_work_estimation_or_compute_kind COMPUTE>} {
  func.return
}

// -----

// CHECK-LABEL: func.func @enum_address_space()
// CHECK-SAME: attributes {a = #gpu.address_space<global>, b = #gpu.address_space<workgroup>, c = #gpu.address_space<private>}
func.func @enum_address_space() attributes {a = #gpu.address_space<global>, b = #gpu.address_space<workgroup>, c = #gpu.address_space<private>} {
  func.return
}

// -----

// CHECK-LABEL: func.func @enum_block()
// CHECK-SAME: attributes {a = #gpu.block<x>, b = #gpu.block<y>, c = #gpu.block<z>, d = #gpu.block<linear_dim_0>, e = #gpu.block<linear_dim_1>, f = #gpu.block<linear_dim_2>, g = #gpu.block<linear_dim_3>, h = #gpu.block<linear_dim_4>, i = #gpu.block<linear_dim_5>, j = #gpu.block<linear_dim_6>, k = #gpu.block<linear_dim_7>, l = #gpu.block<linear_dim_8>, m = #gpu.block<linear_dim_9>}
func.func @enum_block() attributes {a = #gpu.block<x>, b = #gpu.block<y>, c = #gpu.block<z>, d = #gpu.block<linear_dim_0>, e = #gpu.block<linear_dim_1>, f = #gpu.block<linear_dim_2>, g = #gpu.block<linear_dim_3>, h = #gpu.block<linear_dim_4>, i = #gpu.block<linear_dim_5>, j = #gpu.block<linear_dim_6>, k = #gpu.block<linear_dim_7>, l = #gpu.block<linear_dim_8>, m = #gpu.block<linear_dim_9>} {
  func.return
}

// -----

// CHECK-LABEL: func.func @enum_warpgroup()
// CHECK-SAME: attributes {a = #gpu.warpgroup<x>, b = #gpu.warpgroup<y>, c = #gpu.warpgroup<z>, d = #gpu.warpgroup<linear_dim_0>, e = #gpu.warpgroup<linear_dim_1>, f = #gpu.warpgroup<linear_dim_2>, g = #gpu.warpgroup<linear_dim_3>, h = #gpu.warpgroup<linear_dim_4>, i = #gpu.warpgroup<linear_dim_5>, j = #gpu.warpgroup<linear_dim_6>, k = #gpu.warpgroup<linear_dim_7>, l = #gpu.warpgroup<linear_dim_8>, m = #gpu.warpgroup<linear_dim_9>}
func.func @enum_warpgroup() attributes {a = #gpu.warpgroup<x>, b = #gpu.warpgroup<y>, c = #gpu.warpgroup<z>, d = #gpu.warpgroup<linear_dim_0>, e = #gpu.warpgroup<linear_dim_1>, f = #gpu.warpgroup<linear_dim_2>, g = #gpu.warpgroup<linear_dim_3>, h = #gpu.warpgroup<linear_dim_4>, i = #gpu.warpgroup<linear_dim_5>, j = #gpu.warpgroup<linear_dim_6>, k = #gpu.warpgroup<linear_dim_7>, l = #gpu.warpgroup<linear_dim_8>, m = #gpu.warpgroup<linear_dim_9>} {
  func.return
}

// -----

// CHECK-LABEL: func.func @enum_warp()
// CHECK-SAME: attributes {a = #gpu.warp<x>, b = #gpu.warp<y>, c = #gpu.warp<z>, d = #gpu.warp<linear_dim_0>, e = #gpu.warp<linear_dim_1>, f = #gpu.warp<linear_dim_2>, g = #gpu.warp<linear_dim_3>, h = #gpu.warp<linear_dim_4>, i = #gpu.warp<linear_dim_5>, j = #gpu.warp<linear_dim_6>, k = #gpu.warp<linear_dim_7>, l = #gpu.warp<linear_dim_8>, m = #gpu.warp<linear_dim_9>}
func.func @enum_warp() attributes {a = #gpu.warp<x>, b = #gpu.warp<y>, c = #gpu.warp<z>, d = #gpu.warp<linear_dim_0>, e = #gpu.warp<linear_dim_1>, f = #gpu.warp<linear_dim_2>, g = #gpu.warp<linear_dim_3>, h = #gpu.warp<linear_dim_4>, i = #gpu.warp<linear_dim_5>, j = #gpu.warp<linear_dim_6>, k = #gpu.warp<linear_dim_7>, l = #gpu.warp<linear_dim_8>, m = #gpu.warp<linear_dim_9>} {
  func.return
}

// -----

// CHECK-LABEL: func.func @enum_thread()
// CHECK-SAME: attributes {a = #gpu.thread<x>, b = #gpu.thread<y>, c = #gpu.thread<z>, d = #gpu.thread<linear_dim_0>, e = #gpu.thread<linear_dim_1>, f = #gpu.thread<linear_dim_2>, g = #gpu.thread<linear_dim_3>, h = #gpu.thread<linear_dim_4>, i = #gpu.thread<linear_dim_5>, j = #gpu.thread<linear_dim_6>, k = #gpu.thread<linear_dim_7>, l = #gpu.thread<linear_dim_8>, m = #gpu.thread<linear_dim_9>}
func.func @enum_thread() attributes {a = #gpu.thread<x>, b = #gpu.thread<y>, c = #gpu.thread<z>, d = #gpu.thread<linear_dim_0>, e = #gpu.thread<linear_dim_1>, f = #gpu.thread<linear_dim_2>, g = #gpu.thread<linear_dim_3>, h = #gpu.thread<linear_dim_4>, i = #gpu.thread<linear_dim_5>, j = #gpu.thread<linear_dim_6>, k = #gpu.thread<linear_dim_7>, l = #gpu.thread<linear_dim_8>, m = #gpu.thread<linear_dim_9>} {
  func.return
}

// -----

// CHECK-LABEL: func.func @enum_lane()
// CHECK-SAME: attributes {a = #gpu.lane<x>, b = #gpu.lane<y>, c = #gpu.lane<z>, d = #gpu.lane<linear_dim_0>, e = #gpu.lane<linear_dim_1>, f = #gpu.lane<linear_dim_2>, g = #gpu.lane<linear_dim_3>, h = #gpu.lane<linear_dim_4>, i = #gpu.lane<linear_dim_5>, j = #gpu.lane<linear_dim_6>, k = #gpu.lane<linear_dim_7>, l = #gpu.lane<linear_dim_8>, m = #gpu.lane<linear_dim_9>}
func.func @enum_lane() attributes {a = #gpu.lane<x>, b = #gpu.lane<y>, c = #gpu.lane<z>, d = #gpu.lane<linear_dim_0>, e = #gpu.lane<linear_dim_1>, f = #gpu.lane<linear_dim_2>, g = #gpu.lane<linear_dim_3>, h = #gpu.lane<linear_dim_4>, i = #gpu.lane<linear_dim_5>, j = #gpu.lane<linear_dim_6>, k = #gpu.lane<linear_dim_7>, l = #gpu.lane<linear_dim_8>, m = #gpu.lane<linear_dim_9>} {
  func.return
}

// -----

// CHECK-LABEL: func.func @enum_memory_space()
// CHECK-SAME: attributes {a = #gpu.memory_space<global>, b = #gpu.memory_space<workgroup>, c = #gpu.memory_space<private>}
func.func @enum_memory_space() attributes {a = #gpu.memory_space<global>, b = #gpu.memory_space<workgroup>, c = #gpu.memory_space<private>} {
  func.return
}
