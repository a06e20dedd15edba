// RUN: not xdsl-opt %s -p 'nvvm-attach-target{O=5}' 2>&1 | filecheck %s
// RUN: not xdsl-opt %s -p 'nvvm-attach-target{module="(unclosed"}' 2>&1 | filecheck %s --check-prefix=REGEX

gpu.module @kernels {
}

// CHECK: xdsl-opt: error: nvvm-attach-target: O=5: the optimization level must be a number between 0 and 3
// REGEX: xdsl-opt: error: nvvm-attach-target: module='(unclosed' is not a valid regular expression
