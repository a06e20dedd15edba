// RUN: xdsl-opt %s --transform-interpreter --split-input-file | filecheck %s

// transform.nvgpu.create_async_groups: 1-D copies from global to workgroup memory of
// 4, 8 or 16 bytes become nvgpu.device_async_copy, each run of them one group with
// its wait where the run's last store was; bypassL1 only on 16-byte copies; a mask
// from vector.create_mask (or a row of one) gives the source element count. Output
// checked against mlir-opt-22's.

// CHECK-LABEL: func.func @groups
// CHECK-SAME:    (%[[G:.*]]: memref<64x64xf32>, %[[H:.*]]: memref<64x64xf16>, %[[N:.*]]: index, %[[M:.*]]: index)
// CHECK:         %[[S:.*]] = memref.alloc() : memref<8x64xf32, #gpu.address_space<workgroup>>
// CHECK:         %[[T:.*]] = memref.alloc() : memref<8x64xf16, #gpu.address_space<workgroup>>
// The reads stay (dead) and the stores go.
// CHECK:         vector.transfer_read %[[G]]
// CHECK-NEXT:    %[[CP0:.*]] = nvgpu.device_async_copy %[[G]][%{{.*}}, %{{.*}}], %[[S]][%{{.*}}, %{{.*}}], 4 {bypassL1}
// CHECK-NEXT:    vector.load %[[G]]
// CHECK-NEXT:    %[[CP1:.*]] = nvgpu.device_async_copy %[[G]][%{{.*}}, %{{.*}}], %[[S]][%{{.*}}, %{{.*}}], 2 :
// CHECK-NEXT:    %[[G0:.*]] = nvgpu.device_async_create_group %[[CP0]], %[[CP1]]
// CHECK-NEXT:    nvgpu.device_async_wait %[[G0]]
// A read of workgroup memory ends the group.
// CHECK-NEXT:    vector.load %[[S]]
// CHECK-NEXT:    vector.load %[[H]]
// CHECK-NEXT:    %[[CP2:.*]] = nvgpu.device_async_copy %[[H]][{{.*}}], %[[T]][{{.*}}], 8 {bypassL1}
// CHECK-NEXT:    %[[G1:.*]] = nvgpu.device_async_create_group %[[CP2]]
// CHECK-NEXT:    nvgpu.device_async_wait %[[G1]]
// Two bytes: not an async copy (nor does its store join a group).
// CHECK-NEXT:    %[[V3:.*]] = vector.load %[[H]]
// CHECK-NEXT:    vector.store %[[V3]], %[[T]]
// CHECK-NEXT:    vector.create_mask %[[N]] : vector<4xi1>
// CHECK-NEXT:    vector.transfer_read
// CHECK-NEXT:    %[[CP4:.*]] = nvgpu.device_async_copy %[[G]][{{.*}}], %[[S]][{{.*}}], 4, %[[N]] {bypassL1}
// CHECK-NEXT:    vector.create_mask %[[M]], %[[N]] : vector<3x4xi1>
// CHECK-NEXT:    vector.extract
// CHECK-NEXT:    vector.transfer_read
// Row 2 of the mask is on while 2 < %m: then %n elements, else none.
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[ON:.*]] = arith.cmpi slt, %[[C2]], %[[M]] : index
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[SEL:.*]] = arith.select %[[ON]], %[[N]], %[[ZERO]] : index
// CHECK-NEXT:    %[[CP5:.*]] = nvgpu.device_async_copy %[[G]][{{.*}}], %[[S]][{{.*}}], 4, %[[SEL]] {bypassL1}
// CHECK-NEXT:    %[[G2:.*]] = nvgpu.device_async_create_group %[[CP4]], %[[CP5]]
// CHECK-NEXT:    nvgpu.device_async_wait %[[G2]]
// Shared to shared, and a read that may be out of bounds: left alone.
// CHECK-NEXT:    vector.transfer_read %[[S]]
// CHECK-NEXT:    vector.transfer_write
// CHECK-NEXT:    vector.transfer_read %[[G]]
// CHECK-NEXT:    vector.transfer_write
// CHECK-NEXT:    func.return
func.func @groups(%g: memref<64x64xf32>, %h: memref<64x64xf16>, %n: index, %m: index) {
  %s = memref.alloc() : memref<8x64xf32, #gpu.address_space<workgroup>>
  %t = memref.alloc() : memref<8x64xf16, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  %v0 = vector.transfer_read %g[%c0, %c0], %pad {in_bounds = [true]} : memref<64x64xf32>, vector<4xf32>
  vector.transfer_write %v0, %s[%c0, %c0] {in_bounds = [true]} : vector<4xf32>, memref<8x64xf32, #gpu.address_space<workgroup>>
  %v1 = vector.load %g[%c1, %c0] : memref<64x64xf32>, vector<2xf32>
  vector.store %v1, %s[%c1, %c0] : memref<8x64xf32, #gpu.address_space<workgroup>>, vector<2xf32>
  %x = vector.load %s[%c0, %c0] : memref<8x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
  %v2 = vector.load %h[%c0, %c0] : memref<64x64xf16>, vector<8xf16>
  vector.store %v2, %t[%c0, %c0] : memref<8x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
  %v3 = vector.load %h[%c1, %c0] : memref<64x64xf16>, vector<1xf16>
  vector.store %v3, %t[%c1, %c0] : memref<8x64xf16, #gpu.address_space<workgroup>>, vector<1xf16>
  %mask = vector.create_mask %n : vector<4xi1>
  %v4 = vector.transfer_read %g[%c0, %c1], %pad, %mask {in_bounds = [true]} : memref<64x64xf32>, vector<4xf32>
  vector.transfer_write %v4, %s[%c0, %c1] {in_bounds = [true]} : vector<4xf32>, memref<8x64xf32, #gpu.address_space<workgroup>>
  %mask2 = vector.create_mask %m, %n : vector<3x4xi1>
  %row = vector.extract %mask2[2] : vector<4xi1> from vector<3x4xi1>
  %v5 = vector.transfer_read %g[%c1, %c1], %pad, %row {in_bounds = [true]} : memref<64x64xf32>, vector<4xf32>
  vector.transfer_write %v5, %s[%c1, %c1] {in_bounds = [true]} : vector<4xf32>, memref<8x64xf32, #gpu.address_space<workgroup>>
  %v6 = vector.transfer_read %s[%c0, %c0], %pad {in_bounds = [true]} : memref<8x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
  vector.transfer_write %v6, %s[%c1, %c0] {in_bounds = [true]} : vector<4xf32>, memref<8x64xf32, #gpu.address_space<workgroup>>
  %v7 = vector.transfer_read %g[%c0, %c0], %pad {in_bounds = [false]} : memref<64x64xf32>, vector<4xf32>
  vector.transfer_write %v7, %s[%c0, %c0] {in_bounds = [true]} : vector<4xf32>, memref<8x64xf32, #gpu.address_space<workgroup>>
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.nvgpu.create_async_groups %f {bypass_l1} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Without bypass_l1 no copy bypasses L1; the handle it returns is the function.

// CHECK-LABEL: func.func @no_bypass
// CHECK:         nvgpu.device_async_copy %{{.*}}, 4 :
// CHECK-NOT:     bypassL1
// CHECK:         nvgpu.device_async_create_group
func.func @no_bypass(%g: memref<64xf32>) {
  %s = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %v = vector.load %g[%c0] : memref<64xf32>, vector<4xf32>
  vector.store %v, %s[%c0] : memref<64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.nvgpu.create_async_groups %f : (!transform.any_op) -> !transform.any_op
    %again = transform.nvgpu.create_async_groups %g : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
