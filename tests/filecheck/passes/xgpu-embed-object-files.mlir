// RUN: xdsl-opt %s -p 'xgpu-embed-object-files{search-path="%S/Inputs/xgpu" check-abi=false}' --split-input-file | filecheck %s
// RUN: env XDSL_GPU_OBJECT_SEARCH_PATH=%S/Inputs/xgpu xdsl-opt %s -p 'xgpu-embed-object-files{check-abi=false}' --split-input-file | filecheck %s

// The format comes from the extension; PTX gets a JIT level (O = 3) unless it has
// one, and every object records the file it came from.
gpu.binary @by_extension [#xgpu.object_file<#nvvm.target<chip = "sm_80">, "abi.ptx">]
// CHECK-LABEL: gpu.binary @by_extension
// CHECK-SAME: [#gpu.object<#nvvm.target<chip = "sm_80">, properties = {xgpu.file = "abi.ptx", O = 3 : i32}, assembly = "// Hand-written PTX for the xgpu filecheck tests
// CHECK-SAME: .visible .entry simple_mul(

// -----

// An explicit format for an unusual extension; declared properties are kept.
gpu.binary @explicit <#xgpu.select_best> [
  #xgpu.object_file<#nvvm.target<chip = "sm_80">, properties = {O = 1 : i32, section = "kernels"}, assembly = "kernels.notes">,
  #gpu.object<#nvvm.target<chip = "sm_90">, bin = "already embedded">
]
// CHECK-LABEL: gpu.binary @explicit <#xgpu.select_best>
// CHECK-SAME: [#gpu.object<#nvvm.target<chip = "sm_80">, properties = {O = 1 : i32, section = "kernels", xgpu.file = "kernels.notes"}, assembly = "// Hand-written
// CHECK-SAME: #gpu.object<#nvvm.target<chip = "sm_90">, bin = "already embedded">]

// -----

// A path that stays inside the search path folder is fine.
gpu.binary @inside [#xgpu.object_file<#nvvm.target<chip = "sm_80">, "./sub/../abi.ptx">]
// CHECK-LABEL: gpu.binary @inside
// CHECK-SAME: properties = {xgpu.file = "./sub/../abi.ptx", O = 3 : i32}, assembly = "// Hand-written

// -----

// Binaries without files are left alone.
gpu.binary @untouched [#gpu.object<#nvvm.target, "fatbin bytes">]
// CHECK-LABEL: gpu.binary @untouched [#gpu.object<#nvvm.target, "fatbin bytes">]
