// REQUIRES: strata-opt
// RUN: strata-opt --allow-unregistered-dialect --mlir-print-op-generic %s | FileCheck %s
// RUN: strata-opt --allow-unregistered-dialect --mlir-print-op-generic %s | strata-opt --allow-unregistered-dialect --mlir-print-op-generic | FileCheck %s

// Dialect attributes and types of unknown dialects keep their text. The
// pretty form `#d.data` is used when the data is simple enough, as in MLIR.
// CHECK: a = #foo.bar<1, "x">
// CHECK-SAME: b = #foo<"verbose">
// CHECK-SAME: c = #foo.dotted.name
// Deliberate difference from mlir-opt 22: it prints `#foo<layou->`, which
// it cannot read back (`->` is an arrow); strata keeps the pretty form.
// CHECK-SAME: d = #foo.layou-
// CHECK-SAME: t = !foo.ty<[1, 2]>
"foo.op"() {a = #foo.bar<1, "x">, b = #foo<"verbose">, c = #foo<dotted.name>, d = #foo.layou-, t = !foo.ty<[1, 2]>} : () -> ()

// CHECK: "foo.op2"() {a = #foo.-, b = !foo.x-y-}
"foo.op2"() {a = #foo.-, b = !foo.x-y-} : () -> ()

// Deliberate difference from mlir-opt 22, which prints this `#foo.a<1>, b<2>`
// (it only checks the first and last characters) and cannot read it back.
// CHECK: "foo.op3"() {h = #foo<a<1>, b<2>>}
"foo.op3"() {h = #foo<a<1>, b<2>>} : () -> ()
