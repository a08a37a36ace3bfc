// RUN: strata-opt --allow-unregistered-dialect --split-input-file --verify-diagnostics --reconcile-unrealized-casts %s | FileCheck %s

// The cases of MLIR's own test of the pass
// (mlir/test/Conversion/ReconcileUnrealizedCasts/), with unregistered ops
// in place of func and arith, plus live casts, casts of several values,
// casts across blocks and regions, and casts without inputs. mlir-opt 22
// prints exactly the same output for this file (`mlir-opt
// --allow-unregistered-dialect --split-input-file --reconcile-unrealized-casts`).
// Like MLIR 22's pass, this one never fails: live casts that do not fold
// stay.

// A cast without uses is erased.
// CHECK-LABEL: module {
// CHECK-NEXT:    "foo.func"() ({
// CHECK-NEXT:    ^bb0(%[[ARG0:.*]]: i64):
// CHECK-NEXT:      "foo.return"(%[[ARG0]]) : (i64) -> ()
// CHECK-NEXT:    }) {sym_name = "unusedCast"}
"foo.func"() ({
^bb0(%arg0: i64):
  %0 = builtin.unrealized_conversion_cast %arg0 : i64 to i32
  "foo.return"(%arg0) : (i64) -> ()
}) {sym_name = "unusedCast"} : () -> ()

// -----

// A cast to its own input type is its input.
// CHECK-LABEL: module {
// CHECK-NEXT:    "foo.func"() ({
// CHECK-NEXT:    ^bb0(%[[ARG0:.*]]: i64):
// CHECK-NEXT:      "foo.return"(%[[ARG0]]) : (i64) -> ()
// CHECK-NEXT:    }) {sym_name = "sameTypes"}
"foo.func"() ({
^bb0(%arg0: i64):
  %0 = builtin.unrealized_conversion_cast %arg0 : i64 to i64
  "foo.return"(%0) : (i64) -> ()
}) {sym_name = "sameTypes"} : () -> ()

// -----

// CHECK-LABEL: module {
// CHECK-NEXT:    "foo.func"() ({
// CHECK-NEXT:    ^bb0(%[[ARG0:.*]]: i64):
// CHECK-NEXT:      "foo.return"(%[[ARG0]]) : (i64) -> ()
// CHECK-NEXT:    }) {sym_name = "pair"}
"foo.func"() ({
^bb0(%arg0: i64):
  %0 = builtin.unrealized_conversion_cast %arg0 : i64 to i32
  %1 = builtin.unrealized_conversion_cast %0 : i32 to i64
  "foo.return"(%1) : (i64) -> ()
}) {sym_name = "pair"} : () -> ()

// -----

// CHECK-LABEL: module {
// CHECK-NEXT:    "foo.func"() ({
// CHECK-NEXT:    ^bb0(%[[ARG0:.*]]: i64):
// CHECK-NEXT:      "foo.return"(%[[ARG0]]) : (i64) -> ()
// CHECK-NEXT:    }) {sym_name = "symmetricChain"}
"foo.func"() ({
^bb0(%arg0: i64):
  %0 = builtin.unrealized_conversion_cast %arg0 : i64 to i32
  %1 = builtin.unrealized_conversion_cast %0 : i32 to i1
  %2 = builtin.unrealized_conversion_cast %1 : i1 to i32
  %3 = builtin.unrealized_conversion_cast %2 : i32 to i64
  "foo.return"(%3) : (i64) -> ()
}) {sym_name = "symmetricChain"} : () -> ()

// -----

// CHECK-LABEL: module {
// CHECK-NEXT:    "foo.func"() ({
// CHECK-NEXT:    ^bb0(%[[ARG0:.*]]: i64):
// CHECK-NEXT:      "foo.return"(%[[ARG0]]) : (i64) -> ()
// CHECK-NEXT:    }) {sym_name = "asymmetricChain"}
"foo.func"() ({
^bb0(%arg0: i64):
  %0 = builtin.unrealized_conversion_cast %arg0 : i64 to i32
  %1 = builtin.unrealized_conversion_cast %0 : i32 to i1
  %2 = builtin.unrealized_conversion_cast %1 : i1 to i64
  "foo.return"(%2) : (i64) -> ()
}) {sym_name = "asymmetricChain"} : () -> ()

