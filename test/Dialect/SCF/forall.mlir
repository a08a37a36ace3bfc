// scf.forall and scf.forall.in_parallel: the custom form (the normalized
// `in` form, mixed static and dynamic bounds, shared outputs), the generic
// form, and the canonicalization patterns (constant bounds made static,
// shared outputs no op writes forwarded, dimensions of zero or one
// iteration removed). The CHECK lines are mlir-opt 22's output.
// RUN: strata-opt %s --allow-unregistered-dialect | FileCheck %s --strict-whitespace
// RUN: strata-opt %s --allow-unregistered-dialect --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC --strict-whitespace
// RUN: strata-opt %s --allow-unregistered-dialect --canonicalize | FileCheck %s --check-prefix=CANON --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func @f(%arg0: index, %arg1: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT:     %c0 = arith.constant 0 : index
// CHECK-NEXT:     %c8 = arith.constant 8 : index
// CHECK-NEXT:     scf.forall (%arg2, %arg3) in (%arg0, 4) {
// CHECK-NEXT:       "test.use"(%arg2, %arg3) : (index, index) -> ()
// CHECK-NEXT:     }
// CHECK-NEXT:     scf.forall (%arg2) = (0) to (%arg0) step (2) {
// CHECK-NEXT:       "test.use"(%arg2) : (index) -> ()
// CHECK-NEXT:     } {mapping = []}
// CHECK-NEXT:     %0 = scf.forall (%arg2) in (8) shared_outs(%arg3 = %arg1) -> (tensor<8xf32>) {
// CHECK-NEXT:       scf.forall.in_parallel {
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     return %0 : tensor<8xf32>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @control(%arg0: index) {
// CHECK-NEXT:     %c0 = arith.constant 0 : index
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     %c4 = arith.constant 4 : index
// CHECK-NEXT:     scf.forall (%arg1, %arg2) = (%c0, %arg0) to (%c4, %c4) step (%c1, %arg0) {
// CHECK-NEXT:       "test.use"(%arg1, %arg2) : (index, index) -> ()
// CHECK-NEXT:     }
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @unused_out(%arg0: tensor<8xf32>, %arg1: index) -> tensor<8xf32> {
// CHECK-NEXT:     %0 = scf.forall (%arg2) in (%arg1) shared_outs(%arg3 = %arg0) -> (tensor<8xf32>) {
// CHECK-NEXT:       "test.use"(%arg2, %arg3) : (index, tensor<8xf32>) -> ()
// CHECK-NEXT:       scf.forall.in_parallel {
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     return %0 : tensor<8xf32>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @single(%arg0: index, %arg1: index) {
// CHECK-NEXT:     scf.forall (%arg2, %arg3, %arg4) in (1, %arg0, 1) {
// CHECK-NEXT:       "test.use"(%arg2, %arg3, %arg4) : (index, index, index) -> ()
// CHECK-NEXT:     }
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @single_all(%arg0: index) {
// CHECK-NEXT:     scf.forall (%arg1, %arg2) = (%arg0, 3) to (4, 4) step (10, 1) {
// CHECK-NEXT:       "test.use"(%arg1, %arg2) : (index, index) -> ()
// CHECK-NEXT:     }
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @zero(%arg0: index) {
// CHECK-NEXT:     scf.forall (%arg1, %arg2) in (0, %arg0) {
// CHECK-NEXT:       "test.use"(%arg1, %arg2) : (index, index) -> ()
// CHECK-NEXT:     }
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @mapped(%arg0: index) {
// CHECK-NEXT:     scf.forall (%arg1) in (1) {
// CHECK-NEXT:       "test.use"(%arg1) : (index) -> ()
// CHECK-NEXT:     } {foo = 3 : i64, mapping = []}
// CHECK-NEXT:     scf.forall (%arg1, %arg2) in (1, %arg0) {
// CHECK-NEXT:       "test.use"(%arg1, %arg2) : (index, index) -> ()
// CHECK-NEXT:     } {foo = 3 : i64}
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:

// GENERIC: "builtin.module"() ({
// GENERIC-NEXT:   "func.func"() <{function_type = (index, tensor<8xf32>) -> tensor<8xf32>, sym_name = "f"}> ({
// GENERIC-NEXT:   ^bb0(%arg22: index, %arg23: tensor<8xf32>):
// GENERIC-NEXT:     %4 = "arith.constant"() <{value = 0 : index}> : () -> index
// GENERIC-NEXT:     %5 = "arith.constant"() <{value = 8 : index}> : () -> index
// GENERIC-NEXT:     "scf.forall"(%arg22) <{operandSegmentSizes = array<i32: 0, 1, 0, 0>, staticLowerBound = array<i64: 0, 0>, staticStep = array<i64: 1, 1>, staticUpperBound = array<i64: -9223372036854775808, 4>}> ({
// GENERIC-NEXT:     ^bb0(%arg27: index, %arg28: index):
// GENERIC-NEXT:       "test.use"(%arg27, %arg28) : (index, index) -> ()
// GENERIC-NEXT:       "scf.forall.in_parallel"() ({
// GENERIC-NEXT:       ^bb0:
// GENERIC-NEXT:       }) : () -> ()
// GENERIC-NEXT:     }) : (index) -> ()
// GENERIC-NEXT:     "scf.forall"(%arg22) <{mapping = [], operandSegmentSizes = array<i32: 0, 1, 0, 0>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 2>, staticUpperBound = array<i64: -9223372036854775808>}> ({
// GENERIC-NEXT:     ^bb0(%arg26: index):
// GENERIC-NEXT:       "test.use"(%arg26) : (index) -> ()
// GENERIC-NEXT:       "scf.forall.in_parallel"() ({
// GENERIC-NEXT:       ^bb0:
// GENERIC-NEXT:       }) : () -> ()
// GENERIC-NEXT:     }) : (index) -> ()
// GENERIC-NEXT:     %6 = "scf.forall"(%arg23) <{operandSegmentSizes = array<i32: 0, 0, 0, 1>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 8>}> ({
// GENERIC-NEXT:     ^bb0(%arg24: index, %arg25: tensor<8xf32>):
// GENERIC-NEXT:       "scf.forall.in_parallel"() ({
// GENERIC-NEXT:       ^bb0:
// GENERIC-NEXT:       }) : () -> ()
// GENERIC-NEXT:     }) : (tensor<8xf32>) -> tensor<8xf32>
// GENERIC-NEXT:     "func.return"(%6) : (tensor<8xf32>) -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "func.func"() <{function_type = (index) -> (), sym_name = "control"}> ({
// GENERIC-NEXT:   ^bb0(%arg19: index):
// GENERIC-NEXT:     %1 = "arith.constant"() <{value = 0 : index}> : () -> index
// GENERIC-NEXT:     %2 = "arith.constant"() <{value = 1 : index}> : () -> index
// GENERIC-NEXT:     %3 = "arith.constant"() <{value = 4 : index}> : () -> index
// GENERIC-NEXT:     "scf.forall"(%1, %arg19, %3, %3, %2, %arg19) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>, staticLowerBound = array<i64: -9223372036854775808, -9223372036854775808>, staticStep = array<i64: -9223372036854775808, -9223372036854775808>, staticUpperBound = array<i64: -9223372036854775808, -9223372036854775808>}> ({
// GENERIC-NEXT:     ^bb0(%arg20: index, %arg21: index):
// GENERIC-NEXT:       "test.use"(%arg20, %arg21) : (index, index) -> ()
// GENERIC-NEXT:       "scf.forall.in_parallel"() ({
// GENERIC-NEXT:       ^bb0:
// GENERIC-NEXT:       }) : () -> ()
// GENERIC-NEXT:     }) : (index, index, index, index, index, index) -> ()
// GENERIC-NEXT:     "func.return"() : () -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "func.func"() <{function_type = (tensor<8xf32>, index) -> tensor<8xf32>, sym_name = "unused_out"}> ({
// GENERIC-NEXT:   ^bb0(%arg15: tensor<8xf32>, %arg16: index):
// GENERIC-NEXT:     %0 = "scf.forall"(%arg16, %arg15) <{operandSegmentSizes = array<i32: 0, 1, 0, 1>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: -9223372036854775808>}> ({
// GENERIC-NEXT:     ^bb0(%arg17: index, %arg18: tensor<8xf32>):
// GENERIC-NEXT:       "test.use"(%arg17, %arg18) : (index, tensor<8xf32>) -> ()
// GENERIC-NEXT:       "scf.forall.in_parallel"() ({
// GENERIC-NEXT:       ^bb0:
// GENERIC-NEXT:       }) : () -> ()
// GENERIC-NEXT:     }) : (index, tensor<8xf32>) -> tensor<8xf32>
// GENERIC-NEXT:     "func.return"(%0) : (tensor<8xf32>) -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "func.func"() <{function_type = (index, index) -> (), sym_name = "single"}> ({
// GENERIC-NEXT:   ^bb0(%arg10: index, %arg11: index):
// GENERIC-NEXT:     "scf.forall"(%arg10) <{operandSegmentSizes = array<i32: 0, 1, 0, 0>, staticLowerBound = array<i64: 0, 0, 0>, staticStep = array<i64: 1, 1, 1>, staticUpperBound = array<i64: 1, -9223372036854775808, 1>}> ({
// GENERIC-NEXT:     ^bb0(%arg12: index, %arg13: index, %arg14: index):
// GENERIC-NEXT:       "test.use"(%arg12, %arg13, %arg14) : (index, index, index) -> ()
// GENERIC-NEXT:       "scf.forall.in_parallel"() ({
// GENERIC-NEXT:       ^bb0:
// GENERIC-NEXT:       }) : () -> ()
// GENERIC-NEXT:     }) : (index) -> ()
// GENERIC-NEXT:     "func.return"() : () -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "func.func"() <{function_type = (index) -> (), sym_name = "single_all"}> ({
// GENERIC-NEXT:   ^bb0(%arg7: index):
// GENERIC-NEXT:     "scf.forall"(%arg7) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, staticLowerBound = array<i64: -9223372036854775808, 3>, staticStep = array<i64: 10, 1>, staticUpperBound = array<i64: 4, 4>}> ({
// GENERIC-NEXT:     ^bb0(%arg8: index, %arg9: index):
// GENERIC-NEXT:       "test.use"(%arg8, %arg9) : (index, index) -> ()
// GENERIC-NEXT:       "scf.forall.in_parallel"() ({
// GENERIC-NEXT:       ^bb0:
// GENERIC-NEXT:       }) : () -> ()
// GENERIC-NEXT:     }) : (index) -> ()
// GENERIC-NEXT:     "func.return"() : () -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "func.func"() <{function_type = (index) -> (), sym_name = "zero"}> ({
// GENERIC-NEXT:   ^bb0(%arg4: index):
// GENERIC-NEXT:     "scf.forall"(%arg4) <{operandSegmentSizes = array<i32: 0, 1, 0, 0>, staticLowerBound = array<i64: 0, 0>, staticStep = array<i64: 1, 1>, staticUpperBound = array<i64: 0, -9223372036854775808>}> ({
// GENERIC-NEXT:     ^bb0(%arg5: index, %arg6: index):
// GENERIC-NEXT:       "test.use"(%arg5, %arg6) : (index, index) -> ()
// GENERIC-NEXT:       "scf.forall.in_parallel"() ({
// GENERIC-NEXT:       ^bb0:
// GENERIC-NEXT:       }) : () -> ()
// GENERIC-NEXT:     }) : (index) -> ()
// GENERIC-NEXT:     "func.return"() : () -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "func.func"() <{function_type = (index) -> (), sym_name = "mapped"}> ({
// GENERIC-NEXT:   ^bb0(%arg0: index):
// GENERIC-NEXT:     "scf.forall"() <{mapping = [], operandSegmentSizes = array<i32: 0, 0, 0, 0>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 1>}> ({
// GENERIC-NEXT:     ^bb0(%arg3: index):
// GENERIC-NEXT:       "test.use"(%arg3) : (index) -> ()
// GENERIC-NEXT:       "scf.forall.in_parallel"() ({
// GENERIC-NEXT:       ^bb0:
// GENERIC-NEXT:       }) : () -> ()
// GENERIC-NEXT:     }) {foo = 3 : i64} : () -> ()
// GENERIC-NEXT:     "scf.forall"(%arg0) <{operandSegmentSizes = array<i32: 0, 1, 0, 0>, staticLowerBound = array<i64: 0, 0>, staticStep = array<i64: 1, 1>, staticUpperBound = array<i64: 1, -9223372036854775808>}> ({
// GENERIC-NEXT:     ^bb0(%arg1: index, %arg2: index):
// GENERIC-NEXT:       "test.use"(%arg1, %arg2) : (index, index) -> ()
// GENERIC-NEXT:       "scf.forall.in_parallel"() ({
// GENERIC-NEXT:       ^bb0:
// GENERIC-NEXT:       }) : () -> ()
// GENERIC-NEXT:     }) {foo = 3 : i64} : (index) -> ()
// GENERIC-NEXT:     "func.return"() : () -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC-EMPTY:

// CANON: module {
// CANON-NEXT:   func.func @f(%arg0: index, %arg1: tensor<8xf32>) -> tensor<8xf32> {
// CANON-NEXT:     scf.forall (%arg2, %arg3) in (%arg0, 4) {
// CANON-NEXT:       "test.use"(%arg2, %arg3) : (index, index) -> ()
// CANON-NEXT:     }
// CANON-NEXT:     scf.forall (%arg2) = (0) to (%arg0) step (2) {
// CANON-NEXT:       "test.use"(%arg2) : (index) -> ()
// CANON-NEXT:     } {mapping = []}
// CANON-NEXT:     return %arg1 : tensor<8xf32>
// CANON-NEXT:   }
// CANON-NEXT:   func.func @control(%arg0: index) {
// CANON-NEXT:     scf.forall (%arg1, %arg2) = (0, %arg0) to (4, 4) step (1, %arg0) {
// CANON-NEXT:       "test.use"(%arg1, %arg2) : (index, index) -> ()
// CANON-NEXT:     }
// CANON-NEXT:     return
// CANON-NEXT:   }
// CANON-NEXT:   func.func @unused_out(%arg0: tensor<8xf32>, %arg1: index) -> tensor<8xf32> {
// CANON-NEXT:     scf.forall (%arg2) in (%arg1) {
// CANON-NEXT:       "test.use"(%arg2, %arg0) : (index, tensor<8xf32>) -> ()
// CANON-NEXT:     }
// CANON-NEXT:     return %arg0 : tensor<8xf32>
// CANON-NEXT:   }
// CANON-NEXT:   func.func @single(%arg0: index, %arg1: index) {
// CANON-NEXT:     %c0 = arith.constant 0 : index
// CANON-NEXT:     scf.forall (%arg2) in (%arg0) {
// CANON-NEXT:       "test.use"(%c0, %arg2, %c0) : (index, index, index) -> ()
// CANON-NEXT:     }
// CANON-NEXT:     return
// CANON-NEXT:   }
// CANON-NEXT:   func.func @single_all(%arg0: index) {
// CANON-NEXT:     %c3 = arith.constant 3 : index
// CANON-NEXT:     scf.forall (%arg1) = (%arg0) to (4) step (10) {
// CANON-NEXT:       "test.use"(%arg1, %c3) : (index, index) -> ()
// CANON-NEXT:     }
// CANON-NEXT:     return
// CANON-NEXT:   }
// CANON-NEXT:   func.func @zero(%arg0: index) {
// CANON-NEXT:     return
// CANON-NEXT:   }
// CANON-NEXT:   func.func @mapped(%arg0: index) {
// CANON-NEXT:     %c0 = arith.constant 0 : index
// CANON-NEXT:     "test.use"(%c0) : (index) -> ()
// CANON-NEXT:     scf.forall (%arg1) in (%arg0) {
// CANON-NEXT:       "test.use"(%c0, %arg1) : (index, index) -> ()
// CANON-NEXT:     } {foo = 3 : i64}
// CANON-NEXT:     return
// CANON-NEXT:   }
// CANON-NEXT: }
// CANON-EMPTY:

func.func @f(%a: index, %t: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  scf.forall (%i, %j) in (%a, 4) {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  scf.forall (%i) = (0) to (%a) step (2) {
    "test.use"(%i) : (index) -> ()
  } {mapping = []}
  %r = scf.forall (%i) in (8) shared_outs(%o = %t) -> (tensor<8xf32>) {
    scf.forall.in_parallel {
    }
  }
  return %r : tensor<8xf32>
}

func.func @control(%a: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.forall (%i, %j) = (%c0, %a) to (%c4, %c4) step (%c1, %a) {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

func.func @unused_out(%t: tensor<8xf32>, %a: index) -> tensor<8xf32> {
  %r = scf.forall (%i) in (%a) shared_outs(%o = %t) -> (tensor<8xf32>) {
    "test.use"(%i, %o) : (index, tensor<8xf32>) -> ()
  }
  return %r : tensor<8xf32>
}

func.func @single(%a: index, %b: index) {
  scf.forall (%i, %j, %k) in (1, %a, 1) {
    "test.use"(%i, %j, %k) : (index, index, index) -> ()
  }
  return
}

func.func @single_all(%a: index) {
  scf.forall (%i, %j) = (%a, 3) to (4, 4) step (10, 1) {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

func.func @zero(%a: index) {
  scf.forall (%i, %j) in (0, %a) {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

func.func @mapped(%a: index) {
  scf.forall (%i) in (1) {
    "test.use"(%i) : (index) -> ()
  } {mapping = [], foo = 3}
  scf.forall (%i, %j) in (1, %a) {
    "test.use"(%i, %j) : (index, index) -> ()
  } {foo = 3}
  return
}
