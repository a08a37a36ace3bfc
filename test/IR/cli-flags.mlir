// REQUIRES: strata-opt
// Boolean flags take LLVM's `=true/false/1/0` forms; anything else is an error.
// RUN: strata-opt --allow-unregistered-dialect --split-input-file --verify-each=false --mlir-print-debuginfo=0 %s | FileCheck %s
// RUN: not strata-opt --verify-each=maybe %s 2>&1 | FileCheck %s --check-prefix=BADBOOL
// RUN: not strata-opt --pass-pipeline %s 2>&1 | FileCheck %s --check-prefix=NOVALUE
//
// `--verify-diagnostics` takes MLIR 22's levels: `all` (the default) reports
// unexpected diagnostics too, `only-expected` checks the expectations alone.
// RUN: not strata-opt --split-input-file --verify-diagnostics=all %s 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: not strata-opt --split-input-file --verify-diagnostics %s 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: strata-opt --split-input-file --verify-diagnostics=only-expected %s 2>&1 | FileCheck %s --check-prefix=ONLY --allow-empty
// RUN: not strata-opt --verify-diagnostics=some %s 2>&1 | FileCheck %s --check-prefix=BADVD

// CHECK: "test.effect"() : () -> ()
// BADBOOL: for the --verify-each option: 'maybe' is invalid value for boolean argument! Try 0 or 1
// NOVALUE: for the --pass-pipeline option: requires a value!
// BADVD: for the --verify-diagnostics option: Cannot find option named 'some'!
"test.effect"() : () -> ()

// -----

// ALL: cli-flags.mlir:[[@LINE+2]]:10: error: unexpected error: operation being parsed with an unregistered dialect
// ONLY-NOT: error
"foo.bar"() : () -> ()
