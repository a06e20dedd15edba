// RUN: XDSL_ROUNDTRIP
// RUN: xdsl-opt %s --split-input-file | filecheck %s

// The sparse (cuSPARSE) ops in upstream's syntax. Every chunk is also checked
// against mlir-opt-22 by tests/test_mlir_conformance.py.

// CHECK-LABEL: func.func @matvec
func.func @matvec(%arg0: index) {
  // CHECK:      %token0 = gpu.wait async
  // CHECK-NEXT: %mem1, %token1 = gpu.alloc async [%token0] (%arg0) : memref<?xindex>
  // CHECK-NEXT: %mem2, %token2 = gpu.alloc async [%token1] (%arg0) : memref<?xf64>
  // CHECK-NEXT: %spmat, %token3 = gpu.create_coo async [%token2] %arg0, %arg0, %arg0, %mem1, %mem1, %mem2 : memref<?xindex>, memref<?xindex>, memref<?xf64>
  // CHECK-NEXT: %dnvec, %token4 = gpu.create_dn_tensor async [%token3] %mem2, %arg0 : index into memref<?xf64>
  // CHECK-NEXT: %bufferSz, %token5 = gpu.spmv_buffer_size async [%token4] %spmat, %dnvec, %dnvec into f64
  // CHECK-NEXT: %token6 = gpu.spmv async [%token5] %spmat{TRANSPOSE}, %dnvec, %dnvec, %mem2 : memref<?xf64> into f64
  // CHECK-NEXT: %token7 = gpu.destroy_sp_mat async [%token6] %spmat
  // CHECK-NEXT: %token8 = gpu.destroy_dn_tensor async [%token7] %dnvec
  // CHECK-NEXT: gpu.wait [%token8]
  %token0 = gpu.wait async
  %mem1, %token1 = gpu.alloc async [%token0] (%arg0) : memref<?xindex>
  %mem2, %token2 = gpu.alloc async [%token1] (%arg0) : memref<?xf64>
  %spmat, %token3 = gpu.create_coo async [%token2] %arg0, %arg0, %arg0, %mem1, %mem1, %mem2 : memref<?xindex>, memref<?xindex>, memref<?xf64>
  %dnvec, %token4 = gpu.create_dn_tensor async [%token3] %mem2, %arg0 : index into memref<?xf64>
  %bufferSz, %token5 = gpu.spmv_buffer_size async [%token4] %spmat{NON_TRANSPOSE}, %dnvec, %dnvec into f64
  %token6 = gpu.spmv async [%token5] %spmat{TRANSPOSE}, %dnvec, %dnvec, %mem2 : memref<?xf64> into f64
  %token7 = gpu.destroy_sp_mat async [%token6] %spmat
  %token8 = gpu.destroy_dn_tensor async [%token7] %dnvec
  gpu.wait [%token8]
  func.return
}

// -----

// (`{{C}}` below: python-filecheck misreads a check line containing `_CHECK`.)

// CHECK-LABEL: func.func @create_spmat
func.func @create_spmat(%n: index, %idx: memref<?xindex>, %i32: memref<?xi32>, %val: memref<?xf64>, %dep: !gpu.async.token) {
  // CHECK-NEXT: %coo, %t0 = gpu.create_coo_aos async [%dep] %n, %n, %n, %idx, %val : memref<?xindex>, memref<?xf64>
  // CHECK-NEXT: %csr, %t1 = gpu.create_csr async [%t0] %n, %n, %n, %idx, %i32, %val : memref<?xindex>, memref<?xi32>, memref<?xf64>
  // CHECK-NEXT: %csc = gpu.create_csc %n, %n, %n, %i32, %idx, %val : memref<?xi32>, memref<?xindex>, memref<?xf64>
  // CHECK-NEXT: %bsr, %t2 = gpu.create_bsr async [%t1] %n, %n, %n, %n, %n, %idx, %idx, %val : memref<?xindex>, memref<?xindex>, memref<?xf64>
  // CHECK-NEXT: %s24, %t3 = gpu.create_2to4_spmat async [%t2] {PRUNE_AND_{{C}}HECK} %n, %n, %val : memref<?xf64>
  // CHECK-NEXT: %s24b = gpu.create_2to4_spmat {NONE} %n, %n, %val : memref<?xf64>
  // CHECK-NEXT: %s24c = gpu.create_2to4_spmat {PRUNE_ONLY} %n, %n, %val {foo} : memref<?xf64>
  // CHECK-NEXT: %dnmat = gpu.create_dn_tensor %val, %n, %n : index, index into memref<?xf64>
  // CHECK-NEXT: %t4 = gpu.set_csr_pointers async [%t3] %csr, %idx, %i32, %val : memref<?xindex>, memref<?xi32>, memref<?xf64>
  // CHECK-NEXT: %rows, %cols, %nnz, %t5 = gpu.spmat_get_size async [%t4] %csr
  // CHECK-NEXT: %r, %c, %z = gpu.spmat_get_size %csc
  // CHECK-NEXT: gpu.destroy_sp_mat %csc
  // CHECK-NEXT: gpu.destroy_dn_tensor %dnmat {foo}
  %coo, %t0 = gpu.create_coo_aos async [%dep] %n, %n, %n, %idx, %val : memref<?xindex>, memref<?xf64>
  %csr, %t1 = gpu.create_csr async [%t0] %n, %n, %n, %idx, %i32, %val : memref<?xindex>, memref<?xi32>, memref<?xf64>
  %csc = gpu.create_csc %n, %n, %n, %i32, %idx, %val : memref<?xi32>, memref<?xindex>, memref<?xf64>
  %bsr, %t2 = gpu.create_bsr async [%t1] %n, %n, %n, %n, %n, %idx, %idx, %val : memref<?xindex>, memref<?xindex>, memref<?xf64>
  %s24, %t3 = gpu.create_2to4_spmat async [%t2] {PRUNE_AND_CHECK} %n, %n, %val : memref<?xf64>
  %s24b = gpu.create_2to4_spmat { NONE} %n, %n, %val : memref<?xf64>
  %s24c = gpu.create_2to4_spmat {PRUNE_ONLY} %n, %n, %val {foo} : memref<?xf64>
  %dnmat = gpu.create_dn_tensor %val, %n, %n : index, index into memref<?xf64>
  %t4 = gpu.set_csr_pointers async [%t3] %csr, %idx, %i32, %val : memref<?xindex>, memref<?xi32>, memref<?xf64>
  %rows, %cols, %nnz, %t5 = gpu.spmat_get_size async [%t4] %csr
  %r, %c, %z = gpu.spmat_get_size %csc
  gpu.destroy_sp_mat %csc
  gpu.destroy_dn_tensor %dnmat {foo}
  func.return
}

