// Layer norm as TOSA producers spell it (the means as sums times 1/n, the
// variance of the centred input, rsqrt of it plus epsilon, the scale and
// bias as broadcast products and sums), over the last axis with a bias and
// over the last two without: imported as graph.layer_norm, and checked
// against upstream's lowering.
// RUN: strata import %s | FileCheck %s
// RUN: python3 %S/../../scripts/tosa-oracle %s | FileCheck %s --check-prefix=ORACLE

// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<2x4x6xf32>) -> (tensor<2x4x6xf32>, tensor<2x4x6xf32>) {
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  // CHECK: graph.layer_norm %arg0, %{{.*}}, %{{.*}} {axis = 2 : i64, epsilon = 9.99999974{{[0-9]*}}E-6 : f64}
  %sum = tosa.reduce_sum %x {axis = 2 : i32} : (tensor<2x4x6xf32>) -> tensor<2x4x1xf32>
  %inv = "tosa.const"() {values = dense<0.166666672> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %mean = tosa.mul %sum, %inv, %shift : (tensor<2x4x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x1xf32>
  %d = tosa.sub %x, %mean : (tensor<2x4x6xf32>, tensor<2x4x1xf32>) -> tensor<2x4x6xf32>
  %d2 = tosa.mul %d, %d, %shift : (tensor<2x4x6xf32>, tensor<2x4x6xf32>, tensor<1xi8>) -> tensor<2x4x6xf32>
  %ss = tosa.reduce_sum %d2 {axis = 2 : i32} : (tensor<2x4x6xf32>) -> tensor<2x4x1xf32>
  %var = tosa.mul %ss, %inv, %shift : (tensor<2x4x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x1xf32>
  %eps = "tosa.const"() {values = dense<1.0e-5> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %ve = tosa.add %var, %eps : (tensor<2x4x1xf32>, tensor<1x1x1xf32>) -> tensor<2x4x1xf32>
  %r = tosa.rsqrt %ve : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %n = tosa.mul %d, %r, %shift : (tensor<2x4x6xf32>, tensor<2x4x1xf32>, tensor<1xi8>) -> tensor<2x4x6xf32>
  %w = "tosa.const"() {values = dense<[[[1.0, 0.5, 2.0, -1.0, 0.25, 1.5]]]> : tensor<1x1x6xf32>} : () -> tensor<1x1x6xf32>
  %b = "tosa.const"() {values = dense<[[[0.1, 0.2, 0.3, 0.4, 0.5, 0.6]]]> : tensor<1x1x6xf32>} : () -> tensor<1x1x6xf32>
  %y = tosa.mul %n, %w, %shift : (tensor<2x4x6xf32>, tensor<1x1x6xf32>, tensor<1xi8>) -> tensor<2x4x6xf32>
  %out = tosa.add %y, %b : (tensor<2x4x6xf32>, tensor<1x1x6xf32>) -> tensor<2x4x6xf32>
  // CHECK: graph.layer_norm %arg0, %{{.*}} {axis = 1 : i64, epsilon = 1.000000e-03 : f64}
  %s1 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<2x4x6xf32>) -> tensor<2x1x6xf32>
  %s12 = tosa.reduce_sum %s1 {axis = 2 : i32} : (tensor<2x1x6xf32>) -> tensor<2x1x1xf32>
  %inv24 = "tosa.const"() {values = dense<0.0416666679> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %mean2 = tosa.mul %s12, %inv24, %shift : (tensor<2x1x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x1x1xf32>
  %e = tosa.sub %x, %mean2 : (tensor<2x4x6xf32>, tensor<2x1x1xf32>) -> tensor<2x4x6xf32>
  %e2 = tosa.mul %e, %e, %shift : (tensor<2x4x6xf32>, tensor<2x4x6xf32>, tensor<1xi8>) -> tensor<2x4x6xf32>
  %t1 = tosa.reduce_sum %e2 {axis = 1 : i32} : (tensor<2x4x6xf32>) -> tensor<2x1x6xf32>
  %t12 = tosa.reduce_sum %t1 {axis = 2 : i32} : (tensor<2x1x6xf32>) -> tensor<2x1x1xf32>
  %var2 = tosa.mul %t12, %inv24, %shift : (tensor<2x1x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x1x1xf32>
  %eps2 = "tosa.const"() {values = dense<1.0e-3> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %ve2 = tosa.add %eps2, %var2 : (tensor<1x1x1xf32>, tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
  %r2 = tosa.rsqrt %ve2 : (tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
  %n2 = tosa.mul %r2, %e, %shift : (tensor<2x1x1xf32>, tensor<2x4x6xf32>, tensor<1xi8>) -> tensor<2x4x6xf32>
  %w2 = "tosa.const"() {values = dense<2.0> : tensor<1x4x6xf32>} : () -> tensor<1x4x6xf32>
  %out2 = tosa.mul %w2, %n2, %shift : (tensor<1x4x6xf32>, tensor<2x4x6xf32>, tensor<1xi8>) -> tensor<2x4x6xf32>
  // CHECK-NOT: graph.rsqrt
  return %out, %out2 : tensor<2x4x6xf32>, tensor<2x4x6xf32>
}

// ORACLE-COUNT-4: matches upstream MLIR
// ORACLE-NOT: MISMATCH
