// REQUIRES: strata-opt
// A failing pipeline writes a reproducer: the IR before the pipeline and the
// pipeline itself, in the file's external_resources. --run-reproducer replays it.
// RUN: rm -f %t.repro.mlir
// RUN: not strata-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(cse,symbol-dce)' --mlir-pass-pipeline-crash-reproducer=%t.repro.mlir %s 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: FileCheck %s --check-prefix=REPRO < %t.repro.mlir
// RUN: not strata-opt --allow-unregistered-dialect --run-reproducer %t.repro.mlir 2>&1 | FileCheck %s --check-prefix=REPLAY

// ERR: error: operation contains potentially unknown symbol table
// ERR: error: Failures have been detected while processing an MLIR pass pipeline
// ERR: note: Pipeline failed while executing [`SymbolDCE` on 'builtin.module' operation]: reproducer generated at `{{.*}}repro.mlir`

// REPRO: "foo.op"() ({
// REPRO:      external_resources: {
// REPRO-NEXT:   mlir_reproducer: {
// REPRO-NEXT:     pipeline: "builtin.module(cse, symbol-dce)",
// REPRO-NEXT:     disable_threading: true,
// REPRO-NEXT:     verify_each: true

// REPLAY: error: operation contains potentially unknown symbol table
"foo.op"() ({
}) : () -> ()
