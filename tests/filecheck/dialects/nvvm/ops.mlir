// RUN: xdsl-opt %s | filecheck %s
// RUN: XDSL_ROUNDTRIP
// Compared with mlir-opt 22 by tests/test_mlir_conformance.py and ops-mlir-opt.mlir.

// SSA names are matched loosely: mlir-opt renames block arguments.

// CHECK-LABEL: llvm.func @special_registers
llvm.func @special_registers() {
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.laneid : i32
  %laneid = nvvm.read.ptx.sreg.laneid : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.warpsize : i32
  %warpsize = nvvm.read.ptx.sreg.warpsize : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.warpid : i32
  %warpid = nvvm.read.ptx.sreg.warpid : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.nwarpid : i32
  %nwarpid = nvvm.read.ptx.sreg.nwarpid : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.smid : i32
  %smid = nvvm.read.ptx.sreg.smid : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.nsmid : i32
  %nsmid = nvvm.read.ptx.sreg.nsmid : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.gridid : i32
  %gridid = nvvm.read.ptx.sreg.gridid : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.lanemask.eq : i32
  %lanemask_eq = nvvm.read.ptx.sreg.lanemask.eq : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.lanemask.le : i32
  %lanemask_le = nvvm.read.ptx.sreg.lanemask.le : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.lanemask.lt : i32
  %lanemask_lt = nvvm.read.ptx.sreg.lanemask.lt : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.lanemask.ge : i32
  %lanemask_ge = nvvm.read.ptx.sreg.lanemask.ge : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.lanemask.gt : i32
  %lanemask_gt = nvvm.read.ptx.sreg.lanemask.gt : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.tid.x : i32
  %tid_x = nvvm.read.ptx.sreg.tid.x : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.tid.y : i32
  %tid_y = nvvm.read.ptx.sreg.tid.y : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.tid.z : i32
  %tid_z = nvvm.read.ptx.sreg.tid.z : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.ntid.x : i32
  %ntid_x = nvvm.read.ptx.sreg.ntid.x : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.ntid.y : i32
  %ntid_y = nvvm.read.ptx.sreg.ntid.y : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.ntid.z : i32
  %ntid_z = nvvm.read.ptx.sreg.ntid.z : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.ctaid.x : i32
  %ctaid_x = nvvm.read.ptx.sreg.ctaid.x : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.ctaid.y : i32
  %ctaid_y = nvvm.read.ptx.sreg.ctaid.y : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.ctaid.z : i32
  %ctaid_z = nvvm.read.ptx.sreg.ctaid.z : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.nctaid.x : i32
  %nctaid_x = nvvm.read.ptx.sreg.nctaid.x : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.nctaid.y : i32
  %nctaid_y = nvvm.read.ptx.sreg.nctaid.y : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.nctaid.z : i32
  %nctaid_z = nvvm.read.ptx.sreg.nctaid.z : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.clusterid.x : i32
  %clusterid_x = nvvm.read.ptx.sreg.clusterid.x : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.clusterid.y : i32
  %clusterid_y = nvvm.read.ptx.sreg.clusterid.y : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.clusterid.z : i32
  %clusterid_z = nvvm.read.ptx.sreg.clusterid.z : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.nclusterid.x : i32
  %nclusterid_x = nvvm.read.ptx.sreg.nclusterid.x : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.nclusterid.y : i32
  %nclusterid_y = nvvm.read.ptx.sreg.nclusterid.y : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.nclusterid.z : i32
  %nclusterid_z = nvvm.read.ptx.sreg.nclusterid.z : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.cluster.ctaid.x : i32
  %cluster_ctaid_x = nvvm.read.ptx.sreg.cluster.ctaid.x : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.cluster.ctaid.y : i32
  %cluster_ctaid_y = nvvm.read.ptx.sreg.cluster.ctaid.y : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.cluster.ctaid.z : i32
  %cluster_ctaid_z = nvvm.read.ptx.sreg.cluster.ctaid.z : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.cluster.nctaid.x : i32
  %cluster_nctaid_x = nvvm.read.ptx.sreg.cluster.nctaid.x : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.cluster.nctaid.y : i32
  %cluster_nctaid_y = nvvm.read.ptx.sreg.cluster.nctaid.y : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.cluster.nctaid.z : i32
  %cluster_nctaid_z = nvvm.read.ptx.sreg.cluster.nctaid.z : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %cluster_ctarank = nvvm.read.ptx.sreg.cluster.ctarank : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.cluster.nctarank : i32
  %cluster_nctarank = nvvm.read.ptx.sreg.cluster.nctarank : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.total.smem.size : i32
  %total_smem_size = nvvm.read.ptx.sreg.total.smem.size : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.dynamic.smem.size : i32
  %dynamic_smem_size = nvvm.read.ptx.sreg.dynamic.smem.size : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.aggr.smem.size : i32
  %aggr_smem_size = nvvm.read.ptx.sreg.aggr.smem.size : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.clock : i32
  %clock = nvvm.read.ptx.sreg.clock : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.globaltimer.lo : i32
  %globaltimer_lo = nvvm.read.ptx.sreg.globaltimer.lo : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg0 : i32
  %envreg0 = nvvm.read.ptx.sreg.envreg0 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg1 : i32
  %envreg1 = nvvm.read.ptx.sreg.envreg1 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg2 : i32
  %envreg2 = nvvm.read.ptx.sreg.envreg2 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg3 : i32
  %envreg3 = nvvm.read.ptx.sreg.envreg3 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg4 : i32
  %envreg4 = nvvm.read.ptx.sreg.envreg4 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg5 : i32
  %envreg5 = nvvm.read.ptx.sreg.envreg5 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg6 : i32
  %envreg6 = nvvm.read.ptx.sreg.envreg6 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg7 : i32
  %envreg7 = nvvm.read.ptx.sreg.envreg7 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg8 : i32
  %envreg8 = nvvm.read.ptx.sreg.envreg8 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg9 : i32
  %envreg9 = nvvm.read.ptx.sreg.envreg9 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg10 : i32
  %envreg10 = nvvm.read.ptx.sreg.envreg10 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg11 : i32
  %envreg11 = nvvm.read.ptx.sreg.envreg11 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg12 : i32
  %envreg12 = nvvm.read.ptx.sreg.envreg12 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg13 : i32
  %envreg13 = nvvm.read.ptx.sreg.envreg13 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg14 : i32
  %envreg14 = nvvm.read.ptx.sreg.envreg14 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg15 : i32
  %envreg15 = nvvm.read.ptx.sreg.envreg15 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg16 : i32
  %envreg16 = nvvm.read.ptx.sreg.envreg16 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg17 : i32
  %envreg17 = nvvm.read.ptx.sreg.envreg17 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg18 : i32
  %envreg18 = nvvm.read.ptx.sreg.envreg18 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg19 : i32
  %envreg19 = nvvm.read.ptx.sreg.envreg19 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg20 : i32
  %envreg20 = nvvm.read.ptx.sreg.envreg20 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg21 : i32
  %envreg21 = nvvm.read.ptx.sreg.envreg21 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg22 : i32
  %envreg22 = nvvm.read.ptx.sreg.envreg22 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg23 : i32
  %envreg23 = nvvm.read.ptx.sreg.envreg23 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg24 : i32
  %envreg24 = nvvm.read.ptx.sreg.envreg24 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg25 : i32
  %envreg25 = nvvm.read.ptx.sreg.envreg25 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg26 : i32
  %envreg26 = nvvm.read.ptx.sreg.envreg26 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg27 : i32
  %envreg27 = nvvm.read.ptx.sreg.envreg27 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg28 : i32
  %envreg28 = nvvm.read.ptx.sreg.envreg28 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg29 : i32
  %envreg29 = nvvm.read.ptx.sreg.envreg29 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg30 : i32
  %envreg30 = nvvm.read.ptx.sreg.envreg30 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.envreg31 : i32
  %envreg31 = nvvm.read.ptx.sreg.envreg31 : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.clock64 : i64
  %clock64 = nvvm.read.ptx.sreg.clock64 : i64
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.globaltimer : i64
  %globaltimer = nvvm.read.ptx.sreg.globaltimer : i64
  // CHECK-NEXT: llvm.return
  llvm.return
}

