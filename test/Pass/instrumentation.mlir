// REQUIRES: strata-opt
// RUN: strata-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(test.func(cse),dce)' --mlir-print-ir-before=cse --mlir-print-ir-after-all %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PRINT
// RUN: strata-opt --allow-unregistered-dialect --cse --dce --mlir-print-ir-after-all --mlir-print-ir-after-change %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHANGE
// RUN: strata-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(test.func(cse))' --mlir-print-ir-after-all --mlir-print-ir-module-scope --mlir-disable-threading %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCOPE
// RUN: strata-opt --allow-unregistered-dialect --cse --mlir-pass-statistics %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: strata-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(test.func(cse),dce)' --mlir-timing %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIMING
// RUN: strata-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(dce,test.func(cse,cse),dce,test.func(cse))' --mlir-timing %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPEAT
// RUN: strata-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(test.func(cse),dce)' --trace=%t.json %s -o /dev/null
// RUN: python3 -c "import json,sys; t=json.load(open(sys.argv[1])); print(sorted({(e['name'], e['args']['op']) for e in t['traceEvents']}))" %t.json | FileCheck %s --check-prefix=TRACE

// PRINT:      // -----// IR Dump Before CSE (cse) //----- //
// PRINT-NEXT: "test.func"() <{sym_name = "f"}> ({
// PRINT:      // -----// IR Dump After CSE (cse) //----- //
// PRINT:      // -----// IR Dump After DCE (dce) //----- //
// PRINT-NEXT: module {

// Only the pass that changed the IR is printed.
// CHANGE:     // -----// IR Dump After CSE (cse) //----- //
// CHANGE-NOT: IR Dump After DCE

// STATS:      ... Pass statistics report ...
// STATS:      'builtin.module' Pipeline
// STATS-NEXT:   CSE
// STATS-NEXT:     (S) 1 num-cse'd - Number of operations CSE'd
// STATS-NEXT:     (S) 0 num-dce'd - Number of operations DCE'd

// With --mlir-print-ir-module-scope every dump is the whole module, and the
// header names the op the pass ran on.
// SCOPE:      // -----// IR Dump After CSE (cse) ('test.func' operation: @f) //----- //
// SCOPE-NEXT: module {
// SCOPE-NEXT:   "test.func"() <{sym_name = "f"}> ({
// SCOPE:        "test.func"() <{sym_name = "g"}> ({
// SCOPE:      // -----// IR Dump After CSE (cse) ('test.func' operation: @g) //----- //
// SCOPE-NEXT: module {
// SCOPE-NEXT:   "test.func"() <{sym_name = "f"}> ({

// TIMING:      ... Execution time report ...
// TIMING:      Total Execution Time: {{[0-9.]+}} seconds
// TIMING:      ----Wall Time----  ----Name----
// TIMING-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Parser
// TIMING-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  'test.func' Pipeline
// TIMING-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)    CSE
// TIMING-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  DCE
// TIMING-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Output
// TIMING-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Rest
// TIMING-NEXT: {{[0-9.]+}} (100.0%)  Total

// Each pass instance and pipeline gets its own line, as in mlir-opt's report;
// runs of one instance over several ops add up in its line.
// REPEAT:      ----Wall Time----  ----Name----
// REPEAT-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Parser
// REPEAT-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  DCE
// REPEAT-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  'test.func' Pipeline
// REPEAT-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)    CSE
// REPEAT-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)    CSE
// REPEAT-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  DCE
// REPEAT-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  'test.func' Pipeline
// REPEAT-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)    CSE
// REPEAT-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Output

// TRACE: [('CSE', 'test.func @f'), ('CSE', 'test.func @g'), ('DCE', 'builtin.module')]
"test.func"() <{sym_name = "f"}> ({
  %c = "test.constant"() <{value = 2 : i32}> : () -> i32
  %d = "test.constant"() <{value = 2 : i32}> : () -> i32
  "test.effect"(%c, %d) : (i32, i32) -> ()
}) : () -> ()
"test.func"() <{sym_name = "g"}> ({
  "test.effect"() : () -> ()
}) : () -> ()
