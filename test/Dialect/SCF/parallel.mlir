// scf.parallel with its scf.reduce terminator, and scf.execute_region: the
// CHECK lines are what mlir-opt 22 prints for the functions below (pretty,
// and through the generic form): the reduce the parser inserts when a body
// has none, `scf.reduce ` with its trailing space, the reductions separated
// by `}, {`, attributes after the region.
// RUN: strata-opt %s --allow-unregistered-dialect | FileCheck %s --strict-whitespace
// RUN: strata-opt %s --allow-unregistered-dialect --mlir-print-op-generic | strata-opt --allow-unregistered-dialect | FileCheck %s --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func @sum(%arg0: index, %arg1: index, %arg2: index, %arg3: f32, %arg4: i32) -> (f32, i32) {
// CHECK-NEXT:     %0:2 = scf.parallel (%arg5, %arg6) = (%arg0, %arg0) to (%arg1, %arg1) step (%arg2, %arg2) init (%arg3, %arg4) -> (f32, i32) {
// CHECK-NEXT:       %1 = arith.index_cast %arg5 : index to i32
// CHECK-NEXT:       %2 = arith.sitofp %1 : i32 to f32
// CHECK-NEXT:       scf.reduce(%2, %1 : f32, i32) {
// CHECK-NEXT:       ^bb0(%arg7: f32, %arg8: f32):
// CHECK-NEXT:         %3 = arith.addf %arg7, %arg8 : f32
// CHECK-NEXT:         scf.reduce.return %3 : f32
// CHECK-NEXT:       }, {
// CHECK-NEXT:       ^bb0(%arg7: i32, %arg8: i32):
// CHECK-NEXT:         %3 = arith.maxsi %arg7, %arg8 : i32
// CHECK-NEXT:         scf.reduce.return %3 : i32
// CHECK-NEXT:       }
// CHECK-NEXT:     } {unroll = 2 : i64}
// CHECK-NEXT:     return %0#0, %0#1 : f32, i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @no_reductions(%arg0: index, %arg1: index, %arg2: index) {
// CHECK-NEXT:     scf.parallel (%arg3) = (%arg0) to (%arg1) step (%arg2) {
// CHECK-NEXT:       "test.use"(%arg3) : (index) -> ()
// CHECK-NEXT:       scf.reduce{{ $}}
// CHECK-NEXT:     }
// CHECK-NEXT:     scf.parallel (%arg3) = (%arg0) to (%arg1) step (%arg2) {
// CHECK-NEXT:       scf.reduce{{ $}}
// CHECK-NEXT:     }
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @one_result(%arg0: index, %arg1: index, %arg2: f32) -> f32 {
// CHECK-NEXT:     %0 = scf.parallel (%arg3) = (%arg0) to (%arg1) step (%arg1) init (%arg2) -> f32 {
// CHECK-NEXT:       scf.reduce(%arg2 : f32) {
// CHECK-NEXT:       ^bb0(%arg4: f32, %arg5: f32):
// CHECK-NEXT:         %1 = arith.mulf %arg4, %arg5 : f32
// CHECK-NEXT:         scf.reduce.return %1 : f32
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     return %0 : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @execute(%arg0: i1, %arg1: i64, %arg2: i64) -> i64 {
// CHECK-NEXT:     %0 = scf.execute_region -> i64 {
// CHECK-NEXT:       cf.cond_br %arg0, ^bb1, ^bb2
// CHECK-NEXT:     ^bb1:  // pred: ^bb0
// CHECK-NEXT:       scf.yield %arg1 : i64
// CHECK-NEXT:     ^bb2:  // pred: ^bb0
// CHECK-NEXT:       scf.yield %arg2 : i64
// CHECK-NEXT:     } {tag}
// CHECK-NEXT:     scf.execute_region {
// CHECK-NEXT:       "test.effect"() : () -> ()
// CHECK-NEXT:       scf.yield
// CHECK-NEXT:     }
// CHECK-NEXT:     %1:2 = scf.execute_region -> (i64, i64) {
// CHECK-NEXT:       scf.yield %arg1, %arg2 : i64, i64
// CHECK-NEXT:     }
// CHECK-NEXT:     return %0 : i64
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:

func.func @sum(%lb: index, %ub: index, %step: index, %init: f32, %n: i32) -> (f32, i32) {
  %r:2 = scf.parallel (%i, %j) = (%lb, %lb) to (%ub, %ub) step (%step, %step) init (%init, %n) -> (f32, i32) {
    %x = arith.index_cast %i : index to i32
    %f = arith.sitofp %x : i32 to f32
    scf.reduce(%f, %x : f32, i32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }, {
    ^bb0(%a: i32, %b: i32):
      %m = arith.maxsi %a, %b : i32
      scf.reduce.return %m : i32
    }
  } {unroll = 2 : i64}
  return %r#0, %r#1 : f32, i32
}

func.func @no_reductions(%lb: index, %ub: index, %step: index) {
  scf.parallel (%i) = (%lb) to (%ub) step (%step) {
    "test.use"(%i) : (index) -> ()
  }
  scf.parallel (%i) = (%lb) to (%ub) step (%step) {
    scf.reduce
  }
  return
}

func.func @one_result(%lb: index, %ub: index, %init: f32) -> f32 {
  %r = scf.parallel (%i) = (%lb) to (%ub) step (%ub) init (%init) -> f32 {
    scf.reduce(%init : f32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.mulf %a, %b : f32
      scf.reduce.return %s : f32
    }
  }
  return %r : f32
}

func.func @execute(%c: i1, %a: i64, %b: i64) -> i64 {
  %v = scf.execute_region -> i64 {
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    scf.yield %a : i64
  ^bb2:
    scf.yield %b : i64
  } {tag}
  scf.execute_region {
    "test.effect"() : () -> ()
    scf.yield
  }
  %w:2 = scf.execute_region -> (i64, i64) {
    scf.yield %a, %b : i64, i64
  }
  return %v : i64
}
