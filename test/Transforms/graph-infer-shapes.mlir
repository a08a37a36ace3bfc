// REQUIRES: strata-opt
// graph-infer-shapes refines declared result types with the shape functions
// and updates the function types; contradictions are in
// graph-infer-shapes-invalid.mlir.
// RUN: strata-opt %s --graph-infer-shapes | FileCheck %s
// RUN: strata-opt %s --graph-infer-shapes --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// STATS: GraphInferShapes
// STATS-NEXT: (S) 16 num-refined - Number of result types refined

// Unranked and partially known results get the inferred shapes, with the
// symbols of the input; the reshape's -1 becomes the product batch*seq. The
// function's result type follows its return.
// CHECK-LABEL: func.func @mlp(
// CHECK-SAME: %arg0: tensor<?x?x768xf32, #graph.dims<batch, seq>>, %arg1: tensor<768x3072xf32>, %arg2: tensor<3072xf32>) -> tensor<?x3072xf32, #graph.dims<batch*seq>> {
// CHECK-NEXT: %0 = graph.matmul %arg0, %arg1 : (tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<768x3072xf32>) -> tensor<?x?x3072xf32, #graph.dims<batch, seq>>
// CHECK-NEXT: %1 = graph.add %0, %arg2 : (tensor<?x?x3072xf32, #graph.dims<batch, seq>>, tensor<3072xf32>) -> tensor<?x?x3072xf32, #graph.dims<batch, seq>>
// CHECK-NEXT: %2 = graph.gelu %1 {approximate = "tanh"} : (tensor<?x?x3072xf32, #graph.dims<batch, seq>>) -> tensor<?x?x3072xf32, #graph.dims<batch, seq>>
// CHECK-NEXT: %3 = graph.constant dense<[-1, 3072]> : tensor<2xi64>
// CHECK-NEXT: %4 = graph.reshape %2, %3 : (tensor<?x?x3072xf32, #graph.dims<batch, seq>>, tensor<2xi64>) -> tensor<?x3072xf32, #graph.dims<batch*seq>>
// CHECK-NEXT: return %4 : tensor<?x3072xf32, #graph.dims<batch*seq>>
// CHECK-NEXT: }
func.func @mlp(%arg0: tensor<?x?x768xf32, #graph.dims<batch, seq>>, %arg1: tensor<768x3072xf32>, %arg2: tensor<3072xf32>) -> tensor<?x?xf32> {
  %0 = graph.matmul %arg0, %arg1 : (tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<768x3072xf32>) -> tensor<*xf32>
  %1 = graph.add %0, %arg2 : (tensor<*xf32>, tensor<3072xf32>) -> tensor<*xf32>
  %2 = graph.gelu %1 {approximate = "tanh"} : (tensor<*xf32>) -> tensor<*xf32>
  %3 = graph.constant dense<[-1, 3072]> : tensor<2xi64>
  %4 = graph.reshape %2, %3 : (tensor<*xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %4 : tensor<?x?xf32>
}

// A concat along a symbolic axis gives 2*seq, which an equal split halves
// back to seq; shape_of of a ranked tensor has a static length, and a cast
// takes its declared element type with the inferred shape.
// CHECK-LABEL: func.func @kv_cache(
// CHECK-SAME: %arg0: tensor<?x12x?x64xf32, #graph.dims<batch, seq>>, %arg1: tensor<?x12x?x64xf32, #graph.dims<batch, seq>>) -> (tensor<?x12x?x64xf32, #graph.dims<batch, 2*seq>>, tensor<?x12x?x64xf32, #graph.dims<batch, seq>>, tensor<4xi64>) {
// CHECK-NEXT: %0 = graph.concat %arg0, %arg1 {axis = 2 : i64} : (tensor<?x12x?x64xf32, #graph.dims<batch, seq>>, tensor<?x12x?x64xf32, #graph.dims<batch, seq>>) -> tensor<?x12x?x64xf32, #graph.dims<batch, 2*seq>>
// CHECK-NEXT: %1:2 = graph.split %0 {axis = 2 : i64} : (tensor<?x12x?x64xf32, #graph.dims<batch, 2*seq>>) -> (tensor<?x12x?x64xf32, #graph.dims<batch, seq>>, tensor<?x12x?x64xf32, #graph.dims<batch, seq>>)
// CHECK-NEXT: %2 = graph.shape_of %1#1 : (tensor<?x12x?x64xf32, #graph.dims<batch, seq>>) -> tensor<4xi64>
// CHECK-NEXT: %3 = graph.cast %2 : (tensor<4xi64>) -> tensor<4xi64>
// CHECK-NEXT: return %0, %1#0, %3 : tensor<?x12x?x64xf32, #graph.dims<batch, 2*seq>>, tensor<?x12x?x64xf32, #graph.dims<batch, seq>>, tensor<4xi64>
// CHECK-NEXT: }
func.func @kv_cache(%arg0: tensor<?x12x?x64xf32, #graph.dims<batch, seq>>, %arg1: tensor<?x12x?x64xf32, #graph.dims<batch, seq>>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xi64>) {
  %0 = graph.concat %arg0, %arg1 {axis = 2 : i64} : (tensor<?x12x?x64xf32, #graph.dims<batch, seq>>, tensor<?x12x?x64xf32, #graph.dims<batch, seq>>) -> tensor<*xf32>
  %1:2 = graph.split %0 {axis = 2 : i64} : (tensor<*xf32>) -> (tensor<*xf32>, tensor<?x?x?x?xf32>)
  %2 = graph.shape_of %1#1 : (tensor<?x?x?x?xf32>) -> tensor<?xi64>
  %3 = graph.cast %2 : (tensor<?xi64>) -> tensor<*xi64>
  return %0, %1#0, %3 : tensor<*xf32>, tensor<*xf32>, tensor<*xi64>
}

// A static network is resolved end to end.
// CHECK-LABEL: func.func @cnn(
// CHECK-SAME: %arg0: tensor<1x3x32x32xf32>, %arg1: tensor<16x3x3x3xf32>, %arg2: tensor<10x1024xf32>, %arg3: tensor<10xf32>) -> tensor<1x10xf32> {
// CHECK-NEXT: %0 = graph.conv2d %arg0, %arg1 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x32x32xf32>
// CHECK-NEXT: %1 = graph.relu %0 : (tensor<1x16x32x32xf32>) -> tensor<1x16x32x32xf32>
// CHECK-NEXT: %2 = graph.max_pool2d %1 {kernel_shape = array<i64: 4, 4>, strides = array<i64: 4, 4>} : (tensor<1x16x32x32xf32>) -> tensor<1x16x8x8xf32>
// CHECK-NEXT: %3 = graph.flatten %2 : (tensor<1x16x8x8xf32>) -> tensor<1x1024xf32>
// CHECK-NEXT: %4 = graph.gemm %3, %arg2, %arg3 {transB = true} : (tensor<1x1024xf32>, tensor<10x1024xf32>, tensor<10xf32>) -> tensor<1x10xf32>
// CHECK-NEXT: %5 = graph.softmax %4 : (tensor<1x10xf32>) -> tensor<1x10xf32>
// CHECK-NEXT: return %5 : tensor<1x10xf32>
// CHECK-NEXT: }
func.func @cnn(%arg0: tensor<1x3x32x32xf32>, %arg1: tensor<16x3x3x3xf32>, %arg2: tensor<10x1024xf32>, %arg3: tensor<10xf32>) -> tensor<*xf32> {
  %0 = graph.conv2d %arg0, %arg1 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<*xf32>
  %1 = graph.relu %0 : (tensor<*xf32>) -> tensor<*xf32>
  %2 = graph.max_pool2d %1 {kernel_shape = array<i64: 4, 4>, strides = array<i64: 4, 4>} : (tensor<*xf32>) -> tensor<?x?x?x?xf32>
  %3 = graph.flatten %2 : (tensor<?x?x?x?xf32>) -> tensor<?x?xf32>
  %4 = graph.gemm %3, %arg2, %arg3 {transB = true} : (tensor<?x?xf32>, tensor<10x1024xf32>, tensor<10xf32>) -> tensor<*xf32>
  %5 = graph.softmax %4 : (tensor<*xf32>) -> tensor<*xf32>
  return %5 : tensor<*xf32>
}

// What inference does not know (a non-constant reshape target, the symbolic
// rows of a dynamic input) keeps the declared symbols.
// CHECK-LABEL: func.func @keep_declared(
// CHECK-SAME: %arg0: tensor<?x8xf32>, %arg1: tensor<2xi64>) -> (tensor<?x?xf32, #graph.dims<rows, cols>>, tensor<?x8xf32, #graph.dims<n>>) {
// CHECK-NEXT: %0 = graph.reshape %arg0, %arg1 : (tensor<?x8xf32>, tensor<2xi64>) -> tensor<?x?xf32, #graph.dims<rows, cols>>
// CHECK-NEXT: %1 = graph.exp %arg0 : (tensor<?x8xf32>) -> tensor<?x8xf32, #graph.dims<n>>
// CHECK-NEXT: return %0, %1 : tensor<?x?xf32, #graph.dims<rows, cols>>, tensor<?x8xf32, #graph.dims<n>>
// CHECK-NEXT: }
func.func @keep_declared(%arg0: tensor<?x8xf32>, %arg1: tensor<2xi64>) -> (tensor<?x?xf32, #graph.dims<rows, cols>>, tensor<?x8xf32, #graph.dims<n>>) {
  %0 = graph.reshape %arg0, %arg1 : (tensor<?x8xf32>, tensor<2xi64>) -> tensor<?x?xf32, #graph.dims<rows, cols>>
  %1 = graph.exp %arg0 : (tensor<?x8xf32>) -> tensor<?x8xf32, #graph.dims<n>>
  return %0, %1 : tensor<?x?xf32, #graph.dims<rows, cols>>, tensor<?x8xf32, #graph.dims<n>>
}

// A declared symbol where the size is known is replaced by the size.
// CHECK-LABEL: func.func @symbol_to_static(
// CHECK-SAME: %arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT: %0 = graph.exp %arg0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %0 : tensor<4x8xf32>
// CHECK-NEXT: }
func.func @symbol_to_static(%arg0: tensor<4x8xf32>) -> tensor<?x8xf32, #graph.dims<n>> {
  %0 = graph.exp %arg0 : (tensor<4x8xf32>) -> tensor<?x8xf32, #graph.dims<n>>
  return %0 : tensor<?x8xf32, #graph.dims<n>>
}
