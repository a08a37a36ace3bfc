// TOSA's argmax, reverse, gather, boolean reductions and bitwise ops,
// imported and checked in graph mode against eager mode, and both modes
// against upstream MLIR's own lowering of the module (mlir-runner).
// RUN: strata import %s | FileCheck %s
// RUN: strata run %s --mode graph --check | FileCheck %s --check-prefix=GRAPH
// RUN: python3 %S/../../scripts/tosa-oracle %s | FileCheck %s --check-prefix=ORACLE

// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<2x5x3xf32>, %i: tensor<2x4xi32>, %a: tensor<2x5xi32>, %b: tensor<2x5xi32>) -> (tensor<2x3xi32>, tensor<2x5x3xf32>, tensor<2x4x3xf32>, tensor<2x1x3xi1>, tensor<2x5xi32>) {
  // CHECK: graph.argmax %arg0 {axis = 1 : i64, keepdims = false}
  // CHECK: graph.cast {{.*}} -> tensor<2x3xi32>
  %am = tosa.argmax %x {axis = 1 : i32} : (tensor<2x5x3xf32>) -> tensor<2x3xi32>
  // CHECK: graph.slice %arg0, {{.*}} steps
  %rv = tosa.reverse %x {axis = 1 : i32} : (tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
  // CHECK: graph.expand
  // CHECK: graph.gather_elements %{{.*}} {axis = 1 : i64}
  %c4 = "tosa.const"() {values = dense<4> : tensor<2x4xi32>} : () -> tensor<2x4xi32>
  %ii = tosa.minimum %i, %c4 : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
  %c0 = "tosa.const"() {values = dense<0> : tensor<2x4xi32>} : () -> tensor<2x4xi32>
  %idx = tosa.maximum %ii, %c0 : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
  %g = tosa.gather %rv, %idx : (tensor<2x5x3xf32>, tensor<2x4xi32>) -> tensor<2x4x3xf32>
  // CHECK: graph.reduce_min
  %zero = "tosa.const"() {values = dense<0.0> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %pos = tosa.greater %x, %zero : (tensor<2x5x3xf32>, tensor<1x1x1xf32>) -> tensor<2x5x3xi1>
  %all = tosa.reduce_all %pos {axis = 1 : i32} : (tensor<2x5x3xi1>) -> tensor<2x1x3xi1>
  %any = tosa.reduce_any %pos {axis = 1 : i32} : (tensor<2x5x3xi1>) -> tensor<2x1x3xi1>
  %both = tosa.logical_or %all, %any : (tensor<2x1x3xi1>, tensor<2x1x3xi1>) -> tensor<2x1x3xi1>
  // CHECK: graph.and %arg2, %arg3
  %and = tosa.bitwise_and %a, %b : (tensor<2x5xi32>, tensor<2x5xi32>) -> tensor<2x5xi32>
  %not = tosa.bitwise_not %and : (tensor<2x5xi32>) -> tensor<2x5xi32>
  // CHECK: graph.not
  return %am, %rv, %g, %both, %not : tensor<2x3xi32>, tensor<2x5x3xf32>, tensor<2x4x3xf32>, tensor<2x1x3xi1>, tensor<2x5xi32>
}

// GRAPH-DAG: check: output_0: graph mode matches eager mode
// GRAPH-DAG: check: output_1: graph mode matches eager mode
// GRAPH-DAG: check: output_2: graph mode matches eager mode
// GRAPH-DAG: check: output_3: graph mode matches eager mode
// GRAPH-DAG: check: output_4: graph mode matches eager mode

// ORACLE-COUNT-10: matches upstream MLIR
// ORACLE-NOT: MISMATCH
