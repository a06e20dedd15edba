// RUN: sed 's|@INPUTS@|%S/Inputs/xgpu|' %s | xdsl-opt -p 'xgpu-embed-object-files{allow-absolute=true}' | filecheck %s

// Absolute paths with allow-absolute=true.
gpu.binary @absolute [#xgpu.object_file<#nvvm.target<chip = "sm_80">, "@INPUTS@/abi.ptx">]
// CHECK-LABEL: gpu.binary @absolute
// CHECK-SAME: xgpu.file = "{{.*}}/Inputs/xgpu/abi.ptx", O = 3 : i32}, assembly = "// Hand-written