// CHECK-LABEL: llvm.func @ranges
llvm.func @ranges() {
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.tid.x range <i32, 0, 64> : i32
  %0 = nvvm.read.ptx.sreg.tid.x range <i32, 0, 64> : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.laneid range <i32, 0, 32> : i32
  %1 = nvvm.read.ptx.sreg.laneid range <i32, 0, 32> : i32
  // Bounds wrap to the type's width and print signed, as upstream.
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.ntid.y range <i32, 1, -1> : i32
  %2 = nvvm.read.ptx.sreg.ntid.y range <i32, 1, 4294967295> : i32
  // Lower == upper is valid for the full and the empty range.
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.ctaid.z range <i32, 0, 0> : i32
  %3 = nvvm.read.ptx.sreg.ctaid.z range <i32, 0, 0> : i32
  // CHECK-NEXT: %{{.*}} = nvvm.read.ptx.sreg.cluster.ctarank range <i32, -1, -1> {extra} : i32
  %4 = nvvm.read.ptx.sreg.cluster.ctarank range <i32, -1, -1> {extra} : i32
  // CHECK-NEXT: llvm.return
  llvm.return
}

// CHECK-LABEL: llvm.func @barriers
llvm.func @barriers(%mask: i32) {
  // CHECK-NEXT: nvvm.barrier0
  nvvm.barrier0
  // CHECK-NEXT: nvvm.bar.warp.sync %{{.*}} : i32
  nvvm.bar.warp.sync %mask : i32
  // CHECK-NEXT: nvvm.cluster.arrive{{$}}
  nvvm.cluster.arrive
  // CHECK-NEXT: nvvm.cluster.arrive {aligned}
  nvvm.cluster.arrive {aligned}
  // CHECK-NEXT: nvvm.cluster.arrive.relaxed{{$}}
  nvvm.cluster.arrive.relaxed
  // CHECK-NEXT: nvvm.cluster.arrive.relaxed {aligned}
  nvvm.cluster.arrive.relaxed {aligned}
  // CHECK-NEXT: nvvm.cluster.wait{{$}}
  nvvm.cluster.wait
  // CHECK-NEXT: nvvm.cluster.wait {aligned}
  nvvm.cluster.wait {aligned}
  // CHECK-NEXT: llvm.return
  llvm.return
}

