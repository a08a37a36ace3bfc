// REQUIRES: strata-opt
// Importing examples/onnx/mlp.onnx: the inputs and outputs keep their ONNX
// names, `batch` becomes a symbolic dimension that shape inference carries
// through every op, initializers become constants (hex blobs when large),
// and each op is located at its ONNX node.
// RUN: strata import %S/../../examples/onnx/mlp.onnx --mlir-print-debuginfo | FileCheck %s
// RUN: strata import %S/../../examples/onnx/mlp.onnx --verify-shapes | strata-opt --graph-infer-shapes --graph-verify | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: strata import %S/../../examples/onnx/mlp.onnx --mlir-print-op-generic | strata-opt | FileCheck %s --check-prefix=ROUNDTRIP

// CHECK: #loc = loc("mlp.onnx":0:0)
// CHECK: func.func @main(%arg0: tensor<?x16xf32, #graph.dims<batch>> {onnx.name = "x"} loc({{.*}})) -> (tensor<?x10xf32, #graph.dims<batch>> {onnx.name = "probs"})
// CHECK: %0 = graph.constant dense<"0x{{[0-9A-F]+}}"> : tensor<16x32xf32> loc([[W1:#loc[0-9]+]])
// CHECK: %3 = graph.constant dense<[{{.*}}]> : tensor<10xf32>
// CHECK: graph.matmul %arg0, %0 : (tensor<?x16xf32, #graph.dims<batch>>, tensor<16x32xf32>) -> tensor<?x32xf32, #graph.dims<batch>> loc([[MATMUL:#loc[0-9]+]])
// CHECK: graph.gemm %{{.*}}, %2, %3 {transB = true} : (tensor<?x32xf32, #graph.dims<batch>>, tensor<10x32xf32>, tensor<10xf32>) -> tensor<?x10xf32, #graph.dims<batch>>
// CHECK: graph.softmax %{{.*}} : (tensor<?x10xf32, #graph.dims<batch>>) -> tensor<?x10xf32, #graph.dims<batch>>
// CHECK-DAG: [[W1]] = loc("fc1.weight"(#loc))
// CHECK-DAG: [[MATMUL]] = loc("fc1/MatMul"(#loc))

// ROUNDTRIP: func.func @main(%arg0: tensor<?x16xf32, #graph.dims<batch>> {onnx.name = "x"}) -> (tensor<?x10xf32, #graph.dims<batch>> {onnx.name = "probs"})
// ROUNDTRIP: graph.softmax
