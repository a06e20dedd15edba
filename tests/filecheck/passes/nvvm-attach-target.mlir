// RUN: xdsl-opt %s -p 'nvvm-attach-target{chip=sm_90}' | filecheck %s
// RUN: xdsl-opt %s -p 'nvvm-attach-target{module="kern.*" chip=sm_80 O=3 fast=true ftz=true ptxas-cmd-options="-v -lineinfo" l="/a.bc","/b.bc" features="+ptx80"}' | filecheck %s --check-prefix=ALL-OPTIONS
// RUN: xdsl-opt %s -p 'nvvm-attach-target' | filecheck %s --check-prefix=DEFAULT
// RUN: xdsl-opt %s -p 'nvvm-attach-target{module=ern}' | filecheck %s --check-prefix=NONE

// The same options as upstream produce the same attribute; an equal target is not
// added twice; `module` must match the whole name.

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
  }
  gpu.module @other {
  }
}

// CHECK: gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
// CHECK: gpu.module @other [#nvvm.target<chip = "sm_90">] {

// ALL-OPTIONS: gpu.module @kernels [#nvvm.target<chip = "sm_90">, #nvvm.target<O = 3, chip = "sm_80", features = "+ptx80", flags = {fast, ftz, "ptxas-cmd-options" = ["-v", "-lineinfo"]}, link = ["/a.bc", "/b.bc"]>] {
// ALL-OPTIONS: gpu.module @other {

// DEFAULT: gpu.module @kernels [#nvvm.target<chip = "sm_90">, #nvvm.target] {
// DEFAULT: gpu.module @other [#nvvm.target] {

// NONE: gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
// NONE: gpu.module @other {
