// REQUIRES: strata-opt
// RUN: strata-opt --allow-unregistered-dialect --mlir-print-op-generic %s | FileCheck %s
// RUN: strata-opt --allow-unregistered-dialect --mlir-print-op-generic %s | strata-opt --allow-unregistered-dialect --mlir-print-op-generic | FileCheck %s

// Float literals of types wider than f64 are rounded directly to the type, so
// that printed values read back to themselves. This is a deliberate
// difference from mlir-opt 22, which rounds them through `double` first: it
// prints `0.1 : f80` as `0.100000000000000005551 : f80` and reads
// `9.295260e-4949 : f80` (its own output for a denormal) as zero.

// CHECK: a = 1.000000e-01 : f80
// CHECK-SAME: b = 1.000000e-01 : f128
// CHECK-SAME: c = 9.295260e-4949 : f80
// CHECK-SAME: d = 1.00000000000060457422 : f80
// CHECK-SAME: e = 1.000000e+00 : f80
"foo.op"() {a = 0.1 : f80, b = 0.1 : f128, c = 9.295260e-4949 : f80, d = 1.00000000000060457422 : f80, e = 1.0 : f80} : () -> ()
