// --duplicate-function-elimination: functions that are the same but for
// their names become the first of them, and every reference (calls,
// func.constant) is renamed. Operand order, attributes and bodies count;
// declarations are never merged. The CHECK lines are mlir-opt 22's output.
// RUN: strata-opt %s --duplicate-function-elimination | FileCheck %s --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func @square(%arg0: f32) -> f32 {
// CHECK-NEXT:     %0 = arith.mulf %arg0, %arg0 : f32
// CHECK-NEXT:     return %0 : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @times_self(%arg0: f32, %arg1: f32) -> f32 {
// CHECK-NEXT:     %0 = arith.mulf %arg0, %arg1 : f32
// CHECK-NEXT:     return %0 : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @times_self_swapped(%arg0: f32, %arg1: f32) -> f32 {
// CHECK-NEXT:     %0 = arith.mulf %arg1, %arg0 : f32
// CHECK-NEXT:     return %0 : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @pick(%arg0: i1, %arg1: i32, %arg2: i32) -> i32 {
// CHECK-NEXT:     cf.cond_br %arg0, ^bb1(%arg1 : i32), ^bb1(%arg2 : i32)
// CHECK-NEXT:   ^bb1(%0: i32):  // 2 preds: ^bb0, ^bb0
// CHECK-NEXT:     return %0 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func private @ext(f32) -> f32
// CHECK-NEXT:   func.func private @ext_too(f32) -> f32
// CHECK-NEXT:   func.func @tagged(%arg0: f32) -> f32 attributes {tag} {
// CHECK-NEXT:     %0 = arith.mulf %arg0, %arg0 : f32
// CHECK-NEXT:     return %0 : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @user(%arg0: f32, %arg1: i1, %arg2: i32) -> (f32, f32, f32, i32) {
// CHECK-NEXT:     %0 = call @square(%arg0) : (f32) -> f32
// CHECK-NEXT:     %1 = call @times_self_swapped(%0, %arg0) : (f32, f32) -> f32
// CHECK-NEXT:     %2 = call @ext_too(%1) : (f32) -> f32
// CHECK-NEXT:     %3 = call @pick(%arg1, %arg2, %arg2) : (i1, i32, i32) -> i32
// CHECK-NEXT:     %f = constant @square : (f32) -> f32
// CHECK-NEXT:     %4 = call_indirect %f(%2) : (f32) -> f32
// CHECK-NEXT:     %5 = call @tagged(%4) : (f32) -> f32
// CHECK-NEXT:     return %0, %1, %5, %3 : f32, f32, f32, i32
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:

func.func @square(%x: f32) -> f32 {
  %0 = arith.mulf %x, %x : f32
  return %0 : f32
}

func.func @square_again(%y: f32) -> f32 {
  %0 = arith.mulf %y, %y : f32
  return %0 : f32
}

// Same ops, operands swapped: not the same function.
func.func @times_self(%x: f32, %z: f32) -> f32 {
  %0 = arith.mulf %x, %z : f32
  return %0 : f32
}

func.func @times_self_swapped(%x: f32, %z: f32) -> f32 {
  %0 = arith.mulf %z, %x : f32
  return %0 : f32
}

// Branches compared through the blocks they reach.
func.func @pick(%c: i1, %a: i32, %b: i32) -> i32 {
  cf.cond_br %c, ^bb1(%a : i32), ^bb1(%b : i32)
^bb1(%v: i32):
  return %v : i32
}

func.func @pick_too(%c: i1, %a: i32, %b: i32) -> i32 {
  cf.cond_br %c, ^bb1(%a : i32), ^bb1(%b : i32)
^bb1(%v: i32):
  return %v : i32
}

// Declarations are never merged; different attributes are not the same.
func.func private @ext(f32) -> f32
func.func private @ext_too(f32) -> f32

func.func @tagged(%x: f32) -> f32 attributes {tag} {
  %0 = arith.mulf %x, %x : f32
  return %0 : f32
}

func.func @user(%x: f32, %c: i1, %a: i32) -> (f32, f32, f32, i32) {
  %0 = call @square_again(%x) : (f32) -> f32
  %1 = call @times_self_swapped(%0, %x) : (f32, f32) -> f32
  %2 = call @ext_too(%1) : (f32) -> f32
  %3 = call @pick_too(%c, %a, %a) : (i1, i32, i32) -> i32
  %f = func.constant @square_again : (f32) -> f32
  %4 = call_indirect %f(%2) : (f32) -> f32
  %5 = call @tagged(%4) : (f32) -> f32
  return %0, %1, %5, %3 : f32, f32, f32, i32
}
