// The ops TOSA has no op for, spelled out as producers write them,
// imported as the one graph op: softmax with and without the max
// subtraction, the exact GELU as (x * 0.5) * (1 + erf(x * 1/sqrt 2)) and
// as (x * (1 + erf(...))) * 0.5. A near miss (the wrong constant) stays
// spelled out. All checked against upstream's lowering.
// RUN: strata import %s | FileCheck %s
// RUN: python3 %S/../../scripts/tosa-oracle %s | FileCheck %s --check-prefix=ORACLE

// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<2x5xf32>) -> (tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>) {
  // CHECK: graph.softmax %arg0 {axis = 1 : i64}
  %m = tosa.reduce_max %x {axis = 1 : i32} : (tensor<2x5xf32>) -> tensor<2x1xf32>
  %d = tosa.sub %x, %m : (tensor<2x5xf32>, tensor<2x1xf32>) -> tensor<2x5xf32>
  %e = tosa.exp %d : (tensor<2x5xf32>) -> tensor<2x5xf32>
  %s = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<2x5xf32>) -> tensor<2x1xf32>
  %r = tosa.reciprocal %s : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %sm = tosa.mul %r, %e, %shift : (tensor<2x1xf32>, tensor<2x5xf32>, tensor<1xi8>) -> tensor<2x5xf32>
  // CHECK: graph.softmax %arg0 {axis = 0 : i64}
  %e0 = tosa.exp %x : (tensor<2x5xf32>) -> tensor<2x5xf32>
  %s0 = tosa.reduce_sum %e0 {axis = 0 : i32} : (tensor<2x5xf32>) -> tensor<1x5xf32>
  %r0 = tosa.reciprocal %s0 : (tensor<1x5xf32>) -> tensor<1x5xf32>
  %sm0 = tosa.mul %e0, %r0, %shift : (tensor<2x5xf32>, tensor<1x5xf32>, tensor<1xi8>) -> tensor<2x5xf32>
  // CHECK: graph.gelu %arg0
  %k = "tosa.const"() {values = dense<0.70710678> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %half = "tosa.const"() {values = dense<0.5> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %one = "tosa.const"() {values = dense<1.0> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %xk = tosa.mul %x, %k, %shift : (tensor<2x5xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x5xf32>
  %erf = tosa.erf %xk : (tensor<2x5xf32>) -> tensor<2x5xf32>
  %p = tosa.add %one, %erf : (tensor<1x1xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
  %hx = tosa.mul %half, %x, %shift : (tensor<1x1xf32>, tensor<2x5xf32>, tensor<1xi8>) -> tensor<2x5xf32>
  %g1 = tosa.mul %hx, %p, %shift : (tensor<2x5xf32>, tensor<2x5xf32>, tensor<1xi8>) -> tensor<2x5xf32>
  // CHECK: graph.gelu %arg0
  %xp = tosa.mul %x, %p, %shift : (tensor<2x5xf32>, tensor<2x5xf32>, tensor<1xi8>) -> tensor<2x5xf32>
  %g2 = tosa.mul %xp, %half, %shift : (tensor<2x5xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x5xf32>
  // A scale of 0.6 is not GELU's: it stays spelled out.
  // CHECK: graph.erf
  %w = "tosa.const"() {values = dense<0.6> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %xw = tosa.mul %x, %w, %shift : (tensor<2x5xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x5xf32>
  %erf3 = tosa.erf %xw : (tensor<2x5xf32>) -> tensor<2x5xf32>
  %p3 = tosa.add %one, %erf3 : (tensor<1x1xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
  %g3 = tosa.mul %hx, %p3, %shift : (tensor<2x5xf32>, tensor<2x5xf32>, tensor<1xi8>) -> tensor<2x5xf32>
  // CHECK-NOT: graph.reduce_max
  return %sm, %sm0, %g1, %g2, %g3 : tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>
}

// ORACLE-COUNT-10: matches upstream MLIR
// ORACLE-NOT: MISMATCH
