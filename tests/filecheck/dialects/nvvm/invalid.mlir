// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s
// Each case also carries upstream's `expected-error`: invalid-mlir-opt.mlir runs this
// file through mlir-opt 22 --verify-diagnostics, so the messages are upstream's.
// Cases where xdsl-gpu reports differently from upstream are in invalid-xdsl.mlir.

// CHECK: 'nvvm.read.ptx.sreg.tid.x' op invalid range attribute: Lower == Upper, but they aren't min (0) or max (4294967295) value! This is an invalid constant range.
llvm.func @f() {
  // expected-error@+1 {{invalid range attribute: Lower == Upper, but they aren't min (0) or max (4294967295) value! This is an invalid constant range.}}
  %0 = nvvm.read.ptx.sreg.tid.x range <i32, 5, 5> : i32
  llvm.return
}

// -----

// CHECK: invalid kind of type specified: expected builtin.integer, but found 'f32'
llvm.func @f() {
  // expected-error@+1 {{invalid kind of type specified: expected builtin.integer, but found 'f32'}}
  %0 = nvvm.read.ptx.sreg.laneid range <f32, 0, 5> : i32
  llvm.return
}

// -----

// CHECK: 'nvvm.shfl.sync' op expected return type to be of type 'f32' but got 'i32' instead
llvm.func @f(%m: i32, %f: f32, %i: i32, %c: i32, %p: i1) {
  // expected-error@+1 {{expected return type to be of type 'f32' but got 'i32' instead}}
  %0 = nvvm.shfl.sync bfly %m, %f, %i, %c : f32 -> i32
  llvm.return
}

// -----

// CHECK: 'nvvm.shfl.sync' op expected return type to be a two-element struct
llvm.func @f(%m: i32, %f: f32, %i: i32, %c: i32, %p: i1) {
  // expected-error@+1 {{expected return type to be a two-element struct}}
  %0 = nvvm.shfl.sync up %m, %f, %i, %c {return_value_and_is_valid} : f32 -> f32
  llvm.return
}

// -----

// CHECK: 'nvvm.shfl.sync' op expected first element in the returned struct to be of type 'f32' but got 'i32' instead
llvm.func @f(%m: i32, %f: f32, %i: i32, %c: i32, %p: i1) {
  // expected-error@+1 {{expected first element in the returned struct to be of type 'f32' but got 'i32' instead}}
  %0 = nvvm.shfl.sync down %m, %f, %i, %c {return_value_and_is_valid} : f32 -> !llvm.struct<(i32, i1)>
  llvm.return
}

// -----

// CHECK: 'nvvm.shfl.sync' op expected second element in the returned struct to be of type 'i1' but got 'i32' instead
llvm.func @f(%m: i32, %f: f32, %i: i32, %c: i32, %p: i1) {
  // expected-error@+1 {{expected second element in the returned struct to be of type 'i1' but got 'i32' instead}}
  %0 = nvvm.shfl.sync idx %m, %f, %i, %c {return_value_and_is_valid} : f32 -> !llvm.struct<(f32, i32)>
  llvm.return
}

// -----

// CHECK: 'nvvm.shfl.sync' op expected return type to be a two-element struct
llvm.func @f(%m: i32, %f: f32, %i: i32, %c: i32, %p: i1) {
  // expected-error@+1 {{expected return type to be a two-element struct}}
  %0 = nvvm.shfl.sync bfly %m, %f, %i, %c {return_value_and_is_valid} : f32 -> !llvm.struct<(f32, i1, i1)>
  llvm.return
}

// -----

// CHECK: 'nvvm.shfl.sync' op "return_value_and_is_valid" attribute must be specified when the return type is a struct type
llvm.func @f(%m: i32, %f: f32, %i: i32, %c: i32, %p: i1) {
  // expected-error@+1 {{"return_value_and_is_valid" attribute must be specified when the return type is a struct type}}
  %0 = nvvm.shfl.sync bfly %m, %f, %i, %c : f32 -> !llvm.struct<(f32, i1)>
  llvm.return
}

// -----

// CHECK: 'nvvm.vote.sync' op vote.sync 'ballot' returns an i32
llvm.func @f(%m: i32, %f: f32, %i: i32, %c: i32, %p: i1) {
  // expected-error@+1 {{vote.sync 'ballot' returns an i32}}
  %0 = nvvm.vote.sync ballot %m, %p -> i1
  llvm.return
}

// -----

// CHECK: 'nvvm.vote.sync' op vote.sync 'any', 'all' and 'uni' returns an i1
llvm.func @f(%m: i32, %f: f32, %i: i32, %c: i32, %p: i1) {
  // expected-error@+1 {{vote.sync 'any', 'all' and 'uni' returns an i1}}
  %0 = nvvm.vote.sync uni %m, %p -> i32
  llvm.return
}

