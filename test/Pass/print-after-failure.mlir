// RUN: not strata-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(symbol-dce)' --mlir-print-ir-after-failure %s 2>&1 | FileCheck %s

// CHECK: error: operation contains potentially unknown symbol table
// CHECK: // -----// IR Dump After SymbolDCE Failed (symbol-dce) //----- //
// CHECK-NEXT: module {
// CHECK-NEXT:   "foo.op"() ({
"foo.op"() ({
}) : () -> ()
