// resize: one map over the result that gathers the input (reads it whole)
// and, for each resized axis, reads per tap a constant table of input
// positions (i32) and one of weights (f32) at the output coordinate of
// that axis: the taps the interpreter uses (dialects' resize_taps),
// computed at compile time. Nearest copies the element at one position per
// axis; linear and cubic sum the weighted taps, one axis inside the other.
// A position of -1 is outside the crop region: the extrapolation value.
// REQUIRES: strata-opt
// RUN: strata-opt --convert-graph-to-tensor --split-input-file --verify-diagnostics %s | FileCheck %s
// RUN: strata-opt --convert-graph-to-tensor --split-input-file --verify-diagnostics %s | strata-opt --split-input-file | FileCheck %s

// Nearest, asymmetric, 2x2 -> 4x6: rows 0 0 1 1, columns 0 0 1 1 1 1
// (round_prefer_floor rounds 2/3 up). No arithmetic: integers too.
// CHECK-LABEL: func.func @nearest(
// CHECK-DAG: %[[ROWS:.*]] = arith.constant dense<[0, 0, 1, 1]> : tensor<4xi32>
// CHECK-DAG: %[[COLS:.*]] = arith.constant dense<[0, 0, 1, 1, 1, 1]> : tensor<6xi32>
// CHECK: tensor.map ins(%arg0, %[[ROWS]], %[[COLS]] : tensor<1x1x2x2xi32>, tensor<4xi32>, tensor<6xi32>) maps [#{{.*}}, #{{.*}}, #{{.*}}] gathered [0] {
// CHECK-NEXT: ^bb0(%[[X:.*]]: tensor<1x1x2x2xi32>, %[[R:.*]]: i32, %[[C:.*]]: i32):
// CHECK-NEXT: %[[RI:.*]] = arith.index_cast %[[R]] : i32 to index
// CHECK-NEXT: %[[CI:.*]] = arith.index_cast %[[C]] : i32 to index
// CHECK-NEXT: %[[N:.*]] = tensor.index 0 : index
// CHECK-NEXT: %[[K:.*]] = tensor.index 1 : index
// CHECK-NEXT: %[[E:.*]] = tensor.extract %[[X]][%[[N]], %[[K]], %[[RI]], %[[CI]]] : tensor<1x1x2x2xi32>
// CHECK-NEXT: tensor.yield %[[E]] : i32
// CHECK-NEXT: } : tensor<1x1x4x6xi32>
func.func @nearest(%x: tensor<1x1x2x2xi32>) -> tensor<1x1x4x6xi32> {
  %s = graph.constant dense<[1.0, 1.0, 2.0, 3.0]> : tensor<4xf32>
  %0 = graph.resize %x scales %s {coordinate_transformation_mode = "asymmetric"} : (tensor<1x1x2x2xi32>, tensor<4xf32>) -> tensor<1x1x4x6xi32>
  return %0 : tensor<1x1x4x6xi32>
}

// -----

// Linear, half_pixel, 4 -> 8 along the last axis only (the other axis has
// scale 1 and is read at the point's coordinate). Sources -0.25, 0.25,
// 0.75, ...: two taps, weights 1 - ratio and ratio, clamped at the edges.
// f16 computes in f32. The sizes are not a constant: with the stretch
// policy the static result type gives them.
// CHECK-LABEL: func.func @linear(
// CHECK-DAG: %[[P0:.*]] = arith.constant dense<[0, 0, 0, 1, 1, 2, 2, 3]> : tensor<8xi32>
// CHECK-DAG: %[[W0:.*]] = arith.constant dense<[2.500000e-01, 7.500000e-01, 2.500000e-01, 7.500000e-01, 2.500000e-01, 7.500000e-01, 2.500000e-01, 7.500000e-01]> : tensor<8xf32>
// CHECK-DAG: %[[P1:.*]] = arith.constant dense<[0, 1, 1, 2, 2, 3, 3, 3]> : tensor<8xi32>
// CHECK: tensor.map ins(%arg0, %[[P0]], %[[W0]], %[[P1]], %{{.*}} : tensor<3x4xf16>, tensor<8xi32>, tensor<8xf32>, tensor<8xi32>, tensor<8xf32>) maps [#[[NONE:map[0-9]*]], #[[D1:map[0-9]*]], #[[D1]], #[[D1]], #[[D1]]] gathered [0] {
// CHECK: %[[A:.*]] = tensor.extract
// CHECK: arith.extf %[[A]] : f16 to f32
// CHECK: arith.mulf
// CHECK: tensor.extract
// CHECK: arith.mulf
// CHECK: %[[S:.*]] = arith.addf
// CHECK: %[[T:.*]] = arith.truncf %[[S]] : f32 to f16
// CHECK: tensor.yield %[[T]] : f16
// CHECK: } : tensor<3x8xf16>
func.func @linear(%x: tensor<3x4xf16>, %z: tensor<2xi64>) -> tensor<3x8xf16> {
  %0 = graph.resize %x sizes %z {mode = "linear"} : (tensor<3x4xf16>, tensor<2xi64>) -> tensor<3x8xf16>
  return %0 : tensor<3x8xf16>
}

