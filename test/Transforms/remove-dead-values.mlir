// RUN: strata-opt %s --split-input-file --remove-dead-values | FileCheck %s

// A private function loses the argument nothing reads and the result no
// call uses; its calls follow.
func.func private @helper(%unused: f32, %x: i32, %y: i32) -> (i32, i32) {
  %sum = arith.addi %x, %y : i32
  %prod = arith.muli %x, %y : i32
  return %sum, %prod : i32, i32
}
func.func @user(%a: f32, %b: i32) -> i32 {
  %r:2 = func.call @helper(%a, %b, %b) : (f32, i32, i32) -> (i32, i32)
  %s:2 = func.call @helper(%a, %b, %b) : (f32, i32, i32) -> (i32, i32)
  return %s#0 : i32
}

// CHECK-LABEL: func.func private @helper(%arg0: i32, %arg1: i32) -> i32 {
// CHECK-NEXT:   %0 = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT:   return %0 : i32
// CHECK-NEXT: }
// CHECK-LABEL: func.func @user(%arg0: f32, %arg1: i32) -> i32 {
// CHECK-NEXT:   %0 = call @helper(%arg1, %arg1) : (i32, i32) -> i32
// CHECK-NEXT:   %1 = call @helper(%arg1, %arg1) : (i32, i32) -> i32
// CHECK-NEXT:   return %1 : i32
// CHECK-NEXT: }

// -----

// Effect-free ops with no live result go, in a public function too; its
// signature stays.
func.func @public_dead(%a: i32, %b: i32) -> i32 {
  %dead = arith.addi %a, %b : i32
  %dead2 = arith.muli %dead, %dead : i32
  %live = arith.subi %a, %b : i32
  return %live : i32
}

// CHECK-LABEL: func.func @public_dead(%arg0: i32, %arg1: i32) -> i32 {
// CHECK-NEXT:   %0 = arith.subi %arg0, %arg1 : i32
// CHECK-NEXT:   return %0 : i32
// CHECK-NEXT: }

// -----

// A loop-carried value nobody reads leaves the loop; the loop that
// computes only dead values goes entirely.
func.func @loops(%lb: index, %ub: index, %step: index, %init: i32) -> i32 {
  %one = arith.constant 1 : i32
  %r:2 = scf.for %i = %lb to %ub step %step iter_args(%acc = %init, %junk = %init) -> (i32, i32) {
    %next = arith.addi %acc, %one : i32
    %j = arith.muli %junk, %junk : i32
    scf.yield %next, %j : i32, i32
  }
  %gone = scf.for %i = %lb to %ub step %step iter_args(%k = %init) -> (i32) {
    %k2 = arith.addi %k, %one : i32
    scf.yield %k2 : i32
  }
  return %r#0 : i32
}

// CHECK-LABEL: func.func @loops(%arg0: index, %arg1: index, %arg2: index, %arg3: i32) -> i32 {
// CHECK-NEXT:   %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:   %0 = ub.poison : i32
// CHECK-NEXT:   %1 = scf.for %arg4 = %arg0 to %arg1 step %arg2 iter_args(%arg5 = %arg3) -> (i32) {
// CHECK-NEXT:     %2 = arith.addi %arg5, %c1_i32 : i32
// CHECK-NEXT:     %3 = ub.poison : i32
// CHECK-NEXT:     scf.yield %2 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   return %1 : i32
// CHECK-NEXT: }

// -----

// Block arguments fed only dead values are removed with what feeds them.
func.func @branches(%c: i1, %x: i32) -> i32 {
  %dead = arith.constant 7 : i32
  cf.cond_br %c, ^bb1(%dead : i32), ^bb2(%dead, %x : i32, i32)
^bb1(%d1: i32):
  cf.br ^bb3(%x : i32)
^bb2(%d2: i32, %v: i32):
  cf.br ^bb3(%v : i32)
^bb3(%out: i32):
  return %out : i32
}

// CHECK-LABEL: func.func @branches(%arg0: i1, %arg1: i32) -> i32 {
// CHECK-NEXT:   cf.cond_br %arg0, ^bb1, ^bb2(%arg1 : i32)
// CHECK-NEXT: ^bb1:  // pred: ^bb0
// CHECK-NEXT:   cf.br ^bb3(%arg1 : i32)
// CHECK-NEXT: ^bb2(%0: i32):  // pred: ^bb0
// CHECK-NEXT:   cf.br ^bb3(%0 : i32)
// CHECK-NEXT: ^bb3(%1: i32):  // 2 preds: ^bb1, ^bb2
// CHECK-NEXT:   return %1 : i32
// CHECK-NEXT: }

// -----

// Without the canonicalization, the dead values forwarded through a region
// become poison and the loop keeps its shape.
// RUN: strata-opt %s --split-input-file --remove-dead-values=canonicalize=false | FileCheck %s --check-prefix=RAW
func.func @while_raw(%c: i1, %a: i32, %b: i32) -> i32 {
  %r:2 = scf.while (%x = %a, %y = %b) : (i32, i32) -> (i32, i32) {
    %x2 = arith.addi %x, %x : i32
    scf.condition(%c) %x2, %y : i32, i32
  } do {
  ^bb0(%p: i32, %q: i32):
    scf.yield %p, %q : i32, i32
  }
  return %r#0 : i32
}

// CHECK-LABEL: func.func @while_raw(%arg0: i1, %arg1: i32, %arg2: i32) -> i32 {
// CHECK-NEXT:   %0 = ub.poison : i32
// CHECK-NEXT:   %1 = scf.while (%arg3 = %arg1) : (i32) -> i32 {
// CHECK-NEXT:     %2 = arith.addi %arg3, %arg3 : i32
// CHECK-NEXT:     %3 = ub.poison : i32
// CHECK-NEXT:     scf.condition(%arg0) %2 : i32
// CHECK-NEXT:   } do {
// CHECK-NEXT:   ^bb0(%arg3: i32):
// CHECK-NEXT:     %2 = ub.poison : i32
// CHECK-NEXT:     scf.yield %arg3 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   return %1 : i32
// CHECK-NEXT: }
// RAW-LABEL: func.func @while_raw(%arg0: i1, %arg1: i32, %arg2: i32) -> i32 {
// RAW-NEXT:   %0 = ub.poison : i32
// RAW-NEXT:   %1:2 = scf.while (%arg3 = %arg1, %arg4 = %0) : (i32, i32) -> (i32, i32) {
// RAW-NEXT:     %2 = arith.addi %arg3, %arg3 : i32
// RAW-NEXT:     %3 = ub.poison : i32
// RAW-NEXT:     scf.condition(%arg0) %2, %3 : i32, i32
// RAW-NEXT:   } do {
// RAW-NEXT:   ^bb0(%arg3: i32, %arg4: i32):
// RAW-NEXT:     %2 = ub.poison : i32
// RAW-NEXT:     scf.yield %arg3, %2 : i32, i32
// RAW-NEXT:   }
// RAW-NEXT:   return %1#0 : i32
// RAW-NEXT: }
// RAW-NEXT: }
