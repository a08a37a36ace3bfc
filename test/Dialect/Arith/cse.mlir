// Common subexpression elimination on arith, math, func and scf ops; the
// CHECK lines are exactly what mlir-opt --cse prints for each function.
// RUN: strata-opt %s --cse | FileCheck %s

// Identical pure ops are merged into the first one.
// CHECK-LABEL: func.func @simple(
// CHECK-SAME:  %arg0: i32, %arg1: i32) -> (i32, i32) {
// CHECK-NEXT:  %0 = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT:  return %0, %0 : i32, i32
// CHECK-NEXT:  }
func.func @simple(%x: i32, %y: i32) -> (i32, i32) {
  %0 = arith.addi %x, %y : i32
  %1 = arith.addi %x, %y : i32
  return %0, %1 : i32, i32
}

// Duplicate constants are merged; CSE also erases unused pure ops.
// CHECK-LABEL: func.func @constants(
// CHECK-SAME:  %arg0: i32) -> (i32, i32) {
// CHECK-NEXT:  %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:  %0 = arith.addi %arg0, %c1_i32 : i32
// CHECK-NEXT:  return %0, %0 : i32, i32
// CHECK-NEXT:  }
func.func @constants(%x: i32) -> (i32, i32) {
  %c1 = arith.constant 1 : i32
  %c1_0 = arith.constant 1 : i32
  %unused = arith.muli %x, %x : i32
  %0 = arith.addi %x, %c1 : i32
  %1 = arith.addi %x, %c1_0 : i32
  return %0, %1 : i32, i32
}

// Chains merge transitively.
// CHECK-LABEL: func.func @chain(
// CHECK-SAME:  %arg0: f32) -> (f32, f32) {
// CHECK-NEXT:  %0 = arith.mulf %arg0, %arg0 : f32
// CHECK-NEXT:  %1 = arith.addf %0, %arg0 : f32
// CHECK-NEXT:  return %1, %1 : f32, f32
// CHECK-NEXT:  }
func.func @chain(%x: f32) -> (f32, f32) {
  %0 = arith.mulf %x, %x : f32
  %1 = arith.addf %0, %x : f32
  %2 = arith.mulf %x, %x : f32
  %3 = arith.addf %2, %x : f32
  return %1, %3 : f32, f32
}

// Different flags, predicates or types are different expressions.
// CHECK-LABEL: func.func @different_attrs(
// CHECK-SAME:  %arg0: i32, %arg1: i32, %arg2: f32) -> (i32, i32, i1, i1, f32, f32) {
// CHECK-NEXT:  %0 = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT:  %1 = arith.addi %arg0, %arg1 overflow<nsw> : i32
// CHECK-NEXT:  %2 = arith.cmpi slt, %arg0, %arg1 : i32
// CHECK-NEXT:  %3 = arith.cmpi sgt, %arg0, %arg1 : i32
// CHECK-NEXT:  %4 = arith.addf %arg2, %arg2 : f32
// CHECK-NEXT:  %5 = arith.addf %arg2, %arg2 fastmath<fast> : f32
// CHECK-NEXT:  return %0, %1, %2, %3, %4, %5 : i32, i32, i1, i1, f32, f32
// CHECK-NEXT:  }
func.func @different_attrs(%x: i32, %y: i32, %f: f32) -> (i32, i32, i1, i1, f32, f32) {
  %0 = arith.addi %x, %y : i32
  %1 = arith.addi %x, %y overflow<nsw> : i32
  %2 = arith.cmpi slt, %x, %y : i32
  %3 = arith.cmpi sgt, %x, %y : i32
  %4 = arith.addf %f, %f : f32
  %5 = arith.addf %f, %f fastmath<fast> : f32
  return %0, %1, %2, %3, %4, %5 : i32, i32, i1, i1, f32, f32
}

// Pure math ops merge too.
// CHECK-LABEL: func.func @math(
// CHECK-SAME:  %arg0: f32) -> (f32, f32) {
// CHECK-NEXT:  %0 = math.exp %arg0 : f32
// CHECK-NEXT:  %1 = arith.addf %0, %0 : f32
// CHECK-NEXT:  %2 = math.tanh %1 : f32
// CHECK-NEXT:  return %2, %2 : f32, f32
// CHECK-NEXT:  }
func.func @math(%x: f32) -> (f32, f32) {
  %0 = math.exp %x : f32
  %1 = math.exp %x : f32
  %2 = arith.addf %0, %1 : f32
  %3 = math.tanh %2 : f32
  %4 = math.tanh %2 : f32
  return %3, %4 : f32, f32
}

// Calls have unknown effects and are never merged.
// CHECK-LABEL: func.func private @ext(
// CHECK-SAME:  i32) -> i32
func.func private @ext(i32) -> i32

// CHECK-LABEL: func.func @calls(
// CHECK-SAME:  %arg0: i32) -> (i32, i32) {
// CHECK-NEXT:  %0 = call @ext(%arg0) : (i32) -> i32
// CHECK-NEXT:  %1 = call @ext(%arg0) : (i32) -> i32
// CHECK-NEXT:  return %0, %1 : i32, i32
// CHECK-NEXT:  }
func.func @calls(%x: i32) -> (i32, i32) {
  %0 = call @ext(%x) : (i32) -> i32
  %1 = call @ext(%x) : (i32) -> i32
  return %0, %1 : i32, i32
}

