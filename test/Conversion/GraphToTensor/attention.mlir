// graph.attention: two contractions around a softmax. Keys and values with
// fewer heads than the queries (grouped-query attention) are read into the
// queries' batch shape first (query head h reads key head h floordiv 2);
// the scores are scaled by 1/sqrt(E), an i1 mask selects -inf where it is
// false, is_causal selects -inf after the query's position, and the softmax
// runs over the key positions.
// REQUIRES: strata-opt
// RUN: strata-opt --convert-graph-to-tensor %s | FileCheck %s
// RUN: strata-opt --convert-graph-to-tensor %s | strata-opt | FileCheck %s

// CHECK-DAG: #[[HEADS:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1 floordiv 2, d2, d3)>
// CHECK-DAG: #[[Q:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
// CHECK-DAG: #[[K:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
// CHECK-DAG: #[[S:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[V:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
// CHECK-DAG: #[[MASK:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d2, d3)>

// CHECK-LABEL: func.func @gqa(
// CHECK: %[[K4:.*]] = tensor.map ins(%arg1 : tensor<1x2x5x8xf32>) maps [#[[HEADS]]]
// CHECK: } : tensor<1x4x5x8xf32>
// CHECK: %[[V4:.*]] = tensor.map ins(%arg2 : tensor<1x2x5x6xf32>) maps [#[[HEADS]]]
// CHECK: } : tensor<1x4x5x6xf32>
// CHECK: %[[QK:.*]] = tensor.contract ins(%arg0, %[[K4]] : tensor<1x4x3x8xf32>, tensor<1x4x5x8xf32>) maps [#[[Q]], #[[K]], #[[S]]] : tensor<1x4x3x5xf32>
// CHECK: %[[W:.*]] = tensor.map ins(%[[QK]], %arg3 : tensor<1x4x3x5xf32>, tensor<3x5xi1>) maps [#{{.*}}, #[[MASK]]] {
// CHECK: arith.constant 0.353553385 : f32
// CHECK: arith.mulf
// CHECK: arith.select %{{.*}}, %{{.*}}, %[[NEGINF:.*]] : f32
// CHECK: %[[ROW:.*]] = tensor.index 2 : index
// CHECK: %[[COL:.*]] = tensor.index 3 : index
// CHECK: %[[AFTER:.*]] = arith.cmpi sgt, %[[COL]], %[[ROW]] : index
// CHECK: arith.select %[[AFTER]], %[[NEGINF]], %{{.*}} : f32
// CHECK: tensor.reduce ins(%[[W]] : tensor<1x4x3x5xf32>) dims [3] init(0xFF800000 : f32)
// CHECK: math.exp
// CHECK: tensor.reduce ins(%{{.*}} : tensor<1x4x3x5xf32>) dims [3] init(0.000000e+00 : f32)
// CHECK: %[[P:.*]] = tensor.map
// CHECK: arith.divf
// CHECK: tensor.contract ins(%[[P]], %[[V4]] : tensor<1x4x3x5xf32>, tensor<1x4x5x6xf32>) maps [#[[Q]], #[[V]], #[[S]]] : tensor<1x4x3x6xf32>
func.func @gqa(%q: tensor<1x4x3x8xf32>, %k: tensor<1x2x5x8xf32>, %v: tensor<1x2x5x6xf32>, %m: tensor<3x5xi1>) -> tensor<1x4x3x6xf32> {
  %0 = graph.attention %q, %k, %v mask %m {is_causal = true} : (tensor<1x4x3x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x6xf32>, tensor<3x5xi1>) -> tensor<1x4x3x6xf32>
  return %0 : tensor<1x4x3x6xf32>
}

// Same batch shape: no copies; a float mask is added; an explicit scale.
// CHECK-LABEL: func.func @plain(
// CHECK-NOT: tensor.map ins(%arg1
// CHECK: tensor.contract ins(%arg0, %arg1 :
// CHECK: arith.constant 5.000000e-01 : f32
// CHECK: arith.addf
func.func @plain(%q: tensor<2x3x4xf32>, %k: tensor<2x5x4xf32>, %v: tensor<2x5x4xf32>, %m: tensor<2x3x5xf32>) -> tensor<2x3x4xf32> {
  %0 = graph.attention %q, %k, %v mask %m {scale = 5.000000e-01 : f64} : (tensor<2x3x4xf32>, tensor<2x5x4xf32>, tensor<2x5x4xf32>, tensor<2x3x5xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}
