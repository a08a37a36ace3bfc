// A TOSA function of elementwise ops, a matmul and shape ops, imported
// into the graph dialect (`strata import` detects TOSA by its ops), then
// run in graph mode and checked against eager mode on made-up inputs.
// RUN: strata import %s | FileCheck %s
// RUN: strata run %s --mode graph --check | FileCheck %s --check-prefix=GRAPH
// Both modes against upstream MLIR's own lowering of the module (mlir-runner).
// RUN: python3 %S/../../scripts/tosa-oracle %s | FileCheck %s --check-prefix=ORACLE
// The round trip TOSA -> graph -> TOSA -> graph -> TOSA is stable.
// RUN: strata import %s -o %t.g1.mlir
// RUN: strata-translate --export=tosa %t.g1.mlir -o %t.t1.mlir
// RUN: strata import %t.t1.mlir -o %t.g2.mlir
// RUN: strata-translate --export=tosa %t.g2.mlir -o %t.t2.mlir
// RUN: diff %t.t1.mlir %t.t2.mlir

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%arg0: tensor<2x4xf32>, %arg1: tensor<2x4xf32>) -> (tensor<2x3xf32>, tensor<4x2xf32>, tensor<2x4xi1>)
func.func @main(%x: tensor<2x4xf32>, %y: tensor<2x4xf32>) -> (tensor<2x3xf32>, tensor<4x2xf32>, tensor<2x4xi1>) {
  %w = "tosa.const"() {values = dense<[[[0.5, -1.0, 0.25], [1.0, 0.0, -0.5], [0.0, 2.0, 1.0], [-1.5, 0.5, 0.0]]]> : tensor<1x4x3xf32>} : () -> tensor<1x4x3xf32>
  %b = "tosa.const"() {values = dense<[[0.1, -0.2, 0.3]]> : tensor<1x3xf32>} : () -> tensor<1x3xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  // The shape operand becomes an i64 constant.
  // CHECK: %[[S3:.*]] = graph.constant dense<[1, 2, 4]> : tensor<3xi64>
  // CHECK: graph.reshape %arg0, %[[S3]]
  %s3 = tosa.const_shape {values = dense<[1, 2, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %x3 = tosa.reshape %x, %s3 : (tensor<2x4xf32>, !tosa.shape<3>) -> tensor<1x2x4xf32>
  // CHECK: graph.matmul
  %m = tosa.matmul %x3, %w, %zp, %zp : (tensor<1x2x4xf32>, tensor<1x4x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x3xf32>
  %s2 = tosa.const_shape {values = dense<[2, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %m2 = tosa.reshape %m, %s2 : (tensor<1x2x3xf32>, !tosa.shape<2>) -> tensor<2x3xf32>
  // CHECK: graph.add
  %a = tosa.add %m2, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  // clamp's bounds become 0-D constants of the element type.
  // CHECK: %[[LO:.*]] = graph.constant dense<0.000000e+00> : tensor<f32>
  // CHECK: %[[HI:.*]] = graph.constant dense<6.000000e+00> : tensor<f32>
  // CHECK: graph.clip %{{.*}} min %[[LO]] max %[[HI]]
  %r = tosa.clamp %a {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.tanh
  %t = tosa.tanh %r : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // A multiplication with a zero shift, a negation with zero points.
  // CHECK: graph.mul %arg0, %arg1
  %p = tosa.mul %x, %y, %shift : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<1xi8>) -> tensor<2x4xf32>
  // CHECK: graph.neg
  %n = tosa.negate %p, %zp, %zp : (tensor<2x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4xf32>
  %e = tosa.exp %n : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %s = tosa.sigmoid %e : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %mx = tosa.maximum %s, %y : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  // CHECK: graph.transpose %{{.*}} {perm = array<i64: 1, 0>}
  %tr = tosa.transpose %mx {perms = array<i32: 1, 0>} : (tensor<2x4xf32>) -> tensor<4x2xf32>
  // CHECK: graph.greater_equal
  %ge = tosa.greater_equal %x, %y : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xi1>
  // CHECK: return
  return %t, %tr, %ge : tensor<2x3xf32>, tensor<4x2xf32>, tensor<2x4xi1>
}

// GRAPH-DAG: check: output_0: graph mode matches eager mode
// GRAPH-DAG: check: output_1: graph mode matches eager mode
// GRAPH-DAG: check: output_2: graph mode matches eager mode

// ORACLE-COUNT-6: matches upstream MLIR
// ORACLE-NOT: MISMATCH
