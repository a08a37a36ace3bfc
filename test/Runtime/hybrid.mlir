// Hybrid mode: ops that do not lower (here graph.cumsum) run eagerly
// between compiled segments, with the same values as eager mode; the
// report gives the segments, each island's reason and the coverage. A
// recipe's capture.exclude_ops makes more islands; graph mode refuses the
// model (its first op that does not lower).
// RUN: strata run %s --mode eager --dim batch=3 --output-dir %t.eager > /dev/null
// RUN: strata run %s --mode hybrid --dim batch=3 --expect y=%t.eager/y.npy --expect c=%t.eager/c.npy --report %t.json | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: strata run %s --recipe %S/Inputs/hybrid-exclude.toml --dim batch=3 --expect y=%t.eager/y.npy --report %t.excluded.json > /dev/null
// RUN: FileCheck %s --check-prefix=EXCLUDED < %t.excluded.json
// RUN: not strata run %s --mode graph --dim batch=3 2>&1 | FileCheck %s --check-prefix=GRAPH
// The partition as data, for the same shapes (deterministic: the same
// text, hash included, twice).
// RUN: strata compile %s --emit partition --dim batch=3 > %t.p1
// RUN: strata compile %s --emit partition --dim batch=3 > %t.p2
// RUN: diff %t.p1 %t.p2
// RUN: FileCheck %s --check-prefix=PART < %t.p1
// RUN: strata compile %s --emit partition --dim batch=3 --json > %t.part.json
// RUN: FileCheck %s --check-prefix=PART-JSON < %t.part.json
// RUN: strata compile %s --emit partition --dim batch=3 --recipe %S/Inputs/hybrid-exclude.toml | FileCheck %s --check-prefix=PART-EXCLUDED

// PART: segment 0: compiled, 1 op: graph.relu
// PART-NEXT: segment 1: eager, 1 op: graph.cumsum
// PART-NEXT: {{.*}}hybrid.mlir:[[#@LINE+61]]:8: graph.cumsum: no-lowering: cannot be lowered to tensor yet
// PART-NEXT: segment 2: compiled, 2 ops: graph.matmul, graph.softmax
// The estimated FLOPs: relu 12, cumsum 12 (eager), matmul 2*3*3*4, softmax 9.
// PART-NEXT: coverage: 3 of 4 ops compiled, 88.6 % of the estimated FLOPs (93 of 105), 74.3 % of the bytes
// PART-NEXT: partition: {{[0-9a-f]+$}}
// PART-JSON: "flops_compiled": 93,
// PART-JSON: "flops_total": 105,
// PART-JSON: "hash": "{{[0-9a-f]+}}",
// PART-EXCLUDED: segment 0: eager, 3 ops: graph.relu, graph.cumsum, graph.matmul
// PART-EXCLUDED-NEXT: graph.relu: excluded-by-recipe: is in capture.exclude_ops
// PART-EXCLUDED-NEXT: graph.cumsum: no-lowering
// PART-EXCLUDED-NEXT: graph.matmul: excluded-by-recipe
// PART-EXCLUDED-NEXT: segment 1: compiled, 1 op: graph.softmax
// PART-EXCLUDED-NEXT: coverage: 1 of 4 ops compiled, 8.6 % of the estimated FLOPs (9 of 105), 17.8 % of the bytes

// OUT: y: matches {{.*}}y.npy
// OUT: c: matches {{.*}}c.npy

// REPORT: "coverage": {
// REPORT-NEXT: "bytes_compiled": 300,
// REPORT-NEXT: "bytes_compiled_fraction": 0.742574{{[0-9]*}},
// REPORT-NEXT: "bytes_total": 404,
// REPORT-NEXT: "flops_compiled": 93,
// REPORT-NEXT: "flops_compiled_fraction": 0.885714{{[0-9]*}},
// REPORT-NEXT: "flops_total": 105,
// REPORT-NEXT: "ops_compiled": 3,
// REPORT-NEXT: "ops_total": 4
// REPORT: "segments": [
// REPORT-NEXT: {
// REPORT-NEXT: "bytes": 96,
// REPORT-NEXT: "flops": 12,
// REPORT-NEXT: "kind": "compiled",
// REPORT-NEXT: "ops": [
// REPORT-NEXT: "graph.relu"
// REPORT: "flops": 12,
// REPORT-NEXT: "kind": "eager",
// REPORT-NEXT: "ops": [
// REPORT-NEXT: "graph.cumsum"
// REPORT-NEXT: ],
// REPORT-NEXT: "reasons": [
// REPORT-NEXT: {
// REPORT-NEXT: "location": "{{.*}}hybrid.mlir:{{[0-9]+}}:8",
// REPORT-NEXT: "message": "cannot be lowered to tensor yet",
// REPORT-NEXT: "op": "graph.cumsum",
// REPORT-NEXT: "reason": "no-lowering"
// REPORT: "flops": 81,
// REPORT-NEXT: "kind": "compiled",
// REPORT-NEXT: "ops": [
// REPORT-NEXT: "graph.matmul",
// REPORT-NEXT: "graph.softmax"

// EXCLUDED: "ops_compiled": 1,
// EXCLUDED: "exe_mode": "hybrid",
// EXCLUDED: "reason": "excluded-by-recipe"

// GRAPH: error: 'graph.cumsum' op cannot be lowered to tensor yet

func.func @main(%x: tensor<?x4xf32, #graph.dims<batch>> {onnx.name = "x"}) -> (tensor<?x3xf32> {onnx.name = "y"}, tensor<?x4xf32> {onnx.name = "c"}) {
  %w = graph.constant dense<[[0.5, -1.0, 0.25], [1.5, 0.5, -0.5], [-0.25, 2.0, 1.0], [1.0, -0.75, 0.5]]> : tensor<4x3xf32>
  %axis = graph.constant dense<1> : tensor<i64>
  %0 = graph.relu %x : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32>
  %1 = graph.cumsum %0, %axis : (tensor<?x4xf32>, tensor<i64>) -> tensor<?x4xf32>
  %2 = graph.matmul %1, %w : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
  %3 = graph.softmax %2 {axis = 1 : i64} : (tensor<?x3xf32>) -> tensor<?x3xf32>
  return %3, %1 : tensor<?x3xf32>, tensor<?x4xf32>
}