// -----

// CHECK: 'nvvm.redux.sync' op 'fmin' redux kind unsupported with 'i32' type. Only supported type is 'f32'.
llvm.func @f(%m: i32, %f: f32, %i: i32, %c: i32, %p: i1) {
  // expected-error@+1 {{'fmin' redux kind unsupported with 'i32' type. Only supported type is 'f32'.}}
  %0 = nvvm.redux.sync fmin %i, %m : i32 -> i32
  llvm.return
}

// -----

// CHECK: 'nvvm.redux.sync' op 'umax' redux kind unsupported with 'f32' type. Only supported type is 'i32'.
llvm.func @f(%m: i32, %f: f32, %i: i32, %c: i32, %p: i1) {
  // expected-error@+1 {{'umax' redux kind unsupported with 'f32' type. Only supported type is 'i32'.}}
  %0 = nvvm.redux.sync umax %f, %m : f32 -> f32
  llvm.return
}

// -----

// CHECK: 'nvvm.redux.sync' op abs attribute is supported only for f32 type
llvm.func @f(%m: i32, %f: f32, %i: i32, %c: i32, %p: i1) {
  // expected-error@+1 {{abs attribute is supported only for f32 type}}
  %0 = nvvm.redux.sync fmax %i, %m {abs = true} : i32 -> i32
  llvm.return
}

// -----

// CHECK: 'nvvm.redux.sync' op nan attribute is supported only for f32 type
llvm.func @f(%m: i32, %f: f32, %i: i32, %c: i32, %p: i1) {
  // expected-error@+1 {{nan attribute is supported only for f32 type}}
  %0 = nvvm.redux.sync add %i, %m {nan = true} : i32 -> i32
  llvm.return
}

// -----

// CHECK: 'nvvm.fence.proxy' op generic proxy not a supported proxy kind
llvm.func @f() {
  // expected-error@+1 {{generic proxy not a supported proxy kind}}
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<generic>}
  llvm.return
}

// -----

// CHECK: 'nvvm.fence.proxy' op tensormap proxy is not a supported proxy kind
llvm.func @f() {
  // expected-error@+1 {{tensormap proxy is not a supported proxy kind}}
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<tensormap>}
  llvm.return
}

// -----

// CHECK: 'nvvm.fence.proxy' op async_shared fence requires space attribute
llvm.func @f() {
  // expected-error@+1 {{async_shared fence requires space attribute}}
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>}
  llvm.return
}

// -----

// CHECK: 'nvvm.fence.proxy' op only async_shared fence can have space attribute
llvm.func @f() {
  // expected-error@+1 {{only async_shared fence can have space attribute}}
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<alias>, space = #nvvm.shared_space<cta>}
  llvm.return
}

// -----

// CHECK: 'nvvm.fence.proxy.acquire' op uni-directional proxies only support generic for from_proxy attribute
llvm.func @f(%a: !llvm.ptr, %s: i32) {
  // expected-error@+1 {{uni-directional proxies only support generic for from_proxy attribute}}
  nvvm.fence.proxy.acquire <sys> %a, %s from_proxy = <alias>
  llvm.return
}

// -----

// CHECK: 'nvvm.fence.proxy.release' op uni-directional proxies only support tensormap for to_proxy attribute
llvm.func @f(%a: !llvm.ptr, %s: i32) {
  // expected-error@+1 {{uni-directional proxies only support tensormap for to_proxy attribute}}
  nvvm.fence.proxy.release <cta> to_proxy = <async>
  llvm.return
}

// -----

