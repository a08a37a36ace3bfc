// REQUIRES: strata-opt
// --mlir-pass-pipeline-local-reproducer: the reproducer holds the IR as it
// was just before the failing pass (here after cse merged the constants) and
// a pipeline that runs only that pass, nested down to the op it failed on
// (mlir-opt 22 writes the same pipeline for func.func).
// RUN: rm -f %t.repro.mlir
// RUN: not strata-opt --pass-pipeline='builtin.module(test.func(cse),test.func(symbol-dce))' --mlir-pass-pipeline-crash-reproducer=%t.repro.mlir --mlir-pass-pipeline-local-reproducer %s 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: FileCheck %s --check-prefix=REPRO < %t.repro.mlir
// RUN: not strata-opt --run-reproducer %t.repro.mlir 2>&1 | FileCheck %s --check-prefix=REPLAY

// ERR: error: 'test.func' op  was scheduled to run under SymbolDCE, but does not define a symbol table
// ERR: note: Pipeline failed while executing `SymbolDCE` on 'test.func' operation: @f: reproducer generated at `{{.*}}repro.mlir`

// REPRO:      "test.func"() <{sym_name = "f"}> ({
// REPRO-NEXT:   %0 = "test.constant"() <{value = 2 : i32}>
// REPRO-NEXT:   "test.effect"(%0, %0)
// REPRO:        pipeline: "builtin.module(test.func(symbol-dce))",

// REPLAY: error: 'test.func' op  was scheduled to run under SymbolDCE
"test.func"() <{sym_name = "f"}> ({
  %c = "test.constant"() <{value = 2 : i32}> : () -> i32
  %d = "test.constant"() <{value = 2 : i32}> : () -> i32
  "test.effect"(%c, %d) : (i32, i32) -> ()
}) : () -> ()
