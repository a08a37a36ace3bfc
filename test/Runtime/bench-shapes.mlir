// strata bench --shapes replays a stream of request shapes through one
// session: each new shape compiles once (without buckets), or each bucket
// (with them); the padding and the failures (sizes above the largest
// bucket) are counted. A malformed shapes file is a located error.
// RUN: printf 'batch=2\nbatch=3\nbatch=2\n# a comment\nbatch=5\n' > %t.shapes
// RUN: strata bench %s --shapes %t.shapes --threads 1 | FileCheck %s --check-prefix=PLAIN
// RUN: strata bench %s --shapes %t.shapes --threads 1 --recipe %S/Inputs/buckets.toml --json | FileCheck %s --check-prefix=JSON
// RUN: printf 'random 40 batch=1..20 seed=7\n' > %t.random
// RUN: strata bench %s --shapes %t.random --threads 1 --recipe %S/Inputs/buckets.toml | FileCheck %s --check-prefix=RANDOM
// Every request compiles: no latency without a compile to show.
// RUN: printf 'batch=2\nbatch=3\n' > %t.new
// RUN: strata bench %s --shapes %t.new --threads 1 | FileCheck %s --check-prefix=NEW
// RUN: printf 'batch=2\nbatch=two\n' > %t.bad
// RUN: not strata bench %s --shapes %t.bad 2>&1 | FileCheck %s --check-prefix=BAD

// PLAIN: 4 requests (graph mode): 3 compiles ({{[0-9]+}} ms), 0 evictions, 0 failed
// PLAIN-NEXT: latency with compile stalls: p50 {{[0-9.]+}} ms, p99 {{[0-9.]+}} ms; without: p50 {{[0-9.]+}} ms, p99 {{[0-9.]+}} ms
// PLAIN: padding waste 0.0 %; cache: 3 plans
// JSON: "cache_plans":2,"compile_ms":{{[0-9.]+}},"compiles":2,"evictions":0,"exe_mode":"graph","failed":0
// JSON-SAME: "requests":4
// RANDOM: 40 requests (graph mode): 3 compiles
// RANDOM: failed ({{[0-9]+}}): no shape bucket: dimension 'batch' = {{1[7-9]|20}} is above the largest bucket [1, 4, 16]
// NEW: latency with compile stalls: p50 {{[0-9.]+}} ms, p99 {{[0-9.]+}} ms; without: p50 none, p99 none
// BAD: bad: line 2: 'batch=two': expected SYM=N

func.func @main(%x: tensor<?x4xf32, #graph.dims<batch>> {onnx.name = "x"}) -> (tensor<?x4xf32> {onnx.name = "y"}) {
  %0 = graph.relu %x : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32>
  %1 = graph.softmax %0 {axis = 1 : i64} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}
