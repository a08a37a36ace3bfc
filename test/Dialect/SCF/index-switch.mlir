// scf.index_switch: the CHECK lines are what mlir-opt prints for the
// functions below (pretty, and through the generic form), its trailing
// space after the header included; the default region's empty yield is
// left out, the cases' are not. CANON (on @c and @d, in
// Inputs/index-switch-constant.mlir): on a constant index the matching
// case, or the default region, replaces the switch.
// RUN: strata-opt %s --allow-unregistered-dialect | FileCheck %s --strict-whitespace
// RUN: strata-opt %s --allow-unregistered-dialect --mlir-print-op-generic | strata-opt --allow-unregistered-dialect | FileCheck %s --strict-whitespace
// RUN: strata-opt %S/Inputs/index-switch-constant.mlir --canonicalize | FileCheck %s --check-prefix=CANON --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func @s(%arg0: index, %arg1: i32, %arg2: i32) -> i32 {
// CHECK-NEXT:     %0 = scf.index_switch %arg0 -> i32 
// CHECK-NEXT:     case 2 {
// CHECK-NEXT:       scf.yield %arg1 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     case 5 {
// CHECK-NEXT:       %1 = arith.addi %arg1, %arg2 : i32
// CHECK-NEXT:       scf.yield %1 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     default {
// CHECK-NEXT:       scf.yield %arg2 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     scf.index_switch %arg0 
// CHECK-NEXT:     default {
// CHECK-NEXT:     }
// CHECK-NEXT:     return %0 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @c(%arg0: i32, %arg1: i32) -> i32 {
// CHECK-NEXT:     %c5 = arith.constant 5 : index
// CHECK-NEXT:     %0 = scf.index_switch %c5 -> i32 
// CHECK-NEXT:     case 2 {
// CHECK-NEXT:       scf.yield %arg0 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     case 5 {
// CHECK-NEXT:       %1 = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT:       scf.yield %1 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     default {
// CHECK-NEXT:       scf.yield %arg1 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     return %0 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @d(%arg0: i32, %arg1: i32) -> i32 {
// CHECK-NEXT:     %c7 = arith.constant 7 : index
// CHECK-NEXT:     %0 = scf.index_switch %c7 -> i32 
// CHECK-NEXT:     case 2 {
// CHECK-NEXT:       scf.yield %arg0 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     default {
// CHECK-NEXT:       %1 = arith.muli %arg0, %arg1 : i32
// CHECK-NEXT:       scf.yield %1 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     return %0 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @e(%arg0: index, %arg1: i32) -> (i32, f32) {
// CHECK-NEXT:     %cst = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:     %0:2 = scf.index_switch %arg0 {foo} -> i32, f32 
// CHECK-NEXT:     case -3 {
// CHECK-NEXT:       scf.yield %arg1, %cst : i32, f32
// CHECK-NEXT:     }
// CHECK-NEXT:     case 0 {
// CHECK-NEXT:       "foo.op"() : () -> ()
// CHECK-NEXT:       scf.yield %arg1, %cst : i32, f32
// CHECK-NEXT:     }
// CHECK-NEXT:     default {
// CHECK-NEXT:       scf.yield %arg1, %cst : i32, f32
// CHECK-NEXT:     }
// CHECK-NEXT:     scf.index_switch %arg0 
// CHECK-NEXT:     case 1 {
// CHECK-NEXT:       scf.yield
// CHECK-NEXT:     }
// CHECK-NEXT:     default {
// CHECK-NEXT:       "foo.op"() : () -> ()
// CHECK-NEXT:     }
// CHECK-NEXT:     return %0#0, %0#1 : i32, f32
// CHECK-NEXT:   }
// CHECK-NEXT: }

// CANON: module {
// CANON-NEXT:   func.func @c(%arg0: i32, %arg1: i32) -> i32 {
// CANON-NEXT:     %0 = arith.addi %arg0, %arg1 : i32
// CANON-NEXT:     return %0 : i32
// CANON-NEXT:   }
// CANON-NEXT:   func.func @d(%arg0: i32, %arg1: i32) -> i32 {
// CANON-NEXT:     %0 = arith.muli %arg0, %arg1 : i32
// CANON-NEXT:     return %0 : i32
// CANON-NEXT:   }
// CANON-NEXT: }

func.func @s(%i: index, %a: i32, %b: i32) -> i32 {
  %0 = scf.index_switch %i -> i32
  case 2 {
    scf.yield %a : i32
  }
  case 5 {
    %c = arith.addi %a, %b : i32
    scf.yield %c : i32
  }
  default {
    scf.yield %b : i32
  }
  scf.index_switch %i
  default {
  }
  return %0 : i32
}
func.func @c(%a: i32, %b: i32) -> i32 {
  %i = arith.constant 5 : index
  %0 = scf.index_switch %i -> i32
  case 2 {
    scf.yield %a : i32
  }
  case 5 {
    %c = arith.addi %a, %b : i32
    scf.yield %c : i32
  }
  default {
    scf.yield %b : i32
  }
  return %0 : i32
}
func.func @d(%a: i32, %b: i32) -> i32 {
  %i = arith.constant 7 : index
  %0 = scf.index_switch %i -> i32
  case 2 {
    scf.yield %a : i32
  }
  default {
    %c = arith.muli %a, %b : i32
    scf.yield %c : i32
  }
  return %0 : i32
}
func.func @e(%i: index, %a: i32) -> (i32, f32) {
  %f = arith.constant 1.0 : f32
  %0:2 = scf.index_switch %i {foo} -> i32, f32
  case -3 {
    scf.yield %a, %f : i32, f32
  }
  case 0 {
    "foo.op"() : () -> ()
    scf.yield %a, %f : i32, f32
  }
  default {
    scf.yield %a, %f : i32, f32
  }
  scf.index_switch %i
  case 1 {
    scf.yield
  }
  default {
    "foo.op"() : () -> ()
  }
  return %0#0, %0#1 : i32, f32
}
