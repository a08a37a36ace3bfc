// strata run is a session: the exe mode comes from --mode, else from the
// recipe's runtime.exe_mode, else eager; --log-events prints each compile
// event as a JSON line and --report writes the session's report.
// RUN: strata run %s --mode graph --threads 1 --dim batch=3 --log-events --report %t.json 2>&1 | FileCheck %s --check-prefix=EVENTS
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: strata run %s --mode graph --threads 1 --dim batch=2 --trace %t.trace.json > /dev/null
// RUN: FileCheck %s --check-prefix=TRACE < %t.trace.json
// RUN: strata run %s --recipe %S/Inputs/graph-mode.toml --dim batch=2 --report %t.graph.json
// RUN: FileCheck %s --check-prefix=RECIPE-GRAPH < %t.graph.json
// RUN: strata run %s --recipe %S/Inputs/eager-mode.toml --report %t.eager.json 2>&1 | FileCheck %s --check-prefix=RECIPE-EAGER
// RUN: FileCheck %s --check-prefix=REPORT-EAGER < %t.eager.json
// RUN: not strata run %s --mode fast 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: strata run %s --mode hybrid --dim batch=2 --report %t.hybrid.json
// RUN: FileCheck %s --check-prefix=HYBRID < %t.hybrid.json

// EVENTS: {"at_us":{{[0-9]+}},"event":"compile","key":"[3x4]","level":"memory","ms":{{[0-9.]+}},"reason":"cold"}
// EVENTS: y: f32 [3, 4]

// REPORT: "cache": {
// REPORT-NEXT: "arena_bytes": {{[0-9]+}},
// REPORT-NEXT: "evictions": 0,
// REPORT-NEXT: "failed_again": 0,
// REPORT-NEXT: "hits": 0,
// REPORT-NEXT: "launches": {{[0-9]+}},
// REPORT-NEXT: "level": "memory",
// REPORT-NEXT: "misses": 1,
// REPORT-NEXT: "plans": 1
// REPORT-NEXT: },
// REPORT-NEXT: "compile_ms": {{[0-9.]+}},
// REPORT-NEXT: "compiles": 1,
// REPORT-NEXT: "events": [
// REPORT: "reason": "cold"
// REPORT: "exe_mode": "graph",
// REPORT-NEXT: "padding_waste": 0.0,
// REPORT-NEXT: "runs": 1

// TRACE: "traceEvents":[
// TRACE-SAME: "name":"run","ph":"X"
// TRACE-SAME: "name":"compile [2x4]","ph":"X"

// RECIPE-GRAPH: "compiles": 1,
// RECIPE-GRAPH: "exe_mode": "graph",

// RECIPE-EAGER: y: f32 [1, 4]
// REPORT-EAGER: "compiles": 0,
// REPORT-EAGER: "exe_mode": "eager",
// REPORT-EAGER-NEXT: "padding_waste": 0.0,
// REPORT-EAGER-NEXT: "runs": 1

// MODE: unknown exe mode 'fast'; the modes are: eager, graph, hybrid
// HYBRID: "coverage": {
// HYBRID: "flops_compiled_fraction": 1.0,
// HYBRID: "ops_compiled": 1,
// HYBRID-NEXT: "ops_total": 1
// HYBRID: "exe_mode": "hybrid",

func.func @main(%x: tensor<?x4xf32, #graph.dims<batch>> {onnx.name = "x"}) -> (tensor<?x4xf32> {onnx.name = "y"}) {
  %0 = graph.relu %x : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
