// With --mlir-print-debuginfo, op locations print as #loc aliases defined after
// the module; ops without a location get file:line:col of their source.
// RUN: strata-opt --allow-unregistered-dialect --mlir-print-op-generic --mlir-print-debuginfo %s | FileCheck %s

// CHECK:      "foo.a"() : () -> () loc(#[[A:loc[0-9]*]])
"foo.a"() : () -> () loc("model.py":3:7)
// CHECK-NEXT: "foo.b"() : () -> () loc(#[[B:loc[0-9]*]])
"foo.b"() : () -> () loc("relu"("model.py":4:1))
// CHECK-NEXT: "foo.c"() : () -> () loc(#[[C:loc[0-9]*]])
"foo.c"() : () -> ()
// CHECK-NEXT: }) : () -> () loc(#[[MOD:loc[0-9]*]])
// CHECK-DAG:  #[[MOD]] = loc("{{.*}}debuginfo.mlir":0:0)
// CHECK-DAG:  #[[A]] = loc("model.py":3:7)
// CHECK-DAG:  #[[RELU:loc[0-9]*]] = loc("model.py":4:1)
// CHECK-DAG:  #[[B]] = loc("relu"(#[[RELU]]))
// CHECK-DAG:  #[[C]] = loc("{{.*}}debuginfo.mlir":10:1)
