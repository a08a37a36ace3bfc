// Shapes computed at run time, as exporters write them (Shape, Gather,
// Unsqueeze, Concat, Slice feeding Reshape): the importer evaluates them
// over symbolic sizes, so both reshapes keep batch and seq and the model
// passes --verify-shapes. Inputs/exported.py writes the model; its output
// declares only a rank.
// RUN: strata import %S/Inputs/exported.onnx --verify-shapes | FileCheck %s
// RUN: strata run %S/Inputs/exported.onnx --mode eager --dim batch=2 --dim seq=3 --print | FileCheck %s --check-prefix=EAGER

// CHECK: func.func @main(%arg0: tensor<?x?x4xf32, #graph.dims<batch, seq>> {onnx.name = "x"}) -> (tensor<?x?x4xf32, #graph.dims<batch, seq>> {onnx.name = "y"})
// CHECK: %[[SPLIT:.*]] = graph.reshape %arg0, %{{.*}} : (tensor<?x?x4xf32, #graph.dims<batch, seq>>, tensor<4xi64>) -> tensor<?x?x2x2xf32, #graph.dims<batch, seq>>
// CHECK: graph.transpose %[[SPLIT]] {{.*}} -> tensor<?x2x?x2xf32, #graph.dims<batch, seq>>
// CHECK: %[[Y:.*]] = graph.reshape %{{.*}}, %{{.*}} : (tensor<?x?x2x2xf32, #graph.dims<batch, seq>>, tensor<3xi64>) -> tensor<?x?x4xf32, #graph.dims<batch, seq>>
// CHECK: return %[[Y]]

// EAGER: y: f32 [2, 3, 4]

// Outputs that other nodes also use, declared with symbols of ONNX's shape
// inference (Inputs/declared-outputs.onnx, from exported.py): a value other
// ops use keeps its inferred type, and only the last is refined (refining
// both would contradict the transpose's inferred result).
// RUN: strata import %S/Inputs/declared-outputs.onnx | FileCheck %s --check-prefix=DECL
// DECL: func.func @main(%arg0: tensor<3x4xf32> {onnx.name = "x"}) -> (tensor<2x?xi64> {onnx.name = "where"}, tensor<?x2xi64, #graph.dims<unk__2>> {onnx.name = "rows"})
// DECL: graph.transpose %0 {perm = array<i64: 1, 0>} : (tensor<2x?xi64>) -> tensor<?x2xi64, #graph.dims<unk__2>>