// CHECK: 'nvvm.fence.sync_restrict' op only acquire and release semantics are supported
llvm.func @f() {
  // expected-error@+1 {{only acquire and release semantics are supported}}
  nvvm.fence.sync_restrict {order = #nvvm.mem_order<relaxed>}
  llvm.return
}

// -----

// CHECK: 'nvvm.fence.proxy.sync_restrict' op only acquire and release semantics are supported
llvm.func @f() {
  // expected-error@+1 {{only acquire and release semantics are supported}}
  nvvm.fence.proxy.sync_restrict {order = #nvvm.mem_order<sc>}
  llvm.return
}

// -----

// CHECK: 'nvvm.fence.proxy.sync_restrict' op only generic is support for from_proxy attribute
llvm.func @f() {
  // expected-error@+1 {{only generic is support for from_proxy attribute}}
  nvvm.fence.proxy.sync_restrict {order = #nvvm.mem_order<acquire>, fromProxy = #nvvm.proxy_kind<alias>}
  llvm.return
}

// -----

// CHECK: 'nvvm.fence.proxy.sync_restrict' op only async is supported for to_proxy attribute
llvm.func @f() {
  // expected-error@+1 {{only async is supported for to_proxy attribute}}
  nvvm.fence.proxy.sync_restrict {order = #nvvm.mem_order<release>, toProxy = #nvvm.proxy_kind<generic>}
  llvm.return
}

// -----

// CHECK: The optimization level must be a number between 0 and 3.
// expected-error@+1 {{The optimization level must be a number between 0 and 3.}}
gpu.module @m [#nvvm.target<O = 4>] {}

// -----

// CHECK: The optimization level must be a number between 0 and 3.
// expected-error@+1 {{The optimization level must be a number between 0 and 3.}}
gpu.module @m [#nvvm.target<O = -1>] {}

// -----

// CHECK: The target triple cannot be empty.
// expected-error@+1 {{The target triple cannot be empty.}}
gpu.module @m [#nvvm.target<triple = "">] {}

// -----

// CHECK: The target chip cannot be empty.
// expected-error@+1 {{The target chip cannot be empty.}}
gpu.module @m [#nvvm.target<chip = "">] {}

// -----

// CHECK: All the elements in the `link` array must be strings.
// expected-error@+1 {{All the elements in the `link` array must be strings.}}
gpu.module @m [#nvvm.target<link = ["/a.bc", 1]>] {}

// -----

// CHECK: duplicate or unknown struct parameter name: O
// expected-error@+1 {{duplicate or unknown struct parameter name: O}}
gpu.module @m [#nvvm.target<O = 1, O = 2>] {}

// -----

// CHECK: duplicate or unknown struct parameter name: opt
// expected-error@+1 {{duplicate or unknown struct parameter name: opt}}
gpu.module @m [#nvvm.target<opt = 1>] {}

// -----

// CHECK: expected a parameter name in struct
// expected-error@+2 {{expected a parameter name in struct}}
// (mlir-opt also reports:) expected-error@+1 {{expected valid keyword}}
gpu.module @m [#nvvm.target<O = 2,>] {}

// -----

// CHECK: integer value too large
// expected-error@+2 {{integer value too large}}
// (mlir-opt also reports:) expected-error@+1 {{failed to parse NVVM_TargetAttr parameter 'verifyTarget' which is to be a `bool`}}
gpu.module @m [#nvvm.target<verifyTarget = 2>] {}

// -----

// CHECK: integer value too large
// expected-error@+2 {{integer value too large}}
// (mlir-opt also reports:) expected-error@+1 {{failed to parse NVVM_TargetAttr parameter 'O' which is to be a `int`}}
gpu.module @m [#nvvm.target<O = 99999999999>] {}

// -----

// CHECK: 'nvvm.read.ptx.sreg.clusterid.x' op is not supported on sm_70
gpu.module @m [#nvvm.target<chip = "sm_70">] {
  llvm.func @k(%v: i32) {
    %0 = nvvm.read.ptx.sreg.tid.x : i32
    // expected-error@+1 {{'nvvm.read.ptx.sreg.clusterid.x' op is not supported on sm_70}}
    %1 = nvvm.read.ptx.sreg.clusterid.x : i32
    llvm.return
  }
}

// -----

// CHECK: 'nvvm.redux.sync' op is not supported on sm_75
gpu.module @m [#nvvm.target<chip = "sm_75">] {
  llvm.func @k(%v: i32) {
    // expected-error@+1 {{'nvvm.redux.sync' op is not supported on sm_75}}
    %0 = nvvm.redux.sync add %v, %v : i32 -> i32
    llvm.return
  }
}

// -----

// CHECK: 'nvvm.cluster.wait' op is not supported on sm_89
gpu.module @m [#nvvm.target<chip = "sm_89">] {
  llvm.func @k(%v: i32) {
    // expected-error@+1 {{'nvvm.cluster.wait' op is not supported on sm_89}}
    nvvm.cluster.wait {aligned}
    llvm.return
  }
}

// -----

// CHECK: 'nvvm.read.ptx.sreg.aggr.smem.size' op is not supported on sm_80
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  llvm.func @k(%v: i32) {
    // expected-error@+1 {{'nvvm.read.ptx.sreg.aggr.smem.size' op is not supported on sm_80}}
    %0 = nvvm.read.ptx.sreg.aggr.smem.size : i32
    llvm.return
  }
}

// -----

// CHECK: 'nvvm.read.ptx.sreg.cluster.ctaid.y' op is not supported on sm_86
// The first target that rejects the module reports.
gpu.module @m [#nvvm.target<chip = "sm_90">, #nvvm.target<chip = "sm_86">] {
  llvm.func @k() {
    // expected-error@+1 {{'nvvm.read.ptx.sreg.cluster.ctaid.y' op is not supported on sm_86}}
    %0 = nvvm.read.ptx.sreg.cluster.ctaid.y : i32
    llvm.return
  }
}

// -----

// CHECK: Minimum NVVM target SM version is sm_20
// expected-error@+1 {{Minimum NVVM target SM version is sm_20}}
gpu.module @m [#nvvm.target<chip = "sm_10">] {}

// -----

// The nvvm attributes of functions and their arguments (upstream's
// NVVMDialect::verifyOperationAttribute and verifyRegionArgAttribute).

// CHECK: 'nvvm.kernel' attribute attached to unexpected op
// expected-error@+1 {{'nvvm.kernel' attribute attached to unexpected op}}
func.func @kernel_on_func_func() attributes {nvvm.kernel} {
  return
}

// -----

// CHECK: '"nvvm.maxntid"' attribute must be integer array with maximum 3 index
// expected-error@+1 {{'"nvvm.maxntid"' attribute must be integer array with maximum 3 index}}
llvm.func @maxntid_four() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 1, 2, 3, 4>} {
  llvm.return
}

// -----

// CHECK: '"nvvm.reqntid"' attribute must be integer array with maximum 3 index
// expected-error@+1 {{'"nvvm.reqntid"' attribute must be integer array with maximum 3 index}}
llvm.func @reqntid_not_dense() attributes {nvvm.kernel, nvvm.reqntid = [1, 2]} {
  llvm.return
}

// -----

// CHECK: '"nvvm.cluster_dim"' attribute must be integer array with maximum 3 index
// expected-error@+1 {{'"nvvm.cluster_dim"' attribute must be integer array with maximum 3 index}}
llvm.func @cluster_dim_i64() attributes {nvvm.kernel, nvvm.cluster_dim = array<i64: 2>} {
  llvm.return
}

// -----

// CHECK: '"nvvm.minctasm"' attribute must be integer constant
// expected-error@+1 {{'"nvvm.minctasm"' attribute must be integer constant}}
llvm.func @minctasm_array() attributes {nvvm.kernel, nvvm.minctasm = array<i32: 1>} {
  llvm.return
}

// -----

// CHECK: '"nvvm.maxnreg"' attribute must be integer constant
// expected-error@+1 {{'"nvvm.maxnreg"' attribute must be integer constant}}
llvm.func @maxnreg_float() attributes {nvvm.kernel, nvvm.maxnreg = 1.0 : f32} {
  llvm.return
}

// -----

// CHECK: '"nvvm.cluster_max_blocks"' attribute must be integer constant
// expected-error@+1 {{'"nvvm.cluster_max_blocks"' attribute must be integer constant}}
llvm.func @cluster_max_blocks_string() attributes {nvvm.kernel, nvvm.cluster_max_blocks = "8"} {
  llvm.return
}

// -----

// CHECK: '"nvvm.blocksareclusters"' attribute must be used along with 'nvvm.reqntid' and 'nvvm.cluster_dim'
// expected-error@+1 {{'"nvvm.blocksareclusters"' attribute must be used along with 'nvvm.reqntid' and 'nvvm.cluster_dim'}}
llvm.func @blocksareclusters_alone() attributes {nvvm.kernel, nvvm.blocksareclusters, nvvm.reqntid = array<i32: 32>} {
  llvm.return
}

// -----

// CHECK: '"nvvm.grid_constant"' attribute must be present only on kernel arguments
// expected-error@+1 {{'"nvvm.grid_constant"' attribute must be present only on kernel arguments}}
llvm.func @grid_constant_outside_a_kernel(%a: !llvm.ptr {llvm.byval = i32, nvvm.grid_constant}) {
  llvm.return
}

// -----

// CHECK: '"nvvm.grid_constant"' must be a unit attribute
// expected-error@+1 {{'"nvvm.grid_constant"' must be a unit attribute}}
llvm.func @grid_constant_not_unit(%a: !llvm.ptr {llvm.byval = i32, nvvm.grid_constant = 1 : i32}) attributes {nvvm.kernel} {
  llvm.return
}

// -----

// CHECK: '"nvvm.grid_constant"' attribute requires the argument to also have attribute 'llvm.byval'
// expected-error@+1 {{'"nvvm.grid_constant"' attribute requires the argument to also have attribute 'llvm.byval'}}
llvm.func @grid_constant_without_byval(%a: !llvm.ptr {nvvm.grid_constant}) attributes {nvvm.kernel} {
  llvm.return
}
