// tosa.resize as graph.resize: bilinear and nearest, half-pixel and
// asymmetric sampling, nearest rounding half up and PyTorch's floor (an
// offset of -n/2), align corners, a scale that is not the sizes' ratio,
// and integers.
// All checked against upstream's lowering; an offset that is neither
// sampling is refused at the op.
// RUN: strata import %s | FileCheck %s
// RUN: python3 %S/../../scripts/tosa-oracle %s | FileCheck %s --check-prefix=ORACLE
// RUN: not strata import %S/Inputs/resize-offset.mlir 2>&1 | FileCheck %s --check-prefix=OFFSET
// A nearest resize at 2/3, which graph.resize's f32 scale would round the
// other way at the exact halves, is refused too.
// RUN: not strata import %S/Inputs/resize-inexact.mlir 2>&1 | FileCheck %s --check-prefix=INEXACT

// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<1x4x5x2xf32>, %i: tensor<1x3x3x1xi32>) -> (tensor<1x8x10x2xf32>, tensor<1x8x10x2xf32>, tensor<1x8x10x2xf32>, tensor<1x2x3x2xf32>, tensor<1x9x5x2xf32>, tensor<1x6x6x1xi32>, tensor<1x4x7x2xf32>) {
  // CHECK: graph.resize %arg0 sizes %{{.*}} {mode = "linear", nearest_mode = "round_prefer_ceil"}
  %s2 = tosa.const_shape {values = dense<[4, 2, 4, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %half = tosa.const_shape {values = dense<[-1, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b1 = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r0 = tosa.resize %x, %s2, %half, %b1 {mode = BILINEAR} : (tensor<1x4x5x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8x10x2xf32>
  // CHECK: graph.resize %arg0 sizes %{{.*}} {nearest_mode = "round_prefer_ceil"}
  %r1 = tosa.resize %x, %s2, %half, %b1 {mode = NEAREST_NEIGHBOR} : (tensor<1x4x5x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8x10x2xf32>
  // CHECK: graph.resize %arg0 sizes %{{.*}} {coordinate_transformation_mode = "asymmetric", nearest_mode = "floor"}
  %s21 = tosa.const_shape {values = dense<[2, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %floor = tosa.const_shape {values = dense<[-1, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b0 = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r2 = tosa.resize %x, %s21, %floor, %b0 {mode = NEAREST_NEIGHBOR} : (tensor<1x4x5x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8x10x2xf32>
  // Down by 2 (y) and by 5/3 (x), asymmetric.
  // CHECK: graph.resize %arg0 sizes %{{.*}} {coordinate_transformation_mode = "asymmetric", mode = "linear", nearest_mode = "round_prefer_ceil"}
  %down = tosa.const_shape {values = dense<[1, 2, 3, 5]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %zero = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %bd = tosa.const_shape {values = dense<[-1, -2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r3 = tosa.resize %x, %down, %zero, %bd {mode = BILINEAR} : (tensor<1x4x5x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x2x3x2xf32>
  // 7/3 along y, from 4 to 9 rows: the scale is not the sizes' ratio.
  // CHECK: graph.resize %arg0 scales %{{.*}} {coordinate_transformation_mode = "asymmetric", mode = "linear", nearest_mode = "round_prefer_ceil"}
  %odd = tosa.const_shape {values = dense<[7, 3, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %b30 = tosa.const_shape {values = dense<[3, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r4 = tosa.resize %x, %odd, %zero, %b30 {mode = BILINEAR} : (tensor<1x4x5x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x9x5x2xf32>
  // 3/2 along x, from 5 to 7 columns: (7 - 1) / (5 - 1), align-corners.
  // CHECK: graph.resize %arg0 sizes %{{.*}} {coordinate_transformation_mode = "align_corners", mode = "linear", nearest_mode = "round_prefer_ceil"}
  %corner = tosa.const_shape {values = dense<[1, 1, 3, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %r6 = tosa.resize %x, %corner, %zero, %b0 {mode = BILINEAR} : (tensor<1x4x5x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x4x7x2xf32>
  // CHECK: graph.resize %arg1 sizes
  %r5 = tosa.resize %i, %s21, %floor, %b0 {mode = NEAREST_NEIGHBOR} : (tensor<1x3x3x1xi32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x6x6x1xi32>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6 : tensor<1x8x10x2xf32>, tensor<1x8x10x2xf32>, tensor<1x8x10x2xf32>, tensor<1x2x3x2xf32>, tensor<1x9x5x2xf32>, tensor<1x6x6x1xi32>, tensor<1x4x7x2xf32>
}

// ORACLE-COUNT-14: matches upstream MLIR
// ORACLE-NOT: MISMATCH

// OFFSET: resize-offset.mlir:5:8: error: 'tosa.resize': an offset of [1, 0] at a scale of 2/1 by 2/1 is neither asymmetric nor half-pixel sampling: it has no graph form
// INEXACT: resize-inexact.mlir:5:8: error: 'tosa.resize': a nearest resize at a scale of 2/3 by 1/1, which an f32 does not hold exactly and which is not its sizes' ratio, has no exact graph form