// -----

// Erasing a dead cast makes the cast feeding it dead too.
// CHECK-LABEL: module {
// CHECK-NEXT:    "foo.func"() ({
// CHECK-NEXT:    ^bb0(%[[ARG0:.*]]: i64):
// CHECK-NEXT:      "foo.return"(%[[ARG0]]) : (i64) -> ()
// CHECK-NEXT:    }) {sym_name = "unusedChain"}
"foo.func"() ({
^bb0(%arg0: i64):
  %0 = builtin.unrealized_conversion_cast %arg0 : i64 to i32
  %1 = builtin.unrealized_conversion_cast %0 : i32 to i1
  "foo.return"(%arg0) : (i64) -> ()
}) {sym_name = "unusedChain"} : () -> ()

// -----

// CHECK-LABEL: module {
// CHECK-NEXT:    "foo.func"() ({
// CHECK-NEXT:    ^bb0(%[[ARG0:.*]]: i64):
// CHECK-NEXT:      %[[SUM:.*]] = "foo.addi"(%[[ARG0]], %[[ARG0]]) : (i64, i64) -> i64
// CHECK-NEXT:      "foo.return"(%[[SUM]]) : (i64) -> ()
// CHECK-NEXT:    }) {sym_name = "bifurcation"}
"foo.func"() ({
^bb0(%arg0: i64):
  %0 = builtin.unrealized_conversion_cast %arg0 : i64 to i32
  %1 = builtin.unrealized_conversion_cast %0 : i32 to i1
  %2 = builtin.unrealized_conversion_cast %1 : i1 to i64
  %3 = builtin.unrealized_conversion_cast %1 : i1 to i32
  %4 = builtin.unrealized_conversion_cast %3 : i32 to i64
  %5 = "foo.addi"(%2, %4) : (i64, i64) -> i64
  "foo.return"(%5) : (i64) -> ()
}) {sym_name = "bifurcation"} : () -> ()

// -----

// CHECK-LABEL: module {
// CHECK-NEXT:    "foo.func"() ({
// CHECK-NEXT:    ^bb0(%[[ARG0:.*]]: i64):
// CHECK-NEXT:      %[[SUM:.*]] = "foo.addi"(%[[ARG0]], %[[ARG0]]) : (i64, i64) -> i64
// CHECK-NEXT:      "foo.return"(%[[SUM]]) : (i64) -> ()
// CHECK-NEXT:    }) {sym_name = "unusedBifurcation"}
"foo.func"() ({
^bb0(%arg0: i64):
  %0 = builtin.unrealized_conversion_cast %arg0 : i64 to i32
  %1 = builtin.unrealized_conversion_cast %0 : i32 to i1
  %2 = builtin.unrealized_conversion_cast %1 : i1 to i64
  %3 = builtin.unrealized_conversion_cast %0 : i32 to i64
  %4 = "foo.addi"(%arg0, %3) : (i64, i64) -> i64
  "foo.return"(%4) : (i64) -> ()
}) {sym_name = "unusedBifurcation"} : () -> ()

// -----

// Live casts that do not come back to their input types stay.
// CHECK-LABEL: module {
// CHECK-NEXT:    "foo.func"() ({
// CHECK-NEXT:    ^bb0(%[[ARG0:.*]]: i64):
// CHECK-NEXT:      %[[CAST:.*]] = builtin.unrealized_conversion_cast %[[ARG0]] : i64 to i32
// CHECK-NEXT:      "foo.return"(%[[CAST]]) : (i32) -> ()
// CHECK-NEXT:    }) {sym_name = "liveSingleCast"}
"foo.func"() ({
^bb0(%arg0: i64):
  %0 = builtin.unrealized_conversion_cast %arg0 : i64 to i32
  "foo.return"(%0) : (i32) -> ()
}) {sym_name = "liveSingleCast"} : () -> ()

// -----

