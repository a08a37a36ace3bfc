// REQUIRES: strata-opt
// --upstream-pass-pipeline: upstream MLIR's own passes (through melior) on
// a module of the dialects strata shares with MLIR. The result, read back
// and printed by strata-opt, is byte for byte what mlir-opt prints after
// the same pipeline.
// RUN: strata-opt %s -split-input-file --upstream-pass-pipeline='builtin.module(canonicalize,cse)' > %t.ours
// RUN: mlir-opt %s -split-input-file --pass-pipeline='builtin.module(canonicalize,cse)' > %t.theirs
// RUN: diff %t.ours %t.theirs
// RUN: strata-opt %s -split-input-file --upstream-pass-pipeline='builtin.module(func.func(sccp),symbol-dce)' --mlir-print-debuginfo > %t.ours2
// RUN: mlir-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(sccp),symbol-dce)' --mlir-print-debuginfo > %t.theirs2
// RUN: diff %t.ours2 %t.theirs2
// RUN: FileCheck %s --input-file=%t.ours
// Strata's own ops are refused at the op; a pipeline upstream cannot parse
// is refused with upstream's message.
// RUN: strata-opt %S/Inputs/upstream-graph.mlir --upstream-pass-pipeline='builtin.module(canonicalize)' -verify-diagnostics
// RUN: not strata-opt %s -split-input-file --upstream-pass-pipeline='builtin.module(no-such-pass)' 2>&1 | FileCheck %s --check-prefix=PIPELINE

// CHECK-LABEL: func.func @fold
// CHECK: %[[C6:.*]] = arith.constant 6 : i32
// CHECK: %[[S:.*]] = arith.addi %arg0, %[[C6]]
// CHECK: arith.muli %[[S]], %[[S]]
func.func @fold(%x: i32) -> i32 {
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %0 = arith.muli %c2, %c3 : i32
  %1 = arith.addi %x, %0 : i32
  %2 = arith.addi %x, %0 : i32
  %3 = arith.muli %1, %2 : i32
  return %3 : i32
}

// -----

func.func @loop(%n: index, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (f32) {
    %e = math.exp %acc : f32
    %s = arith.addf %e, %one : f32
    scf.yield %s : f32
  }
  return %r : f32
}

// -----

func.func @select(%c: i1, %a: i32, %b: i32) -> i32 {
  %t = arith.constant true
  %cond = arith.andi %c, %t : i1
  %r = scf.if %cond -> (i32) {
    %z = arith.constant 0 : i32
    %v = arith.addi %a, %z : i32
    scf.yield %v : i32
  } else {
    scf.yield %b : i32
  }
  return %r : i32
}

func.func private @unused()

// PIPELINE: error: {{.*}}no-such-pass
