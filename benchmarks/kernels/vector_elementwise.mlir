// c = a * b over 2^28 floats three ways, for bench_vector_elementwise.py:
// * @scalar_mul: one f32 per thread (memref.load/store);
// * @vector_mul: four f32 per thread, vector<4xf32> loads and stores with
//   {alignment = 16}, which lower to ld.global.v4/st.global.v4 (without it the
//   element's alignment, 4, splits them into scalar accesses, as in MLIR 22);
// * @vector_copy: c = a with the same vector accesses, the bandwidth ceiling.
// Static shapes: upstream's bare-pointer kernel convention refuses dynamic ones.
module attributes {gpu.container_module} {
  gpu.module @elementwise {
    gpu.func @scalar_mul(%a: memref<268435456xf32>, %b: memref<268435456xf32>, %c: memref<268435456xf32>) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %x = memref.load %a[%i] : memref<268435456xf32>
      %y = memref.load %b[%i] : memref<268435456xf32>
      %p = arith.mulf %x, %y : f32
      memref.store %p, %c[%i] : memref<268435456xf32>
      gpu.return
    }
    gpu.func @vector_mul(%a: memref<268435456xf32>, %b: memref<268435456xf32>, %c: memref<268435456xf32>) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %t = arith.addi %base, %tid : index
      %c4 = arith.constant 4 : index
      %i = arith.muli %t, %c4 : index
      %x = vector.load %a[%i] {alignment = 16} : memref<268435456xf32>, vector<4xf32>
      %y = vector.load %b[%i] {alignment = 16} : memref<268435456xf32>, vector<4xf32>
      %p = arith.mulf %x, %y : vector<4xf32>
      vector.store %p, %c[%i] {alignment = 16} : memref<268435456xf32>, vector<4xf32>
      gpu.return
    }
    gpu.func @vector_copy(%a: memref<268435456xf32>, %b: memref<268435456xf32>, %c: memref<268435456xf32>) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %t = arith.addi %base, %tid : index
      %c4 = arith.constant 4 : index
      %i = arith.muli %t, %c4 : index
      %x = vector.load %a[%i] {alignment = 16} : memref<268435456xf32>, vector<4xf32>
      vector.store %x, %c[%i] {alignment = 16} : memref<268435456xf32>, vector<4xf32>
      gpu.return
    }
  }
}
