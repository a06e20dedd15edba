// RUN: XDSL_ROUNDTRIP
// RUN: xdsl-opt %s --split-input-file | filecheck %s

// Every value of every enum attribute of the nvvm dialect on its own, as discardable
// attributes of func.func. Compared with mlir-opt 22 by tests/test_mlir_conformance.py.

// CHECK-LABEL: func.func @enum_shfl_kind()
// CHECK-SAME: attributes {a = #nvvm<shfl_kind bfly>, b = #nvvm<shfl_kind up>, c = #nvvm<shfl_kind down>, d = #nvvm<shfl_kind idx>}
func.func @enum_shfl_kind() attributes {a = #nvvm<shfl_kind bfly>, b = #nvvm<shfl_kind up>, c = #nvvm<shfl_kind down>, d = #nvvm<shfl_kind idx>} {
  func.return
}

// -----

// CHECK-LABEL: func.func @enum_vote_sync_kind()
// CHECK-SAME: attributes {a = #nvvm<vote_sync_kind any>, b = #nvvm<vote_sync_kind all>, c = #nvvm<vote_sync_kind ballot>, d = #nvvm<vote_sync_kind uni>}
func.func @enum_vote_sync_kind() attributes {a = #nvvm<vote_sync_kind any>, b = #nvvm<vote_sync_kind all>, c = #nvvm<vote_sync_kind ballot>, d = #nvvm<vote_sync_kind uni>} {
  func.return
}

// -----

// CHECK-LABEL: func.func @enum_redux_kind()
// CHECK-SAME: attributes {a = #nvvm<redux_kind add>, b = #nvvm<redux_kind and>, c = #nvvm<redux_kind max>, d = #nvvm<redux_kind min>, e = #nvvm<redux_kind or>, f = #nvvm<redux_kind umax>, g = #nvvm<redux_kind umin>, h = #nvvm<redux_kind xor>, i = #nvvm<redux_kind fmin>, j = #nvvm<redux_kind fmax>}
func.func @enum_redux_kind() attributes {a = #nvvm<redux_kind add>, b = #nvvm<redux_kind and>, c = #nvvm<redux_kind max>, d = #nvvm<redux_kind min>, e = #nvvm<redux_kind or>, f = #nvvm<redux_kind umax>, g = #nvvm<redux_kind umin>, h = #nvvm<redux_kind xor>, i = #nvvm<redux_kind fmin>, j = #nvvm<redux_kind fmax>} {
  func.return
}

// -----

// CHECK-LABEL: func.func @enum_mem_scope()
// CHECK-SAME: attributes {a = #nvvm.mem_scope<cta>, b = #nvvm.mem_scope<cluster>, c = #nvvm.mem_scope<gpu>, d = #nvvm.mem_scope<sys>}
func.func @enum_mem_scope() attributes {a = #nvvm.mem_scope<cta>, b = #nvvm.mem_scope<cluster>, c = #nvvm.mem_scope<gpu>, d = #nvvm.mem_scope<sys>} {
  func.return
}

// -----

// CHECK-LABEL: func.func @enum_proxy_kind()
// CHECK-SAME: attributes {a = #nvvm.proxy_kind<alias>, b = #nvvm.proxy_kind<async>, c = #nvvm.proxy_kind<async.global>, d = #nvvm.proxy_kind<async.shared>, e = #nvvm.proxy_kind<tensormap>, f = #nvvm.proxy_kind<generic>}
func.func @enum_proxy_kind() attributes {a = #nvvm.proxy_kind<alias>, b = #nvvm.proxy_kind<async>, c = #nvvm.proxy_kind<async.global>, d = #nvvm.proxy_kind<async.shared>, e = #nvvm.proxy_kind<tensormap>, f = #nvvm.proxy_kind<generic>} {
  func.return
}

// -----

// CHECK-LABEL: func.func @enum_shared_space()
// CHECK-SAME: attributes {a = #nvvm.shared_space<cta>, b = #nvvm.shared_space<cluster>}
func.func @enum_shared_space() attributes {a = #nvvm.shared_space<cta>, b = #nvvm.shared_space<cluster>} {
  func.return
}

// -----

// CHECK-LABEL: func.func @enum_mem_order()
// CHECK-SAME: attributes {a = #nvvm.mem_order<weak>, b = #nvvm.mem_order<relaxed>, c = #nvvm.mem_order<acquire>, d = #nvvm.mem_order<release>, e = #nvvm.mem_order<acq_rel>, f = #nvvm.mem_order<sc>, g = #nvvm.mem_order<mmio>, h = #nvvm.mem_order<volatile>}
func.func @enum_mem_order() attributes {a = #nvvm.mem_order<weak>, b = #nvvm.mem_order<relaxed>, c = #nvvm.mem_order<acquire>, d = #nvvm.mem_order<release>, e = #nvvm.mem_order<acq_rel>, f = #nvvm.mem_order<sc>, g = #nvvm.mem_order<mmio>, h = #nvvm.mem_order<volatile>} {
  func.return
}
