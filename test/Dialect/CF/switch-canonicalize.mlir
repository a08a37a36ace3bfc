// cf.switch canonicalization, MLIR 22's six patterns: a switch with only a
// default or on a constant becomes a branch; cases that go where the
// default goes are dropped; destinations that only branch on are
// collapsed; a switch reached through a case of a switch on the same flag
// takes that case's way, and one reached through the default drops the
// cases that cannot happen. The CHECK lines are mlir-opt 22's output.
// RUN: strata-opt %s --allow-unregistered-dialect --canonicalize | FileCheck %s --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func @only_default(%arg0: i32, %arg1: f32) -> f32 {
// CHECK-NEXT:     return %arg1 : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @cases_like_default(%arg0: i32, %arg1: f32, %arg2: f32) {
// CHECK-NEXT:     cf.switch %arg0 : i32, [
// CHECK-NEXT:       default: ^bb1(%arg1 : f32),
// CHECK-NEXT:       20: ^bb2(%arg2 : f32),
// CHECK-NEXT:       30: ^bb1(%arg2 : f32)
// CHECK-NEXT:     ]
// CHECK-NEXT:   ^bb1(%0: f32):  // 2 preds: ^bb0, ^bb0
// CHECK-NEXT:     "test.use"(%0) : (f32) -> ()
// CHECK-NEXT:     return
// CHECK-NEXT:   ^bb2(%1: f32):  // pred: ^bb0
// CHECK-NEXT:     "test.use"(%1) : (f32) -> ()
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @constant_flag(%arg0: f32, %arg1: f32) {
// CHECK-NEXT:     "test.other"(%arg1) : (f32) -> ()
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @nested_same_flag(%arg0: i8, %arg1: f32, %arg2: f32, %arg3: f32) {
// CHECK-NEXT:     cf.switch %arg0 : i8, [
// CHECK-NEXT:       default: ^bb1,
// CHECK-NEXT:       255: ^bb2(%arg3 : f32),
// CHECK-NEXT:       5: ^bb2(%arg2 : f32)
// CHECK-NEXT:     ]
// CHECK-NEXT:   ^bb1:  // pred: ^bb0
// CHECK-NEXT:     cf.switch %arg0 : i8, [
// CHECK-NEXT:       default: ^bb2(%arg1 : f32),
// CHECK-NEXT:       7: ^bb2(%arg3 : f32)
// CHECK-NEXT:     ]
// CHECK-NEXT:   ^bb2(%0: f32):  // 4 preds: ^bb0, ^bb0, ^bb1, ^bb1
// CHECK-NEXT:     "test.use"(%0) : (f32) -> ()
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:

func.func @only_default(%flag: i32, %a: f32) -> f32 {
  cf.switch %flag : i32, [
    default: ^bb1(%a : f32)
  ]
^bb1(%x: f32):
  return %x : f32
}

func.func @cases_like_default(%flag: i32, %a: f32, %b: f32) {
  cf.switch %flag : i32, [
    default: ^bb1(%a : f32),
    10: ^bb1(%a : f32),
    20: ^bb2(%b : f32),
    30: ^bb1(%b : f32)
  ]
^bb1(%x: f32):
  "test.use"(%x) : (f32) -> ()
  return
^bb2(%y: f32):
  "test.use"(%y) : (f32) -> ()
  return
}

func.func @constant_flag(%a: f32, %b: f32) {
  %c = arith.constant 20 : i32
  cf.switch %c : i32, [
    default: ^bb1(%a : f32),
    20: ^bb2(%b : f32)
  ]
^bb1(%x: f32):
  "test.use"(%x) : (f32) -> ()
  return
^bb2(%y: f32):
  "test.other"(%y) : (f32) -> ()
  return
}

func.func @nested_same_flag(%flag: i8, %a: f32, %b: f32, %c: f32) {
  cf.switch %flag : i8, [
    default: ^bb1,
    -1: ^bb2,
    5: ^bb3
  ]
^bb1:
  cf.switch %flag : i8, [
    default: ^bb4(%a : f32),
    -1: ^bb4(%b : f32),
    7: ^bb4(%c : f32)
  ]
^bb2:
  cf.switch %flag : i8, [
    default: ^bb4(%a : f32),
    -1: ^bb4(%c : f32)
  ]
^bb3:
  cf.switch %flag : i8, [
    default: ^bb4(%b : f32),
    -1: ^bb4(%c : f32)
  ]
^bb4(%x: f32):
  "test.use"(%x) : (f32) -> ()
  return
}
