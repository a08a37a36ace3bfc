// tosa.conv3d (as one 2-D convolution per kernel depth, summed), with
// padding, strides and dilations in every axis; tosa.scatter (as
// graph.scatter_elements along K); the shifts of signed integers (through
// graph.bit_shift of their bits as unsigned ones; an arithmetic right
// shift of a negative value as the complement of the complement's
// logical shift). All checked against upstream's lowering, in eager and
// hybrid mode (graph mode lowers neither graph.scatter_elements nor
// graph.bit_shift: hybrid mode runs them eagerly between compiled
// segments), the shifts in eager mode.
// RUN: strata import %s | FileCheck %s
// RUN: python3 %S/../../scripts/tosa-oracle %S/Inputs/conv3d-scatter.mlir --modes eager,hybrid | FileCheck %s --check-prefix=ORACLE
// RUN: python3 %S/../../scripts/tosa-oracle %s --modes eager | FileCheck %s --check-prefix=SHIFT
// RUN: not strata import %S/Inputs/shift-round.mlir 2>&1 | FileCheck %s --check-prefix=ROUND

// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<2x4xi32>, %s: tensor<2x4xi32>) -> (tensor<2x4xi32>, tensor<2x4xi32>, tensor<2x4xi32>, tensor<2x4xi32>, tensor<2x4xi32>, tensor<2x4xi32>) {
  // CHECK: graph.bitcast %arg1 : (tensor<2x4xi32>) -> tensor<2x4xui32>
  // CHECK: graph.bit_shift {{.*}} {direction = "left"}
  %l = tosa.logical_left_shift %x, %s : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
  // CHECK: graph.bit_shift {{.*}} {direction = "right"}
  %r = tosa.logical_right_shift %x, %s : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
  // CHECK: graph.less %arg0
  // CHECK: graph.bit_shift {{.*}} {direction = "right"}
  // CHECK: graph.where
  %a = tosa.arithmetic_right_shift %x, %s {round = false} : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
  // Negative values and the extreme shifts (the oracle's inputs are not
  // negative): arithmetic and logical right shifts differ here.
  %nx = "tosa.const"() {values = dense<[[-1, -8, -2147483648, 5], [-7, 100, -100, 2147483647]]> : tensor<2x4xi32>} : () -> tensor<2x4xi32>
  %ns = "tosa.const"() {values = dense<[[0, 1, 31, 2], [1, 7, 3, 31]]> : tensor<2x4xi32>} : () -> tensor<2x4xi32>
  %nl = tosa.logical_left_shift %nx, %ns : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
  %nr = tosa.logical_right_shift %nx, %ns : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
  %na = tosa.arithmetic_right_shift %nx, %ns {round = false} : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
  return %l, %r, %a, %nl, %nr, %na : tensor<2x4xi32>, tensor<2x4xi32>, tensor<2x4xi32>, tensor<2x4xi32>, tensor<2x4xi32>, tensor<2x4xi32>
}

// SHIFT-COUNT-6: eager: output_{{[0-5]}}: matches upstream MLIR
// SHIFT-NOT: MISMATCH
// ORACLE-COUNT-8: matches upstream MLIR
// ORACLE-NOT: MISMATCH
// ROUND: shift-round.mlir:2:8: error: 'tosa.arithmetic_right_shift': a rounding arithmetic shift (round = true) has no graph form
