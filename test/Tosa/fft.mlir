// tosa.fft2d (forward and inverse, which TOSA does not normalize) and
// tosa.rfft2d (one-sided along W) as two one-axis graph.dft transforms
// of the parts stacked into a trailing [re, im] pair. Checked against
// upstream's lowering in eager and hybrid mode (graph mode does not lower
// graph.dft: hybrid mode runs it eagerly).
// RUN: strata import %s | FileCheck %s
// RUN: python3 %S/../../scripts/tosa-oracle %s --modes eager,hybrid | FileCheck %s --check-prefix=ORACLE

// CHECK-LABEL: func.func @main
func.func @main(%re: tensor<2x4x8xf32>, %im: tensor<2x4x8xf32>) -> (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x5xf32>, tensor<2x4x5xf32>) {
  // CHECK: graph.dft %{{.*}} {axis = 2 : i64} : (tensor<2x4x8x2xf32>)
  // CHECK: graph.dft %{{[0-9]+}} : (tensor<2x4x8x2xf32>)
  %fr, %fi = tosa.fft2d %re, %im {inverse = false} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> (tensor<2x4x8xf32>, tensor<2x4x8xf32>)
  // CHECK: graph.dft %{{.*}} {axis = 2 : i64, inverse = true}
  // CHECK: graph.dft %{{[0-9]+}} {inverse = true}
  // CHECK: graph.mul
  %ir, %ii = tosa.fft2d %re, %im {inverse = true} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> (tensor<2x4x8xf32>, tensor<2x4x8xf32>)
  // CHECK: graph.dft %{{.*}} {axis = 2 : i64, onesided = true} : (tensor<2x4x8x1xf32>) -> tensor<2x4x5x2xf32>
  %rr, %ri = tosa.rfft2d %re : (tensor<2x4x8xf32>) -> (tensor<2x4x5xf32>, tensor<2x4x5xf32>)
  return %fr, %fi, %ir, %ii, %rr, %ri : tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x5xf32>, tensor<2x4x5xf32>
}

// ORACLE-COUNT-12: matches upstream MLIR
// ORACLE-NOT: MISMATCH
