// RUN: xdsl-opt %s -p 'xgpu-embed-object-files{search-path="%S/Inputs/xgpu","%S/Inputs"}' --split-input-file --verify-diagnostics --parsing-diagnostics | filecheck %s

// `..` may not leave the search path folder.
gpu.binary @escape [#xgpu.object_file<#nvvm.target<chip = "sm_80">, "../abi.ptx">]
// CHECK: 'gpu.binary' op @escape: object 0 "../abi.ptx": the path leaves the search path folder {{.*}}/Inputs/xgpu (it resolves to {{.*}}/Inputs/abi.ptx); object files must lie inside a search path folder

// -----

// Absolute paths need allow-absolute=true.
gpu.binary @absolute [#xgpu.object_file<#nvvm.target<chip = "sm_80">, "/etc/hostname.ptx">]
// CHECK: 'gpu.binary' op @absolute: object 0 "/etc/hostname.ptx": absolute paths are not allowed; make the path relative to a folder of the search path (search-path=... or $XDSL_GPU_OBJECT_SEARCH_PATH), or pass allow-absolute=true

// -----

// A missing file lists every place looked at, in order.
gpu.binary @missing [#xgpu.object_file<#nvvm.target<chip = "sm_90">, "kernels_sm_90.cubin">]
// CHECK: 'gpu.binary' op @missing: object 0 "kernels_sm_90.cubin": object file not found; looked at:
// CHECK-NEXT: {{.*}}/Inputs/xgpu/kernels_sm_90.cubin
// CHECK-NEXT: {{.*}}/Inputs/kernels_sm_90.cubin
// CHECK-NEXT: add its folder to search-path=... or $XDSL_GPU_OBJECT_SEARCH_PATH

// -----

// The bytes must be what the object claims.
gpu.binary @format [#xgpu.object_file<#nvvm.target<chip = "sm_80">, bin = "abi.ptx">]
// CHECK: 'gpu.binary' op @format: object 0 "abi.ptx": {{.*}}/Inputs/xgpu/abi.ptx holds PTX (assembly), but the object is declared as a cubin (bin); fix the format keyword or the file

// -----

gpu.binary @junk [#xgpu.object_file<#nvvm.target<chip = "sm_80">, "junk.cubin">]
// CHECK: 'gpu.binary' op @junk: object 0 "junk.cubin": {{.*}}/Inputs/xgpu/junk.cubin: not a cubin: no 64-bit ELF header

// -----

// The code must be for the chip the target names.
gpu.binary @chip [#xgpu.object_file<#nvvm.target<chip = "sm_90">, "abi.ptx">]
// CHECK: 'gpu.binary' op @chip: object 0 "abi.ptx": {{.*}}/Inputs/xgpu/abi.ptx is PTX for sm_80, but the object is declared for chip "sm_90"; write #nvvm.target<chip = "sm_80"> or use the file built for sm_90

// -----

// The embedding pass checks the launches (use-bare-pointers-for-kernels is off here).
module attributes {gpu.container_module} {
  gpu.binary @k [#xgpu.object_file<#nvvm.target<chip = "sm_80">, "abi.ptx">]
  func.func @launch(%a: memref<8xf32>, %n: i32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@simple_mul blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<8xf32>, %a : memref<8xf32>, %a : memref<8xf32>, %n : i32)
    return
  }
}
// CHECK: 'gpu.launch_func' op in @launch @k::@simple_mul passes 16 arguments but kernel 'simple_mul' in abi.ptx (ptx, sm_80) takes 4

// -----

// The syntax: without a known extension the format must be named.
gpu.binary @unknown [#xgpu.object_file<#nvvm.target<chip = "sm_80">, "kernels.notes">]
// CHECK: cannot tell the format of 'kernels.notes' from its extension; name it before the path, e.g. bin = "kernels.notes" (one of offload, assembly, bin, fatbin), or use .ptx, .cubin, .fatbin or .bc

// -----

gpu.binary @keyword [#xgpu.object_file<#nvvm.target<chip = "sm_80">, elf = "k.o">]
// CHECK: expected an object format (offload, assembly, bin, fatbin) or a path string

// -----

gpu.binary @target [#xgpu.object_file<"sm_80", "k.ptx">]
// CHECK: the target attribute must implement or promise the `gpu::TargetAttrInterface`
