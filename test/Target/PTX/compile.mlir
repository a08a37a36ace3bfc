// REQUIRES: ptxas
// strata compile --target sm_80|sm_90: the module after the nvptx stage, or
// the PTX of every kernel and the plan (--emit ptx -o DIR), each kernel
// assembled by ptxas, or a CUDA artifact (-o model.strata).
// RUN: strata compile %s --target sm_80 | FileCheck %s --check-prefix=MLIR
// RUN: rm -rf %t.dir && strata compile %s --target sm_80 --emit ptx -o %t.dir 2>&1 | FileCheck %s --check-prefix=WROTE
// RUN: ls %t.dir | FileCheck %s --check-prefix=FILES
// RUN: for f in %t.dir/*.ptx; do %ptxas -arch=sm_80 $f -o %t.cubin || exit 1; done
// RUN: printf '[codegen]\ntarget = "sm_90"\nkernel_selection = "generated"\nnum_warps = 2\n' > %t.toml
// RUN: strata compile %s --recipe %t.toml | FileCheck %s --check-prefix=RECIPE
// RUN: strata compile %s --target sm_90 -o %t.strata
// RUN: strata inspect %t.strata | FileCheck %s --check-prefix=ARTIFACT
// RUN: not strata compile %s --target sm_90 --stop-after kernel -o %t.strata 2>&1 | FileCheck %s --check-prefix=STOP
// RUN: not strata compile %s --target sm_75 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not strata compile %s --target sm_90 --stop-after host 2>&1 | FileCheck %s --check-prefix=HOST

// The exp fuses into the softmax's row kernel: one kernel, four programs.
// MLIR: kernel.launch @main_0_reduce grid(%c4)
// MLIR: module @gpu attributes {nvptx.target = "sm_80"}
// MLIR: func.func @main_0_reduce(
// MLIR-SAME: nvptx.threads = 128
// WROTE: wrote 1 kernel(s) (sm_80) and plan.mlir to
// FILES: main_0_reduce.ptx
// FILES-NEXT: plan.mlir
// RECIPE: module @gpu attributes {nvptx.target = "sm_90"}
// RECIPE: nvptx.threads = 64
// ARTIFACT: target     sm_90
// ARTIFACT: main_0_reduce (generated, grid 4x1x1)
// ARTIFACT: plan.mlir
// ARTIFACT: ptx/main_0_reduce.ptx
// STOP: --emit artifact compiles every stage; --stop-after does not apply
// TARGET: --target 'sm_75': the targets are: host, sm_80, sm_90
// HOST: --stop-after host: the target is sm_90; the stages are graph, tensor, kernel, nvptx
func.func @main(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %e = graph.exp %x : (tensor<4x64xf32>) -> tensor<4x64xf32>
  %s = graph.softmax %e {axis = 1 : i64} : (tensor<4x64xf32>) -> tensor<4x64xf32>
  return %s : tensor<4x64xf32>
}
