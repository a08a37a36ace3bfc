// tosa.cond_if: its branches' arguments are its inputs; imported as
// graph.if, whose regions read the values they use directly, each
// tosa.yield a graph.yield. Both branches taken (seed 0 sums x above zero,
// seed 3 below), checked in eager and
// hybrid mode against upstream's lowering (tosa-to-scf); graph mode does
// not compile graph.if, hybrid mode runs it in an eager island.
// RUN: strata import %s | FileCheck %s
// RUN: python3 %S/../../scripts/tosa-oracle %s --modes eager,hybrid | FileCheck %s --check-prefix=ORACLE
// RUN: python3 %S/../../scripts/tosa-oracle %s --modes eager,hybrid --seed 3 | FileCheck %s --check-prefix=ORACLE

// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %zero = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %s = tosa.reduce_sum %x {axis = 0 : i32} : (tensor<4xf32>) -> tensor<1xf32>
  %c1 = tosa.greater %s, %zero : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xi1>
  %shape = tosa.const_shape {values = dense<> : tensor<0xindex>} : () -> !tosa.shape<0>
  %c = tosa.reshape %c1, %shape : (tensor<1xi1>, !tosa.shape<0>) -> tensor<i1>
  // CHECK: %[[R:.*]] = graph.if %{{.*}} : tensor<i1> -> (tensor<4xf32>) {
  // CHECK:   %[[E:.*]] = graph.exp %arg0
  // CHECK:   graph.add %[[E]], %arg1
  // CHECK:   graph.yield
  // CHECK: } else {
  // CHECK:   graph.neg %arg1
  // CHECK:   graph.yield
  // CHECK: }
  %r = "tosa.cond_if"(%c, %x, %y) ({
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %e = "tosa.exp"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    %t = "tosa.add"(%e, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "tosa.yield"(%t) : (tensor<4xf32>) -> ()
  }, {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %n = "tosa.negate"(%b, %zero, %zero) : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>
    "tosa.yield"(%n) : (tensor<4xf32>) -> ()
  }) : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK: return %[[R]]
  return %r : tensor<4xf32>
}

// ORACLE: eager: output_0: matches upstream MLIR
// ORACLE: hybrid: output_0: matches upstream MLIR
