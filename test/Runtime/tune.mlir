// strata tune: a seeded search over recipe knobs, every evaluation a line
// of the log, the best recipe written out; --resume repeats nothing.
// The space computes in f16 for half its points: at f32's tolerance those
// are wrong answers, never winners.
// RUN: rm -rf %t && mkdir -p %t
// RUN: printf '[knobs]\n"codegen.precision" = ["f32", "f16"]\n"optimize.fusion.max_fused_ops" = [2, 16]\n' > %t/space.toml
// RUN: printf '[contracts.tolerance]\nrtol = 1e-5\natol = 1e-6\n' > %t/base.toml
// RUN: strata tune %s --recipe %t/base.toml --space %t/space.toml --log %t/log.jsonl -o %t/best.toml --report %t/report.html --seed 3 > %t/out.txt 2> %t/err.txt
// RUN: FileCheck %s --input-file=%t/out.txt
// RUN: FileCheck %s --check-prefix=PROGRESS --input-file=%t/err.txt
// RUN: strata recipe check %t/best.toml | FileCheck %s --check-prefix=BEST
// RUN: python3 -c "import json,sys; rs=[json.loads(l) for l in open(sys.argv[1])]; print(sorted({r['state'] for r in rs}), len({r['trial'] for r in rs}), all(len(r['recipe_sha256'])==64 and r['fingerprint']['target']=='host' for r in rs), all(r['summary'] is not None for r in rs if r['state']=='ok'))" %t/log.jsonl | FileCheck %s --check-prefix=LOG
// RUN: FileCheck %s --check-prefix=HTML --input-file=%t/report.html
// --resume repeats no evaluation, and picks the same recipe.
// RUN: wc -l < %t/log.jsonl > %t/lines.before
// RUN: strata tune %s --recipe %t/base.toml --space %t/space.toml --log %t/log.jsonl -o %t/again.toml --report %t/report.html --seed 3 --resume 2>/dev/null | FileCheck %s --check-prefix=RESUME
// RUN: wc -l < %t/log.jsonl | diff - %t/lines.before
// RUN: diff %t/best.toml %t/again.toml
// Bad input: an existing log without --resume, a log of another model, a
// space the recipe schema refuses (located), an unwritable output, no trials.
// RUN: not strata tune %s --space %t/space.toml --log %t/log.jsonl -o %t/x.toml 2>&1 | FileCheck %s --check-prefix=EXISTS
// RUN: not strata tune %S/../../examples/onnx/mlp.onnx --log %t/log.jsonl --resume -o %t/x.toml 2>&1 | FileCheck %s --check-prefix=OTHER
// RUN: printf '[knobs]\n"codegen.kernel_selection" = ["library", "fastest"]\n' > %t/bad.toml
// RUN: not strata tune %s --space %t/bad.toml --log %t/bad.jsonl 2>&1 | FileCheck %s --check-prefix=BADSPACE
// RUN: printf '[knobs]\n"codegen.warp_speed" = [9]\n' > %t/unknown.toml
// RUN: not strata tune %s --space %t/unknown.toml --log %t/bad.jsonl 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not strata tune %s --log %t/bad.jsonl -o %t/no/such/dir/best.toml 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// RUN: not strata tune %s --log %t/bad.jsonl --max-trials 0 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not strata tune %s --log %t/bad.jsonl --time-budget 0 2>&1 | FileCheck %s --check-prefix=ZERO-TIME
// A GPU target: every candidate compiled and its PTX assembled; without a
// device (forced here, as on a machine without one) none is timed, and the
// log is kept for a machine with a GPU to --resume.
// RUN: env STRATA_NO_CUDA=1 not strata tune %s --target sm_90 --log %t/gpu.jsonl -o %t/gpu.toml --report %t/gpu.html --max-trials 2 2>&1 | FileCheck %s --check-prefix=GPU
// A trial past --trial-timeout is killed and recorded; the search goes on.
// RUN: not strata tune %s --log %t/slow.jsonl -o %t/slow.toml --report %t/slow.html --trial-timeout 0.001 --max-trials 2 2>&1 | FileCheck %s --check-prefix=TIMEOUT

// CHECK:      tune: 5 candidates evaluated (3 ok, 2 wrong_answer), {{[0-9]+}} pruned, in {{.*}} s
// CHECK-NEXT: latency (p50)      compile  kernels
// CHECK-NEXT: base recipe {{.*}} ms {{.*}} ms
// CHECK-NEXT: best (trial {{[0-9]}})
// CHECK:      best recipe: {{.*}}best.toml (sha256 {{[0-9a-f]+}})
// CHECK-NEXT: log: {{.*}}log.jsonl; report: {{.*}}report.html

// PROGRESS: tune: 5 candidates (the base recipe and 4 of the space's 4 points), at most 600 s
// PROGRESS: tune: trial 0 [rung 0] base recipe: ok
// PROGRESS: precision="f16" {{.*}}: wrong_answer
// PROGRESS: [rung final]

// BEST: best.toml: ok, sha256 {{[0-9a-f]+}}
// LOG: ['ok', 'wrong_answer'] 5 True True
// HTML: <svg {{.*}}Every trial (× failed){{.*}}</svg>{{.*}}<table>{{.*}}wrong_answer
// RESUME: best recipe: {{.*}}again.toml (sha256

// EXISTS: the log holds records already; --resume continues it, or name another log
// OTHER: log.jsonl:1: error: the log is of another model (sha256 {{[0-9a-f]+}}), not this one (sha256 {{[0-9a-f]+}})
// BADSPACE: bad.toml:2:42: error: 'codegen.kernel_selection' = "fastest" is out of range
// UNKNOWN: unknown.toml:2:1: error: unknown key 'codegen.warp_speed'
// UNWRITABLE: -o {{.*}}best.toml: cannot write there
// ZERO: --max-trials 0: a search of no trials tunes nothing
// ZERO-TIME: --time-budget 0: expected a positive number of seconds
// GPU: tune: 2 candidates (the base recipe and 1 of the space's 162 points)
// GPU: every candidate (2) compiled for sm_90, none could be timed: there is no CUDA device here; the same command with --resume on a machine with one times them
// TIMEOUT: tune: trial 0 [rung 0] base recipe: timeout
// TIMEOUT: tune: trial 1 [rung 0] {{.*}}: timeout
// TIMEOUT: no candidate compiled, matched eager mode and ran (the log {{.*}}slow.jsonl says why)

func.func @main(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %0 = graph.matmul %x, %w : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %1 = graph.tanh %0 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = graph.relu %1 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}
