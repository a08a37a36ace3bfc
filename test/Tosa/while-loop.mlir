// tosa.while_loop as graph.loop without a trip limit: the condition region
// computed on the inputs before the loop and on the body's results at the
// end of each iteration. Checked in eager and hybrid mode against
// upstream's lowering (tosa-to-scf).
// RUN: strata import %s | FileCheck %s
// RUN: python3 %S/../../scripts/tosa-oracle %s --modes eager,hybrid | FileCheck %s --check-prefix=ORACLE

// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<4xf32>, %acc0: tensor<4xf32>) -> tensor<4xf32> {
  %i0 = "tosa.const"() {values = dense<0> : tensor<i32>} : () -> tensor<i32>
  // CHECK: %[[C0:.*]] = graph.greater
  // CHECK: graph.loop(%{{.*}}, %[[C0]], %{{.*}}, %arg1, %arg0)
  // CHECK: ^bb0(%{{.*}}: tensor<i64>, %{{.*}}: tensor<i1>, %[[I:.*]]: tensor<i32>, %[[A:.*]]: tensor<4xf32>, %[[X:.*]]: tensor<4xf32>):
  // CHECK:   graph.add %[[I]]
  // CHECK:   graph.greater
  // CHECK:   graph.yield
  %r:3 = "tosa.while_loop"(%i0, %acc0, %x) ({
  ^bb0(%i: tensor<i32>, %a: tensor<4xf32>, %xx: tensor<4xf32>):
    %lim = "tosa.const"() {values = dense<5> : tensor<i32>} : () -> tensor<i32>
    %c = "tosa.greater"(%lim, %i) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tosa.yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %a: tensor<4xf32>, %xx: tensor<4xf32>):
    %one = "tosa.const"() {values = dense<1> : tensor<i32>} : () -> tensor<i32>
    %i2 = "tosa.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %half = "tosa.const"() {values = dense<0.5> : tensor<1xf32>} : () -> tensor<1xf32>
    %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
    %h = "tosa.mul"(%a, %half, %shift) : (tensor<4xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<4xf32>
    %a2 = "tosa.add"(%h, %xx) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "tosa.yield"(%i2, %a2, %xx) : (tensor<i32>, tensor<4xf32>, tensor<4xf32>) -> ()
  }) : (tensor<i32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>, tensor<4xf32>)
  return %r#1 : tensor<4xf32>
}

// ORACLE: eager: output_0: matches upstream MLIR
// ORACLE: hybrid: output_0: matches upstream MLIR
