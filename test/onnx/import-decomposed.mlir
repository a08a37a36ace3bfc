// ONNX ops that import as compositions of graph ops (PRelu, Trilu with a
// dynamic row count, Hardmax); Inputs/decomposed.py writes the model.
// The symbol n of the row count flows through the mask built from
// shape_of and range, so every shape resolves (--verify-shapes).
// RUN: strata import %S/Inputs/decomposed.onnx --verify-shapes | FileCheck %s
// RUN: strata run %S/Inputs/decomposed.onnx --mode eager --input x=%S/Inputs/x-2x3.npy --print | FileCheck %s --check-prefix=EAGER

// PRelu: where(x < 0, x * slope, x).
// CHECK: %[[LT:.*]] = graph.less %arg0, %{{.*}} : (tensor<?x3xf32, #graph.dims<n>>, tensor<f32>) -> tensor<?x3xi1, #graph.dims<n>>
// CHECK: %[[SCALED:.*]] = graph.mul %arg0, %{{.*}} : (tensor<?x3xf32, #graph.dims<n>>, tensor<3xf32>)
// CHECK: %[[P:.*]] = graph.where %[[LT]], %[[SCALED]], %arg0
// Trilu (lower): keep where column - row <= k, rows from the run-time size.
// CHECK: %[[N:.*]] = graph.shape_of %[[P]] {end = 1 : i64}
// CHECK: graph.range %{{.*}}, %{{.*}}, %{{.*}} : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64, #graph.dims<n>>
// CHECK: %[[DIFF:.*]] = graph.sub %{{.*}}, %{{.*}} : (tensor<3xi64>, tensor<?x1xi64, #graph.dims<n>>) -> tensor<?x3xi64, #graph.dims<n>>
// CHECK: %[[KEEP:.*]] = graph.less_equal %[[DIFF]], %{{.*}}
// CHECK: %[[T:.*]] = graph.where %[[KEEP]], %[[P]], %{{.*}}
// Hardmax: argmax (keeping dims) compared with positions, cast back.
// CHECK: %[[ARG:.*]] = graph.argmax %[[T]] {axis = 1 : i64}
// CHECK: %[[AT:.*]] = graph.equal %[[ARG]], %{{.*}} : (tensor<?x1xi64, #graph.dims<n>>, tensor<3xi64>) -> tensor<?x3xi1, #graph.dims<n>>
// CHECK: %[[H:.*]] = graph.cast %[[AT]]
// CHECK: return %[[T]], %[[H]]

// x = [[-4, 2, -8], [1, -2, 3]], slope = [0.5, 0.25, 0.125].
// EAGER: t: f32 [2, 3]
// EAGER-NEXT: {{\[\[-2.0, 0.0, 0.0\], \[1.0, -0.5, 0.0\]\]}}
// EAGER-NEXT: h: f32 [2, 3]
// EAGER-NEXT: {{\[\[0.0, 1.0, 0.0\], \[1.0, 0.0, 0.0\]\]}}
