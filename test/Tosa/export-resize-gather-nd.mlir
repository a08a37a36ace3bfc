// REQUIRES: strata-opt
// graph.resize and graph.gather_nd exported as TOSA: the resizes of
// DeepLab (bilinear, half-pixel, from a 1x1 map and by sizes), of
// Faster-RCNN's FPN (nearest, asymmetric, floor, by a scale of 2) and an
// align-corners one, all NCHW (transposed around tosa.resize's NHWC);
// gather_nd with one and two indexed dims, negative indices and batch
// dims (a row-major offset into tosa.gather's K). Upstream's validator
// takes the result, its lowering matches strata's on the TOSA and on this
// module, and the TOSA imports back.
// RUN: strata-translate --export=tosa %s -o %t.tosa.mlir
// RUN: FileCheck %s --input-file=%t.tosa.mlir
// RUN: mlir-opt --tosa-attach-target=level=none --tosa-validate %t.tosa.mlir -o /dev/null
// RUN: python3 %S/../../scripts/tosa-oracle %t.tosa.mlir | FileCheck %s --check-prefix=ORACLE
// The exporter itself: upstream on the TOSA against strata on this module.
// RUN: python3 %S/../../scripts/tosa-oracle %t.tosa.mlir --strata-model %s | FileCheck %s --check-prefix=ORACLE
// RUN: strata import %t.tosa.mlir | FileCheck %s --check-prefix=BACK
// A nearest resize at a scale that is not exactly a fraction (an f32 third)
// would round differently in TOSA: refused.
// RUN: not strata-translate --export=tosa %S/Inputs/export-resize-inexact.mlir 2>&1 | FileCheck %s --check-prefix=INEXACT
// INEXACT: export-resize-inexact.mlir:3:8: error: 'graph.resize': a nearest resize at scales [0.333333343, 0.333333343], not exactly fractions, has no exact TOSA form

// CHECK-LABEL: func.func @main
// CHECK-COUNT-4: tosa.resize
// CHECK-COUNT-3: tosa.gather
// BACK-COUNT-4: graph.resize
// BACK-COUNT-3: graph.gather_elements
// ORACLE-COUNT-14: matches upstream MLIR
// ORACLE-NOT: MISMATCH
func.func @main(%pool: tensor<1x3x1x1xf32>, %x: tensor<1x2x4x5xf32>, %d: tensor<3x4x2xf32>, %b: tensor<2x3x4xf32>) -> (tensor<1x3x6x7xf32>, tensor<1x2x8x10xf32>, tensor<1x2x8x10xf32>, tensor<1x2x7x9xf32>, tensor<2x2xf32>, tensor<2x4x2xf32>, tensor<2xf32>) {
  %s1 = graph.constant dense<[1, 3, 6, 7]> : tensor<4xi64>
  %up = graph.resize %pool sizes %s1 {mode = "linear", coordinate_transformation_mode = "half_pixel"} : (tensor<1x3x1x1xf32>, tensor<4xi64>) -> tensor<1x3x6x7xf32>
  %s2 = graph.constant dense<[1, 2, 8, 10]> : tensor<4xi64>
  %bil = graph.resize %x sizes %s2 {mode = "linear", coordinate_transformation_mode = "half_pixel"} : (tensor<1x2x4x5xf32>, tensor<4xi64>) -> tensor<1x2x8x10xf32>
  %sc = graph.constant dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>
  %near = graph.resize %x scales %sc {mode = "nearest", coordinate_transformation_mode = "asymmetric", nearest_mode = "floor"} : (tensor<1x2x4x5xf32>, tensor<4xf32>) -> tensor<1x2x8x10xf32>
  %s3 = graph.constant dense<[1, 2, 7, 9]> : tensor<4xi64>
  %ac = graph.resize %x sizes %s3 {mode = "linear", coordinate_transformation_mode = "align_corners"} : (tensor<1x2x4x5xf32>, tensor<4xi64>) -> tensor<1x2x7x9xf32>
  %i1 = graph.constant dense<[[0, 1], [-1, 3]]> : tensor<2x2xi64>
  %g1 = graph.gather_nd %d [%i1] : (tensor<3x4x2xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  %i2 = graph.constant dense<[[2], [-3]]> : tensor<2x1xi64>
  %g2 = graph.gather_nd %d [%i2] : (tensor<3x4x2xf32>, tensor<2x1xi64>) -> tensor<2x4x2xf32>
  %i3 = graph.constant dense<[[1, 3], [0, -1]]> : tensor<2x2xi64>
  %g3 = graph.gather_nd %b [%i3] {batch_dims = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x2xi64>) -> tensor<2xf32>
  return %up, %bil, %near, %ac, %g1, %g2, %g3 : tensor<1x3x6x7xf32>, tensor<1x2x8x10xf32>, tensor<1x2x8x10xf32>, tensor<1x2x7x9xf32>, tensor<2x2xf32>, tensor<2x4x2xf32>, tensor<2xf32>
}
