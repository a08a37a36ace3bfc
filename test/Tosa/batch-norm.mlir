// Inference batch norm and the tanh GELU, spelled out as producers write
// them, imported as the one graph op: batch norm as torch-mlir writes it
// (((x - mean) * rsqrt(var + eps)) * scale + bias) and as strata's own
// exporter does ((x - mean) * (scale * rsqrt(var + eps)) + bias), over
// axis 1 with [1, C, 1, 1] parameters; the tanh GELU with x³
// as products and as a power. Near misses stay spelled out: parameters
// that vary along another axis, and a GELU with the wrong constant. All
// checked against upstream's lowering.
// RUN: strata import %s | FileCheck %s
// RUN: python3 %S/../../scripts/tosa-oracle %s | FileCheck %s --check-prefix=ORACLE

// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<2x3x4x4xf32>, %v: tensor<2x6xf32>) -> (tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<2x6xf32>, tensor<2x6xf32>, tensor<2x6xf32>) {
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %mean = "tosa.const"() {values = dense<[[[[0.5]], [[-1.0]], [[2.0]]]]> : tensor<1x3x1x1xf32>} : () -> tensor<1x3x1x1xf32>
  %var = "tosa.const"() {values = dense<[[[[1.5]], [[0.25]], [[4.0]]]]> : tensor<1x3x1x1xf32>} : () -> tensor<1x3x1x1xf32>
  %scale = "tosa.const"() {values = dense<[[[[2.0]], [[0.5]], [[-1.0]]]]> : tensor<1x3x1x1xf32>} : () -> tensor<1x3x1x1xf32>
  %bias = "tosa.const"() {values = dense<[[[[0.1]], [[0.2]], [[0.3]]]]> : tensor<1x3x1x1xf32>} : () -> tensor<1x3x1x1xf32>
  %eps = "tosa.const"() {values = dense<1.0e-5> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  // CHECK: graph.batch_norm %arg0, {{.*}} {epsilon = 9.99{{[0-9]*}}E-6 : f64}
  %d = tosa.sub %x, %mean : (tensor<2x3x4x4xf32>, tensor<1x3x1x1xf32>) -> tensor<2x3x4x4xf32>
  %ve = tosa.add %var, %eps : (tensor<1x3x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x3x1x1xf32>
  %r = tosa.rsqrt %ve : (tensor<1x3x1x1xf32>) -> tensor<1x3x1x1xf32>
  %n = tosa.mul %d, %r, %shift : (tensor<2x3x4x4xf32>, tensor<1x3x1x1xf32>, tensor<1xi8>) -> tensor<2x3x4x4xf32>
  %ns = tosa.mul %n, %scale, %shift : (tensor<2x3x4x4xf32>, tensor<1x3x1x1xf32>, tensor<1xi8>) -> tensor<2x3x4x4xf32>
  %bn1 = tosa.add %ns, %bias : (tensor<2x3x4x4xf32>, tensor<1x3x1x1xf32>) -> tensor<2x3x4x4xf32>
  // CHECK: graph.batch_norm %arg0
  %k = tosa.mul %scale, %r, %shift : (tensor<1x3x1x1xf32>, tensor<1x3x1x1xf32>, tensor<1xi8>) -> tensor<1x3x1x1xf32>
  %d2 = tosa.sub %x, %mean : (tensor<2x3x4x4xf32>, tensor<1x3x1x1xf32>) -> tensor<2x3x4x4xf32>
  %n2 = tosa.mul %d2, %k, %shift : (tensor<2x3x4x4xf32>, tensor<1x3x1x1xf32>, tensor<1xi8>) -> tensor<2x3x4x4xf32>
  %bn2 = tosa.add %bias, %n2 : (tensor<1x3x1x1xf32>, tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
  // A mean that varies along the last axis is not per channel.
  // CHECK: graph.sub %arg0
  %meanw = "tosa.const"() {values = dense<[[[[0.5, 1.0, 1.5, 2.0]]]]> : tensor<1x1x1x4xf32>} : () -> tensor<1x1x1x4xf32>
  %d3 = tosa.sub %x, %meanw : (tensor<2x3x4x4xf32>, tensor<1x1x1x4xf32>) -> tensor<2x3x4x4xf32>
  %n3 = tosa.mul %d3, %k, %shift : (tensor<2x3x4x4xf32>, tensor<1x3x1x1xf32>, tensor<1xi8>) -> tensor<2x3x4x4xf32>
  %bn3 = tosa.add %n3, %bias : (tensor<2x3x4x4xf32>, tensor<1x3x1x1xf32>) -> tensor<2x3x4x4xf32>

  %half = "tosa.const"() {values = dense<0.5> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %one = "tosa.const"() {values = dense<1.0> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %c = "tosa.const"() {values = dense<0.797884583> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %a = "tosa.const"() {values = dense<0.044715> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %three = "tosa.const"() {values = dense<3.0> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  // CHECK: graph.gelu %arg1 {approximate = "tanh"}
  %v2 = tosa.mul %v, %v, %shift : (tensor<2x6xf32>, tensor<2x6xf32>, tensor<1xi8>) -> tensor<2x6xf32>
  %v3 = tosa.mul %v2, %v, %shift : (tensor<2x6xf32>, tensor<2x6xf32>, tensor<1xi8>) -> tensor<2x6xf32>
  %av3 = tosa.mul %a, %v3, %shift : (tensor<1x1xf32>, tensor<2x6xf32>, tensor<1xi8>) -> tensor<2x6xf32>
  %s = tosa.add %v, %av3 : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xf32>
  %cs = tosa.mul %c, %s, %shift : (tensor<1x1xf32>, tensor<2x6xf32>, tensor<1xi8>) -> tensor<2x6xf32>
  %t = tosa.tanh %cs : (tensor<2x6xf32>) -> tensor<2x6xf32>
  %p = tosa.add %one, %t : (tensor<1x1xf32>, tensor<2x6xf32>) -> tensor<2x6xf32>
  %hv = tosa.mul %half, %v, %shift : (tensor<1x1xf32>, tensor<2x6xf32>, tensor<1xi8>) -> tensor<2x6xf32>
  %g1 = tosa.mul %hv, %p, %shift : (tensor<2x6xf32>, tensor<2x6xf32>, tensor<1xi8>) -> tensor<2x6xf32>
  // CHECK: graph.gelu %arg1 {approximate = "tanh"}
  %pv = tosa.pow %v, %three : (tensor<2x6xf32>, tensor<1x1xf32>) -> tensor<2x6xf32>
  %apv = tosa.mul %pv, %a, %shift : (tensor<2x6xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x6xf32>
  %s2 = tosa.add %apv, %v : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xf32>
  %cs2 = tosa.mul %s2, %c, %shift : (tensor<2x6xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x6xf32>
  %t2 = tosa.tanh %cs2 : (tensor<2x6xf32>) -> tensor<2x6xf32>
  %p2 = tosa.add %t2, %one : (tensor<2x6xf32>, tensor<1x1xf32>) -> tensor<2x6xf32>
  %vp = tosa.mul %v, %p2, %shift : (tensor<2x6xf32>, tensor<2x6xf32>, tensor<1xi8>) -> tensor<2x6xf32>
  %g2 = tosa.mul %vp, %half, %shift : (tensor<2x6xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x6xf32>
  // 0.05 is not the GELU's cube coefficient: it stays spelled out.
  // CHECK: graph.tanh
  %w = "tosa.const"() {values = dense<0.05> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %wv3 = tosa.mul %w, %v3, %shift : (tensor<1x1xf32>, tensor<2x6xf32>, tensor<1xi8>) -> tensor<2x6xf32>
  %s3 = tosa.add %v, %wv3 : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xf32>
  %cs3 = tosa.mul %c, %s3, %shift : (tensor<1x1xf32>, tensor<2x6xf32>, tensor<1xi8>) -> tensor<2x6xf32>
  %t3 = tosa.tanh %cs3 : (tensor<2x6xf32>) -> tensor<2x6xf32>
  %p3 = tosa.add %one, %t3 : (tensor<1x1xf32>, tensor<2x6xf32>) -> tensor<2x6xf32>
  %g3 = tosa.mul %hv, %p3, %shift : (tensor<2x6xf32>, tensor<2x6xf32>, tensor<1xi8>) -> tensor<2x6xf32>
  return %bn1, %bn2, %bn3, %g1, %g2, %g3 : tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<2x6xf32>, tensor<2x6xf32>, tensor<2x6xf32>
}

// ORACLE-COUNT-12: matches upstream MLIR
// ORACLE-NOT: MISMATCH
