// The reference interpreter on func/arith/math/scf: scalars are 0-D
// tensors, index is i64, loops and conditionals run their regions.
// RUN: strata run %s --function loop --print | FileCheck %s --check-prefix=LOOP
// RUN: strata run %s --function branch --print | FileCheck %s --check-prefix=BRANCH
// RUN: strata run %s --function while --print | FileCheck %s --check-prefix=WHILE
// RUN: strata run %s --function call --print | FileCheck %s --check-prefix=CALL
// RUN: strata run %s --function math --print | FileCheck %s --check-prefix=MATH
// RUN: strata run %s --function casts --print | FileCheck %s --check-prefix=CASTS
// RUN: strata run %s --function predicates --print | FileCheck %s --check-prefix=PRED
// RUN: strata run %s --function integers --print | FileCheck %s --check-prefix=INT

// Sum of 0..9 with scf.for and iter_args.
// LOOP: output_0: i32 []
// LOOP-NEXT: {{^}}45{{$}}
func.func @loop() -> i32 {
  %c0 = arith.constant 0 : index
  %c10 = arith.constant 10 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %r = scf.for %i = %c0 to %c10 step %c1 iter_args(%acc = %zero) -> (i32) {
    %v = arith.index_cast %i : index to i32
    %s = arith.addi %acc, %v : i32
    scf.yield %s : i32
  }
  return %r : i32
}

// BRANCH: output_0: f32 []
// BRANCH-NEXT: {{^}}2.5{{$}}
// BRANCH-NEXT: output_1: i1 []
// BRANCH-NEXT: false
func.func @branch() -> (f32, i1) {
  %a = arith.constant 1.5 : f32
  %b = arith.constant 2.5 : f32
  %c = arith.cmpf olt, %a, %b : f32
  %r = scf.if %c -> (f32) {
    scf.yield %b : f32
  } else {
    scf.yield %a : f32
  }
  %n = arith.cmpi sgt, %c, %c : i1
  return %r, %n : f32, i1
}

// Doubling until past 100: 1, 2, 4, ..., 128.
// WHILE: output_0: i64 []
// WHILE-NEXT: {{^}}128{{$}}
func.func @while() -> i64 {
  %one = arith.constant 1 : i64
  %limit = arith.constant 100 : i64
  %r = scf.while (%x = %one) : (i64) -> i64 {
    %go = arith.cmpi sle, %x, %limit : i64
    scf.condition(%go) %x : i64
  } do {
  ^bb0(%y: i64):
    %d = arith.addi %y, %y : i64
    scf.yield %d : i64
  }
  return %r : i64
}

// CALL: output_0: f64 []
// CALL-NEXT: {{^}}12.0{{$}}
func.func private @mul3(%x: f64) -> f64 {
  %three = arith.constant 3.0 : f64
  %r = arith.mulf %x, %three : f64
  return %r : f64
}
func.func @call() -> f64 {
  %four = arith.constant 4.0 : f64
  %r = func.call @mul3(%four) : (f64) -> f64
  return %r : f64
}

// MATH: output_0: f64 []
// MATH-NEXT: {{^}}1.0{{$}}
// MATH-NEXT: output_1: f64 []
// MATH-NEXT: {{^}}8.0{{$}}
// MATH-NEXT: output_2: f64 []
// MATH-NEXT: {{^}}0.8427007929497149{{$}}
func.func @math() -> (f64, f64, f64) {
  %x = arith.constant 0.0 : f64
  %two = arith.constant 2.0 : f64
  %three = arith.constant 3.0 : f64
  %one = arith.constant 1.0 : f64
  %c = math.cos %x : f64
  %p = math.powf %two, %three : f64
  %e = math.erf %one : f64
  return %c, %p, %e : f64, f64, f64
}

// CASTS: output_0: i32 []
// CASTS-NEXT: {{^}}-2{{$}}
// CASTS-NEXT: output_1: f16 []
// CASTS-NEXT: {{^}}0.333251953125{{$}}
// CASTS-NEXT: output_2: f32 [2]
// CASTS-NEXT: [3.0, 5.0]
func.func @casts() -> (i32, f16, tensor<2xf32>) {
  %x = arith.constant -2.75 : f32
  %i = arith.fptosi %x : f32 to i32
  %third = arith.constant 0.333333333 : f32
  %h = arith.truncf %third : f32 to f16
  %v = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %w = arith.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %s = arith.addf %v, %w : tensor<2xf32>
  return %i, %h, %s : i32, f16, tensor<2xf32>
}

