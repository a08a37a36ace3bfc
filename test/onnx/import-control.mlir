// If, Loop and Scan imported as graph.if, graph.loop and graph.scan
// (Inputs/control.py writes the model and onnxruntime's outputs): branches
// of different shapes, a loop stopped by its condition whose carried value
// grows (its type widened to ?), an outer value used in a body, a scan
// along axis 1 with a reversed input and a reversed output. Eagerly on
// both branches; graph mode reports the control flow at its nodes.
// RUN: strata import %S/Inputs/control.onnx | FileCheck %s
// RUN: strata run %S/Inputs/control.onnx --input x=%S/Inputs/control-x.npy --expect y_if=%S/Inputs/control-y_if.npy --expect acc=%S/Inputs/control-acc.npy --expect emits=%S/Inputs/control-emits.npy --expect h=%S/Inputs/control-h.npy --expect outs=%S/Inputs/control-outs.npy | FileCheck %s --check-prefix=OUT
// RUN: strata run %S/Inputs/control.onnx --input x=%S/Inputs/control-xneg.npy --expect y_if=%S/Inputs/control-y_if-neg.npy | FileCheck %s --check-prefix=NEG
// RUN: not strata run %S/Inputs/control.onnx --mode graph --input x=%S/Inputs/control-x.npy 2>&1 | FileCheck %s --check-prefix=GRAPH

// CHECK: %[[C:.*]] = graph.greater
// CHECK: graph.if %[[C]] : tensor<i1> -> (tensor<?x4xf32>) {
// CHECK: graph.yield %{{.*}} : tensor<3x4xf32>
// CHECK: } else {
// CHECK: graph.yield %{{.*}} : tensor<2x4xf32>
// CHECK: graph.loop(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<i64>, tensor<i1>, tensor<1xf32>) -> (tensor<?xf32>, tensor<?x4xf32>) {
// CHECK-NEXT: ^bb0(%{{.*}}: tensor<i64>, %{{.*}}: tensor<i1>, %{{.*}}: tensor<?xf32>):
// CHECK: graph.gather %arg0
// CHECK: graph.yield %{{.*}}, %{{.*}}, %{{.*}} : tensor<i1>, tensor<?xf32>, tensor<4xf32>
// CHECK: graph.scan({{.*}}) {num_scan_inputs = 2 : i64, scan_input_axes = array<i64: 1, 1>, scan_input_directions = array<i64: 0, 1>, scan_output_axes = array<i64: 1>, scan_output_directions = array<i64: 1>} : (tensor<4xf32>, tensor<3x5x4xf32>, tensor<3x5x4xf32>) -> (tensor<4xf32>, tensor<4x5xf32>) {
// CHECK-NEXT: ^bb0(%{{.*}}: tensor<4xf32>, %{{.*}}: tensor<3x4xf32>, %{{.*}}: tensor<3x4xf32>):

// OUT: y_if: matches {{.*}}control-y_if.npy
// OUT: acc: matches {{.*}}control-acc.npy
// OUT: emits: matches {{.*}}control-emits.npy
// OUT: h: matches {{.*}}control-h.npy
// OUT: outs: matches {{.*}}control-outs.npy
// NEG: y_if: f32 [3, 4]
// NEG: y_if: matches {{.*}}control-y_if-neg.npy

// GRAPH: control.onnx: node 'If#2': error: 'graph.if' op is control flow, which cannot be lowered to tensor yet (run the model in eager mode)
// GRAPH-NEXT: control.onnx: node 'Loop#3': error: 'graph.loop' op is control flow, which cannot be lowered to tensor yet (run the model in eager mode)
// GRAPH-NEXT: control.onnx: node 'Scan#4': error: 'graph.scan' op is control flow, which cannot be lowered to tensor yet (run the model in eager mode)
