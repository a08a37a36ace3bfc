// A 3-D ConvTranspose (groups, strides, dilations, asymmetric pads,
// output_padding, bias; and auto_pad=SAME_UPPER) imported as 2-D transposed
// convolutions, one per kernel depth, whose depths are spread by the stride
// and shifted into place (Inputs/conv-transpose3d.py writes the model and
// onnxruntime's outputs), checked eagerly.
// RUN: strata import %S/Inputs/conv-transpose3d.onnx | FileCheck %s
// RUN: strata run %S/Inputs/conv-transpose3d.onnx --input x=%S/Inputs/conv-transpose3d-x.npy --expect y=%S/Inputs/conv-transpose3d-y.npy --expect z=%S/Inputs/conv-transpose3d-z.npy | FileCheck %s --check-prefix=OUT

// The depths folded into the batch, one 2-D transposed convolution per
// kernel depth, the depths spread with zeros (stride 2) and padded or cut
// into place, summed, moved back behind the channels.
// CHECK: graph.transpose %arg0 {perm = array<i64: 0, 2, 1, 3, 4>} : (tensor<2x4x3x4x3xf32>) -> tensor<2x3x4x4x3xf32>
// CHECK: graph.conv_transpose2d {{.*}} : (tensor<6x4x4x3xf32>, tensor<4x3x2x2xf32>) -> tensor<6x6x4x6xf32>
// CHECK: graph.concat {{.*}} {axis = 2 : i64} : (tensor<2x3x1x6x4x6xf32>, tensor<2x3x1x6x4x6xf32>) -> tensor<2x3x2x6x4x6xf32>
// CHECK: graph.pad {{.*}} -> tensor<2x9x6x4x6xf32>
// CHECK: graph.add
// CHECK: graph.transpose {{.*}} -> tensor<2x6x9x4x6xf32>
// OUT: y: matches {{.*}}conv-transpose3d-y.npy
// OUT: z: matches {{.*}}conv-transpose3d-z.npy