// CHECK-LABEL: llvm.func @warp_collectives
llvm.func @warp_collectives(%mask: i32, %f: f32, %i: i32, %clamp: i32, %pred: i1) {
  // CHECK-NEXT: %{{.*}} = nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f32 -> f32
  %0 = nvvm.shfl.sync bfly %mask, %f, %i, %clamp : f32 -> f32
  // CHECK-NEXT: %{{.*}} = nvvm.shfl.sync up %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32 -> i32
  %1 = nvvm.shfl.sync up %mask, %i, %i, %clamp : i32 -> i32
  // CHECK-NEXT: %{{.*}} = nvvm.shfl.sync down %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {return_value_and_is_valid} : f32 -> !llvm.struct<(f32, i1)>
  %2 = nvvm.shfl.sync down %mask, %f, %i, %clamp {return_value_and_is_valid} : f32 -> !llvm.struct<(f32, i1)>
  // CHECK-NEXT: %{{.*}} = nvvm.shfl.sync idx %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {return_value_and_is_valid} : i32 -> !llvm.struct<(i32, i1)>
  %3 = nvvm.shfl.sync idx %mask, %i, %i, %clamp {return_value_and_is_valid} : i32 -> !llvm.struct<(i32, i1)>
  // CHECK-NEXT: %{{.*}} = nvvm.vote.sync any %{{.*}}, %{{.*}} -> i1
  %4 = nvvm.vote.sync any %mask, %pred -> i1
  // CHECK-NEXT: %{{.*}} = nvvm.vote.sync all %{{.*}}, %{{.*}} -> i1
  %5 = nvvm.vote.sync all %mask, %pred -> i1
  // CHECK-NEXT: %{{.*}} = nvvm.vote.sync uni %{{.*}}, %{{.*}} -> i1
  %6 = nvvm.vote.sync uni %mask, %pred -> i1
  // CHECK-NEXT: %{{.*}} = nvvm.vote.sync ballot %{{.*}}, %{{.*}} -> i32
  %7 = nvvm.vote.sync ballot %mask, %pred -> i32
  // Default-valued properties (abs, nan = false) are elided.
  // CHECK-NEXT: %{{.*}} = nvvm.redux.sync add %{{.*}}, %{{.*}} : i32 -> i32
  %8 = nvvm.redux.sync add %i, %mask {abs = false} : i32 -> i32
  // CHECK-NEXT: %{{.*}} = nvvm.redux.sync umin %{{.*}}, %{{.*}} : i32 -> i32
  %9 = nvvm.redux.sync umin %i, %mask : i32 -> i32
  // CHECK-NEXT: %{{.*}} = nvvm.redux.sync xor %{{.*}}, %{{.*}} : i32 -> i32
  %10 = nvvm.redux.sync xor %i, %mask : i32 -> i32
  // CHECK-NEXT: %{{.*}} = nvvm.redux.sync fmin %{{.*}}, %{{.*}} {abs = true, nan = true} : f32 -> f32
  %11 = nvvm.redux.sync fmin %f, %mask {abs = true, nan = true} : f32 -> f32
  // CHECK-NEXT: %{{.*}} = nvvm.redux.sync fmax %{{.*}}, %{{.*}} {nan = true} : f32 -> f32
  %12 = nvvm.redux.sync fmax %f, %mask {nan = true} : f32 -> f32
  // CHECK-NEXT: %{{.*}} = nvvm.elect.sync -> i1
  %13 = nvvm.elect.sync -> i1
  // CHECK-NEXT: %{{.*}} = nvvm.elect.sync %{{.*}} -> i1
  %14 = nvvm.elect.sync %mask -> i1
  // CHECK-NEXT: llvm.return
  llvm.return
}

