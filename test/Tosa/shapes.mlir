// `!tosa.shape` arithmetic is computed at import: every shape is known.
// (Upstream's TOSA lowering does not take `tosa.dim`, so no oracle here.)
// RUN: strata import %s | FileCheck %s
// RUN: strata run %s --mode graph --check | FileCheck %s --check-prefix=GRAPH

// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<2x5x3xf32>) -> (tensor<2x15xf32>, tensor<10x3xf32>) {
  // [2, 5 * 3] from the input's dims.
  // CHECK: %[[S:.*]] = graph.constant dense<[2, 15]> : tensor<2xi64>
  // CHECK: graph.reshape %arg0, %[[S]]
  %d0 = tosa.dim %x {axis = 0 : i32} : (tensor<2x5x3xf32>) -> !tosa.shape<1>
  %d1 = tosa.dim %x {axis = 1 : i32} : (tensor<2x5x3xf32>) -> !tosa.shape<1>
  %d2 = tosa.dim %x {axis = 2 : i32} : (tensor<2x5x3xf32>) -> !tosa.shape<1>
  %d12 = tosa.mul_shape %d1, %d2 : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  %s = tosa.concat_shape %d0, %d12 : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<2>
  %flat = tosa.reshape %x, %s : (tensor<2x5x3xf32>, !tosa.shape<2>) -> tensor<2x15xf32>
  // [10, 3]: dims 1 and 2 of [1, 10, 3, 7], cut by slice_shape.
  // CHECK: %[[T:.*]] = graph.constant dense<[10, 3]> : tensor<2xi64>
  // CHECK: graph.reshape %arg0, %[[T]]
  %wide = tosa.const_shape {values = dense<[1, 10, 3, 7]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %start = "tosa.const"() {values = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %size = "tosa.const"() {values = dense<2> : tensor<1xi32>} : () -> tensor<1xi32>
  %t = tosa.slice_shape %wide, %start, %size : (!tosa.shape<4>, tensor<1xi32>, tensor<1xi32>) -> !tosa.shape<2>
  %rows = tosa.reshape %x, %t : (tensor<2x5x3xf32>, !tosa.shape<2>) -> tensor<10x3xf32>
  return %flat, %rows : tensor<2x15xf32>, tensor<10x3xf32>
}

// GRAPH: check: output_0: graph mode matches eager mode
// GRAPH: check: output_1: graph mode matches eager mode
