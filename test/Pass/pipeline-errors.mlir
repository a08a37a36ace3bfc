// REQUIRES: strata-opt
// RUN: not strata-opt --pass-pipeline='builtin.module(foo)' %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not strata-opt --pass-pipeline='builtin.module(cse{bogus=1})' %s 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not strata-opt --pass-pipeline='cse' %s 2>&1 | FileCheck %s --check-prefix=ANCHOR
// RUN: not strata-opt --pass-pipeline='test.func(cse)' %s 2>&1 | FileCheck %s --check-prefix=WRONGOP
// RUN: not strata-opt --cse --pass-pipeline='builtin.module(cse)' %s 2>&1 | FileCheck %s --check-prefix=BOTH

// UNKNOWN: error: MLIR Textual PassPipeline Parser:1:{{[0-9]+}}: error: 'foo' does not refer to a registered pass or pass pipeline
// OPTION: error: <Pass-Options-Parser>: no such option bogus
// OPTION: failed to add `cse` with options `bogus=1`
// ANCHOR: error: expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'
// WRONGOP: error: can't run 'test.func' pass manager on 'builtin.module' op
// BOTH: '--pass-pipeline' option can't be used with individual pass options
"test.effect"() : () -> ()
