// Models of old opsets, imported by their own op definitions
// (Inputs/legacy.py writes them; the expected output is NumPy's): Add with
// broadcast/axis, Clip, Pad and Slice attributes, and Softmax's coercion
// to 2-D, at opset 6; eagerly and in graph mode. A Concat without an axis
// (opset 1) is older than strata implements.
// RUN: strata import %S/Inputs/legacy-opset6.onnx | FileCheck %s
// RUN: strata run %S/Inputs/legacy-opset6.onnx --input x=%S/Inputs/legacy-x.npy --expect y=%S/Inputs/legacy-y.npy | FileCheck %s --check-prefix=OUT
// RUN: strata run %S/Inputs/legacy-opset6.onnx --mode graph --input x=%S/Inputs/legacy-x.npy --expect y=%S/Inputs/legacy-y.npy | FileCheck %s --check-prefix=OUT
// RUN: not strata import %S/Inputs/legacy-opset1.onnx 2>&1 | FileCheck %s --check-prefix=OLD
// Dropout's mask has the input's type before opset 10 (ones in inference):
// RUN: strata run %S/Inputs/legacy-dropout7.onnx --input x=%S/Inputs/legacy-x.npy --expect y=%S/Inputs/legacy-x.npy --expect mask=%S/Inputs/legacy-mask.npy | FileCheck %s --check-prefix=DROP
// DROP: mask: f32 [2, 3, 4, 5]
// DROP: y: matches
// DROP: mask: matches

// CHECK: graph.unsqueeze %{{.*}} : (tensor<3xf32>, tensor<2xi64>) -> tensor<3x1x1xf32>
// CHECK: graph.add
// CHECK: graph.clip
// CHECK: graph.pad
// CHECK: graph.slice
// CHECK: graph.flatten %{{.*}} : (tensor<2x3x4x5xf32>) -> tensor<2x60xf32>
// CHECK: graph.softmax %{{.*}} {axis = 1 : i64} : (tensor<2x60xf32>) -> tensor<2x60xf32>
// CHECK: graph.reshape
// OUT-NOT: does not match
// OUT: y: matches {{.*}}legacy-y.npy
// OLD: legacy-opset1.onnx: node 'join/Concat': Concat at opset 1 is not supported: strata implements Concat from opset 4
