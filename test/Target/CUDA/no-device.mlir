// The CUDA executor without a device (STRATA_NO_CUDA=1 makes the probe find
// none, on any machine): a clear error and exit status 1, from the deployed
// runtime and from the driver; a bad artifact is reported before the device
// is looked for.
// RUN: strata compile %s --target sm_90 -o %t.strata
// RUN: env STRATA_NO_CUDA=1 not strata-run probe 2>&1 | FileCheck %s --check-prefix=PROBE
// RUN: env STRATA_NO_CUDA=1 not strata-run run %t.strata 2>&1 | FileCheck %s --check-prefix=RUNTIME
// RUN: env STRATA_NO_CUDA=1 not strata run %t.strata 2>&1 | FileCheck %s --check-prefix=ARTIFACT
// RUN: env STRATA_NO_CUDA=1 not strata run %s --mode graph --target cuda 2>&1 | FileCheck %s --check-prefix=DRIVER
// RUN: not strata run %s --mode eager --target cuda 2>&1 | FileCheck %s --check-prefix=EAGER
// RUN: not strata run %s --mode graph --cuda-graph 2>&1 | FileCheck %s --check-prefix=GRAPH
// RUN: not strata run %t.strata --target host 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: head -c 200 %t.strata > %t.short.strata
// RUN: env STRATA_NO_CUDA=1 not strata-run run %t.short.strata 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: strata compile %s -o %t.host.strata
// RUN: env STRATA_NO_CUDA=1 not strata-run run %t.host.strata 2>&1 | FileCheck %s --check-prefix=HOSTART

// PROBE: no CUDA device: STRATA_NO_CUDA is set
// RUNTIME: no CUDA device: STRATA_NO_CUDA is set
// ARTIFACT: {{.*}}.strata: error: no CUDA device: STRATA_NO_CUDA is set
// DRIVER: no-device.mlir: error: no CUDA device: STRATA_NO_CUDA is set
// EAGER: --target cuda runs graph mode, not --mode eager
// GRAPH: --cuda-graph needs --target cuda
// HOST: error: --target host: the artifact is compiled for sm_90 and runs on cuda
// SHORT: short.strata: error: the artifact is truncated
// HOSTART: host.strata: error: the artifact was refused:
// HOSTART-NEXT: target: compiled for host, but this runtime runs sm_80, sm_90
func.func @main(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>) -> tensor<4x32xf32> {
  %y = graph.matmul %x, %w : (tensor<4x64xf32>, tensor<64x32xf32>) -> tensor<4x32xf32>
  %s = graph.softmax %y {axis = 1 : i64} : (tensor<4x32xf32>) -> tensor<4x32xf32>
  return %s : tensor<4x32xf32>
}
