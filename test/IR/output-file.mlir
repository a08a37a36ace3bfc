// RUN: strata-opt --allow-unregistered-dialect %s -o %t
// RUN: FileCheck %s < %t
// The output file is kept only when everything succeeded, as with mlir-opt.
// RUN: rm -f %t.bad
// RUN: echo '"foo.bad"(%%x) : (i32) -> ()' | not strata-opt --allow-unregistered-dialect - -o %t.bad
// RUN: not ls %t.bad

// CHECK: module {
// CHECK-NEXT: "foo.ok"() : () -> ()
"foo.ok"() : () -> ()
