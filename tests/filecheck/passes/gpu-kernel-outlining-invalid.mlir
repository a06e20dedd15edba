// RUN: not xdsl-opt %s -p 'gpu-kernel-outlining{data-layout-str="#dlti.dl_spec<index = 32 : i64"}' 2>&1 | filecheck %s --check-prefix=UNCLOSED
// RUN: not xdsl-opt %s -p 'gpu-kernel-outlining{data-layout-str="42"}' 2>&1 | filecheck %s --check-prefix=NOT-SPEC
// RUN: not xdsl-opt %s -p 'gpu-kernel-outlining{data-layout-str="#dlti.dl_spec<index = 32 : i64, index = 64 : i64>"}' 2>&1 | filecheck %s --check-prefix=DUPLICATE
// RUN: xdsl-opt %s -p gpu-kernel-outlining --verify-diagnostics | filecheck %s --check-prefix=UNDEFINED
// RUN: not xdsl-opt %s -p gpu-kernel-outlining 2>&1 | filecheck %s --check-prefix=EXIT

// A bad data layout spec fails before anything changes, with the fix in the message.
// UNCLOSED:  xdsl-opt: error: gpu-kernel-outlining: data-layout-str='#dlti.dl_spec<index = 32 : i64' is not a DLTI data layout spec ('>' expected at character 31); write it like '#dlti.dl_spec<index = 32 : i64>'
// NOT-SPEC:  xdsl-opt: error: gpu-kernel-outlining: data-layout-str='42' is not a DLTI data layout spec (expected '#dlti.dl_spec<...>' at character 1); write it like '#dlti.dl_spec<index = 32 : i64>'
// DUPLICATE: xdsl-opt: error: gpu-kernel-outlining: data-layout-str='#dlti.dl_spec<index = 32 : i64, index = 64 : i64>' is not a DLTI data layout spec (duplicate DLTI entry key)

// A reference to a symbol that does not exist (mlir-opt 22 crashes here).
func.func @undefined_symbol() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %a = arith.addi %tx, %tx {note = @nowhere} : index
    gpu.terminator
  }
  return
}

// UNDEFINED: gpu-kernel-outlining: 'gpu.func' op @undefined_symbol_kernel refers to @nowhere, which is not defined in the module around the launch; define it there so that it can be copied into the kernel's gpu.module
// EXIT-NOT:  Traceback
// EXIT:      {{.*}}.mlir:{{[0-9]+:[0-9]+}}: error: gpu-kernel-outlining: 'gpu.func' op @undefined_symbol_kernel refers to @nowhere
