// RUN: xdsl-opt %s -p 'gpu-module-to-binary' --split-input-file --verify-diagnostics | filecheck %s
// RUN: not xdsl-opt %s -p 'gpu-module-to-binary{format=elf}' 2>&1 | filecheck %s --check-prefix=FORMAT

gpu.module @no_target {
}
// CHECK: the module has no target attributes (gpu.module @no_target): run nvvm-attach-target
// FORMAT: xdsl-opt: error: gpu-module-to-binary: Invalid format specified: 'elf'

// -----

gpu.module @not_lowered [#nvvm.target<chip = "sm_90">] {
  gpu.func @k() kernel {
    gpu.return
  }
}
// CHECK: gpu.module @not_lowered still contains 'gpu.func', which has no LLVM IR form: lower the module with convert-gpu-to-nvvm

// -----

gpu.module @old_chip [#nvvm.target<chip = "sm_50">] {
}
// CHECK: gpu.module @old_chip: chip sm_50 is not supported by CUDA {{.*}}; set chip = "sm_75" or newer

// -----

gpu.module @old_ptx [#nvvm.target<chip = "sm_90", features = "+ptx60">] {
}
// CHECK: gpu.module @old_ptx: features '+ptx60' is too old for sm_90, which needs PTX ISA 7.8 or newer (+ptx78)

// -----

gpu.module @amd [#rocdl.target<chip = "gfx90a">] {
}
// CHECK: 'gpu.module' op the target attribute #rocdl.target<chip = "gfx90a"> has no serializer registered: xdsl-gpu serializes only #nvvm.target
