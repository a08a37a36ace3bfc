// The plan cache on disk (--cache-dir, runtime.cache_dir,
// STRATA_CACHE_DIR): the first process compiles and writes an entry, a
// second one loads it (machine code, no compile) and gives the same
// values; a damaged entry is refused with a warning, compiled again and
// replaced; a directory that cannot be made is an error.
// RUN: rm -rf %t && mkdir -p %t
// RUN: strata run %s --mode graph --threads 1 --dim batch=3 --print --cache-dir %t/cache --report %t/cold.json > %t/cold.txt
// RUN: FileCheck %s --check-prefix=COLD < %t/cold.json
// RUN: STRATA_CACHE_DIR=%t/cache strata run %s --mode graph --threads 1 --dim batch=3 --print --log-events --report %t/warm.json > %t/warm.txt 2> %t/warm.log
// RUN: FileCheck %s --check-prefix=WARM < %t/warm.json
// RUN: FileCheck %s --check-prefix=WARM-LOG < %t/warm.log
// RUN: diff %t/cold.txt %t/warm.txt
// RUN: for f in %t/cache/*.strata; do printf 'damaged' > $f; done
// RUN: strata run %s --mode graph --threads 1 --dim batch=3 --print --cache-dir %t/cache > %t/again.txt 2> %t/again.log
// RUN: FileCheck %s --check-prefix=DAMAGED < %t/again.log
// RUN: diff %t/cold.txt %t/again.txt
// RUN: printf 'batch=3\nbatch=5\nbatch=3\n' > %t/shapes
// RUN: strata bench %s --shapes %t/shapes --threads 1 --cache-dir %t/cache | FileCheck %s --check-prefix=BENCH
// RUN: touch %t/file
// RUN: not strata run %s --mode graph --dim batch=3 --cache-dir %t/file/cache 2>&1 | FileCheck %s --check-prefix=UNWRITABLE

// COLD: "cache": {
// COLD: "disk_hits": 0,
// COLD-NEXT: "disk_rejected": 0,
// COLD-NEXT: "disk_writes": 1,
// COLD: "level": "disk",
// COLD: "compiles": 1,
// COLD: "event": "cache-write",
// COLD-NEXT: "key": "[3x4]",
// COLD-NEXT: "level": "disk",
// COLD-NEXT: "ms": {{[0-9.]+}},
// COLD-NEXT: "reason": "{{[0-9]+}} bytes, machine code"

// WARM: "disk_hits": 1,
// WARM: "compiles": 0,
// WARM-LOG: {"at_us":{{[0-9]+}},"event":"hit","key":"[3x4]","level":"disk","ms":{{[0-9.]+}},"reason":"machine code loaded"}

// DAMAGED: warning: plan cache entry refused, compiling again: {{.*}}.strata: error: not a strata artifact

// BENCH: 3 requests (graph mode): 1 compiles
// BENCH: disk cache {{.*}}cache: 1 plans loaded, 1 written, 0 refused

// UNWRITABLE: file/cache: error: cannot use it as the plan cache directory: Not a directory

func.func @main(%x: tensor<?x4xf32, #graph.dims<batch>> {onnx.name = "x"}) -> (tensor<?x4xf32> {onnx.name = "y"}) {
  %w = graph.constant dense<[[0.5, -1.0, 0.25, 2.0], [1.5, 0.5, -0.5, 1.0], [-0.25, 2.0, 1.0, 0.0], [1.0, -0.75, 0.5, -1.0]]> : tensor<4x4xf32>
  %0 = graph.matmul %x, %w : (tensor<?x4xf32, #graph.dims<batch>>, tensor<4x4xf32>) -> tensor<?x4xf32>
  %1 = graph.softmax %0 {axis = 1 : i64} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}
