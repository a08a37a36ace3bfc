// REQUIRES: cuda
// Graph mode on the GPU, checked against eager mode: the generated kernels
// (PTX), the library products (cuBLAS), plain launches and a CUDA graph,
// compiled in process and from an artifact.
// RUN: strata run %s --mode graph --target cuda --check | FileCheck %s
// RUN: strata run %s --mode graph --target cuda --cuda-graph --check | FileCheck %s
// RUN: printf '[codegen]\ntarget = "sm_80"\nkernel_selection = "generated"\n' > %t.toml
// RUN: strata run %s --mode graph --target cuda --recipe %t.toml --check | FileCheck %s
// RUN: strata compile %s --target sm_80 -o %t.strata
// RUN: strata run %t.strata --cuda-graph | FileCheck %s --check-prefix=ARTIFACT
// RUN: strata-run run %t.strata | FileCheck %s --check-prefix=ARTIFACT

// CHECK: check: {{.*}}: graph mode matches eager mode
// ARTIFACT: f32 [4, 32]
func.func @main(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>) -> tensor<4x32xf32> {
  %y = graph.matmul %x, %w : (tensor<4x64xf32>, tensor<64x32xf32>) -> tensor<4x32xf32>
  %s = graph.softmax %y {axis = 1 : i64} : (tensor<4x32xf32>) -> tensor<4x32xf32>
  return %s : tensor<4x32xf32>
}