// MLIR's predicate numbering; ordered predicates are false on NaN,
// unordered ones true; maxnumf returns the operand that is not NaN;
// unsigned integer comparison reads -1 as 2^32 - 1.
// PRED: output_0: i1 []
// PRED-NEXT: true
// PRED-NEXT: output_1: i1 []
// PRED-NEXT: true
// PRED-NEXT: output_2: i1 []
// PRED-NEXT: false
// PRED-NEXT: output_3: i1 []
// PRED-NEXT: true
// PRED-NEXT: output_4: f32 []
// PRED-NEXT: {{^}}2.0{{$}}
// PRED-NEXT: output_5: i1 []
// PRED-NEXT: true
func.func @predicates() -> (i1, i1, i1, i1, f32, i1) {
  %a = arith.constant 1.0 : f32
  %b = arith.constant 2.0 : f32
  %n = arith.constant 0x7FC00000 : f32
  %0 = arith.cmpf ult, %a, %b : f32
  %1 = arith.cmpf ugt, %n, %b : f32
  %2 = arith.cmpf one, %n, %b : f32
  %3 = arith.cmpf ueq, %n, %b : f32
  %4 = arith.maxnumf %n, %b : f32
  %m = arith.constant -1 : i32
  %o = arith.constant 1 : i32
  %5 = arith.cmpi ugt, %m, %o : i32
  return %0, %1, %2, %3, %4, %5 : i1, i1, i1, i1, f32, i1
}

// Integer arith on the operands' width: unsigned ops read the bits as
// unsigned, i1 true is -1 when signed, and results wrap.
// INT: output_0: i32 []
// INT-NEXT: {{^}}2147483644{{$}}
// INT-NEXT: output_1: i32 []
// INT-NEXT: {{^}}-1{{$}}
// INT-NEXT: output_2: i32 []
// INT-NEXT: {{^}}-3{{$}}
// INT-NEXT: output_3: i32 []
// INT-NEXT: {{^}}-4{{$}}
// INT-NEXT: output_4: i32 []
// INT-NEXT: {{^}}1073741822{{$}}
// INT-NEXT: output_5: i64 []
// INT-NEXT: {{^}}4294967289{{$}}
// INT-NEXT: output_6: f32 []
// INT-NEXT: {{^}}2.0{{$}}
// INT-NEXT: output_7: i32 []
// INT-NEXT: {{^}}-1{{$}}
// INT-NEXT: output_8: i1 []
// INT-NEXT: false
// INT-NEXT: output_9: i8 []
// INT-NEXT: {{^}}44{{$}}
// INT-NEXT: output_10: i32 []
// INT-NEXT: {{^}}1065353216{{$}}
// INT-NEXT: output_11: i32 []
// INT-NEXT: {{^}}-7{{$}}
func.func @integers() -> (i32, i32, i32, i32, i32, i64, f32, i32, i1, i8, i32, i32) {
  %a = arith.constant -7 : i32
  %b = arith.constant 2 : i32
  %0 = arith.divui %a, %b : i32
  %1 = arith.remsi %a, %b : i32
  %2 = arith.ceildivsi %a, %b : i32
  %3 = arith.floordivsi %a, %b : i32
  %4 = arith.shrui %a, %b : i32
  %5 = arith.extui %a : i32 to i64
  %6 = arith.uitofp %b : i32 to f32
  %t = arith.constant true
  %7 = arith.extsi %t : i1 to i32
  %8 = arith.addi %t, %t : i1
  %c = arith.constant 300 : i32
  %9 = arith.trunci %c : i32 to i8
  %f = arith.constant 1.0 : f32
  %10 = arith.bitcast %f : f32 to i32
  %11 = arith.maxui %a, %b : i32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : i32, i32, i32, i32, i32, i64, f32, i32, i1, i8, i32, i32
}