// CHECK-LABEL: module {
// CHECK-NEXT:    "foo.func"() ({
// CHECK-NEXT:    ^bb0(%[[ARG0:.*]]: i64):
// CHECK-NEXT:      %[[CAST0:.*]] = builtin.unrealized_conversion_cast %[[ARG0]] : i64 to i1
// CHECK-NEXT:      %[[CAST1:.*]] = builtin.unrealized_conversion_cast %[[CAST0]] : i1 to i32
// CHECK-NEXT:      "foo.return"(%[[CAST1]]) : (i32) -> ()
// CHECK-NEXT:    }) {sym_name = "liveChain"}
"foo.func"() ({
^bb0(%arg0: i64):
  %0 = builtin.unrealized_conversion_cast %arg0 : i64 to i1
  %1 = builtin.unrealized_conversion_cast %0 : i1 to i32
  "foo.return"(%1) : (i32) -> ()
}) {sym_name = "liveChain"} : () -> ()

// -----

// The branch that comes back to i64 folds; the live i1 branch stays.
// CHECK-LABEL: module {
// CHECK-NEXT:    "foo.func"() ({
// CHECK-NEXT:    ^bb0(%[[ARG0:.*]]: i64):
// CHECK-NEXT:      %[[CAST0:.*]] = builtin.unrealized_conversion_cast %[[ARG0]] : i64 to i32
// CHECK-NEXT:      %[[CAST1:.*]] = builtin.unrealized_conversion_cast %[[CAST0]] : i32 to i1
// CHECK-NEXT:      %[[EXT:.*]] = "foo.extsi"(%[[CAST1]]) : (i1) -> i64
// CHECK-NEXT:      %[[SUM:.*]] = "foo.addi"(%[[ARG0]], %[[EXT]]) : (i64, i64) -> i64
// CHECK-NEXT:      "foo.return"(%[[SUM]]) : (i64) -> ()
// CHECK-NEXT:    }) {sym_name = "liveBifurcation"}
"foo.func"() ({
^bb0(%arg0: i64):
  %0 = builtin.unrealized_conversion_cast %arg0 : i64 to i32
  %1 = builtin.unrealized_conversion_cast %0 : i32 to i64
  %2 = builtin.unrealized_conversion_cast %0 : i32 to i1
  %3 = "foo.extsi"(%2) : (i1) -> i64
  %4 = "foo.addi"(%1, %3) : (i64, i64) -> i64
  "foo.return"(%4) : (i64) -> ()
}) {sym_name = "liveBifurcation"} : () -> ()

// -----