// Ops in nested regions reuse dominating values from the enclosing region.
// CHECK-LABEL: func.func @nested_region(
// CHECK-SAME:  %arg0: i1, %arg1: i32) -> i32 {
// CHECK-NEXT:  %0 = arith.muli %arg1, %arg1 : i32
// CHECK-NEXT:  %1 = scf.if %arg0 -> (i32) {
// CHECK-NEXT:  scf.yield %0 : i32
// CHECK-NEXT:  } else {
// CHECK-NEXT:  scf.yield %0 : i32
// CHECK-NEXT:  }
// CHECK-NEXT:  return %1 : i32
// CHECK-NEXT:  }
func.func @nested_region(%c: i1, %x: i32) -> i32 {
  %0 = arith.muli %x, %x : i32
  %1 = scf.if %c -> (i32) {
    %2 = arith.muli %x, %x : i32
    scf.yield %2 : i32
  } else {
    scf.yield %0 : i32
  }
  return %1 : i32
}

// Sibling regions do not share values, and an op in a nested region is not
// reused by a later op outside it. (The values in the regions are numbered
// after those of the enclosing block: %2, not %1.)
// CHECK-LABEL: func.func @sibling_regions(
// CHECK-SAME:  %arg0: i1, %arg1: i32) -> (i32, i32) {
// CHECK-NEXT:  %0 = scf.if %arg0 -> (i32) {
// CHECK-NEXT:  %2 = arith.addi %arg1, %arg1 : i32
// CHECK-NEXT:  scf.yield %2 : i32
// CHECK-NEXT:  } else {
// CHECK-NEXT:  %2 = arith.addi %arg1, %arg1 : i32
// CHECK-NEXT:  scf.yield %2 : i32
// CHECK-NEXT:  }
// CHECK-NEXT:  %1 = arith.addi %arg1, %arg1 : i32
// CHECK-NEXT:  return %0, %1 : i32, i32
// CHECK-NEXT:  }
func.func @sibling_regions(%c: i1, %x: i32) -> (i32, i32) {
  %0 = scf.if %c -> (i32) {
    %1 = arith.addi %x, %x : i32
    scf.yield %1 : i32
  } else {
    %1 = arith.addi %x, %x : i32
    scf.yield %1 : i32
  }
  %2 = arith.addi %x, %x : i32
  return %0, %2 : i32, i32
}

// Loop bodies: duplicates inside the body merge, and with the enclosing
// function's values; the loop itself has a region and is kept.
// CHECK-LABEL: func.func @loop(
// CHECK-SAME:  %arg0: index, %arg1: f32) -> f32 {
// CHECK-NEXT:  %c0 = arith.constant 0 : index
// CHECK-NEXT:  %c1 = arith.constant 1 : index
// CHECK-NEXT:  %0 = scf.for %arg2 = %c0 to %arg0 step %c1 iter_args(%arg3 = %arg1) -> (f32) {
// CHECK-NEXT:  %1 = arith.mulf %arg3, %arg3 : f32
// CHECK-NEXT:  %2 = arith.addf %1, %1 : f32
// CHECK-NEXT:  scf.yield %2 : f32
// CHECK-NEXT:  }
// CHECK-NEXT:  return %0 : f32
// CHECK-NEXT:  }
func.func @loop(%n: index, %x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (f32) {
    %c1_0 = arith.constant 1 : index
    %a = arith.mulf %acc, %acc : f32
    %b = arith.mulf %acc, %acc : f32
    %s = arith.addf %a, %b : f32
    scf.yield %s : f32
  }
  return %0 : f32
}

// Swapped operands of a commutative op are the same expression.
// CHECK-LABEL: func.func @commuted(
// CHECK-SAME:  %arg0: i32, %arg1: i32) -> (i32, i32) {
// CHECK-NEXT:  %0 = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT:  return %0, %0 : i32, i32
// CHECK-NEXT:  }
func.func @commuted(%x: i32, %y: i32) -> (i32, i32) {
  %0 = arith.addi %x, %y : i32
  %1 = arith.addi %y, %x : i32
  return %0, %1 : i32, i32
}

// Identical scf.if ops (pure, with identical regions) are merged.
// CHECK-LABEL: func.func @identical_ifs(
// CHECK-SAME:  %arg0: i1, %arg1: i32, %arg2: i32) -> (i32, i32) {
// CHECK-NEXT:  %0 = scf.if %arg0 -> (i32) {
// CHECK-NEXT:  scf.yield %arg1 : i32
// CHECK-NEXT:  } else {
// CHECK-NEXT:  scf.yield %arg2 : i32
// CHECK-NEXT:  }
// CHECK-NEXT:  return %0, %0 : i32, i32
// CHECK-NEXT:  }
func.func @identical_ifs(%c: i1, %x: i32, %y: i32) -> (i32, i32) {
  %0 = scf.if %c -> (i32) {
    scf.yield %x : i32
  } else {
    scf.yield %y : i32
  }
  %1 = scf.if %c -> (i32) {
    scf.yield %x : i32
  } else {
    scf.yield %y : i32
  }
  return %0, %1 : i32, i32
}
