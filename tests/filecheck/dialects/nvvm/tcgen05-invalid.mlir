// RUN: xdsl-opt %s --verify-diagnostics --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --split-input-file --verify-diagnostics %}
// The `expected-error`s are MLIR 22's (the second RUN line checks them with
// mlir-opt 22); the CHECK lines are ours.

// The tcgen05 ops need sm_100a or sm_101a (shift also sm_103a): a plain or `f`
// chip of the same SM does not do.
// CHECK: 'nvvm.tcgen05.alloc' op is not supported on sm_90
gpu.module @alloc_sm90 [#nvvm.target<chip = "sm_90">] {
  llvm.func @k(%addr: !llvm.ptr<7>, %ncols: i32) {
    // expected-error @below {{'nvvm.tcgen05.alloc' op is not supported on sm_90}}
    nvvm.tcgen05.alloc %addr, %ncols : !llvm.ptr<7>, i32
    llvm.return
  }
}

// -----

// CHECK: 'nvvm.tcgen05.fence' op is not supported on sm_100
gpu.module @fence_sm100 [#nvvm.target<chip = "sm_100">] {
  llvm.func @k() {
    // expected-error @below {{'nvvm.tcgen05.fence' op is not supported on sm_100}}
    nvvm.tcgen05.fence <before>
    llvm.return
  }
}

// -----

// CHECK: 'nvvm.tcgen05.shift' op is not supported on sm_100f
gpu.module @shift_sm100f [#nvvm.target<chip = "sm_100f">] {
  llvm.func @k(%taddr: !llvm.ptr<6>) {
    // expected-error @below {{'nvvm.tcgen05.shift' op is not supported on sm_100f}}
    nvvm.tcgen05.shift %taddr : !llvm.ptr<6>
    llvm.return
  }
}

// -----

// CHECK: 'nvvm.tcgen05.ld' op is not supported on sm_103a
gpu.module @ld_sm103a [#nvvm.target<chip = "sm_103a">] {
  llvm.func @k(%taddr: !llvm.ptr<6>) {
    // expected-error @below {{'nvvm.tcgen05.ld' op is not supported on sm_103a}}
    %0 = nvvm.tcgen05.ld %taddr {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : i32
    llvm.return
  }
}

// -----

// What the chips accept.
// CHECK: gpu.module @supported
gpu.module @supported [#nvvm.target<chip = "sm_100a">] {
  llvm.func @k(%taddr: !llvm.ptr<6>, %a: i32, %b: i8, %m: i1) {
    nvvm.tcgen05.shift %taddr : !llvm.ptr<6>
    nvvm.tcgen05.wait <store>
    %0 = nvvm.tcgen05.mma_smem_desc (%a, %a, %a, %b, %m, %b) : (i32, i32, i32, i8, i1, i8) -> i64
    llvm.return
  }
}

// -----

// CHECK: Invalid multicast type for tcgen05.cp Op
llvm.func @cp_128x256b_multicast(%taddr: !llvm.ptr<6>, %desc: i64) {
  // expected-error @below {{Invalid multicast type for tcgen05.cp Op}}
  nvvm.tcgen05.cp %taddr, %desc {multicast = #nvvm.tcgen05_cp_multicast<warpx4>, shape = #nvvm.tcgen05_cp_shape<shape_128x256b>}
  llvm.return
}

// -----

// CHECK: Shape 64x128b requires multicast warpx2_01_23 or warpx2_02_13 for tcgen05.cp Op
llvm.func @cp_64x128b(%taddr: !llvm.ptr<6>, %desc: i64) {
  // expected-error @below {{Shape 64x128b requires multicast warpx2_01_23 or warpx2_02_13 for tcgen05.cp Op}}
  nvvm.tcgen05.cp %taddr, %desc {shape = #nvvm.tcgen05_cp_shape<shape_64x128b>}
  llvm.return
}

// -----

// CHECK: Shape 32x128b requires multicast warpx4 for tcgen05.cp Op
llvm.func @cp_32x128b(%taddr: !llvm.ptr<6>, %desc: i64) {
  // expected-error @below {{Shape 32x128b requires multicast warpx4 for tcgen05.cp Op}}
  nvvm.tcgen05.cp %taddr, %desc {multicast = #nvvm.tcgen05_cp_multicast<warpx2_01_23>, shape = #nvvm.tcgen05_cp_shape<shape_32x128b>}
  llvm.return
}

// -----

// CHECK: shape 16x32bx2 requires offset argument
llvm.func @ld_no_offset(%taddr: !llvm.ptr<6>) {
  // expected-error @below {{shape 16x32bx2 requires offset argument}}
  %0 = nvvm.tcgen05.ld %taddr {shape = #nvvm.tcgen05_ldst_shape<shape_16x32bx2>} : i32
  llvm.return
}

// -----

// CHECK: invalid result type length 2 for shape shape_16x256b in tcgen05.ld Op
llvm.func @ld_too_short(%taddr: !llvm.ptr<6>) {
  // expected-error @below {{invalid result type length 2 for shape shape_16x256b in tcgen05.ld Op}}
  %0 = nvvm.tcgen05.ld %taddr {shape = #nvvm.tcgen05_ldst_shape<shape_16x256b>} : vector<2xi32>
  llvm.return
}

// -----

// CHECK: invalid input length 1 for shape shape_16x128b in tcgen05.st Op
llvm.func @st_too_short(%taddr: !llvm.ptr<6>, %v: i32) {
  // expected-error @below {{invalid input length 1 for shape shape_16x128b in tcgen05.st Op}}
  nvvm.tcgen05.st %taddr, %v {shape = #nvvm.tcgen05_ldst_shape<shape_16x128b>} : i32
  llvm.return
}

// -----

// CHECK: result #0 must be 32-bit signless integer or vector of 32-bit signless integer values of length 2/4/8/16/32/64/128, but got vector<3xi32>
llvm.func @ld_length_3(%taddr: !llvm.ptr<6>) {
  // expected-error @below {{'nvvm.tcgen05.ld' op result #0 must be 32-bit signless integer or vector of 32-bit signless integer values of length 2/4/8/16/32/64/128, but got}}
  %0 = nvvm.tcgen05.ld %taddr {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<3xi32>
  llvm.return
}