// -----

// tf_crop_and_resize: the region [0.5, 1.5] of 3 positions maps output 2
// to source 3, outside the input (position -1): the extrapolation value.
// The sources are whole numbers, so the left taps weigh 0 everywhere and
// are dropped: one tap, a product, no sum.
// CHECK-LABEL: func.func @crop(
// CHECK-DAG: arith.constant dense<[1, 2, -1]> : tensor<3xi32>
// CHECK: tensor.map
// CHECK: %[[IN:.*]] = arith.cmpi sge
// CHECK-NOT: arith.addf
// CHECK: %[[V:.*]] = arith.mulf
// CHECK-NOT: arith.addf
// CHECK: %[[E:.*]] = arith.constant 9.000000e+00 : f32
// CHECK: %[[R:.*]] = arith.select %[[IN]], %[[V]], %[[E]] : f32
// CHECK: tensor.yield %[[R]] : f32
func.func @crop(%x: tensor<3xf32>) -> tensor<3xf32> {
  %r = graph.constant dense<[0.5, 1.5]> : tensor<2xf32>
  %z = graph.constant dense<[3]> : tensor<1xi64>
  %0 = graph.resize %x roi %r sizes %z {mode = "linear", coordinate_transformation_mode = "tf_crop_and_resize", extrapolation_value = 9.000000e+00 : f64} : (tensor<3xf32>, tensor<2xf32>, tensor<1xi64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// What does not lower: each is reported at its op.
func.func @unsupported(%x: tensor<1x1x4x4xf32>, %s: tensor<4xf32>, %i: tensor<1x1x2x2xi32>, %y: tensor<2x2x4x4xf32>) -> (tensor<1x1x8x8xf32>, tensor<1x1x2x2xf32>, tensor<1x1x4x4xi32>, tensor<4x4x8x8xf32>) {
  // expected-error @+1 {{'graph.resize' op has scales that are not a constant}}
  %0 = graph.resize %x scales %s {mode = "linear"} : (tensor<1x1x4x4xf32>, tensor<4xf32>) -> tensor<1x1x8x8xf32>
  %z = graph.constant dense<[1, 1, 2, 2]> : tensor<4xi64>
  // expected-error @+1 {{'graph.resize' op has antialias, which cannot be lowered to tensor yet}}
  %1 = graph.resize %x sizes %z {mode = "linear", antialias = true} : (tensor<1x1x4x4xf32>, tensor<4xi64>) -> tensor<1x1x2x2xf32>
  %z2 = graph.constant dense<[1, 1, 4, 4]> : tensor<4xi64>
  // expected-error @+1 {{'graph.resize' op interpolates 'i32' elements (linear or cubic on integers), which cannot be lowered to tensor yet}}
  %2 = graph.resize %i sizes %z2 {mode = "linear"} : (tensor<1x1x2x2xi32>, tensor<4xi64>) -> tensor<1x1x4x4xi32>
  // Cubic along four axes: 4^4 taps.
  %s3 = graph.constant dense<2.0> : tensor<4xf32>
  // expected-error @+1 {{'graph.resize' op reads more than 64 taps per element, which cannot be lowered to tensor yet}}
  %3 = graph.resize %y scales %s3 {mode = "cubic"} : (tensor<2x2x4x4xf32>, tensor<4xf32>) -> tensor<4x4x8x8xf32>
  return %0, %1, %2, %3 : tensor<1x1x8x8xf32>, tensor<1x1x2x2xf32>, tensor<1x1x4x4xi32>, tensor<4x4x8x8xf32>
}
