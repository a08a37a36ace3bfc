// REQUIRES: strata-opt
// --pass-bisect-limit=N numbers every optional step (a pass run, a pattern
// application) on standard error, as LLVM's -opt-bisect-limit does, and
// skips the steps after the N-th; -1 skips none.
// RUN: strata-opt --canonicalize --pass-bisect-limit=-1 %s 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: strata-opt --canonicalize --pass-bisect-limit=0 %s 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: strata-opt --canonicalize --pass-bisect-limit=2 %s 2>&1 | FileCheck %s --check-prefix=ONE
// Nested pipelines number each run of a pass on an op.
// RUN: strata-opt --pass-pipeline='builtin.module(func.func(cse),canonicalize)' --pass-bisect-limit=2 %s 2>&1 | FileCheck %s --check-prefix=NESTED
// A required pass (a conversion of the descent, here shape inference) is
// neither numbered nor skipped.
// RUN: strata-opt --pass-pipeline='builtin.module(graph-infer-shapes,cse)' --pass-bisect-limit=0 %s 2>&1 | FileCheck %s --check-prefix=REQUIRED
// RUN: not strata-opt --canonicalize --pass-bisect-limit=many %s 2>&1 | FileCheck %s --check-prefix=BAD

// ALL:      BISECT: running pass (1) canonicalize on 'builtin.module'
// ALL-NEXT: BISECT: running pattern (2) AddIAddConstant on 'arith.addi' loc({{.*}}bisect-limit.mlir":[[@LINE+31]]:8) in canonicalize
// ALL-NEXT: BISECT: running pattern (3) AddISubConstantRHS on 'arith.addi' loc({{.*}}bisect-limit.mlir":[[@LINE+32]]:8) in canonicalize
// ALL:      arith.addi %arg0, %c3_i32
// ALL:      arith.addi %arg0, %c1_i32

// NONE:     BISECT: NOT running pass (1) canonicalize on 'builtin.module'
// NONE:     %[[A:.*]] = arith.addi %arg0, %c1_i32
// NONE:     arith.addi %[[A]], %c2_i32

// The limit of 2 lets the pass run and apply one pattern.
// ONE:      BISECT: running pass (1) canonicalize
// ONE-NEXT: BISECT: running pattern (2) AddIAddConstant
// ONE-NOT:  BISECT
// ONE:      arith.addi %arg0, %c3_i32
// ONE:      %[[S:.*]] = arith.subi %arg0, %c1_i32
// ONE:      arith.addi %[[S]], %c2_i32

// NESTED:      BISECT: running pass (1) cse on 'func.func'
// NESTED-NEXT: BISECT: running pass (2) canonicalize on 'builtin.module'
// NESTED-NOT:  BISECT: running pattern

// REQUIRED-NOT: graph-infer-shapes
// REQUIRED:     BISECT: NOT running pass (1) cse on 'builtin.module'
// REQUIRED-NOT: graph-infer-shapes

// BAD: for the --pass-bisect-limit option: 'many' value invalid for integer argument!

func.func @f(%x: i32) -> (i32, i32) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %a = arith.addi %x, %c1 : i32
  %b = arith.addi %a, %c2 : i32
  %s = arith.subi %x, %c1 : i32
  %t = arith.addi %s, %c2 : i32
  return %b, %t : i32, i32
}
