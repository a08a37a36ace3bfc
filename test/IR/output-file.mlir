// RUN: strata-opt --allow-unregistered-dialect %s -o %t
// RUN: FileCheck %s < %t
// The output file is kept only when everything succeeded, as with mlir-opt.
// RUN: rm -f %t.bad
// RUN: echo '"foo.bad"(%%x) : (i32) -> ()' | not strata-opt --allow-unregistered-dialect - -o %t.bad
// RUN: not ls %t.bad

// CHECK: module {
// CHECK-NEXT: "foo.ok"() : () -> ()
"foo.ok"() : () -> ()
// Devices are written to, never replaced (regression: -o /dev/null once
// renamed a temporary file over /dev/null).
// RUN: strata-opt --allow-unregistered-dialect %s -o /dev/null
// RUN: test -c /dev/null