// -----

// CHECK-LABEL: func.func @matmul
func.func @matmul(%spmat: !gpu.sparse.spmat_handle, %dnmat: !gpu.sparse.dntensor_handle, %buf: memref<?xf64>, %buf2: memref<?xi8>, %dep: !gpu.async.token) {
  // CHECK-NEXT: %sz, %t0 = gpu.spmm_buffer_size async [%dep] %spmat, %dnmat{TRANSPOSE}, %dnmat : index into f32
  // CHECK-NEXT: %szs, %szs_1, %szs_2, %t1 = gpu.spmm_buffer_size async [%t0] %spmat{CONJUGATE_TRANSPOSE}, %dnmat, %dnmat : index, index, index into f16
  // CHECK-NEXT: %t2 = gpu.spmm async [%t1] %spmat, %dnmat, %dnmat, %buf : memref<?xf64> into f32
  // CHECK-NEXT: %t3 = gpu.spmm async [%t2] %spmat{TRANSPOSE}, %dnmat{TRANSPOSE}, %dnmat, %buf, %buf2, %buf : memref<?xf64>, memref<?xi8>, memref<?xf64> into bf16
  // CHECK-NEXT: %sz2, %t4 = gpu.sddmm_buffer_size async [%t3] %dnmat{TRANSPOSE}, %dnmat, %spmat into f64
  // CHECK-NEXT: %t5 = gpu.sddmm async [%t4] %dnmat, %dnmat{TRANSPOSE}, %spmat, %buf : memref<?xf64> into f64
  // CHECK-NEXT: gpu.sddmm %dnmat, %dnmat, %spmat, %buf {foo} : memref<?xf64> into complex<f32>
  // CHECK-NEXT: gpu.wait [%t5]
  %sz, %t0 = gpu.spmm_buffer_size async [%dep] %spmat, %dnmat{TRANSPOSE}, %dnmat : index into f32
  %szs:3, %t1 = gpu.spmm_buffer_size async [%t0] %spmat{CONJUGATE_TRANSPOSE}, %dnmat, %dnmat : index, index, index into f16
  %t2 = gpu.spmm async [%t1] %spmat, %dnmat{NON_TRANSPOSE}, %dnmat, %buf : memref<?xf64> into f32
  %t3 = gpu.spmm async [%t2] %spmat{TRANSPOSE}, %dnmat{TRANSPOSE}, %dnmat, %buf, %buf2, %buf : memref<?xf64>, memref<?xi8>, memref<?xf64> into bf16
  %sz2, %t4 = gpu.sddmm_buffer_size async [%t3] %dnmat{TRANSPOSE}, %dnmat, %spmat into f64
  %t5 = gpu.sddmm async [%t4] %dnmat, %dnmat{TRANSPOSE}, %spmat, %buf : memref<?xf64> into f64
  gpu.sddmm %dnmat, %dnmat, %spmat, %buf {foo} : memref<?xf64> into complex<f32>
  gpu.wait [%t5]
  func.return
}

// -----