// Casts of several values fold when all types come back.
// CHECK-LABEL: module {
// CHECK-NEXT:    "foo.func"() ({
// CHECK-NEXT:    ^bb0(%[[ARG0:.*]]: i64, %[[ARG1:.*]]: i32):
// CHECK-NEXT:      "foo.return"(%[[ARG0]], %[[ARG1]]) : (i64, i32) -> ()
// CHECK-NEXT:    }) {sym_name = "multiValuePair"}
"foo.func"() ({
^bb0(%arg0: i64, %arg1: i32):
  %0:2 = builtin.unrealized_conversion_cast %arg0, %arg1 : i64, i32 to i1, i2
  %1:2 = builtin.unrealized_conversion_cast %0#0, %0#1 : i1, i2 to i64, i32
  "foo.return"(%1#0, %1#1) : (i64, i32) -> ()
}) {sym_name = "multiValuePair"} : () -> ()

// -----

// A cast of only some of another cast's results is not part of its chain.
// CHECK-LABEL: module {
// CHECK-NEXT:    "foo.func"() ({
// CHECK-NEXT:    ^bb0(%[[ARG0:.*]]: i64, %[[ARG1:.*]]: i32):
// CHECK-NEXT:      %[[CAST0:.*]]:2 = builtin.unrealized_conversion_cast %[[ARG0]], %[[ARG1]] : i64, i32 to i1, i2
// CHECK-NEXT:      %[[CAST1:.*]] = builtin.unrealized_conversion_cast %[[CAST0]]#0 : i1 to i64
// CHECK-NEXT:      "foo.return"(%[[CAST1]], %[[CAST0]]#1) : (i64, i2) -> ()
// CHECK-NEXT:    }) {sym_name = "partialMultiValue"}
"foo.func"() ({
^bb0(%arg0: i64, %arg1: i32):
  %0:2 = builtin.unrealized_conversion_cast %arg0, %arg1 : i64, i32 to i1, i2
  %1 = builtin.unrealized_conversion_cast %0#0 : i1 to i64
  "foo.return"(%1, %0#1) : (i64, i2) -> ()
}) {sym_name = "partialMultiValue"} : () -> ()

// -----

// Chains are followed through operands only, not through block arguments.
// CHECK-LABEL: module {
// CHECK-NEXT:    "foo.func"() ({
// CHECK-NEXT:    ^bb0(%[[ARG0:.*]]: i64):
// CHECK-NEXT:      %[[CAST0:.*]] = builtin.unrealized_conversion_cast %[[ARG0]] : i64 to i16
// CHECK-NEXT:      "foo.br"(%[[CAST0]])[^bb1] : (i16) -> ()
// CHECK-NEXT:    ^bb1(%[[ARG1:.*]]: i16):  // pred: ^bb0
// CHECK-NEXT:      %[[CAST1:.*]] = builtin.unrealized_conversion_cast %[[ARG1]] : i16 to i64
// CHECK-NEXT:      %[[SUM:.*]] = "foo.addi"(%[[ARG0]], %[[CAST1]]) : (i64, i64) -> i64
// CHECK-NEXT:      "foo.return"(%[[SUM]]) : (i64) -> ()
// CHECK-NEXT:    }) {sym_name = "acrossBlocks"}
"foo.func"() ({
^bb0(%arg0: i64):
  %0 = builtin.unrealized_conversion_cast %arg0 : i64 to i16
  %1 = builtin.unrealized_conversion_cast %0 : i16 to i1
  %2 = builtin.unrealized_conversion_cast %1 : i1 to i64
  %3 = builtin.unrealized_conversion_cast %1 : i1 to i16
  "foo.br"(%3)[^bb1] : (i16) -> ()
^bb1(%4: i16):
  %5 = builtin.unrealized_conversion_cast %4 : i16 to i64
  %6 = "foo.addi"(%2, %5) : (i64, i64) -> i64
  "foo.return"(%6) : (i64) -> ()
}) {sym_name = "acrossBlocks"} : () -> ()

// -----

// Casts in nested regions are reconciled too.
// CHECK-LABEL: module {
// CHECK-NEXT:    "foo.func"() ({
// CHECK-NEXT:    ^bb0(%[[ARG0:.*]]: i64):
// CHECK-NEXT:      "foo.region"() ({
// CHECK-NEXT:        "foo.use"(%[[ARG0]]) : (i64) -> ()
// CHECK-NEXT:      }) : () -> ()
// CHECK-NEXT:      "foo.return"() : () -> ()
// CHECK-NEXT:    }) {sym_name = "nestedRegion"}
"foo.func"() ({
^bb0(%arg0: i64):
  %0 = builtin.unrealized_conversion_cast %arg0 : i64 to i32
  "foo.region"() ({
    %1 = builtin.unrealized_conversion_cast %0 : i32 to i64
    "foo.use"(%1) : (i64) -> ()
  }) : () -> ()
  "foo.return"() : () -> ()
}) {sym_name = "nestedRegion"} : () -> ()

// -----

// Casts without inputs: the dead one goes, the live one stays.
// CHECK-LABEL: module {
// CHECK-NEXT:    "foo.func"() ({
// CHECK-NEXT:      %[[CAST:.*]] = builtin.unrealized_conversion_cast to i64
// CHECK-NEXT:      "foo.return"(%[[CAST]]) : (i64) -> ()
// CHECK-NEXT:    }) {sym_name = "noInputs"}
"foo.func"() ({
  %0 = builtin.unrealized_conversion_cast to i32
  %1 = builtin.unrealized_conversion_cast to i64
  "foo.return"(%1) : (i64) -> ()
}) {sym_name = "noInputs"} : () -> ()

// -----

// Casts directly in the module, one with an attribute.
// CHECK-LABEL: module {
// CHECK-NEXT:    %[[P:.*]] = "foo.producer"() : () -> i32
// CHECK-NEXT:    "foo.consumer"(%[[P]]) : (i32) -> ()
// CHECK-NEXT:  }
%0 = "foo.producer"() : () -> i32
%1 = builtin.unrealized_conversion_cast %0 : i32 to i64 {foo.attr}
%2 = builtin.unrealized_conversion_cast %1 : i64 to i32
"foo.consumer"(%2) : (i32) -> ()