// CHECK-LABEL: llvm.func @fences
llvm.func @fences(%addr: !llvm.ptr, %size: i32) {
  // CHECK-NEXT: nvvm.memory.barrier <cta>
  nvvm.memory.barrier <cta>
  // CHECK-NEXT: nvvm.memory.barrier <cluster>
  nvvm.memory.barrier #nvvm.mem_scope<cluster>
  // CHECK-NEXT: nvvm.memory.barrier <gpu>
  nvvm.memory.barrier <gpu>
  // CHECK-NEXT: nvvm.memory.barrier <sys>
  nvvm.memory.barrier <sys>
  // CHECK-NEXT: nvvm.fence.sc.cluster
  nvvm.fence.sc.cluster
  // CHECK-NEXT: nvvm.fence.mbarrier.init
  nvvm.fence.mbarrier.init
  // CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<alias>}
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<alias>}
  // CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async>}
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<async>}
  // CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.global>}
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.global>}
  // CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
  // CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cluster>}
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cluster>}
  // CHECK-NEXT: nvvm.fence.proxy.acquire <cta> %{{.*}}, %{{.*}}{{$}}
  nvvm.fence.proxy.acquire <cta> %addr, %size
  // Proxies equal to their defaults are elided.
  // CHECK-NEXT: nvvm.fence.proxy.acquire <sys> %{{.*}}, %{{.*}}{{$}}
  nvvm.fence.proxy.acquire #nvvm.mem_scope<sys> %addr, %size from_proxy = <generic> to_proxy = #nvvm.proxy_kind<tensormap>
  // CHECK-NEXT: nvvm.fence.proxy.release <gpu>{{$}}
  nvvm.fence.proxy.release <gpu>
  // CHECK-NEXT: nvvm.fence.proxy.release <cluster>{{$}}
  nvvm.fence.proxy.release <cluster> from_proxy = <generic>
  // CHECK-NEXT: nvvm.fence.sync_restrict {order = #nvvm.mem_order<acquire>}
  nvvm.fence.sync_restrict {order = #nvvm.mem_order<acquire>}
  // CHECK-NEXT: nvvm.fence.sync_restrict {order = #nvvm.mem_order<release>}
  nvvm.fence.sync_restrict {order = #nvvm.mem_order<release>}
  // CHECK-NEXT: nvvm.fence.proxy.sync_restrict {order = #nvvm.mem_order<acquire>}
  nvvm.fence.proxy.sync_restrict {order = #nvvm.mem_order<acquire>}
  // CHECK-NEXT: nvvm.fence.proxy.sync_restrict {order = #nvvm.mem_order<release>}
  nvvm.fence.proxy.sync_restrict {order = #nvvm.mem_order<release>, fromProxy = #nvvm.proxy_kind<generic>}
  // CHECK-NEXT: llvm.return
  llvm.return
}