// CHECK-LABEL: func.func @spgemm
func.func @spgemm(%a: !gpu.sparse.spmat_handle, %b: !gpu.sparse.spmat_handle, %c: !gpu.sparse.spmat_handle, %n: index, %buf: memref<0xi8>, %dep: !gpu.async.token) {
  // CHECK-NEXT: %desc, %t0 = gpu.spgemm_create_descr async [%dep]
  // CHECK-NEXT: %sz, %t1 = gpu.spgemm_work_estimation_or_compute async [%t0] {WORK_ESTIMATION} %a, %b, %c, %desc, %n, %buf : f32 into memref<0xi8>
  // CHECK-NEXT: %sz2, %t2 = gpu.spgemm_work_estimation_or_compute async [%t1] {COMPUTE} %a{TRANSPOSE}, %b{CONJUGATE_TRANSPOSE}, %c, %desc, %sz, %buf : f32 into memref<0xi8>
  // CHECK-NEXT: %t3 = gpu.spgemm_copy async [%t2] %a, %b{TRANSPOSE}, %c, %desc : f32
  // CHECK-NEXT: %t4 = gpu.spgemm_destroy_descr async [%t3] %desc
  // CHECK-NEXT: %desc2 = gpu.spgemm_create_descr
  // CHECK-NEXT: gpu.spgemm_copy %a, %b, %c, %desc2 {foo} : f64
  // CHECK-NEXT: gpu.spgemm_destroy_descr %desc2
  // CHECK-NEXT: gpu.wait [%t4]
  %desc, %t0 = gpu.spgemm_create_descr async [%dep]
  %sz, %t1 = gpu.spgemm_work_estimation_or_compute async [%t0] {WORK_ESTIMATION} %a, %b, %c, %desc, %n, %buf : f32 into memref<0xi8>
  %sz2, %t2 = gpu.spgemm_work_estimation_or_compute async [%t1] {COMPUTE} %a{TRANSPOSE}, %b{CONJUGATE_TRANSPOSE}, %c, %desc, %sz, %buf : f32 into memref<0xi8>
  %t3 = gpu.spgemm_copy async [%t2] %a{NON_TRANSPOSE}, %b{TRANSPOSE}, %c, %desc : f32
  %t4 = gpu.spgemm_destroy_descr async [%t3] %desc
  %desc2 = gpu.spgemm_create_descr
  gpu.spgemm_copy %a, %b, %c, %desc2 {foo} : f64
  gpu.spgemm_destroy_descr %desc2
  gpu.wait [%t4]
  func.return
}

// -----

// The enums as attributes, in their generic form.

// CHECK-LABEL: func.func @enums
// CHECK-SAME: modes = [#gpu<mat_transpose_mode NON_TRANSPOSE>, #gpu<mat_transpose_mode TRANSPOSE>, #gpu<mat_transpose_mode CONJUGATE_TRANSPOSE>]
// CHECK-SAME: flags = [#gpu<prune_2to4_spmat_flag NONE>, #gpu<prune_2to4_spmat_flag PRUNE_ONLY>, #gpu<prune_2to4_spmat_flag PRUNE_AND_{{C}}HECK>]
// CHECK-SAME: kinds = [#gpu<spgemm_work_estimation_or_compute_kind WORK_ESTIMATION>, #gpu<spgemm_work_estimation_or_compute_kind COMPUTE>]
func.func @enums() attributes {
    modes = [#gpu<mat_transpose_mode NON_TRANSPOSE>, #gpu<mat_transpose_mode TRANSPOSE>, #gpu<mat_transpose_mode CONJUGATE_TRANSPOSE>],
    flags = [#gpu<prune_2to4_spmat_flag NONE>, #gpu<prune_2to4_spmat_flag PRUNE_ONLY>, #gpu<prune_2to4_spmat_flag PRUNE_AND_CHECK>],
    kinds = [#gpu<spgemm_work_estimation_or_compute_kind WORK_ESTIMATION>, #gpu<spgemm_work_estimation_or_compute_kind COMPUTE>]} {
  func.return
}

// -----

// As upstream, a generic op without a transpose mode or prune flag gets the default.

// CHECK-LABEL: func.func @generic_defaults
func.func @generic_defaults(%n: index, %m: memref<?xf64>, %s: !gpu.sparse.spmat_handle, %d: !gpu.sparse.dntensor_handle) {
  // CHECK-NEXT: %0 = gpu.create_2to4_spmat {PRUNE_AND_{{C}}HECK} %n, %n, %m : memref<?xf64>
  // CHECK-NEXT: %1 = gpu.spmv_buffer_size %s, %d, %d into f64
  %0 = "gpu.create_2to4_spmat"(%n, %n, %m) : (index, index, memref<?xf64>) -> !gpu.sparse.spmat_handle
  %1 = "gpu.spmv_buffer_size"(%s, %d, %d) <{computeType = f64}> : (!gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle) -> index
  func.return
}
