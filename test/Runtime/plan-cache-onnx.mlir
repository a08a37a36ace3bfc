// The plan cache on disk with an ONNX model: a warm start in graph mode
// reads the model's signature only (its weights are never imported) and
// gives the cold start's values; the model's hash is remembered beside
// the entries; hybrid mode keeps its compiled segments there too; a
// model that is not ONNX where the cache is warm is refused with its
// file named.
// RUN: rm -rf %t && mkdir -p %t && cp %S/../../examples/onnx/mlp.onnx %t/mlp.onnx
// RUN: touch -d '1 minute ago' %t/mlp.onnx
// RUN: strata run %t/mlp.onnx --mode graph --threads 1 --dim batch=3 --seed 5 --print --cache-dir %t/cache > %t/cold.txt
// RUN: strata run %t/mlp.onnx --mode graph --threads 1 --dim batch=3 --seed 5 --print --cache-dir %t/cache --report %t/warm.json > %t/warm.txt
// RUN: diff %t/cold.txt %t/warm.txt
// RUN: FileCheck %s --check-prefix=WARM < %t/warm.json
// RUN: ls %t/cache/models | FileCheck %s --check-prefix=MEMO
// RUN: strata run %t/mlp.onnx --mode hybrid --threads 1 --dim batch=3 --seed 5 --print --cache-dir %t/cache > %t/hybrid-cold.txt
// RUN: strata run %t/mlp.onnx --mode hybrid --threads 1 --dim batch=3 --seed 5 --print --cache-dir %t/cache --report %t/hybrid.json > %t/hybrid-warm.txt
// RUN: diff %t/cold.txt %t/hybrid-warm.txt
// RUN: FileCheck %s --check-prefix=WARM < %t/hybrid.json
// RUN: printf 'not a model' > %t/mlp.onnx
// RUN: not strata run %t/mlp.onnx --mode graph --dim batch=3 --cache-dir %t/cache 2>&1 | FileCheck %s --check-prefix=BROKEN

// WARM: "disk_hits": 1,
// WARM: "compiles": 0,

// MEMO: {{^[0-9a-f]{40}$}}

// BROKEN: mlp.onnx: not a valid ONNX model: {{.+}}
